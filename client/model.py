"""What the client believes the table looks like: a value, and the pure reducer that updates it.

``reduce(model, message)`` takes a server message (or one of the client's own
``Local`` notes about its connection) and returns the next model; it does no
I/O and keeps no hidden state, so it is tested without any event loop. The
screen is drawn from the model alone. The model keeps what the server said
(tables, our seat, the latest redacted view, the outcome) plus what a player
reads: the action log, built from the view's public events, and the chat.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from hanabi.engine import Event, Hands, PlayerView, TurnEvent, hands_after, opening_hands
from hanabi.engine.coach import advice_lines
from hanabi.engine.replay import handed_on
from hanabi.protocol import ErrorCode
from hanabi.protocol.messages import (
    AdviceReply,
    BotReason,
    CardNotes,
    Chat,
    ErrorReply,
    GameClock,
    GameOver,
    Games,
    GameStarted,
    GameSummary,
    Goodbye,
    Hello,
    Hypothetical,
    Joined,
    Message,
    Online,
    Queued,
    ReplayFile,
    Review,
    SeatHanded,
    SeatStatus,
    Stats,
    TableChanged,
    TableGone,
    TableInfo,
    Tables,
    ViewUpdate,
    Watchers,
    WatchingSeat,
    Welcome,
)
from prompt_toolkit.formatted_text import StyleAndTextTuples

from .board import bank_words, opening, seat_name
from .history import describe

_M = TypeVar("_M")

LOG_LINES_KEPT = 2000
CHAT_LINES_KEPT = 500


class Link(enum.Enum):
    """The state of the connection to the server, as the status bar says it."""

    OFFLINE = "offline"
    CONNECTING = "connecting"
    ONLINE = "online"
    RECONNECTING = "reconnecting"
    CLOSED = "closed"
    REPLAY = "replay"  # no server at all: a saved game on screen


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of the log; ``kind`` is "event", "chat" or "notice" (a wide screen shows chat apart)."""

    kind: str
    fragments: StyleAndTextTuples


