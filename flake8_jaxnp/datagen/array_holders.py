"""Measure what a framework Module's code reads back as an array of the trace when the Module runs
under its framework's jit: the NNX classes whose instance, a Module's field, reads back a tracer
(``array_holders``), and the Linen Module methods that, called on ``self`` in a method of a Module
applied by ``jax.jit(model.apply)``, give a tracer or a holder whose ``.value`` is one
(``traced_self_methods``)."""
import inspect
import sys

# Linen Module methods that declare a Module's state, each with the arguments a probe calls it with
# (an initial value given as a Python scalar, as counters are): candidates; what they give is measured.
LINEN_STATE_METHODS = {
    "param": ("w", lambda key: 1.0),
    "variable": ("counters", "calls", lambda: 0),
}


def defined_as(obj):
    """The dotted name where ``obj`` is defined."""
    return f"{obj.__module__}.{obj.__qualname__}"


def built_probe(cls, *args):
    """``cls(*args)``, built to be probed; a setting in force once built (``nnx.set_graph_mode``) is
    exited and refused (TypeError): left so, every later ``nnx.jit`` fails."""
    built = cls(*args)
    if hasattr(built, "__exit__"):
        with built:
            raise TypeError(f"{cls.__name__} is a setting, not probed")
    return built


def array_holders(name, base):
    """The classes of NNX's namespace (``nnx.Param``, ``nnx.Variable``) whose instance, built around an
    array as a field of a Module given to ``nnx.jit``, reads back a tracer by ``.value`` and ``[...]``."""
    import jax
    import jax.numpy as jnp

    namespace, found = sys.modules[name.rsplit(".", 1)[0]], set()
    for attr in dir(namespace):
        holder, seen = getattr(namespace, attr), []
        if attr.startswith("_") or not inspect.isclass(holder) or issubclass(holder, base):
            continue
        try:
            held = built_probe(holder, jnp.ones(3))
            probe = type("Probe", (base,), {"__init__": lambda self, h=held: setattr(self, "held", h)})()
            namespace.jit(lambda m: seen.append(all(isinstance(v, jax.core.Tracer)
                                                    for v in (m.held.value, m.held[...]))))(probe)
        except Exception:  # noqa: BLE001 - not built around an array, or not readable so
            continue
        if seen and seen[0]:
            found |= {f"{name.rsplit('.', 1)[0]}.{attr}", defined_as(holder)}
    return sorted(found)


def traced_self_methods(base, compact):
    """{method: "array" | "holder"} for the ``LINEN_STATE_METHODS`` that, called on ``self`` in a
    compact ``__call__`` of a subclass of ``base`` applied by ``jax.jit(model.apply)`` to the variables
    its ``init`` gave, give a tracer (``self.param``) or an object whose ``.value`` is one
    (``self.variable``: a mutable counter is the trace's array, not the Python value it began as)."""
    import jax
    import jax.numpy as jnp

    found = {}

    class Probe(base):
        @compact
        def __call__(self, a):
            for method, args in LINEN_STATE_METHODS.items():
                given = getattr(self, method)(*args)
                if isinstance(given, jax.core.Tracer):
                    found[method] = "array"
                elif isinstance(getattr(given, "value", None), jax.core.Tracer):
                    found[method] = "holder"
            return a

    variables = Probe().init(jax.random.key(0), jnp.ones(3))
    found.clear()  # init ran __call__ eagerly
    jax.jit(Probe().apply)(variables, jnp.ones(3))
    return found
