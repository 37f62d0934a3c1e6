"""A function every call of a top-level def hands to a parameter the def calls runs traced where the
def is traced: a def by name, or each entry a lookup in a dict of functions may give
(``gram(KERNELS[name], p, x)``); callers that hand different functions, or a module that names the
def otherwise (its callers unseen), leave it unknown."""
import pytest

from flake8_jaxnp.model.project.callers_first import callers_first
from flake8_jaxnp.model.project.defaults import module_words
from test_project import codes_at, lint

KERNELS = '''import jax.numpy as jnp
import numpy as np


def smooth(scale, x):
    return jnp.exp(-scale * x)


def wavy(scale, x):
    return np.sin(scale * x)


KERNELS = {"smooth": smooth, "wavy": wavy}
'''
GRAM = '''import jax
import jax.numpy as jnp

from .kernels import KERNELS, smooth, wavy


def gram(kernel, scale, x):
    return kernel(scale, x) + jnp.eye(x.shape[0])


@jax.jit
def loss(scale, x):
    return jnp.sum(gram({given}, scale, x))
{more}'''


def _write(root, given, more=""):
    package = root / "demo"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "kernels.py").write_text(KERNELS)
    (package / "gp.py").write_text(GRAM.format(given=given, more=more))


def _write_bumped_lookup(root, key):
    """update.py's ``bump`` updates in place what run.py's lookup ``gp.KERNELS[key](...)`` gives."""
    (root / "demo" / "update.py").write_text(
        "import numpy as np\n\n\ndef bump(K):\n    K[np.diag_indices_from(K)] += 1.0\n    return K\n")
    (root / "demo" / "run.py").write_text(
        "import jax.numpy as jnp\n\nfrom demo import gp\nfrom demo.update import bump\n\n\n"
        f"def main(name):\n    return bump(gp.KERNELS[{key}](1.0, jnp.ones((3, 3))))\n")


@pytest.mark.parametrize("given, more, expected", [
    ('KERNELS["wavy"]', "", [(10, "JNP201")]),
    ("KERNELS[NAME]", "\n\nNAME = 'smooth'\n", [(10, "JNP201")]),  # a key not a constant: every entry
    ("wavy", "", [(10, "JNP201")]),
    ('KERNELS["smooth"]', "", []),
    ("wavy", "\n\ndef host(x):\n    return gram(smooth, 1.0, x)\n", []),  # callers disagree
    ("wavy", "\n\ndef host(x):\n    return gram(wavy, 1.0, x)\n", [(10, "JNP201")]),  # they agree
    ("wavy", "\n\nUNSEEN = jax.jit(gram)\n", []),  # named otherwise: its callers are not all seen
])
def test_a_function_every_caller_hands_to_a_def_that_calls_it_is_traced_with_it(tmp_path, given, more, expected):
    _write(tmp_path, given, more)
    assert codes_at(lint(tmp_path, "demo/kernels.py")) == expected


@pytest.mark.parametrize("key, expected", [('"smooth"', [(5, "JNP501")]), ('"wavy"', []), ("name", [])])
def test_what_a_call_through_a_dict_of_functions_gives_is_what_every_entry_it_may_give_returns(
        tmp_path, key, expected):
    _write(tmp_path, "wavy")
    _write_bumped_lookup(tmp_path, key)
    assert codes_at(lint(tmp_path, "demo/update.py")) == expected


@pytest.mark.parametrize("key, expected", [('"smooth"', [(5, "JNP501")]), ("name", [])])
def test_an_entry_the_project_does_not_summarise_leaves_what_a_lookup_gives_unknown(tmp_path, key, expected):
    """``Host`` (a class of another module: no function summary) may give a NumPy array, updated in place."""
    _write(tmp_path, "wavy")
    (tmp_path / "demo" / "kernels.py").write_text(KERNELS.replace('"wavy": wavy}', '"host": Host}').replace(
        "import numpy as np\n", "import numpy as np\n\nfrom demo.host import Host\n"))
    (tmp_path / "demo" / "host.py").write_text(
        "import numpy as np\n\n\nclass Host(np.ndarray):\n    def __new__(cls, scale, x):\n"
        "        return np.asarray(scale * np.asarray(x)).view(cls)\n")
    _write_bumped_lookup(tmp_path, key)
    assert codes_at(lint(tmp_path, "demo/update.py")) == expected


