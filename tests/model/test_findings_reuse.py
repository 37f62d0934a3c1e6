"""Findings are reused from the last lint of an unchanged file, and never when anything
they depend on changed: the file, a module it imports, a module that traces its
functions, the modules that exist, or the options."""
import ast
import subprocess
import sys

import pytest

from test_project import codes_at, lint, write_project

from flake8_jaxnp import linter
from flake8_jaxnp.options import DEFAULT, Options

LOOP = "import jax.numpy as jnp\nfrom .helpers import to_host\n\n\ndef run(n):\n    x = jnp.zeros(3)\n" \
       "    for _ in range(n):\n        x = x + 1.0\n        to_host(x)\n"


def reused_when_unchanged(path, options, monkeypatch):
    """The findings of the file at ``path``, once a second lint of its unchanged text has given
    the same ones without analysing it (the model is then replaced by one that fails)."""
    source = path.read_text()
    first = linter.lint(ast.parse(source), source.splitlines(True), options, str(path))

    def no_analysis(*args):
        raise AssertionError("analysed again")
    monkeypatch.setattr(linter, "Model", no_analysis)
    assert linter.lint(ast.parse(source), source.splitlines(True), options, str(path)) == first
    return first


def test_an_unchanged_file_is_not_analysed_again(tmp_path, monkeypatch):
    package = write_project(tmp_path)
    path = package / "train.py"
    options = Options(cache_dir=str(tmp_path / "cache"))
    assert [f.code for f in reused_when_unchanged(path, options, monkeypatch)] == ["JNP102"]
    changed = path.read_text() + "\n"
    assert [f.code for f in linter.lint(ast.parse(changed), changed.splitlines(True), options, str(path))] \
        == ["JNP900"]  # the changed text is analysed (here by the stand-in that fails)


def test_nothing_is_kept_without_a_cache_folder_or_a_path(tmp_path, monkeypatch):
    package = write_project(tmp_path)
    source = (package / "train.py").read_text()
    monkeypatch.chdir(tmp_path)
    for options, filename in [(Options(cache_dir=""), str(package / "train.py")), (DEFAULT, None),
                              (Options(cache_dir=str(tmp_path / "cache")), "stdin")]:
        linter.lint(ast.parse(source), source.splitlines(True), options, filename)
    assert not (tmp_path / "cache").exists()


def test_a_module_that_appears_is_seen(tmp_path):
    package = write_project(tmp_path)
    (package / "loop.py").write_text(LOOP)
    assert lint(tmp_path, "pkg/loop.py") == []  # .helpers does not exist yet
    (package / "helpers.py").write_text("import numpy as np\n\n\ndef to_host(x):\n    return np.asarray(x)\n")
    assert codes_at(lint(tmp_path, "pkg/loop.py")) == [(9, "JNP101")]
    (package / "helpers.py").unlink()
    assert lint(tmp_path, "pkg/loop.py") == []


def test_a_module_that_starts_tracing_a_helper_is_seen(tmp_path):
    package = write_project(tmp_path)
    steps = "pkg/steps.py"
    assert lint(tmp_path, steps) == []
    (package / "model.py").write_text("import jax\nfrom .steps import to_host\n\n\n@jax.jit\ndef step(x):\n"
                                      "    return to_host(x) + 1\n")
    assert codes_at(lint(tmp_path, steps)) == [(12, "JNP201")]  # steps.py itself did not change


NEIGHBORS = "import jax\nimport jax.numpy as jnp\n\nNEIGHBORS = jnp.zeros(2)\n\n\n@jax.jit\ndef energy(x):\n" \
    "    return x + NEIGHBORS\n\n\ndef fresh(x):\n    return jax.jit(lambda v: v * 2)(x)\n"


