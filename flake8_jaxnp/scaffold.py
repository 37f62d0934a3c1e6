"""``python -m flake8_jaxnp new-rule CODE NAME --family FAMILY`` writes every touchpoint of a new
rule (its catalogue entry, its check, its fixture) as stubs marked ``STUB``, so that the tests
name what is left to write, and pass once it is written.

It edits the repository it is run in, never the installed package.
"""
import re
import tomllib
from pathlib import Path

from .evidence import KINDS

STUB = "TODO(new-rule)"  # what the tests look for to say a stub is still unwritten
CATALOGUE = Path("flake8_jaxnp", "catalogue.toml")
CHECKS = Path("flake8_jaxnp", "checks")
FIXTURES = Path("fixtures")
CODE = re.compile(r"JNP\d{3}")
NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")

ENTRY = """[[rule]]
code = "{code}"
family = "{family}"
name = "{name}"
message = "{stub}: what flake8 prints after the code, a str.format template whose {{fields}} the check fills"
why = "{stub}: why this is a pitfall: what goes wrong, and when"
fix = "{stub}: how to write it instead"
{confirmation}
example = '''
# {stub}: a short program the rule flags; the tests lint it and run it under JAX (add raises = "TheError" if it raises)
'''
instead = '''
# {stub}: the same program, written the way the fix says
'''
"""
CHECK = '''

@rule("{code}")
def {function}(model):
    """{stub}: say what {code} looks for, and yield Finding.at(node, "{code}", {{the message's fields}})
    for each node of the model with the pitfall (model.nodes(ast.Call), model.qualname(...))."""
    return ()
'''
FIXTURE = '''"""{code} ({name}): {stub}: one case the rule flags and one look-alike it must not flag."""
import jax.numpy as jnp


def case_{function}():
    """{stub}: code with the pitfall; end each line the rule flags with # expect: {code}."""
    return jnp.zeros(3)  # expect: {code}


def case_ok_{function}():
    """{stub}: code that looks like the pitfall but is not one (no mark)."""
    return jnp.zeros(3)
'''


class ScaffoldError(Exception):
    """Input new-rule refuses; the message is the one line it prints."""


def families(root):
    """The rule-family modules of ``checks/`` under ``root``, by name."""
    return sorted(path.stem for path in (Path(root) / CHECKS).glob("*.py") if path.stem != "__init__")


def new_rule(root, code, name, family, evidence=None):
    """Write the stubs of rule ``code`` (``name``, in ``checks/<family>.py``, confirmed by the
    evidence kind ``evidence`` or, when None, unconfirmable) under the repository ``root``;
    returns the paths written."""
    root = Path(root)
    catalogue, fixture = root / CATALOGUE, root / FIXTURES / f"{code.lower()}.py"
    if not (catalogue.is_file() and (root / CHECKS).is_dir() and (root / FIXTURES).is_dir()):
        raise ScaffoldError(f"{root.resolve()} is not the flake8-jaxnp repository (no {CATALOGUE} and {FIXTURES}/); "
                            "run new-rule from its root")
    if not CODE.fullmatch(code):
        raise ScaffoldError(f"malformed code {code!r}: JNP and three digits, e.g. JNP606")
    if not NAME.fullmatch(name):
        raise ScaffoldError(f"malformed name {name!r}: lower-case words joined by '-', e.g. key-reuse")
    if family not in families(root):
        raise ScaffoldError(f"unknown family {family!r} (one of: {', '.join(families(root))})")
    if evidence is not None and evidence not in KINDS:
        raise ScaffoldError(f"unknown evidence kind {evidence!r} (one of: {', '.join(sorted(KINDS))})")
    text = catalogue.read_text(encoding="utf-8")
    rules = tomllib.loads(text)["rule"]
    if code in {rule["code"] for rule in rules}:
        raise ScaffoldError(f"{code} is already in {CATALOGUE}")
    if name in {rule["name"] for rule in rules}:
        raise ScaffoldError(f"the name {name!r} is already a rule's in {CATALOGUE}")
    if fixture.exists():
        raise ScaffoldError(f"{fixture.relative_to(root)} already exists")
    module = root / CHECKS / f"{family}.py"
    if re.search(rf"^def {_function(name)}\(", module.read_text(encoding="utf-8"), re.MULTILINE):
        raise ScaffoldError(f"{module.relative_to(root)} already defines {_function(name)}")
    catalogue.write_text(_with_entry(text, code, _entry(code, name, family, evidence)), encoding="utf-8")
    with module.open("a", encoding="utf-8") as handle:
        handle.write(_check(code, name))
    fixture.write_text(_fixture(code, name), encoding="utf-8")
    return [catalogue, module, fixture]


def _entry(code, name, family, evidence):
    confirmation = (f'evidence = ["{evidence}"]' if evidence else
                    f'unconfirmable = "{STUB}: why no runtime evidence can confirm a finding; or replace '
                    'this line by evidence = [the kinds of evidence.py that do]"')
    return ENTRY.format(code=code, family=family, name=name, stub=STUB, confirmation=confirmation)


def _with_entry(text, code, entry):
    """``text`` with ``entry`` before the first rule of a greater code and the comments above it
    (a family's heading), or at the end."""
    lines = text.splitlines(keepends=True)
    for at, line in enumerate(lines):
        following = lines[at + 1] if at + 1 < len(lines) else ""
        if line.startswith("[[rule]]") and following.startswith("code = ") and following.split('"')[1] > code:
            while at > 0 and (lines[at - 1].startswith("#") or not lines[at - 1].strip()):
                at -= 1
            return "".join(lines[:at]) + "\n" + entry + "".join(lines[at:])
    return text.rstrip("\n") + "\n\n" + entry


def _function(name):
    return name.replace("-", "_")


def _check(code, name):
    return CHECK.format(code=code, function=_function(name), stub=STUB)


def _fixture(code, name):
    return FIXTURE.format(code=code, name=name, function=_function(name), stub=STUB)
