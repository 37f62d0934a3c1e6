"""The frameworks' own layers and the framework objects given to a jit (issue 43): a layer measured
to give one array gives a tracer in traced code, however the layer is held (built in place, a
name, ``self.<attr>`` stored by ``__init__``/``setup`` or a base's); a framework's name for a JAX
function is that function; ``jax.jit`` refuses a linen Module or an ``eqx.nn.MLP`` given as a traced
argument (JNP205); a loop counter stored in a Module field that ``eqx.filter_jit`` keeps static
compiles again (JNP602); an Equinox layer built with ``key=`` draws from it (JNP601). Linted
without the frameworks; ``fixtures/frameworks/layerpkg`` is confirmed at runtime with them."""
import pytest

LINEN = "import flax.linen as nn\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\n\n\n"
NNX = "from flax import nnx\nimport jax.numpy as jnp\nimport numpy as np\n\n\n"
EQX = "import equinox as eqx\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\n\n\n"


@pytest.mark.parametrize("body, reported", [
    ("h = nn.Dense(4)(x)", True),
    ("layer = nn.Dense(4)\n        h = layer(x)", True),
    ("h = nn.relu(nn.Dense(4)(x))", True),  # nn.relu is jax.nn.relu
    ("h = nn.Dense(4)(x)\n        h = nn.gelu(h)", True),
    # a layer that gives more than an array (a cell's carry and output) is not in the data: unknown
    ("h = nn.LSTMCell(4)((x, x), x)", False),
    ("h = nn.Helper()(x)", False),  # not a layer the data knows: unknown
])
def test_a_linen_layer_output_is_a_tracer(lint_source, body, reported):
    source = LINEN + ("class Model(nn.Module):\n    @nn.compact\n    def __call__(self, x):\n"
                      f"        {body}\n        return np.asarray(h)\n")
    assert lint_source(source) == ([(_last_line(source), "JNP201")] if reported else [])


@pytest.mark.parametrize("stored, reported", [
    ("class Model(nnx.Module):\n    def __init__(self, rngs):\n        self.linear = nnx.Linear(3, 3, rngs=rngs)\n\n",
     True),
    # stored by the single same-file base's __init__
    ("class Base(nnx.Module):\n    def __init__(self, rngs):\n        self.linear = nnx.Linear(3, 3, rngs=rngs)\n\n\n"
     "class Model(Base):\n", True),
    # assigned twice, to different layers: which one runs is not known
    ("class Model(nnx.Module):\n    def __init__(self, rngs, wide):\n"
     "        self.linear = nnx.Linear(3, 3, rngs=rngs)\n"
     "        if wide:\n            self.linear = nnx.Embed(3, 3, rngs=rngs)\n\n", False),
])
def test_a_stored_nnx_layer_output_is_a_tracer(lint_source, stored, reported):
    source = NNX + stored + "    def __call__(self, x):\n        h = self.linear(x)\n        return float(h.max())\n"
    assert lint_source(source) == ([(_last_line(source), "JNP202")] if reported else [])


def test_a_same_file_submodule_returns_its_layer_output(lint_source):
    source = LINEN + ("class Block(nn.Module):\n    @nn.compact\n    def __call__(self, x):\n"
                      "        return nn.LayerNorm()(nn.Dense(4)(x))\n\n\n"
                      "class Gate(nn.Module):\n    @nn.compact\n    def __call__(self, x):\n        h = Block()(x)\n"
                      "        if h.mean() > 0:\n            h = h * 2\n        return h\n")
    assert lint_source(source) == [(_last_line(source) - 2, "JNP202")]


@pytest.mark.parametrize("given, jit, reported", [
    ("Block()", "jax.jit(apply)", True),
    ("Block()", "jax.jit(apply, static_argnums=0)", False),  # static: hashed, not traced
    ("eqx.nn.MLP(2, 1, 4, 1, key=jax.random.PRNGKey(0))", "jax.jit(apply)", True),
    ("eqx.nn.Linear(2, 1, key=jax.random.PRNGKey(0))", "jax.jit(apply)", False),  # arrays and ints: a pytree
    ("eqx.nn.MLP(2, 1, 4, 1, key=jax.random.PRNGKey(0))", "eqx.filter_jit(apply)", False),  # filtered
    ("Plain()", "jax.jit(apply)", False),  # an Equinox Module of arrays: a pytree
])
def test_a_framework_object_jax_jit_refuses(lint_source, given, jit, reported):
    source = (EQX.replace("import numpy as np\n", "import flax.linen as nn\n")
              + "class Block(nn.Module):\n    pass\n\n\nclass Plain(eqx.Module):\n    w: jax.Array\n\n\n"
              f"def apply(module, x):\n    return x\n\n\ndef run(module, x):\n    return {jit}(module, x)\n\n\n"
              f"run({given}, jnp.ones(2))\n")
    assert lint_source(source) == ([(_last_line(source) - 3, "JNP205")] if reported else [])


