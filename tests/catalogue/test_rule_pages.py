"""Rule pages: generated from the catalogue, current, and true when run."""
import ast
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT
from snippet_runs import run_snippets
from flake8_jaxnp import docs
from flake8_jaxnp.linter import lint
from flake8_jaxnp.options import DEFAULT, X64_RULES
from flake8_jaxnp.rules import RULES

DOCUMENTED = [code for code in RULES if RULES[code].example]
REGENERATE = "python -m flake8_jaxnp docs"


def codes(source, options=DEFAULT):
    return sorted({f.code for f in lint(ast.parse(source), source.splitlines(True), options)})


def test_generated_pages_and_readme_table_are_current():
    assert docs.stale(ROOT) == [], f"run: {REGENERATE}"


def test_stale_check_names_edited_missing_and_orphan_pages(tmp_path):
    shutil.copy(ROOT / docs.README, tmp_path / docs.README)
    docs.write(tmp_path)
    assert docs.stale(tmp_path) == []
    pages = tmp_path / docs.PAGES_DIR
    (pages / "JNP301.md").write_text("edited\n", encoding="utf-8")
    (pages / "JNP101.md").unlink()
    (pages / "JNP000.md").write_text("no such rule\n", encoding="utf-8")
    readme = tmp_path / docs.README
    readme.write_text(readme.read_text(encoding="utf-8").replace("[JNP102]", "[JNP102 old]"),
                      encoding="utf-8")
    assert sorted(docs.stale(tmp_path)) == sorted(
        [f"{docs.PAGES_DIR}/JNP301.md", f"{docs.PAGES_DIR}/JNP101.md", f"{docs.PAGES_DIR}/JNP000.md",
         docs.README])


def test_every_rule_a_program_can_trigger_has_an_example_and_a_fix():
    checker_rules = [code for code in RULES if code.startswith("JNP9")]
    assert sorted(set(RULES) - set(DOCUMENTED)) == checker_rules
    assert all(RULES[code].instead for code in DOCUMENTED)


@pytest.mark.parametrize("code", DOCUMENTED)
def test_example_draws_exactly_its_rule_and_the_fix_draws_nothing(code):
    rule = RULES[code]
    assert codes(rule.example) == [code]
    assert codes(rule.instead) == []


def test_x64_option_silences_exactly_the_x64_rules():
    x64 = DEFAULT.replace(x64=True)
    silenced = [code for code in DOCUMENTED if codes(RULES[code].example, x64) == []]
    assert silenced == list(X64_RULES)


@pytest.mark.parametrize("code", list(RULES))
def test_a_page_says_whether_the_fix_command_fixes_the_rule_and_how_safely(code):
    rule, page = RULES[code], docs.page(code)
    assert ("python -m flake8_jaxnp fix" in page) == bool(rule.fix_safety)
    assert ("fix --unsafe-fixes` applies it" in page) == (rule.fix_safety == "unsafe")
    assert rule.fix_safety_note in page


def test_fix_texts_are_shown_raw_so_hold_no_format_escapes():
    for rule in RULES.values():
        assert "{{" not in rule.fix and "}}" not in rule.fix, rule.code


def test_examples_raise_what_the_page_says_and_fixes_run_under_jax(tmp_path):
    pytest.importorskip("jax")
    snippets = {f"{code}-example": RULES[code].example for code in DOCUMENTED}
    snippets |= {f"{code}-instead": RULES[code].instead for code in DOCUMENTED}
    outcome = run_snippets(snippets, tmp_path)
    assert {code: outcome[f"{code}-example"]["raised"] for code in DOCUMENTED} == \
        {code: RULES[code].raises for code in DOCUMENTED}
    assert {code: outcome[f"{code}-instead"]["raised"] for code in DOCUMENTED} == dict.fromkeys(DOCUMENTED, "")


