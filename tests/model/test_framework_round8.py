"""Framework contracts the nineteenth round's held-out shapes asked for (issue 43, round 8): a new
object that a framework jit keeps static, given to it on every iteration (``optax.adam(lr)`` to an
``eqx.filter_jit`` step: measured, ``framework_static_objects``). Linted without the frameworks;
``tests/frameworks_shapes/round8_*.py`` is confirmed at runtime with them."""
import pytest

EQX = "import equinox as eqx\nimport jax\nimport jax.numpy as jnp\nimport optax\n\n\n"


def _line(source, text):
    """The number of the first line of ``source`` holding ``text``."""
    return next(number for number, line in enumerate(source.splitlines(), 1) if text in line)


@pytest.mark.parametrize("jit, made, reported", [
    ("eqx.filter_jit", "    for epoch in range(10):\n        optim = optax.adam(1e-2 / (epoch + 1))\n", True),
    ("eqx.filter_jit", "    optim = optax.adam(1e-2)\n    for epoch in range(10):\n", False),  # one, shared
    ("jax.jit", "    for epoch in range(10):\n        optim = optax.adam(1e-2 / (epoch + 1))\n", False),  # refused
])
def test_a_new_object_a_jit_keeps_static_every_iteration(lint_source, jit, made, reported):
    source = EQX + (f"@{jit}\ndef step(model, optim, x):\n    return optim.init(model), x\n\n\n"
                    "def run(model, x):\n" + made + "        state, x = step(model, optim, x)\n    return x\n")
    assert lint_source(source) == ([(_line(source, "state, x = step"), "JNP602")] if reported else [])


PLAIN = "import jax\nimport jax.numpy as jnp\n\n\n"
LINEN = "import flax.linen as nn\nimport jax\nimport jax.numpy as jnp\n\n\n"


@pytest.mark.parametrize("header, cls, reported", [
    (PLAIN, "class Model:\n    def apply(self, x):\n        return x * 2.0\n", True),  # measured: traces per new method
    # a framework Module's own method, which the subclass does not bind (linen's apply)
    (LINEN, "class Model(nn.Module):\n    @nn.compact\n    def __call__(self, x):\n"
            "        return nn.Dense(2)(x)\n", True),
    (PLAIN, "class Model:\n    @staticmethod\n    def apply(x):\n        return x * 2.0\n", False),  # one function
    (PLAIN, "class Model:\n    def __init__(self):\n        self.apply = jax.numpy.tanh\n", False),  # stored
    (PLAIN, "class Model:\n    pass\n", False),  # not a method the file knows
])
def test_jit_of_a_bound_method_in_a_loop(lint_source, header, cls, reported):
    source = header + cls + ("\n\ndef run(x):\n    model = Model()\n    for _ in range(10):\n"
                             "        x = jax.jit(model.apply)(x)\n    return x\n")
    assert lint_source(source) == ([(_line(source, "jax.jit(model.apply)"), "JNP602")] if reported else [])


NNX = "from flax import nnx\nimport jax.numpy as jnp\n\n\n"
HEAD = ("class Head(nnx.Module):\n    def __init__(self, rngs):\n        self.linear = nnx.Linear(3, 4, rngs=rngs)\n\n"
        "    def active(self, x):\n        h = self.linear(x)\n        return h[jnp.nonzero(h > 0)]\n\n\n")


@pytest.mark.parametrize("stored, used, reported", [
    ('nnx.Dict({"cls": Head(rngs)})', 'self.heads["cls"]', True),  # measured: nnx.Dict gives its items back
    ("nnx.List([Head(rngs) for _ in range(2)])", "self.heads[0]", True),
    ("Head(rngs)", "self.heads", True),
    ('nnx.Dict({"cls": make(rngs)})', 'self.heads["cls"]', False),  # what make gives is not known
])
def test_a_method_of_a_submodule_held_in_a_container(lint_source, stored, used, reported):
    source = NNX + HEAD + ("def make(rngs):\n    return rngs\n\n\n"
                           f"class Model(nnx.Module):\n    def __init__(self, rngs):\n        self.heads = {stored}\n\n"
                           f"    def __call__(self, x):\n        return {used}.active(x)\n\n\n"
                           "@nnx.jit\ndef forward(model, x):\n    return model(x)\n\n\n"
                           "def run():\n    return forward(Model(nnx.Rngs(0)), jnp.ones((2, 3)))\n")
    assert lint_source(source) == ([(_line(source, "jnp.nonzero"), "JNP203")] if reported else [])


