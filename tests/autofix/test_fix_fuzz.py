"""The fix on generated and mutated files: hypothesmith's grammar-valid modules with fixable
JAX/NumPy snippets put between their statements, then CRLF or CR line endings, tab indents and
non-ASCII text. The output always parses, a second run changes nothing, and every line outside
the snippets comes out byte for byte.

A few hundred cases run in the fast suite; ``FLAKE8_JAXNP_FIX_FUZZ=10000`` asks for more
(docs/figures.md records such a run).
"""
import ast
import difflib
import os
import re

import hypothesmith
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from flake8_jaxnp.autofix import cli
from flake8_jaxnp.plugin import JaxNumpyChecker

CASES = settings(max_examples=int(os.environ.get("FLAKE8_JAXNP_FIX_FUZZ", "300")), deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
HEADER = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n"
SNIPPETS = [  # each binds its own names (suffix {n}) and has a fix, safe or unsafe
    "x_{n} = jnp.zeros(3)\nx_{n}[0] = 1.0\nx_{n}[1] += 2.0\n",
    "π_{n} = jnp.ones(2)  # é, 😀\nπ_{n}.at[0].set(5.0)\n",
    "t_{n} = jax.tree_map(lambda v: v + 1, [1, 2])\n",
    "m_{n} = jnp.mean([1.0, 2.0]); s_{n} = jnp.sort(jnp.ones(3), kind='stable')\n",
    "@jax.jit\ndef f_{n}(x):\n    y = np.tanh(x)\n    return jnp.float64(y)\n",
    "@jax.jit\ndef g_{n}(x):\n\tif True:\n\t\tx = np.cos(x)  # tab-indented\n\treturn x\n",
    "data_{n} = np.ones(3)\nfor i_{n} in range(100):\n    d_{n} = jnp.asarray(data_{n})\n"
    "    h_{n} = jax.jit(lambda v: v * 0.5)(d_{n})\n",
    "a_{n} = jnp.add(jnp.ones(2), jnp.ones(2), out=None)\n",
]
NEWLINES = st.sampled_from(["\n", "\r\n", "\r"])
GRAMMAR = hypothesmith.from_grammar()  # made once: each call compiles the grammar again (seconds)


@pytest.fixture(scope="module")
def flake8():
    """flake8 as the command sets it up (every JNP rule selected), its plugin options restored afterwards."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(JaxNumpyChecker, "_options", JaxNumpyChecker._options)
        yield cli.Flake8(["--isolated", "--jaxnp-cache-dir", "", "--select", "JNP", "-"])


@st.composite
def mutated_modules(draw):
    """(source, the line numbers, from 1, of the snippets' lines in it)."""
    generated = draw(GRAMMAR)
    try:
        tree = ast.parse(generated)
    except (SyntaxError, ValueError):
        assume(False)
    assume("\r" not in generated and "\f" not in generated)
    if draw(st.booleans()):  # indent with tabs, one for each space
        generated = re.sub(r"(?m)^ +", lambda m: "\t" * len(m.group()), generated)
    lines = _lines(HEADER) + _lines(generated)
    if not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    starts = [len(_lines(HEADER)) + min(node.lineno for node in [statement, *getattr(statement, "decorator_list", ())])
              - 1 for statement in tree.body]
    places = sorted(draw(st.lists(st.sampled_from([*starts, len(lines)]), min_size=1, max_size=4)), reverse=True)
    snippet_lines = set()
    for n, place in enumerate(places):
        snippet = draw(st.sampled_from(SNIPPETS)).format(n=n).splitlines(keepends=True)
        lines[place:place] = snippet
        snippet_lines = {line + len(snippet) if line > place else line for line in snippet_lines}
        snippet_lines |= set(range(place + 1, place + len(snippet) + 1))
    newline = draw(NEWLINES)
    source = "".join(lines).replace("\n", newline)
    try:
        ast.parse(source)
    except (SyntaxError, ValueError):
        assume(False)  # the tabs met spaces the grammar wrote inside a bracket
    return source, snippet_lines


@pytest.mark.filterwarnings("ignore::SyntaxWarning")  # the grammar writes 1() and the like
@CASES
@given(mutated_modules(), st.booleans())
def test_the_fix_parses_is_stable_and_touches_only_the_snippets(flake8, module, unsafe):
    source, snippet_lines = module
    fixed = cli.fix_until_stable(flake8, source, "generated.py", unsafe).text
    ast.parse(fixed)
    assert cli.fix_until_stable(flake8, fixed, "generated.py", unsafe).text == fixed
    before, after = _lines(source), _lines(fixed)
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag != "equal":  # lines i1+1..i2 replaced, or lines inserted before line i1+1
            touched = set(range(i1 + 1, i2 + 1)) or {i1 + 1}
            assert touched <= snippet_lines | {line + 1 for line in snippet_lines}, (tag, before[i1:i2])
    newline = "\r\n" if "\r\n" in source else "\r" if "\r" in source else "\n"
    assert {ending for line in after for ending in re.findall(r"\r\n|\r|\n", line)} <= {newline}


def _lines(text):
    """The lines as Python counts them (\\n, \\r\\n or \\r), each with its ending."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)
