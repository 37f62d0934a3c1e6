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
