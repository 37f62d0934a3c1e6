"""The rule catalogue is the single source of messages and docs."""
import ast
import inspect
import re
import string
import subprocess
import sys

import pytest

from conftest import ROOT
from flake8_jaxnp import evidence, linter
from flake8_jaxnp.model import Model
from flake8_jaxnp.options import DEFAULT
from flake8_jaxnp.rules import OFF_BY_DEFAULT, RULES
from flake8_jaxnp.scaffold import STUB

ON_BY_DEFAULT = "JNP504"  # a rule on by default whose example draws it


def test_codes_are_unique_and_well_formed():
    assert all(re.fullmatch(r"JNP\d{3}", code) for code in RULES)
    assert len({rule.name for rule in RULES.values()}) == len(RULES)


def test_every_message_formats_with_its_fields():
    for rule in RULES.values():
        fields = {f: f"<{f}>" for _, f, _, _ in string.Formatter().parse(rule.message) if f}
        text = rule.format(**fields)
        assert text.startswith(rule.code + " ")
        assert rule.why and rule.fix


def test_internal_error_becomes_jnp900_and_other_checks_still_run(lint_source, monkeypatch):
    def broken(model):
        raise RuntimeError("boom")
        yield  # pragma: no cover - makes this a generator like the real checks

    monkeypatch.setattr(linter, "CHECKS", (broken,) + linter.CHECKS)
    found = lint_source("import jax\n@jax.jit\ndef f(x):\n    print(x)\n    return x\n")
    assert (1, "JNP900") in found
    assert (4, "JNP301") in found


def test_file_without_jax_or_numpy_draws_nothing(lint_source):
    assert lint_source("def f(x):\n    print(x)\n    return float(x)\n") == []


@pytest.mark.parametrize("flags, configuration, named", [
    ((), "", False),
    (("--select", "JNP"), "", False),
    (("--ignore", "E501"), "", False),
    (("--select", "JNP,{off}"), "", True),
    (("--extend-select", "{off}"), "", True),
    ((), "select = JNP\n", False),
    ((), "select = JNP\nextend-select = {off}\n", True),
    (("--select", "JNP"), "extend-select = {off}\n", True),
])
def test_rules_off_by_default_are_reported_only_where_a_selection_names_them(tmp_path, flags, configuration, named):
    """What the catalogue turns off is reported only when --select or --extend-select (or the
    configuration's select/extend-select) names it in full; a rule on by default is reported as is."""
    off = ",".join(OFF_BY_DEFAULT)
    (tmp_path / "setup.cfg").write_text("[flake8]\n" + configuration.format(off=off), encoding="utf-8")
    for code in (*OFF_BY_DEFAULT, ON_BY_DEFAULT):
        (tmp_path / f"{code.lower()}.py").write_text(RULES[code].example, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "flake8", "--jaxnp-cache-dir", "",
                             *(flag.format(off=off) for flag in flags), "."], capture_output=True, text=True,
                            cwd=tmp_path)
    found = {line.split()[1] for line in result.stdout.splitlines() if " JNP" in line}
    assert found == ({ON_BY_DEFAULT, *OFF_BY_DEFAULT} if named else {ON_BY_DEFAULT}), result.stderr


def test_each_code_is_declared_by_exactly_one_check():
    """The linter runs the checks declared with @rule; each catalogue code has one (JNP900: the linter)."""
    declared = [code for check in linter.CHECKS for code in check.codes] + [linter.INTERNAL_ERROR]
    assert sorted({code for code in declared if declared.count(code) > 1}) == [], "codes declared twice"
    assert sorted(set(RULES) - set(declared)) == [], "catalogue codes no @rule(...) check declares"
    assert sorted(set(declared) - set(RULES)) == [], "declared codes missing from catalogue.toml"


def test_a_check_of_one_rule_is_named_after_it():
    named = {check.__name__: check.codes[0] for check in linter.CHECKS if len(check.codes) == 1}
    assert {name: code for name, code in named.items() if name != RULES[code].name.replace("-", "_")} == {}


def test_checks_emit_only_the_codes_they_declare():
    stray = set()
    for path in sorted((ROOT / "fixtures").rglob("*.py")):
        model = Model(ast.parse(path.read_text(encoding="utf-8")), DEFAULT, str(path))
        for check in linter.CHECKS:
            stray |= {(path.name, check.__name__, f.code) for f in check(model) if f.code not in check.codes}
    assert sorted(stray) == []


def test_no_catalogue_entry_is_a_new_rule_stub():
    """new-rule writes entries whose fields say what to write; each must be written."""
    stubs = [f"{rule.code} {name}: {getattr(rule, name)}" for rule in RULES.values()
             for name in rule.FIELDS if STUB in str(getattr(rule, name))]
    assert not stubs, "fill in these fields of flake8_jaxnp/catalogue.toml:\n" + "\n".join(stubs)


