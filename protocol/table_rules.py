"""The rules of a table (not of the game): who may sit, start, seat or remove a bot, hand on the host role or an
away player's seat, chat, lead a review.

Pure functions of a ``TableInfo`` (the table as everyone sees it) and of who
asks. The server checks every request with them before it changes anything;
the client checks what it is about to send with the same functions, so a
slip is answered at once and in the same words. Each returns None when the
request may go ahead, or the ``Refusal`` that says why not. Seats are
counted from 0 here, as on the wire; people see them from 1 (``seat_label``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from hanabi.engine import ChatPolicy

from .errors import ErrorCode
from .messages import SeatInfo, TableInfo


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a table request is refused: ``code`` for programs, ``message`` for people."""

    code: ErrorCode
    message: str


def seat_label(seat: int) -> str:
    """A seat as people read it: the protocol counts seats from 0, every screen from 1."""
    return f"seat {seat + 1}"


def no_such_seat(table: TableInfo, seat: int) -> Refusal | None:
    if 0 <= seat < table.seats:
        return None
    return Refusal(ErrorCode.BAD_FIELD, f"there is no {seat_label(seat)}: this table has seats 1 to {table.seats}")


def seat_taken(table: TableInfo, seat: int) -> Refusal | None:
    """Whether ``seat`` is not an empty seat of ``table``."""
    refusal = no_such_seat(table, seat)
    if refusal is not None:
        return refusal
    holder = table.players[seat]
    if holder is not None:
        return Refusal(ErrorCode.SEAT_TAKEN, f"{seat_label(seat)} is taken by {holder.name}")
    return None


def seated_refusal(at: TableInfo | None, seat: int | None, going: str, to: int | None = None) -> Refusal | None:
    """Whether someone at table ``at``, in ``seat`` (None: watching it, or in the lobby), may ``going``: "join" or
    "watch" table ``to``, or "create" a table. One sits at one table at a time: a seated player leaves it first."""
    if at is None or seat is None:
        return None
    if going == "join":
        here = "this table" if to == at.id else f"table {at.name!r}"
        return Refusal(ErrorCode.ALREADY_SEATED, f"you already sit at {here}, in {seat_label(seat)}: leave it first")
    then = "watching" if going == "watch" else "creating another"
    return Refusal(ErrorCode.ALREADY_SEATED, f"you sit at table {at.name!r}, in {seat_label(seat)}: leave it "
                                             f"before {then}")


def join_refusal(table: TableInfo, seat: int | None) -> Refusal | None:
    """Whether someone at no seat may sit at ``table``, in ``seat`` (None: the first free one)."""
    if seat is None:
        if None not in table.players:
            return Refusal(ErrorCode.TABLE_FULL, f"every seat of table {table.name!r} is taken: you can watch instead")
        return None
    return seat_taken(table, seat)


def free_seat(table: TableInfo) -> int | None:
    """The first empty seat, where a join without a seat sits down."""
    return next((i for i, s in enumerate(table.players) if s is None), None)


def host_refusal(table: TableInfo, asker: int | None, what: str) -> Refusal | None:
    """Whether the player in seat ``asker`` (None: not seated) may use the host's powers to ``what``.

    A seated player may stand in for a host who is away (``takes_over_host``), so a table never gets stuck."""
    if asker is None:
        return Refusal(ErrorCode.NOT_SEATED, "only players seated at this table can do that")
    if asker == table.host or takes_over_host(table, asker):
        return None
    host = table.players[table.host] if table.host is not None else None
    name = host.name if host is not None else "away"
    return Refusal(ErrorCode.NOT_HOST, f"only the host can {what}; the host is {name}")


def takes_over_host(table: TableInfo, asker: int) -> bool:
    """Whether seat ``asker`` (not the host) becomes host by using a host power: the host is away or gone."""
    if asker == table.host:
        return False
    host = table.players[table.host] if table.host is not None else None
    return host is None or host.plays_as_bot or not host.connected


def between_games(table: TableInfo, what: str) -> Refusal | None:
    if table.running:
        return Refusal(ErrorCode.GAME_RUNNING, f"cannot {what} while a game is running")
    return None


def start_refusal(table: TableInfo, asker: int | None) -> Refusal | None:
    """Whether seat ``asker`` may start a game now."""
    if table.running:
        return Refusal(ErrorCode.GAME_RUNNING, "a game is already running at this table")
    refusal = host_refusal(table, asker, "start a game")
    if refusal is not None:
        return refusal
    empty = free_seat(table)
    if empty is not None:
        return Refusal(ErrorCode.NOT_READY, f"{seat_label(empty)} is empty: wait for a player or add a bot")
    return None


def add_bot_refusal(table: TableInfo, asker: int | None, seat: int) -> Refusal | None:
    """Whether seat ``asker`` may seat a bot in ``seat``."""
    return host_refusal(table, asker, "add a bot") or between_games(table, "add a bot") or seat_taken(table, seat)


def remove_bot_refusal(table: TableInfo, asker: int | None, seat: int) -> Refusal | None:
    """Whether seat ``asker`` may take the bot out of ``seat``."""
    refusal = (host_refusal(table, asker, "remove a bot") or between_games(table, "remove a bot")
               or no_such_seat(table, seat))
    if refusal is not None:
        return refusal
    holder = table.players[seat]
    if holder is None:
        return Refusal(ErrorCode.BAD_FIELD, f"{seat_label(seat)} is empty: there is no bot to remove")
    if not holder.bot:
        return Refusal(ErrorCode.BAD_FIELD, f"{holder.name} is not a bot: only bots can be removed")
    return None


