"""Thirteenth round, held out: an unroll helper that scans a stochastic stateful function over a
time series and hands it the same key at every step, so every step draws the same noise
(JNP601)."""
import jax
import jax.numpy as jnp


def noisy_ewma(x, state, rng, alpha=0.1, noise_scale=0.01):
    """An exponential moving average with a small exploration noise added at each step."""
    noise = noise_scale * jax.random.normal(rng, x.shape)
    state = (1 - alpha) * state + alpha * (x + noise)
    return state, state


# https://github.com/eserie/wax-ml/pull/45
# unroll applied the module at each time step with the key it was given; the PR renews the key in
# the unroll so that each step draws fresh randomness.
def unroll(fun, rng):
    def scan_fn(state, x):
        y, state = fun(x, state, rng)  # reported: JNP601
        return state, y

    def run(xs, state):
        return jax.lax.scan(scan_fn, state, xs)

    return run


def case_unroll_with_one_key_for_every_step():
    xs = jnp.zeros((50, 2))
    _, ys = unroll(noisy_ewma, jax.random.PRNGKey(0))(xs, jnp.zeros(2))
    return ys


def unroll_renewed(fun, rng):
    def scan_fn(carry, x):
        state, rng = carry
        rng, step_rng = jax.random.split(rng)
        y, state = fun(x, state, step_rng)
        return (state, rng), y

    def run(xs, state):
        return jax.lax.scan(scan_fn, (state, rng), xs)

    return run


def case_ok_unroll_renewing_the_key():
    xs = jnp.zeros((50, 2))
    _, ys = unroll_renewed(noisy_ewma, jax.random.PRNGKey(0))(xs, jnp.zeros(2))
    return ys
