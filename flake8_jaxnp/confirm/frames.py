"""Whose code a frame runs: a watched file's, JAX's or NumPy's, the standard library's, the runtime
mode's own, or other code of its own (an installed package the watched code calls).

Shared by the probes and by ``observe``; imports no jax, since the runner imports ``observe``
and never imports jax: the libraries' folders are found without importing them.
"""
import functools
import importlib.util
import os
import sys
import sysconfig


def _package_dir(name):
    """The folder of an installed package's code, found without importing it; None when not installed."""
    spec = importlib.util.find_spec(name)
    return os.path.dirname(spec.origin) + os.sep if spec is not None and spec.origin else None


# Directories whose frames stand between a conversion and the user line that
# caused it only when JAX or NumPy themselves asked for the value.
LIBRARY_DIRS = tuple(folder for folder in map(_package_dir, ("jax", "numpy")) if folder is not None)
# Libraries whose functions the API data measures on tracers (SciPy's too): an exception or a conversion
# inside them is the user line's call, not code of the user's own.
MEASURED_DIRS = tuple(folder for folder in map(_package_dir, ("jax", "numpy", "scipy")) if folder is not None)
# Frames that stand between an event and the watched line without taking it over: the standard
# library's (print, unittest's assertions) and the runtime mode's own.
PASSING_DIRS = tuple({sysconfig.get_paths()[key] + os.sep for key in ("stdlib", "platstdlib")})
OWN_DIR = os.path.dirname(__file__) + os.sep


def place_of(frame):
    return frame.f_code.co_filename, frame.f_lineno


def in_other_code(filename):
    """Whether a frame of this unwatched file runs code of its own: not JAX's, NumPy's or SciPy's, not the
    standard library's (installed packages are, even inside its folder), not the runtime mode's.
    Code compiled from a string (``<doctest ...>`` examples, ``exec``) is code of its own, which
    the linter never saw; a frozen standard module (``<frozen runpy>``) is not."""
    if filename.startswith((*MEASURED_DIRS, OWN_DIR, "<frozen ")):
        return False
    if filename.startswith("<"):
        return True
    return not filename.startswith(PASSING_DIRS) or f"{os.sep}site-packages{os.sep}" in filename \
        or f"{os.sep}dist-packages{os.sep}" in filename


@functools.lru_cache(maxsize=None)
def real_path(path):
    """os.path.realpath, once per module file (it asks the file system for every part)."""
    return os.path.realpath(path)


def watched_places(watched):
    """The places of the frames of ``watched`` files on the stack of the caller, innermost first."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename in watched:
            yield place_of(frame)
        frame = frame.f_back
