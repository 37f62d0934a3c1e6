"""``python -m flake8_jaxnp explain CODE`` prints a rule's page;
``python -m flake8_jaxnp docs [--check] [ROOT]`` writes (or checks) docs/rules/;
``python -m flake8_jaxnp new-rule CODE NAME --family FAMILY`` writes a new rule's stubs (scaffold.py);
``python -m flake8_jaxnp fix [PATH ...]`` applies the fixes of the findings flake8 reports (autofix/cli.py)."""
import argparse
import sys
from pathlib import Path

from . import docs, scaffold
from .rules import RULES

PROG = "python -m flake8_jaxnp"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["fix"]:  # its options, and flake8's, are autofix.cli's to parse
        from .autofix import cli as fix_cli
        return fix_cli.main(argv[1:], prog=f"{PROG} fix")
    cli = argparse.ArgumentParser(prog=PROG, description="flake8-jaxnp rule documentation and scaffolding")
    commands = cli.add_subparsers(dest="command", required=True)
    explain = commands.add_parser("explain", help="print one rule's page (Markdown)")
    explain.add_argument("code", metavar="CODE", help="a rule code such as JNP301")
    generate = commands.add_parser(
        "docs", help=f"write every rule's page to {docs.PAGES_DIR}/ and the rule table to {docs.README}")
    generate.add_argument("root", nargs="?", default=".", help="repository root (default: .)")
    generate.add_argument("--check", action="store_true", help="exit 1 if a page is stale; write nothing")
    commands.add_parser("fix", help="apply the fixes of the findings flake8 reports (fix --help for its options)")
    new_rule = commands.add_parser("new-rule", help="write a new rule's catalogue entry, check and fixture as stubs "
                                   "(run in the repository's root)")
    new_rule.add_argument("code", metavar="CODE", help="the new code, e.g. JNP606")
    new_rule.add_argument("name", metavar="NAME", help="the rule's name, e.g. key-reuse")
    new_rule.add_argument("--family", required=True, help="the module of flake8_jaxnp/checks/ its check goes in")
    new_rule.add_argument("--evidence", metavar="KIND", help="the evidence kind (evidence.py) that confirms it "
                          "at runtime (default: a stub saying why none can)")
    args = cli.parse_args(argv)
    if args.command == "new-rule":
        return _new_rule(args)
    if args.command == "explain":
        code = args.code.strip().upper()
        if code not in RULES:
            print(f"{PROG} explain: unknown rule code {args.code!r} (known: {min(RULES)}-{max(RULES)})",
                  file=sys.stderr)
            return 2
        sys.stdout.write(docs.page(code))
        return 0
    try:
        if args.check:
            stale = docs.stale(args.root)
            for path in stale:
                print(f"{path} is stale; run: {PROG} docs", file=sys.stderr)
            return 1 if stale else 0
        written = docs.write(args.root)
    except docs.NotTheRepository as exc:
        print(f"{PROG} docs: {Path(args.root).resolve()} is not flake8-jaxnp's repository ({exc}); "
              f"{PROG} explain CODE prints a rule's page", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"{PROG} docs: {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {len(written)} files under {Path(args.root).resolve()}")
    return 0


def _new_rule(args):
    try:
        written = scaffold.new_rule(Path.cwd(), args.code, args.name, args.family, args.evidence)
    except scaffold.ScaffoldError as exc:
        print(f"{PROG} new-rule: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path.relative_to(Path.cwd())}")
    print(f"fill in every {scaffold.STUB} (python -m pytest tests/catalogue/test_catalogue.py "
          f"tests/checks/test_fixtures.py lists them), then run: {PROG} docs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
