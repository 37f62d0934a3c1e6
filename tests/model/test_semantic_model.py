"""The semantic model: names through scopes, traced functions, traced values."""
import ast

from flake8_jaxnp.model import Model
from flake8_jaxnp.model.kinds import JAX, JAX_TREE, TRACER, UNKNOWN, Value
from flake8_jaxnp.options import DEFAULT, Options


def model_of(source, options=DEFAULT):
    return Model(ast.parse(source), options)


def qualname_of_call(model, func_text):
    for call in model.names.calls:
        if ast.unparse(call.func) == func_text:
            return model.qualname(call.func)
    raise AssertionError(f"no call to {func_text}")


def test_import_spellings_resolve_to_the_same_names():
    model = model_of(
        "import jax.numpy as xp\nimport numpy as onp\nfrom jax import jit as compile_fn\n"
        "from jax.numpy import array\nimport jax as J\n"
        "xp.exp(1); onp.exp(1); compile_fn(f); array([1]); J.numpy.sum(1)\n"
    )
    assert qualname_of_call(model, "xp.exp") == "jax.numpy.exp"
    assert qualname_of_call(model, "onp.exp") == "numpy.exp"
    assert qualname_of_call(model, "compile_fn") == "jax.jit"
    assert qualname_of_call(model, "array") == "jax.numpy.array"
    assert qualname_of_call(model, "J.numpy.sum") == "jax.numpy.sum"


def test_local_variable_named_np_is_not_numpy():
    model = model_of("import numpy as np\ndef f(np):\n    return np.exp(1)\n")
    assert qualname_of_call(model, "np.exp") is None


def test_module_alias_chain_resolves():
    model = model_of("import jax\njit = jax.jit\nWIDE = jax.numpy.float64\njit(f)\n")
    assert qualname_of_call(model, "jit") == "jax.jit"


def test_name_rebound_to_something_else_is_unresolved():
    model = model_of("import numpy as np\nif cond:\n    np = other\nnp.exp(1)\n")
    assert qualname_of_call(model, "np.exp") is None


def test_a_part_of_a_tuple_target_takes_the_part_of_the_display_of_the_same_shape():
    model = model_of("import jax\nmodel, (x, _) = jax.jit(f), (1, 2)\nfirst, *rest = jax.jit(g), 3\n"
                     "a, b = pair\nmodel(x)\nfirst()\na()\n")
    assert ast.unparse(model.names.one_binding(_load(model, "model")).value) == "jax.jit(f)"
    assert ast.unparse(model.names.one_binding(_load(model, "x")).value) == "1"
    assert model.names.one_binding(_load(model, "first")).value is None  # a starred target
    assert model.names.one_binding(_load(model, "a")).value is None  # not a display


def _load(model, name):
    return next(node for node in ast.walk(model.tree) if type(node) is ast.Name and node.id == name
                and type(node.ctx) is ast.Load)


def traced_names(model):
    return {getattr(f, "name", "<lambda>"): t for f, t in model.traced.items()}


def test_a_def_rebound_to_its_own_jit_is_traced_but_its_later_calls_are_not_resolved():
    model = model_of("import jax\ndef init(x):\n    return x\ninit = jax.jit(init)\n"
                     "def run():\n    return init(1.0)\n")
    assert "init" in traced_names(model)
    later = next(call for call in model.names.calls if ast.unparse(call) == "init(1.0)")
    assert model.names.function_bound_to(later.func) is None  # the jitted wrapper, by then


def test_a_module_name_bound_in_a_branch_reaches_no_binding():
    model = model_of("import jax\ndef init(x):\n    return x\nif flag:\n    init = other\njax.jit(init)\n")
    assert "init" not in traced_names(model)


