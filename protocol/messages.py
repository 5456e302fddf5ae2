"""Every message of protocol version 1, as frozen dataclasses, and their wire maps.

One class per message type; ``TYPE`` is the type string of the wire (the
``"t"`` of the frame). Each field is annotated with the ``Spec`` that checks
it (``Annotated[str, Text(1, 32)]``), so the declaration *is* the validation
table: ``to_wire`` and ``from_wire`` read it, and so does the field reference
of docs/protocol.md.

Every message ends with an optional ``id``: a client may number its
requests, and the server copies the number into the reply that answers one
(``error`` included), so that a client can match replies to requests.

Names: message classes that would shadow an engine type are named for what
they carry (``ActionRequest`` for "action", ``RearrangeRequest`` for
"rearrange", ``ViewUpdate`` for "view", ``GameEvent`` for "event",
``ReplayFile`` for "replay", ``ErrorReply`` for "error"). Messages carry
engine values directly (``ActionRequest.action`` is a ``Play``/``Discard``/
``Clue``, ``ViewUpdate.view`` a ``PlayerView``, ``TableInfo.variant`` a
``Variant``); engine_wire.py says how they look on the wire. ``chat`` is one
class for both directions: a client sends only ``text``, the server adds
``table`` and ``sender``.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable
from typing import Annotated, Any, ClassVar, TypeVar, get_type_hints

from hanabi.engine import (
    MAX_PLAYERS,
    MAX_TIME,
    MIN_PLAYERS,
    NOTE_MAX,
    TIME_BASE,
    TIME_PER_TURN,
    Card,
    ChatPolicy,
    Clue,
    Discard,
    EndReason,
    Event,
    Outcome,
    Play,
    PlayerView,
    RearrangeEvent,
    TurnEvent,
    Variant,
)
from hanabi.engine import TurnAction as _TurnAction
from hanabi.engine.bots.decision import LEVELS, Level
from hanabi.engine.names import NAME_MAX as ENGINE_NAME_MAX

from . import engine_wire as ew
from .errors import ErrorCode, ProtocolError
from .fields import (
    IDENT_MAX,
    MAX_SAFE_INT,
    Bool,
    Choice,
    Custom,
    FieldError,
    Ident,
    Int,
    ListOf,
    Opt,
    Spec,
    Text,
    Token,
    as_map,
    check_plain,
    end_message,
    kind_of,
    quote,
    start_message,
)
from .version import HANDSHAKE_TYPES, PROTOCOL_VERSION

# Limits of version 1, in characters (code points) or items.
NAME_MAX = ENGINE_NAME_MAX  # the engine's rule for names (engine/names.py)
TABLE_NAME_MAX = 40
PASSWORD_MAX = 64
CHAT_MAX = 500
SENTENCE_MAX = 500  # error and goodbye messages
MOTD_MAX = 2000
PROGRAM_MAX = 64
TOKEN_MAX = 128
SEED_MAX = 200  # characters of a seed as a game_over message shows it
SEED_TEXT_MAX = 64  # characters of a seed text a table is created with (50 games listed with theirs fit a frame)
REPLAY_MAX = 60_000
# Tables in "tables", games in "games": 50 of the largest possible entries still fit in a 64 KiB frame.
LIST_MAX = 50
SPECTATORS_MAX = 10_000
MAX_SCORE = 30

# Specs shared by many fields.
_ID = Int(0, MAX_SAFE_INT)
_SEAT = Int(0, MAX_PLAYERS - 1)
_NAME = Text(1, NAME_MAX, trimmed=True)
_PASSWORD = Text(1, PASSWORD_MAX)
_SENTENCE = Text(0, SENTENCE_MAX, multiline=True)
_TIME_BASE = Int(1, MAX_TIME)  # seconds in each bank as a timed game starts
_TIME_PER_TURN = Int(0, MAX_TIME)  # seconds added to a bank after each move


def _engine_value(types: type | tuple[type, ...], to_wire: Callable[[Any], object]) -> Callable[[Any, str], object]:
    """An encoder that first checks it was given the engine type it converts (a wrong one is a clear error)."""
    def encode(value: Any, where: str) -> object:
        if not isinstance(value, types):
            raise FieldError(where, f"expected {getattr(types, '__name__', 'an event')}, got {value!r:.60}")
        return to_wire(value)
    return encode


_CARD: Spec[Card] = Custom(ew.card_from_wire, _engine_value(Card, ew.card_to_wire), 'str: a card such as "R3"')
_VIEW: Spec[PlayerView] = Custom(ew.view_from_wire, _engine_value(PlayerView, ew.view_to_wire), "map: a view")
_EVENT: Spec[Event] = Custom(ew.event_from_wire, _engine_value((TurnEvent, RearrangeEvent), ew.event_to_wire),
                             "array: an event")
_OUTCOME: Spec[Outcome] = Custom(ew.outcome_from_wire, _engine_value(Outcome, ew.outcome_to_wire), "map: an outcome")


def _level_from_wire(value: object, where: str) -> Level:
    for level in LEVELS:
        if value == level:
            return level
    got = quote(value) if isinstance(value, str) else kind_of(value)
    raise FieldError(where, f"{got} is not a convention level: one of {', '.join(repr(x) for x in LEVELS)}")


def _level_to_wire(value: object, where: str) -> object:
    return _level_from_wire(value, where)


# A table's convention level (hanabi.engine.bots.decision): what its people are expected to follow.
_LEVEL: Spec[Level] = Custom(_level_from_wire, _level_to_wire, 'one of "beginner", "basic", "h-group"')
_SEED_TEXT = Text(1, SEED_TEXT_MAX, trimmed=True)

Id = Annotated[int | None, Opt(_ID)]


@dataclasses.dataclass(frozen=True, slots=True)
class _FieldPlan:
    name: str
    spec: Spec[Any]
    required: bool


_PLANS: dict[type, tuple[_FieldPlan, ...]] = {}
_KNOWN_KEYS: dict[type, frozenset[str]] = {}
ClassT = TypeVar("ClassT", bound=type)


def _plan(cls: ClassT) -> ClassT:
    """Read the class's annotated fields into the plan ``to_wire`` and ``from_wire`` follow."""
    hints = get_type_hints(cls, include_extras=True)
    plans = []
    for f in dataclasses.fields(cls):
        meta = getattr(hints[f.name], "__metadata__", ())
        spec = next((m for m in meta if isinstance(m, Spec)), None)
        if spec is None:
            raise TypeError(f"{cls.__name__}.{f.name} has no Spec in its annotation")
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        plans.append(_FieldPlan(f.name, spec, required))
    _PLANS[cls] = tuple(plans)
    _KNOWN_KEYS[cls] = frozenset(p.name for p in plans)
    return cls


