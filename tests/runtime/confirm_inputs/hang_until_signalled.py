"""Runtime-confirmation input for the signal tests: a case that starts a child in its own session,
records both pids in $JAXNP_ATTACK_PIDS, and hangs until the run is interrupted."""
import os
import subprocess
import time


def case_hang_with_a_child():
    child = subprocess.Popen(["sleep", "1000"], start_new_session=True)
    folder = os.environ["JAXNP_ATTACK_PIDS"]
    for pid in (os.getpid(), child.pid):
        with open(os.path.join(folder, f"{pid}.pid"), "w") as handle:
            handle.write(str(pid))
    while True:
        time.sleep(0.1)
