"""By-hand checks of the reported pitfalls (tests/reported/) whose lines the runtime mode does not
observe unless the linter reports them (nan gradients, key reuse, retraces, stale reads) or cannot
observe at all (closures, vmap, speed): each check runs the case's code and prints what shows the
pitfall, next to what the look-alike gives.

    python tests/benchmarks/reported_by_hand.py     # the Flax/Equinox checks need those installed
"""
import importlib.util
import sys
import time
import warnings
from pathlib import Path

import jax
import jax.numpy as jnp

REPORTED = Path(__file__).resolve().parents[1] / "reported"
sys.path.insert(0, str(REPORTED))
warnings.filterwarnings("ignore")


def load(name):
    spec = importlib.util.spec_from_file_location(name.replace("/", "_")[:-3], REPORTED / name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def traces(run):
    """How many times JAX traced a function while ``run()`` ran."""
    before = len(TRACES)
    run()
    return len(TRACES) - before


TRACES = []
jax.monitoring.register_event_duration_secs_listener(
    lambda name, duration, **kw: TRACES.append(name) if name == "/jax/core/compile/jaxpr_trace_duration" else None)


def main():
    g = load("gradients.py")
    rows = jnp.array([[1.0, 2.0], [3.0, 4.0], [0.0, 0.0]])
    print("gradients.py jax#347: nan in grad", bool(jnp.isnan(jax.grad(g._norm_floor)(rows)).any()),
          "| look-alike", bool(jnp.isnan(jax.grad(g._norm_floor_fixed)(rows)).any()))
    a = jnp.array([3.0, 0.0, -5.0])
    print("gradients.py jax#1052: nan in grad", bool(jnp.isnan(jax.grad(g._masked_angle)(a)).any()),
          "| look-alike", bool(jnp.isnan(jax.grad(g._masked_angle_fixed)(a)).any()))
    conf, q = jnp.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, 0.0]]), jnp.array([1.0, 0.5, 0.5])
    print("gradients.py jax#654: nan in grad", bool(jnp.isnan(jax.grad(g._pair_energy)(conf, q)).any()),
          "| look-alike", bool(jnp.isnan(jax.grad(g._pair_energy_fixed)(conf, q)).any()))

    s = load("side_effects.py")
    s.SKETCH.table.clear()
    jax.vmap(s._sketch)(jnp.arange(3))
    print("side_effects.py jax#13022: the stored closure returns", type(s.SKETCH.table["hi"][0]()).__name__)
    applied = jax.jit(s._apply_mock)
    first = applied(jnp.array([1, 1])).tolist()
    s.mock_fn = s._negate
    print("side_effects.py jax#28225: jitted before/after rebinding", first, applied(jnp.array([1, 1])).tolist(),
          "| eager after", s._apply_mock(jnp.array([1, 1])).tolist())
    s.mock_fn = s._identity

    p = load("performance.py")
    v = p.StaticValue(100)
    p._add(v, 1)
    v.val = 0
    print("performance.py jax#13992: jitted after v.val = 0 gives", int(p._add(v, 1)), "| eager", 1 + v.val)
    for case in (p.case_jnp_array_of_long_list, p.case_ok_numpy_first):
        case()
        start = time.perf_counter()
        for _ in range(5):
            case().block_until_ready()
        print(f"performance.py jax#2919: {case.__name__} {(time.perf_counter() - start) / 5 * 1000:.1f} ms")

    round3(load)

    from trainpkg import data, models, train
    positions = jnp.asarray(data.initial_positions())
    models.energy(positions)
    models.NEIGHBORS = models.update_neighbors(positions)
    print("trainpkg jax-md#161: jitted energy after rebinding", float(models.energy(positions)),
          "| with the list passed", float(models.energy_with(models.NEIGHBORS, positions)))
    print("trainpkg jax#2515: traces", traces(train.case_likelihood_gradient_recompiled_every_call),
          "| look-alike", traces(train.case_ok_likelihood_gradient_compiled_once))

    try:
        e = load("frameworks/equinox_models.py")
    except ImportError as error:
        print("frameworks: not run:", error)
        return
    out, ok = e.case_one_dropout_key_for_the_batch(), e.case_ok_one_key_per_example()
    print("equinox_models.py eqx#306: every row has the first row's mask", bool(((out == 0) == (out[0] == 0)).all()),
          "| look-alike", bool(((ok == 0) == (ok[0] == 0)).all()))
    print("equinox_models.py eqx#1062: traces for 20 steps", traces(e.case_int_field_changes_every_iteration),
          "| look-alike", traces(e.case_ok_array_field_changes))


def round3(load):
    """The third round's marks the runtime mode observes only with a finding, or not at all."""
    g = load("round3_gradients.py")
    one, zero = jnp.float32(1.0), jnp.float32(0.0)
    print("round3_gradients.py keras#20110: grad", float(jax.grad(g.divide_no_nan)(one, zero)),
          "| look-alike", float(jax.grad(g.divide_no_nan_safe)(one, zero)))
    print("round3_gradients.py jax#1722: grad at 0", float(jax.grad(g.sinc)(0.0)),
          "| look-alike", float(jax.grad(g.sinc_safe)(0.0)))
    print("round3_gradients.py jax#4177 (no rule): grad at 0", jax.grad(g.squared_2_norm)(jnp.zeros(2)).tolist(),
          "| look-alike", jax.grad(g.sum_of_squares)(jnp.zeros(2)).tolist())

    k = load("round3_keys.py")
    masks, ok = k.case_dropout_key_from_fixed_seed(), k.case_ok_dropout_key_passed_in()
    print("round3_keys.py jax#170: every call drops the same units", all(bool((m == masks[0]).all()) for m in masks),
          "| look-alike", all(bool((m == ok[0]).all()) for m in ok))
    x = jnp.ones(3)
    steps = [float(k._noise_conditional_loop_body(i, (x, 0.0))[1]) for i in range(3)]
    folded = [float(k._noise_conditional_loop_body_folded(i, (x, 0.0))[1]) for i in range(3)]
    print("round3_keys.py coreax#375: the noise term of steps 0-2", steps, "| look-alike", folded)

    s = load("round3_side_effects.py")
    shown = []
    with_print = print

    def capture(*args, **kwargs):
        shown.append(type(args[-1]).__name__)
    import builtins
    builtins.print = capture
    try:
        s.case_print_inside_vmapped_elbo()
        s.case_print_inside_differentiated_function()
    finally:
        builtins.print = with_print
    print("round3_side_effects.py jax#1476, jax#4615: print() showed", shown)

    p = load("round3_performance.py")
    w = jnp.ones((512, 512))
    jf1 = jax.jit(p.f1)
    jf1(w, w).block_until_ready()
    import timeit
    print(f"round3_performance.py jax#19327, jax#4474: timeit of the call "
          f"{min(timeit.repeat(lambda: jf1(w, w), number=1, repeat=5)) * 1000:.2f} ms "
          f"| waiting {min(timeit.repeat(lambda: jf1(w, w).block_until_ready(), number=1, repeat=5)) * 1000:.2f} ms")
    big = jax.jit(lambda: jnp.linalg.solve(jnp.eye(512) * 2.0, jnp.ones(512)))
    big().block_until_ready()
    with p.Timer() as t:
        rs = [big() for _ in range(5)]
    with p.Timer() as waited:
        rs = [big() for _ in range(5)]
        jax.block_until_ready(rs)
    print(f"round3_performance.py jax#28816: Timer around the list {t.elapsed * 1000:.2f} ms "
          f"| waiting {waited.elapsed * 1000:.2f} ms")


if __name__ == "__main__":
    main()