def test_no_check_is_a_new_rule_stub():
    stubs = [f"{inspect.getsourcefile(check)}:{inspect.getsourcelines(check)[1]}: {check.__name__}: {check.__doc__}"
             for check in linter.CHECKS if STUB in (check.__doc__ or "")]
    assert not stubs, "write these checks:\n" + "\n".join(stubs)


def test_a_rule_declares_a_fix_exactly_when_a_fix_shape_exists_and_says_why_it_is_safe_or_not():
    from flake8_jaxnp.autofix import FIXERS, fix_safety

    assert sorted(code for code, rule in RULES.items() if rule.fix_safety) == sorted(FIXERS)
    assert {code: rule.fix_safety for code, rule in RULES.items() if rule.fix_safety not in ("", "safe", "unsafe")} \
        == {}
    assert [code for code, rule in RULES.items() if bool(rule.fix_safety) != bool(rule.fix_safety_note)] == []
    assert {fix_safety(code) for code in RULES if code not in FIXERS} == {None}
    assert fix_safety("JNP999") is None


def test_every_rule_says_how_runtime_evidence_confirms_it_or_why_none_can():
    from flake8_jaxnp.evidence import KINDS

    for rule in RULES.values():
        assert bool(rule.evidence) != bool(rule.unconfirmable), rule.code
        assert set(rule.evidence) <= KINDS, rule.code


def test_every_evidence_kind_confirms_some_rule():
    from flake8_jaxnp.evidence import KINDS
    from flake8_jaxnp.rules import confirmed_by

    assert all(confirmed_by(kind) for kind in KINDS)


def test_every_evidence_kind_is_reported_by_the_runtime_mode():
    """A kind no probe reports would let a rule claim evidence that can never come. A probe
    reports a kind by its evidence.py constant (``ev.NAME``, or imported) or by its value."""
    names = {name: value for name, value in vars(evidence).items()
             if isinstance(value, str) and value in evidence.KINDS}
    assert len(names) == len(evidence.KINDS), "two constants of evidence.py name one kind"
    reported = set()
    for path in (ROOT / "flake8_jaxnp" / "confirm").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute):
                reported.add(names.get(node.attr))
            elif isinstance(node, ast.alias):
                reported.add(names.get(node.name))
            elif isinstance(node, ast.Constant) and node.value in evidence.KINDS:
                reported.add(node.value)
    assert sorted(evidence.KINDS - reported) == [], "kinds no module of flake8_jaxnp/confirm/ reports"


def test_runtime_mode_names_no_rule_codes():
    """Which evidence confirms which rule lives in the catalogue only."""
    confirm = ROOT / "flake8_jaxnp" / "confirm"
    hits = [(path.name, match) for path in confirm.glob("*.py")
            for match in re.findall(r"JNP\d{3}", path.read_text(encoding="utf-8"))]
    assert hits == []


def test_facts_are_defined_once():
    """The probes and the checks import the facts; neither defines its own copy."""
    from flake8_jaxnp import facts

    names = [name for name in vars(facts) if name.isupper()]
    for path in (ROOT / "flake8_jaxnp").rglob("*.py"):
        if path.name == "facts.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert not [name for name in names if re.search(rf"^{name}\s*=", text, re.MULTILINE)], path
    generator = (ROOT / "flake8_jaxnp" / "datagen" / "generate.py").read_text()
    assert not re.search(r"^DATA_FILE\s*=", generator, re.MULTILINE)


def test_weak_python_scalars_and_masks_are_not_promotions():
    from flake8_jaxnp.facts import is_promotion

    assert is_promotion([("int32", False), ("float16", False)])
    assert not is_promotion([("int32", False), ("float", True)])
    assert not is_promotion([("float32", False), ("bool", False)])


def test_jnp102_says_which_loops_of_literal_steps_are_exempt(lint_source):
    """The page and the README row name the limits the check applies: at them no finding, past them one."""
    from flake8_jaxnp.checks.transfers import DEMO_RANGE, HANDFUL
    why = RULES["JNP102"].why
    assert f"at most {HANDFUL} values written out" in why and f"range of at most {DEMO_RANGE} steps" in why
    assert f"at most {HANDFUL} steps in all when such loops nest" in why

    def flagged(loop):
        return ("JNP102" in {code for _, code in lint_source(
            f"import jax.numpy as jnp\n\nx = jnp.ones(3)\n{loop}:\n    print(float(x.sum()))\n")})

    values = ", ".join(map(str, range(HANDFUL)))
    assert not flagged(f"for v in ({values})") and flagged(f"for v in ({values}, {HANDFUL})")
    assert not flagged(f"for _ in range({DEMO_RANGE})") and flagged(f"for _ in range({DEMO_RANGE + 1})")
    assert not flagged("for _ in range(2):\n  for v in (1, 2, 3, 4, 5)")
    assert flagged("for _ in range(2):\n  for v in (1, 2, 3, 4, 5, 6)")
