"""Bad, odd and huge input never crashes the plugin or turns into JNP900.

Generated programs (hypothesmith's grammar-valid Python and a JAX-flavoured
generator), broken files through flake8 itself, and very large or very deep
files through the plugin class that flake8 calls.
"""
import ast
import gc
import io
import subprocess
import sys
import tokenize

import hypothesmith
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from flake8_jaxnp.linter import lint
from flake8_jaxnp.options import Options
from flake8_jaxnp.plugin import JaxNumpyChecker

IMPORTS = ("import functools\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\n"
           "from functools import partial\nfrom jax import lax\n")
JIT_NUMPY_ON_TRACER = "@jax.jit\ndef traced_{n}(x):\n    return np.sin(x)\n"
GENERATED = settings(max_examples=60, deadline=None, derandomize=True,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def run_plugin(source):
    """Codes the plugin reports for ``source``, called the way flake8 calls it."""
    tree = ast.parse(source)
    checker = JaxNumpyChecker(tree, source.splitlines(True))
    return [message.split()[0] for _, _, message, _ in checker.run()]


def assert_no_internal_error(codes):
    assert "JNP900" not in codes


def run_flake8(tmp_path, files):
    """{file name: [codes]} from one flake8 run over ``files`` ({name: bytes})."""
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
    result = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", "--select", "E9,JNP", "--format", "%(path)s\t%(code)s",
         *sorted(files)], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    found = {name: [] for name in files}
    for line in result.stdout.splitlines():
        path, code = line.split("\t")
        found[path].append(code)
    return found


# ---- generated programs ---------------------------------------------------------
@GENERATED
@given(hypothesmith.from_grammar())
def test_grammar_generated_programs_do_not_crash(source):
    try:
        ast.parse(source)
    except (SyntaxError, ValueError):
        assume(False)  # the grammar admits some programs the compiler rejects
    # Trailing imports make the module relevant to the plugin without changing what its code does.
    assert_no_internal_error(run_plugin(source + "\n" + IMPORTS))


NAMES = st.sampled_from(["x", "y", "carry", "key", "state", "i", "params", "np", "jnp", "self"])
ATOMS = st.one_of(
    NAMES,
    st.sampled_from(["0", "1.5", "None", "True", "'s'", "()", "[]", "jnp.float64", "np.float32",
                     "np.zeros(3)", "jnp.ones((2, 2))", "np.random.rand(3)", "x.shape[0]"]),
)
CALLS = ["np.sin({})", "jnp.sin({})", "float({})", "int({})", "bool({})", "{}.item()", "np.asarray({})",
         "jnp.asarray({})", "jax.device_get({})", "jnp.where({})", "jnp.nonzero({})", "{}.astype(jnp.float64)",
         "{}.at[0].set(1)", "jnp.array({}, dtype=np.int64)", "print({})", "{}.append(1)", "range({})",
         "lax.cond({0}, lambda v: v, lambda v: v, {0})", "jax.grad(lambda v: v)({})", "str({})", "len({})",
         "{}.reshape({})", "np.mean({}, out=y)", "jax.tree_map(f, {})", "{}[{} > 0]", "{}.sort()"]
EXPRESSIONS = st.recursive(
    ATOMS,
    lambda inner: st.one_of(
        st.builds(lambda template, a, b: template.format(a, b), st.sampled_from(CALLS), inner, inner),
        st.builds("({} {} {})".format, inner, st.sampled_from(["+", "*", "@", ">", "==", "and", "or", "if x else"]),
                  inner),
        st.builds("[{}, {}]".format, inner, inner),
        st.builds("{}.{}".format, inner, st.sampled_from(["T", "shape", "dtype", "real", "at", "value"])),
    ),
    max_leaves=6,
)
DECORATORS = st.sampled_from(["", "@jax.jit\n", "@jax.vmap\n", "@jax.grad\n", "@jax.jit\n@jax.vmap\n",
                              "@functools.partial(jax.jit, static_argnums=0)\n", "@staticmethod\n"])


