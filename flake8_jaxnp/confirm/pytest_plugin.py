"""pytest plugin: confirm the linter's findings by running the project's own tests.

``pytest --jaxnp-confirm [paths]`` runs the tests as usual while the probes of
the runtime mode record what the code under every given path does (every .py
file there is watched, not only test files); at the end it lints those files
and prints the verdict table and summary line. Off unless asked for: until
then this module imports nothing beyond pytest's hooks, and never jax.

Differences from the command line, because the tests run once, in pytest's
process, as they are: no rerun under ``jax.disable_jit`` (trace-only lines are
found by counting, see ``observe.trace_only_without_rerun``, so stale globals
are not observed), no strict dtype promotion (operators' operand dtypes
are compared instead).
"""
import os

import pytest

TEST_FOLDERS = ("test", "tests", "testing")  # never taken for the package under test
NOT_PROJECT_CODE = ("conftest", "setup", "noxfile")  # modules at the rootdir that are not the code under test


def pytest_addoption(parser):
    group = parser.getgroup("jaxnp", "flake8-jaxnp runtime confirmation")
    group.addoption("--jaxnp-confirm", action="store_true",
                    help="watch what the code under the given paths does while the tests run, and judge "
                         "every flake8-jaxnp finding there (confirmed, not reproduced, not exercised, missed)")
    group.addoption("--jaxnp-report", metavar="FILE", help="with --jaxnp-confirm: also write the JSON report")
    group.addoption("--jaxnp-strict", action="store_true",
                    help="with --jaxnp-confirm: a finding not reproduced or a missed pitfall fails the session")
    group.addoption("--jaxnp-extra-transforms", metavar="A.B,C.D",
                    help="with --jaxnp-confirm, as for flake8: more dotted names that trace like jax.jit")
    group.addoption("--jaxnp-x64", action="store_true",
                    help="with --jaxnp-confirm, as for flake8: the project enables jax_enable_x64")
    group.addoption("--jaxnp-cache-dir", metavar="DIR",
                    help="with --jaxnp-confirm, as for flake8: the linter's summaries and findings")


def pytest_configure(config):
    if config.getoption("jaxnp_confirm"):
        from ..options import OptionError, from_configuration

        try:
            options = from_configuration(*(config.getoption(name) for name in (
                "jaxnp_extra_transforms", "jaxnp_x64", "jaxnp_cache_dir")))
        except OptionError as exc:
            raise pytest.UsageError(str(exc)) from None
        try:
            confirmation = Confirmation(config, options)
        except ImportError as exc:
            raise pytest.UsageError(f"--jaxnp-confirm needs JAX and NumPy (pip install 'flake8-jaxnp[runtime]'): "
                                    f"{exc}") from None
        config.pluginmanager.register(confirmation, "jaxnp-confirmation")


