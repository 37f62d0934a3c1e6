"""Sample continuations from a briefly trained model: `python scripts/sample.py [--temperatures 0.5 1.0]`."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import equinox as eqx  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from lmkit import TrainConfig, build_model, with_size  # noqa: E402
from lmkit.generate import Sampler, greedy, greedy_ok, make_sample_fn, make_sample_fn_ok, prompt_window  # noqa: E402

CFG = with_size(TrainConfig(), "nano")
PROMPT = [3, 5, 7, 9]


def load_model(cfg=CFG):
    return build_model(cfg.model, jax.random.key(cfg.seed))


def sample_temperatures(temperatures=(0.5, 1.0, 2.0), n_new=6):
    sampler = Sampler(load_model(), CFG.model.seq_len)
    samples = {}
    for temperature in temperatures:
        # project shape (not a thread): the temperature set on a sampler whose step was jitted in __init__
        sampler.temperature = temperature  # reported: JNP306
        samples[temperature] = sampler.generate(PROMPT, n_new, jax.random.key(0))
    return samples


def sample_temperatures_ok(temperatures=(0.5, 1.0, 2.0), n_new=6):
    model = load_model()
    return {t: Sampler(model, CFG.model.seq_len, temperature=t).generate(PROMPT, n_new, jax.random.key(0))
            for t in temperatures}


def sample_with(make_fn, temperature, n_new=6):
    params, static = eqx.partition(load_model(), eqx.is_inexact_array)
    sample_token = make_fn(static)
    window, key = prompt_window(PROMPT, CFG.model.seq_len), jax.random.key(1)
    for pos in range(len(PROMPT) - 1, len(PROMPT) - 1 + n_new):
        key, sub = jax.random.split(key)
        window = window.at[pos + 1].set(sample_token(params, window, pos, sub, temperature))
    return window


def logits_by_position(n_new=6):
    model = load_model()
    window = prompt_window(PROMPT, CFG.model.seq_len)
    rows = []
    for pos in range(len(PROMPT) - 1, len(PROMPT) - 1 + n_new):
        # project shape (not a thread): a new function jitted for every position
        logits = eqx.filter_jit(lambda m, w: m(w))(model, window)  # reported: JNP602
        rows.append(logits[pos])
        window = window.at[pos + 1].set(jnp.argmax(logits[pos]))
    return jnp.stack(rows)


def logits_by_position_ok(n_new=6):
    model = load_model()
    forward = eqx.filter_jit(lambda m, w: m(w))
    window = prompt_window(PROMPT, CFG.model.seq_len)
    rows = []
    for pos in range(len(PROMPT) - 1, len(PROMPT) - 1 + n_new):
        logits = forward(model, window)
        rows.append(logits[pos])
        window = window.at[pos + 1].set(jnp.argmax(logits[pos]))
    return jnp.stack(rows)


def case_temperatures():
    return sample_temperatures()


def case_ok_temperatures_each_sampler():
    return sample_temperatures_ok()


def case_greedy_by_temperature():
    return sample_with(make_sample_fn, jnp.float32(0.0))


def case_ok_greedy_by_where():
    return sample_with(make_sample_fn_ok, jnp.float32(0.0))


def case_greedy_inplace():
    return greedy(load_model(), PROMPT, 4, CFG.model.seq_len)


def case_ok_greedy_at():
    return greedy_ok(load_model(), PROMPT, 4, CFG.model.seq_len)


def case_logits_by_position():
    return logits_by_position()


def case_ok_logits_by_position_once():
    return logits_by_position_ok()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--temperatures", type=float, nargs="+", default=[0.5, 1.0])
    for t, tokens in sample_temperatures_ok(parser.parse_args().temperatures).items():
        print(t, tokens.tolist())
