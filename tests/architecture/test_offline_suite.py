"""The fast suite needs nothing but the install: the guard in conftest.py keeps it offline."""
import socket
import subprocess
import sys

import pytest

from conftest import DownloadInFastSuite


def test_a_socket_to_another_machine_is_refused_before_it_connects():
    assert socket.socket.connect.__qualname__.endswith("guarded")  # never try it unguarded
    with pytest.raises(DownloadInFastSuite):
        socket.create_connection(("192.0.2.1", 80), timeout=0.1)  # TEST-NET-1: never reached


def test_a_socket_on_this_machine_still_connects():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with socket.create_connection(server.getsockname(), timeout=5):
            pass


def test_pip_in_a_subprocess_reaches_no_index(tmp_path):
    result = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--dest", str(tmp_path),
                             "jax==0.2.28"], capture_output=True, text=True, timeout=120)
    assert result.returncode != 0 and not list(tmp_path.iterdir())


def test_release_history_sees_an_empty_cache():
    code = "from flake8_jaxnp.datagen import release_history as r; print(list(r.CACHE.iterdir()))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
