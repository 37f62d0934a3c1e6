"""Fifteenth round, held out: a dreaming loop whose scan step splits its key, seeds the imagined
rollout with the kept half and also carries that half on to the next step, so consecutive dreams
draw from the same key (JNP601)."""
import jax
import jax.numpy as jnp


def imagined_rollout(key, candidate, horizon=3):
    actions = []
    for _ in range(horizon):
        key, action_key = jax.random.split(key)
        actions.append(candidate + jax.random.normal(action_key, candidate.shape))
    return jnp.stack(actions)


# https://github.com/SlopDotCash/asi/issues/160
# After key, candidate_key = split(key) the dream step seeds the rollout's behaviour chain with key
# and also returns key in the scan carry, where the next dream splits it again; the next dream's
# candidate key is the rollout's first action key, so the dreams share randomness.
def dream_step(key, _):
    key, candidate_key = jax.random.split(key)
    candidate = jax.random.normal(candidate_key, (2,))
    trajectory = imagined_rollout(key, candidate)
    return key, trajectory  # reported: JNP601


def case_dream_key_both_seeds_the_rollout_and_is_carried():
    _, dreams = jax.lax.scan(dream_step, jax.random.key(0), None, length=4)
    return dreams


def dream_step_split(key, _):
    key, candidate_key, rollout_key = jax.random.split(key, 3)
    candidate = jax.random.normal(candidate_key, (2,))
    trajectory = imagined_rollout(rollout_key, candidate)
    return key, trajectory


def case_ok_rollout_seeded_with_its_own_subkey():
    _, dreams = jax.lax.scan(dream_step_split, jax.random.key(0), None, length=4)
    return dreams
