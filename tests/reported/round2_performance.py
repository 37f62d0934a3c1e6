"""Second round, held out: recompilation, timing and trace-time side effects
(JNP102, JNP303, JNP602, JNP603)."""
import functools
import time

import jax
import jax.numpy as jnp
from jax import jit, lax


# https://github.com/jax-ml/jax/issues/9288
# The tutorial's "don't do this" loop, with a lambda: a new function object, so a new
# compilation, on every iteration. The loop's test also reads the jitted result back to the host
# on every iteration (the runtime mode counts 3 device-to-host copies by bool()).
def unjitted_loop_body(prev_i):
    return prev_i + 1


def g_inner_jitted_poorly(x, n):
    i = 0
    while i < n:  # reported: JNP102
        i = jax.jit(lambda x: unjitted_loop_body(x))(i)  # reported: JNP602
    return x + i


def case_jit_of_lambda_in_while_loop():
    return g_inner_jitted_poorly(10, 3)


def g_inner_jitted_once(x, n):
    body = jax.jit(unjitted_loop_body)
    i = 0
    for _ in range(n):
        i = body(i)
    return x + i


def case_ok_jit_once_before_loop():
    return g_inner_jitted_once(10, 3)


# https://github.com/jax-ml/jax/issues/2251
# A jitted helper defined inside the function that a benchmark calls over and over: each
# call makes a new function, so each call compiles.
def infect(state, step):
    return state * 1.01 + step, state


def pandemic_scan(state, step=1, t=0, T=5):
    @functools.partial(jit, static_argnums=(1, 2, 3))
    def _pandemic_scan(state, step, t, T):
        return lax.scan(infect, state, jnp.full(T, step))

    return _pandemic_scan(state, step, t, T)  # reported: JNP602


def case_jitted_helper_defined_per_call():
    for _ in range(7):
        out = pandemic_scan(jnp.ones(3), T=5)
    return out


@functools.partial(jit, static_argnums=(1, 2, 3))
def _pandemic_scan_once(state, step, t, T):
    return lax.scan(infect, state, jnp.full(T, step))


def pandemic_scan_once(state, step=1, t=0, T=5):
    return _pandemic_scan_once(state, step, t, T)


def case_ok_jitted_helper_defined_once():
    for _ in range(7):
        out = pandemic_scan_once(jnp.ones(3), T=5)
    return out


# https://github.com/energnn/energnn/pull/75
# A trainer that builds its jitted forward+gradient inside every training step.
def _loss(params, batch):
    return jnp.mean((batch @ params) ** 2)


class Trainer:
    def __init__(self, params):
        self.params = params

    def training_step(self, batch):
        step_fn = jax.jit(jax.value_and_grad(_loss))  # reported: JNP602
        loss, grads = step_fn(self.params, batch)
        self.params = self.params - 0.01 * grads
        return loss


def case_jit_built_in_every_training_step():
    trainer = Trainer(jnp.ones(4))
    for _ in range(10):
        trainer.training_step(jnp.ones((8, 4)))


class CachedTrainer:
    def __init__(self, params):
        self.params = params
        self.step_fn = jax.jit(jax.value_and_grad(_loss))

    def training_step(self, batch):
        loss, grads = self.step_fn(self.params, batch)
        self.params = self.params - 0.01 * grads
        return loss


def case_ok_jit_built_once_in_init():
    trainer = CachedTrainer(jnp.ones(4))
    for _ in range(10):
        trainer.training_step(jnp.ones((8, 4)))


# https://github.com/pyro-ppl/numpyro/issues/2
# minipyro's SVI step: the jitted loss-and-gradient is a nested def made on every step.
class SVI:
    def __init__(self, params):
        self.params = params

    def step(self, data):
        @jit
        def loss_and_grads(params):
            return jax.value_and_grad(lambda p: jnp.sum((data - p) ** 2))(params)

        loss, grads = loss_and_grads(self.params)  # reported: JNP602
        self.params = self.params - 0.1 * grads
        return loss


def case_nested_jitted_def_per_step():
    svi = SVI(jnp.zeros(3))
    for _ in range(10):
        svi.step(jnp.ones(3))


@jit
def _svi_loss_and_grads(params, data):
    return jax.value_and_grad(lambda p: jnp.sum((data - p) ** 2))(params)


class CachedSVI:
    def __init__(self, params):
        self.params = params

    def step(self, data):
        loss, grads = _svi_loss_and_grads(self.params, data)
        self.params = self.params - 0.1 * grads
        return loss


