"""Framework contracts the eighteenth round's held-out shapes asked for (issue 43, round 7):
``self.hook(x)`` in a base class's method runs a same-file subclass's override for an instance of
the subclass (an abstract hook a linen subclass implements); a framework's control flow traces the
functions given to it as jax.lax's does (``nnx.cond``: measured). Linted without the frameworks;
``tests/frameworks_shapes/round7_*.py`` is confirmed at runtime with them."""
import pytest

LINEN = "import flax.linen as nn\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\n\n\n"
NNX = "from flax import nnx\nimport jax.numpy as jnp\nimport numpy as np\n\n\n"


def _line(source, text):
    """The number of the first line of ``source`` holding ``text``."""
    return next(number for number, line in enumerate(source.splitlines(), 1) if text in line)


@pytest.mark.parametrize("subclass, reported", [
    ("class Sub(Base):\n    def features(self, x):\n        return np.tanh(x)\n", True),
    # the subclass overrides the caller too: the base's __call__ does not run its hook
    ("class Sub(Base):\n    def features(self, x):\n        return np.tanh(x)\n\n"
     "    def __call__(self, x):\n        return x\n", False),
])
def test_a_base_method_runs_the_subclass_override_of_its_hook(lint_source, subclass, reported):
    source = LINEN + ("class Base(nn.Module):\n    def features(self, x):\n        raise NotImplementedError\n\n"
                      "    @nn.compact\n    def __call__(self, x):\n        return nn.Dense(2)(self.features(x))\n\n\n"
                      + subclass)
    assert lint_source(source) == ([(_line(source, "np.tanh"), "JNP201")] if reported else [])


@pytest.mark.parametrize("call, reported", [
    ("nnx.cond(x.sum() > 0, branch, branch, x)", True),  # measured: both branches traced
    ("branch(x)", False),  # called eagerly: concrete
])
def test_nnx_cond_traces_its_branches(lint_source, call, reported):
    source = NNX + ("def branch(x):\n    return np.sort(x)\n\n\n"
                    f"def run():\n    x = jnp.ones(3)\n    return {call}\n")
    assert lint_source(source) == ([(_line(source, "np.sort"), "JNP201")] if reported else [])


@pytest.mark.parametrize("teacher, reported", [
    ("Net(nnx.Rngs(key))", True),  # measured: the same key, the same streams
    ("Net(nnx.Rngs(other))", False),
])
def test_rngs_built_around_a_key_consume_it(lint_source, teacher, reported):
    source = NNX + ("import jax\n\n\nclass Net(nnx.Module):\n    def __init__(self, rngs):\n"
                    "        self.linear = nnx.Linear(3, 2, rngs=rngs)\n\n\n"
                    "def run():\n    key, other = jax.random.split(jax.random.PRNGKey(0))\n"
                    f"    student = Net(nnx.Rngs(key))\n    teacher = {teacher}\n    return student, teacher\n")
    assert lint_source(source) == ([(_line(source, "teacher = "), "JNP601")] if reported else [])


@pytest.mark.parametrize("header, transform, reported", [
    (NNX, "nnx.jit", True),  # measured: each wrapper traces again
    ("import equinox as eqx\nimport jax.numpy as jnp\n\n\n", "eqx.filter_jit", False),  # cached by function
    ("import jax\nimport jax.numpy as jnp\n\n\n", "jax.jit", False),
])
def test_a_transform_whose_wrappers_trace_again_in_a_loop(lint_source, header, transform, reported):
    source = header + ("def step(x):\n    return x * 2.0\n\n\n"
                       f"def run():\n    x = jnp.ones(3)\n    for _ in range(10):\n        x = {transform}(step)(x)\n"
                       "    return x\n")
    assert lint_source(source) == ([(_line(source, "(step)(x)"), "JNP602")] if reported else [])


PLAIN = "import jax\nimport jax.numpy as jnp\nimport numpy as np\nfrom flax import nnx\n\n\n" + (
    "@jax.tree_util.register_static\nclass Ranker:\n    def slow(self, x):\n        return np.sort(x)\n\n"
    "    def fast(self, x):\n"
    "        return jnp.sort(x)\n\n\n")


@pytest.mark.parametrize("call, reported", [
    # measured: the operands reach the branches' parameters in order
    ("nnx.cond(x.sum() > 0, lambda m, x: m.fast(x), lambda m, x: m.slow(x), Ranker(), x)", True),
    ("jax.lax.cond(x.sum() > 0, lambda m, x: m.fast(x), lambda m, x: m.slow(x), Ranker(), x)", True),
    ("jax.lax.switch(1, [lambda m, x: m.fast(x), lambda m, x: m.slow(x)], Ranker(), x)", True),
    ("jax.lax.cond(x.sum() > 0, lambda m, x: m.fast(x), lambda m, x: m.fast(x), Ranker(), x)", False),
    # the operands given by a star: which one reaches which parameter is not known
    ("jax.lax.cond(x.sum() > 0, lambda m, x: m.fast(x), lambda m, x: m.slow(x), *(Ranker(), x))", False),
])
def test_control_flow_operands_reach_the_branch_parameters(lint_source, call, reported):
    source = PLAIN + f"def run():\n    x = jnp.ones(3)\n    return {call}\n"
    assert lint_source(source) == ([(_line(source, "np.sort"), "JNP201")] if reported else [])