SCORER = '''import jax

from .kernels import KERNELS


class Scorer:
    def __init__(self, name):
        self.name = name
        self.trace = []
        self.score = jax.jit(self._score)

    def _score(self, x):
        s = KERNELS[self.name](1.0, x)
        self.trace.append(s.max())
        return s
'''


@pytest.mark.parametrize("wavy, expected", [
    ("jnp.sin(scale * x)", [(14, "JNP303")]),
    ("(jnp.sin(scale * x), x)", []),  # an entry gives a tuple: the join is no array
])
def test_a_call_through_an_imported_dict_of_functions_gives_what_its_entries_give_joined(tmp_path, wavy, expected):
    _write(tmp_path, "wavy")
    (tmp_path / "demo" / "kernels.py").write_text(KERNELS.replace("np.sin(scale * x)", wavy))
    (tmp_path / "demo" / "score.py").write_text(SCORER)
    assert codes_at(lint(tmp_path, "demo/score.py")) == expected


EVALUATOR = '''import functools

import jax

from .kernels import KERNELS


class Evaluator:
    def __init__(self, names):
        self.fns = {stored}

    @functools.partial(jax.jit, static_argnums=0)
    def evaluate(self, x):
        return {called}
{more}'''


@pytest.mark.parametrize("stored, called, more, expected", [
    ("{n: KERNELS[n] for n in names}", "{n: fn(1.0, x) for n, fn in self.fns.items()}", "", [(10, "JNP201")]),
    ("{n: KERNELS[n] for n in names}", "[fn(1.0, x) for fn in self.fns.values()]", "", [(10, "JNP201")]),
    ("{n: KERNELS[n] for n in names}", "self.fns[names[0]](1.0, x)", "", [(10, "JNP201")]),
    ('{n: KERNELS["smooth"] for n in names}', "[fn(1.0, x) for fn in self.fns.values()]", "", []),
    ("{n: KERNELS[n] for n in names}", "[fn(1.0, x) for fn in self.fns]", "", []),  # the keys: no function
    ("{n: KERNELS[n] for n in names}", "[fn(1.0, x) for fn in self.fns.values()]",  # stored again elsewhere
     "\n\ndef reset(ev):\n    ev.fns = {}\n", []),
    ("{n: KERNELS[n] for n in names}", "[fn(1.0, x) for fn in self.fns.values() for fn in (abs,)]", "", []),
])
def test_a_dict_of_lookups_kept_on_self_runs_its_entries_where_a_jitted_method_calls_its_items(
        tmp_path, stored, called, more, expected):
    """``self.fns = {n: KERNELS[n] ...}`` in ``__init__``: a call of an item, or of a loop variable over its
    values or items, in a jitted method runs each entry the lookup may give; not the keys, not a name bound
    twice, not an attribute the module stores again."""
    _write(tmp_path, 'KERNELS["smooth"]')  # (gp.py traces smooth alone)
    (tmp_path / "demo" / "evaluate.py").write_text(EVALUATOR.format(stored=stored, called=called, more=more).replace(
        "names[0]", "'wavy'").replace("def evaluate(self, x)", "def evaluate(self, x, names=('wavy',))"))
    assert codes_at(lint(tmp_path, "demo/kernels.py")) == expected


@pytest.mark.parametrize("table, expected", [("KERNELS", [(10, "JNP201")]), ("{'s': smooth}", [])])
def test_a_jitted_def_that_calls_every_value_of_a_dict_of_functions_traces_each(tmp_path, table, expected):
    _write(tmp_path, 'KERNELS["smooth"]')  # (gp.py traces smooth alone)
    (tmp_path / "demo" / "report.py").write_text(
        "import jax\n\nfrom .kernels import KERNELS, smooth\n\n\n@jax.jit\ndef report(x):\n"
        f"    return [fn(1.0, x) for name, fn in {table}.items()]\n")
    assert codes_at(lint(tmp_path, "demo/kernels.py")) == expected


