"""Rule pages, rendered from the catalogue.

The same function writes ``docs/rules/JNPxxx.md`` in the repository and prints a
page for ``python -m flake8_jaxnp explain``, so an installed package needs no
docs folder. Rendering lints the rule's example (never runs it), so the quoted
message is the one flake8 prints.
"""
import ast
from pathlib import Path

from . import api
from .evidence import DESCRIPTIONS
from .linter import lint
from .options import DEFAULT, X64_RULES
from .rules import RULES

PAGES_DIR = "docs/rules"  # relative to the repository root
README = "README.md"
TABLE_START, TABLE_END = "<!-- rules:start -->\n", "<!-- rules:end -->"
EXAMPLE_NAME = "example.py"


def page(code):
    """The Markdown page of one rule."""
    rule = RULES[code]
    version = api.data()["jax_version"]
    default = "On by default." if rule.on_by_default else (
        f"Off by default: only a `--select` or `--extend-select` that names `{code}` itself turns it on "
        f"(`--extend-select {code}`; `--select JNP` does not).")
    parts = [f"# {code} {rule.name}", "", default, "", "## Why it is a problem", "", rule.why]
    if rule.example:
        parts += ["", (f"On JAX {version} the example below raises `{rule.raises}`." if rule.raises else
                       f"On JAX {version} the example below runs without an error: the pitfall is silent."),
                  "", "## What it flags", "", f"For example, in `{EXAMPLE_NAME}`:", "", _code(rule.example),
                  "", f"`flake8 --select {selection(code)} {EXAMPLE_NAME}` reports:", "",
                  _code("\n".join(_report(rule.example)), "text")]
    parts += ["", "## Fix", "", rule.fix]
    if rule.instead:
        parts += ["", _code(rule.instead)]
    if rule.fix_safety:
        command = "python -m flake8_jaxnp fix" + (" --unsafe-fixes" if rule.fix_safety == "unsafe" else "")
        kind = "a safe fix" if rule.fix_safety == "safe" else "an unsafe fix, applied only when asked for"
        parts += ["", f"`{command}` applies it ({kind}). {rule.fix_safety_note}"]
    parts += ["", "## Silencing it", "",
              f"- one line: end it with `# noqa: {code}`",
              f"- some files: `per-file-ignores = tests/*: {code}` in the flake8 configuration",
              f"- everywhere: `extend-ignore = {code}`"]
    if code in X64_RULES:
        parts.append("- a project that enables `jax_enable_x64`: `jaxnp-x64 = true` (or `--jaxnp-x64`)")
    parts += ["", "## Runtime confirmation", ""]
    if rule.evidence:
        parts += ["`flake8-jaxnp-confirm FILE` (or `pytest --jaxnp-confirm`) runs the code under JAX and "
                  "confirms a finding when"]
        parts += [f"- {DESCRIPTIONS[kind]} (`{kind}`)" for kind in rule.evidence]
    else:
        parts.append(f"The runtime mode does not confirm this rule: {rule.unconfirmable}")
    return "\n".join(parts) + "\n"


def _code(text, language="python"):
    return f"```{language}\n{text.rstrip()}\n```"


def selection(code):
    """The --select that reports ``code``: a rule off by default is named itself."""
    return "JNP" if RULES[code].on_by_default else f"JNP,{code}"


def _report(source):
    """What flake8 prints for ``source`` saved as example.py."""
    tree = ast.parse(source)
    return [f"{EXAMPLE_NAME}:{f.line}:{f.col + 1}: {f.message}"
            for f in lint(tree, source.splitlines(True), DEFAULT)]


def markdown_table():
    """The README's rule table; each code links to its page."""
    rows = ["| code | name | what goes wrong | fix |", "| --- | --- | --- | --- |"]
    rows += [f"| [{r.code}]({PAGES_DIR}/{r.code}.md) | {r.name}{'' if r.on_by_default else ' (off by default)'} "
             f"| {r.why} | {r.fix} |" for r in RULES.values()]
    return "\n".join(rows)


class NotTheRepository(Exception):
    """``root`` is not flake8-jaxnp's repository (its README has no rule table), so there
    is nothing to update there: a user's project reads the pages with ``explain``."""


def _with_table(readme):
    """The README text with the table between its markers replaced."""
    start = readme.index(TABLE_START) + len(TABLE_START)
    return readme[:start] + markdown_table() + "\n" + readme[readme.index(TABLE_END, start):]


def _readme(root):
    """The text of the README under ``root``; NotTheRepository when it has no rule table."""
    path = Path(root) / README
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise NotTheRepository(f"cannot read its {README}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise NotTheRepository(f"its {README} is not UTF-8 text") from None
    start = text.find(TABLE_START)
    if start < 0 or text.find(TABLE_END, start) < 0:
        raise NotTheRepository(f"its {README} has no rule table between {TABLE_START.strip()} and {TABLE_END}")
    return text


def expected_files(root):
    """{path relative to root: text} for every generated file; NotTheRepository outside the repository."""
    readme = _readme(root)
    files = {f"{PAGES_DIR}/{code}.md": page(code) for code in RULES}
    files[README] = _with_table(readme)
    return files


def write(root):
    """Write every rule's page and the README table under ``root``; return the paths written.
    Outside the repository it raises NotTheRepository before writing anything."""
    files = expected_files(root)
    (Path(root) / PAGES_DIR).mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (Path(root) / name).write_text(text, encoding="utf-8")
    return list(files)


def stale(root):
    """Generated files under ``root`` that differ from the catalogue or are missing, and pages of no rule."""
    root = Path(root)
    wrong = [name for name, text in expected_files(root).items()
             if not (root / name).is_file() or (root / name).read_text(encoding="utf-8") != text]
    return wrong + [f"{PAGES_DIR}/{p.name}" for p in sorted((root / PAGES_DIR).glob("*.md"))
                    if p.stem not in RULES]
