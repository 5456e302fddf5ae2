"""The bots by name, and the one the house uses by default.

``Bot`` is the small interface every bot offers: ``choose(view)``. A bot
object may keep a cache between turns (for speed), but its decisions must be
the same as a fresh object's given the same view: the view is the only input.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..actions import TurnAction
from ..views import PlayerView
from .decision import Decision, known_level
from .hgroup import ConventionBot
from .simple import decide_simple


class Bot(Protocol):
    name: str

    def choose(self, view: PlayerView) -> TurnAction: ...

    def decide(self, view: PlayerView) -> Decision: ...


class FunctionBot:
    """A bot that is a plain function of the view, with no memory at all (and no conventions to choose)."""

    def __init__(self, name: str, fn: Callable[[PlayerView], Decision]) -> None:
        self.name = name
        self._fn = fn

    def choose(self, view: PlayerView) -> TurnAction:
        return self._fn(view).action

    def decide(self, view: PlayerView) -> Decision:
        return self._fn(view)


BOTS: dict[str, Callable[[str | None, frozenset[int] | None], Bot]] = {
    "hgroup": ConventionBot,
    "simple": lambda level, bot_seats: FunctionBot("simple", decide_simple),
}
DEFAULT_BOT = "hgroup"


def make_bot(name: str = DEFAULT_BOT, *, level: str | None = None, bot_seats: frozenset[int] | None = None) -> Bot:
    """A fresh bot by name, for a table of ``level`` where ``bot_seats`` are house bots (see ``decide``).

    An unknown name or level is refused with the list of known ones.
    """
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"there is no bot named {name!r}: choose one of {', '.join(sorted(BOTS))}") from None
    if level is not None:
        known_level(level)  # refuses an unknown level now rather than at the first turn
    return factory(level, bot_seats)


def decide(view: PlayerView, *, level: str | None = None, bot_seats: frozenset[int] | None = None) -> Decision:
    """The house bot's turn for the seat of ``view`` (which must be the seat to move), with its reason.

    ``bot_seats``: the seats house bots sit in (the table shows it); None means every seat. ``level``:
    what the people at the table are expected to follow, "beginner", "basic" or "h-group"; None means
    beginner when a person sits at the table, else "h-group". Bots read each other by their full
    conventions at every level. Pure: the same view and arguments give the same decision.
    """
    return make_bot(level=level, bot_seats=bot_seats).decide(view)


def choose_action(view: PlayerView, *, level: str | None = None,
                  bot_seats: frozenset[int] | None = None) -> TurnAction:
    """The house bot's action for the seat of ``view``: ``decide(...).action``."""
    return decide(view, level=level, bot_seats=bot_seats).action
