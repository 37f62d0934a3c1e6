"""What astroid would cost for project knowledge, against the plugin's own summaries.

    pip install astroid && python tests/benchmarks/astroid_cost.py

Builds an astroid module tree for every corpus file and, separately, the
plugin's per-module summary of the same bytes, and prints both CPU times; then
resolves ``fixtures/mypkg/train.py``'s imports through astroid. astroid is not a
dependency of the plugin; this script only measures it.
"""
import os
import sys
import time
from pathlib import Path

import astroid

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402 - the sibling script

from flake8_jaxnp.model.project.summaries import summarise  # noqa: E402
from flake8_jaxnp.model.traced import function_transforms  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def main():
    files = corpus.python_files(corpus.fetch())
    sources = [(path, path.read_bytes()) for path in files]
    start = time.process_time()
    for _, source in sources:
        summarise(source, function_transforms())
    own = time.process_time() - start
    start = time.process_time()
    for path, _ in sources:
        astroid.MANAGER.ast_from_file(str(path), source=True)
    theirs = time.process_time() - start
    print(f"{len(files)} files: plugin summaries {own:.2f} s CPU, astroid module trees {theirs:.2f} s CPU "
          f"({theirs / own:.1f}x), astroid {astroid.__version__}")
    os.chdir(FIXTURES)
    sys.path.insert(0, str(FIXTURES))
    astroid.MANAGER.clear_cache()
    start = time.perf_counter()
    module = astroid.MANAGER.ast_from_file(str(FIXTURES / "mypkg" / "train.py"), modname="mypkg.train", source=True)
    found = {name: next(module.igetattr(name)).root().name
             for name in ("train_step", "init_params", "log_loss", "steps")}
    print(f"astroid resolves mypkg/train.py's imports to {found} in {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
