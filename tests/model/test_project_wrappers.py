"""Objects of project classes that hand out jitted functions (``model.project.wrappers``):
which methods return one and which parameter an instance's call forwards to, read from
the class's module; unknown steps keep the class silent; a timed loop of what they return
is JAX work, and a change to the class's module is seen with a warm cache."""

import re
from pathlib import Path

import pytest

from test_findings_reuse import reused_when_unchanged
from test_project import codes_at, lint
from test_project_roots import write_package

from flake8_jaxnp.model.project.constants import constant_needs, numpy_summary
from flake8_jaxnp.model.project.defaults import GLOBAL_STATEMENT
from flake8_jaxnp.model.project.summaries import class_summary, summarise
from flake8_jaxnp.model.project.wrappers import class_needs
from flake8_jaxnp.options import Options
from flake8_jaxnp.model.traced import transform_tables

PARTITIONER = '''import jax
import numpy as np


def jit_plain(fun):
    return jax.jit(fun)


def jit_on_cpu(fun):
    if jax.devices()[0].platform == "cpu":
        return jax.jit(fun)
    return jax.jit(fun, donate_argnums=0)


def plain(fun):
    return fun


class Wrapped:
    def __init__(self, fn, mesh=None):
        self._fn = fn
        self._mesh = mesh

    def __call__(self, *args):
        {call}


class Base:
    def __init__(self, on_cpu=False):
        self.on_cpu = on_cpu

    def partition(self, fn):
        {body}


class Inherits(Base):
    pass
'''
FORWARDS = "return self._fn(*args)"
PARTITION = "jitted = jit_plain(fn)\n        return Wrapped(jitted)"


def classes(call=FORWARDS, body=PARTITION, more=""):
    transforms = transform_tables(())[0]
    return summarise((PARTITIONER.format(call=call, body=body) + more).encode(), transforms)["classes"]


def test_a_method_that_returns_a_forwarding_object_of_a_jitted_function_hands_one_out():
    assert classes() == {"Wrapped": {"forwards": [0, "fn"]}, "Base": {"builds_jitted": ["partition"]},
                         "Inherits": {"builds_jitted": ["partition"]}}  # inherited from a base of the module


@pytest.mark.parametrize("body, hands_out", [
    ("make = jit_on_cpu if self.on_cpu else jit_plain\n        return Wrapped(make(fn))", False),  # not a store each
    ("if self.on_cpu:\n            make = jit_on_cpu\n        else:\n            make = jit_plain\n"
     "        return Wrapped(make(fn), None)", True),  # a module builder in every branch
    ("if self.on_cpu:\n            make = jit_on_cpu\n        else:\n            make = plain\n"
     "        return Wrapped(make(fn))", False),  # one branch is no builder
    ("return Wrapped(mesh=None, fn=jax.jit(fn))", True),  # by keyword
    ("return jit_on_cpu(fn)", True),
    ("return Wrapped(fn)", False),  # the plain function
    ("if self.on_cpu:\n            return Wrapped(jit_plain(fn))\n        return fn", False),  # returns disagree
    ("if self.on_cpu:\n            return Wrapped(jit_plain(fn))", False),  # may run off the end: None
    ("jitted = jit_plain(fn)\n        jitted = fn\n        return Wrapped(jitted)", False),  # bound twice
    ("yield Wrapped(jit_plain(fn))", False),
])
def test_every_return_must_hand_out_a_jitted_function(body, hands_out):
    found = classes(body=body)
    assert ("partition" in found.get("Base", {}).get("builds_jitted", ())) is hands_out
    assert ("Inherits" in found) is hands_out


@pytest.mark.parametrize("call, more", [
    ("return jax.block_until_ready(self._fn(*args))", ""),  # waits
    ("return np.asarray(self._fn(*args))", ""),  # a host value
    ("out = self._fn(*args)\n        return out", ""),
    (FORWARDS, "\n\ndef swap(wrapped, g):\n    wrapped._fn = g\n"),  # the attribute is stored again
])
def test_a_wrapper_whose_call_may_not_be_the_stored_functions_forwards_nothing(call, more):
    assert classes(call=call, more=more) == {}


