"""A script beside a package (within the folder ``pyproject.toml`` marks) that jits the package's functions
gives the package's reach roots: ``jax.jit(pick)`` of a helper's parameter the script fills with a function
of the package traces that function, though nobody lints the script with the package."""
import pytest

from test_project import codes_at, lint

CHOICE = '''import jax.numpy as jnp


def best(cands, scores):
    keep = cands > 0.5
    return jnp.max(scores[keep])
'''
SCRIPT = '''import jax
import jax.numpy as jnp

from {imported} import best


def choose(pick):
    cands = jnp.linspace(0.0, 1.0, 8)
    return jax.jit(pick)(cands, cands ** 2)


def main():
    return choose(best)
'''


def _write(root, script="scripts/explore.py", imported="lab.choice", marker="pyproject.toml"):
    (root / "lab").mkdir()
    (root / "lab" / "__init__.py").write_text("")
    (root / "lab" / "choice.py").write_text(CHOICE)
    if marker:
        (root / marker).write_text("")
    if script:
        (root / script).parent.mkdir(exist_ok=True)
        (root / script).write_text(SCRIPT.format(imported=imported))


@pytest.mark.parametrize("script, marker, expected", [
    ("scripts/explore.py", "pyproject.toml", [(6, "JNP203")]),
    ("scripts/explore.py", "setup.py", [(6, "JNP203")]),
    ("explore.py", "pyproject.toml", [(6, "JNP203")]),  # beside the package, at the project's root
    ("scripts/explore.py", None, []),  # no project folder: the scripts are nobody's
    ("scripts/test_explore.py", "pyproject.toml", []),  # a test module's traces are the tests' own
    (None, "pyproject.toml", []),
])
def test_a_script_beside_the_package_traces_what_it_jits_of_it(tmp_path, script, marker, expected):
    _write(tmp_path, script=script, marker=marker)
    assert codes_at(lint(tmp_path, "lab/choice.py")) == expected


def test_a_script_that_does_not_name_the_package_gives_no_root(tmp_path):
    _write(tmp_path, imported="helpers")
    (tmp_path / "scripts" / "helpers.py").write_text(CHOICE)
    assert codes_at(lint(tmp_path, "lab/choice.py")) == []
    assert codes_at(lint(tmp_path, "scripts/helpers.py")) == [(6, "JNP203")]  # (the script's folder's own reach)


def test_a_script_added_later_is_seen_with_a_warm_cache(tmp_path):
    _write(tmp_path, script=None)
    assert codes_at(lint(tmp_path, "lab/choice.py")) == []
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "explore.py").write_text(SCRIPT.format(imported="lab.choice"))
    assert codes_at(lint(tmp_path, "lab/choice.py")) == [(6, "JNP203")]
    (tmp_path / "scripts" / "explore.py").write_text(SCRIPT.format(imported="lab.choice").replace(
        "jax.jit(pick)(cands, cands ** 2)", "pick(cands, cands ** 2)"))
    assert codes_at(lint(tmp_path, "lab/choice.py")) == []
