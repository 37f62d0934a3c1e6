"""The generated API data matches the installed JAX and says true things about it."""
import configparser
import json
import os
import subprocess
import sys
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from conftest import ROOT
from flake8_jaxnp import api
from flake8_jaxnp.datagen import stack
from flake8_jaxnp.datagen.generate import OTHER_STACK, RELEASES_UNAVAILABLE, _resolve


def datagen(*args):
    return subprocess.run([sys.executable, "-m", "flake8_jaxnp.datagen", *args],
                          capture_output=True, text=True, cwd=ROOT)


@pytest.mark.slow
def test_api_data_is_current_for_installed_jax():
    """Regenerates everything, on the stack the file records; the past releases come from
    the cache, downloaded there on first use (so it is in the slow group). Anywhere else
    it skips, saying which package differs, except under CI, which installs that stack."""
    result = datagen("--check")
    if result.returncode in (RELEASES_UNAVAILABLE, OTHER_STACK):
        reason = result.stderr.strip().splitlines()[-1]
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason} (CI installs the recorded stack and reaches the package index)")
        pytest.skip(reason)
    assert result.returncode == 0, result.stderr


def extra_pins(extra):
    """{package: pinned release} of one of setup.cfg's extras."""
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    requirements = [Requirement(line) for line in config["options.extras_require"][extra].splitlines()
                    if line.strip() and not line.lstrip().startswith("#")]
    return {canonicalize_name(r.name): spec.version for r in requirements for spec in r.specifier
            if spec.operator == "=="}


def test_the_test_extra_pins_the_stack_the_data_records():
    recorded = {canonicalize_name(name): version for name, version in api.data()["generated_with"].items()}
    pins, stack_names = extra_pins("test"), [canonicalize_name(name) for name in stack.PACKAGES]
    assert {name: pins.get(name) for name in stack_names} == {name: recorded.get(name) for name in stack_names}
    frameworks = extra_pins("frameworks")
    assert frameworks and {name: recorded.get(name) for name in frameworks} == frameworks


def test_the_recorded_stack_names_every_measured_framework_release():
    recorded = api.data()["generated_with"]
    assert set(stack.PACKAGES) <= set(recorded)
    assert (recorded["jax"], recorded["numpy"]) == (api.data()["jax_version"], api.data()["numpy_version"])
    for name, entry in api.framework_transforms().items():
        package, release = entry["measured_with"].split()
        assert recorded[package] == release, name


RECORDED = {"jax": "0.10.2", "jaxlib": "0.10.2", "numpy": "2.4.6", "ml_dtypes": "0.6.0", "scipy": "1.17.1",
            "opt_einsum": "3.4.0", "flax": "0.12.8"}


@pytest.mark.parametrize("installed, differences", [
    (RECORDED, []),
    (dict(RECORDED, flax=None), []),  # the generator keeps the entries measured with it
    (dict(RECORDED, ml_dtypes="0.7.0"), ["ml_dtypes: 0.6.0 in the data file, 0.7.0 installed"]),
    (dict(RECORDED, flax="0.13.0", scipy=None),
     ["flax: 0.12.8 in the data file, 0.13.0 installed", "scipy: 1.17.1 in the data file, not installed"]),
])
def test_stack_differences_name_each_package_that_differs(installed, differences):
    assert stack.differences(RECORDED, installed) == differences


def test_a_data_file_without_a_recorded_stack_differs_in_every_package():
    found = stack.differences({}, RECORDED)
    assert [line.split(":")[0] for line in found] == sorted(stack.PACKAGES)
    assert "ml_dtypes: none in the data file, 0.6.0 installed" in found


