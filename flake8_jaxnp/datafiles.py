"""The plugin's data files (the rule catalogue and the generated JAX API facts), parsed once.

Parsing them costs as much as loading the rest of the plugin, and an editor pays that on
every save. So their parsed form is kept beside the bytecode, in the folder and under the
switch Python uses for its own (``__pycache__``, ``PYTHONPYCACHEPREFIX``,
``PYTHONDONTWRITEBYTECODE``), together with the text it was parsed from and the source of
the module that parses it (which may derive tables of its own): a change to either is parsed
again. A folder that cannot be written only means parsing every time.

A file's top-level tables are kept one by one and read back when first asked for
(``Tables``): one lint asks for some of the API data's tables, and reading the others
would cost every process their time and memory. So is each entry of a large table of
mappings (the removed names of a module: a lint looks up the few its file uses), and
that table's keys are read only when the table is first asked for (a file that names no
JAX never asks). Equal strings are kept once.
"""
import importlib.util
import marshal
import os
import sys
from collections.abc import Mapping
from pathlib import Path

KEPT_FORMAT = 3  # of the kept file: (KEPT_FORMAT, text, parser, tables); another one is parsed again
ENTRY_BY_ENTRY = 100  # a table of more mappings than this keeps each entry on its own


def load(path, parse):
    """``parse(text)`` of the file at ``path`` (a mapping), kept for the next process."""
    text = path.read_bytes()
    parser = Path(sys.modules[parse.__module__].__file__).read_bytes()
    kept = Path(importlib.util.cache_from_source(str(path.with_suffix(".py")))).with_suffix(f"{path.suffix}.marshal")
    try:
        kept_format, kept_text, kept_parser, tables = marshal.loads(kept.read_bytes())
        if kept_format == KEPT_FORMAT and kept_text == text and kept_parser == parser:
            return Tables(tables)
    except (OSError, ValueError, EOFError, TypeError):
        pass
    parsed = parse(text)
    if not sys.dont_write_bytecode:
        partial = kept.with_name(f"{kept.name}.{os.getpid()}.tmp")  # then renamed: readers never see half
        try:
            strings = {}
            tables = {key: _kept(_shared(value, strings)) for key, value in parsed.items()}
            kept.parent.mkdir(parents=True, exist_ok=True)
            partial.write_bytes(marshal.dumps((KEPT_FORMAT, text, parser, tables)))
            os.replace(partial, kept)
        except (OSError, ValueError):  # (ValueError: a value marshal cannot keep)
            pass
    return parsed


def _kept(table):
    """A table's kept form: its marshalled bytes, or (``ENTRY_BY_ENTRY``) a 1-tuple of the
    marshalled mapping of its keys to each entry's marshalled bytes."""
    if type(table) is dict and len(table) > ENTRY_BY_ENTRY and all(type(entry) is dict for entry in table.values()):
        return (marshal.dumps({key: marshal.dumps(entry) for key, entry in table.items()}),)
    return marshal.dumps(table)


class Tables(Mapping):
    """A kept parse (or a table kept entry by entry): each value unmarshalled when first asked for."""

    def __init__(self, kept):
        self._kept, self._read = kept, {}

    def __getitem__(self, key):
        try:
            return self._read[key]
        except KeyError:
            kept = self._kept[key]
            value = self._read[key] = Tables(marshal.loads(kept[0])) if type(kept) is tuple else marshal.loads(kept)
            self._kept[key] = None  # (its bytes are not read again; the key stays for iteration)
            return value

    def __contains__(self, key):
        return key in self._kept

    def __iter__(self):
        return iter(self._kept)

    def __len__(self):
        return len(self._kept)


def _shared(value, strings):
    """``value`` with equal strings made one object (marshal keeps it one when read back)."""
    if type(value) is str:
        return strings.setdefault(value, value)
    if type(value) is list:
        return [_shared(item, strings) for item in value]
    if type(value) is dict:
        return {strings.setdefault(key, key): _shared(item, strings) for key, item in value.items()}
    return value
