"""Framework transforms (Equinox, Flax NNX and Linen, jax.shard_map) are known by default,
with the behaviour the generator measured; --jaxnp-extra-transforms warns about names
that cannot name one."""
import importlib.util
import json
import subprocess
import sys

import pytest

from conftest import ROOT
from expectations import expected_findings
from flake8_jaxnp import api

INPUTS = sorted((ROOT / "tests" / "model" / "framework_inputs").glob("*.py"))


def flake8(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "JNP",
                           "--format", "%(row)d\t%(code)s", *args], capture_output=True, text=True, cwd=cwd)


@pytest.mark.parametrize("path", INPUTS, ids=lambda path: path.name)
def test_framework_transforms_draw_exactly_the_marks(path):
    result = flake8(str(path))
    found = {(int(row), code) for row, code in (line.split("\t") for line in result.stdout.splitlines())}
    assert found == expected_findings(path)


@pytest.mark.skipif(not all(importlib.util.find_spec(m) for m in ("equinox", "flax")),
                    reason="needs equinox and flax: pip install '.[frameworks]'")
@pytest.mark.parametrize("path", INPUTS, ids=lambda path: path.name)
def test_framework_findings_are_confirmed_at_runtime(path):
    result = subprocess.run([sys.executable, "-m", "flake8_jaxnp.confirm", "--format", "json", str(path)],
                            capture_output=True, text=True, cwd=ROOT)
    report = json.loads(result.stdout)
    assert {(row["line"], row["codes"][0]) for row in report["results"]} == expected_findings(path)
    assert [row for row in report["results"] if row["verdict"] != "confirmed"] == []
    quiet = [case["case"] for case in report["cases"] if case["case"].startswith("case_ok") and case["events"]]
    assert quiet == []
    assert result.returncode == 0, result.stderr


def test_the_generator_recorded_every_framework_the_corpus_uses():
    recorded = api.framework_transforms()
    for name in ("equinox.filter_jit", "equinox.filter_vmap", "equinox.filter_grad", "flax.nnx.jit",
                 "flax.nnx.vmap", "flax.nnx.grad", "flax.linen.jit", "flax.linen.vmap", "jax.shard_map"):
        assert name in recorded, name
        assert recorded[name]["measured_with"].split()[0] == name.split(".")[0]


@pytest.mark.parametrize("name, message", [
    ("eqx.filter_jit", "'eqx.filter_jit' starts with an import alias, not a module; it is ignored "
                       "(write equinox.filter_jit)"),
    ("filter_jit", "'filter_jit' is not a dotted path such as equinox.filter_jit; it is ignored"),
    ("no_such_lib.jit", "'no_such_lib.jit': no module 'no_such_lib' is installed or in the working directory"),
])
def test_extra_transforms_that_cannot_work_are_named_once(tmp_path, name, message):
    (tmp_path / "a.py").write_text("import jax\n")
    (tmp_path / "b.py").write_text("import jax\n")
    result = flake8("-j", "2", f"--jaxnp-extra-transforms={name}", "a.py", "b.py", cwd=tmp_path)
    assert result.stderr.splitlines() == [f"flake8-jaxnp: --jaxnp-extra-transforms: {message}"]


def test_an_aliased_extra_transform_is_not_used(tmp_path):
    source = "import mylib as ml\nimport numpy as np\n\n@ml.trace\ndef f(x):\n    return np.sin(x)\n"
    (tmp_path / "mylib.py").write_text("")
    (tmp_path / "a.py").write_text(source)
    assert flake8("--jaxnp-extra-transforms=mylib.trace", "a.py", cwd=tmp_path).stdout == "6\tJNP201\n"
    assert flake8("--jaxnp-extra-transforms=ml.trace", "a.py", cwd=tmp_path).stdout == ""
