import ast
import ipaddress
import socket
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


@pytest.fixture(autouse=True, scope="session")
def private_caches(tmp_path_factory):
    """Every cache the suite fills (the project summaries and kept findings, the runtime mode's
    XLA cache: both under XDG_CACHE_HOME) is in the session's temporary folder, for subprocesses
    too, never in the user's ~/.cache. The slow group still reads the downloaded corpus where it is."""
    folder = tmp_path_factory.getbasetemp() / "cache"
    folder.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FLAKE8_JAXNP_CORPUS", str(corpus.cache_dir()))  # (read before XDG_CACHE_HOME moves)
        patch.setenv("XDG_CACHE_HOME", str(folder))
        yield folder


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
