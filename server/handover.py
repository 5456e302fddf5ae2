"""Seats that survive lost laptops: the host hands an away player's seat to a house bot or to someone in the lobby.

One back from another machine is someone else to the server (a new token, often "Bob 2"), so the host moves the
seat: the lobby finds the receiver and records where everyone is now (``hand_over``); the table, in its task,
checks the rule, stores the seat and tells everyone. The seat's views and notes go to the new
holder only; what the old one left pending (a bot's choice being thought about, a pre-move) goes with them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from hanabi.protocol import ErrorCode, HandSeat

from .session import Player, Refused


@dataclass(slots=True)
class Handover:
    """A ``hand_seat`` on its way to the table's task, its receiver found by the lobby (None: a house bot); the
    table gives the seat (``Table``'s ``_hand_seat``) and answers with the person who lost it."""

    seat: int
    to: Player | None


def receiver(online: Iterable[Player], host: Player, name: str) -> Player:
    """The player in the lobby (among those ``online``) called ``name`` (in any case), or ``Refused`` saying why
    no one can take it."""
    key = name.casefold()
    found = next((p for p in online if p.name.casefold() == key), None)
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


async def hand_over(online: Iterable[Player], host: Player, request: HandSeat) -> None:
    """In the lobby, under ``host.busy``: the seat goes to the receiver; then who is where is brought up to date."""
    table = host.table
    if table is None or host.seat is None:
        raise Refused(ErrorCode.NOT_SEATED, "you are not seated at a table: only a table's host can hand a seat on")
    if request.to is None:
        previous = await table.call(host, Handover(request.seat, None))
    else:
        to = receiver(online, host, request.to)
        async with to.busy:  # nothing else may move them meanwhile (a join elsewhere, a table of their own)
            if to.table is not None:
                raise Refused(ErrorCode.ALREADY_SEATED, f"{to.name} has just gone to another table")
            previous = await table.call(host, Handover(request.seat, to))
            to.table, to.seat = table, request.seat
    if previous is not None:
        async with previous.busy:
            if previous.table is table and previous.seat == request.seat:
                previous.table, previous.seat = None, None
