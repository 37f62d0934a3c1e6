"""Helpers, constants and objects of other modules that a jitted step reaches
(fixtures/crosspkg): the reach follows them as it follows a same-file helper, and the
results agree across orders, --jobs, file-by-file and stdin linting."""
from conftest import FIXTURES
from flake8_runs import flake8, serial_and_parallel, stdin_mismatches
from test_project import codes_at

CROSS = FIXTURES / "crosspkg"


def line_of(module, text):
    return 1 + (CROSS / module).read_text().splitlines().index(text)


def test_a_helper_given_the_parameter_it_rebinds_is_traced():
    """``x = check(x)``: the call runs before the rebinding, so check gets the tracer."""
    found = flake8(["crosspkg/helpers.py"], FIXTURES)
    printed = line_of("helpers.py", '    print("checking", x)  # expect: JNP301')
    assert (printed, "JNP301") in codes_at(found)
    call = line_of("train.py", "    x = check(x)  # the helper gets the parameter: the rebinding comes after the call")
    assert any(f"jax.jit (called from 'step' in crosspkg/train.py:{call})" in line for line in found)
    host_print = line_of("helpers.py", '    print("value", x)')
    assert (host_print, "JNP301") not in codes_at(found)


def test_a_rebinding_before_the_call_still_hides_the_parameter(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "helpers.py").write_text("def check(x):\n    print(x)\n    return x\n")
    (package / "train.py").write_text(
        "import jax\n\nfrom pkg.helpers import check\n\n\n"
        "@jax.jit\ndef step(x):\n    x = x.shape[0]\n    return check(x)\n")
    assert flake8(["--jaxnp-cache-dir", "", "pkg/helpers.py"], tmp_path) == []


def test_the_package_agrees_across_orders_jobs_files_and_stdin():
    paths = sorted(CROSS.glob("*.py"))
    serial, parallel = serial_and_parallel(FIXTURES, paths)
    assert any("crosspkg/helpers.py" in line for line in serial)
    assert parallel == serial
    backwards = flake8(["--jobs", "1", *[str(p.relative_to(FIXTURES)) for p in reversed(paths)]], FIXTURES)
    assert backwards == serial
    one_by_one = sorted(line for path in reversed(paths) for line in flake8([str(path.relative_to(FIXTURES))],
                                                                            FIXTURES))
    assert one_by_one == serial
    assert stdin_mismatches(FIXTURES, paths, serial) == []