def _fields_to_wire(obj: object, where: str, out: dict[str, Any]) -> dict[str, Any]:
    for p in _PLANS[type(obj)]:
        out[p.name] = p.spec.encode(getattr(obj, p.name), f"{where}.{p.name}")
    return out


def _fields_from_wire(cls: type, data: dict[str, Any], where: str, skip: frozenset[str] = frozenset()) -> Any:
    kwargs: dict[str, Any] = {}
    for p in _PLANS[cls]:
        if p.name in data:
            kwargs[p.name] = p.spec.decode(data[p.name], f"{where}.{p.name}")
        elif p.required:
            raise FieldError(f"{where}.{p.name}", f"missing ({p.spec.describe()})")
    unknown = data.keys() - _KNOWN_KEYS[cls] - skip
    for key in unknown:  # tolerated for forward compatibility, but still plain msgpack
        check_plain(data[key], f"{where}.{key}")
    try:
        return cls(**kwargs)
    except (ValueError, TypeError) as exc:  # a record's own cross-field check
        raise FieldError(where, str(exc)) from None


RecordT = TypeVar("RecordT")


class Record(Spec[RecordT]):
    """A nested map described by a planned dataclass (TableInfo, SeatInfo, GameSummary)."""

    def __init__(self, cls: type[RecordT]) -> None:
        self.cls = cls

    def decode(self, value: object, where: str) -> RecordT:
        result: RecordT = _fields_from_wire(self.cls, as_map(value, where), where)
        return result

    def encode(self, value: RecordT, where: str) -> object:
        if type(value) is not self.cls:
            raise FieldError(where, f"expected a {self.cls.__name__}, got {value!r}")
        return _fields_to_wire(value, where, {})

    def describe(self) -> str:
        return f"map: {self.cls.__name__}"


# -- records carried inside messages ---------------------------------------------------------------


@_plan
@dataclasses.dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in one seat."""

    name: Annotated[str, _NAME]
    bot: Annotated[bool, Bool()]
    connected: Annotated[bool, Bool()]
    # Version 3: a network bot (``hanabi-bot`` of the server's own version) sits here. It reads and gives clues
    # as the house bots do, so they count it as one of them; ``bot`` stays for the server's own bots only.
    network_bot: Annotated[bool, Bool()] = False

    @property
    def plays_as_bot(self) -> bool:
        """A house bot or a network bot: the bots read this seat's clues, and give it theirs, by their conventions."""
        return self.bot or self.network_bot


@_plan
@dataclasses.dataclass(frozen=True, slots=True)
class TableInfo:
    """A table as the lobby shows it. ``players`` has one entry per seat: None for an empty seat."""

    id: Annotated[int, _ID]
    name: Annotated[str, Text(1, TABLE_NAME_MAX, trimmed=True)]
    variant: Annotated[Variant, Choice(Variant)]
    empty_clues: Annotated[bool, Bool()]
    all_or_nothing: Annotated[bool, Bool()]
    chat: Annotated[ChatPolicy, Choice(ChatPolicy)]
    seats: Annotated[int, Int(MIN_PLAYERS, MAX_PLAYERS)]
    players: Annotated[tuple[SeatInfo | None, ...], ListOf(Opt(Record(SeatInfo)), MAX_PLAYERS, MIN_PLAYERS)]
    has_password: Annotated[bool, Bool()]
    running: Annotated[bool, Bool()]
    spectators: Annotated[int, Int(0, SPECTATORS_MAX)]
    host: Annotated[int | None, Opt(_SEAT)]
    # Table options of version 3: the bots' convention level, whether the deal comes from a
    # seed text (the text itself never reaches a player while a game runs), hanab.live's two rule options.
    level: Annotated[Level, _LEVEL] = "beginner"
    seeded: Annotated[bool, Bool()] = False
    end_when_no_points: Annotated[bool, Bool()] = False
    deck_plays: Annotated[bool, Bool()] = False
    timed: Annotated[bool, Bool()] = False
    time_base: Annotated[int, _TIME_BASE] = TIME_BASE
    time_per_turn: Annotated[int, _TIME_PER_TURN] = TIME_PER_TURN
    advice: Annotated[bool, Bool()] = False  # a seated player may ask the coach (``get_advice``) on their turn

    def __post_init__(self) -> None:
        if len(self.players) != self.seats:
            raise ValueError(f"a table of {self.seats} seats lists {len(self.players)} players; list one per seat")
        if self.host is not None and self.host >= self.seats:
            raise ValueError(f"host seat {self.host} is not a seat of this {self.seats}-seat table")


