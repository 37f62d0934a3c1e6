"""JNP605 edge cases: only donated positions, only reads before a rebinding, only repeating loops."""
import importlib

import pytest

HEADER = "from functools import partial\nimport jax\nimport jax.numpy as jnp\n" \
         "@partial(jax.jit, donate_argnums=0)\ndef step(p, g):\n    return p - g\n"


def found(lint_body, body):
    return [line for line, _ in lint_body(HEADER, body, "JNP605")]


@pytest.mark.parametrize("body", [
    "def f(p, g):\n    q = step(p, g)\n    return q, g\n",  # g is not donated
    "def f(p, g):\n    p = step(p, g)\n    return p\n",
    "def f(p, g):\n    q = step(p, g)\n    p = q\n    return p\n",
    "def f(p, g):\n    q = step(p, g)\n    def later():\n        return p\n    return q\n",
    "def f(g):\n    p = [1.0, 2.0]\n    q = step(jnp.asarray(p), g)\n    return p\n",
    "def f(g):\n    p = 1.0\n    q = step(p, g)\n    return p\n",  # a Python value is copied, not donated
    # host NumPy data: an annotated parameter, a same-file def that returns it
    "import numpy as np\ndef f(p: np.ndarray, g):\n    q = step(p, g)\n    return p.sum()\n",
    "import numpy.typing as npt\ndef f(p: npt.NDArray, g):\n    q = step(p, g)\n    return p.sum()\n",
    "import numpy as np\ndef load():\n    return np.ones(3)\ndef f(g):\n    p = load()\n    q = step(p, g)\n"
    "    return p.sum()\n",
    "def f(p, g):\n    for _ in range(1):\n        q = step(p, g)\n",
    "def f(p, g):\n    for _ in range(3):\n        q = step(p, g)\n        p = q\n",
    "def f(p, g):\n    q = step(p, g)\n    del p\n    return q\n",
    "def f(p, g):\n    q = step(p, g)\n    print(p.shape, p.dtype, p.ndim, p.size, len(p))\n    return q\n",
    "def f(p, g):\n    q = step(p, g)\n    print(list(p.keys()), 'w' in p, p['w'].shape)\n    return q\n",
    "import numpy as np\ndef f(g):\n    p = np.ones(3)\n    q = step(p, g)\n    return p + q\n",
    "def f(x, g):\n    p = jax.device_get(x)\n    q = step(p, g)\n    return p, q\n",  # host data
    "import numpy as np\ndef f(x, g):\n    p = jax.tree.map(np.asarray, x)\n    q = step(p, g)\n    return p, q\n",
    "import tensorflow_datasets as tfds\ndef f(ds, g):\n    for i, p in enumerate(tfds.as_numpy(ds)):\n"
    "        q = step(p, g)\n        print(p)\n",
    "def f(ds, g):\n    for p in ds.as_numpy_iterator():\n        q = step(p, g)\n        print(p)\n",
    "def f(ps, g):\n    for p in ps:\n        q = step(p, g)\n",  # a new p on each iteration
    "def f(p, g):\n    old = p\n    old = old + 1\n    p = step(p, g)\n    return p - old\n",  # rebound first
    "def f(p, g):\n    old = p\n    p = step(p, g)\n    old = p\n    return old\n",  # rebound after
    "def f(p, g):\n    q = step(p, g)\n"
    "    print(jax.tree.map(lambda a: a.shape, p), jax.tree_util.tree_map(jnp.ndim, p))\n    return q\n",
])
def test_silent(lint_body, body):
    assert found(lint_body, body) == []


@pytest.mark.parametrize("body, line", [
    ("def f(p, g):\n    q = step(p, g)\n    if q.sum() > 0:\n        print(p)\n    return q\n", 4),
    ("def f(p, g):\n    q = step(p, g)\n    p = p + q\n    return p\n", 3),
    ("s = jax.jit(lambda p: p * 2, donate_argnums=(0,))\ndef f(p):\n    q = s(p)\n    return p\n", 4),
    ("@partial(jax.jit, donate_argnames='p')\ndef t(p):\n    return p\ndef f(x):\n    y = t(p=x)\n    return x\n", 6),
    ("def f(p, g):\n    while True:\n        q = step(p, g)\n", 3),
    ("def f(p, g):\n    q = step(p, g)\n    print(p.shape, p.T)\n    return q\n", 3),
    ("def f(p, g):\n    q = step(p, g)\n    print(p[0].shape)\n    return q\n", 3),
    ("def f(p, g):\n    q = step(p, g)\n    print('w' in p.values())\n    return q\n", 3),
    ("def f(x, g):\n    p = jax.device_put(x)\n    q = step(p, g)\n    return p, q\n", 4),
    ("def f(p, g):\n    q = step(p, g)\n    print(jax.tree.map(lambda a: a.sum(), p))\n    return q\n", 3),
    ("def f(ps, g):\n    for p in ps:\n        q = step(p, g)\n        print(p)\n", 4),
    # an alias bound before the donating call holds the same buffer, even when the name is rebound
    ("def f(p, g):\n    old = p\n    p = step(p, g)\n    return p - old\n", 4),
    ("def f(p, g):\n    old = p\n    q = step(p, g)\n    return q - old\n", 4),
    # device data: a jax.Array parameter, a def that may return a device array
    ("def f(p: jax.Array, g):\n    q = step(p, g)\n    return p.sum()\n", 3),
    ("import numpy as np\ndef load(c):\n    if c:\n        return np.ones(3)\n    return jnp.ones(3)\n"
     "def f(g):\n    p = load(1)\n    q = step(p, g)\n    return p.sum()\n", 9),
    ("import numpy as np\n@jax.jit\ndef load():\n    return np.ones(3)\n"
     "def f(g):\n    p = load()\n    q = step(p, g)\n    return p.sum()\n", 8),
])
def test_reported(lint_body, body, line):
    assert found(lint_body, body) == [line]


def test_metadata_of_a_donated_array_survives_its_buffer():
    """The reads JNP605 lets pass really work after donation, and a value read really fails."""
    import jax
    import jax.numpy as jnp

    from flake8_jaxnp.facts import TREE_MAPS
    from flake8_jaxnp.checks.donation import METADATA, METADATA_FUNCTIONS

    x = jnp.ones(3)
    jax.jit(lambda v: v + 1, donate_argnums=0)(x)
    assert x.is_deleted()
    for name in METADATA:
        getattr(x, name)
    live_tree_maps = sorted(TREE_MAPS - {"jax.tree_map"})  # removed from JAX: a JNP504 of its own
    for qualname in sorted(METADATA_FUNCTIONS) + live_tree_maps:
        module, _, name = qualname.rpartition(".")
        function = getattr(importlib.import_module(module), name)
        function(len, {"w": x}) if qualname in TREE_MAPS else function(x)
    with pytest.raises(RuntimeError):
        x.sum()
