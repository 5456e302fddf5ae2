"""One table: its seats, host, spectators and game, owned by one task that applies requests in order.

Connections never touch a table's state; they hand a request to ``call``
and wait for it to be done (or refused). The table's task takes requests one
at a time, checks them, writes what changed to the store, and only then
updates its state and tells everyone: a player's move is on disk before any
view shows it. Every frame to a seat is built from ``view_for(state, seat)``
alone, so nothing a seat may not see can reach it.

Bots' turns run beside the task (a delay, then the bot's choice in a worker
thread) and come back through the same queue as everybody's requests.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import trio
from hanabi.engine import (
    Action,
    ChatPolicy,
    Event,
    GameConfig,
    GameState,
    IllegalAction,
    PlayerView,
    Rearrange,
    TurnAction,
    Variant,
    apply,
    new_game,
    reveal,
    terminate,
    view_for,
    views_for,
)

from . import wire
from .bots import decide
from .handoff import Inbox, Reply
from .jsontext import replay_text
from .session import Outbox, Player, Refused
from .store import StoredTable, StoreFailure

if TYPE_CHECKING:
    from .lobby import Lobby

log = logging.getLogger(__name__)
E = wire.ErrorCode


def hash_password(password: str) -> str:
    salt = secrets.token_hex(8)
    return salt + "$" + hashlib.sha256((salt + password).encode()).hexdigest()


def password_matches(stored: str, given: str) -> bool:
    salt, _, digest = stored.partition("$")
    return hmac.compare_digest(digest, hashlib.sha256((salt + given).encode()).hexdigest())


def _kind(request: object) -> str:
    """A request's wire type name ("hello"), never a Python class name."""
    return str(getattr(request, "TYPE", "such"))


def seat_label(seat: int) -> str:
    """A seat as people read it: the protocol counts seats from 0, every screen from 1."""
    return f"seat {seat + 1}"


def _duration(seconds: float) -> str:
    if seconds >= 60:
        minutes = round(seconds / 60, 1)
        return f"{minutes:g} minute{'s' if minutes != 1 else ''}"
    return f"{seconds:g} second{'s' if seconds != 1 else ''}"


def _table_label(table: Table) -> str:
    return f"table {table.name!r}"


def already_seated(table: Table, seat: int, here: bool = False) -> Refused:
    where = "this table" if here else _table_label(table)
    return Refused(E.ALREADY_SEATED, f"you already sit at {where}, in {seat_label(seat)}: leave it first")


@dataclass(slots=True)
class Seat:
    name: str
    player: Player | None  # None for a bot
    bot: bool = False


@dataclass(slots=True)
class Game:
    id: int
    seed: str
    names: tuple[str, ...]
    state: GameState
    seq: int = 0  # actions written to the store so far
    rearranged: dict[int, int] = field(default_factory=dict)  # seat -> rearrangements during turn ``rearranged_turn``
    rearranged_turn: int = -1

    @property
    def running(self) -> bool:
        return not self.state.over


@dataclass(slots=True)
class BotMove:
    """A bot's chosen action, coming back into the table's queue."""

    game: int
    turn: int
    seat: int
    action: TurnAction


@dataclass(slots=True)
class Abandoned:
    """No seated human has been connected since ``since`` for the configured time: close the table."""

    since: float


@dataclass(slots=True)
class CloseIfEmpty:
    """Its creator could not sit down at a new table: close it rather than leave an empty table listed."""

    why: str


@dataclass(slots=True)
class _RetryBot:
    """A bot's move failed to be saved a moment ago: let it choose again."""


class _Call(Reply):
    """A request on its way to the table's task; the caller waits for it to be carried out (or refused), or,
    for a move, its connection takes it in hand (``Outbox.hand_over``) and a refusal goes straight to it."""

    __slots__ = ("conn", "error", "handed", "player", "request")

    def __init__(self, player: Player | None, request: object, conn: Outbox | None) -> None:
        super().__init__()
        self.player = player
        self.request = request
        self.conn = conn  # the connection the player made the request on
        self.error: Refused | None = None
        self.handed = False  # no one waits in ``call``: the refusal, if any, is sent from here

    def finish(self) -> None:
        if self.handed and self.error is not None and self.conn is not None:
            self.conn.refused(self.request, self.error)
        super().finish()