SHIFTED = "class Shifted(eqx.Module):\n    w: jax.Array\n    shift: int\n"


@pytest.mark.parametrize("cls, built, jit, reported", [
    (SHIFTED, "Shifted(jnp.ones(3), i)", "eqx.filter_jit", True),
    (SHIFTED, "Shifted(w=jnp.ones(3), shift=i)",
     "eqx.filter_jit", True),
    # jax.jit traces an int leaf: no new compilation
    (SHIFTED, "Shifted(jnp.ones(3), i)", "jax.jit", False),
    # an own __init__ decides what is stored
    ("class Shifted(eqx.Module):\n    w: jax.Array\n    shift: jax.Array\n\n    def __init__(self, w, shift):\n"
     "        self.w, self.shift = w, jnp.asarray(shift)\n", "Shifted(jnp.ones(3), i)", "eqx.filter_jit", False),
])
def test_a_loop_counter_in_a_static_module_field(lint_source, cls, built, jit, reported):
    source = EQX + cls + (f"\n\n@{jit}\ndef step(m, x):\n    return m.w * x\n\n\n"
                          f"def run():\n    for i in range(4):\n        step({built}, jnp.ones(3))\n")
    assert lint_source(source) == ([(_last_line(source), "JNP602")] if reported else [])


def test_a_loop_counter_given_to_a_transform_that_keeps_scalars_static(lint_source):
    source = EQX + ("@eqx.filter_jit\ndef step(x, n):\n    return x * n\n\n\n"
                    "def run():\n    for i in range(4):\n        step(jnp.ones(3), i)\n")
    assert lint_source(source) == [(_last_line(source), "JNP602")]


def _last_line(source):
    return len(source.splitlines())


@pytest.mark.parametrize("second, reported", [
    ("eqx.nn.Linear(3, 3, key=key)", True),  # the same weights: two draws of one key
    ("eqx.nn.MLP(3, 3, 4, 1, key=key)", True),
    ("eqx.nn.Linear(3, 3, key=other)", False),
    ("eqx.nn.LayerNorm(3)", False),  # takes no key
])
def test_an_equinox_layer_draws_from_its_key(lint_source, second, reported):
    source = EQX + ("def build(seed):\n    key = jax.random.PRNGKey(seed)\n    other = jax.random.PRNGKey(seed + 1)\n"
                    f"    first = eqx.nn.Linear(3, 3, key=key)\n    second = {second}\n    return first, second\n")
    assert lint_source(source) == ([(_last_line(source) - 1, "JNP601")] if reported else [])


def test_a_loop_counter_given_to_an_uncached_transform_is_no_recompilation(lint_source):
    source = EQX + ("@eqx.filter_vmap\ndef step(x, n):\n    return x * n\n\n\n"
                    "def run():\n    for i in range(4):\n        step(jnp.ones(3), i)\n")
    assert lint_source(source) == []


@pytest.mark.parametrize("line, reported", [
    ("if optax.global_norm(grads) > 1.0:\n        pass", True),  # measured: one array of a tree
    ("if optax.tree.norm(grads) > 1.0:\n        pass", True),  # optax.tree: global_norm's replacement
    ("loss = optax.l2_loss(grads).mean()\n    n = float(loss)", True),
    ("n = float(optax.apply_updates(grads, grads))", False),  # maps a tree: not one array
    ("n = float(optax.helper(grads))", False),  # not measured: unknown
])
def test_a_measured_optax_function_gives_a_tracer_in_traced_code(lint_source, line, reported):
    source = "import jax\nimport optax\n\n\n@jax.jit\ndef step(grads):\n    " + line + "\n    return grads\n"
    found = lint_source(source)
    assert bool(found) is reported and all(code == "JNP202" for _, code in found)


def test_a_measured_optax_function_of_device_data_gives_device_data(lint_source):
    source = ("import jax\nimport jax.numpy as jnp\nimport optax\n\n\n@jax.jit\ndef update(params):\n"
              "    return params * 0.5, jnp.tanh(params)\n\n\ndef fit():\n    params, total = jnp.ones(3), 0.0\n"
              "    for _ in range(100):\n        params, grads = update(params)\n"
              "        total += float(optax.global_norm(grads))\n    return total\n")
    assert lint_source(source) == [(15, "JNP102")]


@pytest.mark.parametrize("layer, reported", [
    ("eqx.nn.BatchNorm(3, axis_name='batch')", True),  # measured: an array and the new state
    ("eqx.nn.Helper(3)", False),  # not measured: unknown
])
def test_an_equinox_layer_with_state_gives_its_array_first(lint_source, layer, reported):
    source = EQX + ("class Model(eqx.Module):\n    norm: eqx.nn.BatchNorm\n\n    def __init__(self):\n"
                    f"        self.norm = {layer}\n\n    def __call__(self, x, state):\n"
                    "        h, state = self.norm(jnp.tanh(x), state)\n        return float(h.max()), state\n")
    assert lint_source(source) == ([(_last_line(source), "JNP202")] if reported else [])


