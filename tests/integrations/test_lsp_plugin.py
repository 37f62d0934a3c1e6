"""The pylsp plugin's parts without a server: its edits, its failures, its import cost
(tests/integrations/test_integrations.py drives it through a real pylsp)."""
import logging
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

from lsp_client import apply_edits

pytest.importorskip("pylsp")
from flake8_jaxnp import lsp  # noqa: E402 - after the skip: it imports pylsp

# Texts of a few lines: every LSP line break, characters Python also splits lines at (\f,
# \u2028: LSP does not), and one outside the Basic Multilingual Plane (two UTF-16 units).
TEXTS = st.lists(st.sampled_from(["a", "b", " ", "π", "😀", "\f", "\u2028", "\n", "\r\n", "\r"]),
                 max_size=12).map("".join)


@given(TEXTS, TEXTS)
def test_text_edits_applied_give_the_new_text(before, after):
    assert apply_edits(before, lsp.text_edits(before, after)) == after


@pytest.mark.parametrize("before, after, edits", [
    ("a\nb\nc\n", "a\nB\nc\n", [((1, 0), (2, 0), "B\n")]),
    ("a\nb", "a\nb\nc", [((1, 0), (1, 1), "b\nc")]),  # no final line break: the edit ends inside the line
    ("x = '😀'\ny", "x = '😀'\nz", [((1, 0), (1, 1), "z")]),
    ("same\n", "same\n", []),
])
def test_text_edits_replace_only_the_changed_lines(before, after, edits):
    found = [((e["range"]["start"]["line"], e["range"]["start"]["character"]),
              (e["range"]["end"]["line"], e["range"]["end"]["character"]), e["newText"])
             for e in lsp.text_edits(before, after)]
    assert found == edits


class BrokenDocument:
    uri = "file:///broken.py"

    @property
    def source(self):
        raise OSError("the buffer went away")


