"""The suite keeps its caches in its own temporary folder (conftest.py's private_caches), never in ~/.cache."""
import subprocess
import sys
from pathlib import Path

from flake8_jaxnp.confirm.cli import default_cache_dir
from flake8_jaxnp.model.project import cache

WHERE = "from flake8_jaxnp.confirm.cli import default_cache_dir\n" \
        "from flake8_jaxnp.model.project import cache\n" \
        "print(cache.folder(None)); print(default_cache_dir())\n"


def test_the_default_caches_point_into_the_session_s_temporary_folder(private_caches):
    session = private_caches
    in_subprocess = subprocess.run([sys.executable, "-c", WHERE], capture_output=True, text=True, check=True)
    folders = [Path(cache.folder(None)), Path(default_cache_dir()), *map(Path, in_subprocess.stdout.split())]
    assert len(folders) == 4
    assert all(folder.is_relative_to(session) for folder in folders), folders


def test_flake8_in_a_subprocess_keeps_its_summaries_there(tmp_path, private_caches):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "train.py").write_text("import jax\n\n\n@jax.jit\ndef step(x):\n    return x\n")
    before = set(private_caches.rglob("*"))
    subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "JNP", "pkg"], cwd=tmp_path,
                   capture_output=True, check=True)
    assert set(private_caches.rglob("*.json")) - before  # the default cache folder was written: the suite's
