"""Records: classes of named fields, equal when their fields are, as ``@dataclass`` makes them.

A dataclass compiles the source of its methods each time the class is made, so in every
process that imports it: for the plugin's seven, a fifth of what importing the plugin cost an
editor's save. A ``Record`` is written out once and kept in the bytecode.
"""
from operator import attrgetter


class Record:
    """Fields are the ``__slots__`` of the class and of its bases, bases first; ``DEFAULTS``
    gives those that may be left out. Equal when of one class with equal fields, ordered by
    them, and, unless the class says ``FROZEN = False``, immutable and hashed by them."""

    __slots__ = ()
    FIELDS = ()  # (set for each subclass)
    DEFAULTS = {}
    FROZEN = True
    _read = None  # record -> the tuple of its fields' values (set for each subclass)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        fields = tuple(name for klass in reversed(cls.__mro__) for name in vars(klass).get("__slots__", ()))
        cls.FIELDS = fields
        cls._read = attrgetter(*fields) if len(fields) > 1 else \
            staticmethod(lambda record: tuple(getattr(record, name) for name in fields))  # (a tuple, as for more)
        if not cls.FROZEN:  # (equal by its fields, so not hashable)
            cls.__hash__, cls.__setattr__, cls.__delattr__, cls.__reduce__ = \
                None, object.__setattr__, object.__delattr__, object.__reduce__

    def __init__(self, *values, **given):
        if len(values) > len(self.FIELDS):
            raise TypeError(f"{type(self).__name__} takes {len(self.FIELDS)} fields, {len(values)} given")
        positional = dict(zip(self.FIELDS, values))
        if positional.keys() & given.keys():
            raise TypeError(f"{type(self).__name__} got {sorted(positional.keys() & given.keys())[0]!r} twice")
        given.update(positional)
        for name in self.FIELDS:
            if name in given:
                object.__setattr__(self, name, given.pop(name))
            elif name in self.DEFAULTS:
                object.__setattr__(self, name, self.DEFAULTS[name])
            else:
                raise TypeError(f"{type(self).__name__} needs its field {name!r}")
        if given:
            raise TypeError(f"{type(self).__name__} has no field {sorted(given)[0]!r}")

    def values(self):
        """The fields' values, in order."""
        return self._read(self)

    def replace(self, **changes):
        """A copy with ``changes`` (as ``dataclasses.replace``)."""
        return type(self)(**dict(zip(self.FIELDS, self.values()), **changes))

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to field {name!r} of a {type(self).__name__}")

    def __delattr__(self, name):
        raise AttributeError(f"cannot delete field {name!r} of a {type(self).__name__}")

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._read(self) == other._read(other)

    def __hash__(self):
        return hash(self._read(self))

    def __lt__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._read(self) < other._read(other)

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{name}={getattr(self, name)!r}' for name in self.FIELDS)})"

    def __reduce__(self):  # (pickle would set a frozen record's fields one by one)
        return type(self), self.values()


class Constants:
    """Named constants as ``enum.Enum`` makes them, each the one instance of its name: a
    subclass's upper-case class attributes of text become its members (``Kind.TRACER``, whose
    ``value`` is the text), listed in ``MEMBERS``. Making an Enum class cost every process
    about 1 M instructions (the model's three, 0.5% of an editor's save); this, a few thousand."""

    __slots__ = ("name", "value")
    MEMBERS = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        members = []
        for name, value in list(vars(cls).items()):
            if name.isupper() and type(value) is str:
                member = object.__new__(cls)
                member.name, member.value = name, value
                setattr(cls, name, member)
                members.append(member)
        cls.MEMBERS = tuple(members)

    def __repr__(self):
        return f"<{type(self).__name__}.{self.name}: {self.value!r}>"

    def __str__(self):
        return f"{type(self).__name__}.{self.name}"

    def __hash__(self):  # (as an Enum member's)
        return hash(self.name)

    def __reduce__(self):  # (pickled and copied as itself)
        return getattr, (type(self), self.name)
