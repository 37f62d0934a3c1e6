"""``self.step = jax.jit(self._step)`` in a base class's ``__init__`` traces, for an instance of a
same-file subclass that inherits that ``__init__``, the subclass's override of ``_step`` (the
held-out project tests/project_shapes/recsys: a checked trainer overriding its step)."""
import pytest

BASE = ("import dataclasses\n\nimport jax\nimport jax.numpy as jnp\n\n\n"
        "class Trainer:\n    def __init__(self, scale):\n        self.scale = scale\n"
        "        self.step = jax.jit(self._step)\n\n    def _step(self, x):\n        return x * self.scale\n\n\n")
CHECK = "    def _step(self, x):\n        if x.sum() > 0:\n            return x\n        return -x\n"


@pytest.mark.parametrize("subclass, reported", [
    ("class Checked(Trainer):\n" + CHECK, True),
    ("class Middle(Trainer):\n    pass\n\n\nclass Checked(Middle):\n" + CHECK, True),  # inherited two levels up
    # its own __init__ jits nothing: the base's never runs for it
    ("class Checked(Trainer):\n    def __init__(self):\n        self.scale = 1.0\n\n" + CHECK, False),
    # a dataclass generates its own __init__
    ("@dataclasses.dataclass\nclass Checked(Trainer):\n    scale: float = 1.0\n\n" + CHECK, False),
])
def test_a_base_init_jitting_a_method_traces_the_subclass_override(lint_source, subclass, reported):
    source = BASE + subclass
    line = next(number for number, text in enumerate(source.splitlines(), 1) if "if x.sum() > 0" in text)
    assert lint_source(source) == ([(line, "JNP202")] if reported else [])