@dataclass(frozen=True, slots=True)
class ClientModel:
    address: str = ""
    link: Link = Link.OFFLINE
    player: str = ""
    resume: str | None = None
    motd: str = ""
    tables: tuple[TableInfo, ...] = ()
    table: TableInfo | None = None
    seat: int | None = None  # our seat at ``table``; None with a table means spectating
    watching_as: int | None = None  # spectating: the seat whose view the server sends us (None: every hand)
    game: int | None = None
    view: PlayerView | None = None
    game_over: GameOver | None = None  # the server's word on the end: the outcome, the deck and the seed
    log: tuple[LogLine, ...] = ()
    logged_events: int = 0  # how many of the view's events the log already tells
    hands: Hands = ()  # the hands after the last logged event, to name slots in the next line
    chat: tuple[tuple[str, str], ...] = ()
    status: str = ""
    status_error: bool = False
    status_turn: int | None = None  # the turn shown when the status was said (None: before any view)
    # The status is news the log keeps, or a mistake: it goes once something newer happens (a line of the log
    # other than chat, our turn, a form opened), so that it never reads as what is true now when it no longer is.
    status_news: bool = False
    turn_told: tuple[int | None, int] | None = None  # the (game, turn) whose start "Your turn." last said
    replay: tuple[int, str] | None = None  # (game, replay JSON) once the server sent it
    farewell: str | None = None  # why the server closed the connection
    seat_names: tuple[str, ...] = ()  # names when there is no table (an offline replay)
    rejoining: bool = False  # welcomed back while at a table: waiting for the server to say we still are
    name_refused: str = ""  # why the server refused our hello's name, until we choose another
    bot_reasons: tuple[BotReason, ...] = ()  # why the bots of this game made their moves, as far as we may read
    clock: GameClock | None = None  # the game's clocks and pause, as the server last said them
    clock_at: float | None = None  # when that clock arrived (time.monotonic), to count down from; None: unknown
    # Cut off while a bank ran: the banks where they were stopped and the turn then, until the next clock with
    # banks says how they stand (a server restarted from its store gives back the time used since its last save).
    clock_held: tuple[tuple[int, ...], int] | None = None
    premove: Queued | None = None  # the move we queued for our next turn, if any
    premove_unsure: Queued | None = None  # back at the table: the move we had queued, until the server says it holds it
    # The notes on cards of the current game that the server let us see: (writer's seat, card order, text),
    # in seat then card order. Our own while the game runs; a spectator's and everyone's at the end: all seats'.
    card_notes: tuple[tuple[int, int, str], ...] = ()
    review: Review | None = None  # where our table's review is (the game is ``replay``'s)
    hypothetical: Hypothetical | None = None  # the review's what if, while its leader plays one (``review``'s game)
    watchers: tuple[str, ...] = ()  # who watches our table
    online: tuple[str, ...] = ()  # who is connected to the server
    online_total: int | None = None  # how many, when ``online`` leaves some out
    # The latest finished games the server listed: ours first (the history), or those of one seed (who else
    # played our seed).
    games: tuple[GameSummary, ...] = ()
    games_total: int | None = None  # how many it keeps, when ``games`` leaves some out
    stats: Stats | None = None  # our record over the server's finished games, as it last sent it
    # The running game's seats that changed hands: (turn, seat, name), who played the seat from that turn on, as
    # ``joined`` and ``seat_handed`` said; the log names by them who made each move.
    holders: tuple[tuple[int, int, str], ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """The name at each seat of our table (empty seats get a placeholder)."""
        if self.table is None:
            return self.seat_names
        return tuple(p.name if p is not None else f"seat {i + 1}" for i, p in enumerate(self.table.players))

    def names_at(self, turn: int) -> tuple[str, ...]:
        """Who held each seat at ``turn`` of the game shown: the seat's holder then, where it changed hands."""
        names = list(self.names)
        for start, seat, name in self.holders:  # in the order they were handed: the last one begun by ``turn``
            if start <= turn and 0 <= seat < len(names):
                names[seat] = name
        return tuple(names)

    @property
    def in_game(self) -> bool:
        return self.view is not None

    @property
    def is_host(self) -> bool:
        return self.table is not None and self.seat is not None and self.table.host == self.seat


def with_status(model: ClientModel, text: str, error: bool = False, news: bool = False) -> ClientModel:
    """The model saying ``text`` on its status line; ``news`` (as any ``error``): it goes with something newer."""
    return replace(model, status=text, status_error=error, status_news=bool(text) and (news or error),
                   status_turn=model.view.turn if model.view is not None else None)


def outdated(model: ClientModel) -> ClientModel:
    """The model with its status taken away if it is news (or a mistake) that something newer has followed; on
    our turn the status goes back to saying so (a clock's note after a reconnection must not take it away)."""
    if not model.status_news:
        return model
    return with_status(model, "Your turn.", news=True) if _our_turn(model, model.view) else with_status(model, "")


def log_new_events(model: ClientModel, view: PlayerView) -> ClientModel:
    """Append a log line for each event of ``view`` the log does not tell yet."""
    events = view.events
    start = model.logged_events
    hands = model.hands
    if start > len(events) or not hands:
        # A new game (or a view we cannot follow from what we have): start from the deal.
        start = 0
        hands = opening_hands(view.config)
    lines = list(model.log)
    turn = next((e.turn + 1 for e in reversed(events[:start]) if isinstance(e, TurnEvent)), 0)
    for event in events[start:]:
        # The turn number first, as on the physical table's score pad; a rearrangement is not a turn.
        number = f"{event.turn + 1:>3} " if isinstance(event, TurnEvent) else "    "
        turn = event.turn if isinstance(event, TurnEvent) else turn  # a rearrangement: in the turn to come
        names = model.names_at(turn)  # who held each seat then, not who holds it now
        lines.append(LogLine("event", [("class:log.turn", number), *describe(event, hands, names, view.deck_size)]))
        hands = hands_after(hands, event)
        turn += isinstance(event, TurnEvent)
    if len(events) > start:
        model = outdated(model)  # a newer line of the log
    return replace(model, log=tuple(lines[-LOG_LINES_KEPT:]), logged_events=len(events), hands=hands)


def add_log(model: ClientModel, kind: str, fragments: StyleAndTextTuples) -> ClientModel:
    """The model with one more line in its log; a line other than chat is newer than news on the status line."""
    model = model if kind == "chat" else outdated(model)
    return replace(model, log=(*model.log, LogLine(kind, fragments))[-LOG_LINES_KEPT:])


def seats_taken(table: TableInfo) -> int:
    return sum(1 for p in table.players if p is not None)


# -- the client's own notes, reduced like server messages ---------------------------------------


@dataclass(frozen=True, slots=True)
class Note:
    """A line for the status bar (and the log when ``log`` is set), from the client itself."""

    text: str
    error: bool = False
    log: bool = False


@dataclass(frozen=True, slots=True)
class LinkChanged:
    link: Link
    address: str = ""
    detail: str = ""
    at: float | None = None  # when it changed (time.monotonic), stamped by the store as it is dispatched


@dataclass(frozen=True, slots=True)
class LeftTable:
    """We asked to leave our table; the server has nothing to answer but the tables' changes."""


@dataclass(frozen=True, slots=True)
class ClockAt:
    """A ``clock`` from the server and the moment it arrived (time.monotonic), stamped as it came in."""

    clock: GameClock
    at: float


@dataclass(frozen=True, slots=True)
class NameChosen:
    """The player typed another name after the server refused theirs; the session says hello with it next."""

    name: str


@dataclass(frozen=True, slots=True)
class Newer:
    """Something newer happened on the screen (a line typed, a form opened, a request sent): news or a mistake on
    the status line goes, as it does with the log's next line (``outdated``)."""


Local = Note | LinkChanged | LeftTable | ClockAt | NameChosen | Newer
Incoming = Message | Local


def _upsert(tables: tuple[TableInfo, ...], table: TableInfo) -> tuple[TableInfo, ...]:
    rest = [t for t in tables if t.id != table.id]
    return tuple(sorted([*rest, table], key=lambda t: t.id))


def _notice(model: ClientModel, text: str) -> ClientModel:
    return add_log(model, "notice", [("class:log.notice", text)])


def _game_changed(model: ClientModel, game: int | None) -> ClientModel:
    """``game`` (or none) is the game shown now: nothing of the last one (its end, where its log stands, its notes,
    its bots' reasons) may read as this one's."""
    return replace(model, game=game, game_over=None, logged_events=0, hands=(), card_notes=(), bot_reasons=())


def _game_reset(model: ClientModel, game: int | None) -> ClientModel:
    """As ``_game_changed``, and nothing shown of a game until the server sends it: no view, clock, pre-move or
    review."""
    return replace(_game_changed(model, game), view=None, clock=None, clock_at=None, clock_held=None, premove=None,
                   premove_unsure=None, review=None, hypothetical=None)


def _leave(model: ClientModel) -> ClientModel:
    return replace(_game_reset(model, None), table=None, seat=None, watchers=(), watching_as=None)


def _note(model: ClientModel, message: Note) -> ClientModel:
    if message.log:
        return with_status(_notice(model, message.text), message.text, message.error, news=True)
    return with_status(model, message.text, message.error)


def _link_changed(model: ClientModel, message: LinkChanged) -> ClientModel:
    out = replace(model, link=message.link, address=message.address or model.address)
    clock = model.clock
    if (model.link is Link.ONLINE and message.link is not Link.ONLINE and clock is not None
            and clock.running is not None and clock.running < len(clock.remaining)
            and model.clock_at is not None and message.at is not None):
        # Cut off, we no longer know whether the bank runs (a server that went away keeps the banks it stored):
        # stop counting it down where it stands; the next ``clock`` after the reconnection says how it stands.
        remaining = list(clock.remaining)
        remaining[clock.running] = max(0, remaining[clock.running] - int((message.at - model.clock_at) * 1000))
        held = (tuple(remaining), model.view.turn) if model.view is not None else None
        out = replace(out, clock=replace(clock, remaining=tuple(remaining)), clock_at=None, clock_held=held)
    if message.detail:
        out = with_status(out, message.detail, message.link is not Link.ONLINE)
    return out


def _left_table(model: ClientModel, message: LeftTable) -> ClientModel:
    return with_status(_leave(model), "You left the table.")


def _welcome(model: ClientModel, message: Welcome) -> ClientModel:
    out = replace(model, link=Link.ONLINE, player=message.player, resume=message.resume, motd=message.motd,
                  farewell=None, rejoining=model.table is not None)
    if model.link is Link.RECONNECTING:
        playing = model.view is not None and model.view.outcome is None
        return with_status(_notice(out, "Reconnected."),
                           f"Reconnected as {message.player}{': the game goes on' if playing else ''}.", news=True)
    return with_status(out, f"Connected as {message.player}.")


def _name_chosen(model: ClientModel, message: NameChosen) -> ClientModel:
    return with_status(replace(model, name_refused=""), f"Connecting as {message.name}…")


def _goodbye(model: ClientModel, message: Goodbye) -> ClientModel:
    text = message.message or message.reason.replace("_", " ")
    return with_status(replace(model, farewell=text), f"The server said goodbye: {text}", True)


# -- the lobby's tables, and ours -----------------------------------------------------------------


def _tables(model: ClientModel, message: Tables) -> ClientModel:
    tables = tuple(sorted(message.tables, key=lambda t: t.id))
    if model.rejoining and model.table is not None:
        # The server answers the client's first request after the welcome only once it has sent the
        # ``joined`` of a seat it kept for us; none came, so we are no longer at that table (a spectator
        # who lost the connection, a table closed meanwhile). Leave it rather than show it frozen.
        gone = model.table.name
        model = with_status(_notice(_leave(model), f"Back in the lobby: not at table {gone!r} any more."),
                            f"You are no longer at table {gone!r}: choose a table (s watches it again).")
    model = replace(model, rejoining=False)
    mine = model.table
    if mine is not None:
        mine = next((t for t in tables if t.id == mine.id), mine)
    return replace(model, tables=tables, table=mine)


def _table_changed(model: ClientModel, message: TableChanged) -> ClientModel:
    table = message.table
    out = replace(model, tables=_upsert(model.tables, table))
    if model.table is not None and model.table.id == table.id:
        out = replace(out, table=table)
    return out


def _table_gone(model: ClientModel, message: TableGone) -> ClientModel:
    out = replace(model, tables=tuple(t for t in model.tables if t.id != message.table))
    if model.table is not None and model.table.id == message.table:
        out = with_status(_leave(out), f"{opening(message.reason, model.names)}." if message.reason
                          else "Your table was closed.", True)
    return out


def _joined(model: ClientModel, message: Joined) -> ClientModel:
    table = message.table
    out = replace(model, tables=_upsert(model.tables, table), table=table, seat=message.seat, rejoining=False)
    if model.table is None or model.table.id != table.id:
        # Another table: nothing of the last one (its log, its chat) may read as this one's.
        out = replace(_game_reset(out, None), chat=(), log=(), watchers=())
    # Back at a table (a reconnection): its next view says whose turn it is, even if it is the one last said.
    out = replace(out, holders=tuple((h.turn, h.seat, h.name) for h in message.holders), turn_told=None)
    # A seat sees its own view; a spectator every hand, unless ``watching_seat`` follows (a resume while watching
    # as a seat: the server says so right after ``joined``; after its restart it does not).
    # A pre-move is the server's to keep: one it still holds is sent again right after (``queued``), before the
    # seat's ``notes``; none after a restart, which keeps no pre-move (said when the notes come).
    out = replace(out, watching_as=None, premove=None, premove_unsure=model.premove or model.premove_unsure)
    where = f"seat {message.seat + 1}" if message.seat is not None else "a spectator's chair"
    return with_status(out, f"You are at table {table.name!r}, {where}.")


# -- the game at our table ------------------------------------------------------------------------


def _game_started(model: ClientModel, message: GameStarted) -> ClientModel:
    # The log says no game number: the server's numbers count every game on the server, not this table's.
    if model.game_over is not None:
        # The end of the last game showed its result; the log keeps it once that screen is gone.
        done = model.game_over.outcome
        model = _notice(model, f"— the last game ended {done.score}/{done.max_score}: {done.rating} —")
    out = replace(_game_reset(model, message.game), replay=None, holders=())
    out = _notice(out, "— a new game starts —")
    return with_status(out, "The game starts.", news=True)


def _view_update(model: ClientModel, message: ViewUpdate) -> ClientModel:
    out = model
    if model.game != message.game:
        out = replace(_game_changed(out, message.game), replay=None)
    if model.status and model.view is not None and message.view.turn != model.view.turn and (
            model.status_error or model.status_turn is None or message.view.turn >= model.status_turn + 2
            or message.view.current == message.view.seat):
        # A refusal was about an earlier turn; left on screen it reads like news about this one. News and refusals
        # also go with the log's next line (``outdated``); any other status ("Note written", "You are at table…")
        # stays through the next move, and goes by the one after or when our turn comes.
        out = with_status(out, "")
    out = log_new_events(replace(out, view=message.view), message.view)
    return _your_turn(out, message.game, message.view)


def _your_turn(model: ClientModel, game: int, view: PlayerView) -> ClientModel:
    """Said once at the start of each of our turns, and again when we come back to the table on our turn (a
    reconnection, the server's restart): the board's header says it too, but a player looks at the status line."""
    if not _our_turn(model, view) or model.turn_told == (game, view.turn):
        return model
    return replace(with_status(model, "Your turn.", news=True), turn_told=(game, view.turn))


def _our_turn(model: ClientModel, view: PlayerView | None) -> bool:
    """It is our own seat's turn in a game still running (not a seat we only watch as)."""
    return (view is not None and model.seat is not None and model.watching_as is None and view.seat == model.seat
            and view.outcome is None and view.current == view.seat)


def _game_over(model: ClientModel, message: GameOver) -> ClientModel:
    # The score is said once, by the end of the game's pane; the log only marks where this game ended,
    # as it marks where it started.
    # The record asked for at the end (app.py) counts this game; the one held before does not.
    return with_status(_notice(replace(model, game_over=message, stats=None), "— the game ends —"), "")


def _at_table(step: Callable[[ClientModel, _M], ClientModel]) -> Callable[[ClientModel, _M], ClientModel]:
    """``step``, for a game of our table only: the game of a table we left (the server tells its end to everyone
    who was there, us included), shown, would bring back an end screen whose keys act on a table we are no longer
    at."""
    def checked(model: ClientModel, message: _M) -> ClientModel:
        return model if model.table is None else step(model, message)
    return checked


def _replay_file(model: ClientModel, message: ReplayFile) -> ClientModel:
    return replace(model, replay=(message.game, message.json))


def _bot_reason(model: ClientModel, message: BotReason) -> ClientModel:
    if message.game != model.game:
        return model
    kept = tuple(r for r in model.bot_reasons if r.turn != message.turn)
    return replace(model, bot_reasons=tuple(sorted((*kept, message), key=lambda r: r.turn)))


def _chat(model: ClientModel, message: Chat) -> ClientModel:
    sender = message.sender or "?"
    chat = (*model.chat, (sender, message.text))[-CHAT_LINES_KEPT:]
    line: StyleAndTextTuples = [("class:chat.sender", f"<{sender}> "), ("class:chat", message.text)]
    return add_log(replace(model, chat=chat), "chat", line)


def _advice(model: ClientModel, message: AdviceReply) -> ClientModel:
    """The coach's answer: the move on the status line; the move, why, and where to read more, in the log."""
    if message.game != model.game:
        return model  # about a game no longer shown
    move, convention = advice_lines(message.move, message.reason, message.convention, message.section)
    # The move and why on the status line (two lines, wrapped at words): a small screen's log shows a fragment.
    out = _notice(_notice(model, f"Coach, turn {message.turn + 1}: {move}"), f"  {convention}")
    return with_status(out, f"Coach: {message.move} — {message.reason}", news=True)


def _error(model: ClientModel, message: ErrorReply) -> ClientModel:
    if message.request == Hello.TYPE and model.link is not Link.ONLINE:
        # A hello refused before any welcome: its name, the only thing of it a player chooses; we ask for another.
        # (After the welcome, a hello's refusal is of its resume token: bad_resume, below.)
        return with_status(replace(model, name_refused=message.message),
                           f"{message.message}. Type another name (Ctrl-C quits)", True)
    if message.code == ErrorCode.BAD_RESUME.value:
        # Not a refusal of anything the player did: a token kept from another server (or from this one before its
        # store was reset) found no seat, and the server let us in as new. If we were at a table, we are in its
        # lobby now, and the old table must not stay on screen as if we could still play at it.
        out = _notice(_leave(model), "The server no longer knows this seat: back in the lobby.") \
            if model.table is not None else model
        return with_status(out, "This server does not know your earlier seat (its store may have been reset): "
                                "you are in the lobby.", news=True)
    out = model
    # The server's sentence, with the key that answers it here (the server names no client's keys).
    key = " (z lets it go on)" if message.code == ErrorCode.GAME_PAUSED.value and model.seat is not None else ""
    return with_status(out, f"Refused: {message.message}{key}", True)


def offline_problem(model: ClientModel) -> str | None:
    """Why a request cannot go to the server now, or None when it can.

    Said on the key press: a request typed while the link is down would otherwise vanish without a word
    (the session drops what was queued for a connection that broke, since it may no longer make sense).
    """
    link = model.link
    if link is Link.RECONNECTING:
        return "not connected — reconnecting; try again once back"
    if link in (Link.CONNECTING, Link.OFFLINE):
        return "not connected yet — still trying to reach the server; try again once connected"
    if link is Link.CLOSED:
        return "not connected — this connection is over: Ctrl-C quits, then start hanabi-client again"
    return None


def reduce(model: ClientModel, message: Incoming) -> ClientModel:
    """The model after ``message``. Pure: the same model and message always give the same result."""
    step = _REDUCERS.get(type(message))
    # ping, pong, event (the view carries the events), and requests a server never sends: nothing changes.
    return model if step is None else step(model, message)


def last_bot_move(model: ClientModel, events: Sequence[Event] | None = None) -> tuple[int, int] | None:
    """(turn, seat) of the latest turn a bot (the server's or a ``hanabi-bot``) took in this game, from ``events``
    (the view's when None: the game as it stands; a review's step gives the events up to it) and the table's
    seats."""
    view, table = model.view, model.table
    if events is None:
        if view is None:
            return None
        events = view.events
    if table is None:
        return None
    for event in reversed(events):
        if isinstance(event, TurnEvent):
            holder = table.players[event.seat] if 0 <= event.seat < len(table.players) else None
            if holder is not None and holder.plays_as_bot:
                return event.turn, event.seat
    return None


def _time(model: ClientModel, message: GameClock | ClockAt | Queued) -> ClientModel:
    """A clock (stamped with its arrival, or not), or our pre-move as the server says it now."""
    if isinstance(message, Queued):
        out = replace(model, premove=message if message.kind is not None else None, premove_unsure=None)
        view = model.view
        orders = [card.order for card in view.hands[view.seat]] if view is not None and view.seat is not None else []
        if message.kind is not None and message.order in orders:
            # The server's sentence, with what only the client knows: the slot as the player sees it, and the key.
            slot = orders.index(message.order) + 1
            return with_status(out, f"Queued: your {message.kind.value} of slot {slot} is made at the start of "
                                    "your turn (u cancels it).")
        # Why it went (made, cancelled, refused at the turn) is news: it goes when something newer happens.
        return with_status(out, opening(message.note, model.names) + ".", news=True) if message.note else out
    clock, at = (message.clock, message.at) if isinstance(message, ClockAt) else (message, None)
    if model.table is None or (model.game is not None and clock.game != model.game):
        return model  # a clock of a game we no longer show (one from the table we just left: not in the lobby)
    out = replace(model, clock=clock, clock_at=at)
    if model.clock_held is not None and clock.remaining:
        out = _restored(replace(out, clock_held=None), model.clock_held)
    was = model.clock
    if clock.paused and (was is None or not was.paused or was.note != clock.note):
        # Told by the log's newest line and the clock's line: the status line under them would only repeat it.
        return with_status(_notice(out, f"Paused: {clock.note}."), "")
    if not clock.paused and was is not None and was.paused:
        text = f"{clock.resumed_by} let the game go on." if clock.resumed_by else "The game goes on."
        return with_status(_notice(out, text), "")
    return out


RESTORED_GRACE = 1000  # ms: a bank found higher than it stood by less than this is the two counts' rounding


def _restored(model: ClientModel, held: tuple[tuple[int, ...], int]) -> ClientModel:
    """Back after a cut: a bank higher than it stood when we were cut off, no move made since (no bonus earned),
    is one the server took from its last save (it restarted): said once, in the log, or the time given back
    would go unexplained."""
    banks, turn = held
    clock, view = model.clock, model.view
    if clock is None or view is None or view.turn != turn or len(banks) != len(clock.remaining):
        return model
    back = [seat for seat, (was, now) in enumerate(zip(banks, clock.remaining, strict=True))
            if now - was >= RESTORED_GRACE]
    if not back:
        return model
    shown = ", ".join(bank_words(model.names, seat, clock.remaining[seat] / 1000) for seat in back)
    return _notice(model, f"Clocks restored from the server's last save: {shown} (the time used since that save "
                          "is given back).")


def with_card_notes(model: ClientModel, message: CardNotes) -> ClientModel:
    """The model holding ``message.seat``'s notes as the server now says they are (the whole set replaces what
    we held for that seat); notes of a game other than ours are stale and dropped."""
    if message.game != model.game:
        return model
    lost = model.premove_unsure
    if lost is not None and lost.kind is not None:  # the notes came, and no ``queued`` before them
        text = f"Your queued {lost.kind.value} was not kept (the server restarted): queue it again if you want it."
        model = with_status(_notice(replace(model, premove_unsure=None), text), text, news=True)
    kept = [entry for entry in model.card_notes if entry[0] != message.seat]
    kept += [(message.seat, note.order, note.text) for note in message.notes]
    return replace(model, card_notes=tuple(sorted(kept)))


def _seat_status(model: ClientModel, message: SeatStatus) -> ClientModel:
    table = model.table
    if table is None or table.id != message.table or not 0 <= message.seat < len(table.players):
        return model
    seat = table.players[message.seat]
    if seat is None or seat.connected == message.connected:
        return model
    players = list(table.players)
    players[message.seat] = replace(seat, connected=message.connected)
    new = replace(table, players=tuple(players))
    out = replace(model, table=new, tables=_upsert(model.tables, new))
    # A player who quit (Ctrl-C) still holds the seat, which waits for them (the row says "(away)"): not "left",
    # which is leaving the table. The host is told how to hand the seat on.
    running = model.view is not None and model.view.outcome is None
    hand_on = " (H hands it on)" if model.is_host and running else ""  # client/handing.py's key
    gone = f"quit; the seat waits for them{hand_on}" if message.left else "lost their connection"
    text = f"{seat.name} is back." if message.connected else f"{seat.name} {gone}."
    return _notice(out, text)


def _handed(model: ClientModel, seat: int, previous: str, name: str, turn: int) -> tuple[tuple[int, int, str], ...]:
    """The holders once ``seat`` went from ``previous`` to ``name`` at ``turn``, by the engine's rule
    (``handed_on``)."""
    added = handed_on((s for _, s, _ in model.holders), seat, turn, previous, name)
    return (*model.holders, *((h.turn, h.seat, h.name) for h in added))


def _seat_handed(model: ClientModel, message: SeatHanded) -> ClientModel:
    """The host gave a seat on (server/lobby.py): to us, away from us while we were away, or between others."""
    if message.turn is not None and model.table is not None and model.table.id == message.table:
        model = replace(model, holders=_handed(model, message.seat, message.previous, message.name, message.turn))
    seat = f"seat {message.seat + 1}"
    at = model.table is not None and model.table.id == message.table
    # By its name when the lobby's list holds it (it may not yet, just back from away), else by its number.
    name = next((t.name for t in model.tables if t.id == message.table), None)
    table = f"table {name!r}" if name is not None else f"table {message.table}"
    if message.name == model.player and not message.bot:
        # The ``joined`` of the seat came just before: we sit there now.
        text = f"{message.by} handed you {seat} at {table}, which was {message.previous}'s."
        return with_status(_notice(model, text), f"{text} You play from here on.", news=True)
    if message.previous == model.player or (at and model.seat == message.seat):
        who = "a house bot" if message.bot else message.name
        text = f"While you were away, {message.by} gave your {seat} at {table} to {who}."
        out = _leave(model) if at and model.seat == message.seat else model
        return with_status(_notice(replace(out, rejoining=False), text),
                           f"{text} You are in the lobby: ask {message.by} to hand it back.", True)
    if at:
        who = f"{message.name} (a house bot)" if message.bot else message.name
        return _notice(model, f"{message.by} gave {message.previous}'s {seat} to {who}.")
    return model


def _watching_seat(model: ClientModel, message: WatchingSeat) -> ClientModel:
    """We watch as ``message.seat`` from now on (None: every hand): the notes of other seats are no longer ours to
    read (the server sends the seat's own after this)."""
    if model.table is None or model.table.id != message.table:
        return model
    seat = message.seat
    notes = model.card_notes if seat is None else tuple(n for n in model.card_notes if n[0] == seat)
    out = replace(model, watching_as=seat, card_notes=notes)
    if seat is None:
        return with_status(out, "Watching every hand. v watches as one player.")
    return with_status(out, f"Watching as {seat_name(model.names, seat)} sees the game: their own cards hidden. "
                            "v: the next player, then every hand.")


def _here(model: ClientModel, message: Review | Watchers | Online | Games) -> ClientModel:
    """Who is here and what was played: the table's review and watchers, who is online, the finished games."""
    if isinstance(message, Online):
        return replace(model, online=message.players, online_total=message.total)
    if isinstance(message, Games):
        return replace(model, games=message.games, games_total=message.total or len(message.games))
    if model.table is None or model.table.id != message.table:
        return model  # about a table we are no longer at
    if isinstance(message, Watchers):
        return replace(model, watchers=message.names)
    if model.review is None or model.review.game != message.game:
        model = _notice(model, f"— {message.leader} leads a review of game {message.game}: ←→ step on your own, "
                               "f follows them —")
        model = replace(model, hypothetical=None)  # another game's what if, if any, is over
    elif model.review.leader != message.leader:  # handed on, or taken over when the leader left: say who leads
        said = "You lead the review now: everyone sees your steps." if message.leader == model.player \
            else f"{message.leader} leads the review now: f follows them."
        model = with_status(model, said)
    return replace(model, review=message)


def _hypothetical(model: ClientModel, message: Hypothetical) -> ClientModel:
    """The review's what if as its leader plays it (``step`` None: over, the real game again)."""
    if model.table is None or model.table.id != message.table:
        return model
    if message.step is None:
        return replace(model, hypothetical=None)
    if model.hypothetical is None:
        leader = model.review.leader if model.review is not None else "the leader"
        model = _notice(model, f"— {leader} asks what if: moves the game never had, from step {message.step} —")
    return replace(model, hypothetical=message)


# One function per kind of message; what the model makes of each is in that function alone.
_REDUCERS: dict[type, Callable[[ClientModel, Any], ClientModel]] = {
    Note: _note,
    Newer: lambda model, _: outdated(model),
    LinkChanged: _link_changed,
    NameChosen: _name_chosen,
    LeftTable: _left_table,
    Welcome: _welcome,
    Goodbye: _goodbye,
    Tables: _tables,
    TableChanged: _table_changed,
    TableGone: _table_gone,
    Joined: _joined,
    SeatStatus: _seat_status,
    SeatHanded: _seat_handed,
    GameStarted: _at_table(_game_started),
    ViewUpdate: _at_table(_view_update),
    GameOver: _at_table(_game_over),
    GameClock: _time,
    ClockAt: _time,
    Queued: _time,
    ReplayFile: _replay_file,
    BotReason: _bot_reason,
    AdviceReply: _advice,
    CardNotes: with_card_notes,
    Chat: _chat,
    Review: _here,
    Watchers: _here,
    Online: _here,
    Games: _here,
    Stats: lambda model, message: replace(model, stats=message),
    WatchingSeat: _watching_seat,
    Hypothetical: _hypothetical,
    ErrorReply: _error,
}
