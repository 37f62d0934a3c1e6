"""What the runtime mode's transfer and donation probes rely on, asked of the backend JAX picks.

    python scripts/accelerator_probes.py

Run on a GPU or TPU (docs/runtime.md, "What the TPU showed"): which conversions the transfer guard
sees at each level, whether JAX keeps an array's host copy after a first conversion, and what a
jitted call says when it is given a donated buffer again. On the CPU no device-to-host guard fires.
"""
import jax
import jax.numpy as jnp
import numpy as np


def guarded(what, call, level="disallow", guard=jax.transfer_guard_device_to_host):
    try:
        with guard(level):
            call()
        print(f"- {what} under {level}: no transfer seen")
    except Exception as exc:  # noqa: BLE001 - the guard's error type differs between versions
        print(f"- {what} under {level}: {type(exc).__name__}: {str(exc).splitlines()[0][:120]}")


def main():
    print(jax.__version__, jax.default_backend(), jax.devices()[0].device_kind)
    pair, shown, raw = (jax.random.split(jax.random.PRNGKey(0)), jnp.arange(3.0) * 3,
                        jax.random.key_data(jax.random.key(1)))
    fetched = {level: jnp.arange(3.0) * 2 for level in ("disallow", "disallow_explicit")}  # one each:
    host = np.ones(3, np.float32)  # a fetched array keeps its host copy and is not fetched again
    jax.block_until_ready((pair, shown, raw, fetched))
    guarded("unpacking split(key)", lambda: tuple(pair))
    for level in ("disallow", "disallow_explicit"):
        guarded("jax.device_get", lambda: jax.device_get(fetched[level]), level)
        guarded("jax.device_put of NumPy data", lambda: jax.device_put(host), level,
                jax.transfer_guard_host_to_device)
    guarded("np.asarray of a key's data", lambda: np.asarray(raw))
    guarded("an f-string of a fresh array", lambda: f"{shown}")
    loss = jnp.arange(3.0).sum()
    float(loss)
    print(f"- after float(loss), JAX holds its host copy: {getattr(loss, '_npy_value', None) is not None}")
    guarded("an f-string of loss after float(loss)", lambda: f"{loss}")

    step = jax.jit(lambda params, grads: params - 0.1 * grads, donate_argnums=0)
    params, grads = jnp.ones(3), jnp.ones(3)
    step(params, grads)
    try:
        step(params, grads)  # noqa: JNP605 - what the backend says to a donated buffer is the question
        print("- a donated buffer passed again: no error")
    except Exception as exc:  # noqa: BLE001 - the backend's own error type
        print(f"- a donated buffer passed again: {type(exc).__name__}: {str(exc).splitlines()[0]}")


if __name__ == "__main__":
    main()
