"""Bots: teammates that choose a turn action from exactly what their seat may see.

A bot is a function from a seat's redacted ``PlayerView`` to a ``TurnAction``;
the view carries the public history (``view.events``), so a bot rebuilds
whatever it remembers by replaying it, and it can never reach the game state.
``choose_action`` is the house bot; ``BOTS`` names every bot by its name, and
``make_bot(name)`` gives a ``Bot`` object (which may cache between turns).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import loader

if TYPE_CHECKING:
    from .decision import (
        LEVELS,
        Decision,
        Level,
        action_words,
        explained,
        known_level,
        reason_words,
        seat_called,
        seats_named,
        table_level,
    )
    from .registry import BOTS, Bot, choose_action, decide, make_bot

# Where each name lives. A module is loaded when one of its names is first asked for, not when the package
# is, so a command that needs little (``--help``, ``--version``) starts without loading the rest.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "decision": (
        "LEVELS", "Decision", "Level", "action_words", "explained", "known_level", "reason_words", "seat_called",
        "seats_named",
        "table_level",
    ),
    "registry": ("BOTS", "Bot", "choose_action", "decide", "make_bot"),
}
if not TYPE_CHECKING:  # for mypy every name is imported above, with its type
    __getattr__ = loader(__name__, _EXPORTS, globals())

__all__ = ["BOTS", "Bot", "Decision", "LEVELS", "Level", "action_words", "choose_action", "decide", "explained",
           "known_level", "make_bot", "reason_words", "seat_called", "seats_named", "table_level"]