def test_a_decorated_method_a_base_from_elsewhere_or_several_bases_say_nothing():
    more = ("\n\nclass Props(Base):\n    @property\n    def partition(self):\n        return Wrapped(jit_plain(f))\n"
            "\n\nclass Elsewhere(np.ndarray):\n    pass\n\n\nclass Two(Base, Wrapped):\n    pass\n")
    assert set(classes(more=more)) == {"Wrapped", "Base", "Inherits"}


BENCH = '''import time

import jax
import jax.numpy as jnp

from .partitioner import Base, Inherits, Wrapped

other = None


def cube(a):
    return a @ a


def run(x, batches):
    {setup}
    start = time.perf_counter()
    for batch in batches:
        x = step(x * batch)
    return x, time.perf_counter() - start
'''


@pytest.mark.parametrize("setup, expected", [
    ("partitioner = Base()\n    step = partitioner.partition(cube)", [(20, "JNP603")]),
    ("partitioner = Inherits()\n    step = partitioner.partition(cube)", [(20, "JNP603")]),
    ("step = Wrapped(jax.jit(cube))", [(20, "JNP603")]),
    ("fast = jax.jit(cube)\n    step = Wrapped(fast, None)", [(20, "JNP603")]),
    ("step = Wrapped(cube)", []),  # a plain function: unknown
    ("partitioner = Base()\n    partitioner = other\n    step = partitioner.partition(cube)", []),  # bound twice
    ("partitioner = Base()\n    step = partitioner.lower(cube)", []),  # no such method known
])
def test_a_timed_loop_of_what_a_project_object_hands_out_is_jax_work(tmp_path, setup, expected):
    write_package(tmp_path, partitioner=PARTITIONER.format(call=FORWARDS, body=PARTITION),
                  bench=BENCH.format(setup=setup))
    assert codes_at(lint(tmp_path, "pkg/bench.py")) == [(line + setup.count("\n"), code) for line, code in expected]


def test_a_class_from_outside_the_project_is_not_followed(tmp_path):
    bench = BENCH.format(setup="partitioner = Base()\n    step = partitioner.partition(cube)")
    write_package(tmp_path, bench=bench.replace("from .partitioner import", "from partitioner_lib import"))
    assert lint(tmp_path, "pkg/bench.py") == []


@pytest.mark.parametrize("old, new", [
    ("return Wrapped(jitted)", "return fn"),  # the method stops handing out a jitted function
    ("return self._fn(*args)", "return np.asarray(self._fn(*args))"),  # the wrapper starts waiting
])
def test_a_change_to_the_class_module_is_seen_with_a_warm_cache(tmp_path, old, new):
    package = write_package(tmp_path, partitioner=PARTITIONER.format(call=FORWARDS, body=PARTITION),
                            bench=BENCH.format(setup="partitioner = Base()\n    step = partitioner.partition(cube)"))
    assert codes_at(lint(tmp_path, "pkg/bench.py")) == [(21, "JNP603")]
    path = package / "partitioner.py"
    path.write_text(path.read_text().replace(old, new))
    assert lint(tmp_path, "pkg/bench.py") == []


def test_an_unchanged_file_that_asked_about_a_class_is_not_analysed_again(tmp_path, monkeypatch):
    package = write_package(tmp_path, partitioner=PARTITIONER.format(call=FORWARDS, body=PARTITION),
                            bench=BENCH.format(setup="partitioner = Base()\n    step = partitioner.partition(cube)"))
    options = Options(cache_dir=str(tmp_path / "cache"))
    assert [f.code for f in reused_when_unchanged(package / "bench.py", options, monkeypatch)] == ["JNP603"]


TRAINER = '''import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, lr, fast=True):
        self.lr = lr
        self.step = jax.jit(self._step)
        self.logits = jax.jit(forward)
        {more}

    def _step(self, params, x):
        return params - self.lr * x, jnp.sum(x)

    def predict(self, params, x):
        return self.logits(params, x)

    def predict_or_none(self, params, x):
        if x is None:
            return None
        return self.logits(params, x)


def forward(params, x):
    return params * x
'''
TRAIN = '''import jax.numpy as jnp
import numpy as np

from .trainer import Trainer


def setup():
    return Trainer(0.1), jnp.ones(3)


def train(x):
    trainer, params = setup()
    for _ in range(100):
        params, loss = trainer.step(params, x)
        print(float(loss))
        np.asarray(trainer.predict(params, x))
        np.asarray(trainer.predict_or_none(params, x))
    return params
'''