@_plan
@dataclasses.dataclass(frozen=True, slots=True)
class GameSummary:
    """One finished game in the ``games`` list. ``finished_at`` is in seconds since 1970 (UTC)."""

    id: Annotated[int, _ID]
    table: Annotated[int, _ID]
    players: Annotated[tuple[str, ...], ListOf(_NAME, MAX_PLAYERS, MIN_PLAYERS)]
    variant: Annotated[Variant, Choice(Variant)]
    score: Annotated[int, Int(0, MAX_SCORE)]
    end: Annotated[EndReason, Choice(EndReason)]
    finished_at: Annotated[int, Int(0, MAX_SAFE_INT)]
    yours: Annotated[bool, Bool()] = False  # the asker sat at this game (version 3)
    seed: Annotated[str | None, Opt(_SEED_TEXT)] = None  # the seed text of a seeded deal; nil for a random one
    advice: Annotated[bool, Bool()] = False  # someone at the game asked the coach for advice


@_plan
@dataclasses.dataclass(frozen=True, slots=True)
class StatsLine:
    """One player's finished games of one player count and variant, in ``stats``: how many, their points (the
    mean is ``points / games``), the best score, how many were perfect, struck out, played with a bot at the
    table, and played with advice (the coach's mark; 0 where the server keeps none)."""

    players: Annotated[int, Int(MIN_PLAYERS, MAX_PLAYERS)]
    variant: Annotated[Variant, Choice(Variant)]
    games: Annotated[int, Int(1, MAX_SAFE_INT)]
    points: Annotated[int, Int(0, MAX_SAFE_INT)]
    best: Annotated[int, Int(0, MAX_SCORE)]
    perfect: Annotated[int, Int(0, MAX_SAFE_INT)]
    strikeouts: Annotated[int, Int(0, MAX_SAFE_INT)]
    with_bots: Annotated[int, Int(0, MAX_SAFE_INT)]
    with_advice: Annotated[int, Int(0, MAX_SAFE_INT)] = 0

    @property
    def mean(self) -> float:
        return self.points / self.games


# One line per player count and variant at most.
STATS_LINES_MAX = (MAX_PLAYERS - MIN_PLAYERS + 1) * len(Variant)


@_plan
@dataclasses.dataclass(frozen=True, slots=True)
class CardNote:
    """One note in ``notes``: the text its writer put on the card of ``order``."""

    order: Annotated[int, Int(0, ew.MAX_DECK - 1)]
    text: Annotated[str, Text(1, NOTE_MAX)]


@_plan
@dataclasses.dataclass(frozen=True, slots=True)
class Holder:
    """One entry of ``joined``'s ``holders``: from ``turn`` of the running game on, ``seat`` was played by ``name``
    (the host handed it on; a seat's first entry, at turn 0, names who held it at the deal)."""

    turn: Annotated[int, Int(0, MAX_SAFE_INT)]
    seat: Annotated[int, _SEAT]
    name: Annotated[str, _NAME]


HOLDERS_MAX = ew.MAX_ARRAY  # the holders a ``joined`` carries: the latest, should a game see more handovers


# -- messages ------------------------------------------------------------------------------------

MESSAGE_TYPES: dict[str, type] = {}
CLIENT_TYPES: set[str] = set()  # types a client may send (a server's decoder accepts these)
SERVER_TYPES: set[str] = set()  # types a server may send


def _message(sender: str) -> Callable[[ClassT], ClassT]:
    def register(cls: ClassT) -> ClassT:
        _plan(cls)
        kind: str = cls.TYPE  # type: ignore[attr-defined]
        MESSAGE_TYPES[kind] = cls
        if sender in ("client", "both"):
            CLIENT_TYPES.add(kind)
        if sender in ("server", "both"):
            SERVER_TYPES.add(kind)
        return cls
    return register


# Handshake


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class Hello:
    """The client's first message. ``resume`` is the token of an earlier ``welcome``, to take one's seat back."""

    TYPE: ClassVar[str] = "hello"
    protocol: Annotated[int, Int(0, 65535)]
    program: Annotated[str, Text(1, PROGRAM_MAX)]
    name: Annotated[str, _NAME]
    resume: Annotated[str | None, Opt(Token(TOKEN_MAX))] = None
    id: Id = None
    # Version 3: the client is the house bot playing over the network (``hanabi-bot``); see ``SeatInfo``.
    network_bot: Annotated[bool, Bool()] = False


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class Welcome:
    """The server's answer to ``hello``: the name as accepted, and a secret token to resume with."""

    TYPE: ClassVar[str] = "welcome"
    protocol: Annotated[int, Int(0, 65535)]
    program: Annotated[str, Text(1, PROGRAM_MAX)]
    player: Annotated[str, _NAME]
    resume: Annotated[str, Token(TOKEN_MAX)]
    motd: Annotated[str, Text(0, MOTD_MAX, multiline=True)] = ""
    id: Id = None


@_message("both")
@dataclasses.dataclass(frozen=True, slots=True)
class Goodbye:
    """The last message before a side closes the connection. ``reason`` is a ``GoodbyeReason`` value."""

    TYPE: ClassVar[str] = "goodbye"
    reason: Annotated[str, Ident()]
    message: Annotated[str, _SENTENCE] = ""
    id: Id = None