def _indent(lines):
    return ["    " + line for line in lines]


@st.composite
def blocks(draw, depth=0):
    """A list of source lines: assignments, calls, control flow, nested defs."""
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        choice = draw(st.integers(0, 9 if depth < 3 else 4))
        target, value = draw(NAMES), draw(EXPRESSIONS)
        if choice == 0:
            lines.append(f"{target} = {value}")
        elif choice == 1:
            lines.append(f"{target} += {value}")
        elif choice == 2:
            lines.append(value)
        elif choice == 3:
            lines.append(f"{target}[0] = {value}")
        elif choice == 4:
            lines.append(f"global {target}" if draw(st.booleans()) else f"self.{target} = {value}")
        elif choice == 5:
            lines += [f"if {value}:"] + _indent(draw(blocks(depth + 1)))
            if draw(st.booleans()):
                lines += ["else:"] + _indent(draw(blocks(depth + 1)))
        elif choice == 6:
            lines += [f"for {target} in {value}:"] + _indent(draw(blocks(depth + 1)))
        elif choice == 7:
            lines += [f"while {value}:"] + _indent(draw(blocks(depth + 1)) + ["break"])
        elif choice == 8:
            lines += draw(functions(depth + 1))
        else:
            lines += ["try:"] + _indent(draw(blocks(depth + 1))) + ["except Exception as e:", "    pass"]
    return lines


@st.composite
def functions(draw, depth=0):
    decorator = draw(DECORATORS)
    name = draw(st.sampled_from(["f", "g", "body", "step", "loss"]))
    params = draw(st.sampled_from(["x", "x, y", "carry, x", "self, x", "x, n=3", "*args", ""]))
    body = draw(blocks(depth)) + [f"return {draw(EXPRESSIONS)}"]
    return decorator.splitlines() + [f"def {name}({params}):"] + _indent(body)


@st.composite
def jax_programs(draw):
    parts = [IMPORTS]
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 2))
        if kind == 0:
            parts.append("\n".join(draw(functions())))
        elif kind == 1:
            parts.append("class Model:\n" + "\n".join(_indent(draw(functions()))))
        else:
            parts.append("\n".join(draw(blocks())))
    return "\n\n".join(parts) + "\n"


@GENERATED
@given(jax_programs())
def test_jax_flavoured_programs_do_not_crash(source):
    try:
        ast.parse(source)
    except SyntaxError:
        assume(False)  # e.g. ``global x`` after a use of x, or a misplaced ``return``
    assert_no_internal_error(run_plugin(source))


# ---- files that are broken or odd ---------------------------------------------------
def test_broken_files_get_flake8s_own_errors_and_no_traceback(tmp_path):
    positive = IMPORTS + JIT_NUMPY_ON_TRACER.format(n=0)
    found = run_flake8(tmp_path, {
        "syntax_error.py": (positive + "x = (1,\n").encode(),
        "bad_indent.py": (positive + "\n  y = 1\n").encode(),
        "bom.py": b"\xef\xbb\xbf" + positive.encode(),
        "bom_only.py": b"\xef\xbb\xbf",
        "latin1_bytes.py": positive.encode() + b"# caf\xe9 \xff\xfe\n",
        "unknown_coding.py": b"# -*- coding: no-such-codec -*-\n" + positive.encode(),
        "crlf.py": positive.replace("\n", "\r\n").encode(),
        "empty.py": b"",
        "only_comments.py": b"# jax numpy\n# nothing else\n",
    })
    assert found["syntax_error.py"] == ["E999"]
    assert found["bad_indent.py"] == ["E999"]
    for name in ("bom.py", "latin1_bytes.py", "unknown_coding.py", "crlf.py"):
        assert found[name] == ["JNP201"], name  # still analysed, and still correct
    for name in ("bom_only.py", "empty.py", "only_comments.py"):
        assert found[name] == [], name


