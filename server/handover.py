"""Seats that survive lost laptops: the host hands an away player's seat to a house bot or to someone in the lobby.

One back from another machine is someone else to the server (a new token, often "Bob 2"), so the host moves the
seat: the lobby finds the receiver and records where everyone is now (``hand_over``); the table, in its task,
checks the rule, stores the seat and tells everyone (``give_seat``). The seat's views and notes go to the new
holder only; what the old one left pending (a bot's choice being thought about, a pre-move) goes with them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from hanabi.protocol import ErrorCode, HandSeat, SeatHanded
from hanabi.protocol import table_rules as rules

from . import turns
from .session import Player, Refused, frame

if TYPE_CHECKING:
    from .lobby import Lobby
    from .table import Table


@dataclass(slots=True)
class Handover:
    """A ``hand_seat`` on its way to the table's task, its receiver found by the lobby (None: a house bot)."""

    seat: int
    to: Player | None


def receiver(lobby: Lobby, host: Player, name: str) -> Player:
    """The player in the lobby called ``name`` (in any case), or ``Refused`` saying why no one can take it."""
    key = name.casefold()
    found = next((p for p in lobby.online if p.name.casefold() == key), None)
    if found is None:
        raise Refused(ErrorCode.BAD_FIELD, f"no player called {name!r} is connected: they must be in the lobby "
                                           "(the name their screen shows at the top) to be handed a seat")
    if found is host:
        raise Refused(ErrorCode.ALREADY_SEATED, "you sit at this table already: hand the seat to someone else")
    if found.table is not None:
        where = "sits" if found.seat is not None else "is watching"
        raise Refused(ErrorCode.ALREADY_SEATED, f"{found.name} {where} at table {found.table.name!r}: they must "
                                                "go back to the lobby (l) before they can be handed a seat")
    return found


async def hand_over(lobby: Lobby, host: Player, request: HandSeat) -> None:
    """In the lobby, under ``host.busy``: the seat goes to the receiver; then who is where is brought up to date."""
    table = host.table
    if table is None or host.seat is None:
        raise Refused(ErrorCode.NOT_SEATED, "you are not seated at a table: only a table's host can hand a seat on")
    if request.to is None:
        previous = await table.call(host, Handover(request.seat, None))
    else:
        to = receiver(lobby, host, request.to)
        async with to.busy:  # nothing else may move them meanwhile (a join elsewhere, a table of their own)
            if to.table is not None:
                raise Refused(ErrorCode.ALREADY_SEATED, f"{to.name} has just gone to another table")
            previous = await table.call(host, Handover(request.seat, to))
            to.table, to.seat = table, request.seat
    if previous is not None:
        async with previous.busy:
            if previous.table is table and previous.seat == request.seat:
                previous.table, previous.seat = None, None


async def give_seat(table: Table, host: Player, request: Handover) -> Player | None:
    """In the table's task: give the seat, store it, tell everyone. Returns the person who lost it (None: a bot)."""
    seat, to = request.seat, request.to
    await table.may_use_host_powers(host, rules.hand_seat_refusal(table.info(), table.seat_of(host), seat,
                                                                  to_bot=to is None))
    old = table.seats[seat]
    assert old is not None  # the rule refuses an empty seat
    name = await table.sit(seat, to)
    game = table.game
    if game is not None and game.running:
        await table.store.seat_handed(game.id, None if to is None else to.key, to is None or to.network_bot)
    if game is not None:
        game.premoves.pop(seat, None)  # the move the one who lost the seat queued is not the new holder's choice
        if old.bot and game.state.current == seat:
            table.bot_pending = None  # its choice, if it is still thinking, is refused (turns.bot_move)
    handed = SeatHanded(table=table.id, seat=seat, name=name, bot=to is None, previous=old.name, by=host.name)
    if to is not None:
        table.send_table(to)
    table.changed()
    table.to_members(frame(handed))
    previous = old.player
    if previous is not None:  # away, so told when they come back (or now, if they came back meanwhile)
        previous.tell(handed)
    table.watch_absence()
    if game is not None and game.running and table.settings.game.timed:
        turns.retime(table)  # a timed game paused itself while the player to act was away: the new holder is here
    turns.schedule_bot(table)
    return previous
