"""Which values the runtime mode's module probes treat as jitted functions."""
import sys
import types

import jax

from flake8_jaxnp import api
from flake8_jaxnp.confirm import array_probes
from flake8_jaxnp.confirm.jitted import is_jitted, jit_wrapper_types


def test_a_framework_jit_wrapper_counts_by_its_class_even_when_made_per_function(monkeypatch):
    """A compiling transform of an imported framework whose wrapper has a class of its own (Equinox
    makes one per wrapped function) is a jitted function; one that returns a plain function, or one
    not measured as cached and abstract, is not."""
    framework = types.ModuleType("fakeframework")

    def wrapper(name):
        def transform(fn):
            made = type(name, (), {"__module__": "fakeframework", "__call__": lambda self, *a: fn(*a)})
            return made()
        return transform

    jit = framework.jit = wrapper("Wrapper")
    framework.grad = wrapper("GradWrapper")
    framework.remat = lambda fn: (lambda *a: fn(*a))
    monkeypatch.setitem(sys.modules, "fakeframework", framework)
    measured = {"cached": True, "abstract": True}
    monkeypatch.setattr(api, "framework_transforms", lambda: {
        "fakeframework.jit": measured, "fakeframework.remat": measured,
        "fakeframework.grad": {"cached": False, "abstract": True}})

    wrappers = jit_wrapper_types()
    assert is_jitted(jit(abs), wrappers) and is_jitted(jit(len), wrappers)
    assert not is_jitted(framework.remat(abs), wrappers) and not is_jitted(framework.grad(abs), wrappers)
    assert not is_jitted(abs, wrappers) and not is_jitted(lambda x: x, wrappers)
    assert is_jitted(jax.jit(abs), wrappers)


def test_a_module_s_values_ask_the_measured_transforms_once(monkeypatch):
    """Installing a module's probes reads which framework transforms wrap jitted functions once,
    not once per value of the module."""
    asked = []
    monkeypatch.setattr(api, "framework_transforms", lambda: asked.append(1) or {})
    namespace = {"__name__": "watched", **{f"value{i}": i for i in range(5)}, "step": jax.jit(abs)}
    array_probes.install_module_probes(namespace)
    assert len(asked) == 1 and isinstance(namespace["step"], array_probes.CallProbe)