def test_check_on_another_stack_says_which_package_differs_and_generates_nothing(tmp_path):
    data = json.loads(api.DATA_FILE.read_text(encoding="utf-8"))
    data["generated_with"]["ml_dtypes"] = "0.0.0+elsewhere"
    output = tmp_path / "jax_api.json"
    output.write_text(json.dumps(data), encoding="utf-8")
    installed = stack.installed(["ml_dtypes"])["ml_dtypes"]
    for option in ("--check", "--check-stack"):
        result = datagen(option, "--output", str(output))
        assert result.returncode == OTHER_STACK, result.stderr
        assert f"(ml_dtypes: 0.0.0+elsewhere in the data file, {installed} installed)" in result.stderr
        assert len(result.stderr.splitlines()) == 1
    assert json.loads(output.read_text(encoding="utf-8")) == data


# A name removed in each of several eras -> words of JAX's own message naming the replacement.
REMOVED_IN_ERAS = {
    "jax.ops.index_update": ("0.2.28", "Use x.at[idx].set(y) instead"),
    "jax.numpy.product": ("0.4.14", "Use jax.numpy.prod"),
    "jax.tree_map": ("0.5.3", "use jax.tree.map"),
    "jax.experimental.enable_x64": ("0.8.3", "use jax.enable_x64(True) instead"),
    "jax.lax.pvary": ("0.9.2", "jax.lax.pcast"),
}


def test_removed_names_come_from_several_eras_with_jax_replacements():
    removed = api.removed_names()
    for name, (last, replacement) in REMOVED_IN_ERAS.items():
        assert removed[name]["last"] == last, name
        assert replacement in removed[name]["message"], name
        assert removed[name]["raises"] and _resolve(name) is None, name
    assert len({last.rsplit(".", 1)[0] for last, _ in REMOVED_IN_ERAS.values()}) >= 5


def test_data_records_the_releases_it_was_built_from():
    releases = api.data()["jax_releases_read"]
    assert releases[0].startswith("0.2.") and releases[-1] == jax.__version__
    assert {entry["last"] for entry in api.removed_names().values()} - {None} <= set(releases)


def test_deprecated_names_are_gone_or_warn():
    for name in api.removed_names():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            found = _resolve(name)
        assert found is None or any(issubclass(w.category, DeprecationWarning) for w in caught), name


def test_missing_array_attributes_are_missing_on_jax_arrays():
    array = jax.numpy.zeros(3)
    for name in api.missing_array_attributes():
        assert hasattr(np.zeros(3), name), name
        try:
            getattr(array, name)
        except (AttributeError, NotImplementedError):  # flat exists only to raise
            continue
        raise AssertionError(name)


def test_arguments_refused_even_as_none_really_are():
    """The linter flags these whatever the value, so JAX must refuse even None."""
    x = jax.numpy.arange(3.0)
    for qualname, params in api.data()["jnp_rejected_arguments"].items():
        func = _resolve(qualname)
        for param, rejection in params.items():
            if "values" in rejection or rejection["none_ok"]:
                continue
            errors = []
            for args in ((x,), (x, x)):
                try:
                    func(*args, **{param: None})
                except Exception as exc:  # noqa: BLE001 - only a TypeError about param counts
                    errors.append(str(exc) if isinstance(exc, TypeError) else "")
            assert any(param in error for error in errors), (qualname, param)


# ---- the semantic model's tables, learned by the generator -----------------------------------
def test_transforms_record_measured_behaviour():
    transforms = api.transforms()
    later = {"computes": True, "arguments": "later"}
    assert transforms["jax.jit"] == {"abstract": True, "cached": True, "arrays": True, **later}
    assert transforms["jax.vmap"] == {"abstract": True, "cached": False, "arrays": True,
                                      "unmapping_option": "in_axes", **later}
    assert transforms["jax.grad"] == {"abstract": False, "cached": False, "arrays": True, **later}
    assert transforms["jax.make_jaxpr"]["arrays"] is transforms["jax.make_jaxpr"]["computes"] is False  # a jaxpr
    assert "jax.experimental.pjit.pjit" in transforms  # deprecated, still served
    # transforms that run the function on the primals they are given, at once
    assert {name: transforms[name]["arguments"] for name in ("jax.vjp", "jax.linearize", "jax.jvp")} == {
        "jax.vjp": "after", "jax.linearize": "after", "jax.jvp": "tuple"}
    assert transforms["jax.vjp"]["computes"] and not transforms["jax.vjp"]["abstract"]
    assert transforms["jax.eval_shape"]["computes"] is False  # shapes and dtypes only
    # checkify passes the argument as it is but traces what the function computes from it
    assert transforms["jax.experimental.checkify.checkify"] == {
        "abstract": True, "cached": False, "arrays": False, **later}
    for not_a_transform in ("jax.custom_jvp", "jax.custom_vjp", "jax.device_put", "jax.block_until_ready"):
        assert not_a_transform not in transforms