@pytest.mark.parametrize("more, calls", [
    ("", ["logits", "predict", "step"]),
    ("if fast:\n            self.step = jax.jit(self._step)", ["logits", "predict"]),  # stored twice
    ("self.logits = forward", ["step"]),  # (a plain function too: predict gives what forward does)
])
def test_an_init_that_stores_jitted_functions_makes_objects_whose_calls_give_arrays(more, calls):
    transforms = transform_tables(())[0]
    found = summarise(TRAINER.format(more=more).encode(), transforms)["classes"]
    assert found.get("Trainer", {}).get("jitted_calls", []) == calls


@pytest.mark.parametrize("more, kept", [
    ("", {"step": ["lr"]}),
    ("if fast:\n            self.step = jax.jit(self._step)", {}),  # stored twice: not one jitted call
    ("self.step = jax.jit(forward)", {}),  # a function, not a bound method: no self in its trace
])
def test_a_jitted_bound_method_keeps_the_attributes_its_trace_reads(more, kept):
    transforms = transform_tables(())[0]
    found = summarise(TRAINER.format(more=more).encode(), transforms)["classes"]
    assert found.get("Trainer", {}).get("kept", {}) == kept


@pytest.mark.parametrize("other, kept", [
    ("class Evaluator:", {"step": ["lr"]}),  # another class's self.step is another object's
    ("class FastTrainer(Trainer):", {}),  # a subclass's instances are Trainers too
    ("class LoggedTrainer(Logging, Trainer):", {}),  # several bases: it may derive from Trainer
    ("class Evaluator:\n    @staticmethod\n    def make(self):\n        self.step = forward\n"
     "    def __init__(self):\n        pass\nclass Other:", {}),  # a staticmethod's first parameter is no self
    ("class Evaluator(Base):", {"step": ["lr"]}),  # a base from elsewhere cannot derive from Trainer
    ("class Evaluator:\n    def __init__(self):\n        self.step = forward\nclass Both(Evaluator, Trainer):\n"
     "    pass\nclass Other:", {}),  # a Both is an Evaluator and a Trainer: Evaluator's self may be a Trainer
])
def test_another_class_that_stores_the_attribute_on_its_own_self_leaves_the_jitted_call(other, kept):
    transforms = transform_tables(())[0]
    text = TRAINER.format(more="") + f"\n\n{other}\n    def __init__(self):\n        self.step = forward\n"
    found = summarise(text.encode(), transforms)["classes"]
    assert found.get("Trainer", {}).get("kept", {}) == kept


@pytest.mark.parametrize("store, calls", [
    ("self.step = jax.jit(forward)", ["logits", "predict", "step"]),  # jitted on either object: arrays
    ("self.step = forward", ["logits", "predict"]),  # a plain function on a FastTrainer: unknown
    ("if fast:\n            self.step = jax.jit(forward)", ["logits", "predict"]),  # not on every FastTrainer
])
def test_a_subclass_that_jits_its_own_step_in_init_leaves_the_calls_jitted(store, calls):
    transforms = transform_tables(())[0]
    subclass = f"class FastTrainer(Trainer):\n    def __init__(self, fast):\n        {store}\n"
    text = TRAINER.format(more="") + "\n\n" + subclass
    found = summarise(text.encode(), transforms)["classes"]["Trainer"]
    assert found.get("jitted_calls", []) == calls
    assert found.get("kept", {}) == {}  # (what each object's step read is its own)


