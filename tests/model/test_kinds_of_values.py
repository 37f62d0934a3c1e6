"""The kind of a value followed where it goes within a module: a helper's return into its caller,
a record's fields from its constructor, call arguments into a jitted function's parameters
(joined over every call in the file); each case with a negative that must stay silent."""
import textwrap

import pytest

HEADER = ("import dataclasses\nimport typing\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\n"
          "from functools import partial\n")
STEP = "@jax.jit\ndef step(p, x):\n    return p - jnp.mean(x)\n\n"


def findings(lint_source, body):
    source = HEADER + textwrap.dedent(body)
    return [(line - HEADER.count("\n"), code) for line, code in lint_source(source)]


MAKE_DATA = "def make_data():\n    x = np.ones(3, np.float32)\n    return x, x + 1\n\n"
TRAIN = "def train(n):\n    x, y = make_data()\n    p = jnp.zeros(3)\n    for _ in range(n):\n        p = step(p, x)\n"


@pytest.mark.parametrize("body, expected", [
    # a helper's NumPy return, unpacked: uploaded again on every call of the jitted step
    (STEP + MAKE_DATA + TRAIN, [(13, "JNP104")]),
    # a helper whose returns disagree, or that may end without one, gives nothing known
    (STEP + MAKE_DATA.replace("    return x, x + 1\n", "    if x[0]:\n        return x, x\n    return 1, 2\n")
     + TRAIN, []),
    (STEP + MAKE_DATA.replace("    return x, x + 1\n", "    if x[0]:\n        return x, x\n") + TRAIN, []),
    # a helper's device result: converted in the loop
    ("def fresh():\n    return jnp.zeros(3)\n\ndef f(n):\n    for _ in range(n):\n        w = fresh()\n"
     "        print(float(w.sum()))\n", [(7, "JNP102")]),
    ("def fresh():\n    return np.zeros(3)\n\ndef f(n):\n    for _ in range(n):\n        w = fresh()\n"
     "        print(float(w.sum()))\n", []),
])
def test_helper_returns_reach_the_caller(lint_source, body, expected):
    assert findings(lint_source, body) == expected


STATS = "@dataclasses.dataclass\nclass Stats:\n    loss: jax.Array\n    count: int\n\n"
LOOP = "def f(x, n):\n    for _ in range(n):\n        s = Stats(jnp.sum(x), 3)\n{between}        print(float(s.loss))\n"


@pytest.mark.parametrize("body, expected", [
    # a dataclass built here holds what its constructor was given
    (STATS + LOOP.format(between=""), [(9, "JNP102")]),
    (STATS + LOOP.format(between="").replace("Stats(jnp.sum(x), 3)", "Stats(count=3, loss=jnp.sum(x))"),
     [(9, "JNP102")]),
    # a field annotated as a JAX array, given something unknown, holds one
    (STATS + LOOP.format(between="").replace("Stats(jnp.sum(x), 3)", "Stats(x, 3)"), [(9, "JNP102")]),
    # NumPy data given: not a device array; the count is a Python value
    (STATS + LOOP.format(between="").replace("jnp.sum(x)", "np.sum(np.ones(3))"), []),
    (STATS + LOOP.format(between="").replace("s.loss", "s.count"), []),
    # a field stored again, or the object handed to a function that may: its fields are not known
    (STATS + LOOP.format(between="        s.loss = 0.0\n"), []),
    (STATS + LOOP.format(between="        reset(s)\n"), []),
    # a class with its own __post_init__, or one whose field leaves the positional order
    (STATS.replace("    count: int\n", "    count: int\n\n    def __post_init__(self):\n        self.loss = 0.0\n")
     + LOOP.format(between=""), []),
    (STATS.replace("jax.Array\n", "jax.Array = dataclasses.field(kw_only=True)\n") + LOOP.format(between=""), []),
    # a NamedTuple's fields are its items too
    ("class Pair(typing.NamedTuple):\n    a: jax.Array\n    b: int\n\ndef f(x, n):\n    for _ in range(n):\n"
     "        a, b = Pair(jnp.sum(x), 2)\n        print(float(a))\n", [(8, "JNP102")]),
])
def test_record_fields_hold_what_the_constructor_got(lint_source, body, expected):
    assert findings(lint_source, body) == expected


