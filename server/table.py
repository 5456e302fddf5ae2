"""One table: its seats, host, spectators and game, owned by one task that carries out requests in order.

Connections never touch a table's state: they ``call`` it with a request
and wait until it is done (or refused). The table's task takes requests
one at a time from a bounded memory channel, checks them (the table rules
of ``hanabi.protocol.table_rules``, the game's in ``game.py``), writes what
changed to the store, and only then updates its state and tells everyone:
a move is on disk before any view shows it.

A table knows its own seats and spectators; *where each player is* is the
lobby's to keep, which a table tells when it closes. Bots' turns run beside
the task and come back through the same channel as everybody's requests.
"""
from __future__ import annotations

import contextlib
import logging
import secrets
from typing import Any

import trio
from hanabi.engine import (
    Action,
    ChatPolicy,
    Clocks,
    Event,
    GameConfig,
    GameState,
    Play,
    PlayerView,
    Rearrange,
    Variant,
    new_game,
    out_of_time,
    terminate,
    time_out,
    view_for,
)
from hanabi.engine.bots import Decision, Level, seats_named, table_level
from hanabi.protocol import (
    SENTENCE_MAX,
    ActionRequest,
    AddBot,
    BotReason,
    Chat,
    ErrorCode,
    GameStarted,
    GiveHost,
    Join,
    Joined,
    Leave,
    PauseRequest,
    Queued,
    QueueMove,
    RearrangeRequest,
    RemoveBot,
    SeatInfo,
    SeatStatus,
    Spectate,
    Start,
    TableChanged,
    TableGone,
    TableInfo,
    Watchers,
    WriteNote,
)
from hanabi.protocol import table_rules as rules

from . import review as reviews
from .absence import AbsenceClock, duration
from .bots import Policy, decide, free_bot_name
from .config import ServerConfig
from .game import Game, out_of_time_sentence
from .handover import Handover, give_seat
from .passwords import check_password
from .records import TableOptions
from .requests import Abandoned, BotMove, Call, CloseIfEmpty, OutOfTime, Rewatch, Unwatch, refuse_waiting
from .seats import LobbySide, Seat
from .session import Player, Refused, frame
from .store import Store, StoreFailure

log = logging.getLogger(__name__)


def _refuse(refusal: rules.Refusal | None) -> None:
    if refusal is not None:
        raise Refused(refusal.code, refusal.message)


