"""The wire protocol of hanabi: versioned, framed, validated msgpack. Sans-IO (no sockets, no Trio).

``encode(message) -> bytes`` makes one frame; ``Decoder().feed(data)`` turns
received bytes into messages; both raise ``ProtocolError`` (with a ``code``)
for anything that breaks the protocol. A sender keeps one ``Encoder`` per
connection, which sends each event of a game's history once; the receiver's
``Decoder`` (one per connection too) puts the history back together. Messages are the frozen dataclasses
of ``messages.py``; they carry engine values (views, events, actions), and
``engine_wire.py`` says how those look on the wire. docs/protocol.md is the
reference for implementers in other languages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hanabi.engine.lazy import loader

if TYPE_CHECKING:
    from .engine_wire import (
        action_from_wire,
        action_to_wire,
        card_from_wire,
        card_to_wire,
        config_from_wire,
        config_to_wire,
        event_from_wire,
        event_to_wire,
        outcome_from_wire,
        outcome_to_wire,
        view_from_wire,
        view_to_wire,
    )
    from .errors import ErrorCode, GoodbyeReason, ProtocolError
    from .framing import Decoder, Encoder, decode_body, encode
    from .messages import (
        CHAT_MAX,
        CLIENT_TYPES,
        LIST_MAX,
        MESSAGE_TYPES,
        NAME_MAX,
        PASSWORD_MAX,
        SEED_TEXT_MAX,
        SENTENCE_MAX,
        SERVER_TYPES,
        TABLE_NAME_MAX,
        ActionRequest,
        AddBot,
        AdviceReply,
        BotReason,
        CardNote,
        CardNotes,
        Chat,
        CreateTable,
        ErrorReply,
        GameClock,
        GameEvent,
        GameOver,
        Games,
        GameStarted,
        GameSummary,
        GetAdvice,
        GetReplay,
        GetStats,
        GiveHost,
        Goodbye,
        HandSeat,
        Hello,
        HypoAction,
        HypoBack,
        HypoBot,
        HypoEnd,
        HypoReveal,
        HypoStart,
        Hypothetical,
        Join,
        Joined,
        Leave,
        ListGames,
        ListOnline,
        ListTables,
        Message,
        Online,
        OpenReview,
        PauseRequest,
        Ping,
        Pong,
        PreMoveKind,
        Queued,
        QueueMove,
        RearrangeRequest,
        RemoveBot,
        ReplayFile,
        Review,
        ReviewLead,
        ReviewPoint,
        ReviewStep,
        SeatHanded,
        SeatInfo,
        SeatStatus,
        Spectate,
        Start,
        Stats,
        StatsLine,
        TableChanged,
        TableGone,
        TableInfo,
        Tables,
        ViewUpdate,
        Watchers,
        WatchingSeat,
        WatchSeat,
        Welcome,
        WriteNote,
        from_wire,
        to_wire,
    )
    from .transport import DEFAULT_MAX_FRAME, DEFAULT_PORT, HEADER
    from .version import CLIENT_PROGRAM, PROTOCOL_VERSION, SERVER_PROGRAM, version_mismatch

# Where each name lives. A module is loaded when one of its names is first asked for, not when the package
# is, so a command that needs little (``--help``, ``--version``) starts without loading the rest.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "engine_wire": (
        "action_from_wire", "action_to_wire", "card_from_wire", "card_to_wire", "config_from_wire", "config_to_wire",
        "event_from_wire", "event_to_wire", "outcome_from_wire", "outcome_to_wire", "view_from_wire", "view_to_wire",
    ),
    "errors": ("ErrorCode", "GoodbyeReason", "ProtocolError"),
    "framing": ("Decoder", "Encoder", "decode_body", "encode"),
    "transport": ("DEFAULT_MAX_FRAME", "DEFAULT_PORT", "HEADER"),
    "messages": (
        "CHAT_MAX", "CLIENT_TYPES", "LIST_MAX", "MESSAGE_TYPES", "NAME_MAX", "PASSWORD_MAX", "SEED_TEXT_MAX",
        "SENTENCE_MAX", "SERVER_TYPES", "TABLE_NAME_MAX", "ActionRequest", "AddBot", "AdviceReply", "BotReason",
        "CardNote",
        "CardNotes", "Chat", "CreateTable", "ErrorReply", "GameClock", "GameEvent", "GameOver", "Games", "GameStarted",
        "GameSummary", "GetAdvice", "GetReplay", "GetStats", "GiveHost", "Goodbye", "HandSeat", "Hello", "Join",
        "Joined", "Leave",
        "ListGames", "ListOnline", "ListTables", "Message", "Online", "OpenReview", "PauseRequest", "Ping", "Pong",
        "PreMoveKind", "Queued", "QueueMove", "RearrangeRequest", "RemoveBot", "ReplayFile", "Review", "ReviewLead",
        "ReviewPoint", "ReviewStep", "SeatHanded", "SeatInfo", "SeatStatus", "Spectate", "Start", "Stats", "StatsLine",
        "TableChanged", "TableGone", "TableInfo", "Tables", "ViewUpdate", "Watchers", "WatchingSeat", "WatchSeat",
        "Welcome", "WriteNote", "HypoAction", "HypoBack", "HypoBot", "HypoEnd", "HypoReveal", "HypoStart",
        "Hypothetical",
        "from_wire", "to_wire",
    ),
    "version": ("CLIENT_PROGRAM", "PROTOCOL_VERSION", "SERVER_PROGRAM", "version_mismatch"),
}
if not TYPE_CHECKING:  # for mypy every name is imported above, with its type
    __getattr__ = loader(__name__, _EXPORTS, globals())

__all__ = [
    "CHAT_MAX", "CLIENT_TYPES", "DEFAULT_MAX_FRAME", "DEFAULT_PORT", "HEADER", "LIST_MAX", "MESSAGE_TYPES",
    "NAME_MAX", "PASSWORD_MAX", "SENTENCE_MAX", "Encoder", "CLIENT_PROGRAM", "PROTOCOL_VERSION", "SERVER_PROGRAM",
    "SERVER_TYPES",
    "TABLE_NAME_MAX", "ActionRequest", "AddBot", "Chat", "CreateTable", "Decoder", "ErrorCode", "ErrorReply",
    "GameEvent", "GameOver", "GameStarted", "GameSummary", "Games", "GetReplay", "GiveHost", "Goodbye",
    "GoodbyeReason", "Hello", "Join", "Joined", "Leave", "ListGames", "ListTables", "Message", "Ping", "Pong",
    "ProtocolError", "RearrangeRequest", "RemoveBot", "ReplayFile", "SeatInfo", "SeatStatus", "Spectate", "Start",
    "TableChanged", "TableGone", "TableInfo", "Tables", "ViewUpdate", "Welcome", "action_from_wire",
    "action_to_wire",
    "card_from_wire", "card_to_wire", "config_from_wire", "config_to_wire", "decode_body", "encode",
    "event_from_wire", "event_to_wire", "from_wire", "outcome_from_wire", "outcome_to_wire", "to_wire",
    "version_mismatch", "view_from_wire", "view_to_wire",
    "ListOnline", "Online", "OpenReview", "Review", "ReviewLead", "ReviewPoint", "ReviewStep", "Watchers",
    "HandSeat", "SeatHanded",
    "CardNote", "CardNotes", "WriteNote",
    "BotReason", "SEED_TEXT_MAX",
"GameClock", "PauseRequest", "PreMoveKind", "Queued",
    "QueueMove",
    "GetStats", "Stats", "StatsLine",
    "WatchSeat", "WatchingSeat",
    "HypoAction", "HypoBack", "HypoBot", "HypoEnd", "HypoReveal", "HypoStart", "Hypothetical",
    "GetAdvice", "AdviceReply",
]
