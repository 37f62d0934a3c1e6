"""Reach inside one module: transforms applied to what a factory returns, objects whose
__init__ or __call__ runs under a trace, and device values that arrive indirectly (a
factory's jitted step, a NumPy reduction of a JAX array). Each shape with look-alikes
that must stay silent."""
import ast

import pytest

from flake8_jaxnp.linter import lint
from flake8_jaxnp.options import DEFAULT
from test_values_through_helpers import HEADER, findings

FACTORY = """\
def make_train(config):
    def train(x):
        if x.sum() > 0:
            return x
        return -x
    return train

"""

PLAIN = "def make_plain(config):\n    def plain(x):\n        return x\n    return plain\n\n"


@pytest.mark.parametrize("body, expected", [
    # the inner def a factory returns is traced by the transform applied to the call
    (FACTORY + "train = jax.jit(make_train({}))\n", [(3, "JNP202")]),
    (FACTORY + "fn = make_train({})\ntrain = jax.jit(fn)\n", [(3, "JNP202")]),
    (FACTORY + "train = jax.vmap(make_train({}))\n", [(3, "JNP202")]),
    # a factory looked up in a dict by a key not known: what each entry's factory makes may be traced
    (FACTORY + PLAIN + "MAKERS = {'a': make_train, 'b': make_plain}\n\ndef run(name):\n"
     "    return jax.jit(MAKERS[name]({}))\n", [(3, "JNP202")]),
    (FACTORY + PLAIN + "MAKERS = {'a': make_plain, 'b': make_train}\n\n"
     "def run(name):\n    step = MAKERS[name]({})\n    return jax.lax.scan(step, 0.0, None, length=2)\n",
     [(3, "JNP202")]),
    # stored on self in __init__ and transformed in a method
    (FACTORY + "class Trainer:\n    def __init__(self):\n        self.train = make_train({})\n\n"
     "    def run(self, x):\n        return jax.jit(self.train)(x)\n", [(3, "JNP202")]),
    # not traced: the factory is never transformed, its result is not known, or an entry is no def
    (FACTORY + "train = make_train({})\n", []),
    (FACTORY + PLAIN + "MAKERS = {'a': make_plain, 'b': make_train}\ntrain = jax.jit(MAKERS['a']({}))\n", []),
    (FACTORY + "MAKERS = {'a': make_train, 'b': len}\n\ndef run(name):\n    return jax.jit(MAKERS[name]({}))\n",
     []),
    ("def make(flag):\n    def a(x):\n        return x if x > 0 else -x\n    def b(x):\n        return x\n"
     "    return a if flag else b\n\nf = jax.jit(make(True))\n", []),
    ("def make():\n    def a(x):\n        return x if x > 0 else -x\n    return functools.wraps(a)(a)\n\n"
     "f = jax.jit(make())\n", []),
    ("def make():\n    @functools.wraps(len)\n    def a(x):\n        return x if x > 0 else -x\n    return a\n\n"
     "f = jax.jit(make())\n", []),
    ("def make():\n    def a(x):\n        return x if x > 0 else -x\n    yield a\n    return a\n\n"
     "f = jax.jit(make())\n", []),
    # the factory's own parameters reach the inner def as Python values
    ("def make(n):\n    def a(x):\n        for _ in range(n):\n            x = x + 1\n        return x\n"
     "    return a\n\nf = jax.jit(make(3))\n", []),
])
def test_factory_results_are_traced(lint_source, body, expected):
    assert findings(lint_source, "import functools\n" + body) == [(line + 1, code) for line, code in expected]


CLIPPED = """\
class Clipped:
    def __init__(self, limit, label="c"):
        if limit > 0:
            self.limit = limit
        else:
            self.limit = -limit

    def __call__(self, x):
        return np.minimum(x, 1.0)

"""


