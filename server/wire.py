"""The protocol names the server uses, gathered in one place.

The server speaks only ``hanabi.protocol``; importing it through this module
keeps the server's other modules short and gives one place to look when the
protocol's names move.
"""

from __future__ import annotations

from hanabi.protocol import (
    DEFAULT_MAX_FRAME,
    PROTOCOL_VERSION,
    ActionRequest,
    AddBot,
    Chat,
    CreateTable,
    Decoder,
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
    "DEFAULT_MAX_FRAME", "PROTOCOL_VERSION", "ActionRequest", "AddBot", "Chat", "CreateTable", "Decoder",
    "ErrorCode", "ErrorReply", "GameEvent", "GameOver", "GameStarted", "GameSummary", "Games", "GetReplay",
    "GiveHost", "Goodbye", "GoodbyeReason", "Hello", "Join", "Joined", "Leave", "ListGames", "ListTables",
    "Message", "Ping", "Pong", "ProtocolError", "RearrangeRequest", "RemoveBot", "ReplayFile", "SeatInfo",
    "SeatStatus", "Spectate", "Start", "TableChanged", "TableGone", "TableInfo", "Tables", "ViewUpdate", "Welcome",
    "encode", "version_mismatch",
]
