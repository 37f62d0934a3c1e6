"""Where users meet the plugin: formatter plugins, stdin, nbqa, pre-commit and pylsp.

Each test drives the real tool (installed by the test extra) and compares what it
reports with what flake8 itself reports for the same file.
"""
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from expectations import expected_findings
from lsp_client import LanguageServer, apply_edits
from flake8_jaxnp.rules import OFF_BY_DEFAULT, RULES

PITFALLS = FIXTURES / "jnp301.py"
NOTEBOOK = FIXTURES / "notebooks" / "training_loop.ipynb"
FLAKE8_LINE = re.compile(r"^(?P<path>.+?):(?P<row>\d+):(?P<col>\d+): (?P<code>[A-Z]+\d+) ")
BIN = str(Path(sys.executable).parent)  # the tools' console scripts live beside this interpreter


def tool_env(**extra):
    """The tests' environment as it is now (its private caches, no package index), the tools first on PATH."""
    return dict(os.environ, PATH=BIN + os.pathsep + os.environ.get("PATH", ""), **extra)


def run(*args, **kwargs):
    return subprocess.run(list(args), capture_output=True, text=True, env=tool_env(), **kwargs)


def flake8_report(*args, cwd=ROOT):
    """{(path, row, col, code)} from flake8's default format."""
    result = run(sys.executable, "-m", "flake8", "--isolated", *args, cwd=cwd)
    assert result.returncode in (0, 1), result.stderr
    return {(m["path"], int(m["row"]), int(m["col"]), m["code"])
            for m in map(FLAKE8_LINE.match, result.stdout.splitlines()) if m}


def test_expected_marks_are_what_flake8_prints():
    """The other tests compare against plain flake8; this pins plain flake8 to the fixture's marks."""
    report = flake8_report("--select", "JNP", str(PITFALLS))
    assert {(row, code) for _, row, _, code in report} == expected_findings(PITFALLS)


def test_sarif_formatter_carries_every_finding():
    pytest.importorskip("flake8_sarif_reporter")
    expected = {(row, col, code) for _, row, col, code in flake8_report("--select", "JNP", str(PITFALLS))}
    result = run(sys.executable, "-m", "flake8", "--isolated", "--select", "JNP", "--exit-zero", "--format", "sarif",
                 str(PITFALLS), cwd=ROOT)  # as the CI job of docs/integrations.md runs it
    assert result.returncode == 0, result.stderr
    sarif = json.loads(result.stdout)
    assert sarif["version"] == "2.1.0"
    (sarif_run,) = sarif["runs"]
    found = set()
    for item in sarif_run["results"]:
        region = item["locations"][0]["physicalLocation"]["region"]
        found.add((region["startLine"], region["startColumn"], item["ruleId"]))
        assert item["message"]["text"].startswith(RULES[item["ruleId"]].message.split("{")[0])
    assert found == expected
    assert {rule["id"] for rule in sarif_run["tool"]["driver"]["rules"]} == {code for _, _, code in expected}


def test_json_and_github_formatters_carry_every_finding():
    pytest.importorskip("flake8_json_reporter")
    pytest.importorskip("flake8_github_annotations")
    expected = {(row, col, code) for _, row, col, code in flake8_report("--select", "JNP", str(PITFALLS))}
    as_json = run(sys.executable, "-m", "flake8", "--isolated", "--select", "JNP", "--format", "json",
                  str(PITFALLS), cwd=ROOT)
    (entries,) = json.loads(as_json.stdout).values()
    assert {(e["line_number"], e["column_number"], e["code"]) for e in entries} == expected
    github = run(sys.executable, "-m", "flake8", "--isolated", "--select", "JNP", "--format", "github",
                 str(PITFALLS), cwd=ROOT)
    annotations = re.findall(r"^::\w+ file=[^,]+,line=(\d+),col=(\d+),title=(JNP\d+)::", github.stdout, re.M)
    assert {(int(row), int(col), code) for row, col, code in annotations} == expected


