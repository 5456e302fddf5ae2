"""What goes into a table's queue: a ``Call`` (a player's message or a request the table makes of itself, and
its outcome), and the requests that do not come from the wire; ``waiting``, what a queue holds now, which the
tables, the store and the connections' writers all take in one go; and ``handed``, how a request is queued."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

import trio
from hanabi.engine import TurnAction, WhatIf

from .session import Player, Refused

T = TypeVar("T")


@dataclass(slots=True)
class BotMove:
    """A bot's chosen action, coming back into the table's queue."""

    game: int
    turn: int
    seat: int
    action: TurnAction
    reason: str = ""  # why, in the bot's words
    names_cards_of: frozenset[int] = frozenset()  # the seats whose cards the reason speaks of (engine Decision)


@dataclass(slots=True)
class WhatIfBotMove:
    """The house bot's move for the review's what if, coming back into the table's queue: taken only if the what
    if is still as it was when the bot was asked (the same game, step and moves)."""

    game: int
    what_if: WhatIf
    action: TurnAction


@dataclass(slots=True)
class Abandoned:
    """No seated human has been connected since ``since`` for the configured time: close the table."""

    since: float


@dataclass(slots=True)
class OutOfTime:
    """A timed game's timer woke: the bank of the player to act at turn ``turn`` of game ``game`` may be empty."""

    game: int
    turn: int


@dataclass(slots=True)
class CloseIfEmpty:
    """Its creator could not sit down at a new table: close it rather than leave an empty table listed."""

    why: str


@dataclass(slots=True)
class Rewatch:
    """The lobby moved a spectator elsewhere (they left this table first), and the move was refused: they watch
    here again (they were let in before)."""


@dataclass(slots=True, eq=False)
class Call:
    """A request on its way to the table's task, and its outcome once carried out (or refused)."""

    player: Player | None
    request: object
    conn: object  # the connection the request came on (None for the table's own requests)
    done: trio.Event = field(default_factory=trio.Event)
    result: Any = None
    error: Refused | None = None


def waiting(channel: trio.MemoryReceiveChannel[T], most: int | None = None) -> list[T]:
    """What is in ``channel`` now (``most`` at most), taken without waiting."""
    taken: list[T] = []
    while most is None or len(taken) < most:
        try:
            taken.append(channel.receive_nowait())
        except (trio.WouldBlock, trio.EndOfChannel):
            break
    return taken


async def handed(channel: trio.MemorySendChannel[T], item: T) -> None:
    """Queue ``item`` on ``channel``, waiting only when it is full. The caller then waits for the outcome, which is
    its checkpoint: a ``send`` would also yield once more, a round of the event loop longer on a move's path."""
    try:
        channel.send_nowait(item)
    except trio.WouldBlock:
        await channel.send(item)
