"""Twelfth round, held out: a jitted master-equation solver whose result object is timed without
waiting for its arrays, and a unit converter that wraps its kernel in jax.jit inside the method,
so every call in the user's loop compiles again (JNP603, JNP602)."""
import time
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass
class Result:
    tsave: jax.Array
    states: jax.Array

    def expect(self, op):
        return jnp.einsum("ij,tji->t", op, self.states)


@jax.jit
def _mesolve(H, rho0, tsave):
    def step(rho, t):
        rho = rho - 1j * 0.01 * (H @ rho - rho @ H)
        return rho, rho

    _, states = jax.lax.scan(step, rho0, tsave)
    return states


def mesolve(H, rho0, tsave):
    return Result(tsave, _mesolve(H, rho0, tsave))


# https://github.com/dynamiqs/dynamiqs/pull/702
# Benchmarks timed the solver call, which returns a Result holding the state arrays; the solve is
# dispatched asynchronously, so the figure is the dispatch until the result is blocked on (the PR
# adds a block_until_ready method to Result for this).
def case_solver_result_timed_without_blocking():
    H = jnp.diag(jnp.arange(4.0)).astype(jnp.complex64)
    rho0 = jnp.eye(4, dtype=jnp.complex64) / 4
    tsave = jnp.linspace(0.0, 1.0, 2000)
    timings = []
    for _ in range(3):
        start = time.perf_counter()
        result = mesolve(H, rho0, tsave)
        timings.append(time.perf_counter() - start)  # reported: JNP603
    return timings, result.states.shape


def case_ok_solver_result_timed_until_ready():
    H = jnp.diag(jnp.arange(4.0)).astype(jnp.complex64)
    rho0 = jnp.eye(4, dtype=jnp.complex64) / 4
    tsave = jnp.linspace(0.0, 1.0, 2000)
    timings = []
    for _ in range(3):
        start = time.perf_counter()
        result = mesolve(H, rho0, tsave)
        jax.block_until_ready(result.states)
        timings.append(time.perf_counter() - start)
    return timings, result.states.shape


# https://github.com/GalacticDynamics/unxt/pull/906
# jax.jit caches on the identity of the function it wraps: a converter that builds its jitted
# kernel inside the method gets a new lambda, hence a new compilation, on every call of the
# user's loop.
class UnitConverter:
    def __init__(self, scale, offset=0.0):
        self.scale = scale
        self.offset = offset

    def convert(self, q):
        kernel = jax.jit(lambda x: x * self.scale + self.offset)  # reported: JNP602
        return kernel(q)


def case_kernel_jitted_inside_the_method():
    to_kelvin = UnitConverter(1.0, 273.15)
    readings = [jnp.full((3,), float(i)) for i in range(4)]
    return [to_kelvin.convert(r) for r in readings]


class CachedUnitConverter(UnitConverter):
    def __init__(self, scale, offset=0.0):
        super().__init__(scale, offset)
        self._kernel = jax.jit(lambda x: x * self.scale + self.offset)

    def convert(self, q):
        return self._kernel(q)


def case_ok_kernel_jitted_once():
    to_kelvin = CachedUnitConverter(1.0, 273.15)
    readings = [jnp.full((3,), float(i)) for i in range(4)]
    return [to_kelvin.convert(r) for r in readings]