@pytest.mark.parametrize("init, calls, kept", [
    ("super().__init__(lr)\n        self.decay = 0.5", ["logits", "predict", "step"], {"step": ["decay", "lr"]}),
    ("self.decay = 0.5", [], {}),  # (its own __init__ never runs Trainer's)
])
def test_a_subclass_init_that_runs_its_base_init_first_keeps_the_base_jitted_calls(init, calls, kept):
    """An ``__init__`` that calls ``super().__init__(...)`` runs the base's stores first: its objects hold
    the jitted calls the base stores, and their traces read the subclass's override."""
    transforms = transform_tables(())[0]
    subclass = (f"class DecayedTrainer(Trainer):\n    def __init__(self, lr):\n        {init}\n\n"
                "    def _step(self, params, x):\n        return params - self.decay * self.lr * x, jnp.sum(x)\n")
    found = summarise((TRAINER.format(more="") + "\n\n" + subclass).encode(), transforms)["classes"]
    assert found.get("DecayedTrainer", {}).get("jitted_calls", []) == calls
    assert found.get("DecayedTrainer", {}).get("kept", {}) == kept


RETUNE = '''import jax.numpy as jnp

from .trainer import Trainer


def retune(x):
    trainer = Trainer(0.1)
    params, loss = trainer.step(jnp.ones(3), x)
    trainer.lr = 0.01
    trainer.fast = False
    return trainer.step(params, x)
'''


def test_an_attribute_that_another_modules_jitted_bound_method_read_changes_after_the_call(tmp_path):
    write_package(tmp_path, trainer=TRAINER.format(more=""), retune=RETUNE)
    assert codes_at(lint(tmp_path, "pkg/retune.py")) == [(9, "JNP306")]


@pytest.mark.parametrize("more, expected", [
    ("", [(15, "JNP102"), (16, "JNP101")]),
    ("self.logits = forward", [(15, "JNP102")]),
])
def test_the_calls_of_a_project_object_jitted_in_its_init_give_device_arrays(tmp_path, more, expected):
    write_package(tmp_path, trainer=TRAINER.format(more=more), train=TRAIN)
    assert codes_at(lint(tmp_path, "pkg/train.py")) == expected
    same_file = "import numpy as np\n" + TRAINER.format(more=more) + TRAIN.split("from .trainer import Trainer\n")[1]
    (tmp_path / "alone").mkdir()
    write_package(tmp_path / "alone", one=same_file)
    shift = 1 + TRAINER.count("\n") - 4  # the class comes first; TRAIN's four lines of imports go
    assert codes_at(lint(tmp_path / "alone", "pkg/one.py")) == [(line + shift, code) for line, code in expected]


SCRIPT = '''import sys
from pathlib import Path

import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pkg.trainer import Trainer  # noqa: E402


def train(x):
    trainer, params = Trainer(0.1), jnp.zeros(3)
    for _ in range(100):
        params, loss = trainer.step(params, x)
        print(float(loss))
    return params
'''


@pytest.mark.parametrize("marker, expected", [
    ("pyproject.toml", [(15, "JNP102")]), ("setup.cfg", [(15, "JNP102")]), (None, []),
])
def test_a_script_beside_the_package_sees_it_under_the_project_root(tmp_path, marker, expected):
    project = tmp_path / "project"
    project.mkdir()
    write_package(project, trainer=TRAINER.format(more=""))
    (project / "scripts").mkdir()
    (project / "scripts" / "train.py").write_text(SCRIPT)
    if marker:
        (project / marker).write_text("")
    elsewhere = tmp_path / "elsewhere"  # flake8 run from a folder that does not hold the package
    elsewhere.mkdir()
    assert codes_at(lint(elsewhere, str(project / "scripts" / "train.py"))) == expected


