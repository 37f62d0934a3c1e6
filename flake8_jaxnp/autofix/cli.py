"""``python -m flake8_jaxnp fix [--diff] [--check] [--unsafe-fixes] [flake8 options] [PATH ... | -]``.

What to fix is what flake8 reports: flake8's own application reads the configuration
and the command line (select, ignore, per-file-ignores, noqa, the --jaxnp-* options) and
runs on the paths; the JNP findings it reports are fixed. Exit 0 when nothing is left
to fix, 1 when findings remain (with --check or --diff: also when a fix is available),
2 for a usage error.
"""
import argparse
import ast
import contextlib
import difflib
import io
import os
import sys
import tempfile
import tokenize

from ..findings import INTERNAL_ERROR
from .engine import fix_source

PROG = "flake8-jaxnp-fix"
USAGE_ERROR = 2


def parser(prog):
    cli = argparse.ArgumentParser(
        prog=prog, allow_abbrev=False,
        usage=f"{prog} [--diff] [--check] [--unsafe-fixes] [flake8 options] [PATH ...]",
        description="Apply the fixes of the flake8-jaxnp findings flake8 reports (its configuration and "
                    "selection decide which). Other options and the paths go to flake8; - reads stdin and "
                    "writes the fixed text to stdout.")
    cli.add_argument("--diff", action="store_true", help="print a unified diff of the fixes; write nothing")
    cli.add_argument("--check", action="store_true", help="write nothing; exit 1 when a fix is available")
    cli.add_argument("--unsafe-fixes", action="store_true",
                     help="also apply the fixes that may change behaviour beyond the pitfall")
    return cli


def main(argv=None, prog=PROG):
    args, flake8_argv = parser(prog).parse_known_args(sys.argv[1:] if argv is None else argv)
    try:
        reported, checked = _flake8_findings(flake8_argv)
    except UsageError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return USAGE_ERROR
    if reported is None:  # stdin
        return _fix_stdin(args, checked, prog)
    status = 0
    fixed_files = applied = 0
    for path in checked:
        findings = reported.get(path, [])
        problem = _unparsable(path)
        if problem:
            print(f"{prog}: {path}: not fixed: {problem}", file=sys.stderr)
            status = 1
            continue
        if not findings:
            continue
        text, encoding = _read(path)
        result = fix_source(text, findings, unsafe=args.unsafe_fixes)
        status = max(status, _status(args, result))
        if result.text == text:
            continue
        applied += len(result.applied)
        fixed_files += 1
        if args.diff:
            sys.stdout.write(_diff(path, text, result.text))
        elif not args.check:
            try:
                _write_atomically(path, result.text, encoding)
            except OSError as exc:
                print(f"{prog}: {path}: cannot write the fixes ({exc.strerror or exc})", file=sys.stderr)
                status = 1
    verb = "would fix" if args.diff or args.check else "fixed"
    print(f"{prog}: {verb} {applied} finding{'s' * (applied != 1)} in {fixed_files} "
          f"file{'s' * (fixed_files != 1)}", file=sys.stderr)
    return status


class UsageError(Exception):
    """What flake8 refused on the command line or in the configuration, in one line."""


def _flake8_findings(argv):
    """({path: the JNP Findings flake8 reports for it}, the paths flake8 checked), or
    (None, [stdin Findings]) when it read stdin; flake8's selection, per-file ignores and
    noqa decide which, and the plugin's own Findings give their fields."""
    from flake8 import utils
    from flake8.main.application import Application

    from ..plugin import JaxNumpyChecker

    app = Application()
    captured = io.StringIO()
    try:
        with contextlib.redirect_stderr(captured), contextlib.redirect_stdout(captured):
            app.initialize(argv)
    except SystemExit:
        lines = [line for line in captured.getvalue().splitlines() if line.strip()]
        raise UsageError(lines[-1].split(": error: ")[-1] if lines else "flake8 refused the arguments") from None
    except Exception as exc:  # noqa: BLE001 - a bad configuration file, a plugin that fails to load
        detail = str(exc).strip().splitlines()
        raise UsageError(f"flake8 could not start: {detail[0] if detail else type(exc).__name__}") from None
    stdin = utils.is_using_stdin(app.options.filenames)
    if stdin and len(app.options.filenames) > 1:
        raise UsageError("- (stdin) cannot be combined with paths")
    kept = set()
    app.formatter.handle = lambda error: kept.add((error.filename, error.line_number, error.column_number - 1,
                                                   error.code))
    app.run_checks()
    app.file_checker_manager.report()
    options = JaxNumpyChecker._options  # what flake8's parse_options gave the plugin
    if stdin:
        text = utils.stdin_get_value()
        name = app.options.stdin_display_name or "stdin"
        return None, (text, _selected(text, name, options, kept))
    paths = [filename for filename, _, _ in app.file_checker_manager.results]
    found = {}
    for path in {filename for filename, _, _, code in kept if code.startswith("JNP")}:
        text, _ = _read(path)
        found[path] = _selected(text, path, options, kept)
    return found, sorted(paths)


def _selected(text, filename, options, kept):
    """The plugin's Findings for ``text`` that flake8 reported."""
    from ..linter import lint

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    return [finding for finding in lint(tree, text.splitlines(keepends=True), options, filename)
            if finding.code != INTERNAL_ERROR and (filename, finding.line, finding.col, finding.code) in kept]


def _fix_stdin(args, checked, prog):
    text, findings = checked
    result = fix_source(text, findings, unsafe=args.unsafe_fixes)
    if args.diff:
        sys.stdout.write(_diff("stdin", text, result.text))
    elif not args.check:
        sys.stdout.write(result.text)
    return _status(args, result)


def _status(args, result):
    """1 when findings remain unfixed, or (--check, --diff) when fixes were found."""
    return 1 if result.unfixed or ((args.check or args.diff) and result.applied) else 0


def _read(path):
    """The file's text as Python reads it (its coding cookie), and that encoding."""
    with open(path, "rb") as file:
        data = file.read()
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode(encoding), encoding


def _unparsable(path):
    """Why ``path`` cannot be fixed (it cannot be read, or Python cannot parse it), or ""."""
    try:
        ast.parse(_read(path)[0])
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    except (SyntaxError, ValueError) as exc:
        where = f" (line {exc.lineno})" if getattr(exc, "lineno", None) else ""
        return f"it does not parse: {type(exc).__name__}: {getattr(exc, 'msg', exc)}{where}"
    return ""


def _diff(path, before, after):
    return "".join(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                        f"a/{path}", f"b/{path}"))


def _write_atomically(path, text, encoding):
    """Write ``text`` beside ``path`` and move it over: a failure leaves the old file whole.
    The file keeps its permission bits; newlines are written as they were read."""
    if not os.access(path, os.W_OK):  # os.replace would overwrite a read-only file
        raise PermissionError(13, "Permission denied", path)
    mode = os.stat(path).st_mode & 0o7777
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".jaxnp-fix-", suffix=".py")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(text.encode(encoding))
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
