"""``python -m flake8_jaxnp fix [--diff] [--check] [--unsafe-fixes] [flake8 options] [PATH ... | -]``.

What to fix is what flake8 reports: flake8's own application reads the configuration
and the command line (select, ignore, per-file-ignores, noqa, the --jaxnp-* options) and
runs on the paths; the JNP findings it reports are fixed. The exit statuses are EXIT_STATUSES.
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

from ..findings import source_lines
from .engine import FIXERS, FixResult, fix_source

PROG = "flake8-jaxnp-fix"
FINDINGS_LEFT, USAGE_ERROR, NOT_FIXED = 1, 2, 3
EXIT_STATUSES = (f"0 nothing is left to fix; {FINDINGS_LEFT} findings remain (with --check or --diff: also when a "
                 f"fix is available); {USAGE_ERROR} a usage error; {NOT_FIXED} an input was left as it was because "
                 "it cannot be read or decoded, does not parse, or cannot be written (such stdin is written back "
                 "unchanged)")


def parser(prog):
    cli = argparse.ArgumentParser(
        prog=prog, allow_abbrev=False,
        usage=f"{prog} [--diff] [--check] [--unsafe-fixes] [flake8 options] [PATH ...]",
        description="Apply the fixes of the flake8-jaxnp findings flake8 reports (its configuration and "
                    "selection decide which). Other options and the paths go to flake8; - reads stdin and "
                    "writes the fixed text to stdout.",
        epilog=f"Exit status: {EXIT_STATUSES}.")
    cli.add_argument("--diff", action="store_true", help="print a unified diff of the fixes; write nothing")
    cli.add_argument("--check", action="store_true", help="write nothing; exit 1 when a fix is available")
    cli.add_argument("--unsafe-fixes", action="store_true",
                     help="also apply the fixes that may change behaviour beyond the pitfall")
    return cli


MAX_ROUNDS = 10  # a fix can reveal another finding (np.tanh -> jnp.tanh makes its result a tracer)


def main(argv=None, prog=PROG):
    args, flake8_argv = parser(prog).parse_known_args(sys.argv[1:] if argv is None else argv)
    try:
        flake8 = Flake8(flake8_argv)
    except UsageError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return USAGE_ERROR
    status = fixed_files = applied = hidden = 0
    for path in flake8.filenames:
        name = flake8.display_name(path)
        data = None
        try:
            data = _read(path)
            text, encoding = _decoded(data)
            ast.parse(text)
        except (OSError, NotSource, SyntaxError, ValueError) as exc:
            print(f"{prog}: {name}: not fixed: {_why_not_fixed(exc)}", file=sys.stderr)
            if path == "-" and data is not None and not (args.diff or args.check):
                _write_stdout(data)  # an editor replaces its buffer with what it gets: never a blank one
            status = NOT_FIXED
            continue
        result = fix_until_stable(flake8, text, name, args.unsafe_fixes)
        status = max(status, _status(args, result))
        if not args.unsafe_fixes:
            hidden += _unsafe_fixes_left(result)
        if path == "-" and not (args.diff or args.check):
            _write_stdout(result.text.encode(encoding))
        if result.text == text:
            continue
        if args.diff:
            sys.stdout.write(_diff(name, text, result.text))
        elif not args.check and path != "-":
            try:
                _write_atomically(path, result.text, encoding)
            except OSError as exc:
                print(f"{prog}: {name}: cannot write the fixes ({exc.strerror or exc})", file=sys.stderr)
                status = NOT_FIXED
                continue
        applied += len(result.applied)
        fixed_files += 1
    verb = "would fix" if args.diff or args.check else "fixed"
    more = (f"; {hidden} more with --unsafe-fixes (they may change behaviour beyond the pitfall: "
            "read the diff)") if hidden else ""
    print(f"{prog}: {verb} {applied} finding{'s' * (applied != 1)} in {fixed_files} "
          f"file{'s' * (fixed_files != 1)}{more}", file=sys.stderr)
    return status


def _unsafe_fixes_left(result):
    """How many of the findings left would be fixed with --unsafe-fixes (their first round: a fix
    that uncovers another finding is not counted), so that a user learns they exist."""
    if not any(finding.code in FIXERS for finding in result.unfixed):  # an unsafe rule, or a safe one's unsafe shape
        return 0
    return len(fix_source(result.text, result.unfixed, unsafe=True).applied)


def fix_until_stable(flake8, text, filename, unsafe):
    """Fix what flake8 reports, again on the fixed text until nothing changes, so that a second
    run has nothing left to do: the FixResult of all the rounds."""
    applied = []
    for _ in range(MAX_ROUNDS):
        result = fix_source(text, flake8.reported(text, filename), unsafe=unsafe)
        applied += result.applied
        if result.text == text:
            return FixResult(text, tuple(applied), result.unfixed)
        text = result.text
    return FixResult(text, tuple(applied), tuple(flake8.reported(text, filename)))


class UsageError(Exception):
    """What flake8 refused on the command line or in the configuration, in one line."""


class Flake8:
    """flake8 as these arguments and its configuration set it up: the files it would check, and
    which of the plugin's findings it would report (select, ignore, per-file-ignores, noqa)."""

    def __init__(self, argv):
        from flake8.main.application import Application

        app = Application()
        captured, warnings = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stderr(warnings), contextlib.redirect_stdout(captured):
                app.initialize(argv)
                app.file_checker_manager.start()
        except SystemExit:
            lines = [line for line in (captured.getvalue() + warnings.getvalue()).splitlines() if line.strip()]
            raise UsageError(lines[-1].split(": error: ")[-1] if lines else "flake8 refused the arguments") from None
        except Exception as exc:  # noqa: BLE001 - a bad configuration file, a plugin that fails to load
            detail = str(exc).strip().splitlines()
            raise UsageError(f"flake8 could not start: {detail[0] if detail else type(exc).__name__}") from None
        sys.stderr.write(warnings.getvalue())  # the run goes on: an unwritable --jaxnp-cache-dir, say
        self.options = app.options
        self.filenames = app.file_checker_manager.filenames
        if "-" in self.filenames and len(self.filenames) > 1:
            raise UsageError("- (stdin) cannot be combined with paths")
        app.formatter.handle = lambda error: None  # the guide decides; nothing is printed
        self.guide = app.guide

    def display_name(self, path):
        return (self.options.stdin_display_name or "stdin") if path == "-" else path

    def reported(self, text, filename):
        """The plugin's Findings for ``text`` that flake8 reports at ``filename``."""
        from flake8.processor import FileProcessor

        from ..linter import lint
        from ..plugin import JaxNumpyChecker

        lines = source_lines(text)  # as flake8 reads them
        if FileProcessor(filename, self.options, lines=lines).should_ignore_file():  # flake8: noqa
            return []
        findings = lint(ast.parse(text), lines, JaxNumpyChecker._options, filename)  # as parse_options set it
        return [finding for finding in findings if self.guide.handle_error(
            finding.code, filename, finding.line, finding.col, finding.message[len(finding.code) + 1:],
            lines[finding.line - 1] if finding.line <= len(lines) else None)]


