"""The plugin's data files (the rule catalogue and the generated JAX API facts), parsed once.

Parsing them costs as much as loading the rest of the plugin, and an editor pays that on
every save. So their parsed form is kept beside the bytecode, in the folder and under the
switch Python uses for its own (``__pycache__``, ``PYTHONPYCACHEPREFIX``,
``PYTHONDONTWRITEBYTECODE``), with what it was parsed from: the text and the source of the
module that parses it (which may derive tables of its own), each by size and modification
time as Python's bytecode cache tells a changed source, and by digest; a change to either
is parsed again. The digests are compared only while a file's time is not older than the
kept file's (a change within the clock's tick keeps both: git's "racy" files), so a start
with a settled kept parse reads neither file (hashing the 474 KB of API text cost an
editor's save 7 M instructions). A folder that cannot be written only means parsing every time.

A file's top-level tables are kept one by one and read from the kept file when first asked
for (``Tables``): one lint asks for some of the API data's tables, and reading the others,
or holding their bytes, would cost every process their time and memory. So is each entry of
a large table of mappings (the removed names of a module: a lint looks up the few its file
uses), and that table's keys are read only when the table is first asked for (a file that
names no JAX never asks). Equal strings of a table are kept once.
"""
import importlib.util
import marshal
import os
import sys
from collections.abc import Mapping
from pathlib import Path

try:  # hashlib's own blake2b: importing hashlib would also load OpenSSL (10 M instructions, a tenth
    from _blake2 import blake2b  # of the plugin's start-up, that an editor's save pays for nothing)
except ImportError:  # a Python built without its own blake2
    from hashlib import blake2b

# of the kept file: the header's size (HEADER_SIZE bytes), then the header (KEPT_FORMAT, (stamps, digests), index),
# then the tables' bytes; another format is parsed again
KEPT_FORMAT = 5
HEADER_SIZE = 8
ENTRY_BY_ENTRY = 100  # a table of more mappings than this keeps each entry on its own


def load(path, parse):
    """``parse(text)`` of the file at ``path`` (a mapping), kept for the next process."""
    sources = (path, Path(sys.modules[parse.__module__].__file__))
    kept = Path(importlib.util.cache_from_source(str(path.with_suffix(".py")))).with_suffix(f"{path.suffix}.marshal")
    stamps = tuple(_stamp(source) for source in sources)
    tables = _read_kept(kept, stamps, sources)
    if tables is not None:
        return tables
    text = path.read_bytes()
    parsed = parse(text)
    if not sys.dont_write_bytecode:
        _keep(parsed, (stamps, (_digest(text), _digest(sources[1].read_bytes()))), kept)
    return parsed


def _stamp(path):
    """(size, modification time in ns) of ``path``."""
    stat = os.stat(path)
    return stat.st_size, stat.st_mtime_ns


def _digest(data):
    return blake2b(data, digest_size=16).digest()


def _read_kept(kept, stamps, sources):
    """The kept tables (``Tables``) if ``kept`` was made from ``sources`` as they are (``stamps``:
    theirs now), else None."""
    try:
        descriptor = os.open(kept, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        size = int.from_bytes(_read(descriptor, 0, HEADER_SIZE), "little")
        kept_stat = os.fstat(descriptor)
        if HEADER_SIZE + size > kept_stat.st_size:
            raise EOFError("a damaged kept file")
        kept_format, made_from, index = marshal.loads(_read(descriptor, HEADER_SIZE, HEADER_SIZE + size))
        if kept_format == KEPT_FORMAT and made_from[0] == stamps and (
                all(mtime < kept_stat.st_mtime_ns for _, mtime in stamps)
                or made_from[1] == tuple(_digest(source.read_bytes()) for source in sources)):
            return Tables(index, descriptor, HEADER_SIZE + size)  # (the descriptor stays open while it lives)
    except (OSError, ValueError, EOFError, TypeError):
        pass
    os.close(descriptor)
    return None


def _read(descriptor, start, end):
    """The bytes from ``start`` to ``end``: ``os.pread`` leaves the offset that processes forked
    after loading (``flake8 --jobs``) share untouched; where it is missing, so is fork."""
    if hasattr(os, "pread"):
        data = os.pread(descriptor, end - start, start)
    else:
        os.lseek(descriptor, start, os.SEEK_SET)
        data = os.read(descriptor, end - start)
    if len(data) != end - start:
        raise EOFError("a kept file shorter than its index says")
    return data


def _keep(parsed, made_from, kept):
    """Write the kept file: each table's marshalled bytes (``ENTRY_BY_ENTRY``: each entry's,
    and the marshalled mapping of its keys to where they lie) and, first, where they lie."""
    parts, end = [], 0

    def place(data):
        nonlocal end
        parts.append(data)
        end += len(data)
        return end - len(data), end

    index = {}
    try:
        for key, table in parsed.items():
            table = _shared(table, {})
            if type(table) is dict and len(table) > ENTRY_BY_ENTRY and all(type(e) is dict for e in table.values()):
                entries = {name: place(marshal.dumps(entry)) for name, entry in table.items()}
                index[key] = (*place(marshal.dumps(entries)), True)
            else:
                index[key] = place(marshal.dumps(table))
        header = marshal.dumps((KEPT_FORMAT, made_from, index))
        partial = kept.with_name(f"{kept.name}.{os.getpid()}.tmp")  # then renamed: readers never see half
        kept.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(b"".join([len(header).to_bytes(HEADER_SIZE, "little"), header, *parts]))
        os.replace(partial, kept)
    except (OSError, ValueError):  # (ValueError: a value marshal cannot keep)
        pass


class Tables(Mapping):
    """A kept parse (or a table kept entry by entry): each value read from the kept file and
    unmarshalled when first asked for. ``index``: key -> (start, end) of its bytes after
    ``body``, with True after them for a table kept entry by entry."""

    def __init__(self, index, descriptor, body):
        self._index, self._descriptor, self._body, self._read = index, descriptor, body, {}

    def __getitem__(self, key):
        try:
            return self._read[key]
        except KeyError:
            start, end, *by_entry = self._index[key]
            value = marshal.loads(_read(self._descriptor, self._body + start, self._body + end))
            value = self._read[key] = Tables(value, self._descriptor, self._body) if by_entry else value
            return value

    def __contains__(self, key):
        return key in self._index

    def __iter__(self):
        return iter(self._index)

    def __len__(self):
        return len(self._index)


def _shared(value, strings):
    """``value`` with equal strings made one object (marshal keeps it one when read back)."""
    if type(value) is str:
        return strings.setdefault(value, value)
    if type(value) is list:
        return [_shared(item, strings) for item in value]
    if type(value) is dict:
        return {strings.setdefault(key, key): _shared(item, strings) for key, item in value.items()}
    return value