# Lobby


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class ListTables:
    TYPE: ClassVar[str] = "list_tables"
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class Tables:
    """The tables of the server, at most LIST_MAX; ``total`` says how many there are when some were left out."""

    TYPE: ClassVar[str] = "tables"
    tables: Annotated[tuple[TableInfo, ...], ListOf(Record(TableInfo), LIST_MAX)]
    id: Id = None
    total: Annotated[int | None, Opt(Int(0, MAX_SAFE_INT))] = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class TableChanged:
    """A table was created or changed: sent to the lobby and to everyone at the table."""

    TYPE: ClassVar[str] = "table_changed"
    table: Annotated[TableInfo, Record(TableInfo)]
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class TableGone:
    """A table closed; ``reason`` says why, for people (empty from older servers)."""

    TYPE: ClassVar[str] = "table_gone"
    table: Annotated[int, _ID]
    reason: Annotated[str, _SENTENCE] = ""
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class CreateTable:
    """Open a table; its creator sits at seat 0 and is its host."""

    TYPE: ClassVar[str] = "create_table"
    name: Annotated[str, Text(1, TABLE_NAME_MAX, trimmed=True)]
    variant: Annotated[Variant, Choice(Variant)] = Variant.NONE
    seats: Annotated[int, Int(MIN_PLAYERS, MAX_PLAYERS)] = 2
    empty_clues: Annotated[bool, Bool()] = False
    all_or_nothing: Annotated[bool, Bool()] = False
    chat: Annotated[ChatPolicy, Choice(ChatPolicy)] = ChatPolicy.BETWEEN_GAMES
    password: Annotated[str | None, Opt(_PASSWORD)] = None
    id: Id = None
    # Table options of version 3, together: the bots' level (nil: beginner beside a person, else the strongest),
    # a seed text for the deal (nil: random), hanab.live's rule options.
    level: Annotated[Level | None, Opt(_LEVEL)] = None
    seed: Annotated[str | None, Opt(_SEED_TEXT)] = None
    end_when_no_points: Annotated[bool, Bool()] = False
    deck_plays: Annotated[bool, Bool()] = False
    timed: Annotated[bool, Bool()] = False
    time_base: Annotated[int, _TIME_BASE] = TIME_BASE
    time_per_turn: Annotated[int, _TIME_PER_TURN] = TIME_PER_TURN
    advice: Annotated[bool, Bool()] = False  # seated players may ask the coach (``get_advice``) on their turn


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class Join:
    """Sit at a table: at ``seat``, or at the first free seat when it is None."""

    TYPE: ClassVar[str] = "join"
    table: Annotated[int, _ID]
    seat: Annotated[int | None, Opt(_SEAT)] = None
    password: Annotated[str | None, Opt(_PASSWORD)] = None
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class Leave:
    """Leave the table one sits or watches at, back to the lobby."""

    TYPE: ClassVar[str] = "leave"
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class Spectate:
    TYPE: ClassVar[str] = "spectate"
    table: Annotated[int, _ID]
    password: Annotated[str | None, Opt(_PASSWORD)] = None
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class AddBot:
    TYPE: ClassVar[str] = "add_bot"
    seat: Annotated[int, _SEAT]
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class RemoveBot:
    TYPE: ClassVar[str] = "remove_bot"
    seat: Annotated[int, _SEAT]
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class GiveHost:
    TYPE: ClassVar[str] = "give_host"
    seat: Annotated[int, _SEAT]
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class Start:
    """The host starts the game (also "play again" once a game is over)."""

    TYPE: ClassVar[str] = "start"
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class Joined:
    """You are at this table now: at ``seat``, or watching when it is None. ``holders``: who played the running
    game's seats that changed hands, from which turn (empty when none did), so a log names who moved."""

    TYPE: ClassVar[str] = "joined"
    table: Annotated[TableInfo, Record(TableInfo)]
    seat: Annotated[int | None, Opt(_SEAT)]
    id: Id = None
    holders: Annotated[tuple[Holder, ...], ListOf(Record(Holder), HOLDERS_MAX)] = ()


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class SeatStatus:
    TYPE: ClassVar[str] = "seat_status"
    table: Annotated[int, _ID]
    seat: Annotated[int, _SEAT]
    connected: Annotated[bool, Bool()]
    left: Annotated[bool, Bool()] = False  # not connected because the player quit (said goodbye), not a lost line
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class ListOnline:
    """Who is connected to the server now: answered by ``online``."""

    TYPE: ClassVar[str] = "list_online"
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class HandSeat:
    """Host only: give the seat of a player who is away (or of a house bot) to ``to``, a player in the lobby, by name;
    ``to`` None gives it to a house bot."""

    TYPE: ClassVar[str] = "hand_seat"
    seat: Annotated[int, _SEAT]
    to: Annotated[str | None, Opt(_NAME)] = None
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class Online:
    """The names of the players connected now, sorted, at most LIST_MAX (``total`` says how many when more).
    The answer to ``list_online``; also sent to the lobby, unasked, when the list changes."""

    TYPE: ClassVar[str] = "online"
    players: Annotated[tuple[str, ...], ListOf(_NAME, LIST_MAX)]
    id: Id = None
    total: Annotated[int | None, Opt(Int(0, MAX_SAFE_INT))] = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class Watchers:
    """Who watches ``table`` now (connected spectators, by name): sent to everyone at the table when it
    changes, and to whoever arrives there."""

    TYPE: ClassVar[str] = "watchers"
    table: Annotated[int, _ID]
    names: Annotated[tuple[str, ...], ListOf(_NAME, LIST_MAX)]
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class WatchSeat:
    """A spectator sees the game as the player at ``seat`` sees it (that seat's own cards hidden, its notes only);
    nil: every hand again, the spectator's default."""

    TYPE: ClassVar[str] = "watch_seat"
    seat: Annotated[int | None, Opt(_SEAT)] = None
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class WatchingSeat:
    """The answer to ``watch_seat``: the seat whose view the spectator is sent from now on (nil: every hand)."""

    TYPE: ClassVar[str] = "watching_seat"
    table: Annotated[int, _ID]
    seat: Annotated[int | None, Opt(_SEAT)]
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class SeatHanded:
    """The host gave ``seat`` of ``table`` from ``previous`` to ``name`` (a house bot when ``bot``): sent to
    everyone at the table, to the one given the seat (after their ``joined``) and to the one who lost it."""

    TYPE: ClassVar[str] = "seat_handed"
    table: Annotated[int, _ID]
    seat: Annotated[int, _SEAT]
    name: Annotated[str, _NAME]
    bot: Annotated[bool, Bool()]
    previous: Annotated[str, _NAME]
    by: Annotated[str, _NAME]
    id: Id = None
    turn: Annotated[int | None, Opt(Int(0, MAX_SAFE_INT))] = None  # the running game's turn the new holder plays from


