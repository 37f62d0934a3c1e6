"""``cache.parsed`` keeps a module's tree by its bytes while one file's lint runs, so that the
project questions of that lint (a summary, the module's calls, its parameters' classes) parse each
module once; ``linter.lint`` forgets them as it ends (review56a: cost56 had no test of either)."""
import ast

from flake8_jaxnp import linter
from flake8_jaxnp.model.project import cache
from flake8_jaxnp.model.project.cache import MEMORY, forget_trees, parsed

from test_project import codes_at, lint
from test_project_roots import write_package


def test_the_same_bytes_give_the_same_tree_and_changed_bytes_a_new_one():
    forget_trees()
    first = parsed(b"x = 1\n")
    assert parsed(b"x = 1\n") is first
    changed = parsed(b"x = 2\n")
    assert changed is not first and ast.unparse(changed) == "x = 2"
    forget_trees()
    assert parsed(b"x = 1\n") is not first


def test_only_the_last_few_trees_are_kept(monkeypatch):
    monkeypatch.setattr(cache, "_KEPT_TREES", 2)
    forget_trees()
    trees = [parsed(f"x = {n}\n".encode()) for n in range(3)]
    assert len(MEMORY.trees) == 2
    assert parsed(b"x = 2\n") is trees[2] and parsed(b"x = 0\n") is not trees[0]


def test_a_file_s_lint_forgets_its_trees_even_when_the_lint_fails(monkeypatch):
    parsed(b"y = 1\n")
    linter.lint(ast.parse("z = 1\n"), ["z = 1\n"])
    assert MEMORY.trees == {}

    def failing(*_):
        parsed(b"y = 2\n")
        raise RuntimeError("lint")
    monkeypatch.setattr(linter, "_lint", failing)
    try:
        linter.lint(ast.parse("z = 1\n"), ["z = 1\n"])
    except RuntimeError:
        pass
    assert MEMORY.trees == {}


HOST = "import numpy as np\n\n\ndef helper(x):\n    return np.asarray(x)\n"
CALLER = "import jax\n\nfrom .host import helper\n\n\n@jax.jit\ndef run(x):\n    return helper(x)\n"


def test_a_module_changed_between_two_lints_is_read_anew(tmp_path):
    """The second lint, with a warm disk cache, sees the module's new bytes, not the tree kept for the old."""
    write_package(tmp_path, host=HOST, run=CALLER)
    assert codes_at(lint(tmp_path, "pkg/host.py")) == [(5, "JNP201")]
    (tmp_path / "pkg" / "host.py").write_text(HOST.replace("np.asarray(x)", "x + 1"))
    assert codes_at(lint(tmp_path, "pkg/host.py")) == []
    (tmp_path / "pkg" / "host.py").write_text(HOST)
    assert codes_at(lint(tmp_path, "pkg/host.py")) == [(5, "JNP201")]