class Confirmation:
    """Per-session state: the watched files, their findings, and one case result per test."""

    def __init__(self, config, options):
        from . import process_probes
        from .linefacts import Watched
        from .runner import PathError, prepare, python_files

        from ..model.project.cache import unwritable_warning

        self.config, self.errors, self.results, self.rows = config, [], [], None
        self.silenced = options.silenced  # rules off by default that the configuration does not select
        self.notes = [line for line in (unwritable_warning(options.cache_dir),) if line]  # shown, not failing
        paths = [arg.split("::")[0] for arg in config.args] or [str(config.rootpath)]
        self.code = project_code(config.rootpath)
        self.added = [code for code in self.code if not any(_inside(code, path) for path in paths)]
        files = []
        for path in paths + self.added:
            try:
                files += python_files([path])
            except PathError as exc:
                self.errors.append(str(exc))
        chosen = {}  # real path -> the path shown: a file reached twice (a symbolic link) is watched once
        for file in files:
            chosen.setdefault(os.path.realpath(file), _relative(file, config.invocation_params.dir))
        for path in chosen.values():
            try:
                self.results.append(prepare(path, options))
            except PathError as exc:
                self.errors.append(str(exc))
        self.errors += [result.lint_error for result in self.results if result.lint_error]
        self.by_path = {path: result for result in self.results for path in result.own_paths}
        self.watched = Watched(self.by_path)
        self.recorders = {}  # nodeid -> (Recorder, CaseResult, exception) of the tests run so far
        self.exceptions = {}  # nodeid -> the first exception of the test running now, or None
        import jax

        self.notes += _keep_the_cpu(jax)
        process_probes.install_process_probes()
        backend = (jax.default_backend(), jax.devices()[0].device_kind)
        for result in self.results:
            result.backend, result.has_cases = backend, True  # the tests are the cases

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item):
        """Watch one test: its fixtures' setup, the test itself and the teardown."""
        from . import array_probes, process_probes
        from .runner import CaseResult

        array_probes.install_watched_module_probes(self.watched)
        rec = array_probes.Recorder(self.watched, operand_dtypes=True)
        self.exceptions[item.nodeid] = None
        with process_probes.tracing(rec, rerun_uncounted=False) as counting:  # a test runs once, as it is
            yield
        exception = self.exceptions.pop(item.nodeid)
        stopped = counting.stopped_for
        case = CaseResult(item.nodeid, "ok" if exception is None else "raised",
                          uncounted=process_probes.uncounted_reason(stopped) if stopped else "")
        owner = self.by_path.get(os.path.abspath(item.path), self.results[0] if self.results else None)
        if owner is not None:
            owner.cases.append(case)
        rec.results.clear()  # the jitted functions' outputs are only compared with a rerun
        self.recorders[item.nodeid] = (rec, case, exception)

    def pytest_runtest_makereport(self, item, call):
        """The first exception of a test's setup, call or teardown (a skip or xfail is none)."""
        excinfo = call.excinfo
        if excinfo is None or excinfo.errisinstance((pytest.skip.Exception, pytest.xfail.Exception)):
            return
        if self.exceptions.get(item.nodeid, False) is None:
            self.exceptions[item.nodeid] = excinfo.value

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session):
        """Judge the findings; the session's outcome changes only under --jaxnp-strict."""
        from .observe import one_line
        from .verdicts import MISSED, NOT_REPRODUCED, judge

        try:
            for rec, case, exception in self.recorders.values():
                _fill(case, rec, exception)
            self.rows = judge(self.results, self.silenced)
        except Exception as exc:  # noqa: BLE001 - the plugin must not break the user's session
            self.errors.append(f"internal error, no verdicts: {one_line(exc)}")
            self.rows = []
        self.recorders.clear()
        here = self.config.invocation_params.dir
        self.notes += [f"flake8-jaxnp: {_relative(path, here)} was not judged: the tests imported it from "
                       f"{_relative(file, here)} (an installed copy? pip install -e . runs the watched one)"
                       for path, file in imported_elsewhere(self.code)]
        failing = [row for row in self.rows if row.verdict in (NOT_REPRODUCED, MISSED)] + self.errors
        if self.config.getoption("jaxnp_strict") and failing and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        report_file = self.config.getoption("jaxnp_report")
        if report_file:
            from .report import as_json

            text = as_json(self.rows, self.results, self.errors, int(session.exitstatus))
            try:
                with open(report_file, "w", encoding="utf-8") as handle:
                    handle.write(text + "\n")
            except OSError as exc:
                self.errors.append(f"--jaxnp-report: cannot write {report_file}: {exc.strerror}")

    def pytest_terminal_summary(self, terminalreporter):
        from .report import table

        if self.rows is None:
            return
        terminalreporter.section("flake8-jaxnp runtime confirmation")
        for line in self.notes:
            terminalreporter.write_line(line)
        for error in self.errors:
            terminalreporter.write_line(f"flake8-jaxnp: {error}")
        if self.added:
            here = self.config.invocation_params.dir
            names = ", ".join(_relative(code, here) + (os.sep if os.path.isdir(code) else "") for code in self.added)
            terminalreporter.write_line(f"flake8-jaxnp: also watched the project's code: {names}")
        terminalreporter.write_line(table(self.rows, self.results))


