"""Finer points of JNP4xx (dtypes: promotion, 64-bit requests, narrowing) not covered by the fixtures."""
import subprocess
import sys
import textwrap

import pytest

from flake8_jaxnp.options import Options
from snippets import codes, messages, source


X64_SOURCE = """
    def build():
        wide = jnp.zeros(3, dtype=jnp.float64)
        data = jnp.asarray(np.linspace(0.0, 1.0, 3))
        return wide, data
"""


def test_option_x64_silences_narrowing(lint_source):
    assert codes(lint_source(source(X64_SOURCE))) == ["JNP402", "JNP403"]
    assert codes(lint_source(source(X64_SOURCE), Options(x64=True))) == []


def test_flake8_option_jaxnp_x64_reaches_the_checks(tmp_path):
    module = tmp_path / "wide.py"
    module.write_text(source(X64_SOURCE))

    def flake8(*extra):
        result = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "JNP4,JNP403",
                                 "--format", "%(code)s", *extra, str(module)], capture_output=True, text=True)
        assert result.returncode in (0, 1), result.stderr
        return sorted(result.stdout.split())

    assert flake8() == ["JNP402", "JNP403"]
    assert flake8("--jaxnp-x64") == []


@pytest.mark.parametrize("enable, silenced", [
    ('jax.config.update("jax_enable_x64", True)', True),
    ('jax.config.update("jax_enable_x64", False)', False),
    ("from jax import config\nconfig.update('jax_enable_x64', 1)", True),
])
def test_module_that_enables_x64(lint_source, enable, silenced):
    found = lint_source(source(enable + "\n" + textwrap.dedent(X64_SOURCE)))
    assert codes(found) == ([] if silenced else ["JNP402", "JNP403"])


def test_promotion_is_judged_at_the_width_jax_uses(lint_source):
    text = source("""
        def mix():
            a = jnp.ones(3, dtype=jnp.float32)
            b = jnp.ones(3, dtype=jnp.float64)
            return a * b
    """)
    assert codes(lint_source(text)) == ["JNP402"]  # without x64 both are float32
    assert codes(lint_source(text, Options(x64=True))) == ["JNP401"]
    assert any("to float64 in JAX" in m for m in messages(text, Options(x64=True)))


def test_promotion_message_names_numpy_only_where_it_differs():
    found = messages(source("""
        def mix():
            ints = jnp.arange(3, dtype=jnp.int32)
            return ints * jnp.ones(3, dtype=jnp.float16), ints * jnp.ones(3, dtype=jnp.int16)
    """))
    assert [m.split()[0] for m in found] == ["JNP401", "JNP401"]
    float16, int16 = sorted(found, key=lambda m: "float16" not in m)
    assert "float16 in JAX but float64 in NumPy" in float16
    assert "NumPy" not in int16


def test_unknown_and_weak_operands_are_silent(lint_source):
    found = lint_source(source("""
        def mix(x, y):
            half = jnp.ones(3, dtype=jnp.float16)
            return x * y, x * half, half * 3, half * 2.5, half / 2, jnp.asarray(7) + half
    """))
    assert codes(found) == []


def test_true_division_result_dtype_feeds_later_promotion(lint_source):
    found = lint_source(source("""
        def ratio():
            ints = jnp.arange(1, 4, dtype=jnp.int32)
            halves = jnp.ones(3, dtype=jnp.float16)
            mean = ints / ints
            return mean * halves
    """))
    assert found == [(13, "JNP401")]


def test_python_types_are_not_64_bit_requests(lint_source):
    found = lint_source(source("""
        def build(x):
            return jnp.zeros(3, dtype=float), jnp.ones(3, int), x.astype(float)
    """))
    assert codes(found) == []


def test_positional_dtype_slot_comes_from_the_generated_signatures(lint_source):
    found = lint_source(source("""
        def build():
            full = jnp.full((2,), 1.0, jnp.float64)
            ones = jnp.ones((2,), jnp.float64)
            joined = jnp.concatenate([ones, ones], 0, jnp.float64)
            return full, ones, joined, jnp.issubdtype(full.dtype, jnp.float64)
    """))
    assert found == [(10, "JNP402"), (11, "JNP402"), (12, "JNP402")]


def test_numpy_positional_dtype_is_read(lint_source):
    found = lint_source(source("""
        def build():
            narrow = np.ones(3, np.float32)
            wide = np.ones(3, np.float64)
            return jnp.asarray(narrow), jnp.asarray(wide)
    """))
    assert found == [(12, "JNP403")]


def test_dtype_alias_through_a_module_constant(lint_source):
    found = lint_source(source("""
        WIDE = "float64"
        INDEX = np.int64

        def build():
            return jnp.zeros(3, dtype=WIDE), jnp.arange(3, dtype=INDEX)
    """))
    assert codes(found) == ["JNP402", "JNP402"]