def test_null_byte_is_e999_and_no_traceback(tmp_path):
    source = IMPORTS + JIT_NUMPY_ON_TRACER.format(n=0) + "x = 1\x00\n"
    try:
        list(tokenize.generate_tokens(io.StringIO(source).readline))
    except SystemError:  # CPython 3.12.1's tokenizer: flake8 crashes here without this plugin too
        pytest.skip(f"Python {sys.version.split()[0]} cannot tokenize a null byte")
    except (SyntaxError, tokenize.TokenError):
        pass
    assert run_flake8(tmp_path, {"null_byte.py": source.encode()})["null_byte.py"] == ["E999"]


def test_binary_files_are_reported_at_a_line(tmp_path):
    """Every line flake8 prints for a binary file, E999 or a finding on the text around it, names a line."""
    positive = (IMPORTS + JIT_NUMPY_ON_TRACER.format(n=0)).encode()
    files = {"png.py": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "elf.py": b"\x7fELF\x02\x01\x01" + bytes(9),
             "high_bytes.py": bytes(range(128, 256)), "code_then_bytes.py": positive + bytes(range(128, 256)),
             "code_then_null.py": positive + b"\x00\x01"}
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
    result = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "E9,JNP", "--format",
                             "%(path)s\t%(row)s\t%(code)s", *sorted(files)],
                            capture_output=True, text=True, cwd=tmp_path)
    assert "Traceback" not in result.stderr
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert {path for path, _, _ in rows} == set(files)  # each is reported: E999, or a finding for the code
    assert all(row.isdigit() and int(row) >= 1 for _, row, _ in rows), result.stdout


def test_unreadable_file_is_e902(tmp_path):
    (tmp_path / "dangling.py").symlink_to(tmp_path / "missing-target.py")
    result = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "E9,JNP", "dangling.py"],
                            capture_output=True, text=True, cwd=tmp_path)
    assert "E902" in result.stdout
    assert "JNP" not in result.stdout and "Traceback" not in result.stderr


# ---- size and depth -----------------------------------------------------------------
def test_fifty_thousand_line_file_is_analysed_completely():
    blocks_needed = 50_000 // JIT_NUMPY_ON_TRACER.count("\n") + 1
    source = IMPORTS + "\n".join(JIT_NUMPY_ON_TRACER.format(n=n) for n in range(blocks_needed))
    assert source.count("\n") >= 50_000
    codes = run_plugin(source)
    assert codes.count("JNP201") == blocks_needed
    assert_no_internal_error(codes)


DEEP = 1000
DEEP_EXPRESSIONS = {
    "binary operators": " + ".join(["x"] * DEEP),
    "attribute chain": "jnp" + ".linalg" * DEEP,
    "call chain": "x" + "(x)" * DEEP,
    "subscript chain": "x" + "[0]" * DEEP,
    "unary operators": "-" * DEEP + "x",
    "not chain": "not " * DEEP + "x",
    "boolean chain": " and ".join(["x"] * DEEP),
    "comparison chain": " < ".join(["x"] * DEEP),
    "conditional chain": "x if x else " * DEEP + "x",
    "lambda chain": "lambda: " * DEEP + "x",
}


def test_thousand_deep_expressions_do_not_crash():
    for label, expression in DEEP_EXPRESSIONS.items():
        body = f"    y = {expression}\n    if y:\n        print(y)\n    return np.sin(y)\n"
        source = IMPORTS + "@jax.jit\ndef f(x):\n" + body
        try:
            ast.parse(source)
        except (SyntaxError, RecursionError, MemoryError):
            continue  # Python itself refuses it: flake8 reports E999, the plugin never sees it
        assert "JNP900" not in run_plugin(source), label


