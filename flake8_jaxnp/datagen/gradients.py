"""Part of the generator: the nan gradients that ``jnp.where`` does not stop, beyond the
elementwise functions ``generate`` probes one argument at a time. Each entry is measured
by differentiating ``jnp.where(<discard>, f(...), 0.0)`` on the installed JAX."""

# Functions of a whole array whose slope is infinite where the array is zero (a norm's
# sqrt(sum(x**2))), measured on the zero vector.
ARRAY_CANDIDATES = ("linalg.norm", "linalg.vector_norm")


def unsafe_at_zero_vector(resolve):
    """jax.numpy function -> [0] for the ``ARRAY_CANDIDATES`` whose gradient is nan at the zero
    vector even when ``jnp.where`` discards their value there."""
    import jax
    import jax.numpy as jnp

    unsafe = {}
    for name in ARRAY_CANDIDATES:
        func = resolve(f"jax.numpy.{name}")
        if func is None:
            continue
        gradient = jax.grad(lambda x, func=func: jnp.where(jnp.all(x == 0), 0.0, func(x)))(jnp.zeros(3))
        if bool(jnp.isnan(gradient).any()):
            unsafe[f"jax.numpy.{name}"] = [0]
    return unsafe


def _ufuncs(public, inputs, already_unsafe):
    """(qualname, function) for the jax.numpy namesakes of NumPy's ufuncs of ``inputs`` arguments and
    one result, leaving out those ``already_unsafe``."""
    import jax.numpy as jnp
    import numpy as np

    for name in public(jnp):
        ufunc = getattr(np, name, None)
        qualname = f"jax.numpy.{name}"
        if isinstance(ufunc, np.ufunc) and ufunc.nin == inputs and ufunc.nout == 1 and qualname not in already_unsafe:
            yield qualname, getattr(jnp, name)


def unsafe_jointly(public, already_unsafe):
    """jax.numpy binary ufuncs (NumPy's namesakes) -> [0, 1] when the gradient is nan only where
    both arguments are zero (``arctan2``), not where one is: only a condition that tests both
    inputs discards that point."""
    import jax
    import jax.numpy as jnp

    jointly = {}
    with jax.disable_jit():
        for qualname, func in _ufuncs(public, 2, already_unsafe):
            def discarded(x, y, func=func):
                return jnp.where((x == 0) & (y == 0), 0.0, func(x, y))
            try:
                gradients = jax.grad(discarded, argnums=(0, 1))(jnp.float32(0.0), jnp.float32(0.0))
            except Exception:  # noqa: BLE001 - not differentiable on floats: not this rule's concern
                continue
            if bool(jnp.isnan(jnp.stack(gradients)).any()):
                jointly[qualname] = [0, 1]
    return jointly


def unsafe_for_other_arguments(where_unsafe, points):
    """jax.numpy binary ufunc -> the argument positions whose gradient is nan too where an unsafe
    argument (``where_unsafe``) is at one of ``points`` and ``jnp.where`` discards the value there:
    ``divide(a, b)``'s slope in ``a`` is ``1/b``, infinite where ``b`` is zero."""
    import jax
    import jax.numpy as jnp

    found = {}
    with jax.disable_jit():
        for qualname, positions in sorted(where_unsafe.items()):
            func = getattr(jnp, qualname.rpartition(".")[2], None)
            if qualname.count(".") != 2 or func is None:
                continue
            for unsafe in positions:
                for other in {0, 1} - {unsafe}:
                    def discarded(y, x, func=func, unsafe=unsafe, other=other):
                        args = [None, None]
                        args[unsafe], args[other] = x, y
                        return jnp.where(x > 100.0, func(*args), 0.0)
                    try:
                        gradients = jax.vmap(jax.grad(discarded), in_axes=(None, 0))(
                            jnp.float32(1.0), jnp.array(points, jnp.float32))
                    except Exception:  # noqa: BLE001 - not a function of two arrays
                        continue
                    if bool(jnp.isnan(gradients).any()):
                        found.setdefault(qualname, []).append(other)
    return found


# How large an argument the overflow probe passes: exp overflows float32 from 88.7 on, and a
# time difference over a time constant, or a logit, reaches that.
OVERFLOW_PROBE = 1000.0


def overflowing(public, already_unsafe):
    """jax.numpy unary ufuncs (NumPy's namesakes) -> the directions (+1, -1) in which a large argument
    (``OVERFLOW_PROBE``) gives a nan gradient when ``jnp.where`` discards the value, finite near zero."""
    import jax
    import jax.numpy as jnp

    found = {}
    with jax.disable_jit():
        for qualname, func in _ufuncs(public, 1, already_unsafe):
            def discarded(x, func=func):
                return jnp.where(jnp.abs(x) < 1.0, func(x), 0.0)
            try:
                points = jnp.array([-OVERFLOW_PROBE, OVERFLOW_PROBE, 0.5], jnp.float32)
                gradients = jax.vmap(jax.grad(discarded))(points)
            except Exception:  # noqa: BLE001 - not differentiable on floats: not this rule's concern
                continue
            below, above, near_zero = jnp.isnan(gradients).tolist()
            if (below or above) and not near_zero:
                found[qualname] = [-1] * below + [1] * above
    return found


def forward_transforms(transforms, resolve):
    """The differentiating transforms (neither abstract nor cached) under which the nan slope of a
    branch ``jnp.where`` discards does not reach the result: forward mode (``jacfwd``) selects the
    tangents as it selects the values, where reverse mode multiplies a zero cotangent by inf."""
    import jax
    import jax.numpy as jnp

    def discarded(x):
        return jnp.where(x > 0.0, jnp.log(x), 0.0)

    found = []
    for name, measured in transforms.items():
        if measured["abstract"] or measured["cached"]:
            continue
        try:
            result = _derivative(resolve(name), measured["arguments"], discarded, jnp.float32(0.0))
        except Exception:  # noqa: BLE001 - not a transform of this shape
            continue
        if not bool(jnp.isnan(jnp.stack(jax.tree.leaves(result))).any()):
            found.append(name)
    return sorted(found)


def _derivative(transform, arguments, func, x):
    """What ``transform`` gives as ``func``'s derivative at ``x``, given the arguments the way it
    takes them (``transforms.CALL_SHAPES``): ``jax.jvp``'s tangent out, and what the function that
    ``jax.vjp`` or ``jax.linearize`` returns gives for a cotangent or tangent of one."""
    import jax.numpy as jnp

    if arguments == "later":
        return transform(func)(x)
    if arguments == "tuple":
        return transform(func, (x,), (jnp.ones_like(x),))[1]
    out, derivative = transform(func, x)[:2]
    return derivative(jnp.ones_like(out))