def test_page_quotes_what_flake8_prints_for_the_example(tmp_path):
    for code in DOCUMENTED:
        (tmp_path / code).mkdir()
        (tmp_path / code / docs.EXAMPLE_NAME).write_text(RULES[code].example, encoding="utf-8")
    printed = {}
    for selection in {docs.selection(code) for code in DOCUMENTED}:
        result = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", selection, "."],
                                capture_output=True, text=True, cwd=tmp_path)
        assert result.returncode == 1, result.stderr
        for line in result.stdout.splitlines():
            folder, rest = line.removeprefix("./").split("/", 1)
            if docs.selection(folder) == selection:
                printed.setdefault(folder, []).append(rest)
    for code in DOCUMENTED:
        block = f"`flake8 --select {docs.selection(code)} {docs.EXAMPLE_NAME}` reports:\n\n```text\n" + \
            "\n".join(printed[code]) + "\n```"
        assert block in docs.page(code), code


def _cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "flake8_jaxnp", *args], capture_output=True, text=True,
                          cwd=cwd)


def test_explain_prints_the_page():
    result = _cli("explain", "jnp301")
    assert result.returncode == 0, result.stderr
    assert result.stdout == docs.page("JNP301")
    assert 'jax.debug.print("x = {}", x)' in result.stdout


def test_explain_works_outside_the_repository_without_importing_jax(tmp_path):
    """The page comes from the installed package (no docs/ folder needed) and, like linting, needs no JAX."""
    script = ("import sys\nfrom flake8_jaxnp.__main__ import main\nstatus = main(['explain', 'JNP201'])\n"
              "sys.exit(status or sorted({'jax', 'jaxlib', 'numpy'} & set(sys.modules)) or 0)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == docs.page("JNP201")


def test_explain_unknown_code_is_one_line_on_stderr_and_exit_2():
    result = _cli("explain", "JNP999")
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and "JNP999" in result.stderr


def test_docs_check_reports_a_stale_page_and_writes_nothing(tmp_path):
    shutil.copy(ROOT / docs.README, tmp_path / docs.README)
    docs.write(tmp_path)
    page = tmp_path / docs.PAGES_DIR / "JNP201.md"
    page.write_text("edited\n", encoding="utf-8")
    result = _cli("docs", "--check", str(tmp_path))
    assert result.returncode == 1
    assert f"{docs.PAGES_DIR}/JNP201.md" in result.stderr and REGENERATE in result.stderr
    assert page.read_text(encoding="utf-8") == "edited\n"
    assert _cli("docs", str(tmp_path)).returncode == 0
    assert _cli("docs", "--check", str(tmp_path)).returncode == 0


@pytest.mark.parametrize("readme", [b"# my project\n", None, b"\xff\xfe\x00binary"])
@pytest.mark.parametrize("check", [[], ["--check"]])
def test_docs_in_a_users_project_refuses_in_one_line_and_writes_nothing(tmp_path, readme, check):
    """Outside this repository (a README without the rule table, none, or not text) there is nothing to update."""
    if readme is not None:
        (tmp_path / docs.README).write_bytes(readme)
    result = _cli("docs", *check, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"{REGENERATE}: {tmp_path} is not flake8-jaxnp's repository (") and "explain CODE" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ([docs.README] if readme is not None else [])


def test_docs_that_cannot_write_its_pages_says_so_in_one_line(tmp_path):
    shutil.copy(ROOT / docs.README, tmp_path / docs.README)
    (tmp_path / "docs").write_text("a file where the pages' folder goes\n", encoding="utf-8")
    result = _cli("docs", str(tmp_path))
    assert result.returncode == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"{REGENERATE}: {tmp_path / 'docs'}"), line


def test_readme_table_links_every_rule_to_its_page():
    readme = (ROOT / docs.README).read_text(encoding="utf-8")
    for code in RULES:
        assert f"[{code}]({docs.PAGES_DIR}/{code}.md)" in readme
        assert (ROOT / docs.PAGES_DIR / f"{code}.md").is_file()


def test_every_evidence_kind_is_described_for_the_pages():
    from flake8_jaxnp import evidence

    assert set(evidence.DESCRIPTIONS) == set(evidence.KINDS)


def test_a_page_lists_the_evidence_its_rule_declares():
    from flake8_jaxnp.docs import page
    from flake8_jaxnp.evidence import DESCRIPTIONS

    for code, rule in RULES.items():
        text = page(code)
        for kind in rule.evidence:
            assert DESCRIPTIONS[kind] in text
        if not rule.evidence:
            assert rule.unconfirmable in text
