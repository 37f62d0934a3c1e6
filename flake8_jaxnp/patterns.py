"""Regular expressions compiled when first used: compiling one costs about what importing a
small module does (0.4-1 M instructions), and an editor's save uses few of the plugin's; and
tests of one word, of the many a run asks about, made with one pattern for every word."""
import re


class Pattern:
    """``re.compile(source)``, compiled at the first use of one of its methods."""

    def __init__(self, source):
        self.source = source

    def __getattr__(self, name):  # (asked once per method: the method is then an attribute of its own)
        method = getattr(re.compile(self.source), name)
        setattr(self, name, method)
        return method


class Captured:
    """What ``re.compile(before + word + after)`` finds, for a ``pattern`` (a Pattern) that captures
    every word in that place: ``search`` is true where one capture is ``word``. One pattern then
    serves every word asked about, where a pattern per word costs a compile for each."""

    def __init__(self, pattern, word):
        self.pattern, self.word = pattern, word

    def search(self, data):
        return self.word in self.pattern.findall(data)


class Followed:
    """What ``re.compile(re.escape(literal) + after)`` finds, ``after`` a Pattern compiled once for every
    literal: ``search`` is true where ``after`` matches right after an occurrence of ``literal``."""

    def __init__(self, literal, after):
        self.literal, self.after = literal, after

    def search(self, data):
        start = data.find(self.literal)
        while start >= 0:
            if self.after.match(data, start + len(self.literal)):
                return True
            start = data.find(self.literal, start + 1)
        return False
