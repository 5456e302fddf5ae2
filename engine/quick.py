"""Quick constructors for the frozen value objects that are built on every move.

A frozen dataclass's ``__init__`` cannot assign its fields the ordinary way
(its ``__setattr__`` refuses), so it sets each one through
``object.__setattr__``: a ``PlayerView`` of 14 fields takes about 1.7 µs to
build, and a server builds five of them, their changed hands and a new
``GameState`` after every move of every table.

``quick(cls)`` returns a function that takes every field positionally and
builds the very same object about five times faster: it fills an instance
of a plain twin class that has the same slots (ordinary attribute stores,
which Python does quickly), then makes it an instance of ``cls`` by
assigning ``__class__``, which Python allows between classes whose
instances have the same layout. The result is what ``cls(...)`` gives:
the same type, fields, equality, hash and repr, and it is frozen like any
other instance. The function is written out (``exec``, as ``dataclasses``
itself writes ``__init__``) because a loop over the fields would give most
of the gain back.

Only for the engine's own hot paths, which pass values of the right types:
it runs no ``__post_init__`` (a class that has one is refused) and fills no
defaults.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def quick(cls: type[T]) -> Callable[..., T]:
    """A positional constructor for the frozen, slotted dataclass ``cls`` (see the module docstring)."""
    params = getattr(cls, "__dataclass_params__", None)
    if not dataclasses.is_dataclass(cls) or params is None or not params.frozen:
        raise TypeError(f"{cls.__name__} is not a frozen dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} checks its fields in __post_init__, which a quick constructor would skip")
    names = [f.name for f in dataclasses.fields(cls)]
    if tuple(names) != getattr(cls, "__slots__", None) or not all(f.init for f in dataclasses.fields(cls)):
        raise TypeError(f"{cls.__name__} must keep exactly its init fields in __slots__")
    twin = type(f"_Quick{cls.__name__}", (), {"__slots__": tuple(names)})
    arguments = ", ".join(names)
    source = (f"def build({arguments}):\n"
              "    made = new(twin)\n"
              + "".join(f"    made.{name} = {name}\n" for name in names)
              + "    made.__class__ = cls\n"
              "    return made\n")
    scope: dict[str, Any] = {}
    exec(source, {"new": object.__new__, "twin": twin, "cls": cls}, scope)  # the source holds nothing but field names
    build: Callable[..., T] = scope["build"]
    build.__qualname__ = build.__name__ = f"quick_{cls.__name__}"
    build.__doc__ = f"{cls.__name__}({arguments}), built without the frozen __init__ (engine.quick)."
    build(*([None] * len(names)))  # fails here, at import, if Python ever refuses the __class__ assignment
    return build
