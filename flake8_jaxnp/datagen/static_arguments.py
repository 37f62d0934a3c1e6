"""Which arguments of jax.numpy, jax.lax and jax.nn functions and jax.random samplers must be
concrete under a trace (a shape, a hashed static parameter): part of the generator, measured by
calling each function with a concrete int and a traced one at every position."""
import inspect

from .tables import quiet


def shape_arguments(array_functions, data_sized, resolve, samplers=()):
    """{qualname: [positions]}: arguments of jax.numpy, jax.lax and jax.nn functions and
    jax.random samplers that must be concrete.

    A function is called with small Python ints after what it takes first: nothing, a vector or a
    square matrix (jax.numpy, jax.lax, jax.nn: ``lax.full((n, 3), 0.0)``, ``matrix_power(m, n)``), a key
    (a sampler). A position counts when a traced int there fails, whatever the error, and either
    another int there (or a one-element tuple, for a shape given as a tuple) changes the shapes of the
    result or JAX failed to hash the tracer (a hashed static parameter): the concrete int worked,
    so the value must be concrete (``jnp.zeros(n)``, ``jnp.split(x, n)``, ``jax.random.normal(key,
    (n,))``; ``jnp.tile(x, n)`` fails with a TypeError, its reps being a hashed parameter), unless
    a traced array there works (``permutation(key, x)`` shuffles an array, ``histogram(a, bins)`` takes
    edges). ``data_sized`` functions are left out: staged, they fail whatever they are given (``jnp.unique``
    without ``size=``), their need being the data's, which JNP203 reports.
    """
    import jax
    import jax.numpy as jnp

    leads = {**{name: [(), (jnp.ones(6),), (jnp.eye(3),)] for name in array_functions},
             **{name: [(jax.random.key(0),)] for name in samplers}}
    found = {}
    for qualname, starts in leads.items():
        func = resolve(qualname)
        if qualname in data_sized or not callable(func) or inspect.isclass(func):
            continue
        positions = set()
        for lead in starts:
            for count in range(1, 5):
                positions |= {len(lead) + index for index in _concrete_positions(func, lead, [1, 5, 2, 2][:count])}
        if positions:
            found[qualname] = sorted(positions)
    return found


def _concrete_positions(func, lead, plain):
    """The indices into ``plain`` where ``func(*lead, *plain)`` needs a concrete int (see shape_arguments)."""
    import jax

    def shapes(call, value):
        return jax.tree.map(lambda out: out.shape, quiet(jax.eval_shape, lambda: call(value)))

    positions = set()
    for index in range(len(plain)):
        for wrap in (lambda value: value, lambda value: (value,)):
            def call(value, _index=index, _wrap=wrap):
                return func(*lead, *plain[:_index], _wrap(value), *plain[_index + 1:])
            try:
                reshapes = shapes(call, plain[index]) != shapes(call, plain[index] * 2 + 1)
            except Exception:  # noqa: BLE001 - not this signature
                continue
            try:
                quiet(jax.make_jaxpr(call), 3)
            except Exception as error:  # noqa: BLE001 - only the int's concreteness changed
                if (reshapes or _hashed(error)) and not _takes_traced_array(call):
                    positions.add(index)
    return positions


def _hashed(error):
    """Whether ``error`` (or an error that caused it) is JAX refusing to hash a tracer: the value
    is a hashed static parameter (``matrix_power``'s exponent), however little it changes."""
    while error is not None:
        if "hashab" in str(error):
            return True
        error = error.__cause__ or error.__context__
    return False


def _takes_traced_array(call):
    """Whether a traced array works there: a vector, or a matrix (``histogramdd(sample, bins)`` takes
    one row of edges per dimension of its square sample)."""
    import jax
    import jax.numpy as jnp

    for array in (jnp.arange(3.0), jnp.arange(9.0).reshape(3, 3)):
        try:
            quiet(jax.make_jaxpr(call), array)
        except Exception:  # noqa: BLE001 - it needs a concrete value there
            continue
        return True
    return False