def test_stdin_with_display_name_reports_what_the_file_gets():
    """The VS Code flake8 extension pipes the buffer to ``flake8 --stdin-display-name PATH -``."""
    name = str(PITFALLS.relative_to(ROOT))
    from_file = flake8_report(name)
    result = run(sys.executable, "-m", "flake8", "--isolated", "--stdin-display-name", name, "-",
                 input=PITFALLS.read_text(encoding="utf-8"), cwd=ROOT)
    from_stdin = {(m["path"], int(m["row"]), int(m["col"]), m["code"])
                  for m in map(FLAKE8_LINE.match, result.stdout.splitlines()) if m}
    assert from_stdin == from_file
    assert any(code.startswith("JNP") for *_, code in from_file)


def _notebook_marks(path):
    """{(code cell number, line, code)} from the ``# expect:`` marks, code cells counted from 1 as nbqa does."""
    cells = [cell for cell in json.loads(path.read_text(encoding="utf-8"))["cells"] if cell["cell_type"] == "code"]
    return {(number, line, code)
            for number, cell in enumerate(cells, 1)
            for line, text in enumerate("".join(cell["source"]).splitlines(), 1)
            for code in re.findall(r"JNP\d+", text.partition("# expect:")[2])}


def test_nbqa_maps_findings_to_notebook_cells(tmp_path):
    pytest.importorskip("nbqa")
    result = run(sys.executable, "-m", "nbqa", "flake8", str(NOTEBOOK), "--select", "JNP", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    found = {(int(cell), int(row), code) for cell, row, code in
             re.findall(r"^.+?\.ipynb:cell_(\d+):(\d+):\d+: (JNP\d+) ", result.stdout, re.M)}
    assert found == _notebook_marks(NOTEBOOK)
    assert found, "the notebook fixture marks no pitfall"


@pytest.mark.slow
def test_pre_commit_hook_from_this_repository(tmp_path):
    """``pre-commit try-repo`` builds the hook's environment from this repository (needs git and pip)."""
    pytest.importorskip("pre_commit")
    project = tmp_path / "project"
    project.mkdir()
    (project / "flagged.py").write_text(RULES["JNP301"].example, encoding="utf-8")
    (project / "default_off.py").write_text(RULES[OFF_BY_DEFAULT[0]].example, encoding="utf-8")
    (project / "unparsable.py").write_text("def f(:\n    pass\n", encoding="utf-8")
    run("git", "init", "-q", cwd=project)
    run("git", "add", ".", cwd=project)
    expected = {(path.removeprefix("./"), row, col, code) for path, row, col, code in flake8_report(".", cwd=project)
                if code.startswith(("JNP", "E9"))}
    env = tool_env(PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"))
    result = subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "flake8-jaxnp",
                             "--all-files"], capture_output=True, text=True, env=env, cwd=project, timeout=900)
    assert result.returncode == 1, result.stdout + result.stderr
    found = {(m["path"], int(m["row"]), int(m["col"]), m["code"])
             for m in map(FLAKE8_LINE.match, result.stdout.splitlines()) if m}
    assert found == expected
    assert {(path, code) for path, _, _, code in found} == {("flagged.py", "JNP301"), ("unparsable.py", "E999")}


REMOVED_NAMES = ("import jax\n\n"
                 "doubled = jax.tree_map(lambda v: v * 2, [1, 2])\n"
                 "leaves = jax.tree_leaves([3, 4])  # a comment the fix keeps\n"
                 "kept = jax.tree_leaves([5])  # noqa: JNP504\n")


def _lint(text):
    import ast

    from flake8_jaxnp.linter import lint
    from flake8_jaxnp.options import Options
    return lint(ast.parse(text), text.splitlines(True), Options(cache_dir=""))


