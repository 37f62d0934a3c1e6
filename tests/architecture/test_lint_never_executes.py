"""Linting never runs the linted code and never imports jax, jaxlib or numpy.

flake8 runs in a subprocess whose working directory holds the linted module
and decoy ``jax``/``numpy`` packages: importing either (or running the module)
writes a marker file. After linting, the subprocess lists what it imported.
"""
import json
import subprocess
import sys
import textwrap

import pytest

FORBIDDEN_MODULES = ("jax", "jaxlib", "numpy")
VICTIM = textwrap.dedent("""\
    import pathlib
    pathlib.Path(__file__).with_name("victim-ran").write_text("the linted module was executed")

    import jax
    import jax.numpy as jnp
    import numpy as np


    @jax.jit
    def step(x):
        print(x)
        return np.sin(x) + float(x)


    for i in range(3):
        y = np.asarray(step(jnp.ones(3)))
""")
# A decoy that records being imported; the working directory comes first on sys.path.
DECOY = ('import pathlib\n'
         'pathlib.Path(__file__).resolve().parent.parent.joinpath("{name}-imported").write_text("imported")\n')
# Runs flake8 in this process, then reports the modules it imported.
LAUNCHER = textwrap.dedent("""\
    import json, sys
    from flake8.main.cli import main
    main(sys.argv[2:])
    with open(sys.argv[1], "w") as handle:
        json.dump({"modules": sorted(sys.modules)}, handle)
""")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_linting_does_not_execute_or_import_the_linted_stack(tmp_path, jobs):
    """With -j 2 the files are linted in worker processes: their markers still count."""
    for victim in ("victim.py", "victim_copy.py"):
        (tmp_path / victim).write_text(VICTIM)
    for name in FORBIDDEN_MODULES:
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(DECOY.format(name=name))
    report = tmp_path / "report.json"
    result = subprocess.run(
        [sys.executable, "-c", LAUNCHER, str(report), "--isolated", "--jobs", jobs, "--select", "JNP",
         "--format", "%(code)s", "victim.py", "victim_copy.py"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert result.returncode == 0 and report.exists(), result.stderr
    facts = json.loads(report.read_text())
    codes = set(result.stdout.split())
    assert {"JNP201", "JNP202", "JNP301"} <= codes, "the plugin did not lint the file"
    assert "flake8_jaxnp.linter" in facts["modules"]
    assert not (tmp_path / "victim-ran").exists()
    for name in FORBIDDEN_MODULES:
        assert not (tmp_path / f"{name}-imported").exists(), f"{name} was imported"
        assert [m for m in facts["modules"] if m == name or m.startswith(name + ".")] == []
    # the fixer and libcst load only for the fix command: flake8's start-up stays as it was
    assert [m for m in facts["modules"] if m.split(".")[0] == "libcst" or m.startswith("flake8_jaxnp.autofix")] == []