def test_the_class_part_and_the_text_tests_agree_with_the_whole_summary():
    """What the project asks of a module's classes, rebound globals and NumPy constants, from the
    parse of its classes alone (``class_summary``) or of its constants alone (``numpy_summary``) and
    after the text tests that spare a parse (``class_needs``, ``GLOBAL_STATEMENT``, ``constant_needs``), is
    what the whole summary says, on this file's modules and on every module of the fixtures and the
    reported and project shapes."""
    transforms = transform_tables(())[0]
    staging = {name.rsplit(".", 1)[1] for name in transforms}
    root = Path(__file__).resolve().parents[2]
    sources = [PARTITIONER.format(call=FORWARDS, body=PARTITION).encode(), TRAINER.format(more="").encode()]
    folders = ("fixtures", "tests/reported", "tests/project_shapes", "tests/frameworks_shapes")
    sources += [path.read_bytes() for folder in folders for path in sorted((root / folder).rglob("*.py"))]
    with_classes = with_rebound = with_constants = 0
    for source in sources:
        whole = summarise(source, transforms)
        assert class_summary(source, transforms)["classes"] == whole["classes"]
        assert numpy_summary(source)["numpy"] == whole["numpy"]
        for name in whole["classes"]:
            assert all(pattern.search(b"\n" + source) for pattern in class_needs(name, staging)), name
        assert not whole.get("rebound") or GLOBAL_STATEMENT.search(source)
        for name in whole["numpy"]:
            assert all(pattern.search(b"\n" + source) for pattern in constant_needs(name)), name
        with_classes += bool(whole["classes"])
        with_rebound += bool(whole.get("rebound"))
        with_constants += bool(whole["numpy"])
    assert with_classes and with_rebound and with_constants  # (the agreement is not vacuous)


def test_a_constant_is_looked_for_by_its_whole_name():
    """``constant_needs`` spares the parse of a module that assigns the name nowhere at a
    statement's start (a longer name, a keyword argument or a comparison does not count), or
    that never names ``numpy``."""
    needs, header = constant_needs("MASK"), b"\nimport numpy as np"
    assert all(p.search(header + b"\nMASK = np.ones(3)\n") for p in needs)
    assert all(p.search(header + b"\nx = 1; MASK = np.ones(3)\n") for p in needs)
    for text in (b"\nMASKS = np.ones(3)\n", b"\nf(MASK=1)\n", b"\nif MASK == 1:\n    pass\n", b"\nOLD_MASK = 1\n"):
        assert not all(p.search(header + text) for p in needs), text
    assert not all(p.search(b"\nfrom .arrays import np\nMASK = np.ones(3)\n") for p in needs)  # no NumPy import


def test_the_first_text_tests_find_what_a_pattern_per_name_finds():
    """A class's ``class <name>`` anywhere and a constant's ``name =`` anywhere are looked for with one
    pattern for every name (``patterns.Captured``, ``patterns.Followed``), where each name had a pattern
    of its own: both find the same, on tricky texts and, for each of its words, on every fixture module."""
    root = Path(__file__).resolve().parents[2]
    texts = [b"\nclassclass Foo", b"\nsubclass  \\\n Foo(", b"\nclass class Foo:", b"\nclass\tFooBar", b"Foo==",
             b"x = Foo==1\nFoo \\\n= 2", b"FooFoo=1", b"class \xc3\xa9Foo"]
    texts += [b"\n" + path.read_bytes() for path in sorted((root / "fixtures").glob("*.py"))]
    for text in texts:
        for word in {b"Foo", b"FooBar", b"class", *re.findall(rb"[A-Za-z_]\w*", text)}:
            name = word.decode()
            a_class = re.search(rb"class[ \t\\\r\n]+%b(?![\w\x80-\xff])" % re.escape(word), text) is not None
            assigned = re.search(rb"%b[ \t\f\\\r\n]*=(?!=)" % re.escape(word), text) is not None
            assert bool(class_needs(name, set())[0].search(text)) is a_class, (text[:40], name)
            assert bool(constant_needs(name)[0].search(text)) is assigned, (text[:40], name)


DONATING_TRAINER = '''import jax


class Trainer:
    def __init__(self, lr, donate={default}):
        self.lr = lr
        self.step = jax.jit(self._step, donate_argnums={option})

    def _step(self, params, x):
        return params - self.lr * x
'''
DONATION_USER = '''import jax.numpy as jnp

from .trainer import Trainer


def build(lr=0.1, **options):
    return Trainer(lr, **options), jnp.ones(3)


def train(x, {flag}):
    trainer, params = build({passed})
    new = trainer.step(params, x)
    return new - params
'''