UNUSUAL_SYNTAX = {  # each snippet follows IMPORTS
    'module global': (
        'global x\n'
        'x = 1\n'
    ),
    'match': (
        '@jax.jit\n'
        'def f(x):\n'
        '    match x:\n'
        '        case [a, *rest] if a > 0:\n'
        '            return np.sin(a)\n'
        "        case {'k': v, **kw}:\n"
        '            return v\n'
        '        case jnp.ndarray(shape=s) | None:\n'
        '            pass\n'
        '        case _:\n'
        '            return x\n'
    ),
    'async': (
        'async def f(x):\n'
        '    async with g() as (a, b):\n'
        '        async for i in a:\n'
        '            await np.sin(i)\n'
        '    return [j async for j in x]\n'
    ),
    'walrus comp': (
        '@jax.jit\n'
        'def f(x):\n'
        '    ys = [y := np.sin(v) for v in x]\n'
        '    return y\n'
    ),
    'nonlocal class': (
        'def outer():\n'
        '    x = jnp.ones(3)\n'
        '    class C:\n'
        '        def m(self):\n'
        '            nonlocal x\n'
        '            x = x + 1\n'
        '    return C\n'
    ),
    'star targets': (
        '@jax.jit\n'
        'def f(x):\n'
        '    a, *b, (c, d) = x\n'
        '    [e, f] = x, x\n'
        '    return np.sin(c)\n'
    ),
    'del': (
        '@jax.jit\n'
        'def f(x):\n'
        '    y = x\n'
        '    del y, x\n'
        '    return y\n'
    ),
    'try star': (
        '@jax.jit\n'
        'def f(x):\n'
        '    try:\n'
        '        y = np.sin(x)\n'
        '    except* ValueError as e:\n'
        '        y = e\n'
        '    else:\n'
        '        y = 1\n'
        '    finally:\n'
        '        print(y)\n'
        '    return y\n'
    ),
    'decorated lambda jit': (
        'f = jax.jit(lambda x, *a, k=1, **kw: np.sin(x) if x else kw)\n'
    ),
    'partial chains': (
        'g = jax.jit(partial(partial(jax.vmap(lambda a, b: np.sin(a)), 1), 2))\n'
    ),
    'jit of jit': (
        '@jax.jit\n'
        '@jax.jit\n'
        '@jax.grad\n'
        'def f(x):\n'
        '    return float(x)\n'
    ),
    'recursion': (
        '@jax.jit\n'
        'def f(x):\n'
        '    return f(x - 1) if x else g(x)\n'
        'def g(y):\n'
        '    return f(y)\n'
    ),
    'self recursion alias': (
        'a = b\n'
        'b = a\n'
        'c = a.x\n'
        '@jax.jit\n'
        'def f(x):\n'
        '    return a(x)\n'
    ),
    'class body': (
        'class K:\n'
        '    x = jnp.ones(3)\n'
        '    y = [x for _ in range(3)]\n'
        '    @jax.jit\n'
        '    def f(self, x):\n'
        '        return np.sin(x)\n'
        '    @staticmethod\n'
        '    @jax.jit\n'
        '    def g(x):\n'
        '        return np.sin(x)\n'
    ),
    'static_argnums weird': (
        "@partial(jax.jit, static_argnums=(-1, 5, 'x'))\n"
        'def f(x, y):\n'
        '    return np.sin(x)\n'
        "@partial(jax.jit, static_argnames=('x',), donate_argnums=0)\n"
        'def g(x, y):\n'
        '    return np.sin(y)\n'
    ),
    'lax bodies': (
        'from jax import lax\n'
        'def body(c, x):\n'
        '    return c, np.sin(x)\n'
        'lax.scan(body, 0, jnp.ones(3))\n'
        'lax.fori_loop(0, 3, lambda i, c: c, 0)\n'
        'lax.cond(True, lambda: 1, lambda: 2)\n'
        'lax.switch(0, [body, body], 1, 2)\n'
        'lax.while_loop(*[])\n'
        'lax.scan()\n'
    ),
    'fstring nested': (
        'for i in range(3):\n'
        '    y = jnp.ones(3)\n'
        "    print(f'{y!r:>{10}} {y=}')\n"
    ),
    'aug subscript': (
        'x = jnp.ones(3)\n'
        'x[0] += 1\n'
        'x.at[0].set(1)\n'
        'x[...] = 2\n'
        'x[1:2, None] @= 3\n'
    ),
    'annotations': (
        '@jax.jit\n'
        "def f(x: jnp.ndarray = np.ones(3), *, y: 'int' = 2) -> np.ndarray:\n"
        '    z: float = float(x)\n'
        '    return z\n'
    ),
    'global in jit': (
        'count = 0\n'
        '@jax.jit\n'
        'def f(x):\n'
        '    global count, other\n'
        '    count += 1\n'
        '    other = x\n'
        '    return x\n'
        'count = 2\n'
    ),
    'type alias generic': (
        'from typing import TypeVar\n'
        "T = TypeVar('T')\n"
        'X = list[jnp.ndarray]\n'
    ),
    'conditional imports': (
        'try:\n'
        '    import jax.numpy as np\n'
        'except ImportError:\n'
        '    import numpy as np\n'
        '@jax.jit\n'
        'def f(x):\n'
        '    return np.sin(x)\n'
    ),
    'shadowed builtins': (
        'float = jnp.float32\n'
        'print = jax.debug.print\n'
        '@jax.jit\n'
        'def f(x):\n'
        "    print('{}', x)\n"
        '    return float(x)\n'
    ),
    'ellipsis and slices': (
        '@jax.jit\n'
        'def f(x):\n'
        '    return x[..., ::2, None][x > 0]\n'
    ),
    'yield': (
        '@jax.jit\n'
        'def f(x):\n'
        '    yield np.sin(x)\n'
        '    yield from g(x)\n'
    ),
    'lambda defaults': (
        'f = jax.jit(lambda x, y=np.ones(3): np.sin(x))\n'
    ),
    'dict/set comps': (
        '@jax.jit\n'
        'def f(x):\n'
        '    return {k: np.sin(v) for k, v in x.items()}, {np.sin(v) for v in x}\n'
    ),
    'starred call': (
        '@jax.jit\n'
        'def f(*args, **kwargs):\n'
        '    return np.sin(*args, **kwargs), float(*args)\n'
    ),
    'while else': (
        'x = jnp.ones(3)\n'
        'while x.sum() > 0:\n'
        '    x = x - 1\n'
        'else:\n'
        '    print(x)\n'
    ),
}


