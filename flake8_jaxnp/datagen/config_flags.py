"""Part of the generator: the configuration options (``jax.config.jax_array``,
``jax.config.update("jax_array", True)``) that past releases defined and the installed JAX
no longer has. Each release's options are read from its source, as ``release_history`` reads
its names: the string given to the functions JAX defines options with (``bool_state``,
``define_bool_state``, ``flags.DEFINE_bool``, ...), parsed once and kept beside the archive."""
import ast
import re
from pathlib import Path

from . import release_history

# The functions JAX has defined options with across releases: jax/_src/config.py's
# bool_state, define_enum_state, int_flag, ...; absl's flags.DEFINE_bool in the oldest.
DEFINERS = re.compile(r"^(define_)?(bool|int|float|string|enum|optional_enum|optional_bool|optional_string|"
                      r"string_or_object|string_list|enum_class)_(state|flag)$|^DEFINE_[a-z_]+$")


def options_defined(texts):
    """The ``jax_*`` option names that the modules ``texts`` ({module: source}) define."""
    found = set()
    for text in texts.values():
        if "jax_" not in text:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            func = call.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if not DEFINERS.match(name):
                continue
            given = next((k.value for k in call.keywords if k.arg == "name"), call.args[0] if call.args else None)
            if isinstance(given, ast.Constant) and isinstance(given.value, str) and given.value.startswith("jax_"):
                found.add(given.value)
    return found


def removed_options(releases=release_history.RELEASES, cache=release_history.CACHE):
    """{"jax.config.<option>": {"last": the last release that defined it, "message": "",
    "raises": True}} for the options of past releases that the installed JAX's source does not
    define (some modules define theirs only when imported: test_util, pallas) and its
    ``jax.config`` neither knows nor has as an attribute (reading or updating one raises
    AttributeError)."""
    import jax

    installed = options_defined(release_history.sources(Path(jax.__file__).parent))
    removed = {}
    for version in releases:
        for option in _options(version, cache):
            if option not in installed and option not in jax.config.values and not hasattr(jax.config, option):
                removed[f"jax.config.{option}"] = {"last": version, "message": "", "raises": True}
    return removed


def _options(version, cache):
    return release_history.kept(version, cache, "options", (options_defined,), lambda: sorted(
        options_defined(release_history.sources(release_history.archive(version, cache)))))