@pytest.mark.slow
def test_pre_commit_fix_hook_from_this_repository(tmp_path):
    """``pre-commit try-repo`` with the fix hook: it fixes the file, and pre-commit fails the
    hook because it modified a file (needs git and pip)."""
    pytest.importorskip("pre_commit")
    from flake8_jaxnp.autofix import fix_source
    project = tmp_path / "project"
    project.mkdir()
    (project / "fixable.py").write_text(REMOVED_NAMES, encoding="utf-8")
    run("git", "init", "-q", cwd=project)
    run("git", "add", ".", cwd=project)
    env = tool_env(PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"))
    result = subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "flake8-jaxnp-fix",
                             "--all-files"], capture_output=True, text=True, env=env, cwd=project, timeout=900)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "files were modified by this hook" in result.stdout
    expected = fix_source(REMOVED_NAMES, _lint(REMOVED_NAMES)[:2]).text
    assert (project / "fixable.py").read_text(encoding="utf-8") == expected != REMOVED_NAMES


def _documented_pylsp_settings():
    section = _readme_section("**pylsp**", "docs/integrations.md")
    (settings,) = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", section, re.S)
                   if '"pylsp"' in block]
    return settings


def test_pylsp_publishes_jnp_diagnostics_on_save(tmp_path):
    pytest.importorskip("pylsp")
    document = tmp_path / "train.py"
    source = PITFALLS.read_text(encoding="utf-8")
    document.write_text(source, encoding="utf-8")
    expected = {(row - 1, col - 1, code) for _, row, col, code in flake8_report(str(document))
                if code.startswith("JNP")}
    with LanguageServer(tmp_path, tool_env()) as server:
        server.start(tmp_path, _documented_pylsp_settings())
        diagnostics = server.open_and_save(document, source)
    found = {(d["range"]["start"]["line"], d["range"]["start"]["character"], d["code"])
             for d in diagnostics if d["code"].startswith("JNP")}
    assert found == expected
    assert all(d["source"] == "flake8" for d in diagnostics)


def _our_actions(actions):
    """The code actions this package offers (other pylsp plugins may add theirs)."""
    from flake8_jaxnp.lsp import FIX_ALL_TITLE
    return [action for action in actions if action["title"].startswith("JNP") or action["title"] == FIX_ALL_TITLE]


def test_pylsp_quick_fix_applies_the_fix_engines_edit(tmp_path):
    """A real pylsp: the code action at a JNP504 diagnostic, applied, gives fix_source's text;
    "fix all" fixes every reported finding and leaves the one flake8 does not report (noqa)."""
    pytest.importorskip("pylsp")
    from flake8_jaxnp.autofix import fix_source
    from flake8_jaxnp.lsp import FIX_ALL_TITLE
    document = tmp_path / "train.py"
    document.write_text(REMOVED_NAMES, encoding="utf-8")
    findings = _lint(REMOVED_NAMES)
    assert [(f.line, f.code) for f in findings] == [(3, "JNP504"), (4, "JNP504"), (5, "JNP504")]
    with LanguageServer(tmp_path, tool_env()) as server:
        server.start(tmp_path, _documented_pylsp_settings())
        diagnostics = [d for d in server.open_and_save(document, REMOVED_NAMES) if d["code"] == "JNP504"]
        assert [d["range"]["start"]["line"] for d in diagnostics] == [2, 3]  # line 5 has noqa
        at_leaves = diagnostics[1]
        actions = _our_actions(server.request("textDocument/codeAction", {
            "textDocument": {"uri": document.as_uri()}, "range": at_leaves["range"],
            "context": {"diagnostics": [at_leaves]}}))
    assert [action["title"] for action in actions] == [f"JNP504: {RULES['JNP504'].fix}", FIX_ALL_TITLE]
    assert [action["diagnostics"] for action in actions] == [[at_leaves], [at_leaves]]
    one, every = (apply_edits(REMOVED_NAMES, action["edit"]["changes"][document.as_uri()]) for action in actions)
    assert one == fix_source(REMOVED_NAMES, [findings[1]]).text != REMOVED_NAMES
    assert [(f.line, f.code) for f in _lint(one)] == [(3, "JNP504"), (5, "JNP504")]
    assert every == fix_source(REMOVED_NAMES, findings[:2]).text
    assert [(f.line, f.code) for f in _lint(every)] == [(5, "JNP504")]
    assert every.splitlines()[-1] == REMOVED_NAMES.splitlines()[-1]
    assert "# a comment the fix keeps" in every


