"""fix_source: the API the command and the editor use."""
import ast
import re
import textwrap

import pytest

from flake8_jaxnp import api
from flake8_jaxnp.autofix import FIXERS, FixResult, fix_source
from flake8_jaxnp.autofix.engine import Edit
from flake8_jaxnp.findings import Finding
from flake8_jaxnp.linter import lint
from flake8_jaxnp.options import Options


def findings(source):
    return lint(ast.parse(source), source.splitlines(True), Options(cache_dir=""))


def fixed(source, unsafe=True):
    return fix_source(source, findings(source), unsafe=unsafe).text


TRACED_PRINT = "\n\n@jax.jit\ndef f(x):\n    print(x)\n    return x\n"
TRACED_TANH = "\n\n@jax.jit\ndef f(x):\n    return np.tanh(x)\n"


@pytest.mark.parametrize("imports, body, expected", [
    ("import jax\n", TRACED_PRINT, "    jax.debug.print(\"{!s}\", x)\n"),
    ("import jax as jx\n", TRACED_PRINT.replace("jax.jit", "jx.jit"), "    jx.debug.print(\"{!s}\", x)\n"),
    ("from jax import debug, jit\n", TRACED_PRINT.replace("jax.jit", "jit"), "    debug.print(\"{!s}\", x)\n"),
    ("import numpy as np\nimport jax\nimport jax.numpy as xp\n", TRACED_TANH, "    return xp.tanh(x)\n"),
    ("import numpy as np\nimport jax\nfrom jax import numpy as J\n", TRACED_TANH, "    return J.tanh(x)\n"),
    ("import numpy as np\nimport jax\n", TRACED_TANH, "    return jax.numpy.tanh(x)\n"),
])
def test_the_module_s_own_name_for_jax_is_used_and_nothing_is_imported(imports, body, expected):
    source = imports + body
    result = fixed(source)
    assert expected in result.splitlines(keepends=True)
    assert result.count("import") == source.count("import")


def test_a_missing_import_is_added_after_the_docstring_and_imports_that_open_the_module():
    source = '"""Doc."""\nimport jax.numpy as jnp\nfrom jax import jit\n' + TRACED_PRINT.replace("jax.jit", "jit")
    assert fixed(source).startswith('"""Doc."""\nimport jax.numpy as jnp\nfrom jax import jit\nimport jax\n')
    list_source = "import jax.numpy as xp\n\nm = xp.mean([1.0, 2.0])\n"
    assert fixed(list_source) == "import jax.numpy as xp\n\nm = xp.mean(xp.asarray([1.0, 2.0]))\n"


def test_no_import_is_added_over_a_name_the_module_already_uses_for_something_else():
    source = "from jax import jit\n\njax = None\n" + TRACED_PRINT.replace("jax.jit", "jit")
    result = fix_source(source, findings(source))
    assert (result.text, result.applied) == (source, ())


def test_edits_inside_edits_and_non_ascii_columns():
    source = textwrap.dedent("""\
        import jax
        import jax.numpy as jnp
        import numpy as np


        @jax.jit
        def f(x):
            ä = jnp.product(np.tanh(x)); ö = jnp.product(x)
            return ä + ö
    """)
    assert "    ä = jnp.prod(jnp.tanh(x)); ö = jnp.prod(x)\n" in fixed(source)


def test_bad_input_never_raises_and_changes_nothing():
    nowhere = Finding(99, 7, "JNP504", (("name", "jax.tree_map"),))
    for text, given in [("", [nowhere]), ("x = (\n", [nowhere]), ("import jax\n", [nowhere]),
                        ("import jax\n", [Finding(1, 0, "JNP999", ())]), ("import jax\n", [])]:
        result = fix_source(text, given)
        assert isinstance(result, FixResult)
        assert (result.text, result.applied, result.unfixed) == (text, (), tuple(sorted(given)))


def test_a_fix_whose_result_does_not_parse_is_discarded(monkeypatch):
    import libcst as cst

    source = "import jax\n\ny = jax.tree_map(abs, [1])\n"
    monkeypatch.setitem(FIXERS, "JNP504", lambda finding, context: Edit(
        context.nodes_at(finding, cst.Attribute)[0], lambda node: cst.Name("not valid")))
    result = fix_source(source, findings(source))
    assert (result.text, result.applied) == (source, ())


def test_unsafe_fixes_apply_only_when_asked_for():
    source = "import jax\nimport numpy as np\n\n\n@jax.jit\ndef f(x):\n    print(x)\n    return np.tanh(x)\n"
    safe = fix_source(source, findings(source))
    assert [f.code for f in safe.applied] == ["JNP301"] and [f.code for f in safe.unfixed] == ["JNP201"]
    assert sorted(f.code for f in fix_source(source, findings(source), unsafe=True).applied) == ["JNP201", "JNP301"]


@pytest.mark.parametrize("removed, replacement", sorted(api.removed_name_replacements().items()))
def test_a_removed_name_s_message_names_what_its_fix_writes(removed, replacement):
    """One table (removed_name_replacements) for both: the message never says there is no replacement
    while the fix writes one (jnp.row_stack, whose replacement only NumPy's deprecation names)."""
    module = removed.rpartition(".")[0]
    source = f"import {module}\n\nf = {removed}\n"
    (finding,) = [finding for finding in findings(source) if finding.code == "JNP504"]
    assert re.search(rf"(?<![\w.]){re.escape(replacement)}(?!\w)", finding.message), finding.message
    assert fixed(source) in (source, source.replace(removed, replacement))


def test_a_text_libcst_would_not_give_back_whole_is_left_as_it_is():
    """libcst prints ``pass\\n\\n \\n`` as ``pass\\n \\n``: a fix there would lose a line the finding is not on."""
    source = "import jax.numpy as jnp\n\nx = jnp.zeros(3)\nx[0] = 1.0\n\n \n"
    result = fix_source(source, findings(source))
    assert (result.text, result.applied, [f.code for f in result.unfixed]) == (source, (), ["JNP501"])