class Table:
    def __init__(self, lobby: Lobby, id: int, name: str, variant: Variant, empty_clues: bool,
                 all_or_nothing: bool, chat: ChatPolicy, size: int, password: str | None) -> None:
        self.lobby = lobby
        self.id = id
        self.name = name
        self.variant = variant
        self.empty_clues = empty_clues
        self.all_or_nothing = all_or_nothing
        self.chat = chat
        self.size = size
        self.password = password  # salted hash, or None for an open table
        self.host: int | None = None
        self.seats: list[Seat | None] = [None] * size
        self.spectators: set[Player] = set()
        self.game: Game | None = None  # the running game, or the last one
        self.closed = False
        self._bot_pending: tuple[int, int] | None = None  # (game, turn) a bot is thinking about
        self._inbox: Inbox[_Call] = Inbox(64)
        # The last views sent: the next move's views reuse the hands it left alone.
        self._views: list[PlayerView] = []
        self._nursery: trio.Nursery | None = None
        # Since when no seated human has been connected (None: someone is), and the clock that closes the table.
        self._away_since: float | None = None
        self._away_clock: trio.CancelScope | None = None

    # --- the task ---------------------------------------------------------------------------------------------

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            task_status.started()
            self._schedule_bot()
            self._watch_absence()  # a restored table starts with everyone away
            while not self.closed:
                await self._process(await self._inbox.get())
            nursery.cancel_scope.cancel()
        # Requests that arrived after the table closed are answered, not left waiting.
        for call in self._inbox.close():
            call.error = self._gone()
            call.finish()

    async def call(self, player: Player | None, request: object) -> None:
        """Have the table's task carry out ``request``; raises ``Refused`` when it is refused."""
        if self.closed:
            raise self._gone()
        conn = player.conn if player is not None else None
        call = _Call(player, request, conn)
        # A move (every request of a game but a few) is handed to the connection instead of waited for here:
        # the connection waits for it only before it takes its next request (Connection._settle), so requests
        # are still carried out and answered one at a time, but the reader is not woken just to go back to
        # reading, which cost every move a task switch.
        call.handed = conn is not None and isinstance(request, wire.ActionRequest)
        try:
            await self._inbox.put(call)
        except trio.ClosedResourceError:
            raise self._gone() from None
        if call.handed:
            assert conn is not None
            conn.hand_over(call)
            return
        await call.wait()
        if call.error is not None:
            raise call.error

    def _gone(self) -> Refused:
        return Refused(E.NO_SUCH_TABLE, f"table {self.id} ({self.name}) has closed")

    async def _process(self, call: _Call) -> None:
        player = call.player
        if player is not None and player.conn is not None and player.conn is not call.conn:
            # Made on a connection a newer one has replaced since (it is closing): two connections must never
            # act for one player, or both could be seated somewhere at once.
            call.error = Refused(E.NOT_LOGGED_IN, "this connection was replaced by a newer one: request dropped")
            call.finish()
            return
        try:
            await self._handle(call.player, call.request)
        except Refused as refusal:
            call.error = refusal
        except StoreFailure as e:
            # Nothing changed: every handler writes to the store before it changes the table.
            log.error("table %d: %r not saved: %s", self.id, call.request, e)
            call.error = Refused(E.INTERNAL, "the server could not save this (its disk or store failed, not "
                                             "your fault): nothing changed; try again in a moment")
            if isinstance(call.request, BotMove):
                self._retry_bot()
        except Exception:
            log.exception("table %d failed on %r", self.id, call.request)
            call.error = Refused(E.INTERNAL, "the server failed on this request (its fault, not yours); "
                                             "it has been logged")
        finally:
            call.finish()

    async def _handle(self, player: Player | None, request: object) -> None:
        if isinstance(request, wire.ActionRequest) and player is not None:  # nearly every request: asked first
            await self._act(player, request.action)
            return
        if isinstance(request, BotMove):
            await self._bot_move(request)
            return
        if isinstance(request, Abandoned):
            await self._abandoned(request)
            return
        if isinstance(request, CloseIfEmpty):
            if self.humans == 0 and not self.closed:
                await self.close(request.why)
            return
        if isinstance(request, _RetryBot):
            self._bot_pending = None
            self._schedule_bot()
            return
        assert player is not None
        if isinstance(request, wire.Join):
            await self._join(player, request.seat, request.password, request.id)
        elif isinstance(request, wire.Spectate):
            self._spectate(player, request.password, request.id)
        elif isinstance(request, wire.Leave):
            await self._leave(player)
        elif isinstance(request, wire.RearrangeRequest):
            await self._act(player, Rearrange(self._seat_of(player), tuple(request.hand)))
        elif isinstance(request, wire.Start):
            await self._start(player)
        elif isinstance(request, wire.AddBot):
            await self._add_bot(player, request.seat)
        elif isinstance(request, wire.RemoveBot):
            await self._remove_bot(player, request.seat)
        elif isinstance(request, wire.GiveHost):
            await self._give_host(player, request.seat)
        elif isinstance(request, wire.Chat):
            self._chat(player, request.text)
        else:
            raise Refused(E.UNKNOWN_TYPE, f"a table does not handle {_kind(request)} requests")

    # --- who is here --------------------------------------------------------------------------------------------

    def members(self) -> list[Player]:
        seated = [s.player for s in self.seats if s is not None and s.player is not None]
        return seated + list(self.spectators)

    @property
    def humans(self) -> int:
        return sum(1 for s in self.seats if s is not None and not s.bot)

    @property
    def running(self) -> bool:
        return self.game is not None and self.game.running

    def info(self) -> wire.TableInfo:
        return wire.TableInfo(
            id=self.id, name=self.name, variant=self.variant, empty_clues=self.empty_clues,
            all_or_nothing=self.all_or_nothing, chat=self.chat, seats=self.size,
            players=tuple(None if s is None else wire.SeatInfo(name=s.name, bot=s.bot,
                                                               connected=s.bot or (s.player is not None
                                                                                   and s.player.online))
                          for s in self.seats),
            has_password=self.password is not None, running=self.running,
            spectators=sum(1 for p in self.spectators if p.online), host=self.host)

    def _seat_of(self, player: Player) -> int:
        if player.table is not self or player.seat is None:
            raise Refused(E.NOT_SEATED, "only players seated at this table can do that")
        return player.seat

    def _host_only(self, player: Player, what: str) -> bool:
        """Refuse unless ``player`` is the host or may stand in for an away host; True in the latter case, when
        the caller must ``_take_host`` once the request's own checks have passed (a refused request changes
        nothing, the host included)."""
        seat = self._seat_of(player)
        if seat == self.host:
            return False
        host = self.seats[self.host] if self.host is not None else None
        if host is None or host.player is None or not host.player.online:
            return True  # the host is away: a seated player takes the role rather than leave the table stuck
        raise Refused(E.NOT_HOST, f"only the host can {what}; the host is {host.name}")

    async def _take_host(self, player: Player) -> None:
        seat = self._seat_of(player)
        await self.lobby.store.set_host(self.id, seat)
        self.host = seat
        self.changed()

    def _between_games(self, what: str) -> None:
        if self.running:
            raise Refused(E.GAME_RUNNING, f"cannot {what} while a game is running")

    def _check_password(self, given: str | None) -> None:
        if self.password is None:
            return
        if given is None:
            raise Refused(E.WRONG_PASSWORD, f"table {self.name!r} has a password: give it to join or watch")
        if not password_matches(self.password, given):
            raise Refused(E.WRONG_PASSWORD, f"that is not the password of table {self.name!r}")

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.size:
            raise Refused(E.BAD_FIELD, f"there is no {seat_label(seat)}: this table has seats 1 to {self.size}")

    # --- telling people -----------------------------------------------------------------------------------------

    def _to_members(self, frame: bytes) -> None:
        for p in self.members():
            p.send_frame(frame)

    def changed(self) -> None:
        """Everyone at the table and in the lobby learns the table's new public state."""
        frame = wire.frame(wire.TableChanged(table=self.info()))
        self._to_members(frame)
        self.lobby.to_lobby(frame)

    def _send_view(self, player: Player) -> None:
        """The current view of ``player`` (seat or spectator), if there is a game to show."""
        if self.game is None or player.table is not self:
            return
        player.send(wire.ViewUpdate(game=self.game.id, view=view_for(self.game.state, player.seat)))

    def _publish(self, event: Event | None) -> None:
        """After a change: the event (public) and each seat's own view; one spectator view for all spectators."""
        game = self.game
        assert game is not None
        state = game.state
        event_frame = wire.frame(wire.GameEvent(game=game.id, event=event)) if event is not None else b""
        # The connections to send to, and whose view each gets (None: a spectator's). What ``Player.send`` does
        # for one player is done here for all of them: this runs for every move of every table.
        conns: list[Outbox] = []
        seats: list[int | None] = []
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.player is not None and (conn := seat.player.conn) is not None:
                conns.append(conn)
                seats.append(index)
        watching = [p.conn for p in self.spectators if p.conn is not None]
        if watching:
            conns.append(watching[0])
            seats.append(None)
        # The views are built together (they share every card they may all see) and each connection encodes
        # its own, sending only the events it has not sent yet.
        views = views_for(state, seats, self._views)
        self._views = views
        for conn, view in zip(conns, views, strict=True):
            conn.send_frame(event_frame + conn.encode(wire.ViewUpdate(game=game.id, view=view)))
        for conn in watching[1:]:
            conn.send_frame(event_frame + conn.encode(wire.ViewUpdate(game=game.id, view=views[-1])))

    def _game_over(self) -> None:
        game = self.game
        assert game is not None and game.state.outcome is not None
        self._views = []  # nothing of this game's views is of use to the next
        shown = reveal(game.state)
        frame = wire.frame(wire.GameOver(game=game.id, outcome=shown.outcome, deck=shown.deck, seed=game.seed))
        frame += wire.frame(wire.ReplayFile(game=game.id, json=replay_text(game.state, game.names)))
        self._to_members(frame)

    # --- connections coming and going ---------------------------------------------------------------------------

    def welcome_back(self, player: Player) -> None:
        """``player`` reconnected: their seat (or spectator place) and the current view, at once."""
        player.send_frame(wire.frame(wire.Joined(table=self.info(), seat=player.seat)))
        self._send_view(player)
        if player.seat is not None:
            self._seat_status(player.seat, True)
            self._watch_absence()
        else:
            self.changed()  # one more spectator watching

    def connection_lost(self, player: Player) -> None:
        """A dropped connection keeps its place, seat or spectator's, for when the player resumes."""
        if player.seat is None:
            self.changed()  # one spectator fewer watching (the count is of those connected)
        else:
            self._seat_status(player.seat, False)
            self._watch_absence()

    def _watch_absence(self) -> None:
        """Start the clock that closes a table whose seated humans are all away (``ServerConfig.abandon_after``),
        or stop it once one of them is back. Runs in whatever task noticed the change; the closing itself goes
        through the table's queue like any request."""
        limit = self.lobby.config.abandon_after
        away = self.humans > 0 and not any(s is not None and s.player is not None and s.player.online
                                           for s in self.seats)
        if not away or limit is None:
            self._away_since = None
            if self._away_clock is not None:
                self._away_clock.cancel()
                self._away_clock = None
            return
        if self._away_since is not None or self._nursery is None or self.closed:
            return  # already counting (or not running)
        self._away_since = since = trio.current_time()
        self._away_clock = clock = trio.CancelScope()
        try:
            self._nursery.start_soon(self._close_when_abandoned, clock, since, limit)
        except RuntimeError:  # the table's task has ended (the server is stopping): no clock to keep
            self._away_since = self._away_clock = None

    async def _close_when_abandoned(self, clock: trio.CancelScope, since: float, limit: float) -> None:
        with clock:
            await trio.sleep(limit)
            with contextlib.suppress(Refused):  # closed meanwhile
                await self.call(None, Abandoned(since))

    async def _abandoned(self, request: Abandoned) -> None:
        if self._away_since != request.since:
            return  # someone came back while this was queued
        limit = self.lobby.config.abandon_after or 0
        why = f"every player was away for {_duration(limit)}"
        if self.running:
            await self._end_game(why)
        await self.close(why)

    def _seat_status(self, seat: int, connected: bool) -> None:
        self._to_members(wire.frame(wire.SeatStatus(table=self.id, seat=seat, connected=connected)))
        self.lobby.to_lobby(wire.frame(wire.TableChanged(table=self.info())))

    # --- requests -----------------------------------------------------------------------------------------------

    async def _join(self, player: Player, seat: int | None, password: str | None, request_id: int | None) -> None:
        if player.table is not None and player.seat is not None:
            raise already_seated(player.table, player.seat, here=player.table is self)
        self._check_password(password)
        if seat is None:
            free = [i for i, s in enumerate(self.seats) if s is None]
            if not free:
                raise Refused(E.TABLE_FULL, f"every seat of table {self.name!r} is taken: you can watch instead")
            seat = free[0]
        self._check_seat(seat)
        taken = self.seats[seat]
        if taken is not None:
            raise Refused(E.SEAT_TAKEN, f"{seat_label(seat)} is taken by {taken.name}")
        store = self.lobby.store
        # The seat is claimed before the store is written to: while this task waits for the store, another
        # table's task (or a request from the player's other connection) must already see the player seated,
        # or one player could sit in two seats and be sent the view of each.
        watched = player.table  # a table the player was watching (this one or another), or None
        if watched is not None:
            watched.spectators.discard(player)
        claimed = Seat(player.name, player)
        self.seats[seat] = claimed
        player.table, player.seat = self, seat
        try:
            await store.set_seat(self.id, seat, bot=False, name=player.name, key=player.key)
        except BaseException:
            if self.seats[seat] is claimed:
                self.seats[seat] = None
            if player.table is self and player.seat == seat:
                player.table, player.seat = watched, None
                if watched is not None and not watched.closed:
                    watched.spectators.add(player)
                else:
                    player.table = None
            raise
        if watched is not None and watched is not self:
            watched.changed()
        self._watch_absence()
        if self.host is None:
            self.host = seat
            await store.set_host(self.id, seat)
        player.send_frame(wire.frame(wire.Joined(table=self.info(), seat=seat, id=request_id)))
        self._send_view(player)
        self.changed()

    def _spectate(self, player: Player, password: str | None, request_id: int | None) -> None:
        if player.table is not None and player.seat is not None:
            raise Refused(E.ALREADY_SEATED, f"you sit at {_table_label(player.table)}, in {seat_label(player.seat)}: "
                                            "leave it before watching")
        self._check_password(password)
        if player.table is not None and player.table is not self:
            old = player.table
            old.spectators.discard(player)
            old.changed()
        self.spectators.add(player)
        player.table, player.seat = self, None
        player.send_frame(wire.frame(wire.Joined(table=self.info(), seat=None, id=request_id)))
        self._send_view(player)
        self.changed()

    async def _leave(self, player: Player) -> None:
        if player.table is not self:
            raise Refused(E.NOT_SEATED, "you are not at this table")
        if player.seat is None:
            self.spectators.discard(player)
            player.table = None
            self.changed()
            return
        seat = player.seat
        if self.game is not None and self.game.running:
            await self._end_game(f"{player.name} left the table")
        await self.lobby.store.clear_seat(self.id, seat)
        self.seats[seat] = None
        player.table, player.seat = None, None
        if self.humans == 0:
            await self.close()
            return
        self._watch_absence()  # the one who left may have been the only one connected
        if self.host == seat:
            self.host = next(i for i, s in enumerate(self.seats) if s is not None and not s.bot)
            await self.lobby.store.set_host(self.id, self.host)
        self.changed()

    async def close(self, why: str = "no one is left") -> None:
        """The last human left (or all were away too long): the table goes away (its games stay in the store)."""
        self.closed = True
        await self.lobby.store.close_table(self.id)
        log.info("table %d (%s) closed: %s", self.id, self.name, why)
        frame = wire.frame(wire.TableGone(table=self.id))
        members = self.members()
        for p in members:
            p.table, p.seat = None, None
            p.send_frame(frame)
        self.spectators.clear()
        self.lobby.table_closed(self, frame, members)

    async def _start(self, player: Player) -> None:
        takeover = self._host_only(player, "start a game")
        self._between_games("start a new game")
        empty = [i for i, s in enumerate(self.seats) if s is None]
        if empty:
            raise Refused(E.NOT_READY, f"{seat_label(empty[0])} is empty: wait for a player or add a bot")
        if takeover:
            await self._take_host(player)
        config = GameConfig(players=self.size, variant=self.variant, empty_clues=self.empty_clues,
                            all_or_nothing=self.all_or_nothing, chat=self.chat)
        seed = secrets.token_hex(8)
        names = tuple(s.name for s in self.seats if s is not None)
        game_id = await self.lobby.store.start_game(self.id, config, seed, names)
        self.game = Game(game_id, seed, names, new_game(config, seed))
        log.info("table %d (%s): game %d started: %s", self.id, self.name, game_id, ", ".join(names))
        self._to_members(wire.frame(wire.GameStarted(table=self.id, game=game_id)))
        self._publish(None)
        self.changed()
        self._schedule_bot()

    async def _act(self, player: Player, action: Action) -> None:
        seat = self._seat_of(player)
        game = self.game
        if game is None or not game.running:
            raise Refused(E.GAME_NOT_RUNNING, "no game is running at this table")
        if not isinstance(action, Rearrange) and game.state.current != seat:
            current = game.state.current
            raise Refused(E.NOT_YOUR_TURN, f"it is {game.names[current]}'s turn, not yours")
        if isinstance(action, Rearrange):
            self._count_rearrangement(game, seat)
        try:
            new = apply(game.state, action, seat=seat)
        except IllegalAction as e:
            raise Refused(E.ILLEGAL_ACTION, str(e)) from None
        await self._commit(game, action, new)
        if isinstance(action, Rearrange):  # counted once saved: a refused one does not use up the limit
            game.rearranged[seat] = game.rearranged.get(seat, 0) + 1

    def _count_rearrangement(self, game: Game, seat: int) -> None:
        """Refuse a rearrangement past the limit per seat and turn: each one lengthens every view's history."""
        if game.rearranged_turn != game.state.turn:
            game.rearranged_turn = game.state.turn
            game.rearranged.clear()
        limit = self.lobby.config.rearranges_per_turn
        if game.rearranged.get(seat, 0) >= limit:
            raise Refused(E.RATE_LIMITED, f"you have rearranged your hand {limit} times this turn, the most "
                                          "allowed: you can again once the next turn is taken")

    async def _commit(self, game: Game, action: Action, new: GameState) -> None:
        """Write the action, then show it: nobody sees a move the store does not hold."""
        await self.lobby.store.add_action(game.id, game.seq, action)
        game.seq += 1
        game.state = new
        self._publish(new.events[-1])
        if new.outcome is not None:
            try:
                await self.lobby.store.finish_game(game.id, new.outcome.score, new.outcome.reason.value)
            except StoreFailure as e:
                # The last action is saved, so the game is over all the same: everyone is told so now, and a
                # restart marks it finished from its actions (Lobby.restore).
                log.error("game %d: its end could not be saved (marked on the next start): %s", game.id, e)
            log.info("table %d (%s): game %d over: %d/%d, %s", self.id, self.name, game.id, new.outcome.score,
                     new.outcome.max_score, new.outcome.reason.value)
            self._game_over()
            self.changed()
        else:
            self._schedule_bot()

    async def _end_game(self, why: str) -> None:
        game = self.game
        assert game is not None
        ended = terminate(game.state, why)
        await self.lobby.store.finish_game(game.id, 0, "terminated")
        game.state = ended
        self._publish(None)  # everyone's last view shows the game over, as after a last move
        self._game_over()

    async def _add_bot(self, player: Player, seat: int) -> None:
        takeover = self._host_only(player, "add a bot")
        self._between_games("add a bot")
        self._check_seat(seat)
        taken = self.seats[seat]
        if taken is not None:
            raise Refused(E.SEAT_TAKEN, f"{seat_label(seat)} is taken by {taken.name}")
        if takeover:
            await self._take_host(player)
        used = {s.name for s in self.seats if s is not None}
        name = next(n for n in (*self.lobby.bot_names, *(f"Bot {i}" for i in range(99))) if n not in used)
        await self.lobby.store.set_seat(self.id, seat, bot=True, name=name, key=None)
        self.seats[seat] = Seat(name, None, bot=True)
        self.changed()

    async def _remove_bot(self, player: Player, seat: int) -> None:
        takeover = self._host_only(player, "remove a bot")
        self._between_games("remove a bot")
        self._check_seat(seat)
        s = self.seats[seat]
        if s is None:
            raise Refused(E.BAD_FIELD, f"{seat_label(seat)} is empty: there is no bot to remove")
        if not s.bot:
            raise Refused(E.BAD_FIELD, f"{s.name} is not a bot: only bots can be removed")
        if takeover:
            await self._take_host(player)
        await self.lobby.store.clear_seat(self.id, seat)
        self.seats[seat] = None
        self.changed()

    async def _give_host(self, player: Player, seat: int) -> None:
        self._host_only(player, "hand the host role on")  # giving the role away needs no taking it first
        self._check_seat(seat)
        s = self.seats[seat]
        if s is None:
            raise Refused(E.BAD_FIELD, f"{seat_label(seat)} is empty: only a seated player can be host")
        if s.bot:
            raise Refused(E.BAD_FIELD, f"{s.name} is a bot: only a human player can be host")
        self.host = seat
        await self.lobby.store.set_host(self.id, seat)
        self.changed()

    def _chat(self, player: Player, text: str) -> None:
        if player.table is not self:
            raise Refused(E.NOT_SEATED, "you are not at this table")
        if self.chat is ChatPolicy.OFF:
            raise Refused(E.CHAT_DISABLED, "chat is off at this table")
        if self.running:
            if self.chat is ChatPolicy.BETWEEN_GAMES:
                raise Refused(E.CHAT_DISABLED, "at this table chat is open only between games")
            if player.seat is None:
                # Spectators see every hand; a word from them could leak it.
                raise Refused(E.CHAT_DISABLED, "spectators can chat only between games: they see every hand")
        self._to_members(wire.frame(wire.Chat(table=self.id, sender=player.name, text=text)))

    # --- bots ---------------------------------------------------------------------------------------------------

    def _schedule_bot(self) -> None:
        game = self.game
        if game is None or not game.running or self._nursery is None:
            return
        state = game.state
        seat = self.seats[state.current]
        key = (game.id, state.turn)
        if seat is None or not seat.bot or self._bot_pending == key:
            return
        self._bot_pending = key
        self._nursery.start_soon(self._bot_turn, game.id, state.turn, state.current, view_for(state, state.current))

    def _retry_bot(self) -> None:
        """A bot's move could not be saved: it chooses again after a pause, or the game would wait for ever."""
        if self._nursery is None:
            return

        async def later() -> None:
            await trio.sleep(1.0)
            with contextlib.suppress(Refused):  # the table closed meanwhile
                await self.call(None, _RetryBot())

        self._nursery.start_soon(later)

    async def _bot_turn(self, game: int, turn: int, seat: int, view: PlayerView) -> None:
        try:
            action = await decide(self.lobby.policy, view, self.lobby.config.bot_delay)
        except Exception:
            log.exception("the bot at table %d, %s, failed; it plays its first legal action", self.id,
                          seat_label(seat))
            action = view.legal_actions()[0]
        with contextlib.suppress(Refused):  # the table closed meanwhile
            await self.call(None, BotMove(game, turn, seat, action))

    async def _bot_move(self, move: BotMove) -> None:
        game = self.game
        if game is None or game.id != move.game or game.state.turn != move.turn or not game.running:
            return  # the game moved on (ended, or restarted) while the bot was thinking
        try:
            new = apply(game.state, move.action, seat=move.seat)
        except IllegalAction as e:
            log.error("the bot at table %d chose an illegal action (%s): %s", self.id, move.action, e)
            action = view_for(game.state, move.seat).legal_actions()[0]
            new = apply(game.state, action, seat=move.seat)
            move = BotMove(move.game, move.turn, move.seat, action)
        await self._commit(game, move.action, new)

    # --- restoring after a restart ------------------------------------------------------------------------------

    @classmethod
    def restore(cls, lobby: Lobby, stored: StoredTable) -> Table:
        table = cls(lobby, stored.id, stored.name, stored.variant, stored.empty_clues, stored.all_or_nothing,
                    stored.chat, stored.seats, stored.password)
        table.host = stored.host
        for s in stored.seated:
            if s.bot:
                table.seats[s.seat] = Seat(s.name, None, bot=True)
                continue
            player = lobby.players.get(s.token_hash or "")
            if player is None:
                log.warning("table %d, %s: its player is unknown; the seat is freed", stored.id, seat_label(s.seat))
                continue
            table.seats[s.seat] = Seat(player.name, player)
            player.table, player.seat = table, s.seat
        g = stored.game
        if g is not None:
            state = new_game(g.config, g.seed)
            for i, action in enumerate(g.actions):
                try:
                    state = apply(state, action, seat=action.seat if isinstance(action, Rearrange) else None)
                except IllegalAction as e:
                    log.error("game %d: stored action %d (%s) does not apply: %s; the game is stopped here",
                              g.id, i, action, e)
                    state = terminate(state, "the stored game could not be fully restored")
                    break
            if g.finished is not None and not state.over:
                state = terminate(state, "the game was stopped")
            table.game = Game(g.id, g.seed, g.players, state, len(g.actions))
        return table

