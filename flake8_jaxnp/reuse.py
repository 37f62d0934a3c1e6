"""Findings kept from the last lint of a file, reused while nothing they depend on has
changed (as ruff and mypy keep theirs), so a warm run analyses only what changed.

A file's findings are a function of its text, its path and the working directory
(messages show paths), the options, the plugin's own code and data, the Python
version, and the answers of its project to the questions the model asks of other
modules (``Project.function``, ``dtype_alias``, ``project_class``, ``callers``, ``kept_defaults``). An entry is
kept beside the module summaries under a key made of all but those answers, and
records each question with its answer. It is reused only when every question,
asked again now, gets the same answer: a module of the project that changed,
appeared or went away changes an answer, and the file is analysed again. An answer
is drawn from every module it depends on, however far: who traces this file's
functions is solved over the whole project's summaries, and what an imported
function converts follows the helpers it hands its arguments to, so a module
changed anywhere along a chain changes the answer (``tests/model/test_project_reach.py``).
"""
import json
import os
import sys

from .findings import INTERNAL_ERROR, Finding
from .model import project as projects
from .model.project import cache

PREFIX = "findings-"  # entries' names in the cache folder (the summaries have none)
_SCALARS = (str, int, float, bool, type(None))


def entry(text, options, filename):
    """(cache folder, entry name) for a file's text, or None where no findings are kept: a
    buffer with no path, or no cache folder on disk (``--jaxnp-cache-dir ''``)."""
    folder = cache.folder(options.cache_dir)
    if not folder or not projects.has_project(filename):
        return None
    settings = {name: getattr(options, name) for name in options.FIELDS if name != "cache_dir"}
    inputs = json.dumps([text, filename, os.getcwd(), settings, cache.plugin_digest(), sys.version],
                        sort_keys=True, default=sorted)  # (sets, as sorted lists)
    return str(folder), PREFIX + cache.blake2b(inputs.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def reused(where, filename, options):
    """The findings kept for this file, when its project still answers every question as
    it did; else None."""
    kept = cache.read(*where)
    if kept is None:
        return None
    project = projects.project_around(filename, options)
    try:
        for question, arguments, answer in kept["consulted"]:
            if question not in projects.QUESTIONS or \
                    projects.answer(getattr(project, question)(*arguments)) != answer:
                return None
        return [Finding(line, col, code, tuple(tuple(pair) for pair in fields))
                for line, col, code, fields in kept["findings"]]
    except Exception:  # noqa: BLE001 - a damaged entry is a miss, never a failure
        return None


def keep(where, findings, consulted):
    """Keep a file's findings with the questions its project answered. A JNP900 (the
    analysis failed) is not kept: the next run tries again; nor are message fields that
    JSON would not give back as they were."""
    if any(f.code == INTERNAL_ERROR or not all(type(value) in _SCALARS for _, value in f.fields) for f in findings):
        return
    kept = {"consulted": consulted, "findings": [[f.line, f.col, f.code, f.fields] for f in findings]}
    cache.write(*where, kept)