# Game


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class GameStarted:
    TYPE: ClassVar[str] = "game_started"
    table: Annotated[int, _ID]
    game: Annotated[int, _ID]
    id: Id = None


class _FlatAction(Spec[_TurnAction]):
    """Marker: the action's fields sit in the message map itself (kind, order, target, colour, rank)."""

    def decode(self, value: object, where: str) -> _TurnAction:  # pragma: no cover - handled by from_wire
        raise NotImplementedError

    def describe(self) -> str:
        return "kind, order, target, colour, rank"


_ACTION_KEYS = frozenset({"kind", "order", "target", "colour", "rank"})


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class ActionRequest:
    """Take a turn. On the wire: ``kind`` ("play", "discard", "clue"), ``order`` (play, discard),
    ``target`` and one of ``colour`` or ``rank`` (clue); unused fields nil or absent."""

    TYPE: ClassVar[str] = "action"
    action: Annotated[_TurnAction, _FlatAction()]
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class RearrangeRequest:
    """Put one's own hand in a new order: the same card orders, slot 1 (newest) first."""

    TYPE: ClassVar[str] = "rearrange"
    hand: Annotated[tuple[int, ...], ListOf(Int(0, ew.MAX_DECK - 1), ew.MAX_HAND, 1)]
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class ViewUpdate:
    """The receiver's own redacted view, sent after every change."""

    TYPE: ClassVar[str] = "view"
    game: Annotated[int, _ID]
    view: Annotated[PlayerView, _VIEW]
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class GameEvent:
    """What just happened at the table (public information only)."""

    TYPE: ClassVar[str] = "event"
    game: Annotated[int, _ID]
    event: Annotated[Event, _EVENT]
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class GameOver:
    """The end: the outcome, the whole deck in order (the reveal) and the seed that shuffled it."""

    TYPE: ClassVar[str] = "game_over"
    game: Annotated[int, _ID]
    outcome: Annotated[Outcome, _OUTCOME]
    deck: Annotated[tuple[Card, ...], ListOf(_CARD, ew.MAX_DECK)]
    seed: Annotated[str, Text(0, SEED_MAX)]
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class GetReplay:
    TYPE: ClassVar[str] = "get_replay"
    game: Annotated[int, _ID]
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class ReplayFile:
    """A finished game as hanab.live JSON text."""

    TYPE: ClassVar[str] = "replay"
    game: Annotated[int, _ID]
    json: Annotated[str, Text(2, REPLAY_MAX, multiline=True)]
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class ListGames:
    """The finished games; with ``seed``, only those dealt from that seed text (who else played it)."""

    TYPE: ClassVar[str] = "list_games"
    id: Id = None
    seed: Annotated[str | None, Opt(_SEED_TEXT)] = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class Games:
    """Finished games, newest first, at most LIST_MAX; ``total`` says how many there are when some were left out."""

    TYPE: ClassVar[str] = "games"
    games: Annotated[tuple[GameSummary, ...], ListOf(Record(GameSummary), LIST_MAX)]
    id: Id = None
    total: Annotated[int | None, Opt(Int(0, MAX_SAFE_INT))] = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class GetStats:
    """The asker's own record over the finished games the server keeps: answered by ``stats``."""

    TYPE: ClassVar[str] = "get_stats"
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class Stats:
    """``name``'s record: one line per player count and variant they finished a game of (none: no game yet),
    fewest players first, then in the variants' order."""

    TYPE: ClassVar[str] = "stats"
    name: Annotated[str, _NAME]
    lines: Annotated[tuple[StatsLine, ...], ListOf(Record(StatsLine), STATS_LINES_MAX)]
    id: Id = None


# Review together (version 3): after a game, or of any finished game, everyone at a table follows one leader.
# A step is a position in the game: 0 the deal, n the game after its n-th turn (the last: its end).
_STEP = Int(0, ew.MAX_TURN + 1)
_ORDER = Int(0, ew.MAX_DECK - 1)


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class OpenReview:
    """The host has the table review finished game ``game`` together (between games)."""

    TYPE: ClassVar[str] = "open_review"
    game: Annotated[int, _ID]
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class WriteNote:
    """Write one's note on the card of ``order`` (any card one has seen drawn); the empty text deletes it."""

    TYPE: ClassVar[str] = "write_note"
    order: Annotated[int, Int(0, ew.MAX_DECK - 1)]
    text: Annotated[str, Text(0, NOTE_MAX)] = ""
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class Review:
    """Where the table's review is: its game, who leads it, the step shown, the card pointed at (or nil).
    Sent to everyone at the table at each change, and to whoever arrives (after the game's ``replay``)."""

    TYPE: ClassVar[str] = "review"
    table: Annotated[int, _ID]
    game: Annotated[int, _ID]
    leader: Annotated[str, _NAME]
    step: Annotated[int, _STEP]
    last: Annotated[int, _STEP]
    pointer: Annotated[int | None, Opt(_ORDER)] = None
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class ReviewStep:
    """The leader shows step ``step`` to everyone (beyond the last step: the last)."""

    TYPE: ClassVar[str] = "review_step"
    step: Annotated[int, _STEP]
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class ReviewPoint:
    """The leader points everyone at the card of order ``order`` (nil: points at nothing)."""

    TYPE: ClassVar[str] = "review_point"
    order: Annotated[int | None, Opt(_ORDER)] = None
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class ReviewLead:
    """The leader (or the host) hands the lead to ``name``, who is at the table (seated or watching)."""

    TYPE: ClassVar[str] = "review_lead"
    name: Annotated[str, _NAME]
    id: Id = None


