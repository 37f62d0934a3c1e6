"""Plugin options, shared by flake8's option manager and the runtime mode."""
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

from .rules import OFF_BY_DEFAULT, RULES

X64_RULES = ("JNP402", "JNP403")  # what --jaxnp-x64 silences


@dataclass(frozen=True)
class Options:
    extra_transforms: tuple = ()  # dotted names treated like jax.jit
    x64: bool = False  # the project enables jax_enable_x64 globally
    cache_dir: str = None  # summaries and kept findings: None is the user's cache folder, "" keeps none on disk
    silenced: frozenset = frozenset()  # codes flake8's selection never reports: checks skip their work


DEFAULT = Options()


def register(option_manager):
    """Add the plugin's options to flake8 (command line and config files)."""
    option_manager.extend_default_ignore(OFF_BY_DEFAULT)  # --select JNP or --extend-select turns them on
    option_manager.add_option(
        "--jaxnp-extra-transforms", default="", parse_from_config=True,
        comma_separated_list=True,
        help="Comma-separated dotted names of decorators/functions that trace like "
             "jax.jit (e.g. equinox.filter_jit).",
    )
    option_manager.add_option(
        "--jaxnp-x64", default=False, action="store_true", parse_from_config=True,
        help="The project enables jax_enable_x64: do not report 64-bit dtype narrowing "
             f"({', '.join(X64_RULES)}).",
    )
    option_manager.add_option(
        "--jaxnp-cache-dir", default=None, parse_from_config=True,
        help="Folder for the per-module summaries that let a file see its project's other "
             "modules, and for the findings of files that did not change (default: "
             "~/.cache/flake8-jaxnp/summaries; '' keeps nothing on disk).",
    )


# Import aliases that users write for the module itself -> the module's real name.
CONVENTIONAL_ALIASES = {"eqx": "equinox", "nnx": "flax.nnx", "nn": "flax.linen", "hk": "haiku",
                        "jnp": "jax.numpy", "np": "numpy", "lax": "jax.lax"}


def from_flake8(options):
    names = []
    for name in (name.strip() for name in options.jaxnp_extra_transforms if name.strip()):
        problem, usable = transform_name_problem(name)
        if problem:
            print(f"flake8-jaxnp: --jaxnp-extra-transforms: {problem}", file=sys.stderr)
        if usable:
            names.append(name)
    return Options(extra_transforms=tuple(names), x64=bool(options.jaxnp_x64), cache_dir=options.jaxnp_cache_dir,
                   silenced=_silenced(options))


def _silenced(options):
    """The codes flake8's --select/--ignore (and their extend- forms) leave out everywhere,
    as flake8 itself decides (per-file ignores and noqa only ever leave out more)."""
    try:
        from flake8.style_guide import Decision, DecisionEngine
        engine = DecisionEngine(options)
        return frozenset(code for code in RULES if engine.decision_for(code) is Decision.Ignored)
    except Exception:  # noqa: BLE001 - another flake8: do every check, flake8 still filters
        return frozenset()


def transform_name_problem(name):
    """(what is wrong with ``name``, whether it can still name a transform): not a dotted
    path or an import alias (ignored), or a module that is neither installed nor in the
    working directory (kept: it may live elsewhere). Finds modules without importing."""
    parts = name.split(".")
    if len(parts) < 2 or not all(part.isidentifier() for part in parts):
        return f"{name!r} is not a dotted path such as equinox.filter_jit; it is ignored", False
    top = parts[0]
    if top in CONVENTIONAL_ALIASES:
        real = ".".join([CONVENTIONAL_ALIASES[top], *parts[1:]])
        return f"{name!r} starts with an import alias, not a module; it is ignored (write {real})", False
    if importlib.util.find_spec(top) is None and not (Path(top).is_dir() or Path(f"{top}.py").is_file()):
        return f"{name!r}: no module {top!r} is installed or in the working directory", True
    return None, True