def test_lax_bodies_are_the_traced_function_arguments():
    bodies = api.lax_bodies()
    assert bodies["jax.lax.scan"] == [0]
    assert bodies["jax.lax.fori_loop"] == [2]
    assert bodies["jax.lax.while_loop"] == [0, 1]
    assert bodies["jax.lax.cond"] == [1, 2]
    assert bodies["jax.lax.switch"] == [1]
    for no_body in ("jax.lax.add", "jax.lax.sort", "jax.lax.select"):
        assert no_body not in bodies


def test_body_calls_count_the_abstract_tracers_a_body_receives():
    calls = api.body_calls()
    assert calls["jax.numpy.apply_along_axis"] == {"given": 3, "receives": {"0": 1}, "when": {"1": 1}}
    assert calls["jax.lax.map"] == {"given": 2, "receives": {"0": 1}, "when": {}}
    assert calls["jax.lax.fori_loop"]["receives"] == {"2": 2}
    assert "jax.numpy.apply_over_axes" not in calls  # it calls its function on concrete arrays


def test_control_flow_operands_reach_the_parameters_of_its_functions():
    operands, bodies = api.control_flow_operands(), api.control_flow_bodies()
    assert operands["jax.lax.cond"]["1"] == operands["jax.lax.cond"]["2"] == {"0": 3, "1": 4, "2": 5}
    assert operands["jax.lax.fori_loop"] == {"2": {"1": 3}}  # the init value is the body's carry
    assert operands["jax.lax.switch"]["1"]["0"] == 2
    for name, by_body in operands.items():
        assert {int(position) for position in by_body} <= set(bodies[name])


def test_framework_control_flow_traces_its_functions_as_lax_does():
    bodies = api.control_flow_bodies()
    assert bodies["jax.lax.cond"] == [1, 2]  # jax.lax's own, kept
    assert bodies["flax.nnx.cond"] == [1, 2]
    assert bodies["flax.nnx.fori_loop"] == [2]
    for eager in ("flax.nnx.jit", "flax.nnx.make_attention_mask"):  # a wrapper; a function called on arrays
        assert eager not in bodies


def test_framework_key_builders_are_measured():
    builders = api.framework_key_builders()
    assert "flax.nnx.Rngs" in builders  # nnx.Rngs(key): its streams are the key's
    assert "flax.nnx.Linear" not in builders  # built from rngs, not a key alone


def test_framework_transforms_say_whether_a_new_wrapper_traces_again():
    transforms = api.framework_transforms()
    assert transforms["flax.nnx.jit"]["traced_per_wrapper"]  # its cache is the wrapper's
    assert not transforms["equinox.filter_jit"]["traced_per_wrapper"]  # cached by the function


def test_the_vmaps_leave_an_argument_unmapped_by_their_in_axes():
    options = api.unmapping_options()
    assert {options[name] for name in ("jax.vmap", "flax.nnx.vmap", "equinox.filter_vmap")} == {"in_axes"}
    assert not {"jax.pmap", "flax.nnx.pmap", "equinox.filter_pmap", "jax.jit"} & set(options)  # pmap: a tracer


