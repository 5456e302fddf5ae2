"""An action as flat named fields: the one encoding of an action, in and out, with its checks.

``kind`` ("play", "discard", "clue", "rearrange") and the fields its kind
uses: ``order`` (play, discard), ``target`` and one of ``colour`` (a
colour's name) or ``rank`` (clue), ``seat`` and ``hand`` (rearrange). The
wire's ``action`` message carries the five fields of a turn action as they
are; the store's records write them under one-letter keys; replay files
(hanab.live's format) write a clue's colour as its index among the
variant's clue colours. Each of them reads an action back through
``action_from_fields``, so what a well-formed action is, and the sentence
for one that is not, is said here only.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from .actions import Action, Clue, Discard, Play, Rearrange, TurnAction
from .cards import MAX_RANK, Suit
from .options import MAX_PLAYERS
from .variants import Variant

TURN_KINDS = ("play", "discard", "clue")
ALL_KINDS = (*TURN_KINDS, "rearrange")
MAX_ORDER = max(len(v.deck()) for v in Variant) - 1  # a card's order in the largest deck (six suits: 59)
MAX_HAND = 5  # cards in a hand (two or three players)

_SUIT_BY_NAME = {s.value: s for s in Suit}
_UNUSED = {"play": ("target", "colour", "rank"), "discard": ("target", "colour", "rank"),
           "clue": ("order",), "rearrange": ("order", "target", "colour", "rank")}
_WHY_UNUSED = {"play": "a play names only a card order", "discard": "a discard names only a card order",
               "clue": "a clue names a target seat", "rearrange": "a rearrangement names a seat and its hand"}


class ActionFieldError(ValueError):
    """A field that does not make an action: ``field`` names it ("" for the action as a whole)."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}" if field else problem)
        self.field = field
        self.problem = problem


def kind_of(value: object) -> str:
    """The name of a decoded value's type, as msgpack and JSON readers hand them over, for error messages."""
    if value is None:
        return "nil"
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string", bytes: "binary data",
             list: "an array", tuple: "an array", dict: "a map"}
    return names.get(type(value), type(value).__name__)


def quote(text: str, limit: int = 40) -> str:
    """A peer's string, shortened, for an error message."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def action_fields(action: Action) -> dict[str, Any]:
    """The fields of ``action``: a turn action's five (those its kind does not use are None), a rearrangement's
    kind, seat and hand."""
    if type(action) is Clue:
        return {"kind": "clue", "order": None, "target": action.target,
                "colour": action.colour.value if action.colour is not None else None, "rank": action.rank}
    if type(action) is Play:
        return {"kind": "play", "order": action.order, "target": None, "colour": None, "rank": None}
    if type(action) is Discard:
        return {"kind": "discard", "order": action.order, "target": None, "colour": None, "rank": None}
    if type(action) is Rearrange:
        return {"kind": "rearrange", "seat": action.seat, "hand": list(action.hand)}
    raise ActionFieldError("", f"{action!r} is not an action")


def action_from_fields(fields: Mapping[str, object], kinds: Collection[str] = TURN_KINDS) -> Action:
    """The action ``fields`` name, of one of ``kinds``; a field its kind does not use must be None or absent.
    Raises ActionFieldError, naming the field and what is wrong with it."""
    if "kind" not in fields:
        raise ActionFieldError("kind", "missing")
    kind = fields["kind"]
    if type(kind) is not str or kind not in kinds:
        got = quote(kind) if type(kind) is str else kind_of(kind)
        named = [f'"{k}"' for k in kinds]
        raise ActionFieldError("kind", f"{got} is not an action kind: use {', '.join(named[:-1])} or {named[-1]}")
    for name in _UNUSED[kind]:
        if fields.get(name) is not None:
            raise ActionFieldError(name, f"must be nil for a {kind}: {_WHY_UNUSED[kind]}")
    if kind == "play" or kind == "discard":
        order = _int(fields.get("order"), "order", 0, MAX_ORDER)
        return Play(order) if kind == "play" else Discard(order)
    if kind == "rearrange":
        return Rearrange(_int(fields.get("seat"), "seat", 0, MAX_PLAYERS - 1), _hand(fields.get("hand")))
    target = _int(fields.get("target"), "target", 0, MAX_PLAYERS - 1)
    colour, rank = fields.get("colour"), fields.get("rank")
    if (colour is None) == (rank is None):
        raise ActionFieldError("", "a clue names exactly one of colour or rank (the other must be nil)")
    if colour is None:
        return Clue(target, rank=_int(rank, "rank", 1, MAX_RANK))
    suit = _SUIT_BY_NAME.get(colour) if type(colour) is str else None
    if suit is None:
        got = quote(colour) if type(colour) is str else kind_of(colour)
        raise ActionFieldError("colour", f"{got} is not a colour: say one of {', '.join(_SUIT_BY_NAME)}")
    return Clue(target, colour=suit)


def turn_action_from_fields(fields: Mapping[str, object]) -> TurnAction:
    """``action_from_fields`` for a turn: a play, a discard or a clue."""
    action = action_from_fields(fields, TURN_KINDS)
    assert not isinstance(action, Rearrange)  # not among TURN_KINDS
    return action


def _int(value: object, field: str, lo: int, hi: int) -> int:
    if type(value) is not int:
        raise ActionFieldError(field, f"expected an integer, got {kind_of(value)}")
    if not lo <= value <= hi:
        raise ActionFieldError(field, f"{value} is out of range: it must be from {lo} to {hi}")
    return value


def _hand(value: object) -> tuple[int, ...]:
    if type(value) is not list and type(value) is not tuple:
        raise ActionFieldError("hand", f"expected an array of card orders, got {kind_of(value)}")
    if len(value) > MAX_HAND:
        raise ActionFieldError("hand", f"{len(value)} cards: a hand holds at most {MAX_HAND}")
    return tuple(_int(order, "hand", 0, MAX_ORDER) for order in value)