# What if (version 3): in the table's review, the leader plays on from the step shown with moves the game never had.
def _action_from_wire(value: object, where: str) -> _TurnAction:
    return ew.action_from_wire(as_map(value, where), where)


_ACTION: Spec[_TurnAction] = Custom(_action_from_wire, _engine_value((Play, Discard, Clue), ew.action_to_wire),
                                    "map: an action (kind, order, target, colour, rank)")


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class HypoStart:
    """The review's leader starts a what if from the step everyone sees (one under way starts again there)."""

    TYPE: ClassVar[str] = "hypo_start"
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class HypoAction:
    """The leader makes ``action`` in the what if, for the seat whose turn it is there."""

    TYPE: ClassVar[str] = "hypo_action"
    action: Annotated[_TurnAction, _ACTION]
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class HypoBot:
    """The leader has the house bot make the what if's next move, for the seat to act, from that seat's view."""

    TYPE: ClassVar[str] = "hypo_bot"
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class HypoBack:
    """The leader takes back the what if's last move."""

    TYPE: ClassVar[str] = "hypo_back"
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class HypoReveal:
    """The leader shows (``shown`` true) or hides the cards drawn during the what if."""

    TYPE: ClassVar[str] = "hypo_reveal"
    shown: Annotated[bool, Bool()]
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class HypoEnd:
    """The leader leaves the what if: everyone is back at the real game's step."""

    TYPE: ClassVar[str] = "hypo_end"
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class Hypothetical:
    """The table's what if: from ``step`` of game ``game``, the moves ``actions`` (in turn order), and whether the
    cards drawn during it show. ``step`` nil: there is none (the review shows the real game). Sent to everyone at
    the table at each change, and to whoever arrives while one is under way (after the ``review``)."""

    TYPE: ClassVar[str] = "hypothetical"
    table: Annotated[int, _ID]
    game: Annotated[int, _ID]
    step: Annotated[int | None, Opt(_STEP)]
    actions: Annotated[tuple[_TurnAction, ...], ListOf(_ACTION, ew.MAX_ARRAY)] = ()
    revealed: Annotated[bool, Bool()] = False
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class CardNotes:
    """Every note the player at ``seat`` has written in ``game``, in card order: the whole set, which replaces
    what the receiver held for that seat. Sent to the seat itself, to spectators, and to everyone once the game
    is over; never to another seat while it runs."""

    TYPE: ClassVar[str] = "notes"
    game: Annotated[int, _ID]
    seat: Annotated[int, _SEAT]
    notes: Annotated[tuple[CardNote, ...], ListOf(Record(CardNote), ew.MAX_DECK)]
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class BotReason:
    """Why a house bot made its move of ``turn``, in a sentence. Sent after the move's view, to the seats whose
    own cards the sentence does not name, and to spectators; the rest get it when the game ends."""

    TYPE: ClassVar[str] = "bot_reason"
    game: Annotated[int, _ID]
    turn: Annotated[int, Int(0, MAX_SAFE_INT)]
    seat: Annotated[int, _SEAT]
    reason: Annotated[str, Text(1, SENTENCE_MAX)]
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class GetAdvice:
    """Ask the coach what the house bot would do in one's seat now: on one's own turn, at a table whose host
    allowed advice. Answered by ``advice``; the game is marked as played with advice."""

    TYPE: ClassVar[str] = "get_advice"
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class AdviceReply:
    """The coach's answer to ``get_advice``, to the asker only: the house bot's move for the seat, decided from
    that seat's view alone, why, and the convention behind it with the section of docs/bots.md about it."""

    TYPE: ClassVar[str] = "advice"
    game: Annotated[int, _ID]
    turn: Annotated[int, Int(0, MAX_SAFE_INT)]
    move: Annotated[str, Text(1, SENTENCE_MAX)]
    reason: Annotated[str, Text(1, SENTENCE_MAX)]
    convention: Annotated[str, Text(1, SENTENCE_MAX)]
    section: Annotated[str, Text(1, SENTENCE_MAX)]
    id: Id = None


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class PauseRequest:
    """A seated player pauses the game (``paused`` true) or lets it go on (false)."""

    TYPE: ClassVar[str] = "pause"
    paused: Annotated[bool, Bool()]
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class GameClock:
    """The game's clocks and pause, sent to everyone at the table whenever either changes (and on joining).

    ``remaining`` is each seat's time bank in milliseconds as the message left (empty for an untimed game);
    ``running`` is the seat whose bank is running down now (None while paused, untimed or over), which a client
    counts down by itself until the next ``clock``. ``note`` says who paused and why; ``paused_by`` names the
    player who paused it by hand (None while it goes on, or while it pauses itself for an absent player);
    ``resumed_by``, only in the clock that answers a resume by hand, names who let it go on."""

    TYPE: ClassVar[str] = "clock"
    game: Annotated[int, _ID]
    remaining: Annotated[tuple[int, ...], ListOf(Int(0, MAX_SAFE_INT), MAX_PLAYERS)]
    running: Annotated[int | None, Opt(_SEAT)]
    paused: Annotated[bool, Bool()]
    note: Annotated[str, _SENTENCE] = ""
    paused_by: Annotated[str | None, Opt(_NAME)] = None
    resumed_by: Annotated[str | None, Opt(_NAME)] = None
    id: Id = None


class PreMoveKind(enum.Enum):
    PLAY = "play"
    DISCARD = "discard"


