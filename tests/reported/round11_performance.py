"""Eleventh round, held out: five calls of a jitted array builder timed around the call alone, and
a jitted waveform generator called on frequency grids of a new length every time (JNP603,
JNP602)."""
import time

import jax
import jax.numpy as jnp


# https://github.com/jax-ml/jax/issues/21065
# A jitted main() fills a (300, N) array row by row, interpolating on a linspace grid; the user
# times five calls with time.time() around the call only, so each figure is the dispatch of the
# work, not the work, until the maintainers wrap the call in jax.block_until_ready.
@jax.jit
def main():
    x = jnp.linspace(0.0, 1.0, 4000)
    y = jnp.sin(10.0 * x)

    def body(i, out):
        return out.at[i].set(jnp.interp(x + i / 300.0, x, y))

    return jax.lax.fori_loop(0, 300, body, jnp.zeros((300, 4000)))


def case_jitted_calls_timed_without_blocking():
    for i in range(5):
        s = time.time()
        B = main()
        print(time.time() - s)  # reported: JNP603
    return B


def case_ok_jitted_calls_timed_until_ready():
    for i in range(5):
        s = time.time()
        B = jax.block_until_ready(main())
        print(time.time() - s)
    return B


# https://github.com/tedwards2412/ripple/issues/4
# The waveform generator is jitted by default; a heterodyned likelihood evaluates it on frequency
# grids whose length changes from one evaluation to the next, and every new length is a new
# compilation.
@jax.jit
def gen_IMRPhenomD_polar(f, theta):
    mc, eta = theta[0], theta[1]
    amp = mc ** (5.0 / 6.0) * f ** (-7.0 / 6.0)
    phase = 2.0 * jnp.pi * f * eta
    return amp * jnp.cos(phase), amp * jnp.sin(phase)


def case_waveform_compiled_again_for_every_grid_length():
    theta = jnp.array([30.0, 0.25])
    likelihoods = []
    for n_bins in (64, 96, 128, 160):
        freqs = jnp.linspace(20.0, 1024.0, n_bins)
        hp, hc = gen_IMRPhenomD_polar(freqs, theta)  # reported: JNP602
        likelihoods.append(jnp.sum(hp**2 + hc**2))
    return likelihoods


def case_ok_waveform_on_grids_of_one_length():
    theta = jnp.array([30.0, 0.25])
    likelihoods = []
    for f_max in (512.0, 768.0, 1024.0, 2048.0):
        freqs = jnp.linspace(20.0, f_max, 160)
        hp, hc = gen_IMRPhenomD_polar(freqs, theta)
        likelihoods.append(jnp.sum(hp**2 + hc**2))
    return likelihoods