def test_pylsp_marks_an_unsafe_quick_fix_and_leaves_it_out_of_fix_all(tmp_path):
    pytest.importorskip("pylsp")
    from flake8_jaxnp.autofix import fix_safety, fix_source
    document = tmp_path / "train.py"
    source = RULES["JNP402"].example
    assert fix_safety("JNP402") == "unsafe"
    document.write_text(source, encoding="utf-8")
    with LanguageServer(tmp_path, tool_env()) as server:
        server.start(tmp_path, _documented_pylsp_settings())
        (diagnostic,) = [d for d in server.open_and_save(document, source) if d["code"].startswith("JNP")]
        actions = _our_actions(server.request("textDocument/codeAction", {
            "textDocument": {"uri": document.as_uri()}, "range": diagnostic["range"],
            "context": {"diagnostics": [diagnostic]}}))
    assert [action["title"] for action in actions] == [f"JNP402: {RULES['JNP402'].fix} (unsafe)"]
    fixed = apply_edits(source, actions[0]["edit"]["changes"][document.as_uri()])
    assert fixed == fix_source(source, _lint(source), unsafe=True).text != source
    assert _lint(fixed) == []


def test_pylsp_offers_no_quick_fix_for_a_finding_without_one(tmp_path):
    pytest.importorskip("pylsp")
    from flake8_jaxnp.autofix import fix_safety
    document = tmp_path / "train.py"
    source = RULES["JNP601"].example
    assert fix_safety("JNP601") is None
    document.write_text(source, encoding="utf-8")
    with LanguageServer(tmp_path, tool_env()) as server:
        server.start(tmp_path, _documented_pylsp_settings())
        (diagnostic,) = [d for d in server.open_and_save(document, source) if d["code"].startswith("JNP")]
        actions = server.request("textDocument/codeAction", {
            "textDocument": {"uri": document.as_uri()}, "range": diagnostic["range"],
            "context": {"diagnostics": [diagnostic]}})
    assert diagnostic["code"] == "JNP601"
    assert _our_actions(actions) == []


def _hook(hook_id="flake8-jaxnp"):
    yaml = pytest.importorskip("yaml")
    (hook,) = [hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
               if hook["id"] == hook_id]
    return hook


@pytest.mark.parametrize("hook_id, program, selection", [("flake8-jaxnp", "flake8", {"JNP", "E9"}),
                                                         ("flake8-jaxnp-fix", "flake8-jaxnp-fix", {"JNP"})])
def test_pre_commit_hook_keeps_every_default_off_rule_off(hook_id, program, selection, monkeypatch):
    """Both hooks: the fix hook fixes what the check hook reports, and neither turns on a default-off rule."""
    from flake8.main.application import Application
    from flake8_jaxnp.plugin import JaxNumpyChecker
    hook = _hook(hook_id)
    found_program, option, selected = shlex.split(hook["entry"])
    assert (found_program, option) == (program, "--select") and set(selected.split(",")) == selection
    monkeypatch.setattr(JaxNumpyChecker, "_options", JaxNumpyChecker._options)  # restored afterwards
    Application().initialize(["--isolated", option, selected, *hook.get("args", ())])
    assert set(OFF_BY_DEFAULT) <= JaxNumpyChecker._options.silenced


