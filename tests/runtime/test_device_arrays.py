"""Which device arrays the clock probe finds in a frame's locals."""
import dataclasses
import typing

import jax.numpy as jnp

from flake8_jaxnp.confirm.device_arrays import frame_arrays


class State(typing.NamedTuple):
    step: int
    params: typing.Any


@dataclasses.dataclass
class Result:
    iterations: int
    value: typing.Any


def test_a_frame_s_arrays_are_its_own_and_the_last_leaf_of_what_it_holds():
    x, w = jnp.ones(2), jnp.zeros(3)
    found = frame_arrays({"x": x, "state": State(1, {"w": w}), "result": Result(3, w), "n": 3, "rows": [1, 2],
                          "history": [x, 1.0]})
    assert found.keys() == {"x", "state", "result"}  # (history's last leaf is no array)
    assert found["x"] is x and found["state"] is w