def test_decorator_and_call_forms_are_traced():
    model = model_of(
        "import jax, functools\nfrom jax import lax\n"
        "@jax.jit\ndef a(x): return x\n"
        "@functools.partial(jax.jit, static_argnums=(1,), static_argnames='mode')\n"
        "def b(x, n, mode): return x\n"
        "def c(x): return x\nc2 = jax.jit(c)\n"
        "def d(p, q): return p\njax.grad(d)(1.0, 2.0)\n"
        "def body(carry, x): return carry, x\nlax.scan(body, 0, xs)\n"
        "def e(x): return x\njax.jit(jax.vmap(e))\n"
        "f = jax.jit(lambda y: y)\n"
    )
    traced = traced_names(model)
    assert traced["a"].traced_params == {"x"} and traced["a"].cached_by.name == "jax.jit"
    assert traced["b"].traced_params == {"x"}
    assert traced["c"].transform == "jax.jit"
    assert traced["d"].traced_params == {"p"} and not traced["d"].abstract and traced["d"].cached_by is None
    assert traced["body"].traced_params == {"carry", "x"} and traced["body"].transform == "jax.lax.scan"
    assert {t.name for t in traced["e"].transforms} == {"jax.vmap", "jax.jit"}
    assert traced["<lambda>"].traced_params == {"y"}


def test_functions_called_from_traced_code_are_traced_transitively():
    model = model_of(
        "import jax\n"
        "def inner(v, k): return v\n"
        "def helper(u): return inner(u, 3)\n"
        "class M:\n"
        "    def go(self, x): return self.part(x)\n"
        "    def part(self, y): return y\n"
        "    def run(self, x): return jax.jit(self.go)(x)\n"
        "@jax.jit\ndef top(x): return helper(x)\n"
        "def untouched(x): return x\n"
    )
    traced = traced_names(model)
    assert traced["helper"].traced_params == {"u"}
    assert traced["inner"].traced_params == {"v"}
    assert traced["part"].traced_params == {"y"}
    assert "untouched" not in traced


def test_extra_transforms_option():
    source = "import mylib\n@mylib.compile\ndef f(x): return x\n"
    assert "f" not in traced_names(model_of(source))
    assert "f" in traced_names(model_of(source, Options(extra_transforms=("mylib.compile",))))


def test_framework_transforms_are_known_by_default():
    source = "import equinox as eqx\nfrom flax import nnx\n@eqx.filter_jit\ndef f(x): return x\n" \
             "@nnx.jit\ndef g(x): return x\n"
    assert {"f", "g"} <= traced_names(model_of(source)).keys()


