"""A player as the server knows them, across connections; a seat; the refusal every handler may raise; frames.

A ``Player`` is who a resume token stands for (the server keeps only the token's hash): their name, where
they are (only the lobby changes that) and their connection now (None while away). Connections come and go;
the player, and so the seat, stays. ``send`` drops frames while they are away: on their return the current
view says all they missed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

import trio
from hanabi.protocol import SENTENCE_MAX, ErrorCode, ErrorReply, Message, ProtocolError, SeatInfo, TableInfo, encode
from hanabi.protocol.table_rules import Refusal

from .records import TableSettings

log = logging.getLogger(__name__)


class Outbox(Protocol):
    """What a table or the lobby needs of a connection (``connection.py`` says what each does)."""

    address: str

    def send_frame(self, data: bytes) -> None: ...

    def encode(self, message: Message) -> bytes: ...

    def replaced(self) -> None: ...


class Place(Protocol):
    """The table a player is at, as the lobby and the connections reach it (``table.Table``): they ask it to do
    things (``call``) and tell it of a connection coming and going; they never change it."""

    name: str
    settings: TableSettings

    @property
    def closed(self) -> bool: ...
    @property
    def running(self) -> bool: ...
    def info(self) -> TableInfo: ...
    async def call(self, player: Player | None, request: object) -> Any: ...
    def welcome_back(self, player: Player) -> None: ...
    def connection_lost(self, player: Player, left: bool = False) -> None: ...


@dataclass(slots=True)
class Seat:
    name: str
    player: Player | None  # None for a bot

    @property
    def bot(self) -> bool:
        return self.player is None

    def info(self) -> SeatInfo:
        """The seat as everyone sees it."""
        player = self.player
        return SeatInfo(name=self.name, bot=player is None, connected=player is None or player.online,
                        network_bot=player is not None and player.network_bot)


# What a request that failed on a bug of the server's is answered with (the bug itself is logged).
SERVER_FAULT = "the server failed on this request (its fault, not yours); it has been logged"


class Refused(Exception):
    """A request the server will not carry out: ``code`` for programs, the message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = str(code)  # a StrEnum member is sent as its plain string
        self.message = message


def refuse(refusal: Refusal | None) -> None:
    if refusal is not None:
        raise Refused(refusal.code, refusal.message)


@dataclass(slots=True, eq=False, repr=False)
class Player:
    key: str  # the hash of the resume token; the token itself is never kept
    name: str
    conn: Outbox | None = None
    # Where the player is: the lobby's to change, under ``busy``, one request at a time.
    table: Place | None = None
    seat: int | None = None  # None with a table: spectating
    busy: trio.Lock = field(default_factory=trio.Lock)
    away_since: float = 0.0  # trio.current_time() when the last connection ended (see Lobby.forget_idle)
    missed: list[Message] = field(default_factory=list)  # what they must hear when they come back (their table closed)
    network_bot: bool = False  # a hanabi-bot of our version, by its last hello: it plays as the house bots do

    @property
    def online(self) -> bool:
        return self.conn is not None

    def send_frame(self, data: bytes) -> None:
        if self.conn is not None:
            self.conn.send_frame(data)

    def send(self, message: Message, before: bytes = b"") -> None:
        """``message`` encoded for the connection the player is on now, after the frames ``before``."""
        conn = self.conn
        if conn is not None:
            conn.send_frame(before + conn.encode(message))

    def tell(self, message: Message) -> None:
        """``message`` now if the player is connected, else when they come back (``missed``)."""
        if self.conn is not None:
            self.send(message)
        else:
            self.missed.append(message)

    def __repr__(self) -> str:
        return f"Player({self.name!r})"


def frame(message: Message) -> bytes:
    """The frame of ``message``, never an exception (see ``unsendable``)."""
    try:
        return encode(message)
    except ProtocolError as error:
        return unsendable(message, error)


def unsendable(message: Message, error: ProtocolError) -> bytes:
    """The ``error`` frame sent in place of ``message``, which the protocol refused to carry (a bug of the
    server's, logged): no encoding failure can take down a table or a connection."""
    log.error("could not encode a %s message: %s", message.TYPE, error)
    return encode(ErrorReply(request="", code=str(ErrorCode.INTERNAL),
                             message=f"the server could not send you a {message.TYPE} message (its fault, "
                                     "not yours; it has been logged)"[:SENTENCE_MAX]))