def test_positional_options_follow_the_signatures():
    options = api.positional_options()
    assert options["jax.vmap"][:2] == ["in_axes", "out_axes"]
    assert options["jax.grad"][:2] == ["argnums", "has_aux"]
    assert "jax.jit" not in options  # everything after the function is keyword-only


def test_non_array_functions():
    names = api.non_array_functions()
    assert {"shape", "ndim", "result_type", "finfo", "iinfo", "promote_types", "broadcast_shapes"} <= names
    assert not {"sum", "zeros", "where", "split", "isnan"} & names


def test_size_functions_record_the_keyword_that_fixes_the_size():
    sized = api.size_functions()
    assert sized["jax.ops.segment_sum"] == {"keyword": "num_segments", "keyword_index": 2, "positions": [1],
                                            "names": ["segment_ids"], "staged": True}
    assert sized["jax.numpy.unique"]["keyword"] == "size" and sized["jax.numpy.unique"]["staged"]
    assert not sized["jax.numpy.repeat"]["staged"]  # an int count works staged: its shape argument
    assert not {"jax.numpy.sum", "jax.numpy.zeros"} & sized.keys()


def test_segment_sum_without_num_segments_fails_under_jit_and_under_vmap_of_its_ids():
    ids = jnp.array([0, 0, 1])
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(lambda data: jax.ops.segment_sum(data, ids))(jnp.ones(3))
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.vmap(lambda row: jax.ops.segment_sum(jnp.ones(3), row))(jnp.stack([ids, ids]))
    assert jax.vmap(lambda row: jax.ops.segment_sum(row, ids))(jnp.ones((2, 3))).shape == (2, 2)


def test_tuple_result_functions():
    names = api.tuple_result_functions()
    assert {"split", "nonzero", "meshgrid", "svd", "eigh", "unique", "divmod", "atleast_1d"} <= names
    assert not {"sum", "concatenate", "shape", "isnan"} & names


def test_tree_result_functions_give_back_the_pytree_they_are_given():
    names = api.tree_result_functions()
    assert {"psum", "pmean", "pmax", "all_gather", "stop_gradient"} <= names
    assert not {"add", "reduce_sum", "scan", "sort"} & names
    tree = {"a": jnp.ones((2, 3))}
    for name in ("pmean", "all_gather"):
        result = jax.vmap(lambda t: getattr(jax.lax, name)(t, "i"), axis_name="i")(tree)
        assert isinstance(result, dict)


def test_bool_result_functions():
    names = api.bool_result_functions()
    assert {"isnan", "isfinite", "logical_and", "equal", "less", "isclose", "signbit"} <= names
    assert not {"sum", "where", "abs", "shape"} & names


def test_dtype_keeping_functions_give_back_their_floating_argument_dtype():
    names = api.dtype_keeping_functions()
    assert {"jax.numpy.tanh", "jax.nn.relu", "jax.nn.silu", "jax.numpy.exp"} <= names
    assert not {"jax.numpy.sum", "jax.numpy.isnan", "jax.numpy.argmax", "jax.numpy.float32"} & names
    for qualname in ("jax.numpy.tanh", "jax.nn.gelu", "jax.lax.rsqrt"):
        for dtype in (jnp.bfloat16, jnp.float16):
            assert _resolve(qualname)(jnp.ones(3, dtype=dtype)).dtype == dtype


def test_constructor_defaults():
    defaults = api.constructor_defaults()
    assert defaults["zeros"] == defaults["ones"] == defaults["eye"] == "float64"
    for data_decides in ("arange", "array", "full", "asarray", "sqrt", "linspace"):
        assert data_decides not in defaults  # np.linspace(np.float32(0), 1) is float32


def test_python_result_methods():
    methods = api.python_result_methods()
    assert {"item", "tolist", "tobytes", "__len__", "devices"} <= methods
    assert not {"sum", "astype", "reshape", "copy", "block_until_ready"} & methods


