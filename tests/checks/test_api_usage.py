"""JNP501-JNP504 beyond the fixtures: data-driven coverage, aliases and look-alikes."""
import numpy as np
import pytest

from flake8_jaxnp import api

JAX_ARRAY = "import jax\nimport jax.numpy as jnp\nx = jnp.zeros(3)\n"


def codes(found):
    return sorted(code for _, code in found)


def missing_numpy_names():
    """(module, name) NumPy has, jax.numpy lacks and JAX never had (not deprecated)."""
    for module, jax_module in ((np, "jax.numpy"), (np.linalg, "jax.numpy.linalg"), (np.fft, "jax.numpy.fft")):
        for name in dir(module):
            qualname = f"{jax_module}.{name}"
            if not name.startswith("_") and qualname not in api.jnp_names() and qualname not in api.removed_names():
                yield jax_module, name


@pytest.mark.parametrize("module,name", sorted(missing_numpy_names()))
def test_every_missing_numpy_name_is_reported_and_really_missing(lint_source, module, name):
    assert not hasattr(__import__(module, fromlist=["_"]), name)
    alias = module.replace("jax.numpy", "xp")
    assert codes(lint_source(f"import jax.numpy as xp\n{alias}.{name}\n")) == ["JNP502"]


@pytest.mark.parametrize("name", sorted(n for n in api.jnp_names() if n.count(".") == 2)[::7])
def test_existing_jnp_names_draw_nothing(lint_source, name):
    assert lint_source(f"import jax\n{name}\n") == []


def test_missing_attribute_is_reported_once_per_expression(lint_source):
    found = lint_source("import jax.numpy as jnp\njnp.random.rand(3).sum()\n")
    assert found == [(2, "JNP502")]


@pytest.mark.parametrize("imports,expr", [
    ("import jax.numpy as xp", "xp.random"),
    ("from jax import numpy as np2", "np2.random"),
    ("import jax", "jax.numpy.random"),
    ("import jax.numpy", "jax.numpy.random"),
])
def test_jax_numpy_is_resolved_through_any_alias(lint_source, imports, expr):
    assert codes(lint_source(f"{imports}\n{expr}\n")) == ["JNP502"]


def test_a_local_named_jnp_is_not_jax_numpy(lint_source):
    assert lint_source("import jax\ndef f(jnp):\n    return jnp.random\n") == []


@pytest.mark.parametrize("name", sorted(api.missing_array_attributes()))
def test_missing_array_attributes_are_reported_on_jax_arrays_only(lint_source, name):
    assert codes(lint_source(f"{JAX_ARRAY}x.{name}\n")) in (["JNP501"], ["JNP502"])
    assert lint_source(f"import numpy as np\na = np.zeros(3)\na.{name}\n") == []


@pytest.mark.parametrize("source", [
    "x[0] = 1", "x[1:] += 1", "x[x > 0] = 0", "x[0] *= 2", "x[0] //= 2", "del x[0]", "x.sort()",
    "x.at[0].set(1)", "x.fill(0)", "import numpy as np\nnp.copyto(x, 1)", "import numpy as np\nnp.putmask(x, x > 0, 1)",
    "jnp.put(x, 0, 1.0)", "jnp.fill_diagonal(jnp.zeros((2, 2)), 1.0)",
])
def test_in_place_updates_of_jax_arrays(lint_source, source):
    assert codes(lint_source(JAX_ARRAY + source + "\n")) == ["JNP501"]


@pytest.mark.parametrize("source", [
    "a[0] = 1", "a[1:] += 1", "a.sort()", "a.fill(0)", "np.copyto(a, 1)", "np.copyto(a, jnp.ones(3))",
    "x = x.at[0].set(1)", "y = x.sort()", "jnp.put(x, 0, 1.0, inplace=False)", "d = {}\nd['k'] = x",
])
def test_look_alike_updates_draw_nothing(lint_source, source):
    assert lint_source(JAX_ARRAY + "import numpy as np\na = np.zeros(3)\n" + source + "\n") == []


def test_pytree_result_of_jit_is_not_an_array(lint_source):
    source = "import jax\n@jax.jit\ndef f(x):\n    return [x, x]\nparts = f(1.0)\nparts[0] = 2.0\n"
    assert lint_source(source) == []


def test_unknown_values_draw_nothing(lint_source):
    source = ("import jax.numpy as jnp\n"
              "def f(x, out=None):\n    x[0] = 1\n    x.sort()\n    return jnp.sum(x, out=out)\n")
    assert lint_source(source) == []


def test_traced_array_item_assignment(lint_source):
    source = "import jax\n@jax.jit\ndef f(x):\n    y = x + 1\n    y[0] = 0\n    return y\n"
    assert lint_source(source) == [(5, "JNP501")]


