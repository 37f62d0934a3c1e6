"""The releases ``jax_api.json`` is generated from, and how an installed stack differs.

The facts depend on more than JAX: NumPy's own functions and promotions, ml_dtypes'
``bfloat16`` (0.7 made NumPy promote it with integers), and what else JAX loads
while the generator probes it. The file records each release (``generated_with``),
the test extra pins the same ones, and ``--check`` compares the file with a
regeneration only on that stack: elsewhere a difference says nothing about the file.
"""
import importlib.metadata

# JAX and every package it loads while the generator runs it.
PACKAGES = ("jax", "jaxlib", "numpy", "ml_dtypes", "scipy", "opt_einsum")


def installed(names):
    """{distribution: installed version, or None where it is not installed}."""
    versions = {}
    for name in names:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def generated_with(framework_versions):
    """The stack to record: the installed ``PACKAGES`` and the frameworks' releases the
    framework entries were measured with (kept from the file where one is not installed)."""
    return dict(framework_versions, **installed(PACKAGES))


def differences(recorded, now=None):
    """'name: X in the data file, Y installed' for each package whose installed release is
    not the recorded one (``now`` defaults to what is installed). A framework that is not
    installed is no difference: the generator keeps the entries measured with it."""
    names = sorted(set(recorded) | set(PACKAGES))
    now = installed(names) if now is None else now
    return [f"{name}: {recorded.get(name) or 'none'} in the data file, {now.get(name) or 'not'} installed"
            for name in names
            if recorded.get(name) != now.get(name) and not (now.get(name) is None and name not in PACKAGES)]