@pytest.mark.parametrize("body, expected", [
    # every call passes a Python number through jit: the parameter is a traced scalar
    ("@jax.jit\ndef gate(flag):\n    if True and flag:\n        return 1\n    return 0\n\ngate(True)\n",
     [(3, "JNP202")]),
    ("@jax.jit\ndef norm(x, scale):\n    scale = scale or 1.0\n    return x / scale\n\nnorm(jnp.ones(3), 2.0)\n",
     [(3, "JNP202")]),
    ("def gate(flag):\n    if flag:\n        return 1\n    return 0\n\nfast = jax.jit(gate)\nfast(3)\n",
     [(2, "JNP202")]),
    # static, a plain call of the undecorated function, callers that disagree, or no call seen
    ("@partial(jax.jit, static_argnums=0)\ndef gate(flag):\n    if flag:\n        return 1\n    return 0\n\n"
     "gate(True)\n", []),
    ("def gate(flag):\n    if flag:\n        return 1\n    return 0\n\nfast = jax.jit(gate)\ngate(3)\nfast(3)\n", []),
    ("@jax.jit\ndef gate(flag):\n    if flag:\n        return 1\n    return 0\n\ngate(True)\ngate({'a': 1})\n", []),
    ("@jax.jit\ndef gate(flag):\n    if flag:\n        return 1\n    return 0\n", []),
])
def test_arguments_join_into_parameters(lint_source, body, expected):
    assert findings(lint_source, body) == expected


@pytest.mark.parametrize("body, expected", [
    # a dict of device arrays is not host data: a donated batch read again is reported
    ("@partial(jax.jit, donate_argnums=1)\ndef train(p, b):\n    return p + b['x'].sum()\n\n"
     "def run(p, n):\n    batch = {'x': jnp.ones(3)}\n    p = train(p, batch)\n    print(batch['x'].sum())\n",
     [(8, "JNP605")]),
    ("@partial(jax.jit, donate_argnums=1)\ndef train(p, b):\n    return p + b['x'].sum()\n\n"
     "def run(p, n):\n    batch = {'x': np.ones(3)}\n    p = train(p, batch)\n    print(batch['x'].sum())\n", []),
])
def test_containers_of_device_arrays_are_not_host_data(lint_source, body, expected):
    assert findings(lint_source, body) == expected


CHECKED = ("def checked(x, check=True):\n    {test}\n        raise ValueError('not finite')\n    return x\n\n"
           "def run():\n    return jax.jit(checked, static_argnames=['check'])(jnp.ones(3){given})\n")


@pytest.mark.parametrize("test, given, expected", [
    # a static flag every call leaves on (its default) or passes True: the test runs
    ("if check and not jnp.all(jnp.isfinite(x)):", "", [(2, "JNP202")]),
    ("if check and not jnp.all(jnp.isfinite(x)):", ", check=True", [(2, "JNP202")]),
    # passed False at every call: what the flag guards never runs, in an and, an if or an if-expression
    ("if check and not jnp.all(jnp.isfinite(x)):", ", check=False", []),
    ("if not check or jnp.all(jnp.isfinite(x)):\n        return x\n    if check:", ", check=False", []),
    ("if (not jnp.all(x > 0)) if check else False:", ", check=False", []),
    ("if check:\n        pass\n    elif not jnp.all(jnp.isfinite(x)):", ", check=True", []),
    # a number known at every call keeps its kind: arithmetic with it gives one tracer
    ("if (x[0] * check).item():", ", check=2.0", [(2, "JNP202")]),
    # a value computed at the call is not read: the model does not know the flag
    ("if check and not jnp.all(jnp.isfinite(x)):", ", check=bool(0)", [(2, "JNP202")]),
])
def test_static_flags_every_call_gives_skip_what_they_guard(lint_source, test, given, expected):
    assert findings(lint_source, CHECKED.format(test=test, given=given)) == expected


LOGGER = ("from collections import defaultdict\n\nclass Logger:\n    def __init__(self):\n"
          "        self.history = {held}\n\n    def log(self, name, value):\n"
          "        self.history[name].append(value)\n\n    def mean(self, name):\n"
          "        return jnp.mean(self.history[name][-3:])\n")


@pytest.mark.parametrize("body, expected", [
    # a defaultdict(list) any key of which gives a list, held by the object or bound to a name
    (LOGGER.format(held="defaultdict(list)"), [(11, "JNP505")]),
    ("from collections import defaultdict\n\ndef f(name):\n    seen = defaultdict(list)\n"
     "    seen[name].append(1.0)\n    return jnp.mean(seen[name])\n", [(6, "JNP505")]),
    # a dict whose values are all lists, read at a key known only at runtime
    ("def f(name):\n    table = {'a': [1.0], 'b': [2.0]}\n    return jnp.mean(table[name])\n", [(3, "JNP505")]),
    # another factory, an item stored into the held dict, values of several kinds: nothing known
    (LOGGER.format(held="defaultdict(lambda: jnp.zeros(3))"), []),
    (LOGGER.format(held="defaultdict(list)")
     + "\n    def reset(self, name):\n        self.history[name] = jnp.zeros(3)\n", []),
    ("def f(name):\n    table = {'a': [1.0], 'b': jnp.ones(2)}\n    return jnp.mean(table[name])\n", []),
])
def test_dict_items_read_at_any_key(lint_source, body, expected):
    assert findings(lint_source, body) == expected


