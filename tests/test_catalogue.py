"""The rule catalogue is the single source of messages and docs."""
import re
import string

from conftest import ROOT
from flake8_jaxnp import linter
from flake8_jaxnp.rules import RULES


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


def test_rules_off_by_default_need_explicit_selection():
    import subprocess
    import sys

    from flake8_jaxnp.rules import OFF_BY_DEFAULT

    assert OFF_BY_DEFAULT == ["JNP403"]
    fixture = str(ROOT / "fixtures" / "jnp403.py")

    def codes(*flags):
        result = subprocess.run([sys.executable, "-m", "flake8", "--isolated", *flags, fixture],
                                capture_output=True, text=True)
        return {line.split()[1] for line in result.stdout.splitlines()}

    assert "JNP403" not in codes()
    assert "JNP403" in codes("--select", "JNP")
    assert "JNP403" in codes("--extend-select", "JNP403")


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
    """A kind no probe reports would let a rule claim evidence that can never come."""
    from flake8_jaxnp import evidence

    names = [name for name, value in vars(evidence).items() if isinstance(value, str) and name.isupper()]
    assert len(names) == len(evidence.KINDS)
    confirm = "".join(path.read_text(encoding="utf-8") for path in (ROOT / "flake8_jaxnp" / "confirm").glob("*.py"))
    assert [name for name in names if f"ev.{name}" not in confirm] == []


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
