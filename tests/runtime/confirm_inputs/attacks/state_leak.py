"""Attack: a case that replaces sys.modules["jax"], changes directory, the environment and sys.path."""
import os
import sys
import types

import jax
import jax.numpy as jnp


def case_change_everything():
    sys.modules["jax"] = types.ModuleType("jax")
    os.chdir("/")
    os.environ["JAXNP_ATTACK_LEAK"] = "1"
    sys.path.insert(0, "/nonexistent-jaxnp-attack")


def case_sees_nothing_of_it():
    leaks = [sys.modules["jax"] is not jax, os.getcwd() == "/", "JAXNP_ATTACK_LEAK" in os.environ,
             "/nonexistent-jaxnp-attack" in sys.path]
    if any(leaks):
        raise RuntimeError(f"state leaked from the case before: {leaks}")
    return jnp.ones(2)