@pytest.mark.parametrize("body, expected", [
    # a constructor called with a tracer runs __init__ under the trace
    (CLIPPED + "@jax.jit\ndef f(x, y):\n    return x + Clipped(y).limit\n", [(3, "JNP202")]),
    (CLIPPED + "@jax.jit\ndef f(x, y):\n    return x + Clipped(limit=y).limit\n", [(3, "JNP202")]),
    # an instance called with a tracer runs __call__ under it, from a closure or a local
    (CLIPPED + "clip = Clipped(1.0)\n\n@jax.jit\ndef f(x):\n    return clip(x)\n", [(9, "JNP201")]),
    (CLIPPED + "@jax.jit\ndef f(x):\n    clip = Clipped(1.0)\n    return clip(x)\n", [(9, "JNP201")]),
    # Python values in, or no trace at all: silent
    (CLIPPED + "@jax.jit\ndef f(x):\n    return x + Clipped(1.0).limit\n", []),
    (CLIPPED + "@jax.jit\ndef f(x):\n    return x + Clipped(1.0, label=x).limit\n", []),
    (CLIPPED + "def f(x, y):\n    return Clipped(y)(x)\n", []),
    # a class without its own __init__, or a name bound twice, is not known
    (CLIPPED + "class Sub(Clipped):\n    pass\n\n@jax.jit\ndef f(x, y):\n    return Sub(y)\n", []),
    (CLIPPED + "clip = Clipped(1.0)\nclip = len\n\n@jax.jit\ndef f(x):\n    return clip(x)\n", []),
])
def test_objects_under_a_trace(lint_source, body, expected):
    assert findings(lint_source, body) == expected


BUILDER = """\
@functools.lru_cache(maxsize=None)
def step_for(rate):
    def step(x):
        return x * rate
    return jax.jit(step)

"""


@pytest.mark.parametrize("body, expected", [
    # a function that returns jax.jit(...) gives a jitted step: its results are device arrays
    (BUILDER + "def run(p, n):\n    step = step_for(0.5)\n    for _ in range(n):\n        p = step(p)\n"
     "        print(float(p))\n", [(11, "JNP102")]),
    ("def step_for(rate):\n    fast = jax.jit(lambda x: x * rate)\n    return fast\n\n"
     "def run(p, n):\n    step = step_for(0.5)\n    for _ in range(n):\n        print(float(step(p)))\n",
     [(8, "JNP102")]),
    # a factory that returns anything else, or is decorated otherwise, is not known
    ("def step_for(rate):\n    def step(x):\n        return x * rate\n    return step\n\n"
     "def run(p, n):\n    step = step_for(0.5)\n    for _ in range(n):\n        print(float(step(p)))\n", []),
    ("def step_for(rate, fast):\n    if fast:\n        return jax.jit(lambda x: x * rate)\n    return len\n\n"
     "def run(p, n):\n    step = step_for(0.5, True)\n    for _ in range(n):\n        print(float(step(p)))\n", []),
    ("@some_registry\ndef step_for(rate):\n    return jax.jit(lambda x: x * rate)\n\n"
     "def run(p, n):\n    step = step_for(0.5)\n    for _ in range(n):\n        print(float(step(p)))\n", []),
    ("def step_for(rate):\n    return jax.make_jaxpr(lambda x: x * rate)\n\n"
     "def run(p, n):\n    step = step_for(0.5)\n    for _ in range(n):\n        print(float(step(p)))\n", []),
])
def test_factories_of_jitted_steps(lint_source, body, expected):
    assert findings(lint_source, "import functools\n" + body) == [(line + 1, code) for line, code in expected]


@pytest.mark.parametrize("body, expected", [
    # np.sum of a JAX array runs its .sum(): a JAX array, so .item() and float() sync
    ("def f(p, n):\n    x = jnp.ones(3)\n    for _ in range(n):\n        print(np.sum(x).item())\n",
     [(4, "JNP102")]),
    ("def f(p, n):\n    x = jnp.ones(3)\n    for _ in range(n):\n        print(float(np.max(x)))\n",
     [(4, "JNP102")]),
    # of NumPy data, or a function that converts to NumPy: host data, no sync
    ("def f(p, n):\n    x = np.ones(3)\n    for _ in range(n):\n        print(np.sum(x).item())\n", []),
    ("def f(p, n):\n    x = jnp.ones(3)\n    for _ in range(n):\n        x = x * 2\n        y = np.linalg.norm(x)\n"
     "        print(y.item())\n", [(5, "JNP101")]),
    # of a pytree: NumPy converts it
    ("@jax.jit\ndef g(p):\n    return p\n\ndef f(p, n):\n    for _ in range(n):\n        print(np.sum(g(p)).item())\n",
     []),
])
def test_numpy_reductions_of_device_arrays(lint_source, body, expected):
    assert findings(lint_source, body) == expected


