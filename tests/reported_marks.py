"""Reads the ``# reported: JNPxxx`` marks of tests/reported/: the lines where users hit a pitfall."""
import ast
import io
import re
import tokenize
from pathlib import Path

REPORTED = Path(__file__).resolve().parent / "reported"
MARK = re.compile(r"#\s*reported:\s*(.*)$")
CODE = re.compile(r"JNP\d{3}")
NO_RULE = "none"
THREAD = re.compile(r"#\s*https://github\.com/[\w.-]+/[\w.-]+/(issues|pull)/\d+")


def case_files(root=REPORTED):
    return sorted(root.rglob("*.py"))


def marks(path):
    """[(line, code or NO_RULE, raw text)] of the ``# reported:`` comments in ``path``."""
    found = []
    with open(path, "rb") as handle:
        for token in tokenize.tokenize(io.BytesIO(handle.read()).readline):
            if token.type != tokenize.COMMENT:
                continue
            match = MARK.search(token.string)
            if not match:
                continue
            text = match.group(1).strip()
            codes = CODE.findall(text) if text != NO_RULE else [NO_RULE]
            found += [(token.start[0], code, text) for code in codes or [text]]
    return found


def cases(path):
    """[(name, first line of its comment block, last line)] of the module-level case_* functions."""
    source = Path(path).read_text(encoding="utf-8")
    tree = ast.parse(source)
    out = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("case_"):
            out.append((node.name, node.lineno, node.end_lineno))
    return out
