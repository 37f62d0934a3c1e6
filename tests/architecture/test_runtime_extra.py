"""``pip install ".[runtime]"`` is all docs/runtime.md asks for before its commands."""
import ast
import configparser
import importlib.metadata
import re
import sys

from conftest import ROOT


def _requirements(text):
    """The distribution names of a setup.cfg requirement list, normalized."""
    return {re.match(r"[A-Za-z0-9_.-]+", line.strip())[0].lower().replace("_", "-")
            for line in text.splitlines() if line.strip() and not line.strip().startswith("#")}


def _imported(folder):
    """The top-level modules that the files of ``folder`` import, other than the standard library's and ours."""
    names = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - {"flake8_jaxnp"}


def test_the_runtime_extra_installs_every_module_the_runtime_mode_imports():
    """The runtime mode (confirm/, its pytest plugin included: ``python -m pytest --jaxnp-confirm``
    needs pytest in the environment the extra was installed in, not another one on PATH)."""
    setup = configparser.ConfigParser()
    setup.read(ROOT / "setup.cfg", encoding="utf-8")
    installed = _requirements(setup["options"]["install_requires"]) | \
        _requirements(setup["options.extras_require"]["runtime"])
    providers = importlib.metadata.packages_distributions()
    needed = {distribution.lower() for name in _imported(ROOT / "flake8_jaxnp" / "confirm")
              for distribution in providers.get(name, [name])}
    assert {"jax", "pytest"} <= needed  # what the scan must find, or it finds nothing
    assert needed <= installed, sorted(needed - installed)


def test_the_documented_commands_run_in_the_environment_of_the_extra():
    text = (ROOT / "docs" / "runtime.md").read_text(encoding="utf-8")
    assert 'pip install ".[runtime]"' in text
    assert "python -m pytest --jaxnp-confirm" in text
    assert not re.search(r"^pytest --jaxnp-confirm", text, re.MULTILINE)  # a stray pytest on PATH would run