@pytest.mark.parametrize("option, donates", [
    ("0", {"step": [["params", "x"], [["donate_argnums", "0", None]]]}),
    ("(0,) if donate else ()", {"step": [["params", "x"], [["donate_argnums", "(0,)", [1, "donate", "True"]]]]}),
    ("(0,) if donate and lr else ()", {}),  # a condition other than a parameter: not read
])
def test_a_jitted_bound_method_says_what_its_option_donates(option, donates):
    transforms = transform_tables(())[0]
    found = summarise(DONATING_TRAINER.format(default="True", option=option).encode(), transforms)["classes"]
    assert found.get("Trainer", {}).get("donates", {}) == donates


@pytest.mark.parametrize("option, donates", [
    ("0", {"step": [["params", "x"], [["donate_argnums", "0", None]]]}),
    ("(0,) if donate else ()", {}),  # the base's parameter: the subclass's construction does not give it
])
def test_a_subclass_init_that_runs_its_base_init_donates_what_the_base_jit_donates(option, donates):
    transforms = transform_tables(())[0]
    subclass = "\n\nclass Sub(Trainer):\n    def __init__(self, lr):\n        self.extra = 1\n" \
               "        super().__init__(lr)\n"
    text = DONATING_TRAINER.format(default="True", option=option) + subclass
    found = summarise(text.encode(), transforms)["classes"]
    assert found.get("Sub", {}).get("donates", {}) == donates


@pytest.mark.parametrize("default, flag, passed, expected", [
    ("True", "unused=0", "", [(13, "JNP605")]),  # the default donates
    ("False", "unused=0", "donate=True", [(13, "JNP605")]),  # the caller selects it, through **options
    ("True", "unused=0", "donate=False", []),
    ("False", "donate=False", "donate=donate", []),  # no call of train in the module passes True
    ("False", "donate=True", "donate=donate", [(13, "JNP605")]),  # train's default selects it
    ("False", "unused=0", "donate=bool(x)", []),  # not known
])
def test_a_conditional_donation_counts_where_a_literal_selects_it(tmp_path, default, flag, passed, expected):
    write_package(tmp_path, trainer=DONATING_TRAINER.format(default=default, option="(0,) if donate else ()"),
                  user=DONATION_USER.format(flag=flag, passed=passed))
    assert codes_at(lint(tmp_path, "--select", "JNP605", "pkg/user.py")) == expected


STEP_FACTORY = """import dataclasses

import jax


@dataclasses.dataclass
class Config:
    lr: float = 0.1
    donate: bool = True


def make_step(cfg, flag=True):
    def step(w, g):
        return w - cfg.lr * g

    {body}
"""


@pytest.mark.parametrize("body, donation", [
    ("return cfg.lr, jax.jit(step, donate_argnums=(0,) if flag else ())",
     [1, ["w", "g"], [["donate_argnums", "(0,)", [1, "flag", "True"]]]]),
    ("return jax.jit(step, donate_argnums=(0,) if cfg.donate else ())",
     [None, ["w", "g"], [["donate_argnums", "(0,)", [0, "cfg", None, "donate"]]]]),
    ("jitted = jax.jit(step, donate_argnames='w')\n    return jitted",
     [None, ["w", "g"], [["donate_argnames", "'w'", None]]]),
    # the returns disagree, or the option is not read: nothing said
    ("if flag:\n        return jax.jit(step, donate_argnums=0)\n    return jax.jit(step)", None),
    ("return jax.jit(step, donate_argnums=(0,) if cfg.donate() else ())", None),
    # the factory may change the field it reads (review56a)
    ("cfg.donate = False\n    return jax.jit(step, donate_argnums=(0,) if cfg.donate else ())", None),
    ("setattr(cfg, 'donate', False)\n    return jax.jit(step, donate_argnums=(0,) if cfg.donate else ())", None),
])
def test_a_factory_summary_says_what_its_returned_jit_donates(body, donation):
    summary = summarise(STEP_FACTORY.format(body=body).encode(), transform_tables(())[0])
    assert summary["functions"]["make_step"].get("returned_donation") == donation
    assert summary["fields"] == {"Config.lr": "0.1", "Config.donate": "True"}


