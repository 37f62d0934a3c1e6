"""The flake8 entry point (code prefix JNP)."""
from . import __version__
from .linter import lint
from .model.project import cache
from .options import DEFAULT, from_flake8, register


class JaxNumpyChecker:
    name = "flake8-jaxnp"
    version = __version__
    _options = DEFAULT

    def __init__(self, tree, lines, filename=None):
        self.tree = tree
        self.lines = lines
        self.filename = filename  # --stdin-display-name for stdin

    @staticmethod
    def add_options(option_manager):
        register(option_manager)

    @classmethod
    def parse_options(cls, options):
        cls._options = from_flake8(options)
        cache.warn_if_unwritable(cls._options.cache_dir)  # here: once per run, before any worker starts

    def run(self):
        for finding in lint(self.tree, self.lines, self._options, self.filename):
            yield finding.line, finding.col, finding.message, type(self)