@pytest.mark.parametrize("passed, reported", [
    ("Head", True),  # the class every call of the module passes: the blocks are its instances
    ("make", False),  # a function: what it builds is not known
])
def test_a_method_of_blocks_built_from_a_class_parameter(lint_source, passed, reported):
    source = NNX + HEAD + ("def make(rngs):\n    return rngs\n\n\n"
                           "class Model(nnx.Module):\n    def __init__(self, block, rngs):\n"
                           "        self.blocks = nnx.List([block(rngs) for _ in range(2)])\n\n"
                           "    def __call__(self, x):\n        for block in self.blocks:\n"
                           "            block.active(x)\n"
                           "        return x\n\n\n"
                           f"@nnx.jit\ndef forward(x):\n    return Model({passed}, nnx.Rngs(0))(x)\n")
    assert lint_source(source) == ([(_line(source, "jnp.nonzero"), "JNP203")] if reported else [])


MIXERS = ("class NumpyMixer(eqx.Module):\n    linear: eqx.nn.Linear\n\n    def __init__(self, key):\n"
          "        self.linear = eqx.nn.Linear(3, 3, key=key)\n\n    def mix(self, x):\n"
          "        return np.maximum(self.linear(x), x)\n\n\n"
          "class JnpMixer(eqx.Module):\n    linear: eqx.nn.Linear\n\n    def __init__(self, key):\n"
          "        self.linear = eqx.nn.Linear(3, 3, key=key)\n\n    def mix(self, x):\n"
          "        return jnp.maximum(self.linear(x), x)\n\n\n")


@pytest.mark.parametrize("classes, reported", [
    (("NumpyMixer", "JnpMixer"), True),  # block.mix(x) runs either method: x is a tracer on every path
    (("JnpMixer",), False),
])
def test_a_method_of_blocks_of_several_classes_rebinding_its_input(lint_source, classes, reported):
    """``self.blocks = [block(k) ...]`` (a display stored on self) and ``x = block.mix(x)`` in the loop: the
    first iteration passes the jit's tracer, and what the call gives joins what each class's method gives."""
    source = EQX + "import numpy as np\n\n\n" + MIXERS + (
        "class Mixed(eqx.Module):\n    blocks: list\n\n    def __init__(self, block, key):\n"
        "        self.blocks = [block(k) for k in jax.random.split(key, 2)]\n\n"
        "    def __call__(self, x):\n        for block in self.blocks:\n            x = block.mix(x)\n"
        "        return x\n\n\n@eqx.filter_jit\ndef forward(model, x):\n    return model(x)\n\n\n"
        + "".join(f"def run_{cls}():\n    return forward(Mixed({cls}, jax.random.PRNGKey(0)), jnp.ones(3))\n\n\n"
                  for cls in classes))
    assert lint_source(source) == ([(_line(source, "np.maximum"), "JNP201")] if reported else [])


SCORER = ("class Scorer(nnx.Module):\n    def __init__(self, rngs):\n"
          "        self.linear = nnx.Linear(3, 1, rngs=rngs)\n\n    def score(self, x):\n"
          "        s = self.linear(x)\n        return s / max(float(s.max()), 1.0)\n\n\n")


