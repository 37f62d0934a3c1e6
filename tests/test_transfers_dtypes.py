"""Finer points of JNP1xx (transfers in loops) and JNP4xx (dtypes) not covered by the fixtures."""
import ast
import subprocess
import sys
import textwrap

import pytest

from flake8_jaxnp.linter import lint
from flake8_jaxnp.options import Options

HEADER = """\
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def step(p):
    return p * 0.5, jnp.sum(p)
"""


def source(body):
    return HEADER + textwrap.dedent(body)


def codes(findings, prefix="JNP"):
    return sorted(code for _, code in findings if code.startswith(prefix))


def messages(text, options=Options()):
    return [finding.message for finding in lint(ast.parse(text), text.splitlines(True), options)]


# ---- JNP1xx ------------------------------------------------------------------

def test_one_finding_per_transfer(lint_source):
    found = lint_source(source("""
        def train(p):
            for _ in range(1000):
                p, loss = step(p)
                print(float(loss))
                print(f"{np.asarray(loss)}")
                print(str(loss.item()))
    """))
    assert codes(found) == ["JNP101", "JNP102", "JNP102"]


def test_local_named_np_is_not_numpy(lint_source):
    found = lint_source(source("""
        def train(p, np):
            for _ in range(1000):
                p, loss = step(p)
                np.asarray(loss)
    """))
    assert codes(found) == []


def test_inner_loop_under_a_guard_still_repeats(lint_source):
    found = lint_source(source("""
        def train(p):
            for epoch in range(1000):
                if epoch % 2 == 0:
                    for _ in range(1000):
                        p, loss = step(p)
                        print(loss)
                    print(loss)
    """))
    assert found == [(14, "JNP103")]


def test_sync_once_per_outer_loop_is_the_inner_loops_boundary(lint_source):
    found = lint_source(source("""
        def train(p, batches):
            host = np.ones(3, dtype=np.float32)
            for epoch in range(1000):
                for batch in batches:
                    p, loss = step(p)
                print(f"epoch {epoch}: {loss}")
                if not jnp.isfinite(loss):
                    break
                p = p + jnp.asarray(host)
            return p
    """))
    assert found == [(17, "JNP104")]  # a repeated upload of unchanged data is waste all the same


def test_comprehension_first_iterable_runs_once(lint_source):
    found = lint_source(source("""
        def summary(p):
            values = [v for v in np.asarray(jnp.sin(p))]
            rows = [np.asarray(r) for r in jnp.sin(p)]
            return values, rows
    """))
    assert found == [(11, "JNP101")]


def test_only_the_first_operand_of_and_is_unconditional(lint_source):
    found = lint_source(source("""
        def train(p, verbose):
            for _ in range(1000):
                p, loss = step(p)
                if loss > 1 and verbose:
                    pass
                if verbose and loss > 1:
                    pass
    """))
    assert found == [(12, "JNP102")]


def test_continue_in_an_earlier_branch_guards_what_follows(lint_source):
    found = lint_source(source("""
        def train(p):
            for i in range(1000):
                p, loss = step(p)
                if i % 5:
                    continue
                print(loss)
            while True:
                p, loss = step(p)
                if i > 3:
                    break
                print(loss)
    """))
    assert found == [(19, "JNP103")]  # break ends the loop: until then it prints every time


def test_traced_loops_and_module_loops(lint_source):
    found = lint_source(source("""
        @jax.jit
        def unrolled(x):
            for _ in range(1000):
                x = jnp.sin(x)
                y = jnp.asarray(np.ones(3, dtype=np.float32))
            return x + y

        p = jnp.ones(3)
        for _ in range(1000):
            p, loss = step(p)
            losses = float(loss)
    """))
    assert codes(found, "JNP1") == ["JNP102"]


def test_upload_is_invariant_only_in_its_innermost_loop(lint_source):
    found = lint_source(source("""
        def train(p):
            for epoch in range(1000):
                data = np.full(3, epoch, dtype=np.float32)
                for _ in range(1000):
                    p = p + jnp.asarray(data)
                p = p + jnp.asarray(data)
            return p
    """))
    assert found == [(13, "JNP104")]


def test_upload_to_a_new_device_each_iteration_is_not_repeated(lint_source):
    found = lint_source(source("""
        def replicate(device):
            host = np.ones(3, dtype=np.float32)
            copies = [jax.device_put(host, d) for d in jax.devices()]
            for _ in range(1000):
                copies.append(jax.device_put(host, device))
            return copies
    """))
    assert found == [(13, "JNP104")]


def test_upload_of_a_global_that_functions_rebind_is_silent(lint_source):
    found = lint_source(source("""
        TABLE = np.ones(3, dtype=np.float32)

        def reload():
            global TABLE
            TABLE = np.zeros(3, dtype=np.float32)

        def train(p):
            for _ in range(1000):
                reload()
                p = p + jnp.asarray(TABLE)
            return p
    """))
    assert codes(found) == []


# ---- JNP4xx ------------------------------------------------------------------

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
        result = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "JNP4",
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
