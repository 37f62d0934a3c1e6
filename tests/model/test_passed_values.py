"""What the project's calls give a parameter: a function an object holds (a class whose ``__init__``
stores a parameter, ``self.loss = loss``, and whose jitted method calls it runs, traced, each
function the project's calls of the class give it, also where a script beside the package hands it
on through its own parameter or ``**options``); a dataclass instance whose dtype field a function
reads (JNP402); a device array every call gives a helper (JNP501); and a module setting a script
rebinds in its loop is stale there."""
import pytest

from test_project import codes_at, lint

TRAINER = '''import jax

from . import losses


class Trainer:
    def __init__(self, scale, loss=losses.quiet):
        self.loss = loss
        self.step = jax.jit(self._step)

    def _step(self, params, x):
        return jax.grad(self.loss)(params, x)
'''
LOSSES = '''import jax.numpy as jnp

from . import settings


def noisy(params, x):
    print("loss", params)
    return jnp.sum(params * x)


def smoothed(params, x):
    return jnp.sum(params * x) * settings.SMOOTHING


def quiet(params, x):
    return jnp.sum(params * x)
'''
SETTINGS = "SMOOTHING = 0.0\n"


def _write(root, script, trainer=TRAINER):
    (root / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    package = root / "demo"
    package.mkdir()
    for name, text in {"__init__": "", "trainer": trainer, "losses": LOSSES, "settings": SETTINGS}.items():
        (package / f"{name}.py").write_text(text)
    (root / "scripts").mkdir()
    (root / "scripts" / "run.py").write_text("import jax\n\nfrom demo import losses, settings, trainer\n\n\n" + script)


@pytest.mark.parametrize("script, expected", [
    ("def main():\n    return trainer.Trainer(1.0, loss=losses.noisy).step(1.0, 2.0)\n", [(7, "JNP301")]),
    ("def setup(loss):\n    return trainer.Trainer(1.0, loss=loss)\n\n\n"
     "def main():\n    return setup(losses.noisy).step(1.0, 2.0)\n", [(7, "JNP301")]),
    ("def setup(**options):\n    return trainer.Trainer(1.0, **options)\n\n\n"
     "def main():\n    return setup(loss=losses.noisy).step(1.0, 2.0)\n", [(7, "JNP301")]),
    ("def main():\n    return trainer.Trainer(1.0, loss=losses.quiet).step(1.0, 2.0)\n", []),
    ("def setup(loss):\n    loss = losses.quiet\n    return trainer.Trainer(1.0, loss=loss)\n\n\n"
     "def main():\n    return setup(losses.noisy).step(1.0, 2.0)\n", []),  # rebound: not what the callers gave
])
def test_a_function_an_object_holds_runs_under_its_jitted_method(tmp_path, script, expected):
    _write(tmp_path, script)
    assert codes_at(lint(tmp_path, "demo/losses.py")) == expected


def test_an_attribute_stored_again_elsewhere_holds_what_the_callers_gave_no_longer(tmp_path):
    _write(tmp_path, "def main():\n    return trainer.Trainer(1.0, loss=losses.noisy).step(1.0, 2.0)\n",
           TRAINER + "\n    def use(self, loss):\n        self.loss = loss\n")
    assert lint(tmp_path, "demo/losses.py") == []


@pytest.mark.parametrize("other, expected", [
    ("class Evaluator:", [(7, "JNP301")]),  # another class's self.loss is another object's
    ("class FastTrainer(Trainer):", []),  # a subclass's instances are Trainers too
    ("class Logged(Logging, Trainer):", []),  # several bases: it may derive from Trainer
])
def test_another_class_that_stores_the_attribute_on_its_own_self_leaves_what_the_callers_gave(tmp_path, other,
                                                                                              expected):
    _write(tmp_path, "def main():\n    return trainer.Trainer(1.0, loss=losses.noisy).step(1.0, 2.0)\n",
           TRAINER + f"\n\n{other}\n    def __init__(self, loss):\n        self.loss = loss\n")
    assert codes_at(lint(tmp_path, "demo/losses.py")) == expected


@pytest.mark.parametrize("store, expected", [
    ("    for s in (0.0, 0.1):\n        settings.SMOOTHING = s\n        t.step(1.0, 2.0)\n", [(12, "JNP304")]),
    ("    settings.SMOOTHING = 0.1\n    t.step(1.0, 2.0)\n", []),  # once, before any trace: not stale
])
def test_a_setting_a_script_rebinds_in_its_loop_is_stale_in_the_traced_loss(tmp_path, store, expected):
    _write(tmp_path, "def main():\n    t = trainer.Trainer(1.0, loss=losses.smoothed)\n" + store)
    found = lint(tmp_path, "demo/losses.py")
    assert codes_at(found) == expected
    assert all("is rebound in scripts/run.py:" in line for line in found)


CONFIG = '''import dataclasses


@dataclasses.dataclass(frozen=True)
class Base:
    size: int = 3
    dtype: str = "float32"


@dataclasses.dataclass(frozen=True)
class Wide(Base):
    pass


@dataclasses.dataclass(frozen=True)
class Precise(Base):
    dtype: str = "float64"
'''
INIT = '''import jax.numpy as jnp


def init(n, cfg):
    return jnp.zeros(n, dtype=cfg.dtype)
'''


@pytest.mark.parametrize("script, expected", [
    ("init.init(3, config.Precise())\n", [(5, "JNP402")]),
    ("def make(cfg=None):\n    return init.init(3, cfg)\n\n\nmake(cfg=config.Precise())\n", [(5, "JNP402")]),
    ("init.init(3, config.Precise(dtype='float32'))\n", []),  # the field given: not its default
    ("init.init(3, config.Base())\ninit.init(3, config.Wide())\n", []),  # float32, also inherited
])
def test_a_dtype_field_of_the_dataclass_a_call_passes(tmp_path, script, expected):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    package = tmp_path / "demo"
    package.mkdir()
    for name, text in {"__init__": "", "config": CONFIG, "init": INIT}.items():
        (package / f"{name}.py").write_text(text)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "run.py").write_text("import jax\n\nfrom demo import config, init\n\n\n" + script)
    found = lint(tmp_path, "demo/init.py")
    assert codes_at(found) == expected
    assert all("'cfg.dtype' is float64 in the Precise that the call in scripts/run.py:" in line for line in found)


