"""Field specifications: how one value is checked on its way in and out of the wire.

msgpack hands back untyped trees, so every field of every message names a
``Spec`` that turns a wire value into a Python value (``decode``) and back
(``encode``), checking type and range both ways. A failed check raises
``FieldError`` with the path of the value (``create_table.name``), which the
message layer turns into a ``ProtocolError`` naming the request.

Type checks use ``type(x) is int`` rather than ``isinstance``: ``True`` is an
``int`` to Python but not to a peer written in another language.
"""

from __future__ import annotations

import enum
import re
import threading
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from hanabi.engine.action_fields import kind_of as value_kind
from hanabi.engine.action_fields import quote as quote  # one way to show a peer's string, here and in the engine
from hanabi.engine.names import CONTROL
from msgpack import Timestamp

ValueT = TypeVar("ValueT")  # what a Spec decodes to
MemberT = TypeVar("MemberT", bound=enum.Enum)

# The largest integer every peer can hold exactly (a JavaScript double's integer range).
MAX_SAFE_INT = 2**53 - 1
# Control characters: never in a single-line text; a multi-line text may hold newlines and tabs.
_CONTROL = CONTROL  # the engine's, which names follow in replay files too
_CONTROL_MULTILINE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
_PRINTABLE_ASCII = bytes(range(0x20, 0x7F))
_IDENT = re.compile(r"[a-z][a-z0-9_]*\Z")
_TOKEN = re.compile(r"[\x21-\x7e]+\Z")


class FieldError(ValueError):
    """One value that fails its spec; ``where`` is its dotted path inside the message."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


def kind_of(value: object) -> str:
    """The msgpack name of a decoded value's type, for error messages."""
    return "a timestamp" if type(value) is Timestamp else value_kind(value)


class Spec(Generic[ValueT]):
    """Checks and converts one field. ``describe`` is the type as docs/protocol.md states it."""

    def decode(self, value: object, where: str) -> ValueT:
        raise NotImplementedError

    def encode(self, value: ValueT, where: str) -> object:
        """The wire value; checks it with the same rules a receiver will apply."""
        self.decode(value, where)
        return value

    def describe(self) -> str:
        raise NotImplementedError


class Int(Spec[int]):
    def __init__(self, lo: int = 0, hi: int = MAX_SAFE_INT) -> None:
        self.lo, self.hi = lo, hi

    def decode(self, value: object, where: str) -> int:
        if type(value) is not int:
            raise FieldError(where, f"expected an integer, got {kind_of(value)}")
        if not self.lo <= value <= self.hi:
            raise FieldError(where, f"{value} is out of range: it must be from {self.lo} to {self.hi}")
        return value

    def describe(self) -> str:
        return f"int {self.lo}..{self.hi}" if self.hi != MAX_SAFE_INT else f"int >= {self.lo}"


class Bool(Spec[bool]):
    def decode(self, value: object, where: str) -> bool:
        if type(value) is not bool:
            raise FieldError(where, f"expected a boolean, got {kind_of(value)}")
        return value

    def describe(self) -> str:
        return "bool"


class Text(Spec[str]):
    """A UTF-8 string of ``lo`` to ``hi`` characters (code points), without control characters.

    ``multiline`` texts may hold newlines and tabs; ``trimmed`` ones may not
    start or end with white space (names, where " bob" and "bob" would be
    two people who look the same).
    """

    def __init__(self, lo: int, hi: int, *, multiline: bool = False, trimmed: bool = False) -> None:
        self.lo, self.hi, self.multiline, self.trimmed = lo, hi, multiline, trimmed
        self._control = _CONTROL_MULTILINE if multiline else _CONTROL
        self._allowed = _PRINTABLE_ASCII + (b"\t\n" if multiline else b"")  # the ASCII that _control lets through

    def decode(self, value: object, where: str) -> str:
        if type(value) is not str:
            if type(value) is bytes:
                raise FieldError(where, "expected a string (msgpack str, UTF-8), got binary data (msgpack bin)")
            raise FieldError(where, f"expected a string, got {kind_of(value)}")
        if not self.lo <= len(value) <= self.hi:
            raise FieldError(where, f"must be {self.lo} to {self.hi} characters long, not {len(value)}")
        # A long ASCII text (a replay: 5,000 characters) is checked in C, ten times faster than by the expression:
        # it is fine if deleting every allowed character leaves nothing. The expression looks at every other text.
        if len(value) < 64 or not value.isascii() or value.encode().translate(None, self._allowed):
            bad = self._control.search(value)
            if bad is not None:
                raise FieldError(where, f"holds the control character U+{ord(bad.group()):04X}, which is not allowed")
        if self.trimmed and value != value.strip():
            raise FieldError(where, f"{quote(value)} starts or ends with white space")
        return value

    def describe(self) -> str:
        return f"str {self.lo}..{self.hi} chars" + (", may span lines" if self.multiline else "")