def test_pre_commit_fix_hook_applies_the_safe_fixes(tmp_path):
    """The fix hook's own entry and args: the fixable file gets fix_source's text (the noqa
    line kept), a file with only an unfixable finding is left alone and fails the hook, and a
    second run changes nothing."""
    from flake8_jaxnp.autofix import fix_source
    hook = _hook("flake8-jaxnp-fix")
    (tmp_path / "fixable.py").write_text(REMOVED_NAMES, encoding="utf-8")
    unfixable = RULES["JNP601"].example
    (tmp_path / "unfixable.py").write_text(unfixable, encoding="utf-8")
    expected = fix_source(REMOVED_NAMES, _lint(REMOVED_NAMES)[:2]).text
    first = run(*shlex.split(hook["entry"]), *hook.get("args", ()), "fixable.py", "unfixable.py", cwd=tmp_path)
    assert first.returncode == 1, first.stdout + first.stderr
    assert (tmp_path / "fixable.py").read_text(encoding="utf-8") == expected != REMOVED_NAMES
    assert (tmp_path / "unfixable.py").read_text(encoding="utf-8") == unfixable
    again = run(*shlex.split(hook["entry"]), *hook.get("args", ()), "fixable.py", cwd=tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    assert (tmp_path / "fixable.py").read_text(encoding="utf-8") == expected


@pytest.mark.parametrize("name, content, error", [
    ("unparsable.py", b"def f(:\n    pass\n", "E999 SyntaxError"),
    ("binary.py", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "E999 SyntaxError"),
    ("missing.py", None, "E902 FileNotFoundError"),
])
def test_pre_commit_hook_fails_on_a_file_flake8_cannot_check(tmp_path, name, content, error):
    """The hook's own entry and args: a file that does not parse or cannot be read fails it, with flake8's line."""
    hook = _hook()
    if content is not None:
        (tmp_path / name).write_bytes(content)
    result = run(*shlex.split(hook["entry"]), *hook.get("args", ()), name, cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    (line,) = result.stdout.splitlines()
    match = FLAKE8_LINE.match(line)
    assert match and match["path"] == name and line.partition(" ")[2].startswith(error), line


def _readme_section(title, page="README.md"):
    """The section of the README (or of a page under docs/) that starts at ``title``."""
    readme = (ROOT / page).read_text(encoding="utf-8")
    start = readme.index(title)
    end = readme.find("\n## ", start)
    return readme[start:end if end > 0 else None]


def test_readme_option_table_lists_every_plugin_option():
    from flake8_jaxnp import options

    class Recorder:
        def __init__(self):
            self.added = []

        def add_option(self, flag, **settings):
            self.added.append((flag, settings))

    recorder = Recorder()
    options.register(recorder)
    rows = [line for line in _readme_section("## Configuration").splitlines() if line.startswith("| `--jaxnp")]
    assert len(rows) == len(recorder.added)
    for flag, settings in recorder.added:
        (row,) = [row for row in rows if row.startswith(f"| `{flag}")]
        assert settings["parse_from_config"] and f"| `{flag[2:]}` |" in row


EQUINOX_PROJECT = {
    "model.py": "import equinox as eqx\nimport jax.numpy as jnp\n\n\n@eqx.filter_jit\ndef step(x):\n"
                "    print('x =', x)\n    return x * jnp.zeros(3, dtype=jnp.float64)  "
                + "# a line longer than pycodestyle's limit " * 3 + "\n",
    "tests/test_loop.py": "import jax.numpy as jnp\n\nx = jnp.ones(3)\nfor _ in range(100):\n    x = x * 2\n"
                          "    print(float(x.sum()))\n",
    "broken.py": "def f(:\n",
}


@pytest.mark.parametrize("language, config_file", [("ini", ".flake8"), ("toml", "pyproject.toml")])
def test_readme_worked_configuration(tmp_path, language, config_file):
    """The README's ruff + x64 + Equinox configuration, copied from the README into a small project."""
    if language == "toml":
        pytest.importorskip("flake8p")  # flake8-pyproject: flake8 itself does not read pyproject.toml
    (block,) = re.findall(rf"```{language}\n(.*?)```", _readme_section("### Worked configuration"), re.S)
    for name, text in EQUINOX_PROJECT.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    unconfigured = {(path, code) for path, _, _, code in flake8_report("--select", "JNP,E", ".", cwd=tmp_path)}
    assert unconfigured == {("./model.py", "JNP301"), ("./model.py", "JNP402"), ("./model.py", "E501"),
                            ("./tests/test_loop.py", "JNP102"), ("./broken.py", "E999")}  # filter_jit: known
    (tmp_path / config_file).write_text(block, encoding="utf-8")
    result = run(sys.executable, "-m", "flake8", ".", cwd=tmp_path)
    found = {(m["path"], m["code"]) for m in map(FLAKE8_LINE.match, result.stdout.splitlines()) if m}
    assert found == {("./model.py", "JNP301"), ("./broken.py", "E999")}, result.stdout + result.stderr


def test_runtime_extra_accepts_the_jax_the_api_data_describes():
    import configparser

    from packaging.requirements import Requirement

    from flake8_jaxnp import api

    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    runtime = {Requirement(line).name: Requirement(line).specifier
               for line in config["options.extras_require"]["runtime"].splitlines() if line.strip()}
    version = api.data()["jax_version"]
    assert version in runtime["jax"] and version in runtime["jaxlib"]
    assert not any(spec.operator in ("==", "===") for spec in runtime["jax"]), "a range, not one release"


def run_ci(tmp_path, fast=0, slow=0, stack=0):
    """.ci/run with a stand-in python that records its calls and exits as told: (exit
    status, the calls)."""
    shim = tmp_path / "python"
    shim.write_text('#!/bin/sh\necho "$*" >> "$CALLS"\ncase "$*" in\n  "-m pip"*) exit 0 ;;\n'
                    '  "-m flake8_jaxnp.datagen --check-stack") exit "$STACK" ;;\n'
                    '  *"-m slow"*) exit "$SLOW" ;;\n  *) exit "$FAST" ;;\nesac\n', encoding="utf-8")
    shim.chmod(0o755)
    calls = tmp_path / "calls"
    env = dict(os.environ, PATH=f"{tmp_path}{os.pathsep}{os.environ['PATH']}", CALLS=str(calls),
               FAST=str(fast), SLOW=str(slow), STACK=str(stack))
    result = subprocess.run(["bash", str(ROOT / ".ci" / "run")], capture_output=True, text=True, env=env)
    return result.returncode, calls.read_text().splitlines()


@pytest.mark.parametrize("fast, slow, expected", [(0, 0, 0), (1, 0, 1), (0, 1, 1), (0, 5, 1), (5, 0, 1), (2, 1, 2)])
def test_ci_runs_the_fast_suite_and_the_slow_group_and_fails_on_either(tmp_path, fast, slow, expected):
    status, calls = run_ci(tmp_path, fast, slow)
    assert status == expected
    assert [line for line in calls if line.startswith("-m pytest")] == ["-m pytest", "-m pytest -m slow"]


def test_ci_stops_before_the_tests_when_the_installed_stack_is_not_the_recorded_one(tmp_path):
    """Else the API data's staleness check would skip, and CI pass without it."""
    status, calls = run_ci(tmp_path, stack=4)
    assert status == 4
    assert "-m flake8_jaxnp.datagen --check-stack" in calls
    assert not [line for line in calls if line.startswith("-m pytest")]


@pytest.mark.parametrize("argv, silenced", [
    ([], set(OFF_BY_DEFAULT)),
    (["--select", "JNP"], set(OFF_BY_DEFAULT)),
    (["--ignore", "E501"], set(OFF_BY_DEFAULT)),  # flake8's default ignore list gives way to --ignore
    (["--select", "JNP,JNP403"], set(OFF_BY_DEFAULT) - {"JNP403"}),
    (["--extend-select", "JNP403", "--extend-ignore", "JNP101"], {"JNP101"} | set(OFF_BY_DEFAULT) - {"JNP403"}),
    (["--select", "E,W"], set(RULES)),
])
def test_checks_skip_only_what_flake8_would_not_report(argv, silenced, monkeypatch):
    """The plugin skips the work of rules flake8's selection leaves out, as flake8 decides."""
    from flake8.main.application import Application
    from flake8_jaxnp.plugin import JaxNumpyChecker
    monkeypatch.setattr(JaxNumpyChecker, "_options", JaxNumpyChecker._options)  # restored afterwards
    Application().initialize(["--isolated", *argv])
    assert set(JaxNumpyChecker._options.silenced) == silenced