def test_a_module_that_starts_rebinding_a_global_or_looping_over_a_helper_is_seen(tmp_path):
    """What other modules do with this file's names (a global rebound in a loop: JNP304; a helper
    that jits anew, called in a loop: JNP602) is asked again of a warm cache."""
    package = write_project(tmp_path)
    (package / "energy.py").write_text(NEIGHBORS)
    assert lint(tmp_path, "pkg/energy.py") == []
    (package / "driver.py").write_text("import jax.numpy as jnp\nfrom pkg import energy\n\n\ndef run():\n"
                                       "    for i in range(9):\n        energy.NEIGHBORS = jnp.full(2, i)\n"
                                       "        energy.fresh(energy.energy(jnp.ones(2)))\n")
    assert codes_at(lint(tmp_path, "pkg/energy.py")) == [(9, "JNP304"), (13, "JNP602")]
    (package / "driver.py").write_text("from pkg import energy\n\nNEIGHBORS = energy.NEIGHBORS\n")
    assert lint(tmp_path, "pkg/energy.py") == []


CALLBACKS = "SCALE = 1.0\n\n\ndef decay(factor=0.5):\n    global SCALE\n    {store}\n"
SCALED = "import jax\n\nfrom . import callbacks\n\n\n@jax.jit\ndef step(x):\n    return x * callbacks.SCALE\n"


@pytest.mark.parametrize("store, expected", [
    ("SCALE = SCALE * factor", [(8, "JNP304")]),
    ("print(SCALE * factor)", []),  # declared global, never stored
])
def test_a_global_that_its_own_module_rebinds_is_stale_where_another_module_traces_it(tmp_path, store, expected):
    """``callbacks.SCALE`` read in a jitted step keeps the value it was traced with, when a function of
    callbacks.py rebinds it through ``global``; a change of callbacks.py is seen with a warm cache."""
    package = write_project(tmp_path)
    (package / "scaled.py").write_text(SCALED)
    (package / "callbacks.py").write_text(CALLBACKS.format(store=store))
    assert codes_at(lint(tmp_path, "pkg/scaled.py")) == expected
    (package / "callbacks.py").write_text(CALLBACKS.format(store="return factor"))
    assert lint(tmp_path, "pkg/scaled.py") == []


def test_other_options_are_not_answered_from_the_kept_findings(tmp_path):
    package = write_project(tmp_path)
    (package / "wide.py").write_text("import jax.numpy as jnp\n\nx = jnp.zeros(3, dtype=jnp.float64)\n")
    assert codes_at(lint(tmp_path, "pkg/wide.py")) == [(3, "JNP402")]
    assert lint(tmp_path, "pkg/wide.py", "--jaxnp-x64") == []
    assert codes_at(lint(tmp_path, "pkg/wide.py")) == [(3, "JNP402")]


def test_an_unwritable_cache_folder_is_said_once_and_the_run_goes_on(tmp_path):
    """A cache folder that cannot be made (here below a plain file) costs every run its
    reuse: flake8 says so in one line on stderr, once for the whole run (--jobs included),
    and reports the same findings as with a cache."""
    package = write_project(tmp_path)
    (package / "other.py").write_text((package / "train.py").read_text())
    (tmp_path / "blocker").write_text("")
    unwritable = tmp_path / "blocker" / "cache"
    expected = codes_at(lint(tmp_path, "pkg/train.py", "pkg/other.py"))
    for jobs in ("1", "2"):
        result = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "JNP", "--jobs", jobs,
                                 "--jaxnp-cache-dir", str(unwritable), "pkg/train.py", "pkg/other.py"],
                                capture_output=True, text=True, cwd=tmp_path)
        warnings = result.stderr.splitlines()
        assert len(warnings) == 1 and str(unwritable) in warnings[0] and "cannot write" in warnings[0], result.stderr
        assert codes_at(result.stdout.splitlines()) == expected


def test_a_helper_that_stops_consuming_its_key_is_seen(tmp_path):
    """What another module's helper does with its key parameter is part of the answer about it."""
    package = write_project(tmp_path)
    (package / "loop.py").write_text("from jax import random\nfrom .sampling import noise\n\n\ndef run(key):\n"
                                     "    a = noise(key)\n    return a, random.normal(key)\n")
    for body, expected in [("return random.normal(k)", [(7, "JNP601")]), ("return k", []),
                           ("random.normal(k)\n    return k", [(7, "JNP601")])]:
        (package / "sampling.py").write_text(f"from jax import random\n\n\ndef noise(k):\n    {body}\n")
        assert codes_at(lint(tmp_path, "pkg/loop.py")) == expected, body


