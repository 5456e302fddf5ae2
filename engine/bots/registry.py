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
from .hgroup import ConventionBot
from .simple import choose_simple


class Bot(Protocol):
    name: str

    def choose(self, view: PlayerView) -> TurnAction: ...


class FunctionBot:
    """A bot that is a plain function of the view, with no memory at all."""

    def __init__(self, name: str, fn: Callable[[PlayerView], TurnAction]) -> None:
        self.name = name
        self._fn = fn

    def choose(self, view: PlayerView) -> TurnAction:
        return self._fn(view)


BOTS: dict[str, Callable[[], Bot]] = {
    "hgroup": ConventionBot,
    "simple": lambda: FunctionBot("simple", choose_simple),
}
DEFAULT_BOT = "hgroup"


def make_bot(name: str = DEFAULT_BOT) -> Bot:
    """A fresh bot by name; an unknown name is refused with the list of known ones."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"there is no bot named {name!r}: choose one of {', '.join(sorted(BOTS))}") from None
    return factory()


def choose_action(view: PlayerView) -> TurnAction:
    """The house bot's action for the seat of ``view`` (which must be the seat to move)."""
    return make_bot().choose(view)
