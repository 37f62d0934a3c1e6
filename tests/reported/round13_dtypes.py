"""Thirteenth round, held out: replica-exchange bookkeeping that counts accepted swaps in an array
of NumPy's default integer, int64, which JAX narrows to int32 with a warning while x64 is off
(JNP402)."""
import jax
import jax.numpy as jnp
import numpy as np


def swap_acceptance(key, log_q_kl, n_states):
    log_u = jnp.log(jax.random.uniform(key, (n_states - 1,)))
    return log_u < log_q_kl


# https://github.com/proteneer/timemachine/pull/1305
# Run in 32 bit, the HREX loop warned on every call: its acceptance counters were zeros of
# np.int_; the PR switched them to uint32.
def run_hrex_swaps(key, log_q_kl, n_states, n_swap_attempts):
    n_accepted_by_pair = jnp.zeros(n_states - 1, dtype=np.int_)  # reported: JNP402
    for _ in range(n_swap_attempts):
        key, subkey = jax.random.split(key)
        accepted = swap_acceptance(subkey, log_q_kl, n_states)
        n_accepted_by_pair = n_accepted_by_pair + accepted
    return n_accepted_by_pair / n_swap_attempts


def case_acceptance_counters_of_np_int():
    return run_hrex_swaps(jax.random.PRNGKey(0), jnp.full(3, -0.5), 4, 10)


def run_hrex_swaps_uint32(key, log_q_kl, n_states, n_swap_attempts):
    n_accepted_by_pair = jnp.zeros(n_states - 1, dtype=jnp.uint32)
    for _ in range(n_swap_attempts):
        key, subkey = jax.random.split(key)
        accepted = swap_acceptance(subkey, log_q_kl, n_states)
        n_accepted_by_pair = n_accepted_by_pair + accepted
    return n_accepted_by_pair / n_swap_attempts


def case_ok_acceptance_counters_of_uint32():
    return run_hrex_swaps_uint32(jax.random.PRNGKey(0), jnp.full(3, -0.5), 4, 10)