@_message("client")
@dataclasses.dataclass(frozen=True, slots=True)
class QueueMove:
    """Queue a play or discard of one's own card ``order`` for one's next turn; ``kind`` None cancels it (and
    ``order`` is then not read)."""

    TYPE: ClassVar[str] = "premove"
    kind: Annotated[PreMoveKind | None, Opt(Choice(PreMoveKind))] = None
    order: Annotated[int | None, Opt(Int(0, ew.MAX_DECK - 1))] = None
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class Queued:
    """To one seat only: its pre-move now (``kind`` None: none queued) and ``note``, why it changed."""

    TYPE: ClassVar[str] = "queued"
    game: Annotated[int, _ID]
    kind: Annotated[PreMoveKind | None, Opt(Choice(PreMoveKind))] = None
    order: Annotated[int | None, Opt(Int(0, ew.MAX_DECK - 1))] = None
    note: Annotated[str, _SENTENCE] = ""
    id: Id = None


# Chat, liveness, errors


@_message("both")
@dataclasses.dataclass(frozen=True, slots=True)
class Chat:
    """Table chat. A client sends ``text``; the server relays it with ``table`` and ``sender`` set."""

    TYPE: ClassVar[str] = "chat"
    text: Annotated[str, Text(1, CHAT_MAX)]
    table: Annotated[int | None, Opt(_ID)] = None
    sender: Annotated[str | None, Opt(_NAME)] = None
    id: Id = None


@_message("both")
@dataclasses.dataclass(frozen=True, slots=True)
class Ping:
    TYPE: ClassVar[str] = "ping"
    n: Annotated[int, _ID] = 0
    id: Id = None


@_message("both")
@dataclasses.dataclass(frozen=True, slots=True)
class Pong:
    """The answer to ``ping``, with the same ``n``."""

    TYPE: ClassVar[str] = "pong"
    n: Annotated[int, _ID] = 0
    id: Id = None


@_message("server")
@dataclasses.dataclass(frozen=True, slots=True)
class ErrorReply:
    """A request was refused. ``request`` is the type of that request ("" if unreadable), ``code`` an
    ``ErrorCode`` value, ``message`` a sentence for a person; ``id`` is the request's id."""

    TYPE: ClassVar[str] = "error"
    request: Annotated[str, Text(0, IDENT_MAX)]
    code: Annotated[str, Ident()]
    message: Annotated[str, _SENTENCE]
    id: Id = None

    @classmethod
    def for_error(cls, error: ProtocolError) -> ErrorReply:
        """The reply to a request the decoder refused (non-fatal ``ProtocolError``)."""
        return cls(error.request or "", error.code, error.message[:SENTENCE_MAX], error.id)


Message = (
    Hello | Welcome | Goodbye | ListTables | Tables | TableChanged | TableGone | CreateTable | Join | Leave
    | Spectate | AddBot | RemoveBot | GiveHost | Start | Joined | SeatStatus | GameStarted | ActionRequest
    | RearrangeRequest | ViewUpdate | GameEvent | GameOver | GetReplay | ReplayFile | ListGames | Games | Chat
    | Ping | Pong | ErrorReply | ListOnline | Online | Watchers | OpenReview | Review | ReviewStep | ReviewPoint
    | ReviewLead | HandSeat | SeatHanded | WriteNote | CardNotes | BotReason | PauseRequest | GameClock | QueueMove
    | Queued | GetStats | Stats | WatchSeat | WatchingSeat | HypoStart | HypoAction | HypoBot | HypoBack
    | HypoReveal | HypoEnd | Hypothetical | GetAdvice | AdviceReply
)


# -- whole messages <-> wire maps ----------------------------------------------------------------


# A view's history on one connection: the game and every event of it received so far. A ``view`` message
# sends only the events from ``since`` on (see framing.Encoder); the receiver adds them to this.
History = tuple[int, tuple[Event, ...]]


def to_wire(message: Message, since: int = 0) -> dict[str, Any]:
    """The frame's map: ``{"v": 2, "t": TYPE, ...fields}``. Raises ProtocolError(bad_field) for a bad field.

    For a ``view``, ``since`` is how many events of the game's history the receiver already holds: the map
    carries only the events after them (0: the whole history).
    """
    cls = type(message)
    kind = MESSAGE_TYPES.get(getattr(cls, "TYPE", None) or "")
    if kind is not cls:
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"{message!r} is not a protocol message")
    out: dict[str, Any] = {"v": PROTOCOL_VERSION, "t": cls.TYPE}
    try:
        if cls is ActionRequest:
            assert isinstance(message, ActionRequest)
            out.update(ew.action_to_wire(message.action))
            out["id"] = _OPT_ID.encode(message.id, f"{cls.TYPE}.id")
        elif cls is ViewUpdate:
            assert isinstance(message, ViewUpdate)
            game, request_id = view_envelope(message, since)
            out.update(game=game, since=since, view=ew.view_to_wire(message.view, since), id=request_id)
        else:
            _fields_to_wire(message, cls.TYPE, out)
    except FieldError as exc:
        raise cannot_send(message, exc) from None
    return out


def view_envelope(message: ViewUpdate, since: int) -> tuple[object, object]:
    """A ``view`` message's game and id, checked with its view and ``since``; raises FieldError."""
    view = message.view
    if type(view) is not PlayerView:
        raise FieldError("view.view", f"expected PlayerView, got {view!r:.60}")
    if not 0 <= since <= len(view.events):
        raise FieldError("view.since", f"{since} is not within the view's {len(view.events)} events")
    return _ID.encode(message.game, "view.game"), _OPT_ID.encode(message.id, "view.id")


def cannot_send(message: Message, error: FieldError) -> ProtocolError:
    """The error for a message with a bad field, which the protocol will not carry."""
    return ProtocolError(ErrorCode.BAD_FIELD, f"cannot send {message.TYPE}: {error}", request=message.TYPE,
                         id=getattr(message, "id", None))