def test_static_attributes():
    attributes = api.static_attributes()
    assert {"shape", "ndim", "size", "dtype", "itemsize", "nbytes", "sharding", "device", "aval"} <= attributes
    assert not {"T", "mT", "real", "imag", "flat", "sum"} & attributes


def test_integer_attributes():
    assert {"shape": "ints", "ndim": "int", "size": "int"}.items() <= api.integer_attributes().items()
    assert not {"dtype", "T", "sharding"} & set(api.integer_attributes())


def test_scalar_results_of_the_jax_twins_are_measured_by_calling():
    results = api.scalar_results()
    assert results["arange"]["jax"] == {"int": "int32", "float": "float32"}
    assert results["linspace"]["jax"] == {"int": "float32", "float": "float32"}
    assert all("int" in entry and "float" in entry for entry in results.values())


def test_linen_parameter_dtypes_are_measured_through_self_param():
    initializers = api.framework_param_initializers()
    for name in ("flax.linen.initializers.ones", "jax.nn.initializers.zeros"):
        assert initializers[name]["default"] == "float32" and initializers[name]["dtype_honoured"]
        assert initializers[name]["factory"] is None
    normal = initializers["flax.linen.initializers.normal"]
    assert normal["factory"] == 0 and normal["dtype_keyword"]
    assert all(entry["measured_with"].startswith("flax ") for entry in initializers.values())


def test_shape_arguments():
    positions = api.shape_arguments()
    assert positions["jax.numpy.zeros"] == [0]
    assert positions["jax.numpy.arange"] == [0, 1, 2]
    assert positions["jax.numpy.linspace"] == [2, 3, 4]  # num, and endpoint and retstep: hashed parameters
    assert positions["jax.numpy.linalg.matrix_power"] == [1]  # its exponent, measured on a square matrix
    assert positions["jax.numpy.eye"] == [0, 1]
    assert positions["jax.lax.full"] == [0]  # lax.full((n, 3), 0.0)
    for no_shape in ("jax.numpy.sum", "jax.numpy.unique", "jax.numpy.where", "jax.numpy.zeros_like",
                     "jax.numpy.histogramdd"):  # (its bins may be one traced row of edges per dimension)
        assert no_shape not in positions


def test_lax_loops_hand_the_carry_back_to_their_body():
    carries = api.lax_body_carries()
    assert carries["jax.lax.scan"] == {"0": {"0": 0}}  # step(carry, x) -> (carry, y)
    assert carries["jax.lax.fori_loop"] == {"2": {"-1": 1}}  # body(i, value) -> value
    assert carries["jax.lax.while_loop"] == {"1": {"-1": 0}}  # body(value) -> value; not to cond_fun
    assert "jax.lax.cond" not in carries and "jax.lax.map" not in carries


def test_lax_loops_step_as_their_int_arguments_say():
    steps = api.lax_body_steps()
    assert steps["jax.lax.fori_loop"] == {"lower": [0, -1], "upper": [1, 1]}  # upper - lower steps
    assert steps["jax.lax.scan"] == {"length": [3, 1]}
    assert "jax.lax.while_loop" not in steps  # its condition decides


def test_refused_values_really_are_refused_and_others_accepted():
    x = jax.numpy.arange(3.0)
    indices = jax.numpy.array([0])
    with pytest.raises(NotImplementedError):
        jax.numpy.take(x, indices, mode="raise")  # noqa: JNP503 - the refusal under test
    jax.numpy.take(x, indices, mode="clip")
    refused = api.jnp_rejected_arguments()
    assert set(refused["jax.numpy.take"]["mode"]["values"]) == {"'raise'"}
    assert "'F'" in refused["jax.numpy.asarray"]["order"]["values"]
    assert "True" in refused["jax.numpy.median"]["overwrite_input"]["values"]
    assert "where" in refused["jax.numpy.add"]  # a ufunc keyword
    assert "'raise'" in api.array_rejected_arguments()["take"]["mode"]["values"]
    assert "flat" not in api.array_attributes()  # it exists only to raise NotImplementedError


