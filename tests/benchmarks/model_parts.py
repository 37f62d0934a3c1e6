"""The plugin's CPU time by part of the model, measured without a profiler.

    python tests/benchmarks/model_parts.py DIR [--repeat N]

Lints every file under DIR in one process (parse excluded, no cache, the process's memory
of the project emptied before each round) and adds up ``time.process_time`` around a few
entry points: building the Model and, inside it, the names index, the trace roots, the
tracing fixpoint (the project's reach and the forward passes it runs), and what checks ask
later (forward passes of other bodies, the array bodies). A part called inside itself is
counted once. Prints the round with the least total CPU of ``--repeat`` rounds.

Why not cProfile: ``cost.py --profile`` times each call with ``time.process_time``, a system
call, so profiling costs about ten times the plugin's own time (about 57 s against 5 s on the
research corpus), and that overhead falls on the functions called most (the names index, the
tree walks), inflating their shares. Here the overhead is one clock read per timed call.
"""
import argparse
import ast
import functools
import sys
import time
from pathlib import Path

from flake8_jaxnp import linter
from flake8_jaxnp.model import facade, names, reach, traced, tracing, values
from flake8_jaxnp.model.project import cache, modules, summaries
from flake8_jaxnp.options import Options

# (owner, attribute, label): the entry points timed, in the order printed.
PARTS = (
    (facade.Model, "__init__", "building the model (Model)"),
    (names.Names, "__init__", "  the names index (Names)"),
    (traced.TraceRoots, "__init__", "  the trace roots (TraceRoots)"),
    (tracing.Tracing, "__init__", "  the tracing fixpoint (Tracing)"),
    (modules.Project, "callers", "    the project reach (Project.callers)"),
    (summaries, "root_summary", "      roots' summaries (root_summary)"),
    (modules.Project, "summary", "      modules' summaries (Project.summary)"),
    (tracing.Tracing, "_analyse", "    forward passes of the traced bodies (_analyse)"),
    (tracing.Tracing, "flow_of", "forward passes asked later (Tracing.flow_of)"),
    (reach.ArraySources, "bodies", "the bodies an array can enter (ArraySources.bodies)"),
    (values.FunctionFlow, "__init__", "every forward pass (FunctionFlow)"),
)


def timed(spent, depth, label, function):
    """``function``, adding its CPU time to ``spent[label]`` (outermost calls only)."""
    @functools.wraps(function)
    def measured(*args, **kwargs):
        depth[label] = depth.get(label, 0) + 1
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            depth[label] -= 1
            if not depth[label]:
                spent[label] = spent.get(label, 0.0) + time.process_time() - start
    return measured


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="the folder of files to lint (the research corpus)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the least total is printed (default 3)")
    options = parser.parse_args()
    parsed = []
    for path in sorted(options.root.rglob("*.py")):
        source = path.read_text(encoding="utf-8", errors="replace")
        try:
            parsed.append((str(path), ast.parse(source), source.splitlines(True)))
        except SyntaxError:
            continue
    spent, depth = {}, {}
    for owner, attribute, label in PARTS:
        setattr(owner, attribute, timed(spent, depth, label, getattr(owner, attribute)))
    rounds = []
    for _ in range(options.repeat):
        cache.MEMORY.__init__()
        spent.clear()
        lint_options = Options(cache_dir="")
        start = time.process_time()
        for path, tree, lines in parsed:
            linter.lint(tree, lines, lint_options, path)
        rounds.append((time.process_time() - start, dict(spent)))
    total, parts = min(rounds, key=lambda found: found[0])
    print(f"python {sys.version.split()[0]}: the plugin's CPU for {len(parsed)} files, {total:.2f} s "
          f"(least of {options.repeat} rounds: {', '.join(f'{r[0]:.2f}' for r in rounds)})\n")
    for _, _, label in PARTS:
        seconds = parts.get(label, 0.0)
        print(f"  {label:<56} {seconds:6.2f} s {seconds / total:6.1%}")


if __name__ == "__main__":
    main()