FACTORY = '''import jax

from .kernels import KERNELS


def scaled(kernel):
    def scaled_kernel(scale, x):
        return kernel(2.0 * scale, x)

    return scaled_kernel


class Fitter:
    def __init__(self, name):
        self.kernel = {stored}
        self.fit = jax.jit(self._fit)

    def _fit(self, scale, x):
        return {called}
{more}'''


@pytest.mark.parametrize("stored, called, more, expected", [
    ("scaled(KERNELS[name])", "jax.grad(lambda s: self.kernel(s, x).sum())(scale)", "", [(10, "JNP201")]),
    ("scaled(KERNELS[name])", "jax.value_and_grad(self.kernel)(scale, x)", "", [(10, "JNP201")]),
    ("scaled(KERNELS[name])", "self.kernel(scale, x)", "", [(10, "JNP201")]),
    ('scaled(KERNELS["smooth"])', "self.kernel(scale, x)", "", []),
    ("scaled(KERNELS[name])", "self.kernel(scale, x)", "\n\ndef swap(f):\n    f.kernel = abs\n", []),  # stored again
])
def test_the_def_a_factory_returns_kept_on_self_runs_where_a_jitted_method_calls_it(
        tmp_path, stored, called, more, expected):
    """``self.kernel = scaled(KERNELS[name])`` in ``__init__``: the def ``scaled`` returns runs, and calls what
    the factory's callers hand it, where a method jitted in ``__init__`` calls or differentiates it."""
    _write(tmp_path, 'KERNELS["smooth"]')  # (gp.py traces smooth alone)
    (tmp_path / "demo" / "fit.py").write_text(FACTORY.format(stored=stored, called=called, more=more))
    assert codes_at(lint(tmp_path, "demo/kernels.py")) == expected


@pytest.mark.parametrize("host, expected", [("smooth", []), ("wavy", [(10, "JNP201")])])
def test_the_callers_read_first_give_the_same_join(tmp_path, host, expected):
    """The join reads the module that imports gp.py (b_host.py) before gp.py itself and a module
    that only has the word (a_notes.py, first by name): the answer is the one every call gives."""
    _write(tmp_path, "wavy")
    (tmp_path / "demo" / "a_notes.py").write_text("NOTE = 'gram is built in gp'\n")
    (tmp_path / "demo" / "b_host.py").write_text(
        f"from .gp import gram\nfrom .kernels import {host}\n\n\ndef host(x):\n    return gram({host}, 1.0, x)\n")
    assert codes_at(lint(tmp_path, "demo/kernels.py")) == expected


def test_the_modules_that_import_the_defining_module_are_read_first(tmp_path):
    """``callers_first``: importers of gp.py, then gp.py, then the others with the word, then the
    rest, each call with its place in the modules' first order and among the module's calls."""
    texts = {"a_notes.py": "# gp\n", "b_plain.py": "x = 1\n", "c_host.py": "from . import gp\n",
             "gp.py": "def gram():\n    pass\n", "d_host.py": "from .gp import gram\n"}
    for name, text in texts.items():
        (tmp_path / name).write_text(text)
    naming = [(tmp_path / name, None) for name in texts]
    for path, _ in naming:
        module_words(path)
    order = list(callers_first(naming, tmp_path / "gp.py", lambda path, version: ["first", "second"]))
    assert [(place, path.name, call) for place, (path, call) in order] == [
        ((2, 0), "c_host.py", "first"), ((2, 1), "c_host.py", "second"),
        ((4, 0), "d_host.py", "first"), ((4, 1), "d_host.py", "second"),
        ((3, 0), "gp.py", "first"), ((3, 1), "gp.py", "second"),
        ((0, 0), "a_notes.py", "first"), ((0, 1), "a_notes.py", "second"),
        ((1, 0), "b_plain.py", "first"), ((1, 1), "b_plain.py", "second")]