def test_promoting_arguments_are_learned_by_calling():
    table = api.promoting_arguments()
    assert table["jax.numpy.where"]["positions"] == [1, 2]  # not the condition
    assert table["jax.numpy.concatenate"]["sequences"] == [0]
    assert set(table["jax.numpy.dot"]["positions"]) == {0, 1}
    assert "jax.numpy.einsum" in table
    for one_input in ("jax.numpy.sum", "jax.numpy.reshape", "jax.numpy.zeros_like"):
        assert one_input not in table


def test_numpy_random_defaults_are_learned_by_calling():
    table = api.numpy_random_dtypes()
    assert table["legacy"]["normal"] == table["legacy"]["rand"] == "float64"
    assert table["generator"]["normal"] == table["generator"]["random"] == "float64"
    assert table["generator"]["integers"] == "int64"
    assert "choice" not in table["generator"]  # its dtype is its data's


def test_the_framework_versions_come_from_measured_entries_only():
    """An alias's entry is the JAX name it stands for, with no version of its own: the
    staleness check (slow group) crashed on it when the frameworks were not installed."""
    from flake8_jaxnp.datagen.frameworks import measured_versions
    keys = {"framework_modules": {"flax.linen.Module": {"measured_with": "flax 0.12.8"}},
            "framework_aliases": {"flax.linen.relu": "jax.nn.relu"}}
    assert measured_versions(keys) == {"flax": "0.12.8"}


def test_framework_array_functions_are_measured_by_calling():
    functions = api.framework_array_functions()
    assert {"optax.global_norm", "optax.l2_loss", "optax.softmax_cross_entropy_with_integer_labels",
            "optax.tree.norm"} <= set(functions)
    for tree_mapping in ("optax.apply_updates", "optax.tree_utils.tree_add", "optax.tree_utils.tree_scale"):
        assert tree_mapping not in functions


def test_framework_fresh_objects_are_measured_by_calling_twice():
    fresh = api.framework_fresh_objects()
    assert {"optax.adam", "optax.sgd", "optax.clip_by_global_norm", "optax.chain"} <= set(fresh)  # chain: *args
    for gives_an_array_or_a_tree in ("optax.global_norm", "optax.l2_loss", "optax.apply_updates"):
        assert gives_an_array_or_a_tree not in fresh


def test_framework_static_holders_are_measured_under_the_jit():
    holders = api.framework_static_holders()
    assert holders["flax.nnx.Optimizer"]["argument"] == "tx" and holders["flax.nnx.Optimizer"]["position"] == 1
    assert {facts["transform"] for name, facts in holders.items() if name.startswith("flax.nnx.")} == {"flax.nnx.jit"}
    create = holders["flax.training.train_state.TrainState.create"]  # keyword-only, under jax.jit
    assert create["argument"] == "tx" and create["position"] is None and create["transform"] == "jax.jit"


def test_framework_layers_record_the_fields_their_jit_traces():
    layers = api.framework_layers()
    assert set(layers["flax.nnx.BatchNorm"]["traced_fields"]["holders"]) >= {"mean", "var"}
    assert set(layers["equinox.nn.Linear"]["traced_fields"]["arrays"]) == {"weight", "bias"}
    assert "traced_fields" not in layers["flax.linen.Dense"]  # a linen layer holds no arrays itself


def test_framework_update_callbacks_are_measured_inside_a_jitted_update():
    callbacks = {name: {keyword: arrays for _, keyword, arrays in facts["arguments"]}
                 for name, facts in api.framework_update_callbacks().items()}
    assert callbacks["optax.adam"]["learning_rate"] == [0]  # a schedule gets the step count, one array
    assert callbacks["optax.stateless"] == {"f": []} and callbacks["optax.GradientTransformation"] == {"update": []}
    for runs_nothing_in_update in ("optax.chain", "optax.global_norm", "optax.apply_updates"):
        assert runs_nothing_in_update not in callbacks


