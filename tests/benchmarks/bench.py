"""What the plugin costs on real code: flake8 with and without flake8-jaxnp.

    python tests/benchmarks/bench.py [--repeat N] [--profile]

Fetches the corpus (``corpus.py``), then, alternating within each round,
runs ``flake8 --isolated --jobs 1`` over it with the plugin and without it, and
``flake8 -`` on one ~2,000-line file fed on stdin (what an editor does; its
display name is its real path, so it sees the modules it imports). The plugin's
cache is measured cold (a new empty folder for every run) and warm (a folder
filled by one run before measuring), warm twice: with the findings of the
unchanged files reused, and with them dropped before each run so that every
file is analysed again with warm summaries (what a run after edits costs; the
stdin run is measured that way too, as an editor's buffer has changed). It
reports median wall time, CPU time and peak memory (the child's own
``ru_maxrss``), their ratios and lines per second; the CPU time ratio is the
steadier figure on a busy machine. Steadier still, when other jobs share the
machine, is the ratio within one process: the "with" run times the plugin's own
``run()`` and compares the whole process with the rest of it (it leaves out
what the plugin's presence costs the other checkers, such as loading it: about
0.03 s). Both sides run the same flake8 through the
same launcher: "without" removes the plugin's entry point before flake8
discovers plugins, so none of its code is imported or run. Children cache
bytecode (in the cache folder) as an installed plugin does, after a warm-up
run. ``--profile`` also runs the plugin under cProfile over the corpus and
prints the hot spots.
"""
import argparse
import ast
import cProfile
import io
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402 - the sibling script, not an installed module
from flake8_jaxnp.reuse import PREFIX  # noqa: E402

PLUGIN_DISTRIBUTION = "flake8-jaxnp"
# Runs flake8's own main(); argv[1] is "with" or "without" the plugin. "with" also times
# the plugin's run() and prints that CPU time last on stderr (SPLIT_MARK).
SPLIT_MARK = "plugin run() CPU seconds:"
LAUNCHER = f"""
import sys
from flake8.plugins import finder
if sys.argv[1] == "without":
    _find = finder._find_importlib_plugins
    finder._find_importlib_plugins = lambda: (p for p in _find() if p.package != {PLUGIN_DISTRIBUTION!r})
else:
    import atexit, time
    from flake8_jaxnp import plugin
    _run, _spent = plugin.JaxNumpyChecker.run, [0.0]
    def _timed(self):
        start = time.process_time()
        found = list(_run(self))
        _spent[0] += time.process_time() - start
        return iter(found)
    plugin.JaxNumpyChecker.run = _timed
    atexit.register(lambda: sys.stderr.write(f"{SPLIT_MARK} {{_spent[0]}}\\n"))
from flake8.main.cli import main
main(sys.argv[2:])
"""
FLAKE8_ARGS = ["--isolated", "--jobs", "1", "--exit-zero"]
# Children cache bytecode as an installed plugin would (pip compiles on install), in a
# folder of their own so the working tree stays clean.
CHILD_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
CHILD_ENV["PYTHONPYCACHEPREFIX"] = str(corpus.cache_dir().parent / "pycache")
SINGLE_FILE_LINES = 2000


def run_flake8(mode, args, stdin_path=None, cache=None, reanalyse=False):
    """(wall seconds, CPU seconds, peak RSS in MiB, CPU ratio within the process) of one
    flake8 run in a fresh process; ``cache`` is the plugin's cache folder ("with" runs
    only; "cold": a new empty one); ``reanalyse`` drops the kept findings from it first,
    so every file is analysed with warm summaries (what a run after edits costs)."""
    if reanalyse and mode == "with":
        for kept in Path(cache).glob(f"{PREFIX}*.json"):
            kept.unlink()
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    cold = tempfile.TemporaryDirectory() if cache == "cold" else None
    plugin_args = [] if mode == "without" else ["--jaxnp-cache-dir", cold.name if cold else cache]
    try:
        start = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-c", LAUNCHER, mode, *FLAKE8_ARGS, *plugin_args, *args],
                                   stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=CHILD_ENV)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        errors = process.stderr.read().decode(errors="replace")
        process.stderr.close()
    finally:
        if stdin_path:
            stdin.close()
        if cold:
            cold.cleanup()
    if process.returncode != 0:
        raise SystemExit(f"flake8 ({mode}) failed with {process.returncode}:\n{errors}")
    cpu = usage.ru_utime + usage.ru_stime
    plugin = float(errors.rsplit(SPLIT_MARK, 1)[1]) if SPLIT_MARK in errors else 0.0
    return wall, cpu, usage.ru_maxrss / 1024, cpu / (cpu - plugin)  # ru_maxrss is in KiB on Linux


def check_launcher():
    """Refuse to measure unless "without" really drops the plugin and "with" keeps it."""
    for mode, expected in (("with", True), ("without", False)):
        result = subprocess.run([sys.executable, "-c", LAUNCHER, mode, "--version"],
                                capture_output=True, text=True, check=True, env=CHILD_ENV)
        if (PLUGIN_DISTRIBUTION in result.stdout) != expected:
            raise SystemExit(f"launcher mode {mode!r} lists plugins: {result.stdout.strip()}")