def test_a_dtype_argument_that_cannot_be_read_keeps_silence(lint_source):
    found = lint_source(source("""
        def embed(table, dtype):
            host = np.zeros((3, 3), dtype=np.result_type(*table))
            wide = np.zeros(3)
            return jnp.asarray(host), jnp.asarray(wide, dtype=dtype), jnp.asarray(np.ones(3, dtype))
    """))
    assert codes(found) == []


def test_x64_counts_only_for_code_that_runs_after_the_update(lint_source):
    """Module code before a module-level update, and code before an update inside the
    same function, still runs without x64; function bodies run after import."""
    late_module = source("""
        early = jnp.zeros(3, dtype=jnp.float64)
        jax.config.update("jax_enable_x64", True)
        late = jnp.zeros(3, dtype=jnp.float64)
        def build():
            return jnp.zeros(3, dtype=jnp.float64)
    """)
    assert lint_source(late_module) == [(line_of(late_module, "early ="), "JNP402")]
    late_in_function = source("""
        def main():
            params = jnp.zeros(3, dtype=jnp.float64)
            jax.config.update("jax_enable_x64", True)
            return params, jnp.zeros(3, dtype=jnp.float64)
        def other():
            return jnp.zeros(3, dtype=jnp.float64)  # may run after main(): silent
        top = jnp.zeros(3, dtype=jnp.float64)  # import time, before any update
    """)
    assert lint_source(late_in_function) == [(line_of(late_in_function, "params ="), "JNP402"),
                                             (line_of(late_in_function, "top ="), "JNP402")]
    scoped = source("""
        def f():
            with jax.enable_x64(True):
                inside = jnp.zeros(3, dtype=jnp.float64)
            return inside, jnp.zeros(3, dtype=jnp.float64)
    """)
    assert lint_source(scoped) == [(line_of(scoped, "return inside"), "JNP402")]


def line_of(text, fragment):
    return next(number for number, line in enumerate(text.splitlines(), 1) if fragment in line)


def test_x64_message_says_what_jax_does_and_names_the_option():
    [message] = messages(source("x = jnp.zeros(3, dtype=jnp.float64)\n"))
    assert "UserWarning" in message and "float32" in message
    assert "--jaxnp-x64" in message and "jaxnp-x64 = true" in message


def test_promotion_inside_calls_needs_every_operand_dtype(lint_source):
    known = source("""
        a = jnp.ones(3, dtype=jnp.float32)
        b = jnp.arange(3, dtype=jnp.int32)
        c = jnp.where(a > 0, a, b)
        d = jnp.stack([a, b, a])
        e = jnp.einsum("i,i->", a, b)
    """)
    assert codes(lint_source(known)) == ["JNP401", "JNP401", "JNP401"]
    unknown = source("""
        def f(u):
            a = jnp.ones(3, dtype=jnp.float32)
            return jnp.where(a > 0, a, u), jnp.concatenate([a, u]), jnp.where(a > 0, a, 1)
    """)
    assert lint_source(unknown) == []


# A 64-bit dtype given as a parameter's default truncates when a call in the file keeps it;
# callers elsewhere may pass another dtype, so a function no call here leaves at its default is silent.
@pytest.mark.parametrize("body, expected", [
    ("def make(n, dtype=np.float64):\n    return jnp.zeros(n, dtype=dtype)\nx = make(3)\n", [2]),
    ("def make(n, dtype='int64'):\n    return jnp.arange(n, dtype=dtype)\nx = make(3, dtype=jnp.int32)\ny = make(2)\n",
     [2]),
    ("class M:\n    def make(self, n, *, dtype=jnp.float64):\n        return jnp.ones(n, dtype=dtype)\n"
     "    def run(self):\n        return self.make(3)\n", [3]),
    ("def make(n, dtype=np.float64):\n    return jnp.zeros(n, dtype=dtype)\n", []),
    ("def make(n, dtype=np.float64):\n    return jnp.zeros(n, dtype=dtype)\nx = make(3, np.float32)\n", []),
    ("def make(n, dtype=np.float64):\n    return jnp.zeros(n, dtype=dtype)\nx = make(3, **{})\n", []),
    ("def make(n, dtype=float):\n    return jnp.zeros(n, dtype=dtype)\nx = make(3)\n", []),
    ("def make(n, dtype=np.float64):\n    dtype = jnp.float32\n    return jnp.zeros(n, dtype=dtype)\n"
     "x = make(3)\n", []),
])
def test_dtype_parameter_default(lint_source, body, expected):
    text = "import jax.numpy as jnp\nimport numpy as np\n" + body
    assert [line - 2 for line, code in lint_source(text) if code == "JNP402"] == expected


HELPER_HEADER = "import jax\nimport jax.numpy as jnp\n\n\ndef combine(a, b):\n    return a + b\n\n\n"
F32, I32, BF16 = "jnp.ones(3, dtype=jnp.float32)", "jnp.arange(3, dtype=jnp.int32)", "jnp.ones(3, dtype=jnp.bfloat16)"


