"""A player as the server knows them, across connections, and the refusal every handler may raise.

A ``Player`` is who holds a resume token: their name, where they sit and
the connection they are on right now (None while disconnected). Connections
come and go; the player, and so the seat, stays. Everything sent to a
player goes through ``send``, which drops frames while they are away: on
their return they get the current view, which says all they missed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from hanabi.protocol import Message

    from .handoff import Reply
    from .table import Table


class Outbox(Protocol):
    """What a table or the lobby needs from a connection: queue a frame without waiting; encode a message
    the way this connection sends it (views carry only what it has not sent yet); be replaced; take in hand
    a request its table will finish later (it waits for it before its next request), and refuse it then."""

    def send_frame(self, frame: bytes) -> None: ...

    def encode(self, message: Message) -> bytes: ...

    def replaced(self) -> None: ...

    def hand_over(self, request: Reply) -> None: ...

    def refused(self, request: object, refusal: Refused) -> None: ...

    def transfer(self, move: Transfer) -> None: ...


class Refused(Exception):
    """A request the server will not carry out: ``code`` for programs, the message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = str(code)  # a StrEnum member is sent as its plain string
        self.message = message


class Transfer(Exception):
    """This connection goes on in another process (``shard``): raised while handling a request, or given to
    ``Outbox.transfer`` from outside.

    The connection stops reading, sends what it has queued, and then calls
    ``move(player, fd, unread, resumed, tokens, refused)`` with its socket's
    file descriptor (the TCP connection stays open); the bytes it read but
    did not handle (``request`` first, when the move is for a request the
    other process must carry out, then whatever came after it); whether the
    player has just been welcomed back (the other process gives them their
    seat and view); and its rate limit's state, so that moving does not
    reset it. A move that cannot be made (the peer left, or a newer
    connection replaced this one meanwhile) calls ``abandon`` instead, if
    given.
    """

    def __init__(self, move: Callable[[Player, int, bytes, bool, float, int], None],
                 request: Message | None = None, resumed: bool = False,
                 abandon: Callable[[], None] | None = None) -> None:
        super().__init__("connection moving to another process")
        self.move = move
        self.request = request
        self.resumed = resumed
        self._abandon = abandon

    def abandoned(self) -> None:
        abandon, self._abandon = self._abandon, None
        if abandon is not None:
            abandon()


class Player:
    __slots__ = ("away_since", "conn", "elsewhere", "key", "name", "seat", "table")

    def __init__(self, key: str, name: str) -> None:
        self.key = key  # the hash of the resume token; the token itself is never kept
        self.name = name
        self.conn: Outbox | None = None
        self.table: Table | None = None
        self.seat: int | None = None  # None with a table: spectating
        self.away_since = 0.0  # trio.current_time() when the last connection ended (see Lobby.forget_idle)
        # In the front process of a sharded server: the worker (a ``shard.Worker``, kept untyped here so that
        # this module need not know of processes) whose table the player is at.
        self.elsewhere: object | None = None

    @property
    def online(self) -> bool:
        return self.conn is not None

    @property
    def seated(self) -> bool:
        return self.table is not None and self.seat is not None

    def send_frame(self, frame: bytes) -> None:
        if self.conn is not None:
            self.conn.send_frame(frame)

    def send(self, message: Message, before: bytes = b"") -> None:
        """``message`` encoded for the connection the player is on now, after the frames ``before``."""
        conn = self.conn
        if conn is not None:
            conn.send_frame(before + conn.encode(message))

    def __repr__(self) -> str:
        return f"Player({self.name!r})"