class Table:
    def __init__(self, id: int, name: str, variant: Variant, empty_clues: bool, all_or_nothing: bool,
                 chat: ChatPolicy, size: int, password: str | None, *, store: Store, config: ServerConfig,
                 policy: Policy, lobby: LobbySide, address: str | None = None,
                 options: TableOptions | None = None) -> None:
        self.id = id
        self.name = name
        self.variant = variant
        self.empty_clues = empty_clues
        self.all_or_nothing = all_or_nothing
        self.chat = chat
        self.size = size
        self.password = password  # salted hash, or None for an open table
        self.store = store
        self.config = config
        self.policy = policy
        self.lobby = lobby
        self.options = options or TableOptions()  # level, seed text, rule options, clock: as the creator chose them
        self.host: int | None = None
        self.seats: list[Seat | None] = [None] * size
        self.spectators: set[Player] = set()
        self.game: Game | None = None  # the running game, or the last one
        self.review: reviews.TableReview | None = None  # between games: the game everyone here looks back at
        self._watchers: tuple[str, ...] = ()  # the spectators' names everyone here was told last
        self.closed = False
        self.address = address  # where its creator connected from (None: restored), for the cap on empty tables
        self.active = trio.current_time()  # its latest change: the lobby lists the liveliest tables first
        self._bot_pending: tuple[int, int] | None = None  # (game, turn) a bot is thinking about
        # The bots' reasons of the latest game, each with the seats it was kept from while the game ran (it names
        # their own cards): they get it at the end; whoever comes back gets again what they may read.
        self._reasons: list[tuple[BotReason, frozenset[int]]] = []
        self._inbox, self._requests = trio.open_memory_channel[Call](64)
        self._nursery: trio.Nursery | None = None
        self._absence = AbsenceClock(config.abandon_after, self._given_up)

    # --- the task ---------------------------------------------------------------------------------------------

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                task_status.started()
                self._retime()  # a restored timed game: its clock runs again (or it waits, paused, for its player)
                self._schedule_bot()
                self._watch_absence()  # a restored table starts with everyone away
                async for call in self._requests:
                    await self._process(call)
                    if self.closed:
                        break
                nursery.cancel_scope.cancel()
        finally:
            # Requests that arrived after the table closed (or while the server stops) are answered, not left
            # waiting: the lobby waits for its requests' outcome even when its connection has gone.
            self._inbox.close()
            refuse_waiting(self._requests, self._gone())

    async def call(self, player: Player | None, request: object) -> Any:
        """Have the table's task carry out ``request``; returns what it answers, raises ``Refused`` if refused."""
        if self.closed:
            raise self._gone()
        call = Call(player, request, player.conn if player is not None else None)
        try:
            await self._inbox.send(call)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            raise self._gone() from None
        await call.done.wait()
        if call.error is not None:
            raise call.error
        return call.result

    def _gone(self) -> Refused:
        return Refused(ErrorCode.NO_SUCH_TABLE, f"table {self.id} ({self.name}) has closed")

    async def _process(self, call: Call) -> None:
        player = call.player
        try:
            if player is not None and player.conn is not None and player.conn is not call.conn:
                # Made on a connection a newer one has replaced since (it is closing): two connections must
                # never act for one player.
                raise Refused(ErrorCode.NOT_LOGGED_IN, "this connection was replaced by a newer one: request dropped")
            call.result = await self._handle(player, call.request)
        except Refused as refusal:
            call.error = refusal
        except StoreFailure as e:
            # Nothing changed: every handler writes to the store before it changes the table.
            log.error("table %d: %r not saved: %s", self.id, call.request, e)
            call.error = Refused(ErrorCode.INTERNAL, "the server could not save this (its disk or store failed, "
                                                     "not your fault): nothing changed; try again in a moment")
            if isinstance(call.request, BotMove):  # it chooses again in a moment, or the game would wait for ever
                self._bot_pending = None
                self._schedule_bot(pause=1.0)
        except Exception:
            log.exception("table %d failed on %r", self.id, call.request)
            call.error = Refused(ErrorCode.INTERNAL, "the server failed on this request (its fault, not yours); "
                                                     "it has been logged")
        except BaseException:  # cancelled: the server is stopping, and the request is not done
            call.error = self._gone()
            raise
        finally:
            call.done.set()

    async def _handle(self, player: Player | None, request: object) -> Any:
        if player is None:
            return await self._own(request)
        if isinstance(request, ActionRequest):
            await self._act(player, request.action)
        elif isinstance(request, RearrangeRequest):
            await self._act(player, Rearrange(self._seated(player), tuple(request.hand)))
        elif isinstance(request, Join):
            return await self._join(player, request.seat, request.password, request.id)
        elif isinstance(request, Spectate):
            self._spectate(player, request.password, request.id)
        elif isinstance(request, Unwatch):
            self.spectators.discard(player)
            self.changed()
        elif isinstance(request, Rewatch):
            self._spectate(player, None, None, let_in=True)
        elif isinstance(request, Leave):
            await self._leave(player)
        elif isinstance(request, Start):
            await self._start(player)
        elif isinstance(request, (AddBot, RemoveBot, GiveHost)):
            host_power = {AddBot: self._add_bot, RemoveBot: self._remove_bot, GiveHost: self._give_host}
            await host_power[type(request)](player, request.seat)
        elif isinstance(request, Chat):
            self._chat(player, request.text)
        elif isinstance(request, reviews.REVIEW_REQUESTS):
            await reviews.handle(self, player, request)
        elif isinstance(request, Handover):
            return await give_seat(self, player, request)
        elif isinstance(request, WriteNote):
            await self._write_note(player, request)
        elif isinstance(request, PauseRequest):
            await self._pause(player, request.paused)
        elif isinstance(request, QueueMove):
            game = self._game()
            seat = self._seated(player)
            player.send(game.queued(seat, game.queue(seat, request)))
        else:
            raise Refused(ErrorCode.UNKNOWN_TYPE, f"a table does not handle {getattr(request, 'TYPE', 'such')} "
                                                  "requests")
        return None

    async def _own(self, request: object) -> None:
        """The requests a table makes of itself (bots, clocks), which come in the same queue as everyone's."""
        if isinstance(request, BotMove):
            await self._bot_move(request)
        elif isinstance(request, Abandoned):
            await self._abandoned(request)
        elif isinstance(request, OutOfTime):
            await self._out_of_time(request)
        elif isinstance(request, CloseIfEmpty) and self.humans == 0 and not self.closed:
            await self.close(request.why)

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

    def seat_of(self, player: Player) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s is not None and s.player is player), None)

    def _seated(self, player: Player) -> int:
        seat = self.seat_of(player)
        if seat is None:
            raise Refused(ErrorCode.NOT_SEATED, "only players seated at this table can do that")
        return seat

    def info(self) -> TableInfo:
        return TableInfo(
            id=self.id, name=self.name, variant=self.variant, empty_clues=self.empty_clues,
            all_or_nothing=self.all_or_nothing, chat=self.chat, seats=self.size,
            players=tuple(None if s is None else SeatInfo(name=s.name, bot=s.bot,
                                                          connected=s.player is None or s.player.online)
                          for s in self.seats),
            has_password=self.password is not None, running=self.running,
            spectators=sum(1 for p in self.spectators if p.online), host=self.host,
            level=self.level, seeded=self.options.seed is not None,
            end_when_no_points=self.options.end_when_no_points, deck_plays=self.options.deck_plays,
            timed=self.options.timed, time_base=self.options.time_base, time_per_turn=self.options.time_per_turn)

    @property
    def bot_seats(self) -> frozenset[int]:
        return frozenset(i for i, s in enumerate(self.seats) if s is not None and s.bot)

    @property
    def level(self) -> Level:
        """The level the bots play at: the one chosen, else beginner beside a person, the strongest among bots."""
        return table_level(self.options.level, self.size, self.bot_seats)

    async def _may_use_host_powers(self, player: Player, refusal: rules.Refusal | None) -> None:
        """Refuse with ``refusal`` (from a table rule), or go ahead, the asker becoming host if the host is away."""
        _refuse(refusal)
        seat = self._seated(player)
        if rules.takes_over_host(self.info(), seat):
            await self.store.set_host(self.id, seat)
            self.host = seat
            self.changed()

    # --- telling people -----------------------------------------------------------------------------------------

    def _to_members(self, data: bytes, but: Player | None = None) -> None:
        for p in self.members():
            if p is not but:
                p.send_frame(data)

    def changed(self) -> None:
        """Everyone at the table and in the lobby learns the table's new public state (and who watches, if that
        changed)."""
        data = frame(TableChanged(table=self.info()))
        watchers = self.watchers()
        if watchers != self._watchers:
            self._watchers = watchers
            data += frame(Watchers(table=self.id, names=watchers))
        self._to_members(data)
        self.lobby.table_changed(self)

    def watchers(self) -> tuple[str, ...]:
        """The names of the spectators connected now, sorted."""
        return tuple(sorted((p.name for p in self.spectators if p.online), key=lambda n: (n.casefold(), n)))

    def _send_view(self, player: Player) -> None:
        """What someone arriving needs: the current view of ``player`` (seat or spectator) if there is a game to
        show, with the bots' reasons they may read, its clocks and the seat's pre-move, then the notes they may see
        (a seat its own while the game runs; a spectator, and everyone once it is over, every seat's), the review if
        there is one, and who watches."""
        game = self.game
        if game is not None:
            seat = self.seat_of(player)
            player.send(game.view(seat))
            for message, named in self._reasons:  # the bots' reasons they may read (all, once the game is over)
                if not game.running or seat not in named:
                    player.send(message)
            player.send(game.time.message(game.id))
            if seat is not None and seat in game.premoves:
                player.send(game.queued(seat, ""))
            if seat is not None and game.running:
                player.send(game.notes_of(seat))
            else:
                player.send_frame(game.every_seat_notes())
        if self.review is not None:
            player.send_frame(self.review.frames(self.id))
        player.send(Watchers(table=self.id, names=self.watchers()))

    def _publish(self, event: Event | None, but: Player | None = None) -> None:
        assert self.game is not None
        seated = [s.player if s is not None and s.player is not but else None for s in self.seats]
        self.game.publish(seated, self.spectators, event)

    # --- connections coming and going ---------------------------------------------------------------------------
    # These two run in the connection's task, not the table's: each is one step with no await in it, so the
    # table's task never sees it half done.

    def welcome_back(self, player: Player) -> None:
        """``player`` reconnected: their seat (or spectator place) and the current view, at once."""
        seat = self.seat_of(player)
        if seat is None and player not in self.spectators:
            return  # their seat was handed on while they were away (handover.py): the lobby is where they are
        player.send(Joined(table=self.info(), seat=seat))
        self._send_view(player)
        if seat is not None:
            self._seat_status(seat, True)
            self._watch_absence()
        else:
            self.changed()  # one more spectator watching

    def connection_lost(self, player: Player) -> None:
        """A dropped connection keeps its place, seat or spectator's, for when the player resumes."""
        seat = self.seat_of(player)
        if seat is None:
            self.changed()  # one spectator fewer watching (the count is of those connected)
        else:
            self._seat_status(seat, False)
            self._watch_absence()

    def _seat_status(self, seat: int, connected: bool) -> None:
        self._to_members(frame(SeatStatus(table=self.id, seat=seat, connected=connected)))
        self.lobby.table_changed(self)
        if self.game is not None and self.game.running and self.options.timed:
            self._retime()  # the player to act came or went: a timed game pauses itself while they are away

    def _watch_absence(self) -> None:
        """Start the clock that closes a table whose seated humans are all away, or stop it if one is here."""
        away = self.humans > 0 and not any(s is not None and s.player is not None and s.player.online
                                           for s in self.seats)
        self._absence.update(away, None if self.closed else self._nursery)

    async def _given_up(self, since: float) -> None:
        with contextlib.suppress(Refused):  # closed meanwhile
            await self.call(None, Abandoned(since))

    async def _abandoned(self, request: Abandoned) -> None:
        if not self._absence.current(request.since):
            return  # someone came back while this was queued
        why = f"every player was away for {duration(self.config.abandon_after or 0)}"
        if self.running:
            await self._end_game(why)
        await self.close(why)

    # --- requests -----------------------------------------------------------------------------------------------

    async def _join(self, player: Player, seat: int | None, password: str | None, request_id: int | None) -> int:
        """Seat ``player`` (whom the lobby has checked sits nowhere); returns the seat."""
        check_password(self.password, password, self.name)
        info = self.info()
        _refuse(rules.join_refusal(info, seat))
        if seat is None:
            seat = rules.free_seat(info)
            assert seat is not None
        await self.store.set_seat(self.id, seat, bot=False, name=player.name, key=player.key)
        self.seats[seat] = Seat(player.name, player)
        self.spectators.discard(player)  # a spectator of this table taking a seat
        self._watch_absence()
        if self.host is None:
            await self.store.set_host(self.id, seat)
            self.host = seat
        player.send(Joined(table=self.info(), seat=seat, id=request_id))
        self._send_view(player)
        self.changed()
        return seat

    def _spectate(self, player: Player, password: str | None, request_id: int | None, let_in: bool = False) -> None:
        if not let_in:
            check_password(self.password, password, self.name)
            if len(self.spectators) >= self.config.max_spectators and player not in self.spectators:
                raise Refused(ErrorCode.TABLE_FULL, f"table {self.name!r} has {len(self.spectators)} spectators, "
                                                    "the most it takes: watch another, or try again later")
        self.spectators.add(player)
        player.send(Joined(table=self.info(), seat=None, id=request_id))
        self._send_view(player)
        self.changed()

    async def _leave(self, player: Player) -> None:
        seat = self.seat_of(player)
        if seat is None:
            if player not in self.spectators:
                raise Refused(ErrorCode.NOT_SEATED, "you are not at this table")
            self.spectators.discard(player)
            self.changed()
            return
        if self.running:
            await self._end_game(f"{player.name} left the table", leaving=player)
        await self.store.clear_seat(self.id, seat)
        self.seats[seat] = None
        if self.humans == 0:
            await self.close(leaving=player)
            return
        self._watch_absence()  # the one who left may have been the only one connected
        if self.host == seat:
            self.host = next(i for i, s in enumerate(self.seats) if s is not None and not s.bot)
            await self.store.set_host(self.id, self.host)
        self.changed()

    async def close(self, why: str = "no one is left", leaving: Player | None = None) -> None:
        """The last human left (``leaving``), or all were away too long: the table goes away (its games stay in
        the store), and everyone who was at it is told."""
        self.closed = True
        try:
            await self.store.close_table(self.id, played=self.game is not None)
        except StoreFailure as e:
            # It closes all the same (it takes no more requests): its players must not be held at it. Unsaved,
            # a restart brings it back, as it was left.
            log.error("table %d: its closing was not saved: %s", self.id, e)
        log.info("table %d (%s) closed: %s", self.id, self.name, why)
        members = self.members() + ([leaving] if leaving is not None else [])
        gone = TableGone(table=self.id, reason=f"table {self.name!r} closed: {why}")
        for p in members:
            if p.online:
                p.send(gone)
            else:
                p.missed.append(gone)
        self.spectators.clear()
        self.lobby.table_closed(self, members)

    async def _start(self, player: Player) -> None:
        await self._may_use_host_powers(player, rules.start_refusal(self.info(), self.seat_of(player)))
        options = self.options
        config = GameConfig(players=self.size, variant=self.variant, empty_clues=self.empty_clues,
                            all_or_nothing=self.all_or_nothing, chat=self.chat,
                            end_when_no_points=options.end_when_no_points, deck_plays=options.deck_plays,
                            timed=options.timed, time_base=options.time_base, time_per_turn=options.time_per_turn)
        # A seed text deals every game of the table alike, and like every table given that text (with as many
        # players and the same variant): the engine shuffles from the text itself.
        seed = options.seed if options.seed is not None else secrets.token_hex(8)
        names = tuple(s.name for s in self.seats if s is not None)
        await reviews.end(self)
        keys = tuple(s.player.key for s in self.seats if s is not None and s.player is not None)
        game_id = await self.store.start_game(self.id, config, seed, names, keys, seeded=options.seed is not None)
        self.game = Game(game_id, seed, names, new_game(config, seed))
        self._reasons = []
        log.info("table %d (%s): game %d started: %s", self.id, self.name, game_id, ", ".join(names))
        self._to_members(frame(GameStarted(table=self.id, game=game_id)))
        self._publish(None)
        self._retime()
        self.changed()
        self._schedule_bot()

    async def _act(self, player: Player, action: Action) -> None:
        seat = self._seated(player)
        if self.game is None:
            raise Refused(ErrorCode.GAME_NOT_RUNNING, "no game is running at this table")
        if not isinstance(action, Rearrange):
            self.game.check_not_paused()
        new = self.game.check(seat, action, self.config.rearranges_per_turn)
        await self._commit(self.game, seat, action, new)

    async def _commit(self, game: Game, seat: int, action: Action, new: GameState) -> None:
        """Write the action (with the clocks after it), then show it: nobody sees a move the store does not hold."""
        turn = not isinstance(action, Rearrange)
        clocks = game.time.after_move(seat) if turn else ()
        await self.store.add_action(game.id, game.seq, action, clocks)
        game.record(seat, action, new)
        event = new.events[-1]
        self._publish(event)
        if turn:
            for cancelled, why in game.cancel_premoves(event):
                self._tell(cancelled, game.queued(cancelled, why))
            self._retime(clocks, tell=game.time.config.timed)  # an untimed game's clock does not change with moves
        if new.outcome is not None:
            try:
                await self.store.finish_game(game.id, new.outcome.score, new.outcome.reason.value)
            except StoreFailure as e:
                # The last action is saved, so the game is over all the same: everyone is told so now, and a
                # restart marks it finished from its actions (Lobby.restore).
                log.error("game %d: its end could not be saved (marked on the next start): %s", game.id, e)
            log.info("table %d (%s): game %d over: %d/%d, %s", self.id, self.name, game.id, new.outcome.score,
                     new.outcome.max_score, new.outcome.reason.value)
            self._to_members(game.over_frames())
            self._tell_withheld()
            self.changed()
            await reviews.begin(self, game)
        else:
            self._schedule_bot()
            if turn:
                await self._premove_turn(game)

    async def _end_game(self, why: str, leaving: Player | None = None, timed_out: bool = False) -> None:
        """Stop the running game (``timed_out``: the player to act ran out of time); everyone's last view shows it
        over, as after a last move (but the one ``leaving``, who goes back to the lobby and wants no more of this
        table)."""
        game = self.game
        assert game is not None
        ended = time_out(game.state, why) if timed_out else terminate(game.state, why)
        assert ended.outcome is not None
        await self.store.finish_game(game.id, 0, ended.outcome.reason.value)
        game.state = ended
        self._retime(tell=game.time.config.timed)  # no bank runs any more
        self._publish(None, but=leaving)
        self._to_members(game.over_frames(), but=leaving)
        self._tell_withheld(but=leaving)
        await reviews.begin(self, game, leaving)

    # --- time: clocks, pause, pre-moves ---------------------------------------------------------------------------

    def _game(self) -> Game:
        if self.game is None:
            raise Refused(ErrorCode.GAME_NOT_RUNNING, "no game is running at this table")
        return self.game

    def _tell(self, seat: int, message: Queued) -> None:
        s = self.seats[seat]
        if s is not None and s.player is not None:
            s.player.send(message)

    def _retime(self, clocks: Clocks | None = None, tell: bool = True) -> None:
        """After a move, a pause, the end, or the player to act coming or going: which bank runs now (from
        ``clocks``, or the banks as they stand), the timer that ends the game when it is empty, and (``tell``)
        everyone told."""
        game = self.game
        if game is None:
            return
        time, state = game.time, game.state
        seat = self.seats[state.current] if game.running else None
        away = time.config.timed and seat is not None and seat.player is not None and not seat.player.online
        time.away = seat.name if away and seat is not None else None
        time.set(time.now() if clocks is None else clocks, state.current if game.running else None)
        game_id, turn = game.id, state.turn

        async def expired() -> None:
            with contextlib.suppress(Refused):  # the table closed meanwhile
                await self.call(None, OutOfTime(game_id, turn))
        time.arm(None if self.closed else self._nursery, expired)
        if tell:
            self._to_members(frame(time.message(game.id)))

    async def _out_of_time(self, request: OutOfTime) -> None:
        game = self.game
        if game is None or game.id != request.game or game.state.turn != request.turn or not game.running:
            return  # a move came in (or the game ended) while this was queued
        time = game.time
        if time.running is None:
            return  # paused meanwhile
        if not out_of_time(time.clocks, time.running, time.used()):
            self._retime()  # woken a hair early: sleep the rest
            return
        name = game.names[game.state.current]
        log.info("table %d (%s): game %d: %s ran out of time", self.id, self.name, game.id, name)
        await self._end_game(out_of_time_sentence(name), timed_out=True)
        self.changed()

    async def _pause(self, player: Player, paused: bool) -> None:
        """``player`` pauses the game, or lets it go on; bots and pre-moves wait while it is paused."""
        self._seated(player)
        game = self._game()
        game.check_pause(paused)
        clocks = game.time.now()
        if clocks:
            await self.store.set_clocks(game.id, clocks)  # a restart finds the banks where the pause left them
        game.time.paused_by = player.name if paused else None
        log.info("table %d (%s): %s %s the game", self.id, self.name, player.name, "paused" if paused else "resumed")
        self._retime(clocks)
        if not paused:
            self._schedule_bot()
            await self._premove_turn(game)

    async def _premove_turn(self, game: Game) -> None:
        """At the start of a turn: the move its player queued, made now (unless the game is paused)."""
        if game is not self.game or not game.running or game.time.paused:
            return
        seat = game.state.current
        move = game.premoves.pop(seat, None)
        if move is None:
            return
        verb = "play" if isinstance(move, Play) else "discard"
        try:
            new = game.check(seat, move, self.config.rearranges_per_turn)
        except Refused as e:
            self._tell(seat, game.queued(seat, f"your queued {verb} was not made, it is your turn now: {e.message}"))
            return
        try:
            await self._commit(game, seat, move, new)
        except StoreFailure as e:
            # The move before this one is saved and shown; this one is not made, and its player plays by hand.
            log.error("game %d: a queued move was not saved: %s", game.id, e)
            self._tell(seat, game.queued(seat, f"your queued {verb} was not made (the server could not save it): "
                                               "it is your turn now"))
            return
        self._tell(seat, game.queued(seat, f"your queued {verb} was made"))

    async def _add_bot(self, player: Player, seat: int) -> None:
        await self._may_use_host_powers(player, rules.add_bot_refusal(self.info(), self.seat_of(player), seat))
        name = free_bot_name(s.name for s in self.seats if s is not None)
        await self.store.set_seat(self.id, seat, bot=True, name=name, key=None)
        self.seats[seat] = Seat(name, None)
        self.changed()

    async def _remove_bot(self, player: Player, seat: int) -> None:
        await self._may_use_host_powers(player, rules.remove_bot_refusal(self.info(), self.seat_of(player), seat))
        await self.store.clear_seat(self.id, seat)
        self.seats[seat] = None
        self.changed()

    async def _give_host(self, player: Player, seat: int) -> None:
        _refuse(rules.give_host_refusal(self.info(), self.seat_of(player), seat))
        await self.store.set_host(self.id, seat)
        self.host = seat
        self.changed()

    async def _write_note(self, player: Player, request: WriteNote) -> None:
        """A seat's note on a card: stored, then its writer's whole set goes back to the writer and to the
        spectators (who see everyone's notes); never to another seat while the game runs."""
        seat = self._seated(player)
        game = self.game
        if game is None:
            raise Refused(ErrorCode.GAME_NOT_RUNNING, "no game is running at this table")
        game.check_note(seat, request.order, request.text)
        await self.store.set_note(game.id, seat, request.order, request.text)
        game.write_note(seat, request.order, request.text)
        player.send(game.notes_of(seat, request.id))
        watching = frame(game.notes_of(seat))
        for p in self.spectators:
            p.send_frame(watching)

    def _chat(self, player: Player, text: str) -> None:
        if self.seat_of(player) is None and player not in self.spectators:
            raise Refused(ErrorCode.NOT_SEATED, "you are not at this table")
        _refuse(rules.chat_refusal(self.info(), seated=self.seat_of(player) is not None))
        self._to_members(frame(Chat(table=self.id, sender=player.name, text=text)))

    # --- bots ---------------------------------------------------------------------------------------------------

    def _schedule_bot(self, pause: float = 0.0) -> None:
        game = self.game
        if game is None or not game.running or self._nursery is None or game.time.paused:
            return  # bots wait while a game is paused
        state = game.state
        seat = self.seats[state.current]
        key = (game.id, state.turn)
        if seat is None or not seat.bot or self._bot_pending == key:
            return
        self._bot_pending = key
        self._nursery.start_soon(self._bot_turn, game.id, state.turn, state.current, view_for(state, state.current),
                                 self.config.bot_delay + pause)

    async def _bot_turn(self, game: int, turn: int, seat: int, view: PlayerView, delay: float) -> None:
        decision = await decide(self.policy, view, self.bot_seats, self.level, delay)
        with contextlib.suppress(Refused):  # the table closed meanwhile
            await self.call(None, BotMove(game, turn, seat, decision.action, decision.reason, decision.names_cards_of))

    async def _bot_move(self, move: BotMove) -> None:
        game = self.game
        seat = self.seats[move.seat]
        if game is None or game.id != move.game or game.state.turn != move.turn or not game.running \
                or seat is None or not seat.bot:
            return  # the game moved on (ended, or restarted), or the seat was handed to a person, while it thought
        if game.time.paused:
            self._bot_pending = None  # paused while it was thinking: it thinks again once the game goes on
            return
        action, new = game.bot_choice(move.seat, move.action)
        if action == move.action:
            decision = Decision(action, move.reason, move.names_cards_of)
        else:
            decision = Decision(action, "my first choice was not allowed: I took my first legal move")
        await self._commit(game, move.seat, action, new)
        self._tell_reason(game, move.seat, decision)

    def _tell_reason(self, game: Game, seat: int, decision: Decision) -> None:
        """Why the bot of ``seat`` made the move just shown: to spectators and to every seat whose own cards the
        reason does not name (issue 11, "say why"); once the game is over, to everyone."""
        # One line, as the protocol wants it, whatever a bot wrote.
        reason = " ".join(decision.reason.split())[:SENTENCE_MAX] or "no reason given"
        message = BotReason(game=game.id, turn=game.state.turn - 1, seat=seat, reason=reason)
        named = frozenset() if not game.running else seats_named(decision, seat, self.size)
        data = frame(message)
        for p in self.members():
            if self.seat_of(p) not in named:
                p.send_frame(data)
        self._reasons.append((message, named))

    def _tell_withheld(self, but: Player | None = None) -> None:
        """The game is over: each seat reads the bots' reasons that were kept from it while it ran."""
        for message, named in self._reasons:
            data = frame(message)
            for seat in named:
                holder = self.seats[seat]
                if holder is not None and holder.player is not None and holder.player is not but:
                    holder.player.send_frame(data)