MODEL = ("class Model:\n    def __init__(self, check):\n        self.check = check\n\n"
         "    def {name}(self, p, t):\n        if self.check and jnp.any(t < 0):\n            raise ValueError\n"
         "        return p * t\n\n    @partial(jax.jit, static_argnums=0)\n    def run(self, p, t):\n"
         "        return self(p, t)\n")


@pytest.mark.parametrize("name, expected", [("__call__", [(6, "JNP202")]), ("forward", [])])
def test_calling_self_runs_the_class_call(lint_source, name, expected):
    assert findings(lint_source, MODEL.format(name=name)) == expected


INDEXED = ("def weight(table, t):\n    level = {index}\n    return np.minimum(level, 5.0)\n\n"
           "class Weigher:\n    def __init__(self, table):\n        self.table = table\n"
           "        self.step = jax.jit(self._step)\n\n    def _step(self, t):\n        return weight(self.table, t)\n")


@pytest.mark.parametrize("index, expected", [
    # only an array takes a traced index (a list, dict or NumPy array raises): the item is a tracer
    ("table[t]", [(3, "JNP201")]),
    ("table.levels[t + 1]", [(3, "JNP201")]),
    # an update reference, and a library object's index (a tuple), are no tracers
    ("table.at[t]", []),
    ("np.s_[t]", []),
    # an index that is not traced says nothing of an object of no known kind
    ("table[0]", []),
])
def test_index_by_a_tracer(lint_source, index, expected):
    assert findings(lint_source, INDEXED.format(index=index)) == expected


TIMED = ("import time\n\n@jax.jit\ndef step(x):\n    return x @ x\n\n"
         "def timed(x, label):\n    start = time.time()\n    step(x)\n    return f\"{label}: {time.time() - start}\"\n\n")


@pytest.mark.parametrize("body, expected", [
    # a parameter that every call of the file gives a string is a string, in a def no trace reaches:
    # formatting it waits for nothing, so the clock after it is read before the work is done
    (TIMED + "def run():\n    return timed(jnp.ones((9, 9)), 'step')\n", [(10, "JNP603")]),
    # a caller that gives it an array: formatting it may wait, the clock comes after
    (TIMED + "def run(y):\n    return timed(jnp.ones((9, 9)), 'step'), timed(y, y.sum())\n", []),
])
def test_parameters_given_strings_are_python_values(lint_source, body, expected):
    assert findings(lint_source, body) == expected


@pytest.mark.parametrize("body, expected", [
    # the function a traced body runs on as many abstract tracers as measured (api.body_calls)
    ("def rows(m):\n    return jnp.apply_along_axis(jnp.nonzero, 1, m)\n", [(2, "JNP203")]),
    ("def rows(m):\n    return jax.lax.map(jnp.argwhere, m)\n", [(2, "JNP203")]),
    # along axis 0 of a vector it runs once, on concrete data; extra operands change what it receives
    ("def rows(m):\n    return jnp.apply_along_axis(jnp.nonzero, 0, m)\n", []),
    ("def rows(m, c):\n    return jnp.apply_along_axis(jnp.where, 1, m, c, m)\n", []),
    # a same-file def given to it is traced
    ("def keep(r):\n    return r[r > 0]\n\ndef rows(m):\n    return jnp.apply_along_axis(keep, 1, m)\n",
     [(2, "JNP203")]),
])
def test_functions_given_to_mapping_functions_are_traced(lint_source, body, expected):
    assert findings(lint_source, body) == expected


DATA = ("class Data:\n    def __init__(self, n):\n        self.x = np.ones((n, 3), np.float32)\n\n"
        "    def clip(self):\n        return self\n\n    def halves(self):\n        return self.x[:2], self.x[2:]\n\n")
USE = "def f(n):\n{bind}    p = jnp.zeros(3)\n    for _ in range(n):\n        p = step(p, x)\n"


