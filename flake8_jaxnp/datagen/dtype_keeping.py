"""Which JAX functions give back their one argument's floating dtype (``jnp.tanh``, ``jax.nn.relu``),
learned by calling them: the model then keeps a bfloat16 activation bfloat16 through them."""
from ..facts import JAX_ARRAY_MODULES, KEPT_FLOATS
from .tables import quiet


def dtype_keeping_functions(resolve, public):
    """Sorted qualified names of the functions of JAX's array modules that, called with one
    floating array of each dtype in ``KEPT_FLOATS``, return an array of that dtype and shape."""
    import jax.numpy as jnp

    inputs = [jnp.asarray([0.25, 0.5, 0.75], dtype=dtype) for dtype in KEPT_FLOATS]
    found = []
    for modname in JAX_ARRAY_MODULES:
        module = resolve(modname)
        for name in public(module) if module is not None else ():
            func = quiet(getattr, module, name)
            if callable(func) and not isinstance(func, type) and all(_keeps(func, x) for x in inputs):
                found.append(f"{modname}.{name}")
    return sorted(found)


def _keeps(func, x):
    try:
        result = quiet(func, x)
    except Exception:  # noqa: BLE001 - a function that needs other arguments keeps nothing here
        return False
    return getattr(result, "dtype", None) == x.dtype and getattr(result, "shape", None) == x.shape \
        and result is not x