@pytest.mark.parametrize("runs, expected", [
    ("jax.grad(self.loss)(params, x)", [(20, "JNP604")]),  # differentiated under the jitted step
    ("self.loss(params, x)", []),  # only evaluated: the nan gradient never arises
])
def test_a_function_another_modules_jitted_step_differentiates(tmp_path, runs, expected):
    guarded = "\n\ndef guarded(params, x):\n    return jnp.sum(jnp.where(params > 0, jnp.sqrt(params), 0.0) * x)\n"
    _write(tmp_path, "def main():\n    return trainer.Trainer(1.0, loss=losses.guarded).step(1.0, 2.0)\n",
           TRAINER.replace("jax.grad(self.loss)(params, x)", runs))
    with open(tmp_path / "demo" / "losses.py", "a") as module:
        module.write(guarded)
    assert codes_at(lint(tmp_path, "demo/losses.py")) == expected


def test_a_script_added_to_the_folder_is_seen_with_a_warm_cache(tmp_path):
    _write(tmp_path, "def main():\n    return trainer.Trainer(1.0, loss=losses.quiet).step(1.0, 2.0)\n")
    assert lint(tmp_path, "demo/losses.py") == []
    (tmp_path / "scripts" / "other.py").write_text(
        "from demo import losses, trainer\n\n\ndef main():\n    return trainer.Trainer(1.0, loss=losses.noisy)\n")
    assert codes_at(lint(tmp_path, "demo/losses.py")) == [(7, "JNP301")]


POST = '''import jax
import jax.numpy as jnp


@jax.jit
def predict(x):
    return jnp.tanh(x)


@jax.jit
def both(x):
    return [jnp.tanh(x), x]


def clip(pred, floor=0.0):
    pred[pred < floor] = floor
    return pred
'''


@pytest.mark.parametrize("script, expected", [
    ("def main(x):\n    return post.clip(post.predict(x) - 0.5)\n", [(16, "JNP501")]),
    ("def main(x):\n    return post.clip(pred=post.predict(x))\n", [(16, "JNP501")]),
    # callers that disagree, or a reference that is not a call: what the parameter holds is unknown
    ("def main(x):\n    post.clip(post.predict(x))\n    return post.clip(np.ones(3))\n", []),
    ("def main(x):\n    post.clip(post.predict(x))\n    return list(map(post.clip, [np.ones(3)]))\n", []),
    ("def main(x, rest):\n    post.clip(post.predict(x))\n    return post.clip(*rest)\n", []),
    ("def main(x):\n    return post.clip(np.asarray(post.predict(x)))\n", []),  # a host copy
    ("def main(x):\n    return post.clip(post.both(x))\n", []),  # a list of arrays: its items can change
    ("def main(x):\n    return post.clip(post.both(x) * 0.5)\n", [(16, "JNP501")]),  # (a list would raise first)
    ("def main(x):\n    return post.clip(post.both(x) * 2)\n", []),  # the list repeated
])
def test_a_helpers_parameter_holds_what_every_call_in_other_modules_gives(tmp_path, script, expected):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "__init__.py").write_text("")
    (tmp_path / "demo" / "post.py").write_text(POST)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "run.py").write_text("import numpy as np\n\nfrom demo import post\n\n\n" + script)
    assert codes_at(lint(tmp_path, "demo/post.py")) == expected


@pytest.mark.parametrize("other, expected", [
    ("from demo import post\n\n\ndef show(x):\n    return post.clip(post.predict(x))\n", [(16, "JNP501")]),
    ("from demo import post\n\nHOOKS = [post.clip]\n", []),  # passed on: what it is given is unknown
    ("from demo import post\n\ndef broken(:\n    post.clip\n", []),  # cannot be parsed: unknown
])
def test_what_other_modules_give_a_helper_is_the_same_read_back_from_the_cache(tmp_path, other, expected):
    """A warm run (the file's kept findings dropped, as after an edit) reads each calling module's calls
    and references from the cache folder instead of parsing it, and concludes as the cold run did."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "__init__.py").write_text("")
    (tmp_path / "demo" / "post.py").write_text(POST)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "run.py").write_text(
        "from demo import post\n\n\ndef main(x):\n    return post.clip(post.predict(x) - 0.5)\n")
    (tmp_path / "scripts" / "other.py").write_text(other)
    cold = codes_at(lint(tmp_path, "demo/post.py"))
    for kept in (tmp_path / "cache").glob("findings-*.json"):
        kept.unlink()
    assert cold == codes_at(lint(tmp_path, "demo/post.py")) == expected