@pytest.mark.parametrize("body, fields", [
    ("donate: bool = True\n", {"Run.donate": "True"}),
    ("donate: bool = True\n\n    def __post_init__(self):\n        self.donate = False\n", {}),
    ("donate: bool = dataclasses.field(default=True)\n", {}),  # not a literal
    # the module may change the field after the construction (review56a)
    ("donate: bool = True\n\n    def off(self):\n        self.donate = False\n", {}),
    ("donate: bool = True\n\n    def off(self, name):\n        setattr(self, name, False)\n", {}),
    ("lr: float = 0.1\n\n    def off(self):\n        self.donate = False\n\n\n@dataclasses.dataclass\n"
     "class Sub(Run):\n    donate: bool = True\n", {"Run.lr": "0.1", "Sub.lr": "0.1"}),  # a base's method
])
def test_a_summary_keeps_the_literal_defaults_of_plain_dataclass_fields(body, fields):
    source = f"import dataclasses\n\n\n@dataclasses.dataclass\nclass Run:\n    {body}"
    assert summarise(source.encode(), transform_tables(())[0])["fields"] == fields


SMOOTHER = '''import functools

import jax
import jax.numpy as jnp


class Base:
    def __init__(self, rate):
        self.rate = rate

    def step(self, x):
        return x


class Smoother(Base):
    {decorators}
    def step(self, x):
        return x * self.rate
'''


@pytest.mark.parametrize("decorators, calls", [
    ("@functools.partial(jax.jit, static_argnums=0)", ["step"]),
    ("@functools.partial(jax.jit, static_argnames='self')", ["step"]),
    ("@jax.jit", []),  # self traced: a call raises unless the class is a pytree
    ("@functools.partial(jax.jit, static_argnums=(0, 1))", []),  # (not the decorator this reads)
    ("@functools.partial(jax.vmap, in_axes=None)", []),  # not staged
    ("@functools.lru_cache\n    @functools.partial(jax.jit, static_argnums=0)", []),  # another decorator
])
def test_a_method_a_decorator_jits_with_self_static_gives_arrays(decorators, calls):
    """The same answer in-file (``Callees._jit_call``: ``jitted_callables``) and from another module."""
    transforms = transform_tables(())[0]
    found = summarise(SMOOTHER.format(decorators=decorators).encode(), transforms)["classes"]
    assert found.get("Smoother", {}).get("jitted_calls", []) == calls
    assert "Base" not in found


LOOP = '''import numpy as np

from .smoother import Smoother


def fit(x):
    features = np.ones((8, 3), dtype=np.float32)
    smoother = Smoother(0.1)
    for _ in range(100):
        x = smoother.step(x + features)
        x = smoother.step(features)
    return x
'''


@pytest.mark.parametrize("decorators, expected", [
    ("@functools.partial(jax.jit, static_argnums=0)", [(11, "JNP104")]),
    ("", []),
])
def test_numpy_data_handed_each_step_to_an_imported_class_s_jitted_method(tmp_path, decorators, expected):
    write_package(tmp_path, smoother=SMOOTHER.format(decorators=decorators), fit=LOOP)
    assert codes_at(lint(tmp_path, "pkg/fit.py")) == expected


TRAIN_WITH_CONFIG = '''import jax.numpy as jnp

from .steps import Config, make_step, switch_off


def train():
    cfg = Config()
    {between}
    step = make_step(cfg)
    params = jnp.ones(3)
    new_params = step(params, jnp.ones(3))
    return new_params - params
'''


@pytest.mark.parametrize("between, expected", [
    ("pass", [(12, "JNP605")]),  # the field's literal default donates
    ("switch_off(cfg)", []),  # another module's function handed the object may change it (review56a)
    ("same = cfg", []),  # an alias may change it
])
def test_a_config_field_read_across_modules_is_unknown_once_the_object_is_handed_on(tmp_path, between, expected):
    steps = STEP_FACTORY.format(body="return jax.jit(step, donate_argnums=(0,) if cfg.donate else ())") \
        + "\n\ndef switch_off(config):\n    config.donate = False\n"
    write_package(tmp_path, steps=steps, train=TRAIN_WITH_CONFIG.format(between=between))
    assert codes_at(lint(tmp_path, "pkg/train.py")) == expected
