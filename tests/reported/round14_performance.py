"""Fourteenth round, held out: a lecture that times a jitted function with time.time() around a call
it does not wait for, an iterative solver whose run defines its while_loop's functions again on
every call, so each run from the user's loop traces and compiles the loop again, and an evaluation
step that donates the model state and gives it back, while the evaluation loop keeps passing the
old state (JNP603, JNP602, JNP605)."""
import time
from functools import partial

import jax
import jax.numpy as jnp


def f(x):
    return jnp.cos(2 * x**2) + jnp.sqrt(jnp.abs(x)) + 2 * jnp.sin(x**4) - 0.1 * x**2


# https://github.com/QuantEcon/lecture-python-programming/pull/237
# The JAX lecture times the jitted function right after compiling it; the call returns once the
# work is dispatched, so the measured time leaves the computation out (the review added
# block_until_ready).
def case_jitted_function_timed_without_waiting():
    f_jit = jax.jit(f)
    x = jnp.linspace(0.0, 10.0, 1_000_000)
    f_jit(x)
    start = time.time()
    y = f_jit(x)
    elapsed = time.time() - start  # reported: JNP603
    return y, elapsed


def case_ok_jitted_function_timed_until_ready():
    f_jit = jax.jit(f)
    x = jnp.linspace(0.0, 10.0, 1_000_000)
    f_jit(x).block_until_ready()
    start = time.time()
    y = f_jit(x).block_until_ready()
    elapsed = time.time() - start
    return y, elapsed


# https://github.com/google/jaxopt/pull/113
# IterativeSolver._run defined cond_fun and body_fun on every call and handed them to
# lax.while_loop; run outside jit, each call of run gave while_loop new functions, so the loop was
# traced again every time.
class GradientDescent:
    def __init__(self, fun, stepsize=0.1, maxiter=100, tol=1e-4):
        self.fun = fun
        self.stepsize = stepsize
        self.maxiter = maxiter
        self.tol = tol

    def update(self, params, state):
        grad = jax.grad(self.fun)(params)
        return params - self.stepsize * grad, (state[0] + 1, jnp.linalg.norm(grad))

    def _run(self, init_params):
        def cond_fun(carry):
            _, (iter_num, error) = carry
            return (iter_num < self.maxiter) & (error > self.tol)

        def body_fun(carry):
            return self.update(*carry)

        state = (jnp.asarray(0), jnp.asarray(jnp.inf))
        return jax.lax.while_loop(cond_fun, body_fun, (init_params, state))  # reported: JNP602

    def run(self, init_params):
        return self._run(init_params)


def ridge_objective(params):
    return jnp.sum((params - 1.0) ** 2) + 0.1 * jnp.sum(params**2)


def case_solver_loop_rebuilt_on_every_run():
    solver = GradientDescent(ridge_objective)
    params = jnp.zeros(4)
    for _ in range(10):
        params, _ = solver.run(params + 0.5)
    return params


def case_ok_solver_run_jitted_once():
    solver = GradientDescent(ridge_objective)
    run = jax.jit(solver.run)
    params = jnp.zeros(4)
    for _ in range(10):
        params, _ = run(params + 0.5)
    return params


def apply_model(states, x):
    hidden = jnp.tanh(x @ states["w1"])
    return hidden @ states["w2"], states


def cross_entropy(logits, labels):
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * labels, axis=-1))


# https://github.com/poets-ai/elegy/pull/226
# Donating the model's buffers to every step function broke the MNIST example: the test step gives
# the states back, so their buffers go to its outputs, but evaluation passes the same states to the
# next batch, and JAX raises on the deleted buffers.
@partial(jax.jit, donate_argnums=0)
def test_step(states, x, labels):
    logits, states = apply_model(states, x)
    return cross_entropy(logits, labels), states


def case_evaluation_passes_the_donated_states_again():
    states = {"w1": jnp.full((4, 8), 0.1), "w2": jnp.full((8, 3), 0.1)}
    batches = [(jnp.ones((2, 4)) * i, jax.nn.one_hot(jnp.array([0, 1]), 3)) for i in range(3)]
    losses = []
    for x, labels in batches:
        loss, _ = test_step(states, x, labels)  # reported: JNP605
        losses.append(loss)
    return losses


def case_ok_evaluation_keeps_the_returned_states():
    states = {"w1": jnp.full((4, 8), 0.1), "w2": jnp.full((8, 3), 0.1)}
    batches = [(jnp.ones((2, 4)) * i, jax.nn.one_hot(jnp.array([0, 1]), 3)) for i in range(3)]
    losses = []
    for x, labels in batches:
        loss, states = test_step(states, x, labels)
        losses.append(loss)
    return losses