def test_static_metadata_of_tracers_is_not_traced():
    model = model_of(
        "import jax\n@jax.jit\ndef f(x):\n    a = x.shape[0]\n    b = len(x)\n    c = x * 2\n    return a, b, c\n"
    )
    values = {}
    for node in ast.walk(model.tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in "abc":
            values[node.id] = model.value(node)
    assert not values["a"].traced and not values["b"].traced
    assert values["c"].kind is TRACER


def test_x64_module_is_detected():
    assert model_of("import jax\njax.config.update('jax_enable_x64', True)\n").x64
    assert not model_of("import jax\njax.config.update('jax_enable_x64', False)\n").x64
    assert model_of("x = 1\n", Options(x64=True)).x64
    assert model_of("import jax\nwith jax.enable_x64():\n    pass\n").x64
    assert not model_of("import jax\nwith jax.enable_x64(False):\n    pass\n").x64


def test_own_nodes_skip_nested_bodies_and_local_annotations():
    model = model_of("def f(x):\n    y: Alias = x\n    def g():\n        return inner\n    return y\n")
    func = model.names.functions[0]
    loaded = {n.id for n in model.names.own_nodes(func) if isinstance(n, ast.Name)}
    assert "Alias" not in loaded and "inner" not in loaded
    assert {"x", "y"} <= loaded


def test_positional_transform_options():
    model = model_of(
        "import jax\n"
        "def pool(x, size, op): return x\njax.vmap(pool, (0, None, None), 0)\n"
        "def loss(a, b): return b\njax.grad(loss, 1)\n"
    )
    traced = traced_names(model)
    assert traced["pool"].traced_params == {"x"}
    assert traced["loss"].traced_params == {"b"}


def test_a_while_test_runs_again_with_what_the_body_leaves():
    model = model_of(
        "import jax\n\n@jax.jit\ndef count(i, x):\n    return i + 1, x * 2\n\n"
        "def loop(x):\n    i = 0\n    while i < 10:\n        i, x = count(i, x)\n    return x\n\n"
        "def skipping(x):\n    i = 0\n    while i < 10:\n        if x is None:\n            continue\n"
        "        i, x = count(i, x)\n    return x\n")
    counted, skipping = [node.test for node in model.nodes(ast.While)]
    assert model.value(counted).kind is UNKNOWN  # a Python int on the first test, a JAX array later
    assert model.value_on_repeat(counted).kind is JAX
    assert model.value_on_repeat(skipping) is None  # a continue goes back with what it had
    assert model.value_on_repeat(counted.left) == Value(JAX_TREE)
    assert model.value_on_repeat(model.nodes(ast.Return)[0]) is None  # not in a while test


def test_a_store_on_another_class_self_reaches_objects_of_classes_sharing_its_objects_only():
    model = model_of(
        "class A:\n    def __init__(self, key):\n        self.key = key\n"
        "class B:\n    def reset(self):\n        self.key = 0\n"
        "class C(A):\n    def reset(self):\n        self.key = 1\n"
        "class D(A):\n    pass\n"
        "class E:\n    def reset(self):\n        self.key = 2\n"
        "class F(D, E):\n    pass\n"
        "def reset(self):\n    self.key = 3\n")
    classes = {cls.name: cls for cls in model.nodes(ast.ClassDef)}
    stores = {ast.unparse(model.parent(node).value): node for node in model.nodes(ast.Attribute)
              if type(node.ctx) is ast.Store and type(model.parent(node).value) is ast.Constant}
    another = model.stores_another_object
    assert another(stores["0"], classes["A"])  # B shares no object with A
    assert not another(stores["1"], classes["A"])  # a C is an A
    assert not another(stores["2"], classes["A"])  # an F is an A (through D) and an E
    assert another(stores["2"], classes["C"])  # no class derives from both C and E
    assert not another(stores["3"], classes["A"])  # a function's ``self`` may be any object


def test_a_factory_call_makes_the_def_the_factory_returns():
    model = model_of(
        "import jax.numpy as jnp\n"
        "def make(k):\n    def scale(x):\n        return x * k\n    return scale\n"
        "def make_either(k):\n    def up(x):\n        return x + k\n    def down(x):\n        return x - k\n"
        "    return up if k else down\n"
        "def make_outer(k):\n    return jnp.sin\n"
        "def make_wrapped(k):\n    @staticmethod\n    def inner(x):\n        return x\n    return inner\n"
        "MAKERS = {'a': make, 'b': make_outer}\n"
        "make(2); make_either(2); make_outer(2); make_wrapped(2); MAKERS[name](2); MAKERS['b'](2)\n"
    )
    made = {ast.unparse(call.func): [func.name for func in model.names.functions_made_by(call)]
            for call in model.names.calls}
    # a factory's def, or each entry's of a dict looked up by a key not known (``make_outer`` makes none)
    assert made["make"] == made["MAKERS[name]"] == ["scale"]
    # two defs returned, a function not made there, a decorated def, an entry that makes none
    assert [made[name] for name in ("make_either", "make_outer", "make_wrapped", "MAKERS['b']")] == [[]] * 4


def test_a_jitted_call_keeps_the_items_of_a_container_it_is_given():
    model = model_of(
        "import jax\nimport jax.numpy as jnp\n"
        "@jax.jit\ndef step(s, x):\n    return s['w'] * x\n"
        "def helper(s):\n    return s\n"
        "def f():\n    s = {'w': jnp.ones(3)}\n    for i in range(3):\n        step(s, i)\n        print(s)\n"
        "def g():\n    s = {'w': jnp.ones(3)}\n    for i in range(3):\n        helper(s)\n        print(s)\n"
    )
    printed = [call.args[0] for call in model.names.calls if ast.unparse(call.func) == "print"]
    assert [model.value(arg).member(("key", "w")) is not None for arg in printed] == [True, False]
