"""The plugin's cost against plain flake8, as ratios: every row of the cost table of issue 47.

    python tests/benchmarks/cost.py [--research DIR] [--library] [--repeat N] [--rows ROW,...]
    python tests/benchmarks/cost.py --profile [--sample] [--research DIR]

Each row alternates flake8 with and without the plugin (``bench.measure``: fresh processes,
``--jobs 1``, bytecode compiled, medians of ``--repeat`` pairs) and prints the CPU time ratio,
the peak memory ratio and the machine's load average before the row (``os.getloadavg``: the
machine may be shared). Rows: ``research`` (the folder ``shared/research/extract.sh`` wrote:
cold cache, so every file is analysed; warm cache with every file analysed again; warm cache
with the findings of unchanged files reused), ``library`` (the pinned corpus of ``corpus.py``,
the same three; skipped when it cannot be fetched), ``stdin`` (an editor's save: the corpus files
closest to 150 and 2,000 lines fed on stdin under its own path, with no cache and warm) and ``chain``
(the last module of a generated package of N modules, ``shapes.module_chain``, linted alone with
no cache: what the project's reach costs as the package grows).

``--profile`` runs the plugin under cProfile (``--sample``: a sampling profiler, every
millisecond of CPU) over every file (parse excluded, no cache, the process's memory of the
project emptied first, the rules off by default left out) and prints its time by family: each check's
cumulative time grouped by its module, building the model, the project's reach, and each
package module's own time.
"""
import argparse
import ast
import cProfile
import os
import pstats
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402 - the sibling scripts, not installed modules
import corpus  # noqa: E402
import shapes  # noqa: E402

ROWS = ("research", "library", "stdin", "chain")
CHAIN_SIZES = (25, 200)
SAVE_SIZES = (150, bench.SINGLE_FILE_LINES)  # lines of the files an editor's save is measured on


def load():
    """The load averages over 1, 5 and 15 minutes, as text."""
    return "/".join(f"{figure:.1f}" for figure in os.getloadavg())


def row(label, args, lines, repeat, cache, **options):
    """One measured row, with the load before it in its label."""
    return bench.measure(f"{label} (load {load()})", args, lines, repeat, cache, **options)


def corpus_rows(name, root, repeat):
    """Every file analysed (cold), analysed again with warm summaries, and reused (warm)."""
    files = sorted(Path(root).rglob("*.py"))
    lines = corpus.count_lines(files)
    row(f"{name}, {len(files)} files, every file analysed (cold cache)", [str(root)], lines, repeat, "cold")
    with tempfile.TemporaryDirectory() as warm:
        bench.run_flake8("with", [str(root)], cache=warm)  # fills the cache
        row(f"{name}, warm cache, every file analysed again", [str(root)], lines, repeat, warm, reanalyse=True)
        row(f"{name}, warm cache, findings of unchanged files reused", [str(root)], lines, repeat, warm)


def stdin_rows(files, repeat):
    """An editor's save of one file: on stdin, under its real path, with no cache and warm; a
    small file (where start-up is most of the cost) and a long one."""
    for target in SAVE_SIZES:
        path, lines = bench.single_file(files, target)
        args = ["--stdin-display-name", str(path), "-"]
        label = f"editor save, `{path.name}` ({lines} lines) on stdin"
        row(f"{label}, no cache", args, lines, repeat, "", stdin_path=path)
        with tempfile.TemporaryDirectory() as warm:
            bench.run_flake8("with", args, stdin_path=path, cache=warm)
            row(f"{label}, warm cache", args, lines, repeat, warm, stdin_path=path, reanalyse=True)


def chain_rows(repeat):
    """The last module of an N-module import chain, linted alone, no cache."""
    for size in CHAIN_SIZES:
        with tempfile.TemporaryDirectory() as root:
            package = Path(root) / "chain"
            package.mkdir()
            for name, source in shapes.module_chain(size).items():
                (package / name).write_text(source)
            last = package / f"m{size - 1}.py"
            row(f"the last module of a {size}-module chain, alone, no cache", [str(last)],
                last.read_text().count("\n"), repeat, "")


