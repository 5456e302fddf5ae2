"""The one exception of the protocol layer and the machine-readable codes it carries.

Every way a peer can get the wire wrong ends as a ``ProtocolError``: its
``code`` is a short identifier a program can branch on (the same codes travel
in ``error`` replies), its message is a sentence a person can act on. Codes and
goodbye reasons are open sets on the wire, so a newer peer may send one this
version does not list; the enums below name the ones version 1 uses.
"""

from __future__ import annotations

import enum
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .messages import Message


class ErrorCode(enum.StrEnum):
    """The codes of ``error`` replies and of ``ProtocolError``. A StrEnum, so each one *is* its string."""

    # The wire itself (raised by the decoder).
    BAD_FRAME = "bad_frame"  # not one msgpack map, or a forbidden msgpack feature
    FRAME_TOO_LARGE = "frame_too_large"  # declared length over the cap: refused before reading the body
    UNKNOWN_TYPE = "unknown_type"  # "t" names no message this side accepts
    BAD_FIELD = "bad_field"  # a field missing, of the wrong type, out of range, too long
    PROTOCOL_VERSION = "protocol_version"  # a frame of another protocol version
    # Refusals by the server (sent in ``error`` replies).
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL_ACTION = "illegal_action"
    NO_SUCH_TABLE = "no_such_table"
    SEAT_TAKEN = "seat_taken"
    WRONG_PASSWORD = "wrong_password"
    NOT_HOST = "not_host"
    NOT_SEATED = "not_seated"
    GAME_NOT_RUNNING = "game_not_running"
    CHAT_DISABLED = "chat_disabled"
    RATE_LIMITED = "rate_limited"
    BAD_RESUME = "bad_resume"
    ALREADY_SEATED = "already_seated"
    NO_SUCH_GAME = "no_such_game"
    NAME_TAKEN = "name_taken"
    NOT_LOGGED_IN = "not_logged_in"  # a request before the handshake finished
    ALREADY_LOGGED_IN = "already_logged_in"  # a second hello on a connection that was welcomed
    TABLE_FULL = "table_full"
    GAME_RUNNING = "game_running"  # the request needs the table to be between games
    NOT_READY = "not_ready"  # start refused: a seat is empty
    INTERNAL = "internal"  # the server's own fault; the message says so
    NOT_LEADER = "not_leader"  # only the review's leader may do that (version 3)
    NO_REVIEW = "no_review"  # the table is not reviewing a game (version 3)
    NO_HYPOTHETICAL = "no_hypothetical"  # the review has no what if under way (version 3)
    HISTORY_GAP = "history_gap"  # a view continues a history this connection never received (fatal)
    GAME_PAUSED = "game_paused"  # a move while the game is paused: resume it first
    ADVICE_OFF = "advice_off"  # get_advice at a table whose host did not allow advice


class GoodbyeReason(enum.StrEnum):
    """Why a side is closing the connection (the ``reason`` of ``goodbye``)."""

    SERVER_SHUTDOWN = "server_shutdown"
    REPLACED = "replaced"  # the same player connected again; this older connection is dropped
    PROTOCOL_ERROR = "protocol_error"
    PROTOCOL_VERSION = "protocol_version"
    TOO_SLOW = "too_slow"  # the peer did not read what it was sent in time
    FLOOD = "flood"  # the peer sent faster than the rate limit, repeatedly
    IDLE = "idle"  # nothing received for too long
    CLIENT_QUIT = "client_quit"
    SERVER_FULL = "server_full"  # the server has as many connections as it takes; try again later


# Control characters, line and paragraph separators, invisible format and bidi controls (which reorder what a
# terminal shows) and lone surrogates (which cannot be encoded): none of them may reach an error text.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ud800-\udfff]")
MESSAGE_MAX = 500  # the protocol's longest error text (SENTENCE_MAX)


def printable(text: str, limit: int = MESSAGE_MAX) -> str:
    """``text`` safe to show and to send: every unsafe character as "?", at most ``limit`` characters."""
    text = _UNSAFE.sub("?", text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


class ProtocolError(Exception):
    """Bytes or a message that break the protocol.

    ``code`` says what kind of breakage (an ``ErrorCode`` value). When the
    frame could be read far enough, ``request`` is its message type and
    ``id`` its request id, so a server can answer with an ``error`` reply
    naming them. ``fatal`` is true when the byte stream cannot be trusted
    any more (the connection must be closed); after a non-fatal error the
    decoder has skipped the bad frame and goes on with the next one.
    ``messages`` holds the good messages ``Decoder.feed`` decoded, in the
    same call, before the bad frame: handle them before the error.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        request: str | None = None,
        id: int | None = None,
        fatal: bool = False,
    ) -> None:
        # It may quote what a peer sent, and its text goes back to that peer: always one that can be sent.
        message = printable(message)
        super().__init__(message)
        self.code = str(code)
        self.message = message
        self.request = request
        self.id = id
        self.fatal = fatal
        self.messages: list[Message] = []

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def __repr__(self) -> str:
        return f"ProtocolError({self.code!r}, {self.message!r})"