IDENT_MAX = 32  # characters of a machine-readable word: an error code, a goodbye reason, a message type


class Ident(Spec[str]):
    """A machine-readable word such as an error code: lower-case ASCII letters, digits and ``_``."""

    def __init__(self, hi: int = IDENT_MAX) -> None:
        self.hi = hi

    def decode(self, value: object, where: str) -> str:
        if type(value) is not str:
            raise FieldError(where, f"expected a string, got {kind_of(value)}")
        if not len(value) <= self.hi or _IDENT.match(value) is None:
            raise FieldError(where, f"{quote(value)} is not a code: use up to {self.hi} of a-z, 0-9 and _")
        return value

    def matches(self, value: str) -> bool:
        return len(value) <= self.hi and _IDENT.match(value) is not None

    def describe(self) -> str:
        return f"str 1..{self.hi} of [a-z0-9_]"


class Token(Spec[str]):
    """An opaque secret: printable ASCII without spaces."""

    def __init__(self, hi: int = 128) -> None:
        self.hi = hi

    def decode(self, value: object, where: str) -> str:
        if type(value) is not str:
            raise FieldError(where, f"expected a string, got {kind_of(value)}")
        if not len(value) <= self.hi or _TOKEN.match(value) is None:
            raise FieldError(where, f"must be 1 to {self.hi} printable ASCII characters without spaces")
        return value

    def describe(self) -> str:
        return f"str 1..{self.hi} printable ASCII"


class Choice(Spec[MemberT]):
    """An enum member, carried on the wire as its string value."""

    def __init__(self, enum_type: type[MemberT]) -> None:
        self.enum_type = enum_type
        self._by_value: dict[object, MemberT] = {m.value: m for m in enum_type}

    def decode(self, value: object, where: str) -> MemberT:
        member = self._by_value.get(value) if type(value) is str else None
        if member is None:
            allowed = ", ".join(repr(v) for v in self._by_value)
            got = quote(value) if isinstance(value, str) else kind_of(value)
            raise FieldError(where, f"{got} is not one of {allowed}")
        return member

    def encode(self, value: MemberT, where: str) -> object:
        if not isinstance(value, self.enum_type):
            raise FieldError(where, f"expected a {self.enum_type.__name__}, got {value!r}")
        return value.value

    def describe(self) -> str:
        return "one of " + ", ".join(f'"{v}"' for v in self._by_value)


class Opt(Spec["ValueT | None"]):
    """The inner spec, or nil."""

    def __init__(self, inner: Spec[ValueT]) -> None:
        self.inner = inner

    def decode(self, value: object, where: str) -> ValueT | None:
        return None if value is None else self.inner.decode(value, where)

    def encode(self, value: ValueT | None, where: str) -> object:
        return None if value is None else self.inner.encode(value, where)

    def describe(self) -> str:
        return f"{self.inner.describe()} or nil"


class ListOf(Spec[tuple[ValueT, ...]]):
    """An array of at most ``hi`` items, decoded to a tuple (messages are immutable)."""

    def __init__(self, item: Spec[ValueT], hi: int, lo: int = 0) -> None:
        self.item, self.lo, self.hi = item, lo, hi

    def decode(self, value: object, where: str) -> tuple[ValueT, ...]:
        if type(value) is not list:
            raise FieldError(where, f"expected an array, got {kind_of(value)}")
        if not self.lo <= len(value) <= self.hi:
            raise FieldError(where, f"must hold {self.lo} to {self.hi} items, not {len(value)}")
        decode = self.item.decode
        try:
            return tuple([decode(v, where) for v in value])  # without each item's path, made only for an error
        except FieldError:
            pass
        return tuple([decode(v, f"{where}[{i}]") for i, v in enumerate(value)])  # fails again, naming the item

    def encode(self, value: tuple[ValueT, ...], where: str) -> object:
        if not isinstance(value, Sequence) or isinstance(value, str | bytes):
            raise FieldError(where, f"expected a sequence, got {value!r}")
        if not self.lo <= len(value) <= self.hi:
            raise FieldError(where, f"must hold {self.lo} to {self.hi} items, not {len(value)}")
        encode = self.item.encode
        try:
            return [encode(v, where) for v in value]  # without each item's path, made only for an error
        except FieldError:
            pass
        return [encode(v, f"{where}[{i}]") for i, v in enumerate(value)]  # fails again, naming the item

    def describe(self) -> str:
        return f"array of {self.lo}..{self.hi} x ({self.item.describe()})"


