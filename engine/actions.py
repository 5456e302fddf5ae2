"""The things a player can do, and the events they produce.

Turn actions name cards by their *order* (their index in the deck), never by
hand slot, so an action means the same thing whatever the hand looks like.
A clue names its target seat and exactly one of a colour or a rank.
``Rearrange`` is not a turn: a player may reorder their own hand at any time.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import RANKS, Card, Suit


@dataclass(frozen=True, slots=True)
class Play:
    order: int

    def __str__(self) -> str:
        return f"play card #{self.order}"


@dataclass(frozen=True, slots=True)
class Discard:
    order: int

    def __str__(self) -> str:
        return f"discard card #{self.order}"


@dataclass(frozen=True, slots=True)
class Clue:
    """A clue to ``target``: a colour or a rank, never both."""

    target: int
    colour: Suit | None = None
    rank: int | None = None

    def __post_init__(self) -> None:
        if (self.colour is None) == (self.rank is None):
            raise ValueError("a clue names exactly one colour or one rank")
        if self.rank is not None and self.rank not in RANKS:
            raise ValueError(f"there is no rank {self.rank}: ranks go from 1 to 5")

    @property
    def value(self) -> str:
        return self.colour.value if self.colour is not None else str(self.rank)

    def __str__(self) -> str:
        return f"clue seat {self.target}: {self.value}"


@dataclass(frozen=True, slots=True)
class Rearrange:
    """``seat`` puts its hand in a new order: ``hand`` lists the same card orders, slot 1 first."""

    seat: int
    hand: tuple[int, ...]


TurnAction = Play | Discard | Clue
Action = Play | Discard | Clue | Rearrange


@dataclass(frozen=True, slots=True)
class TurnEvent:
    """What one turn did, in public terms: everything here is seen by every seat.

    ``card`` is the identity of a played or discarded card (public once it
    leaves the hand); ``touched`` the orders a clue pointed at; ``drawn`` the
    order of the replacement card, whose identity is *not* part of the event.
    """

    turn: int
    seat: int
    action: TurnAction
    card: Card | None = None
    success: bool = False
    touched: tuple[int, ...] = ()
    drawn: int | None = None
    clue_gained: bool = False


@dataclass(frozen=True, slots=True)
class RearrangeEvent:
    seat: int
    hand: tuple[int, ...]


Event = TurnEvent | RearrangeEvent
