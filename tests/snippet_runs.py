"""Run code snippets under JAX in a fresh process: what each raises, prints and computes.

The rule pages' tests run each rule's ``example`` and ``instead`` with it; the fix proofs
compare a fixed example with ``instead`` by what both print and the arrays they leave.
"""
import json
import subprocess
import sys

# Runs each snippet in a fresh namespace and prints {label: {"raised": exception class name or "",
# "printed": its stdout, "arrays": {global name: [dtype, shape, digest of the values]} of the arrays it leaves}}.
RUN_SNIPPETS = """
import contextlib, hashlib, io, json, sys, warnings
import numpy as np
warnings.simplefilter("ignore")
outcome = {}
for label, source in json.load(sys.stdin).items():
    namespace, printed = {"__name__": "__main__"}, io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            exec(compile(source, label, "exec"), namespace)
        raised = ""
    except Exception as exc:
        raised = type(exc).__name__
    arrays = {}
    for name, value in namespace.items():
        if isinstance(getattr(value, "shape", None), tuple) and hasattr(value, "dtype"):
            try:
                digest = hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest()
            except Exception:  # a PRNG key array has no NumPy form, a donated one is deleted
                digest = None
            arrays[name] = [str(value.dtype), list(value.shape), digest]
    outcome[label] = {"raised": raised, "printed": printed.getvalue(), "arrays": arrays}
print(json.dumps(outcome))
"""


def run_snippets(snippets, cwd):
    """{label: {"raised", "printed", "arrays"}} for ``snippets`` ({label: source})."""
    result = subprocess.run([sys.executable, "-c", RUN_SNIPPETS], input=json.dumps(snippets),
                            capture_output=True, text=True, cwd=cwd, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])
