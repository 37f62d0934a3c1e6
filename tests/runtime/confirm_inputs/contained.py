"""Runtime-confirmation inputs: cases that hang, crash or run out of memory, between ordinary ones."""
import os
import signal

import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    print("tracing", x)  # JNP301, confirmed by case_after_hang
    return x + 1


def case_hang():
    while True:
        pass


def case_after_hang():
    for _ in range(3):
        step(jnp.ones(2))


def case_segfault():
    os.kill(os.getpid(), signal.SIGSEGV)


def case_exit():
    os._exit(3)


def case_out_of_memory():
    return bytearray(2 << 30)  # more than the 1 GiB the test allows with --memory-limit 1