LINEN = """\
import flax.linen as nn

class Gate(nn.Module):
    def __call__(self, x, train):
        if x.sum() > 0:
            return x
        print(x)
        return -x

gate = Gate()

"""


@pytest.mark.parametrize("body, expected", [
    # jax.jit(model.apply) traces the linen module's __call__; its print runs once per compilation
    # (and eagerly under init, once), so later calls print nothing
    (LINEN + "fast = jax.jit(gate.apply)\n", [(5, "JNP202"), (7, "JNP301")]),
    (LINEN + "@jax.jit\ndef loss(params, x):\n    return gate.apply({'params': params}, x, False)\n",
     [(5, "JNP202"), (7, "JNP301")]),
    (LINEN + "@jax.jit\ndef loss(params, x):\n    return gate.apply(params, x, train=x, rngs=x)\n",
     [(5, "JNP202"), (7, "JNP301")]),
    # options we cannot map onto __call__, another method: linen's contract traces __call__ anyway,
    # x used as an array; the chain passes a Python value: x stays static; a plain class: silent
    (LINEN + "fast = jax.jit(gate.apply, static_argnums=2)\n", [(5, "JNP202"), (7, "JNP301")]),
    (LINEN + "@jax.jit\ndef loss(params, x):\n    return gate.apply(params, x, False, method=Gate.other)\n",
     [(5, "JNP202"), (7, "JNP301")]),
    (LINEN + "@jax.jit\ndef loss(params, x):\n    return gate.apply(params, 1.0, False)\n", [(7, "JNP301")]),
    (LINEN.replace("(nn.Module)", "") + "fast = jax.jit(gate.apply)\n", []),
])
def test_linen_modules_under_apply(lint_source, body, expected):
    contract = {(7, "JNP301")} if "(nn.Module)" in body else set()  # linen traces Gate.__call__ whatever applies it
    assert findings(lint_source, body) == sorted(set(expected) | contract)


@pytest.mark.parametrize("body, expected", [
    # flax's unreplicate keeps device data on the device, and NumPy data on the host
    ("from flax import jax_utils\np_step = jax.pmap(jnp.sum)\n\ndef f(x, n):\n    for _ in range(n):\n"
     "        print(float(jax_utils.unreplicate(p_step(x))))\n", [(6, "JNP102")]),
    ("from flax.jax_utils import unreplicate\n\ndef f(n):\n    x = jnp.ones((1, 3))\n    for _ in range(n):\n"
     "        y = unreplicate(x)\n        print(y.item())\n", [(7, "JNP102")]),
    ("from flax.jax_utils import unreplicate\n\ndef f(n):\n    x = np.ones((1, 3))\n    for _ in range(n):\n"
     "        print(float(unreplicate(x)))\n", []),
])
def test_unreplicated_device_values(lint_source, body, expected):
    assert findings(lint_source, body) == expected


RECORD = """\
from typing import NamedTuple
import equinox as eqx

class State(NamedTuple):
    t: int
    x: jax.Array

class Plain:
    t: int

"""


