"""Attack: cases with default or variadic parameters are callable with no arguments, so they run."""
import functools

import jax.numpy as jnp


def case_with_defaults(steps=4):
    total = 0.0
    for step in range(steps):
        total += float(jnp.ones(()) * step)  # JNP102, confirmed by case_with_defaults
    return total


def case_variadic(*args, **kwargs):
    for _ in range(len(args) + 3):  # not a literal range: a literal one of five steps or fewer is a demo loop
        print(jnp.arange(2))  # JNP103, confirmed by case_variadic


def _needs_an_argument(x):
    return x


case_partial = functools.partial(_needs_an_argument, 1)  # callable with no arguments: a case


def case_needs_argument(x):  # not callable without arguments: not a case
    return x
