"""CONTRIBUTING's habit, kept by a test: no package module over 600 lines (a module that grows past it
holds more than one idea; split it along one)."""
from pathlib import Path

import flake8_jaxnp

LIMIT = 600
PACKAGE = Path(flake8_jaxnp.__file__).parent


def test_no_package_module_is_over_the_limit():
    sizes = {str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines())
             for path in PACKAGE.rglob("*.py")}
    assert len(sizes) > 50  # the scan reads the package
    assert {name: size for name, size in sizes.items() if size > LIMIT} == {}
