"""Regular expressions compiled when first used: compiling one costs about what importing a
small module does (0.4-1 M instructions), and an editor's save uses few of the plugin's."""
import re


class Pattern:
    """``re.compile(source)``, compiled at the first use of one of its methods."""

    def __init__(self, source):
        self.source = source

    def __getattr__(self, name):  # (asked once per method: the method is then an attribute of its own)
        method = getattr(re.compile(self.source), name)
        setattr(self, name, method)
        return method
