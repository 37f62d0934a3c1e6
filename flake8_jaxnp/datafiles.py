"""The plugin's data files (the rule catalogue and the generated JAX API facts), parsed once.

Parsing them costs as much as loading the rest of the plugin, and an editor pays that on
every save. So their parsed form is kept beside the bytecode, in the folder and under the
switch Python uses for its own (``__pycache__``, ``PYTHONPYCACHEPREFIX``,
``PYTHONDONTWRITEBYTECODE``), together with the text it was parsed from: a changed file is
parsed again. A folder that cannot be written only means parsing every time.
"""
import importlib.util
import marshal
import os
import sys
from pathlib import Path


def load(path, parse):
    """``parse(text)`` of the file at ``path``, kept for the next process."""
    text = path.read_bytes()
    kept = Path(importlib.util.cache_from_source(str(path.with_suffix(".py")))).with_suffix(f"{path.suffix}.marshal")
    try:
        kept_text, parsed = marshal.loads(kept.read_bytes())
        if kept_text == text:
            return parsed
    except (OSError, ValueError, EOFError, TypeError):
        pass
    parsed = parse(text)
    if not sys.dont_write_bytecode:
        partial = kept.with_name(f"{kept.name}.{os.getpid()}.tmp")  # then renamed: readers never see half
        try:
            kept.parent.mkdir(parents=True, exist_ok=True)
            partial.write_bytes(marshal.dumps((text, parsed)))
            os.replace(partial, kept)
        except (OSError, ValueError):  # (ValueError: a value marshal cannot keep)
            pass
    return parsed
