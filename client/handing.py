"""The host's key for a seat whose player is away: ``H``, the seat's number, then ``b`` (a house bot takes it) or
``p`` (a player in the lobby: the command line opens on ``hand SEAT `` for their name). A bot's seat takes the
same keys, ``p`` alone, so that the sequence does not change with who holds the seat.

It follows the one-key shortcuts of ``keys.py``: plain state, each key giving a prompt for the next, a finished
intent, or a refusal, so every path is tested without a terminal. The server has the last word (the table rule
of ``hanabi.protocol.table_rules.hand_seat_refusal``, which ``lobby.py`` checks before sending).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hanabi.protocol import TableInfo
from hanabi.protocol import table_rules as rules

from .commands import LobbyIntent
from .keys import Done, KeyRefused, Prompt
from .model import ClientModel

KEY = "H"


@dataclass(frozen=True, slots=True)
class TypeOn:
    """The shortcut ends on the command line, opened on ``text``, for what keys cannot say (a player's name)."""

    text: str
    prompt: str


Step = Prompt | Done | KeyRefused | TypeOn


def handable(table: TableInfo, ours: int | None) -> list[int]:
    """The seats the host could hand on now (the table rule): those of players who are away, and bots' (to a
    person)."""
    return [s for s in range(table.seats) if rules.hand_seat_refusal(table, ours, s, to_bot=False) is None]


def someone_away(table: TableInfo) -> bool:
    """Whether a seated person is away: then the host's screens offer the key (bots' seats do not call for it)."""
    return any(p is not None and not p.bot and not p.connected for p in table.players)


def _label(table: TableInfo, seat: int) -> str:
    holder = table.players[seat]
    assert holder is not None
    return f"{seat + 1} {holder.name} ({'bot' if holder.bot else 'away'})"


def start(model: ClientModel) -> Step:
    """The ``H`` key: which seat?"""
    table = model.table
    if table is None:
        return KeyRefused("H hands on the seat of a player who is away: join or create a table first")
    refusal = rules.host_refusal(table, model.seat, "hand a seat on")
    if refusal is not None:
        return KeyRefused(refusal.message)
    seats = handable(table, model.seat)
    if not seats:
        return KeyRefused(f"every player is here: {rules.HANDABLE_SEATS}")
    return Prompt("Hand which seat on? " + "  ".join(_label(table, s) for s in seats) + " · Esc cancels")


def step(keys: Sequence[str], key: str, model: ClientModel) -> Step:
    """Given the keys so far (``H``, then maybe the seat) and the next key, the next step."""
    table = model.table
    if table is None:
        return KeyRefused("you are no longer at a table")
    refusal = rules.host_refusal(table, model.seat, "hand a seat on")
    if refusal is not None:  # the host came back (or we lost their powers) between two keys: say that
        return KeyRefused(refusal.message)
    seats = handable(table, model.seat)
    if len(keys) == 1:
        if not key.isdigit() or int(key) - 1 not in seats:
            numbers = ", ".join(str(s + 1) for s in seats)
            return KeyRefused(f"seat {key!r} cannot be handed on: press one of {numbers}")
        seat = int(key) - 1
        holder = table.players[seat]
        assert holder is not None
        if holder.bot:
            # The same three keys as for an away player's seat, so a p typed by habit is not taken for a name.
            return Prompt(f"Give seat {seat + 1} ({holder.name}) to? p a player in the lobby (type their name) "
                          "· Esc cancels")
        return Prompt(f"Give seat {seat + 1} ({holder.name}, away) to? b a house bot · p a player in the lobby "
                      "(type their name) · Esc cancels")
    seat = int(keys[1]) - 1
    holder = table.players[seat]
    if seat not in seats or holder is None:
        return KeyRefused(f"seat {seat + 1} cannot be handed on any more: its player is back")
    if key.lower() == "b" and holder.bot:
        return KeyRefused(f"seat {seat + 1} is a bot's already: press p to give it to a player in the lobby")
    if key.lower() == "b":
        return Done(LobbyIntent("hand", seat + 1, "bot"))
    if key.lower() == "p":
        return _to_a_person(seat, holder.name)
    return KeyRefused(f"{key!r}: press b (a house bot) or p (a player in the lobby); seat {seat + 1} stays as it is")


def _to_a_person(seat: int, holder: str) -> TypeOn:
    return TypeOn(f"hand {seat + 1} ", f"Type the name of the player in the lobby who takes seat {seat + 1} "
                                       f"(now {holder}), then Enter · Esc cancels")
