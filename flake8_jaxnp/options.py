"""Plugin options, shared by flake8's option manager and the runtime mode."""
import importlib.util
import sys
from pathlib import Path

from .record import Record
from .rules import MESSAGES, OFF_BY_DEFAULT

X64_RULES = ("JNP402", "JNP403")  # what --jaxnp-x64 silences


class Options(Record):
    __slots__ = (
        "extra_transforms",  # dotted names treated like jax.jit
        "x64",  # the project enables jax_enable_x64 globally
        "cache_dir",  # summaries and kept findings: None is the user's cache folder, "" keeps none on disk
        "silenced",  # codes flake8's selection never reports: checks skip their work
    )
    DEFAULTS = {"extra_transforms": (), "x64": False, "cache_dir": None, "silenced": frozenset()}


DEFAULT = Options()


def register(option_manager):
    """Add the plugin's options to flake8 (command line and config files)."""
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


class OptionError(ValueError):
    """A plugin option value that cannot be used; its message is the one-line usage error."""


def from_flake8(options):
    """Options from flake8's parsed options: a name that cannot be a transform is ignored with a warning."""
    return Options(extra_transforms=_transform_names(options.jaxnp_extra_transforms, strict=False),
                   x64=bool(options.jaxnp_x64), cache_dir=options.jaxnp_cache_dir, silenced=_silenced(options))


def from_configuration(extra_transforms=None, x64=False, cache_dir=None, directory=None, extend_select=None):
    """The runtime mode's Options, read as ``flake8`` run in the working directory (or ``directory``:
    the editor plugin's project root) reads them: its configuration file (setup.cfg, tox.ini or
    .flake8, found from there upwards; pyproject.toml where the flake8-pyproject plugin is
    installed and the directory is the working one), with the given command-line values on top.
    Unlike flake8, which goes on without it, a name that cannot be a transform raises OptionError.
    Every rule on by default is checked: flake8's selection only decides what flake8 prints; a rule
    off by default only where --select or --extend-select (``extend_select``, or the file's) names it."""
    argv = [f"--jaxnp-extra-transforms={extra_transforms}"] if extra_transforms is not None else []
    argv += [f"--extend-select={extend_select}"] if extend_select is not None else []
    argv += ["--jaxnp-x64"] if x64 else []
    argv += [f"--jaxnp-cache-dir={cache_dir}"] if cache_dir is not None else []
    try:
        options = _flake8_options(argv, directory)
    except SystemExit:  # flake8's own parser already printed why
        raise OptionError("the flake8 configuration could not be read") from None
    except Exception as exc:  # noqa: BLE001 - a bad configuration file, a plugin that fails to load
        detail = str(exc).strip().splitlines()
        raise OptionError(f"the flake8 configuration could not be read: {detail[0] if detail else type(exc).__name__}"
                          ) from None
    return Options(extra_transforms=_transform_names(options.jaxnp_extra_transforms, strict=True),
                   x64=bool(options.jaxnp_x64), cache_dir=options.jaxnp_cache_dir, silenced=_off_unnamed(options))


def _flake8_options(argv, directory=None):
    """flake8's options for ``argv``, from its own configuration loading and installed plugins (as its
    ``parse_args`` does, without calling the plugins' ``parse_options``: nothing is printed twice),
    with the configuration file searched from ``directory`` when given (flake8 searches from the
    working directory only)."""
    import flake8
    from flake8.main import options as flake8_options
    from flake8.options import aggregator, config, manager
    from flake8.plugins import finder

    preliminary = flake8_options.stage1_arg_parser()
    stage1, rest = preliminary.parse_known_args(argv)
    if directory is not None and stage1.config is None:
        stage1.config = config._find_config_file(str(directory))
        stage1.isolated = stage1.config is None  # no configuration there: none from the working directory
    cfg, cfg_dir = config.load_config(config=stage1.config, extra=stage1.append_config, isolated=stage1.isolated)
    plugin_options = finder.parse_plugin_options(cfg, cfg_dir, enable_extensions=stage1.enable_extensions,
                                                 require_plugins=stage1.require_plugins)
    plugins = finder.load_plugins(finder.find_plugins(cfg, plugin_options), plugin_options)
    option_manager = manager.OptionManager(version=flake8.__version__, plugin_versions=plugins.versions_str(),
                                           parents=[preliminary], formatter_names=list(plugins.reporters))
    flake8_options.register_default_options(option_manager)
    option_manager.register_plugins(plugins)
    return aggregator.aggregate_options(option_manager, cfg, cfg_dir, rest)


def _transform_names(values, strict):
    """The usable names of --jaxnp-extra-transforms; a problem is a warning on stderr, or with
    ``strict`` an OptionError when the name cannot be used."""
    names = []
    for name in (name.strip() for name in values if name.strip()):
        problem, usable = transform_name_problem(name, "it cannot be used" if strict else "it is ignored")
        if problem and strict and not usable:
            raise OptionError(f"--jaxnp-extra-transforms: {problem}")
        if problem:
            print(f"flake8-jaxnp: --jaxnp-extra-transforms: {problem}", file=sys.stderr)
        if usable:
            names.append(name)
    return tuple(names)


def _silenced(options):
    """The codes flake8's --select/--ignore (and their extend- forms) leave out everywhere,
    as flake8 itself decides (per-file ignores and noqa only ever leave out more), and the
    rules off by default that no --select or --extend-select names in full: ``--select JNP``
    means the plugin's rules, not the ones it keeps off (flake8's own default ignore list
    would give way to it, and to any --ignore)."""
    off = _off_unnamed(options)
    try:
        from flake8.style_guide import Decision, DecisionEngine
        engine = DecisionEngine(options)
        return frozenset(off | {code for code in MESSAGES if engine.decision_for(code) is Decision.Ignored})
    except Exception:  # noqa: BLE001 - another flake8: do every other check, flake8 still filters
        return frozenset(off)


def _off_unnamed(options):
    """The rules off by default that no --select or --extend-select names in full."""
    named = {code.strip() for code in (*(options.select or ()), *(options.extend_select or ()))}
    return frozenset(code for code in OFF_BY_DEFAULT if code not in named)


def transform_name_problem(name, consequence="it is ignored"):
    """(what is wrong with ``name``, whether it can still name a transform): not a dotted path
    or an import alias (unusable; the message says ``consequence``), or a module that is neither
    installed nor in the working directory (kept: it may live elsewhere). Finds modules without importing."""
    parts = name.split(".")
    if len(parts) < 2 or not all(part.isidentifier() for part in parts):
        return f"{name!r} is not a dotted path such as equinox.filter_jit; {consequence}", False
    top = parts[0]
    if top in CONVENTIONAL_ALIASES:
        real = ".".join([CONVENTIONAL_ALIASES[top], *parts[1:]])
        return f"{name!r} starts with an import alias, not a module; {consequence} (write {real})", False
    if importlib.util.find_spec(top) is None and not (Path(top).is_dir() or Path(f"{top}.py").is_file()):
        return f"{name!r}: no module {top!r} is installed or in the working directory", True
    return None, True