_ENVELOPE = frozenset({"v", "t"})
_TYPE_NAME = Ident(IDENT_MAX)
_OPT_ID = Opt(_ID)


def from_wire(tree: object, accept: frozenset[str] | set[str] | None = None, history: History | None = None) -> Message:
    """Check a decoded frame and build its message; ``accept`` limits the types allowed (None: all).

    ``history`` is what the connection received of the latest game's history
    (the ``Decoder`` keeps it): a ``view`` whose ``since`` is not 0 continues
    it, and its message holds the whole history again.

    Raises ``ProtocolError``: ``bad_frame`` if it is not a map with a string
    "t", ``protocol_version`` for a frame of another version (handshake
    messages excepted), ``unknown_type``, ``bad_field``, or ``history_gap``
    for a view that continues a history other than ``history``.
    """
    if type(tree) is not dict:
        raise ProtocolError(ErrorCode.BAD_FRAME, f"a frame must hold one msgpack map, not {kind_of(tree)}")
    kind = tree.get("t")
    raw_id = tree.get("id")
    req_id = raw_id if type(raw_id) is int and 0 <= raw_id <= MAX_SAFE_INT else None
    request = kind if type(kind) is str and _TYPE_NAME.matches(kind) else None
    if type(kind) is not str:
        raise ProtocolError(ErrorCode.BAD_FRAME, f'the frame\'s "t" must be a message type string, not {kind_of(kind)}',
                            id=req_id)
    version = tree.get("v")
    if type(version) is not int:
        raise ProtocolError(ErrorCode.BAD_FRAME, f'the frame\'s "v" must be the protocol version (an integer), '
                                                 f"not {kind_of(version)}", request=request, id=req_id)
    if version != PROTOCOL_VERSION and kind not in HANDSHAKE_TYPES:
        raise ProtocolError(ErrorCode.PROTOCOL_VERSION, f"this side speaks protocol {PROTOCOL_VERSION}, "
                                                        f"the frame is of protocol {version}", request=request,
                            id=req_id, fatal=True)
    cls = MESSAGE_TYPES.get(kind)
    if cls is None or (accept is not None and kind not in accept):
        why = f"no message of protocol {PROTOCOL_VERSION}" if cls is None else "not one this side accepts"
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"{quote(kind)} is {why}", request=request, id=req_id)
    outer = start_message()
    message: Message
    try:
        if cls is ViewUpdate:
            message = _view_from_tree(tree, req_id, raw_id, history)
        else:
            message = _message_from_tree(cls, kind, tree, req_id, raw_id)
    except FieldError as exc:
        raise ProtocolError(ErrorCode.BAD_FIELD, str(exc), request=request, id=req_id) from None
    except RecursionError:
        raise ProtocolError(ErrorCode.BAD_FRAME, "the frame nests too deeply", request=request, id=req_id) from None
    finally:
        end_message(outer)
    return message


def _message_from_tree(cls: type, kind: str, tree: dict[Any, Any], req_id: int | None, raw_id: object) -> Message:
    """The message of a frame whose envelope is fine; raises FieldError."""
    for key in tree:
        if type(key) is not str:
            raise FieldError(kind, f"map keys must be strings, found {kind_of(key)}")
    if cls is not ActionRequest:
        message: Message = _fields_from_wire(cls, tree, kind, _ENVELOPE)
        return message
    if raw_id is not None and req_id is None:
        _OPT_ID.decode(raw_id, f"{kind}.id")  # raises: say what is wrong with the id
    action = ew.action_from_wire(tree, kind)
    unknown = tree.keys() - _ACTION_KEYS - _ENVELOPE - {"id"}
    for key in unknown:
        check_plain(tree[key], f"{kind}.{key}")
    return ActionRequest(action, req_id)


_SINCE = Opt(Int(0, ew.MAX_EVENTS))
_VIEW_UPDATE_KEYS = frozenset({"v", "t", "game", "since", "view", "id"})


def _view_from_tree(tree: dict[Any, Any], req_id: int | None, raw_id: object, history: History | None) -> ViewUpdate:
    """A ``view`` message: its events continue ``history`` from event ``since`` (0: they are the whole history)."""
    for key in tree:
        if type(key) is not str:
            raise FieldError("view", f"map keys must be strings, found {kind_of(key)}")
    if raw_id is not None and req_id is None:
        _OPT_ID.decode(raw_id, "view.id")  # raises: say what is wrong with the id
    if "game" not in tree:
        raise FieldError("view.game", f"missing ({_ID.describe()})")
    game = _ID.decode(tree["game"], "view.game")
    since = _SINCE.decode(tree.get("since"), "view.since") or 0
    before: tuple[Event, ...] = ()
    if since:
        if history is None or history[0] != game:
            got = "no view yet" if history is None else f"the history of game {history[0]}, not {game}"
            raise ProtocolError(ErrorCode.HISTORY_GAP, f"view.since: this view of game {game} continues its history "
                                                       f"from event {since}, but this connection has received {got}; "
                                                       "reconnect to get the whole history again",
                                request="view", id=req_id, fatal=True)
        if len(history[1]) != since:
            raise ProtocolError(ErrorCode.HISTORY_GAP, f"view.since: this view of game {game} continues its history "
                                                       f"from event {since}, but this connection has received "
                                                       f"{len(history[1])} events of it; reconnect to get the whole "
                                                       "history again", request="view", id=req_id, fatal=True)
        before = history[1]
    if "view" not in tree:
        raise FieldError("view.view", f"missing ({_VIEW.describe()})")
    view = ew.view_from_wire(tree["view"], "view.view", before)
    for key in tree.keys() - _VIEW_UPDATE_KEYS:  # tolerated for forward compatibility, but still plain msgpack
        check_plain(tree[key], f"view.{key}")
    return ViewUpdate(game, view, req_id)