def test_a_failure_logs_one_line_and_offers_nothing(caplog):
    diagnostic = {"code": "JNP504", "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}}
    with caplog.at_level(logging.WARNING, logger=lsp.__name__):
        actions = lsp.pylsp_code_actions(config=None, workspace=None, document=BrokenDocument(), range=None,
                                         context={"diagnostics": [diagnostic]})
    assert actions == []
    (record,) = caplog.records
    assert record.getMessage() == "flake8-jaxnp: no quick fixes for file:///broken.py: OSError: the buffer went away"


def test_a_failure_to_record_diagnostics_logs_one_line_and_lets_the_lint_go_on(caplog):
    with caplog.at_level(logging.WARNING, logger=lsp.__name__):
        wrapper = lsp.pylsp_lint(workspace=None, document=BrokenDocument())
        next(wrapper)  # pylsp's lint plugins run here
        with pytest.raises(StopIteration):
            wrapper.send(None)
    (record,) = caplog.records
    assert record.getMessage() == "flake8-jaxnp: diagnostics not recorded: OSError: the buffer went away"


def test_pylsp_start_up_loads_neither_the_linter_nor_libcst():
    """pylsp imports every plugin when it starts; the fixes' cost comes with the first code action."""
    probe = ("import sys, flake8_jaxnp.lsp\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'libcst' or m.startswith('flake8_jaxnp.')))\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['flake8_jaxnp.lsp']"


def test_options_come_from_the_configuration_of_the_workspace_root(tmp_path, monkeypatch):
    """As pylsp runs flake8 there, whatever the server's working directory."""
    from flake8_jaxnp.options import Options, from_configuration
    from flake8_jaxnp.rules import OFF_BY_DEFAULT
    project, bare, elsewhere = (tmp_path / name for name in ("project", "bare", "elsewhere"))
    for folder in (project / "pkg", bare, elsewhere):
        folder.mkdir(parents=True)
    (project / "tox.ini").write_text("[flake8]\njaxnp-x64 = true\njaxnp-cache-dir =\n", encoding="utf-8")
    (elsewhere / "setup.cfg").write_text("[flake8]\njaxnp-cache-dir = elsewhere\n", encoding="utf-8")
    monkeypatch.chdir(elsewhere)
    off = frozenset(OFF_BY_DEFAULT)  # no selection names them, so they stay off
    assert from_configuration(directory=project / "pkg") == Options(x64=True, cache_dir="", silenced=off)
    assert from_configuration(directory=bare) == Options(silenced=off)
    assert from_configuration() == Options(cache_dir="elsewhere", silenced=off)


def test_quick_fixes_keep_the_buffers_line_endings_and_mark_the_unsafe_shape(tmp_path):
    """A CRLF buffer with text outside the Basic Multilingual Plane: each action's edits give
    fix_source's text; the bare ``x.at[1].set(2.0)`` (rebinding changes what runs) is marked
    unsafe and left out of "fix all"."""
    import ast
    from types import SimpleNamespace

    from flake8_jaxnp.autofix import fix_source
    from flake8_jaxnp.linter import lint
    from flake8_jaxnp.options import Options
    from flake8_jaxnp.rules import RULES
    source = "import jax.numpy as jnp\r\n\r\nx = jnp.zeros(3)  # 😀\r\nx[0] = 1.0\r\nx.at[1].set(2.0)\r\n"
    document = SimpleNamespace(uri=(tmp_path / "train.py").as_uri(), path=str(tmp_path / "train.py"), source=source)
    findings = lint(ast.parse(source), source.splitlines(True), Options(cache_dir=""), document.path)
    assert [(f.line, f.code) for f in findings] == [(4, "JNP501"), (5, "JNP501")]
    diagnostics = [{"code": f.code, "range": {"start": {"line": f.line - 1, "character": f.col},
                                              "end": {"line": f.line - 1, "character": f.col + 1}}} for f in findings]
    (tmp_path / "setup.cfg").write_text("[flake8]\njaxnp-cache-dir =\n", encoding="utf-8")
    actions = lsp.pylsp_code_actions(config=None, workspace=SimpleNamespace(root_path=str(tmp_path)),
                                     document=document, range=None, context={"diagnostics": diagnostics})
    fix = RULES["JNP501"].fix
    assert [action["title"] for action in actions] == [f"JNP501: {fix}", f"JNP501: {fix} (unsafe)", lsp.FIX_ALL_TITLE]
    texts = [apply_edits(source, action["edit"]["changes"][document.uri]) for action in actions]
    assert texts == [fix_source(source, findings[:1]).text, fix_source(source, findings[1:], unsafe=True).text,
                     fix_source(source, findings).text]
    assert texts[2] == source.replace("x[0] = 1.0", "x = x.at[0].set(1.0)")
    assert texts[1] == source.replace("\r\nx.at[1]", "\r\nx = x.at[1]")


def test_quick_fix_after_a_form_feed_finds_its_node(tmp_path):
    """Python and LSP break lines at \\n, \\r\\n and \\r only: a form feed (whitespace to Python)
    does not move the finding's line, whose column counts UTF-8 bytes (the pi before it)."""
    from types import SimpleNamespace
    source = 'import jax.numpy as jnp\n\f\nx = jnp.zeros(3)\ny = "\u03c0"; x[0] = 1.0\n'
    document = SimpleNamespace(uri=(tmp_path / "a.py").as_uri(), path=str(tmp_path / "a.py"), source=source)
    (tmp_path / "setup.cfg").write_text("[flake8]\njaxnp-cache-dir =\n", encoding="utf-8")
    diagnostic = {"code": "JNP501",
                  "range": {"start": {"line": 3, "character": 10}, "end": {"line": 3, "character": 11}}}
    actions = lsp.pylsp_code_actions(config=None, workspace=SimpleNamespace(root_path=str(tmp_path)),
                                     document=document, range=None, context={"diagnostics": [diagnostic]})
    assert actions and all(apply_edits(source, action["edit"]["changes"][document.uri])
                           == source.replace("x[0] = 1.0", "x = x.at[0].set(1.0)") for action in actions)