@pytest.mark.parametrize("body, expected", [
    # a traced parameter annotated with a pytree class of the module: its fields are tracers
    (RECORD + "@jax.jit\ndef f(state: State):\n    if state.t > 3:\n        return state\n    return state\n",
     [(13, "JNP202")]),
    (RECORD + "@jax.jit\ndef f(state: State):\n    return float(state.x)\n", [(13, "JNP202")]),
    # not annotated, not a pytree class, static, or under a transform that keeps Python ints static
    (RECORD + "@jax.jit\ndef f(state):\n    if state.t > 3:\n        return state\n    return state\n", []),
    (RECORD + "@jax.jit\ndef f(state: Plain):\n    if state.t > 3:\n        return state\n    return state\n", []),
    (RECORD + "@partial(jax.jit, static_argnums=0)\ndef f(state: State):\n    if state.t > 3:\n"
     "        return state\n    return state\n", []),
    (RECORD + "@eqx.filter_jit\ndef f(state: State):\n    if state.t > 3:\n        return state\n    return state\n",
     []),
])
def test_annotated_records_under_a_trace(lint_source, body, expected):
    assert findings(lint_source, body) == expected


BOX = """\
import dataclasses

@dataclasses.dataclass
class Box:
    lo: jax.Array
    hi: float

    def __post_init__(self):
        if self.lo > 0:
            pass
        if self.hi > 0:
            pass

"""


@pytest.mark.parametrize("body, expected", [
    # a dataclass constructed with tracers runs __post_init__ with those fields traced
    (BOX + "@jax.jit\ndef f(x):\n    return Box(x, 1.0)\n", [(9, "JNP202")]),
    (BOX + "@jax.jit\ndef f(x):\n    return Box(hi=x, lo=1.0)\n", [(11, "JNP202")]),
    (BOX + "@jax.jit\ndef f(x):\n    return Box(x, x)\n", [(9, "JNP202"), (11, "JNP202")]),
    # Python values, no trace, or a dataclass whose fields the model cannot list
    (BOX + "@jax.jit\ndef f(x):\n    return Box(1.0, 2.0)\n", []),
    (BOX + "def f(x):\n    return Box(x, x)\n", []),
    (BOX.replace("class Box:", "class Box(Base):") + "@jax.jit\ndef f(x):\n    return Box(x, x)\n", []),
    (BOX.replace("hi: float", "hi: float = dataclasses.field(default=0.0)")
     + "@jax.jit\ndef f(x):\n    return Box(x, x)\n", []),
    (BOX.replace("@dataclasses.dataclass", "@dataclasses.dataclass(kw_only=True)")
     + "@jax.jit\ndef f(x):\n    return Box(lo=x, hi=x)\n", []),
])
def test_dataclass_post_init_under_a_trace(lint_source, body, expected):
    assert findings(lint_source, body) == expected


@pytest.mark.parametrize("body, expected", [
    # a parameter annotated with a same-file class, called with a tracer: its __call__ is traced
    (CLIPPED + "@jax.jit\ndef f(clip: Clipped, x):\n    return clip(x)\n", [(9, "JNP201")]),
    (CLIPPED + "@jax.jit\ndef f(clip, x):\n    return clip(x)\n", []),
    (CLIPPED + "@jax.jit\ndef f(clip: Clipped, x):\n    return clip(1.0)\n", []),
    (CLIPPED + "def f(clip: Clipped, x):\n    return clip(x)\n", []),
])
def test_annotated_instances_called_under_a_trace(lint_source, body, expected):
    assert findings(lint_source, body) == expected


HELPER = "def helper(p):\n    if p:\n        return p\n    return p\n\n"


@pytest.mark.parametrize("body, expected", [
    # a helper every traced caller passes a single array to has an array parameter: its truth fails
    (HELPER + "@jax.jit\ndef f(x):\n    return helper(x.sum())\n", [(2, "JNP202")]),
    (HELPER + "@eqx.filter_jit\ndef f(x: jax.Array):\n    return helper(x * 2)\n", [(2, "JNP202")]),
    # a pytree from one caller, or the traced root's own parameter (an array or a pytree): not known
    (HELPER + "@jax.jit\ndef f(x):\n    return helper(x)\n", []),
    (HELPER + "@jax.jit\ndef f(x):\n    return helper(x.sum())\n\n@jax.jit\ndef g(tree):\n    return helper(tree)\n",
     []),
])
def test_array_arguments_spread_with_tracing(lint_source, body, expected):
    assert findings(lint_source, "import equinox as eqx\n" + body) == [(line + 1, code) for line, code in expected]


