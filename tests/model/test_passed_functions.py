"""What the summaries say of a factory that calls a function it is given, or that jits anew."""
import textwrap

from flake8_jaxnp.model.project.targets import INSTANCE_METHOD, PASSED_FUNCTION, TABLE_ENTRY
from flake8_jaxnp.model.project.summaries import summarise
from flake8_jaxnp.model.traced import transform_tables

FACTORIES = textwrap.dedent('''
    import jax


    def apply(params, x):
        return x @ params


    def make_train_step(forward=apply):
        def loss_fn(params, x):
            return forward(params, x).sum()

        def step(params, x):
            return jax.grad(loss_fn)(params, x)

        return jax.jit(step)


    def make_rebinding_step(forward=apply):
        forward = jax.vmap(forward)

        def step(params, x):
            return forward(params, x)

        return jax.jit(step)


    def make_cached_step():
        return jax.jit(apply)
''').encode()


def _summary():
    return summarise(FACTORIES, transform_tables(())[0])


def test_a_call_of_the_factorys_parameter_from_a_def_beside_the_jitted_one_is_recorded():
    flows = _summary()["flows"]
    assert [None, ["make_train_step.loss_fn"]] in [entry[:2] for entry in flows["make_train_step.step"]]
    passed = [entry for entry in flows["make_train_step.loss_fn"] if entry[1][0] == PASSED_FUNCTION]
    assert [entry[1:3] for entry in passed] == [[[PASSED_FUNCTION, "forward"], [[0, ["params"], True],
                                                                                [1, ["x"], True]]]]
    assert _summary()["nested"]["make_train_step.loss_fn"] == {"params": ["params", "x"]}


def test_a_parameter_the_factory_rebinds_is_not_what_its_callers_pass():
    flows = _summary()["flows"].get("make_rebinding_step.step", [])
    assert not [entry for entry in flows if entry[1][0] == PASSED_FUNCTION]


def test_a_jit_of_a_nested_def_is_new_on_each_call_a_jit_of_a_module_function_is_not():
    functions = _summary()["functions"]
    assert functions["make_train_step"].get("fresh_jitted") is True
    assert functions["make_cached_step"].get("builds_jitted") is True
    assert "fresh_jitted" not in functions["make_cached_step"]


NESTED_OBJECTIVES = textwrap.dedent('''
    import jax


    def make_fit_step(loss, policy):
        def step(params, x, y):
            def objective(p):
                return loss(policy.apply(p, x), y)

            def report(p):
                return loss(policy.apply(p, x), y)

            grads = jax.grad(objective)(params)
            return report(params), grads

        return jax.jit(step)
''').encode()


def test_a_call_in_a_nested_def_the_step_differentiates_runs_under_that_transform():
    """``objective`` is handed to jax.grad: the loss it calls is differentiated (the flow's transform);
    ``report``, called as it is, only runs under the step's trace. ``policy.apply(p, x)`` (a Module
    applied to the step's data) derives from ``x``; it runs that method of what the factory's callers
    pass as ``policy``, given ``x``."""
    flows = summarise(NESTED_OBJECTIVES, transform_tables(())[0])["flows"]["make_fit_step.step"]
    applied = [PASSED_FUNCTION, "policy", INSTANCE_METHOD, "apply"]
    assert [(entry[1], entry[2], entry[6]) for entry in flows] == [
        ([PASSED_FUNCTION, "loss"], [[0, ["x"], False], [1, ["y"], True]], None),
        (applied, [[1, ["x"], True]], None),
        ([PASSED_FUNCTION, "loss"], [[0, ["x"], False], [1, ["y"], True]], "jax.grad"),
        (applied, [[1, ["x"], True]], "jax.grad")]


BOUND_LOOKUP = textwrap.dedent('''
    import functools

    import jax

    from .losses import LOSSES


    def make_step(name, weight, forward):
        loss_fn = functools.partial(LOSSES[name], weight=weight)

        def step(p, x):
            loss, grad = jax.value_and_grad(loss_fn)(p, x)
            return jax.grad(forward, argnums=1)(p, x), loss, grad

        return jax.jit(step)
''').encode()


def test_a_transform_applied_in_place_to_what_the_factory_holds_runs_it_under_that_transform():
    """``jax.value_and_grad(loss_fn)(p, x)`` in the jitted step runs each loss ``LOSSES[name]`` may give
    (the lookup the factory binds, ``around._local_functions``), and ``jax.grad(forward, argnums=1)(p, x)``
    what the factory's callers pass as ``forward``, each under its transform and in its positions."""
    flows = summarise(BOUND_LOOKUP, transform_tables(())[0])["flows"]["make_step.step"]
    assert sorted((entry[1], entry[2], entry[6], entry[7]) for entry in flows) == [
        ([TABLE_ENTRY, None, 0], [[0, ["p"], True], [1, ["x"], True]], "jax.value_and_grad", [0]),
        ([PASSED_FUNCTION, "forward"], [[0, ["p"], True], [1, ["x"], True]], "jax.grad", [1])]