@pytest.mark.parametrize("call", ["jax.lax.pmean(info, 'i')", "jax.lax.psum(info, axis_name='i')",
                                  "jax.lax.all_gather(info, 'i')"])
def test_a_collective_of_a_pytree_is_no_array(lint_source, call):
    """Their result has the structure of their input: a dict stays a dict."""
    source = f"import jax\n@jax.jit\ndef f(x):\n    info = {{'loss': x}}\n    info = {call}\n    info['k'] = 1\n" \
             f"    total = {call.replace('info', 'x + 1', 1)}\n    total[0] = 0\n    return info, total\n"
    assert lint_source(source) == [(8, "JNP501")]


def rejected_arguments():
    """Arguments refused whatever their value (refused values are tested below)."""
    for qualname, params in api.data()["jnp_rejected_arguments"].items():
        for param, rejection in params.items():
            if "values" not in rejection:
                yield qualname, param, rejection["none_ok"]


def refused_values():
    for qualname, params in api.data()["jnp_rejected_arguments"].items():
        for param, rejection in params.items():
            for value in rejection.get("values", ()):
                yield qualname, param, value


@pytest.mark.parametrize("qualname,param,value", sorted(refused_values()))
def test_refused_values_follow_the_data(lint_source, qualname, param, value):
    call = qualname.replace("jax.numpy", "jnp", 1)
    assert codes(lint_source(f"{JAX_ARRAY}{call}(x, {param}={value})\n")) == ["JNP503"]
    assert lint_source(f"{JAX_ARRAY}def f(x, v):\n    return {call}(x, {param}=v)\n") == []


@pytest.mark.parametrize("qualname,param,none_ok", sorted(rejected_arguments()))
def test_rejected_arguments_follow_the_data(lint_source, qualname, param, none_ok):
    call = qualname.replace("jax.numpy", "jnp", 1)
    given_none = lint_source(f"{JAX_ARRAY}{call}(x, {param}=None)\n")
    assert codes(given_none) == ([] if none_ok else ["JNP503"])
    assert codes(lint_source(f"{JAX_ARRAY}{call}(x, {param}=x)\n")) == ["JNP503"]
    assert lint_source(f"{JAX_ARRAY}def f(x, v):\n    return {call}(x, {param}=v)\n") == \
        ([] if none_ok else [(5, "JNP503")])


def methods_refusing_arguments():
    for method, params in api.data()["array_rejected_arguments"].items():
        if any("values" not in rejection for rejection in params.values()):
            yield method


@pytest.mark.parametrize("method", sorted(methods_refusing_arguments()))
def test_rejected_method_arguments_need_a_jax_array(lint_source, method):
    param = sorted(p for p, r in api.data()["array_rejected_arguments"][method].items() if "values" not in r)[0]
    assert codes(lint_source(f"{JAX_ARRAY}x.{method}({param}=x)\n")) == ["JNP503"]
    assert lint_source(f"import numpy as np\na = np.zeros(3)\na.{method}({param}=a)\n") == []


def test_numpy_only_arguments_are_fine_for_numpy(lint_source):
    assert lint_source("import numpy as np\na = np.zeros(3)\nnp.sort(a, kind='stable')\nnp.sum(a, out=a)\n") == []


@pytest.mark.parametrize("name", sorted(api.removed_names()))
def test_every_removed_name_is_reported_with_its_replacement(lint_source, name):
    top = name.split(".")[0]
    found = lint_source(f"import {top}\n{name}\n")
    assert codes(found) == ["JNP504"]
    module, _, attr = name.rpartition(".")
    assert codes(lint_source(f"from {module} import {attr}\n")) == ["JNP504"]


def test_removed_name_message_names_the_replacement():
    import ast

    from flake8_jaxnp.linter import lint

    source = "import jax\njax.tree_map(abs, [1])\n"
    [finding] = lint(ast.parse(source), source.splitlines(True))
    message = finding.message
    assert api.removed_names()["jax.tree_map"]["message"] in message
    assert "use jax.tree.map" in message and "raises AttributeError" in message