def _status(args, result):
    """FINDINGS_LEFT when findings remain unfixed, or (--check, --diff) when fixes were found."""
    return FINDINGS_LEFT if result.unfixed or ((args.check or args.diff) and result.applied) else 0


class NotSource(Exception):
    """Bytes that Python would not read as source: an undecodable byte, a bad coding declaration."""


def _read(path):
    """The input's bytes; ``-`` is stdin (read here, not by flake8, which turns CRLF into LF)."""
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as file:
        return file.read()


def _decoded(data):
    """The text as Python reads it (its coding declaration, else UTF-8), line endings kept, and that encoding."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding), encoding
    except (SyntaxError, UnicodeDecodeError) as exc:  # detect_encoding's errors, a byte the encoding refuses
        raise NotSource(str(exc)) from None


def _why_not_fixed(exc):
    """One line: why an input was left as it was."""
    if isinstance(exc, NotSource):
        return f"it cannot be decoded ({exc.args[0]})"
    if isinstance(exc, OSError):
        return f"it cannot be read ({exc.strerror or exc})"
    where = f" (line {exc.lineno})" if getattr(exc, "lineno", None) else ""
    return f"it does not parse ({type(exc).__name__}: {getattr(exc, 'msg', exc)}{where})"


def _write_stdout(data):
    """The bytes as they are: text-mode stdout would re-encode them and might translate line endings."""
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def _diff(path, before, after):
    """A unified diff that both ``patch -p1`` and ``git apply`` take: flake8 names the files
    of ``.`` as ``./sub/a.py``, and git refuses ``a/./sub/a.py``."""
    path = os.path.normpath(path)
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
