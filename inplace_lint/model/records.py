"""Small value classes for the data every start-up builds (findings, options, settings, results).

What ``@dataclass`` gives them (keyword or positional construction with defaults, ``==``, ``repr``,
frozen instances that hash, ordering, ``replace``, a recursive ``as_dict``), without importing
:mod:`dataclasses`: that import (it imports :mod:`inspect`) and the code it generates per class cost every
process 40-60 ms of CPU, a third of a cached re-run of the CLI on an unchanged tree (issue 6). LibCST
still imports it, but only a run that parses something imports LibCST.

A class declares its fields as a dataclass does, as annotations in order, each with its default if it has
one (``factory(dict)`` for a fresh default per instance).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Tuple


class factory:
    """The default of a field that needs a fresh value per instance: ``extra: dict = factory(dict)``."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


class Record:
    """A mutable record: equal when of the same class with equal fields; unhashable, as a mutable
    dataclass is."""

    _fields: Tuple[str, ...] = ()
    _defaults: Dict[str, Any] = {}
    _factories: Dict[str, Callable[[], Any]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields: Dict[str, None] = {}
        for klass in reversed(cls.__mro__):  # a base's fields first, as dataclasses orders them
            if issubclass(klass, Record) and klass.__module__ != __name__:  # not Record, FrozenRecord
                fields.update(dict.fromkeys(klass.__dict__.get("__annotations__", {})))
        cls._fields = tuple(fields)
        cls._defaults, cls._factories = {}, {}
        for field in cls._fields:
            if hasattr(cls, field):
                default = getattr(cls, field)
                if isinstance(default, factory):
                    cls._factories[field] = default.make
                else:
                    cls._defaults[field] = default

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        fields = self._fields
        name = type(self).__name__
        if len(args) > len(fields):
            raise TypeError(f"{name}() takes {len(fields)} arguments, {len(args)} were given")
        values = dict(zip(fields, args))
        for key, value in kwargs.items():
            if key not in fields:
                raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
            if key in values:
                raise TypeError(f"{name}() got multiple values for argument '{key}'")
            values[key] = value
        for field in fields:
            if field in values:
                value = values[field]
            elif field in self._defaults:
                value = self._defaults[field]
            elif field in self._factories:
                value = self._factories[field]()
            else:
                raise TypeError(f"{name}() missing required argument '{field}'")
            object.__setattr__(self, field, value)

    def _values(self) -> Tuple[Any, ...]:
        return tuple(getattr(self, field) for field in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        fields = ", ".join(f"{field}={getattr(self, field)!r}" for field in self._fields)
        return f"{type(self).__qualname__}({fields})"

    def __reduce__(self):  # pickling (results cross process boundaries under -j) goes through __init__
        return type(self), self._values()

    def replace(self, **changes: Any):
        """A copy with ``changes`` (``dataclasses.replace``)."""
        values = dict(zip(self._fields, self._values()))
        values.update(changes)
        return type(self)(**values)


class FrozenRecord(Record):
    """An immutable record: assigning a field raises, and equal records hash alike."""

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field '{name}' of a frozen {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field '{name}' of a frozen {type(self).__name__}")

    def __hash__(self) -> int:
        return hash(self._values())


class OrderedRecord(FrozenRecord):
    """A frozen record ordered by its fields in turn (``@dataclass(order=True)``), only against its own
    class."""

    def __lt__(self, other: Any) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() < other._values()

    def __le__(self, other: Any) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() <= other._values()

    def __gt__(self, other: Any) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() > other._values()

    def __ge__(self, other: Any) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() >= other._values()


def as_dict(value: Any) -> Any:
    """``dataclasses.asdict``: records become dicts of their fields, recursively (through lists, tuples
    and dicts too)."""
    if isinstance(value, Record):
        return {field: as_dict(getattr(value, field)) for field in value._fields}
    if isinstance(value, (list, tuple)):
        return type(value)(as_dict(item) for item in value)
    if isinstance(value, dict):
        return {as_dict(key): as_dict(item) for key, item in value.items()}
    return value