def case_ok_jitted_function_shared_by_steps():
    svi = CachedSVI(jnp.zeros(3))
    for _ in range(10):
        svi.step(jnp.ones(3))


# https://github.com/gchq/coreax/issues/470
# The test helper that times a jitted function's first and second call without waiting
# for either result.
def jit_test(fn, *args, **kwargs):
    start_time = time.time()
    fn(*args, **kwargs)
    end_time = time.time()  # reported: JNP603
    pre_delta = end_time - start_time
    start_time = time.time()
    fn(*args, **kwargs)
    end_time = time.time()  # reported: JNP603
    post_delta = end_time - start_time
    return pre_delta, post_delta


def case_jit_test_without_blocking():
    return jit_test(jax.jit(jnp.cumsum), jnp.ones(1000))


def jit_test_blocking(fn, *args, **kwargs):
    start_time = time.time()
    jax.block_until_ready(fn(*args, **kwargs))
    end_time = time.time()
    pre_delta = end_time - start_time
    start_time = time.time()
    jax.block_until_ready(fn(*args, **kwargs))
    end_time = time.time()
    post_delta = end_time - start_time
    return pre_delta, post_delta


def case_ok_jit_test_blocking():
    return jit_test_blocking(jax.jit(jnp.cumsum), jnp.ones(1000))


# https://github.com/jax-ml/jax/issues/1988
# Timing a jitted function in a loop of repeats, without block_until_ready.
@jax.jit
def foo_jit(x):
    return jnp.dot(x, x.T).sum()


def case_repeat_timing_without_blocking():
    times = []
    for i in range(5):
        t0 = time.perf_counter()
        foo_jit(jnp.ones((500, 500)))
        times.append(time.perf_counter() - t0)  # reported: JNP603
    return times


def case_ok_repeat_timing_blocking():
    times = []
    for i in range(5):
        t0 = time.perf_counter()
        foo_jit(jnp.ones((500, 500))).block_until_ready()
        times.append(time.perf_counter() - t0)
    return times


# https://github.com/jax-ml/jax/issues/1708
# A counter in a list incremented inside a lax.while_loop body: the body is traced once.
def case_counter_in_while_loop_body():
    def body_fun(val):
        u[0] += 1  # reported: JNP303
        return val + 1

    def cond_fun(j):
        return j < 10

    u = [0]
    lax.while_loop(cond_fun, body_fun, 0)
    return u


def case_ok_counter_in_loop_carry():
    def body_fun(carry):
        val, count = carry
        return val + 1, count + 1

    def cond_fun(carry):
        return carry[0] < 10

    _, count = lax.while_loop(cond_fun, body_fun, (0, 0))
    return count


# https://github.com/jax-ml/jax/issues/18910
# A jitted function that adds a field to the pytree object it was given.
@jax.tree_util.register_pytree_node_class
class CPT:
    def __init__(self, a, b):
        self.a = a
        self.b = b

    def tree_flatten(self):
        return (self.a, self.b), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


@jax.jit
def f_cpt(x, y, cpt):
    cpt.c = cpt.a * x + cpt.b * y  # reported: JNP303
    return jnp.sum(cpt.c)


def case_attribute_added_to_argument_in_jit():
    cpt = CPT(a=jnp.full(3, 2.0), b=jnp.full(3, 3.0))
    result = f_cpt(0.5, jnp.full(3, 4.0), cpt)
    return result, hasattr(cpt, "c")


@jax.jit
def f_cpt_pure(x, y, cpt):
    c = cpt.a * x + cpt.b * y
    return jnp.sum(c), c


def case_ok_value_returned_instead():
    cpt = CPT(a=jnp.full(3, 2.0), b=jnp.full(3, 3.0))
    return f_cpt_pure(0.5, jnp.full(3, 4.0), cpt)


# https://github.com/tillahoffmann/jax-mps/pull/180
# A ResNet training loop reading the loss with .item() on every step, so the host waits
# for each step before it can dispatch the next.
@jax.jit
def train_step(params, batch):
    loss, grads = jax.value_and_grad(lambda p: jnp.mean((batch @ p) ** 2))(params)
    return params - 0.01 * grads, loss


def case_loss_item_every_step():
    params = jnp.ones(4)
    losses = []
    for step in range(50):
        params, loss = train_step(params, jnp.ones((8, 4)))
        losses.append(loss.item())  # reported: JNP102
    return losses


def case_ok_loss_kept_on_device():
    params = jnp.ones(4)
    losses = []
    for step in range(50):
        params, loss = train_step(params, jnp.ones((8, 4)))
        losses.append(loss)
    return [float(v) for v in jax.device_get(losses)]
