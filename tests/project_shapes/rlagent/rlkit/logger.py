"""A metric logger: host history, a running window of returns on the device, TD summaries."""
from collections import defaultdict

import jax
import jax.numpy as jnp


def td_summary(td, done):
    # project shape (not a thread): the TD errors of terminal transitions, a data-dependent shape
    terminal_td = td[done > 0.5]  # reported: JNP203
    return {"td_abs": jnp.abs(td).mean(), "td_terminal": jnp.abs(terminal_td).mean()}


def td_summary_where(td, done):
    terminal = done > 0.5
    count = jnp.maximum(terminal.sum(), 1).astype(td.dtype)
    return {"td_abs": jnp.abs(td).mean(), "td_terminal": jnp.where(terminal, jnp.abs(td), 0.0).sum() / count}


class Logger:
    def __init__(self, window=20, terminal_td=False, precise=False):
        self.history = defaultdict(list)
        self.episode_returns = []
        if precise:
            # project shape (not a thread): a float64 window while x64 is off (float32 and a warning)
            self.recent = jnp.zeros(window, dtype=jnp.float64)  # reported: JNP402
        else:
            self.recent = jnp.zeros(window, dtype=jnp.float32)
        self.summary = jax.jit(td_summary if terminal_td else td_summary_where)

    def log(self, step, **scalars):
        for name, value in scalars.items():
            self.history[name].append((step, value))

    def log_return(self, value):
        self.episode_returns.append(value)
        self.recent = jnp.roll(self.recent, 1).at[0].set(value)

    def mean_return(self):
        # project shape (not a thread): the mean of a Python list of returns
        return float(jnp.mean(self.episode_returns))  # reported: JNP505

    def mean_return_array(self):
        return float(jnp.mean(jnp.asarray(self.episode_returns)))