@pytest.mark.parametrize("bind, expected", [
    # an object's attribute every store of which is NumPy data, and what a method returns of it
    ("    d = Data(4)\n    x = d.x\n", [(23, "JNP104")]),
    ("    x, _ = Data(4).halves()\n", [(22, "JNP104")]),
    # the class through a method returning self, and through an item of a helper's tuple
    ("    d = Data(4).clip()\n    x = d.x\n", [(23, "JNP104")]),
    ("    _, d = make(4)\n    x, _ = d.halves()\n", [(23, "JNP104")]),
    # a name rebound through such a method asks of itself: unknown and silent, not a recursion
    ("    d = Data(4)\n    d = d.clip()\n    d = d.clip()\n    x = d.x\n", []),
    # an item the helper's tuple does not hold as a Data, or a store of device data: silent
    ("    d, _ = make(4)\n    x = d.x\n", []),
    ("    d = Data(4)\n    d.x = jnp.ones(3)\n    x = d.x\n", []),
])
def test_objects_keep_the_kind_their_class_stores(lint_source, bind, expected):
    body = STEP + DATA + "def make(n):\n    return 1, Data(n)\n\n" + USE.format(bind=bind)
    assert findings(lint_source, body) == expected


LINEN = "import flax.linen as nn\n\n\nclass Scaled(nn.Module):\n    @nn.compact\n    def __call__(self, x):\n" \
        "        scale = self.param('scale', {init}, (x.shape[-1],){asked})\n" \
        "        return x.astype(jnp.bfloat16) * scale\n\n\ndef run(model, v, x):\n    return jax.jit(model.apply)(v, x)\n"
EQX = "import equinox as eqx\n\n\nclass Gate(eqx.Module):\n    bias: jax.Array\n\n    def __init__(self):\n" \
      "        self.bias = jnp.zeros(4{asked})\n\n    def __call__(self, x):\n        return x.astype(jnp.bfloat16) + self.bias\n" \
      "{other}\n\ndef run(x):\n    return eqx.filter_jit(Gate())(x)\n"


@pytest.mark.parametrize("body, expected", [
    # an array's shape holds Python ints: arange of one is int32 (measured), a float32 ones() meets it
    ("def f():\n    x = jnp.ones(3)\n    return jnp.arange(x.shape[0]) * x\n", [(3, "JNP401")]),
    ("def f():\n    x = jnp.ones(3)\n    return jnp.arange(x.shape[0]) * x.ndim\n", []),
    # measured of Python ints and floats only: a complex (or bool) argument's result is not known
    ("def f():\n    x = jnp.arange(3)\n    return jnp.linspace(0, 1j, 3) + x\n", []),
    # a Linen parameter has its initializer's measured dtype: float32, or the one asked for
    (LINEN.format(init="nn.initializers.ones", asked=""), [(8, "JNP401")]),
    (LINEN.format(init="nn.initializers.ones", asked=", jnp.bfloat16"), []),
    (LINEN.format(init="nn.initializers.normal(0.02, dtype=jnp.bfloat16)", asked=""), []),
    (LINEN.format(init="nn.initializers.normal(0.02, jnp.bfloat16)", asked=""), []),  # a positional dtype: unknown
    (LINEN.format(init="nn.initializers.orthogonal()", asked=", jnp.bfloat16"), []),  # not honoured: unknown
    # an Equinox field has the dtype __init__ stores, unless another store may change it
    (EQX.format(asked="", other=""), [(11, "JNP401")]),
    (EQX.format(asked=", jnp.bfloat16", other=""), []),
    (EQX.format(asked="", other="\n\ndef reset(m):\n    m.bias = None\n"), []),
    # a field the class declares with a value (eqx.field(converter=...)) may hold another dtype than stored
    (EQX.replace("bias: jax.Array", "bias: jax.Array = eqx.field(converter=lambda b: jnp.asarray(b, jnp.bfloat16))")
     .format(asked="", other=""), []),
    (EQX.replace("bias: jax.Array", "bias: jax.Array\n    scale = 2.0").format(asked="", other=""), [(12, "JNP401")]),
])
def test_dtypes_of_shapes_parameters_and_fields(lint_source, body, expected):
    assert findings(lint_source, body) == expected


def test_only_a_param_call_takes_its_initializer_s_measured_dtype(lint_source, monkeypatch):
    """Another Linen state method measured to give a tracer (here a made-up ``self.declare``) keeps
    the unknown dtype it gives, whatever initializer its arguments name."""
    from flake8_jaxnp import api

    bases = {name: dict(facts, traced_self_methods={**facts["traced_self_methods"], "declare": "array"})
             for name, facts in api.framework_module_bases().items()}
    monkeypatch.setattr(api, "framework_module_bases", lambda: bases)
    declared = LINEN.replace("self.param(", "self.declare(")
    assert findings(lint_source, LINEN.format(init="nn.initializers.ones", asked="")) == [(8, "JNP401")]
    assert findings(lint_source, declared.format(init="nn.initializers.ones", asked="")) == []