def test_framework_records_are_measured_under_the_jit():
    facts = api.framework_record_builders()["flax.training.train_state.TrainState.create"]
    assert facts["arrays"] == ["step"] and set(facts["fields"]) == {"step", "params", "opt_state"}
    assert facts["updating"] == {"apply_gradients": "tx"}  # the step runs the update of the tx= it was built around


def test_the_nnx_array_holders_probe_leaves_nnx_jit_working():
    """Built around an array, one class of NNX's namespace, ``nnx.set_graph_mode``, is a setting in force
    until exited: left so, every later ``nnx.jit`` failed and the NNX layers went unmeasured."""
    nnx = pytest.importorskip("flax.nnx")
    import jax.numpy as jnp
    from flake8_jaxnp.datagen.array_holders import array_holders

    assert "flax.nnx.Param" in array_holders("flax.nnx.Module", nnx.Module)
    assert nnx.jit(lambda m, a: m(a))(nnx.Linear(3, 2, rngs=nnx.Rngs(0)), jnp.ones(3)).shape == (2,)


def test_the_key_builders_probe_leaves_nnx_jit_working():
    """Built around a key, ``nnx.set_graph_mode`` set NNX's graph mode to it: every later ``nnx.jit``
    failed ("key array cannot be converted to boolean") and the generator stopped."""
    nnx = pytest.importorskip("flax.nnx")
    from flake8_jaxnp.datagen.framework_functions import _builds_keys_its_key_decides

    assert not _builds_keys_its_key_decides(nnx.set_graph_mode)
    assert nnx.jit(lambda m, a: m(a))(nnx.Linear(3, 2, rngs=nnx.Rngs(0)), jnp.ones(3)).shape == (2,)


def test_linen_state_methods_give_the_trace_s_arrays_under_a_jitted_apply():
    """``self.param(...)`` gives a tracer, ``self.variable(...)`` a holder whose ``.value`` is one
    (a counter that began as a Python 0 too), measured under ``jax.jit(model.apply)``."""
    facts = api.framework_module_bases()["flax.linen.Module"]
    assert facts["traced_self_methods"] == {"param": "array", "variable": "holder"}
    assert api.framework_module_bases()["flax.nnx.Module"]["traced_self_methods"] == {}


def test_framework_array_methods_are_measured_on_a_probe_object():
    methods = api.framework_array_methods()["optax.MultiSteps"]["methods"]
    assert methods["has_updated"] == "bool"  # one device bool
    for not_an_array in ("init", "update", "gradient_transformation"):
        assert not_an_array not in methods


def test_framework_static_objects_are_measured_under_the_jit():
    jits = api.framework_static_objects()
    assert "equinox.filter_jit" in jits  # keeps a non-array leaf static: a new optax.adam traces again
    assert "jax.jit" not in jits  # refuses an optax.adam as an argument


def test_framework_containers_give_back_what_they_were_built_around():
    containers = api.framework_containers()
    assert containers["flax.nnx.List"]["holds"] == "list" and containers["flax.nnx.Dict"]["holds"] == "dict"
    assert "flax.nnx.Module" not in containers and "flax.nnx.Linear" not in containers


def test_framework_rebuilders_give_back_the_class_taken_apart():
    rebuilders = api.framework_rebuilders()
    assert rebuilders["flax.nnx.merge"]["parts_of"] == "flax.nnx.split"
    assert rebuilders["equinox.combine"]["parts_of"] == "equinox.partition"


def test_framework_class_transforms_give_an_instance_of_the_class():
    transforms = api.framework_class_transforms()
    assert "equinox.filter_vmap" in transforms and "jax.grad" not in transforms