@pytest.mark.parametrize("label", sorted(UNUSUAL_SYNTAX))
def test_unusual_syntax_is_analysed_without_internal_error(label):
    assert_no_internal_error(run_plugin(IMPORTS + UNUSUAL_SYNTAX[label]))


# ---- regressions ----------------------------------------------------------------------
def test_extra_transform_module_alone_makes_a_file_relevant():
    """A file that only imports the package of --jaxnp-extra-transforms is still analysed."""
    source = "import equinox as eqx\n\n\n@eqx.filter_jit\ndef step(x):\n    print(x)\n    return x\n"
    options = Options(extra_transforms=("equinox.filter_jit",))
    codes = [finding.code for finding in lint(ast.parse(source), source.splitlines(True), options)]
    assert codes == ["JNP301"]


@pytest.mark.parametrize("collecting", [True, False])
def test_linting_leaves_the_garbage_collector_as_it_found_it(collecting, monkeypatch):
    """lint() pauses the collector while it works; a check that fails must not leave it paused."""
    def failing(model):
        raise RuntimeError("a check fails")
    monkeypatch.setattr("flake8_jaxnp.linter.CHECKS", (failing,))
    source = IMPORTS + "x = jnp.ones(3)\n"
    (gc.enable if collecting else gc.disable)()
    try:
        findings = lint(ast.parse(source), source.splitlines(True))
        assert gc.isenabled() is collecting
        assert any("a check fails" in finding.message for finding in findings)
    finally:
        gc.enable()