class Custom(Spec[ValueT]):
    """A spec built from two functions, for the engine's own types (views, events, cards)."""

    def __init__(self, decode: Callable[[object, str], ValueT], encode: Callable[[ValueT, str], object],
                 text: str) -> None:
        self._decode, self._encode, self._text = decode, encode, text

    def decode(self, value: object, where: str) -> ValueT:
        return self._decode(value, where)

    def encode(self, value: ValueT, where: str) -> object:
        return self._encode(value, where)

    def describe(self) -> str:
        return self._text


MAX_DEPTH = 16  # how deeply an ignored (unknown) field may nest maps and arrays
# How many maps and arrays the ignored fields of one message may hold in all.
# Walking them is Python work per container; without a bound, one 64 KiB
# frame of nested empty arrays would cost tens of milliseconds.
MAX_IGNORED_CONTAINERS = 512
_LEAVES = frozenset({type(None), bool, int, float, str, bytes})
_STR_ONLY = frozenset({str})


class _Budget(threading.local):
    """What is left of the current message's allowance of ignored containers (None: no message being read)."""

    left: int | None = None


_budget = _Budget()


def start_message() -> int | None:
    """Give the message about to be read a fresh allowance of ignored containers; returns the one to restore.

    Every ``check_plain`` until ``end_message`` shares it (plain functions,
    not a context manager: this runs for every message received).
    """
    outer = _budget.left
    _budget.left = MAX_IGNORED_CONTAINERS
    return outer


def end_message(outer: int | None) -> None:
    _budget.left = outer


def check_plain(value: object, where: str) -> None:
    """Refuse what the protocol never carries, even in fields a receiver ignores.

    msgpack turns its timestamp extension into an object without calling
    ``ext_hook``, and allows binary map keys; neither is part of this
    protocol, so unknown fields are walked too. The walk is iterative,
    bounded in depth and in containers (``MAX_IGNORED_CONTAINERS`` per
    message, see ``start_message``), and looks at the types of a container's
    items all at once (``set(map(type, ...))`` runs in C).
    """
    shared = _budget.left is not None
    left = _budget.left if _budget.left is not None else MAX_IGNORED_CONTAINERS
    stack: list[tuple[object, int]] = [(value, 0)]
    try:
        while stack:
            node, depth = stack.pop()
            children: Any
            if type(node) is dict:
                if not set(map(type, node)) <= _STR_ONLY:
                    bad = next(k for k in node if type(k) is not str)
                    raise FieldError(where, f"map keys must be strings, found {kind_of(bad)}")
                children = node.values()
            elif type(node) is list:
                children = node
            elif type(node) is Timestamp:
                raise FieldError(where, "msgpack timestamps (ext type -1) are not part of this protocol")
            else:
                continue
            left -= 1
            if left < 0:
                raise FieldError(where, f"the fields this version ignores hold more than {MAX_IGNORED_CONTAINERS} "
                                        "maps and arrays in all")
            if depth >= MAX_DEPTH:
                raise FieldError(where, f"nests maps and arrays more than {MAX_DEPTH} deep")
            kinds = set(map(type, children))
            if kinds <= _LEAVES:
                continue
            if Timestamp in kinds:
                raise FieldError(where, "msgpack timestamps (ext type -1) are not part of this protocol")
            stack.extend((c, depth + 1) for c in children if type(c) is dict or type(c) is list)
    finally:
        if shared:
            _budget.left = left


def as_map(value: object, where: str) -> dict[str, Any]:
    """A decoded msgpack map with string keys only."""
    if type(value) is not dict:
        raise FieldError(where, f"expected a map, got {kind_of(value)}")
    for k in value:
        if type(k) is not str:
            raise FieldError(where, f"map keys must be strings, found {kind_of(k)}")
    return value