@pytest.mark.parametrize("body, line, where, root", [
    # a factory's result: the line where the transform was applied
    (FACTORY + "train = jax.jit(make_train({}))\n", 3, "applied at line {} to what 'make_train' returns", 8),
    # a method a call runs ('__init__' alone names no class): the traced caller and the call's line
    (CLIPPED + "@jax.jit\ndef f(x, y):\n    return x + Clipped(y).limit\n", 3, "called from 'f' at line {}", 13),
])
def test_messages_name_where_the_trace_comes_from(body, line, where, root):
    offset = HEADER.count("\n")
    source = HEADER + body
    found = [(f.line - offset, f.message) for f in lint(ast.parse(source), source.splitlines(True), DEFAULT)]
    assert len(found) == 1 and found[0][0] == line
    assert f"traced by jax.jit ({where.format(root + offset)});" in found[0][1]


NNX = """\
from flax import nnx

class Counter(nnx.Module):
    def __init__(self):
        self.count = jnp.array(0)

    def __call__(self, x):
        self.count += 1
        if x.sum() > 0:
            return x
        return -x

"""


@pytest.mark.parametrize("body, expected", [
    # nnx.jit carries an NNX module's attribute updates out: only what fails on tracers is reported
    (NNX + "@nnx.jit\ndef f(model: Counter, x):\n    return model(x)\n", [(9, "JNP202")]),
    (NNX.replace("(nnx.Module)", "") + "@jax.jit\ndef f(x):\n    return Counter()(x)\n",
     [(8, "JNP303"), (9, "JNP202")]),
])
def test_nnx_module_state_is_not_a_side_effect(lint_source, body, expected):
    assert findings(lint_source, body) == expected


LOSS_TABLE = """\
def host(x):
    return np.abs(x)

def plain(x):
    return x * x

"""


@pytest.mark.parametrize("body, expected", [
    # a module dict of functions looked up by a key that is not a constant: every entry may run
    (LOSS_TABLE + "LOSSES = {'host': host, 'plain': plain}\n\ndef run(name, x):\n"
     "    return jax.jit(LOSSES[name])(x)\n", [(2, "JNP201")]),
    (LOSS_TABLE + "LOSSES = {'host': host, 'plain': plain}\n\n@functools.partial(jax.jit, static_argnums=1)\n"
     "def run(x, name):\n    loss = LOSSES[name]\n    return jax.grad(loss)(x)\n", [(2, "JNP201")]),
    # a constant key runs its own entry only
    (LOSS_TABLE + "LOSSES = {'host': host, 'plain': plain}\n\nf = jax.jit(LOSSES['plain'])\n", []),
    (LOSS_TABLE + "LOSSES = {'host': host, 'plain': plain}\n\nf = jax.jit(LOSSES['host'])\n", [(2, "JNP201")]),
    # not only functions, a dict rebound, unpacked, or local: not followed
    (LOSS_TABLE + "LOSSES = {'host': host, 'plain': len}\n\ndef run(name, x):\n"
     "    return jax.jit(LOSSES[name])(x)\n", []),
    (LOSS_TABLE + "LOSSES = {'host': host}\nLOSSES = {'plain': plain}\n\ndef run(name, x):\n"
     "    return jax.jit(LOSSES[name])(x)\n", []),
    (LOSS_TABLE + "LOSSES = {'plain': plain, **{'host': host}}\n\ndef run(name, x):\n"
     "    return jax.jit(LOSSES[name])(x)\n", []),
    (LOSS_TABLE + "def run(name, x):\n    losses = {'host': host, 'plain': plain}\n"
     "    return jax.jit(losses[name])(x)\n", []),
])
def test_functions_looked_up_in_a_module_dict(lint_source, body, expected):
    assert findings(lint_source, "import functools\n" + body) == [(line + 1, code) for line, code in expected]
