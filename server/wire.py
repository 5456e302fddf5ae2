"""The protocol names the server uses, gathered in one place.

The server speaks only ``hanabi.protocol``; importing it through this module
keeps the server's other modules short and gives one place to look when the
protocol's names move.
"""

from __future__ import annotations

import logging

from hanabi.protocol import (
    DEFAULT_MAX_FRAME,
    LIST_MAX,
    PROTOCOL_VERSION,
    ActionRequest,
    AddBot,
    Chat,
    CreateTable,
    Decoder,
    Encoder,
    ErrorCode,
    ErrorReply,
    GameEvent,
    GameOver,
    Games,
    GameStarted,
    GameSummary,
    GetReplay,
    GiveHost,
    Goodbye,
    GoodbyeReason,
    Hello,
    Join,
    Joined,
    Leave,
    ListGames,
    ListTables,
    Message,
    Ping,
    Pong,
    ProtocolError,
    RearrangeRequest,
    RemoveBot,
    ReplayFile,
    SeatInfo,
    SeatStatus,
    Spectate,
    Start,
    TableChanged,
    TableGone,
    TableInfo,
    Tables,
    ViewUpdate,
    Welcome,
    encode,
    version_mismatch,
)

__all__ = [
    "DEFAULT_MAX_FRAME", "PROTOCOL_VERSION", "ActionRequest", "AddBot", "Chat", "CreateTable", "Decoder", "Encoder",
    "ErrorCode", "ErrorReply", "GameEvent", "GameOver", "GameStarted", "GameSummary", "Games", "GetReplay",
    "GiveHost", "Goodbye", "GoodbyeReason", "Hello", "Join", "Joined", "LIST_MAX", "Leave", "ListGames", "ListTables",
    "Message", "Ping", "Pong", "ProtocolError", "RearrangeRequest", "RemoveBot", "ReplayFile", "SeatInfo",
    "SeatStatus", "Spectate", "Start", "TableChanged", "TableGone", "TableInfo", "Tables", "ViewUpdate", "Welcome",
    "encode", "frame", "safely", "version_mismatch",
]

log = logging.getLogger(__name__)


def frame(message: Message, encoder: Encoder | None = None) -> bytes:
    """The frame of ``message`` (through a connection's ``encoder`` when given), never an exception.

    A message the protocol refuses to carry (a field out of range, a frame
    over the cap) is a bug of the server's: it is logged, and the receiver
    gets an ``error`` (code ``internal``) naming the message it missed in its
    place, so that no encoding failure can take down a table or a connection.
    """
    try:
        return encoder.encode(message) if encoder is not None else encode(message)
    except ProtocolError as error:
        return safely(message, error)


def safely(message: Message, error: ProtocolError) -> bytes:
    """The ``error`` frame sent in place of ``message``, which could not be encoded (see ``frame``)."""
    log.error("could not encode a %s message: %s", message.TYPE, error)
    return encode(ErrorReply(request="", code=str(ErrorCode.INTERNAL),
                             message=f"the server could not send you a {message.TYPE} message (its fault, "
                                     "not yours; it has been logged)"[:500]))