@pytest.mark.parametrize("body, expected", [
    (f"def run():\n    return combine({F32}, {I32})\n", [(6, "JNP401")]),
    (f"def run():\n    x, y = {BF16}, {F32}\n    return combine(x, b=y), combine(x, y)\n", [(6, "JNP401")]),
    # callers that agree on one dtype, that disagree, or that pass unknown or weak values
    (f"def run():\n    return combine({F32}, {F32})\n", []),
    (f"def run():\n    return combine({F32}, {I32}), combine({F32}, {F32})\n", []),
    (f"def run(y):\n    return combine({F32}, y)\n", []),
    (f"def run():\n    return combine({F32}, 2)\n", []),
    (f"def run(args):\n    return combine({F32}, *args)\n", []),
    # the function is also handed on as a value: its other callers are not known
    (f"def run():\n    return combine({F32}, {I32}), jax.vmap(combine)\n", []),
    # no call at all
    ("def run():\n    return 1\n", []),
])
def test_promotion_of_parameters_that_every_call_agrees_on(lint_source, body, expected):
    assert [f for f in lint_source(HELPER_HEADER + body) if f[1] == "JNP401"] == expected


def test_promotion_of_parameters_names_the_calls():
    one = messages(HELPER_HEADER + f"def run():\n    return combine({F32}, {I32}), combine({F32}, b={I32})\n")
    two = messages(HELPER_HEADER + f"def run():\n    x = combine({F32}, {I32})\n    return combine({F32}, {I32})\n")
    assert [m.split(" promotes")[0] for m in one + two] == [
        "JNP401 a (float32) + b (int32), as called on line 10,",
        "JNP401 a (float32) + b (int32), as called on lines 10, 11,"]


def test_narrowing_inside_narrowing_is_reported_once_for_the_outermost_expression():
    """The research corpus's ``Y = 0.8 * jnp.sin(X) + 0.1 + np.random.normal(...)``: one report, not one
    for it and another for ``jnp.sin(X)`` in it; a second statement is still reported on its own."""
    found = [message for message in messages(source("""
        X = np.linspace(0.0, 1.0, 5)
        Y = 0.8 * jnp.sin(X) + 0.1 + np.random.normal(size=5)
        Z = jnp.sin(X)
    """)) if message.startswith("JNP403")]
    assert [message.split(" hands ")[0] for message in found] == [
        "JNP403 0.8 * jnp.sin(X) + 0.1 + np.random.normal(...)", "JNP403 jnp.sin(X)"]


@pytest.mark.parametrize("call, found", [
    ("jnp.tanh(h)", ["JNP401"]),  # element-wise: bfloat16 in, bfloat16 out
    ("jax.nn.softmax(h)", ["JNP401"]),
    ("jnp.clip(h, lo)", []),  # a second argument may promote: the dtype is not kept
    ("jnp.tanh(h.astype(jnp.float32))", []),
    ("jnp.sum(h)", []),  # a reduction is not measured to keep it
])
def test_element_wise_functions_keep_a_floating_dtype(lint_source, call, found):
    text = source(f"""
        def forward(lo):
            h = jnp.ones(3, dtype=jnp.bfloat16)
            return {call} + jnp.zeros(3, dtype=jnp.float32)
    """)
    assert codes(lint_source(text)) == found


OBJECT_HEADER = ("import jax.numpy as jnp\n\n\nclass Mixer:\n    def __call__(self, a, b):\n        return a * b\n\n"
                 "    def describe(self):\n        return 'a times b'\n\n\n")


@pytest.mark.parametrize("body, expected", [
    # the calls of what each construction builds: in place, by a name bound once, through a transform
    (f"def run():\n    return Mixer()({F32}, {I32})\n", [(6, "JNP401")]),
    (f"def run():\n    mix = Mixer()\n    return mix({F32}, b={I32}), mix.describe()\n", [(6, "JNP401")]),
    (f"import jax\n\n\ndef run():\n    return jax.jit(Mixer())({BF16}, {F32})\n", [(6, "JNP401")]),
    (f"def run():\n    return Mixer()({F32}, {F32})\n", []),
    # an object handed on, or a class used otherwise: its other calls are not known
    (f"def run(keep):\n    mix = Mixer()\n    keep(mix)\n    return mix({F32}, {I32})\n", []),
    (f"class Wide(Mixer):\n    pass\n\n\ndef run():\n    return Mixer()({F32}, {I32})\n", []),
])
def test_promotion_of_call_parameters_given_by_an_object_s_calls(lint_source, body, expected):
    assert [f for f in lint_source(OBJECT_HEADER + body) if f[1] == "JNP401"] == expected


def test_an_object_that_calls_itself_has_callers_the_join_does_not_see(lint_source):
    source = OBJECT_HEADER.replace("    def describe(self):\n        return 'a times b'",
                                   "    def twice(self, a, b):\n        return self(a, self(a, b))")
    assert lint_source(source + f"def run():\n    return Mixer()({F32}, {I32})\n") == []