@pytest.mark.parametrize("parts, reported", [
    ("graphdef, params = nnx.split(Scorer(nnx.Rngs(0)))\n", True),  # merged back: a Scorer of the traced params
    ("graphdef, params = make()\n", False),  # parts of what: not known
])
def test_a_method_of_a_model_merged_from_its_split_parts(lint_source, parts, reported):
    """``nnx.merge(graphdef, params)`` gives an object of the class ``nnx.split`` took apart (measured,
    ``framework_rebuilders``), and of tracers when the parts are traced (``jax.grad`` of ``params``)."""
    source = "import jax\n" + NNX + SCORER + ("def make():\n    return 1, 2\n\n\n"
                             "def grads(x):\n    " + parts + "\n    def loss(params):\n"
                             "        model = nnx.merge(graphdef, params)\n        return model.score(x).sum()\n"
                             "    return jax.grad(loss)(params)\n")
    assert lint_source(source) == ([(_line(source, "float(s.max())"), "JNP202")] if reported else [])


@pytest.mark.parametrize("applied, reported", [
    ("eqx.filter_vmap(layer_cls)", True),  # measured: a vmap of the class gives an instance of it
    ("jax.grad(layer_cls)", False),  # a gradient: not an instance
])
def test_a_method_of_a_layer_combined_in_a_scan_over_layers(lint_source, applied, reported):
    """``eqx.combine(dyn, static)`` in the scan's body gives an object of the class ``eqx.partition`` took
    apart: the class every call passes to ``layer_cls`` (``framework_class_transforms``, ``framework_rebuilders``)."""
    source = EQX + "import numpy as np\n\n\n" + (
        "class NumpyLayer(eqx.Module):\n    linear: eqx.nn.Linear\n\n    def __init__(self, key):\n"
        "        self.linear = eqx.nn.Linear(3, 3, key=key)\n\n    def step(self, x):\n"
        "        return np.sin(self.linear(x))\n\n\n"
        f"def scan_layers(layer_cls):\n    layers = {applied}(jax.random.split(jax.random.PRNGKey(0), 3))\n"
        "    dynamic, static = eqx.partition(layers, eqx.is_array)\n\n    def body(x, dyn):\n"
        "        layer = eqx.combine(dyn, static)\n        return layer.step(x), None\n"
        "    return jax.lax.scan(body, jnp.ones(3), dynamic)\n\n\n"
        "def run():\n    return scan_layers(NumpyLayer)\n")
    assert lint_source(source) == ([(_line(source, "np.sin"), "JNP201")] if reported else [])


@pytest.mark.parametrize("built, reported", [
    ("REGISTRY[name](nnx.Rngs(seed))", True),  # a lookup by a parameter: every class of the registry
    ("REGISTRY['jnp'](nnx.Rngs(seed))", False),  # a constant key: the one class it names
])
def test_a_method_of_a_model_a_factory_builds_from_a_registry(lint_source, built, reported):
    """The classes a same-file def's returns give (``_build(name, seed)``), and those of a call of a
    registry dict's item."""
    source = "import numpy as np\n" + NNX + (
        "class NumpyEmbedder(nnx.Module):\n    def __init__(self, rngs):\n"
        "        self.linear = nnx.Linear(3, 4, rngs=rngs)\n\n"
        "    def embed(self, x):\n        return np.tanh(self.linear(x))\n\n\n"
        "class JnpEmbedder(nnx.Module):\n    def __init__(self, rngs):\n"
        "        self.linear = nnx.Linear(3, 4, rngs=rngs)\n\n"
        "    def embed(self, x):\n        return jnp.tanh(self.linear(x))\n\n\n"
        'REGISTRY = {"numpy": NumpyEmbedder, "jnp": JnpEmbedder}\n\n\n'
        f"def build(name, seed):\n    return {built}\n\n\n"
        "@nnx.jit\ndef embed(model, x):\n    return model.embed(x)\n\n\n"
        "def run(name):\n    return embed(build(name, 0), jnp.ones((2, 3)))\n")
    assert lint_source(source) == ([(_line(source, "np.tanh"), "JNP201")] if reported else [])