@pytest.mark.parametrize("held, reported", [
    ("nnx.List([nnx.Linear(3, 3, rngs=rngs) for _ in range(2)])", True),  # measured: gives its items back
    ("[nnx.Linear(3, 3, rngs=rngs), nnx.Linear(3, 3, rngs=rngs)]", True),
    ("[nnx.Linear(3, 3, rngs=rngs), nnx.Embed(3, 3, rngs=rngs)]", False),  # two kinds of layer: not one
])
def test_a_layer_taken_from_a_list_in_a_loop_gives_a_tracer(lint_source, held, reported):
    source = NNX + (f"class Stack(nnx.Module):\n    def __init__(self, rngs):\n        self.layers = {held}\n\n"
                    "    def __call__(self, x):\n        for layer in self.layers:\n            x = layer(x)\n"
                    "        return float(x.max())\n")
    assert lint_source(source) == ([(_last_line(source), "JNP202")] if reported else [])


@pytest.mark.parametrize("batches", [
    "[jnp.ones((2, 3))] * 4",
    "batches",  # whatever the batches are, the layer's output in host code is a device array
])
def test_a_model_called_in_host_code_gives_a_device_array(lint_source, batches):
    source = NNX + ("class Scorer(nnx.Module):\n    def __init__(self, rngs):\n"
                    "        self.linear = nnx.Linear(3, 2, rngs=rngs)\n\n"
                    "    def __call__(self, x):\n        return self.linear(x)\n\n\n"
                    f"def evaluate(model, batches):\n    out = []\n    for batch in {batches}:\n"
                    "        out.append(np.asarray(model(batch)))\n    return out\n\n\n"
                    "evaluate(Scorer(nnx.Rngs(0)), [])\n")
    assert lint_source(source) == [(_last_line(source) - 4, "JNP101")]


def test_a_host_function_returned_as_is_stays_unknown(lint_source):
    source = NNX + ("class Passthrough(nnx.Module):\n    def __call__(self, x):\n        return x\n\n\n"
                    "def evaluate(model, batches):\n    out = []\n    for batch in batches:\n"
                    "        out.append(np.asarray(model(batch)))\n    return out\n\n\n"
                    "evaluate(Passthrough(), [])\n")
    assert lint_source(source) == []


@pytest.mark.parametrize("built, reported", [
    ("nn.Dense(4, dtype=jnp.bfloat16)", True),  # the option its result follows (measured)
    ("nn.Dense(4, dtype='bfloat16')", True),
    ("nn.Dense(4, 2 > 1, jnp.bfloat16)", True),  # by position
    ("nn.Dense(4)", False),  # float32 whatever real input: the float32 bias does not promote
    ("nn.Dense(4, param_dtype=jnp.bfloat16)", False),  # computes in the input's and parameters' dtype: unknown
    ("nn.Dense(4, dtype=jnp.bfloat16, param_dtype=jnp.bfloat16)", False),  # not measured together
    ("nn.Dense(4, dtype=self.dtype)", False),  # a field: any construction may set it
    ("nn.Dense(4, **options)", False),
    ("nn.Dropout(0.1, deterministic=True)", False),  # keeps its input's dtype: unknown
])
def test_a_linen_layer_gives_the_dtype_measured_of_it(lint_source, built, reported):
    source = LINEN + ("options = {}\n\n\nclass Model(nn.Module):\n    dtype: jnp.dtype = jnp.bfloat16\n\n"
                      "    @nn.compact\n    def __call__(self, x):\n"
                      "        bias = self.param('bias', nn.initializers.zeros, (4,))\n"
                      f"        return {built}(x) + bias\n")
    assert lint_source(source) == ([(_last_line(source), "JNP401")] if reported else [])


@pytest.mark.parametrize("given, reported", [
    ("x", True),  # float32 for a float32 input: int32 counts promote
    ("x.astype(jnp.complex64)", False),  # a complex input: not the measured float32
])
def test_a_layer_default_dtype_is_for_real_inputs(lint_source, given, reported):
    source = LINEN + ("class Model(nn.Module):\n    @nn.compact\n    def __call__(self, x):\n"
                      f"        return jnp.arange(4) * nn.Dense(4)({given})\n")
    assert lint_source(source) == ([(_last_line(source), "JNP401")] if reported else [])


@pytest.mark.parametrize("layer, reported", [
    ("nnx.Linear(3, 4, dtype=jnp.bfloat16, rngs=rngs)", True),
    ("nnx.Linear(3, 4, rngs=rngs)", False),
])
def test_a_stored_nnx_layer_gives_the_dtype_measured_of_it(lint_source, layer, reported):
    source = NNX + ("class Model(nnx.Module):\n    def __init__(self, rngs):\n"
                    f"        self.linear = {layer}\n\n"
                    "    def __call__(self, x):\n        return self.linear(x) + jnp.zeros(4)\n")
    assert lint_source(source) == ([(_last_line(source), "JNP401")] if reported else [])
