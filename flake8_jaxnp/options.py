"""Plugin options, shared by flake8's option manager and the runtime mode."""
from dataclasses import dataclass

from .rules import OFF_BY_DEFAULT

X64_RULES = ("JNP402", "JNP403")  # what --jaxnp-x64 silences


@dataclass(frozen=True)
class Options:
    extra_transforms: tuple = ()  # dotted names treated like jax.jit
    x64: bool = False  # the project enables jax_enable_x64 globally


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


def from_flake8(options):
    return Options(
        extra_transforms=tuple(name.strip() for name in options.jaxnp_extra_transforms if name.strip()),
        x64=bool(options.jaxnp_x64),
    )