@pytest.mark.parametrize("source", [
    "try:\n    from jax import tree_map\nexcept ImportError:\n    tree_map = None\n",
    "try:\n    f = jax.tree_map\nexcept AttributeError:\n    f = jax.tree.map\n",
    "if hasattr(jax, 'tree_map'):\n    f = jax.tree_map\n",
    "if jax.__version__ < '0.4':\n    f = jax.tree_map\n",
    "f = hasattr(jax, 'tree_map') and jax.tree_map\n",
    "f = jax.tree_map if hasattr(jax, 'tree_map') else jax.tree.map\n",
    "try:\n    import jax.numpy.random\nexcept ImportError:\n    pass\n",
    "try:\n    from jax.extend import linear_util as lu\nexcept ImportError:\n    from jax import linear_util as lu\n",
    "try:\n    f = jax.tree.map\nexcept (AttributeError, TypeError):\n    f = jax.tree_map\n",
    "try:\n    f = jax.tree.map\nexcept AttributeError:\n    f = jax.tree_map\n",
])
def test_version_guarded_names_draw_nothing(lint_source, source):
    assert lint_source("import jax\n" + source) == []


def test_a_fallback_for_other_errors_still_reports(lint_source):
    source = "import jax\ntry:\n    f = jax.tree.map\nexcept ValueError:\n    f = jax.tree_map\n"
    assert lint_source(source) == [(5, "JNP504")]


@pytest.mark.parametrize("source", [
    "import jax.numpy as jnp\njnp.foo = 1\n",
    "import jax.numpy as jnp\ndel jnp.foo\n",
    "from . import jnp\njnp.random\n",
    "from jax.numpy import *\n",
    "import jax.numpy as jnp\nx = jnp.zeros(3)\nx[0], x[1] = 1, 2\n",
    "import jax.numpy as jnp\nx = jnp.zeros(3)\n[x[0]] = [1]\n",
    "import jax.numpy as jnp\nx = jnp.zeros(3)\nx.sort(**{'kind': 'stable'})\njnp.sum(x, **{'out': x})\n",
    "import numpy as np\nnp.copyto()\nnp.copyto(dst=1)\n",
])
def test_odd_code_never_breaks_the_checker(lint_source, source):
    assert "JNP900" not in codes(lint_source(source))


def test_array_method_that_became_a_property_is_known_from_history():
    assert api.array_member_changes()["device"] == {
        "was": "method", "last": "0.4.26", "now": "property",
        "message": "arr.device() is deprecated. Use arr.devices() instead."}


# New shapes whose runtime errors the runtime mode's probes do not count as evidence yet,
# so each is run here: the linted line must raise the named error on the installed JAX.
REFUSED_AT_RUNTIME = [
    ("jnp.take(x, jnp.array([0]), mode='raise')", "JNP503", NotImplementedError),
    ("jnp.asarray(np.ones(3, np.float32), order='F')", "JNP503", NotImplementedError),
    ("jnp.median(x, overwrite_input=True)", "JNP503", ValueError),
    ("jnp.add(x, x, where=x > 0)", "JNP503", NotImplementedError),
    ("x.take(jnp.array([0]), mode='raise')", "JNP503", NotImplementedError),
    ("list(x.flat)", "JNP502", NotImplementedError),
    ("x.device()", "JNP504", TypeError),
]


@pytest.mark.parametrize("expr,code,error", REFUSED_AT_RUNTIME)
def test_refused_values_keywords_and_members_are_reported_and_raise(lint_source, expr, code, error):
    source = f"import numpy as np\n{JAX_ARRAY}y = {expr}\n"
    assert lint_source(source) == [(5, code)]
    with pytest.raises(error):
        exec(compile(source, "<case>", "exec"), {})


@pytest.mark.parametrize("expr", [
    "jnp.take(x, jnp.array([0]), mode='clip')", "jnp.asarray(x, order='K')", "jnp.median(x, overwrite_input=False)",
    "jnp.add(x, x)", "x.take(jnp.array([0]), mode='fill')", "x.flatten()", "x.device",
])
def test_accepted_values_draw_nothing_and_run(lint_source, expr):
    source = f"import numpy as np\n{JAX_ARRAY}y = {expr}\n"
    assert lint_source(source) == []
    exec(compile(source, "<case>", "exec"), {})


@pytest.mark.parametrize("source, expected", [
    ("import jax\nif jax.config.jax_array:\n    pass\n", [2]),
    ("import jax\njax.config.update('jax_array', True)\n", [2]),
    ("from jax import config\nconfig.update('jax_array', True)\n", [2]),
    # options the installed JAX has, a guarded update, a name that is not a literal
    ("import jax\njax.config.update('jax_enable_x64', True)\nx = jax.config.jax_enable_x64\n", []),
    ("import jax\ntry:\n    jax.config.update('jax_array', True)\nexcept AttributeError:\n    pass\n", []),
    ("import jax\nNAME = 'jax_array'\njax.config.update(NAME, True)\n", []),
])
def test_removed_config_options(lint_source, source, expected):
    assert "jax.config.jax_array" in api.removed_names()  # read from the releases, checked on the installed JAX
    assert [line for line, code in lint_source(source) if code == "JNP504"] == expected
