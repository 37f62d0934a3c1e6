import ast
import ipaddress
import os
import shutil
import socket
import tempfile
from pathlib import Path

import pytest

from benchmarks import corpus

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


class DownloadInFastSuite(OSError):
    """The fast suite tried to reach another machine; what downloads belongs in the slow group."""


def _local_only(connect):
    def guarded(self, address):
        host = address[0] if isinstance(address, tuple) else None
        if host is not None and not _is_local(host):
            raise DownloadInFastSuite(f"the fast suite tried to connect to {host}: mark the test slow")
        return connect(self, address)
    return guarded


def _is_local(host):
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


_PRIVATE_HOME = "FLAKE8_JAXNP_TEST_HOME"  # where pytest_configure put the session's home


def pytest_configure(config):
    """Before any test module is imported (one that copies os.environ then would keep the user's
    HOME): HOME and XDG_CACHE_HOME point into a new temporary folder, for subprocesses too, so
    every cache the suite fills (project summaries, the runtime mode's XLA cache, the tools'
    own) is there, never in the user's ~/.cache. The slow group still reads its downloads (the
    corpus, the JAX releases) where they are."""
    home = Path(tempfile.mkdtemp(prefix="flake8-jaxnp-tests-"))
    os.environ.setdefault("FLAKE8_JAXNP_CORPUS", str(corpus.cache_dir()))
    os.environ.setdefault("FLAKE8_JAXNP_RELEASES", str(Path.home() / ".cache" / "flake8-jaxnp" / "jax-releases"))
    os.environ.update(HOME=str(home), XDG_CACHE_HOME=str(home / "cache"), **{_PRIVATE_HOME: str(home)})
    (home / "cache").mkdir()


def pytest_unconfigure(config):
    shutil.rmtree(os.environ.get(_PRIVATE_HOME, ""), ignore_errors=True)


@pytest.fixture(autouse=True, scope="session")
def private_caches():
    """The session's cache folder (XDG_CACHE_HOME). At the end, nothing may be in the plugin's
    default folder under the session's ~/.cache: that would be a test or a tool started with
    an environment that lost XDG_CACHE_HOME, which on a user's machine writes into theirs."""
    home = Path(os.environ[_PRIVATE_HOME])
    yield home / "cache"
    strays = sorted(str(path.relative_to(home)) for path in (home / ".cache" / "flake8-jaxnp").rglob("*"))
    assert strays == [], f"tests wrote {len(strays)} files into ~/.cache/flake8-jaxnp: {strays[:5]}"


@pytest.fixture(autouse=True)
def offline(request, monkeypatch, tmp_path_factory):
    """Outside the slow group nothing downloads: a socket reaches only this machine, pip in a
    subprocess reaches no index, and the caches of JAX releases and corpus wheels are empty."""
    if request.node.get_closest_marker("slow"):
        return
    empty = tmp_path_factory.getbasetemp() / "no-downloads"
    empty.mkdir(exist_ok=True)
    monkeypatch.setattr(socket.socket, "connect", _local_only(socket.socket.connect))
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("FLAKE8_JAXNP_RELEASES", str(empty))
    monkeypatch.setenv("FLAKE8_JAXNP_CORPUS", str(empty))


@pytest.fixture
def lint_source():
    """Lint a source string through the linter (what flake8 calls); returns (line, code) pairs."""
    from flake8_jaxnp.linter import lint
    from flake8_jaxnp.options import DEFAULT

    def run(source, options=DEFAULT):
        return [(finding.line, finding.code) for finding in lint(ast.parse(source), source.splitlines(True), options)]

    return run


@pytest.fixture
def lint_body(lint_source):
    """Lint ``header + body``; (line counted from the body's first line, code) for ``codes``."""
    def run(header, body, *codes):
        offset = header.count("\n")
        return sorted((line - offset, code) for line, code in lint_source(header + body) if code in codes)

    return run