def _holder(table: TableInfo, asker: int | None, seat: int, what: str, empty: str) -> SeatInfo | Refusal:
    """Who sits in ``seat``, for the host power ``what`` about them; or why not (not the host, no such seat, or
    an empty one, ``empty`` saying what to do instead)."""
    refusal = host_refusal(table, asker, what) or no_such_seat(table, seat)
    if refusal is not None:
        return refusal
    holder = table.players[seat]
    if holder is None:
        return Refusal(ErrorCode.BAD_FIELD, f"{seat_label(seat)} is empty: {empty}")
    return holder


def give_host_refusal(table: TableInfo, asker: int | None, seat: int) -> Refusal | None:
    """Whether seat ``asker`` may hand the host role to ``seat``."""
    holder = _holder(table, asker, seat, "hand the host role on", "only a seated player can be host")
    if isinstance(holder, Refusal):
        return holder
    if holder.plays_as_bot:
        return Refusal(ErrorCode.BAD_FIELD, f"{holder.name} is a bot: only a human player can be host")
    return None


# Which seats can be given on, as the refusals say it (the server's, and the client's when none is).
HANDABLE_SEATS = "only the seat of a player who is away (or of a house bot) can be handed on"


def hand_seat_refusal(table: TableInfo, asker: int | None, seat: int, to_bot: bool) -> Refusal | None:
    """Whether seat ``asker`` may give ``seat`` to a house bot (``to_bot``) or to a player in the lobby.

    Only the seat of a player who is away can be given (their laptop died; they may come back from another
    machine, under another name), or a bot's seat, to a person; a player who is here keeps theirs."""
    holder = _holder(table, asker, seat, "hand a seat on", "a player can join it, or add a bot")
    if isinstance(holder, Refusal):
        return holder
    if holder.bot and to_bot:
        return Refusal(ErrorCode.BAD_FIELD, f"{holder.name} in {seat_label(seat)} is a bot already: hand the seat "
                                            "to a player in the lobby instead (hand SEAT NAME)")
    if not holder.bot and holder.connected:
        return Refusal(ErrorCode.SEAT_TAKEN, f"{holder.name} is here: {HANDABLE_SEATS}")
    return None


def chat_refusal(table: TableInfo, seated: bool) -> Refusal | None:
    """Whether someone at ``table`` (``seated``, or watching) may chat now."""
    if table.chat is ChatPolicy.OFF:
        return Refusal(ErrorCode.CHAT_DISABLED, "chat is off at this table")
    if table.running:
        if table.chat is ChatPolicy.BETWEEN_GAMES:
            return Refusal(ErrorCode.CHAT_DISABLED, "at this table chat is open only between games")
        if not seated:
            # Spectators see every hand; a word from them could leak it.
            return Refusal(ErrorCode.CHAT_DISABLED, "spectators can chat only between games: they see every hand")
    return None


def is_here(table: TableInfo, watchers: Iterable[str], name: str) -> bool:
    """Whether the person called ``name`` is at ``table`` now: connected in a seat, or watching (``watchers``: the
    spectators connected, as a ``watchers`` message names them)."""
    return name in watchers or any(p is not None and not p.bot and p.connected and p.name == name
                                   for p in table.players)


def leads_review(table: TableInfo, watchers: Iterable[str], leader: str, name: str, seat: int | None) -> bool:
    """Whether the steps and pointing of ``name`` (in ``seat``; None: watching) go to everyone in the review that
    ``leader`` leads: the leader's do, and the host's while the leader is not here."""
    return name == leader or (seat is not None and seat == table.host and not is_here(table, watchers, leader))


def open_review_refusal(table: TableInfo, asker: int | None) -> Refusal | None:
    """Whether seat ``asker`` (None: watching) may open a finished game for everyone at ``table`` to review."""
    if asker is None or asker != table.host:
        return Refusal(ErrorCode.NOT_HOST, "only the host opens a game for the table to review: ask them, or look "
                                           "at it alone (its replay)")
    if table.running:
        return Refusal(ErrorCode.GAME_RUNNING, "a game is being played at this table: review another once it ends")
    return None


def review_lead_refusal(table: TableInfo, watchers: Iterable[str], leader: str, asker: str, seat: int | None,
                        to: str) -> Refusal | None:
    """Whether ``asker`` (in ``seat``) may hand the lead of the review ``leader`` leads to ``to``: the leader or the
    host may, to someone here."""
    if asker != leader and (seat is None or seat != table.host):
        return Refusal(ErrorCode.NOT_LEADER, f"{leader} leads the review: only they or the host can hand the lead on")
    if not is_here(table, watchers, to):
        return Refusal(ErrorCode.NOT_SEATED, f"{to!r} is not at this table now: the lead goes to someone here "
                                             "(seated or watching)")
    return None


def advice_refusal(table: TableInfo, asker: int | None) -> Refusal | None:
    """Whether the player in seat ``asker`` (None: watching) may ask the coach for advice now. Whose turn it is
    is the game's to say, not the table's: the server checks it after this."""
    if not table.advice:
        return Refusal(ErrorCode.ADVICE_OFF, "the host did not allow advice at this table: a table created with "
                                             "advice on gives it (the new-table form's Advice, or --solo)")
    if asker is None:
        return Refusal(ErrorCode.NOT_SEATED, "only a seated player may ask for advice, on their own turn")
    if not table.running:
        return Refusal(ErrorCode.GAME_NOT_RUNNING, "no game is running at this table: advice is for your turn")
    return None
