"""Messages quote source text and error details whole: a name or number is never cut."""
import ast
import io
import tokenize

import pytest

from conftest import FIXTURES, ROOT
from flake8_jaxnp import linter
from flake8_jaxnp.checks import DESCRIBED_LENGTH, describe
from flake8_jaxnp.linter import lint
from flake8_jaxnp.options import DEFAULT


def _words(text):
    """The names and numbers in ``text``, Python's tokens."""
    return {token.string for token in tokenize.generate_tokens(io.StringIO(text).readline)
            if token.type in (tokenize.NAME, tokenize.NUMBER)}


def _long_expressions():
    """Every expression longer than a message quotes whole, in this package and the fixtures."""
    for path in sorted([*(ROOT / "flake8_jaxnp").rglob("*.py"), *FIXTURES.rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.expr) and len(text := ast.unparse(node)) > DESCRIBED_LENGTH:
                try:
                    ast.parse(text, mode="eval")
                except SyntaxError:  # a starred item or a slice is only an expression inside another
                    continue
                yield node, text


def test_a_described_expression_keeps_every_name_and_number_whole():
    shortened = 0
    for node, text in _long_expressions():
        described = describe(node)
        ast.parse(described, mode="eval")  # still Python: the elided parts read "..."
        assert _words(described) <= _words(text), (text, described)
        assert len(described) <= len(text)
        shortened += described != text
    assert shortened > 100, "too few long expressions to say anything"


def _messages(source):
    return {f.code: f.message for f in lint(ast.parse(source), source.splitlines(True), DEFAULT)}


PREAMBLE = "import jax\nimport jax.numpy as jnp\nimport numpy as np\nfrom optax.losses import _classification\n\n"


@pytest.mark.parametrize("line, code, quoted", [
    ("logits = np.random.normal(size=(2, 5, 3))\n"
     "loss = jax.jit(_classification.ctc_loss_with_forward_probs)(logits, paddings, labels, label_paddings)\n",
     "JNP403", "jax.jit(_classification.ctc_loss_with_forward_probs)(...)"),  # the called transform stays whole
    ("y = jnp.array(np.random.normal(size=NONBATCH_SHAPE))\n", "JNP403", "jnp.array(np.random.normal(...))"),
    ("noise = jax.random.normal(key, (3,), dtype=jnp.float64)\n", "JNP402", "jax.random.normal(...)"),
    ("noise = jnp.zeros(3, dtype=jnp.float64)\n", "JNP402", "jnp.zeros(3, dtype=jnp.float64)"),  # short: as written
])
def test_a_message_elides_whole_argument_lists_innermost_first(line, code, quoted):
    assert _messages(PREAMBLE + line)[code].startswith(f"{code} {quoted} ")


def test_an_internal_error_quotes_whole_words(monkeypatch):
    detail = "no attribute " + " ".join(f"'a_rather_long_attribute_name_{n}'" for n in range(5))

    def failing(model):
        raise AttributeError(detail)

    monkeypatch.setattr(linter, "CHECKS", (failing,))
    (message,) = _messages(PREAMBLE + "x = jnp.ones(3)\n").values()
    quoted = message.split("(AttributeError: ", 1)[1].rsplit(")", 1)[0]
    assert quoted.endswith(" ...") and detail.startswith(quoted.removesuffix(" ..."))
    assert set(quoted.removesuffix(" ...").split()) <= set(detail.split())