def _keep_the_cpu(jax):
    """Where JAX_PLATFORMS (jax_platforms) names platforms without the CPU, add it after them, so that
    jax.debug.print and the other host callbacks, which place their inputs on the CPU, work as they
    would on the CPU, and no error ends the session at exit. The first platform stays the default.
    Returns the line that says so (or why it could not), or nothing."""
    from jax._src import xla_bridge

    platforms = jax.config.jax_platforms
    if not platforms or "cpu" in platforms.split(","):
        return []
    if xla_bridge.backends_are_initialized():
        return [f"flake8-jaxnp: jax_platforms={platforms} leaves out cpu and JAX started before the plugin could add "
                f"it: jax.debug.print fails there; run with JAX_PLATFORMS={platforms},cpu"]
    jax.config.update("jax_platforms", f"{platforms},cpu")
    return [f"flake8-jaxnp: jax_platforms={platforms} leaves out cpu, which jax.debug.print needs: "
            f"ran with {platforms},cpu"]


def project_code(rootdir):
    """The code of the project under test, watched besides the given paths so that ``pytest
    --jaxnp-confirm tests`` judges the code the tests exercise: the rootdir's (and ``src/``'s)
    packages (folders with an ``__init__.py``) and plain modules, except test folders and files,
    conftest.py, setup.py, noxfile.py and this plugin's own package."""
    from ..model.syntax import is_test_file

    own = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    found = []
    for parent in (rootdir, rootdir / "src"):
        try:
            entries = sorted(parent.iterdir())
        except OSError:
            continue
        found += [str(entry) for entry in entries if entry.name.isidentifier() and entry.name not in TEST_FOLDERS
                  and (entry / "__init__.py").is_file() and os.path.realpath(entry) != own]
        found += [str(entry) for entry in entries if entry.suffix == ".py" and entry.stem.isidentifier()
                  and entry.stem not in NOT_PROJECT_CODE and not is_test_file(entry.name) and entry.is_file()]
    return found


def imported_elsewhere(code):
    """(package or module path, the file the tests imported it from) for each of ``code`` whose
    import name the tests imported from another place (an installed copy: ``pip install .`` of a
    ``src/`` layout): its lines never ran where they are watched."""
    import sys

    found = []
    for path in code:
        name = os.path.splitext(os.path.basename(path))[0]
        file = getattr(sys.modules.get(name), "__file__", None)
        if isinstance(file, str) and not _inside(file, path):
            found.append((path, file))
    return found


def _inside(folder, path):
    """Whether ``folder`` is ``path`` or lies under it."""
    folder, path = os.path.realpath(folder), os.path.realpath(path)
    return folder == path or folder.startswith(path.rstrip(os.sep) + os.sep)


def _relative(path, start):
    """``path`` as the report shows it: relative to the folder pytest was started in, as pytest's
    own tracebacks show paths, whether it was given as ``.``, absolute, or not at all."""
    try:
        return os.path.relpath(os.path.abspath(path), start)
    except ValueError:  # another drive (Windows)
        return os.path.abspath(path)


def _fill(case, rec, exception):
    """Fill a test's CaseResult with the evidence its recorder holds and the exception it raised."""
    from .observe import Evidence, add_exception, one_line, recorded, trace_only_without_rerun
    from .worker import Run

    found = Evidence()
    if exception is not None:
        case.detail = one_line(exception)
        add_exception(found, exception, rec.watched)
    recorded(found, rec)
    case.blind = trace_only_without_rerun(found, Run(rec, None, None))
    case.events, case.observations = found.events, found.observations
    case.lines = sorted(rec.lines)
