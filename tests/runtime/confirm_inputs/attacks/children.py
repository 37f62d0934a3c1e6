"""Attack: cases that leave processes behind (plain, in a new session, forked with the result
pipe) or a non-daemon thread. Each writes the pid it started to $JAXNP_ATTACK_PIDS."""
import os
import subprocess
import tempfile
import threading
import time


def _remember(pid):
    folder = os.environ.get("JAXNP_ATTACK_PIDS", tempfile.gettempdir())
    with open(os.path.join(folder, f"{pid}.pid"), "w") as handle:
        handle.write(str(pid))


def case_leave_a_child():
    _remember(subprocess.Popen(["sleep", "1000"]).pid)


def case_new_session_then_hang():
    _remember(subprocess.Popen(["sleep", "1000"], start_new_session=True).pid)
    while True:
        time.sleep(0.1)


def case_fork_holding_the_pipes():
    pid = os.fork()
    if pid == 0:
        time.sleep(1000)
        os._exit(0)
    _remember(pid)


def case_non_daemon_thread():
    threading.Thread(target=time.sleep, args=(1000,)).start()