def measure(label, args, lines, repeat, cache, stdin_path=None, reanalyse=False):
    """Alternate with/without ``repeat`` times; print and return the figures."""
    runs = {"with": [], "without": []}
    for round_number in range(repeat):
        order = ("with", "without") if round_number % 2 == 0 else ("without", "with")
        for mode in order:
            runs[mode].append(run_flake8(mode, args, stdin_path, cache, reanalyse))
    wall, cpu, memory, split = ({mode: statistics.median(run[index] for run in results)
                                 for mode, results in runs.items()} for index in range(4))
    figures = {
        "label": label, "lines": lines, "repeat": repeat,
        "wall_with": wall["with"], "wall_without": wall["without"],
        "time_ratio": wall["with"] / wall["without"],
        "cpu_with": cpu["with"], "cpu_without": cpu["without"], "cpu_ratio": cpu["with"] / cpu["without"],
        "mem_with": memory["with"], "mem_without": memory["without"],
        "mem_ratio": memory["with"] / memory["without"], "split_ratio": split["with"],
        "lines_per_s_with": lines / wall["with"], "lines_per_s_without": lines / wall["without"],
    }
    print(f"| {label} | {lines:,} | {figures['wall_without']:.2f} s | {figures['wall_with']:.2f} s "
          f"| {figures['time_ratio']:.2f} | {figures['cpu_ratio']:.2f} | {figures['split_ratio']:.3f} "
          f"| {figures['lines_per_s_with']:,.0f} "
          f"| {figures['mem_without']:.0f} MiB | {figures['mem_with']:.0f} MiB | {figures['mem_ratio']:.2f} |",
          flush=True)
    return figures


def single_file(files, target=SINGLE_FILE_LINES):
    """The corpus file that uses jax and whose length is closest to ``target`` lines."""
    candidates = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        if "jax" in text:
            candidates.append((abs(text.count("\n") - target), str(path), text.count("\n")))
    _, path, lines = min(candidates)
    return Path(path), lines


def imported_modules(path):
    """How many other modules of its project ``path`` imports (as the plugin resolves them)."""
    from flake8_jaxnp.model.project import Project
    from flake8_jaxnp.model.syntax import module_imports

    project = Project(path, "", {}, set())
    found = set()
    for binding in module_imports(ast.parse(path.read_bytes())).values():
        for attributes in ((), ("_",)):  # from pkg import module, or from pkg.module import name
            target = project.resolve(binding, attributes)
            if target is not None and target[0] != project.path:
                found.add(target[0])
    return len(found)


def profile(files, top=25):
    """cProfile of the plugin alone (parse excluded) over every corpus file."""
    from flake8_jaxnp.linter import lint

    parsed = []
    for path in files:
        source = path.read_text(encoding="utf-8", errors="replace")
        try:
            parsed.append((path, ast.parse(source), source.splitlines(True)))
        except SyntaxError:
            continue
    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    for path, tree, lines in parsed:
        lint(tree, lines, filename=str(path))
    profiler.disable()
    print(f"\nplugin alone: {time.perf_counter() - start:.2f} s under cProfile for {len(parsed)} files")
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(top)
    print(out.getvalue())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="rounds of with/without runs (default 5)")
    parser.add_argument("--profile", action="store_true", help="also profile the plugin with cProfile")
    options = parser.parse_args()

    root = corpus.fetch()
    files = corpus.python_files(root)
    lines = corpus.count_lines(files)
    check_launcher()  # also the warm-up run that writes the bytecode cache
    pins = ", ".join(f"{name}=={version}" for name, version in sorted(corpus.PACKAGES.items()))
    print(f"corpus: {len(files)} files, {lines:,} lines ({pins})")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs; medians of alternating runs: "
          f"{options.repeat} each on the corpus, {max(6 * options.repeat, 30)} each on one file\n")
    print("| run | lines | flake8 without JNP | flake8 with JNP | time ratio | CPU time ratio "
          "| CPU ratio within one process | lines/s with JNP | peak memory without | peak memory with | memory ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    measure("corpus, `flake8 --jobs 1`, cold cache", [str(root)], lines, options.repeat, "cold")
    with tempfile.TemporaryDirectory() as warm:
        run_flake8("with", [str(root)], cache=warm)  # fills the cache
        measure("corpus, `flake8 --jobs 1`, warm cache, files unchanged (findings reused)", [str(root)], lines,
                options.repeat, warm)
        measure("corpus, `flake8 --jobs 1`, warm cache, every file analysed again", [str(root)], lines,
                options.repeat, warm, reanalyse=True)
        path, path_lines = single_file(files)
        measure(f"one file on stdin (`{path.name}`, imports {imported_modules(path)} project modules), warm cache, "
                "analysed again", ["--stdin-display-name", str(path), "-"], path_lines, max(6 * options.repeat, 30),
                warm, stdin_path=path, reanalyse=True)
    if options.profile:
        profile(files)


if __name__ == "__main__":
    main()
