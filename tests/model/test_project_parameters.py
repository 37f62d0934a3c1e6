"""Facts that arrive through parameters from other project modules: keys that a helper of
another module consumes or hands back (JNP601), 64-bit dtype defaults that a call in
another module keeps (JNP402)."""
import pytest

from conftest import FIXTURES
from flake8_runs import flake8, serial_and_parallel, stdin_mismatches
from test_project import codes_at, lint, write_project

SAMPLING = """\
import jax
from jax import random


def noise(x, key):
    return x + random.normal(key, x.shape)


def mask(shape, *, key):
    return random.bernoulli(key, 0.5, shape)


def step(key, x):
    x = x + random.normal(key, x.shape)
    return key, x


def fresh_step(key, x):
    key, sub = random.split(key)
    return key, x + random.normal(sub, x.shape)


def noise_if(key, wanted):
    if wanted:
        return random.normal(key, (2,))
    return None


def act(policy, key):
    return policy.sample(seed=key)


def unused_split(key, model):
    keys = random.split(key)
    return model(keys)


@jax.jit
def jitted_step(key, x):
    return key, x + random.normal(key, x.shape)
"""


@pytest.mark.parametrize("body, expected", [
    ("x = noise(x, key)\n    return random.normal(key, (2,))", [(9, "JNP601")]),
    ("x = sampling.noise(x, key=key)\n    return random.normal(key, (2,))", [(9, "JNP601")]),
    ("m = mask((2,), key=key)\n    return mask((2,), key=key)", [(9, "JNP601")]),
    ("key, x = step(key, x)\n    return random.normal(key, (2,))", [(9, "JNP601")]),
    ("key, x = step(key, x)\n    return random.split(key)", [(9, "JNP606")]),  # drawn, then split
    ("for _ in range(3):\n        key, x = step(key, x)\n    return x", [(9, "JNP601")]),
    # a fresh key handed back, a consumption on one path, split keys nobody is known to read
    ("key, x = fresh_step(key, x)\n    return random.split(key)", []),
    ("x = noise_if(key, False)\n    return random.normal(key, (2,))", []),
    ("x = unused_split(key, print)\n    return random.normal(key, (2,))", []),
    # a jitted helper too: every call consumes the key data given (the runtime mode records what its trace drew from)
    ("key, x = jitted_step(key, x)\n    return random.split(key)", [(9, "JNP606")]),
    # through a transform applied here: it takes the helper's arguments and draws from its keys
    ("import jax\n    g = jax.grad(sampling.noise)(x, key)\n    return random.normal(key, (2,))", [(10, "JNP601")]),
    ("import jax\n    g = jax.vmap(noise)(x, key)\n    return jax.vmap(noise)(x, key)", [(10, "JNP601")]),
    # a distribution's sampler draws from its seed (distrax, TensorFlow Probability), here or in a helper
    ("a = x.sample(seed=key)\n    return x.sample(seed=key)", [(9, "JNP601")]),
    ("a = act(x, key)\n    return random.normal(key, (2,))", [(9, "JNP601")]),
    # an unknown class's method given the key without a seed keyword
    ("a = x.sample(key)\n    return x.sample(key)", []),
])
def test_a_helper_of_another_module_consumes_the_key_it_is_given(tmp_path, body, expected):
    package = write_project(tmp_path)
    (package / "sampling.py").write_text(SAMPLING)
    (package / "loop.py").write_text("from jax import random\n\nfrom pkg import sampling\nfrom pkg.sampling import "
                                     "act, fresh_step, jitted_step, mask, noise, noise_if, step, unused_split\n\n\n"
                                     f"def run(key, x):\n    {body}\n")
    assert codes_at(lint(tmp_path, "pkg/loop.py")) == expected, body


UTIL = "import jax.numpy as jnp\nimport numpy as np\n\n\ndef make(n, dtype=np.float64):\n" \
       "    return jnp.zeros(n, dtype)\n"


@pytest.mark.parametrize("caller, expected", [
    ("from pkg.util import make\n\nx = make(3)\n", [(6, "JNP402")]),
    ("from pkg import util\n\n\ndef f():\n    return util.make(3)\n", [(6, "JNP402")]),
    ("from .util import make as build\n\nx = build(3)\n", [(6, "JNP402")]),
    # every caller passes a dtype, or the name is another function's
    ("import jax.numpy as jnp\nfrom pkg.util import make\n\nx = make(3, jnp.float32)\n"
     "y = make(3, dtype=jnp.float32)\n", []),
    ("from pkg.other import make\n\nx = make(3)\n", []),
    ("from pkg.util import make\n\nargs = (3, 'f4')\nx = make(*args)\n", []),
])
def test_a_default_kept_by_a_caller_in_another_module(tmp_path, caller, expected):
    package = write_project(tmp_path)
    (package / "util.py").write_text(UTIL)
    (package / "other.py").write_text("def make(n):\n    return n\n")
    (package / "caller.py").write_text(caller)
    found = lint(tmp_path, "pkg/util.py")
    assert codes_at(found) == expected, caller
    assert all("which the call in pkg/caller.py:" in line for line in found)


def test_the_callers_of_another_package_asked_in_between_change_no_answer(tmp_path, monkeypatch):
    """One process keeps what the modules say for the linted file's package only
    (``MEMORY.linting``): a package linted again after another gets the same answers, read again."""
    from types import SimpleNamespace

    from flake8_jaxnp.model.project import project_around

    for root, caller in (("a", "x = make(3)\n"), ("b", "x = make(3, 'f4')\n")):
        (tmp_path / root).mkdir()
        package = write_project(tmp_path / root)
        (package / "util.py").write_text(UTIL)
        (package / "caller.py").write_text(f"from pkg.util import make\n\n{caller}")
    monkeypatch.chdir(tmp_path)
    options = SimpleNamespace(extra_transforms=(), cache_dir="")
    answers = [project_around(str(tmp_path / root / "pkg" / "util.py"), options).kept_defaults("make", "dtype", 1)
               for root in ("a", "b", "a")]
    assert answers == [[["a/pkg/caller.py", 3]], [], [["a/pkg/caller.py", 3]]]


@pytest.mark.parametrize("package, reported", [("keypkg", "keypkg/train.py"), ("dtypepkg", "dtypepkg/util.py")])
def test_the_parameter_fixtures_agree_across_jobs_files_and_stdin(package, reported):
    paths = sorted((FIXTURES / package).glob("*.py"))
    serial, parallel = serial_and_parallel(FIXTURES, paths)
    assert any(reported in line for line in serial)
    assert parallel == serial
    one_by_one = sorted(line for path in reversed(paths) for line in flake8([str(path.relative_to(FIXTURES))],
                                                                            FIXTURES))
    assert one_by_one == serial
    assert stdin_mismatches(FIXTURES, paths, serial) == []