def profile(files, top=15, sample=False):
    """The plugin's time over ``files``, by family: under cProfile, or with ``sample`` from the
    whole stack seen at every millisecond of CPU (``SIGPROF``), which costs nothing per call:
    cProfile reads the clock at every call and return, inflating the shares of the functions
    called most (the names index, the tree walks). The rules off by default are left out, as
    flake8 runs the plugin."""
    from flake8_jaxnp import linter
    from flake8_jaxnp.model.project import cache
    from flake8_jaxnp.options import OFF_BY_DEFAULT, Options

    parsed = []
    for path in files:
        source = path.read_text(encoding="utf-8", errors="replace")
        try:
            parsed.append((str(path), ast.parse(source), source.splitlines(True)))
        except SyntaxError:
            continue
    cache.MEMORY.__init__()
    options = Options(cache_dir="", silenced=frozenset(OFF_BY_DEFAULT))
    run = _sampled if sample else _profiled
    total, cumulative, own_by_key = run(lambda: [linter.lint(tree, lines, options, path)
                                                 for path, tree, lines in parsed])
    spent = sum(own_by_key.values())
    how = "sampled" if sample else "under cProfile"
    print(f"plugin {how}: {total:.2f} s CPU for {len(parsed)} files (shares of {spent:.2f} s profiled)\n")

    def share(seconds):
        return f"{seconds:7.2f} s {seconds / spent:6.1%}"

    def cumulative_of(module_file, name):
        return sum(seconds for (file, _, function), seconds in cumulative.items()
                   if function == name and file.endswith(module_file))

    print("where, cumulative")
    print(f"  {'building the model (Model)':<52} {share(cumulative_of('model/facade.py', '__init__'))}")
    print(f"  {'  the project reach (Project.callers)':<52} {share(cumulative_of('project/modules.py', 'callers'))}")
    print(f"  {'findings kept and reused (reuse)':<52} "
          f"{share(sum(cumulative_of('reuse.py', name) for name in ('entry', 'reused', 'keep')))}")
    families = {}
    for check in linter.CHECKS:
        code = check.__code__
        seconds = cumulative.get((code.co_filename, code.co_firstlineno, code.co_name), 0.0)
        families.setdefault(check.__module__.rsplit(".", 1)[1], []).append((seconds, check.__name__))
    for family, checks in sorted(families.items(), key=lambda item: -sum(s for s, _ in item[1])):
        print(f"  {'checks/' + family:<52} {share(sum(s for s, _ in checks))}")
        for seconds, name in sorted(checks, reverse=True)[:3]:
            print(f"  {'    ' + name:<52} {share(seconds)}")
    own = {}
    for (file, _, _), seconds in own_by_key.items():
        where = file.split("flake8_jaxnp/", 1)[1] if "flake8_jaxnp/" in file else "(outside the plugin)"
        own[where] = own.get(where, 0.0) + seconds
    print("\nown time by module")
    for where, seconds in sorted(own.items(), key=lambda item: -item[1])[:top]:
        print(f"  {where:<52} {share(seconds)}")


def _profiled(work):
    """(CPU seconds, cumulative and own seconds by (file, line, function)) of ``work()`` under cProfile."""
    profiler = cProfile.Profile(time.process_time)
    start = time.process_time()
    profiler.enable()
    work()
    profiler.disable()
    total = time.process_time() - start
    stats = pstats.Stats(profiler).stats  # (file, line, name) -> (calls, primitive, own, cumulative, callers)
    return total, {key: figures[3] for key, figures in stats.items()}, \
        {key: figures[2] for key, figures in stats.items()}


def _sampled(work, interval=0.001):
    """The same from the stacks seen every ``interval`` of CPU (the system's timer may fire less
    often: each sample stands for an equal part of the CPU time measured): a function's
    cumulative time is the samples whose stack holds it (once, however deep it recurses), its
    own those it tops."""
    cumulative, own = Counter(), Counter()

    def record(signum, frame):
        own[_key(frame.f_code)] += 1
        seen = set()
        while frame is not None:
            seen.add(_key(frame.f_code))
            frame = frame.f_back
        cumulative.update(seen)

    previous = signal.signal(signal.SIGPROF, record)
    start = time.process_time()
    signal.setitimer(signal.ITIMER_PROF, interval, interval)
    try:
        work()
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, previous)
    total = time.process_time() - start
    each = total / max(1, sum(own.values()))
    return total, {key: n * each for key, n in cumulative.items()}, {key: n * each for key, n in own.items()}


def _key(code):
    return code.co_filename, code.co_firstlineno, code.co_name


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--research", type=Path, help="the research corpus folder (extract.sh's)")
    parser.add_argument("--library", action="store_true", help="also the library corpus (corpus.py; may download)")
    parser.add_argument("--repeat", type=int, default=3, help="pairs of runs per corpus row (default 3; "
                        "the stdin and chain rows run 4 times as many)")
    parser.add_argument("--rows", default=",".join(ROWS), help="which rows, comma-separated (default: all)")
    parser.add_argument("--profile", action="store_true", help="profile the plugin instead of timing it")
    parser.add_argument("--sample", action="store_true", help="with --profile: sample the stacks every "
                        "millisecond of CPU instead of cProfile's clock at every call")
    options = parser.parse_args()
    rows = set(options.rows.split(","))
    library = None
    if options.library or options.profile and options.research is None:
        try:
            library = corpus.fetch()
        except corpus.CorpusUnavailable as exc:
            print(f"library corpus skipped: {exc}")
    if options.profile:
        root = options.research or library
        if root is None:
            parser.error("--profile needs --research DIR or the library corpus")
        profile(sorted(Path(root).rglob("*.py")), sample=options.sample)
        return
    bench.check_launcher()  # also the warm-up run that writes the bytecode cache
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs; CPU time and peak memory, plugin against "
          f"plain flake8, medians of alternating pairs\n")
    print("| run | lines | without | with | time ratio | CPU ratio | CPU ratio within one process "
          "| lines/s with | memory without | memory with | memory ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    if "research" in rows and options.research:
        corpus_rows("research corpus", options.research, options.repeat)
    if "library" in rows and library is not None:
        corpus_rows("library corpus", library, options.repeat)
    if "stdin" in rows:
        source = options.research or library
        if source is not None:
            stdin_rows(sorted(Path(source).rglob("*.py")), 4 * options.repeat)
    if "chain" in rows:
        chain_rows(4 * options.repeat)


if __name__ == "__main__":
    main()