def test_a_caller_that_stops_keeping_a_default_is_seen(tmp_path):
    """Whether another module's call keeps a 64-bit default is part of the helper's answers:
    util.py did not change, its finding goes and comes back with train.py's calls."""
    package = write_project(tmp_path)
    (package / "util.py").write_text("import jax.numpy as jnp\nimport numpy as np\n\n\n"
                                     "def make(n, dtype=np.float64):\n    return jnp.zeros(n, dtype)\n")
    for call, expected in [("make(3)", [(6, "JNP402")]), ("make(3, 'float32')", []), ("make(n=3)", [(6, "JNP402")])]:
        (package / "build.py").write_text(f"from .util import make\n\nx = {call}\n")
        assert codes_at(lint(tmp_path, "pkg/util.py")) == expected, call
    (package / "build.py").unlink()
    assert lint(tmp_path, "pkg/util.py") == []


def test_a_module_that_starts_naming_a_helper_is_seen(tmp_path):
    """The dtypes a helper's parameters receive are known only while every call is in its
    file: another module that names it makes them unknown, without util.py changing."""
    package = write_project(tmp_path)
    (package / "util.py").write_text("import jax.numpy as jnp\n\n\ndef combine(a, b):\n    return a + b\n\n\n"
                                     "x = combine(jnp.ones(3), jnp.arange(3, dtype=jnp.int32))\n")
    assert codes_at(lint(tmp_path, "pkg/util.py")) == [(5, "JNP401")]
    (package / "other.py").write_text("from .util import combine\n\ny = combine(1, 2)\n")
    assert lint(tmp_path, "pkg/util.py") == []
    (package / "other.py").unlink()
    assert codes_at(lint(tmp_path, "pkg/util.py")) == [(5, "JNP401")]


def test_a_changed_plugin_reads_none_of_the_old_summaries(tmp_path, monkeypatch):
    """The summaries of other modules are kept under keys that mix in the plugin's own code
    (``cache.plugin_digest``): after an upgrade, or an edit of the analysis that kept its version
    number, nothing written by the old code is read back."""
    from flake8_jaxnp.model.project import cache

    write_project(tmp_path)
    folder = tmp_path / "cache"
    options = Options(cache_dir=str(folder))
    source = (tmp_path / "pkg" / "train.py").read_text()
    linter.lint(ast.parse(source), source.splitlines(True), options, str(tmp_path / "pkg" / "train.py"))
    before = {p.name for p in folder.iterdir()}
    monkeypatch.setattr(cache, "plugin_digest", lambda: "another build of the plugin")
    monkeypatch.setattr(cache.MEMORY, "salts", {})
    monkeypatch.setattr(cache.MEMORY, "summaries", {})
    monkeypatch.setattr(cache.MEMORY, "callers", {})
    linter.lint(ast.parse(source), source.splitlines(True), options, str(tmp_path / "pkg" / "train.py"))
    written = {p.name for p in folder.iterdir()} - before
    assert written and all(name not in before for name in written)
    assert any(not name.startswith("findings-") for name in written)  # summaries, not only findings


def test_a_module_that_appears_under_an_imported_name_is_seen(tmp_path):
    """Whether an absolute import names a project module is part of the answers: once ``sampling``
    appears beside the package, the key its function consumes is consumed again."""
    package = write_project(tmp_path)
    (package / "loop.py").write_text("import jax\nfrom jax import random\nimport sampling\n\n\ndef run(key):\n"
                                     "    a = jax.jit(sampling.noise)(key)\n    return a, random.normal(key)\n")
    assert lint(tmp_path, "pkg/loop.py") == []
    (tmp_path / "sampling.py").write_text("from jax import random\n\n\ndef noise(k):\n    return random.normal(k)\n")
    assert codes_at(lint(tmp_path, "pkg/loop.py")) == [(8, "JNP601")]
