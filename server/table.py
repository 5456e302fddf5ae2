"""One table: its seats, host, spectators and game, owned by one task that carries out requests in order.

This module keeps the task, seating, the host's powers, who is told what, and the game once it is dealt (moves,
the bots' turns, clocks, pause, pre-moves, notes, advice); it alone changes a table. A move follows one path
whoever makes it (a person, a bot, a pre-move): checked (a person's and a pre-move by the ``Game``; a bot
chooses from the legal moves of that very turn), written to the store, and only then shown (``_commit``). A
bot's choice is made after a delay (so people can follow), in a worker thread (so a slow bot never stalls the
event loop), from its seat's redacted ``PlayerView`` alone (it cannot cheat). What a review's next step is lives
in ``review.py``. docs/design.md ("A table's task") says how requests, bots and alarms reach the task, and which
task owns what.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, Protocol

import trio
from hanabi.engine import (
    Action,
    Clocks,
    GameState,
    Play,
    PlayerView,
    Rearrange,
    WhatIf,
    apply,
    legal_actions,
    new_game,
    out_of_time,
    seat_view,
    terminate,
    time_out,
    view_for,
)
from hanabi.engine.bots import Decision, Level, seats_named, table_level
from hanabi.protocol import (
    SENTENCE_MAX,
    ActionRequest,
    AddBot,
    AdviceReply,
    BotReason,
    Chat,
    ErrorCode,
    GameStarted,
    GetAdvice,
    GiveHost,
    HypoBot,
    Join,
    Joined,
    Leave,
    OpenReview,
    PauseRequest,
    Queued,
    QueueMove,
    RearrangeRequest,
    RemoveBot,
    SeatHanded,
    SeatStatus,
    Spectate,
    Start,
    TableChanged,
    TableGone,
    TableInfo,
    Watchers,
    WatchingSeat,
    WatchSeat,
    WriteNote,
)
from hanabi.protocol import table_rules as rules
from hanabi.protocol.messages import HOLDERS_MAX, Holder

from . import review as reviews
from .config import ServerConfig
from .game import NO_GAME, Game, out_of_time_sentence
from .names import by_name
from .records import GAME_CHOICES, TableSettings
from .requests import Abandoned, BotMove, Call, CloseIfEmpty, OutOfTime, Rewatch, WhatIfBotMove, handed, waiting
from .saved import StoredTable
from .session import SERVER_FAULT, Player, Refused, Seat, frame, refuse
from .store import Store, StoreFailure
from .timing import Alarm, duration

log = logging.getLogger(__name__)

Withheld = tuple[BotReason, frozenset[int]]  # a bot's reason, and the seats it is kept from while the game runs


# The requests about the table's review: opening one, stepping, pointing, the lead, and its what if.
ReviewRequest = OpenReview | reviews.ReviewMove | reviews.WhatIfMove | HypoBot


@dataclass(slots=True)
class Handover:
    """The host hands a seat on (``hand_seat``), its receiver found by the lobby (``lobby.hand_over``; None: a
    house bot): the table gives the seat (``_hand_seat``) and answers with the person who lost it."""

    seat: int
    to: Player | None


def hash_password(password: str, salt: str = "") -> str:
    """A table's password as the store keeps it: salted and hashed."""
    salt = salt or secrets.token_hex(8)
    return salt + "$" + hashlib.sha256((salt + password).encode()).hexdigest()


def check_password(stored: str | None, given: str | None, table: str) -> None:
    """Refuse unless ``given`` opens the table named ``table``, whose password hash is ``stored`` (None: open); a
    guess is compared in constant time."""
    if stored is None:
        return
    if given is None:
        raise Refused(ErrorCode.WRONG_PASSWORD, f"table {table!r} has a password: give it to join or watch")
    if not hmac.compare_digest(stored, hash_password(given, salt=stored.partition("$")[0])):
        raise Refused(ErrorCode.WRONG_PASSWORD, f"that is not the password of table {table!r}")


# (the bot's view, the seats bots hold, the table's convention level) -> the bot's decision
Policy = Callable[[PlayerView, frozenset[int], Level], Decision]


def house_policy(view: PlayerView, bot_seats: frozenset[int], level: Level) -> Decision:
    """The house bot of ``hanabi.engine.bots``, at the table's level (a person's clues read literally at
    "beginner"; with only bots, by its full conventions)."""
    from hanabi.engine.bots import decide  # the bots' modules load with a table's first bot move, not at start

    return decide(view, bot_seats=bot_seats, level=level)


BOT_NAMES = ("Bot Ada", "Bot Basil", "Bot Cleo", "Bot Dex", "Bot Eve", "Bot Fay")


def free_bot_name(taken: Iterable[str]) -> str:
    """The first bot name no one at the table has (a table has at most 6 seats, so one is always free)."""
    used = set(taken)
    return next(n for n in (*BOT_NAMES, *(f"Bot {i}" for i in range(99))) if n not in used)


async def decide(policy: Policy, view: PlayerView, bot_seats: frozenset[int], level: Level,
                 delay: float) -> Decision:
    """Wait ``delay`` seconds, then let the bot decide, off the event loop. A bot that fails or chooses an illegal
    action (a bug of its own) takes its first legal action, so that the game goes on."""
    if delay > 0:
        await trio.sleep(delay)
    legal = view.legal_actions()
    try:
        decision = await trio.to_thread.run_sync(policy, view, bot_seats, level)
    except Exception:
        log.exception("a bot failed to choose (seat %s, counted from 0); it takes its first legal action", view.seat)
        return Decision(legal[0], "I was confused (a bug of mine): I took my first legal move")
    if decision.action not in legal:
        log.error("the bot in seat %s (counted from 0) chose an illegal action (%s); it takes its first legal action",
                  view.seat, decision.action)
        return Decision(legal[0], "my first choice was not allowed: I took my first legal move")
    return decision


def _reason(game: int, turn: int, seat: int, decision: Decision, new: GameState) -> Withheld:
    """Why the bot of ``seat`` made its move of ``turn`` (``new`` the state after it), and the seats it is kept
    from: those whose own cards it names, while the game runs; none once the move ended it."""
    # One line, as the protocol wants it, whatever a bot wrote.
    reason = " ".join(decision.reason.split())[:SENTENCE_MAX] or "no reason given"
    named = frozenset() if new.outcome is not None else seats_named(decision, seat, new.players)
    return BotReason(game=game, turn=turn, seat=seat, reason=reason), named


class LobbySide(Protocol):
    """What a table tells the lobby: its public state changed (for the players in the lobby), and it closed."""

    def table_changed(self, table: Table) -> None: ...
    def table_closed(self, table: Table, members: list[Player]) -> None: ...


class Table:
    # --- making and restoring a table ---------------------------------------------------------------------------------

    def __init__(self, id: int, name: str, settings: TableSettings, password: str | None, *, store: Store,
                 config: ServerConfig, policy: Policy, lobby: LobbySide, address: str | None = None,
                 host: int | None = None, game: Game | None = None,
                 review: reviews.TableReview | None = None) -> None:
        self.id = id
        self.name = name
        self.settings = settings
        self.password = password  # salted hash, or None for an open table
        self.store = store
        self.config = config
        self.policy = policy
        self.lobby = lobby
        self.host = host
        self.seats: list[Seat | None] = [None] * settings.game.players
        self.spectators: set[Player] = set()
        # The spectators who watch as one seat sees (watch_seat): sent that seat's view, never more. Not stored: a
        # restart shows them every hand again.
        self.seen_as: dict[Player, int] = {}
        self.game = game  # the running game, or the last one
        self.review = review  # between games: the game everyone here looks back at
        self._watchers: tuple[str, ...] = ()  # the spectators' names everyone here was told last
        self.closed = False
        self.address = address  # where its creator connected from (None: restored), for the cap on empty tables
        self.active = trio.current_time()  # its latest change: the lobby lists the liveliest tables first
        self._inbox, self._requests = trio.open_memory_channel[Call](64)
        self.nursery: trio.Nursery | None = None
        self._absence = Alarm()  # closes the table once every seated human has been away too long
        self._away_since: float | None = None  # when the current absence began (None: someone is here)

    @classmethod
    def restore(cls, stored: StoredTable, players: dict[str, Player], *, store: Store, config: ServerConfig,
                policy: Policy, lobby: LobbySide) -> Table:
        """A table from the store, its seats given back to the ``players`` known (by token hash): the lobby then
        records where they are. Raises if its saved game or review cannot be brought back."""
        game = Game.restore(stored.game) if stored.game is not None else None
        review = reviews.restored(stored.review) if stored.review is not None else None
        table = cls(stored.id, stored.name, stored.settings, stored.password, store=store, config=config,
                    policy=policy, lobby=lobby, host=stored.host, game=game, review=review)
        for s in stored.seated:
            player = None if s.bot else players.get(s.token_hash or "")
            if not s.bot and player is None:
                log.warning("table %d, %s: its player is unknown; the seat is freed", stored.id,
                            rules.seat_label(s.seat))
                continue
            table.seats[s.seat] = Seat(s.name if player is None else player.name, player)
        return table

    def watched_by(self, player: Player) -> None:
        """A restored table's spectator (the store keeps them as it keeps seats), back before the task starts
        or while it waits: they resume watching."""
        self.spectators.add(player)

    # --- the task: requests one at a time -----------------------------------------------------------------------------

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        try:
            async with trio.open_nursery() as nursery:
                self.nursery = nursery
                task_status.started()
                self._retime()  # a restored timed game: its clock runs again (or it waits, paused, for its player)
                self._schedule_bot()
                self.watch_absence()  # a restored table starts with everyone away
                while not self.closed:
                    # A call is let go once carried out, not kept while the table waits for the next (nor does the
                    # wait go through ``async for``'s layer): what a waiting task keeps reaches the collector's
                    # oldest generation (docs/performance.md, "What the young generations hold").
                    await self._process(await self._requests.receive())
                nursery.cancel_scope.cancel()
        finally:
            # Requests that arrived after the table closed (or while the server stops) are answered, not left
            # waiting: the lobby waits for its requests' outcome even when its connection has gone.
            self._inbox.close()
            for call in waiting(self._requests):
                call.error = self._gone()
                call.done.set()

    async def call(self, player: Player | None, request: object) -> Any:
        """Have the table's task carry out ``request``; returns what it answers, raises ``Refused`` if refused."""
        if self.closed:
            raise self._gone()
        call = Call(player, request, player.conn if player is not None else None)
        try:
            await handed(self._inbox, call)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            raise self._gone() from None
        await call.done.wait()
        if call.error is not None:
            raise call.error
        return call.result

    async def call_own(self, request: object) -> None:
        """A request the table makes of itself from beside its task (a bot's move, an alarm): queued as everyone's
        are, and dropped if the table has closed meanwhile."""
        with contextlib.suppress(Refused):
            await self.call(None, request)

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
            # Every handler writes to the store before it changes the table, so the table is still as stored. A
            # request of several writes (a leave that first ends the game) may stop between two: asking again
            # does the rest.
            log.error("table %d: %r not saved: %s", self.id, call.request, e)
            call.error = Refused(ErrorCode.INTERNAL, "the server could not save this (its disk or store failed, "
                                                     "not your fault), so it was not done (or not all of it); "
                                                     "try again in a moment")
            if isinstance(call.request, BotMove) and self.game is not None:
                self.game.bot_turn = None  # it chooses again in a moment, or the game would wait for ever
                self._schedule_bot(pause=1.0)
        except Exception:
            log.exception("table %d failed on %r", self.id, call.request)
            call.error = Refused(ErrorCode.INTERNAL, SERVER_FAULT)
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
            await self._act(player, Rearrange(self.seated(player), tuple(request.hand)))
        elif isinstance(request, Join):
            return await self._join(player, request.seat, request.password, request.id)
        elif isinstance(request, Spectate):
            await self._spectate(player, request.password, request.id)
        elif isinstance(request, Rewatch):
            await self._spectate(player, None, None, let_in=True)
        elif isinstance(request, Leave):
            await self._leave(player)
        elif isinstance(request, WatchSeat):
            self._watch_seat(player, request)
        elif isinstance(request, Start):
            await self._start(player)
        elif isinstance(request, AddBot):
            await self._add_bot(player, request.seat)
        elif isinstance(request, RemoveBot):
            await self._remove_bot(player, request.seat)
        elif isinstance(request, GiveHost):
            await self._give_host(player, request.seat)
        elif isinstance(request, Chat):
            self._chat(player, request.text)
        elif isinstance(request, ReviewRequest):
            await self._review(player, request)
        elif isinstance(request, Handover):
            return await self._hand_seat(player, request)
        elif isinstance(request, WriteNote):
            await self._write_note(player, request)
        elif isinstance(request, PauseRequest):
            await self._set_paused(player, request.paused)
        elif isinstance(request, QueueMove):
            self._queue_move(player, request)
        elif isinstance(request, GetAdvice):
            await self._advise(player, request)
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
            await self._check_clock(request)
        elif isinstance(request, WhatIfBotMove):
            await self._bot_moved_in_what_if(request)
        elif isinstance(request, CloseIfEmpty) and not self.persons() and not self.closed:
            await self.close(request.why)

    # --- the game: its start, moves, pre-moves, notes, advice and end -------------------------------------------------

    async def _start(self, player: Player) -> None:
        """The host deals a new game: written to the store, then everyone sees it, its clock runs, a bot may begin."""
        await self.may_use_host_powers(player, rules.start_refusal(self.info(), self.seat_of(player)))
        if self.review is not None:  # a new game: the review is over
            await self.store.clear_review(self.id)
            self.review = None
        settings = self.settings
        # A seed text deals every game of the table alike, and like every table given that text (with as many
        # players and the same variant): the engine shuffles from the text itself.
        seed = settings.seed if settings.seed is not None else secrets.token_hex(8)
        dealt = [s for s in self.seats if s is not None]
        names = tuple(s.name for s in dealt)
        keys = tuple(s.player.key for s in dealt if s.player is not None)
        bots = frozenset(i for i, s in enumerate(dealt) if s.info().plays_as_bot)  # house bots and network bots
        # The level the bots play at beside a person (``Table.level`` while one sits there): a person's moves are
        # judged at it.
        level = table_level(settings.level, len(dealt), frozenset())
        game_id = await self.store.start_game(self.id, settings.game, seed, names, keys, bots=bool(bots),
                                              seeded=settings.seed is not None, seating=(level, bots))
        game = self.game = Game(game_id, seed, names, new_game(settings.game, seed))
        game.bot_level, game.dealt_bots = level, bots
        log.info("table %d (%s): game %d started: %s", self.id, self.name, game.id, ", ".join(names))
        self.to_members(frame(GameStarted(table=self.id, game=game.id)))
        game.publish(self.viewers(), None)
        self._retime()
        self.changed()
        self._schedule_bot()

    def _table_game(self) -> Game:
        """The table's game (running, or the last one), or the refusal that there is none."""
        if self.game is None:
            raise Refused(ErrorCode.GAME_NOT_RUNNING, NO_GAME)
        return self.game

    async def _act(self, player: Player, action: Action) -> None:
        seat = self.seated(player)
        game = self._table_game()
        if not isinstance(action, Rearrange):
            game.check_not_paused()
        new = game.check(seat, action, self.config.rearranges_per_turn)
        await self._commit(game, seat, action, new)

    async def _commit(self, game: Game, seat: int, action: Action, new: GameState,
                      reason: Withheld | None = None) -> None:
        """Write the action (with the clocks after it, and a bot's ``reason`` for it), then show it: nobody sees a
        move the store does not hold, and a bot's reason comes with its move (a restart keeps it, from the same
        seats)."""
        takes_turn = not isinstance(action, Rearrange)  # rearranging one's hand is no turn
        clocks = game.time.after_move(seat) if takes_turn else ()
        await self.store.add_action(game.id, game.seq, action, clocks, reason)
        game.record(seat, action, new)
        event = new.events[-1]
        game.publish(self.viewers(), event)
        if reason is not None:
            self._tell_reason(game, reason)
        if takes_turn:
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
            await self._over(game)
            self.changed()
        else:
            self._schedule_bot()
            if takes_turn:
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

    def _queue_move(self, player: Player, request: QueueMove) -> None:
        """A seat's pre-move for its next turn (or none): kept, and its player told what is queued now."""
        game = self._table_game()
        seat = self.seated(player)
        player.send(game.queued(seat, game.queue(seat, request)))

    async def _write_note(self, player: Player, request: WriteNote) -> None:
        """A seat's note on a card: stored, then its writer's whole set goes back to the writer and to the
        spectators who see everyone's notes or watch as that seat; never to another seat while the game runs."""
        seat = self.seated(player)
        game = self._table_game()
        game.check_note(seat, request.order, request.text)
        await self.store.set_note(game.id, seat, request.order, request.text)
        game.write_note(seat, request.order, request.text)
        player.send(game.notes_of(seat, request.id))
        # Another seat sees its own notes only.
        self.to_members(frame(game.notes_of(seat)), but=player, seeing=lambda seen: seen in (None, seat))

    async def _advise(self, player: Player, request: GetAdvice) -> None:
        """Answer ``player``'s ``get_advice``, or refuse it. The advice is
        the engine's: the house bot at the table's level decides from the asker's own redacted view, so it tells them
        nothing their screen does not already show. Whether a table gives advice at all is its host's choice
        (``table_rules.advice_refusal``). The game is marked as played with advice in the store before the answer
        leaves, so no advice is ever given unmarked."""
        info = self.info()
        refuse(rules.advice_refusal(info, self.seat_of(player)))  # a seated player, while the game runs
        seat, game = self.seated(player), self._table_game()
        state = game.state
        # The names of who holds each seat now (a seat handed to a bot is the bot's), not of who was dealt it.
        names = game.names_now()
        if state.current != seat:
            raise Refused(ErrorCode.NOT_YOUR_TURN, f"advice is for your own turn: it is {names[state.current]}'s "
                                                   "turn now")
        from hanabi.engine.coach import advice_for  # with the first advice asked for, not at start

        # Off the event loop, as the bots' own turns are: the table waits for it, and nothing else changes the game.
        advice = await trio.to_thread.run_sync(functools.partial(
            advice_for, state, seat, level=self.level, bot_seats=self.bot_seats, names=names))
        if seat not in game.advised:
            await self.store.mark_advice(game.id, seat)
            game.advised.add(seat)
        player.send(AdviceReply(game=game.id, turn=state.turn, move=advice.move[:SENTENCE_MAX],
                                reason=advice.reason[:SENTENCE_MAX], convention=advice.convention,
                                section=advice.section, id=request.id))

    async def _end_game(self, why: str, leaving: Player | None = None, timed_out: bool = False) -> None:
        """Stop the running game (``timed_out``: the player to act ran out of time); everyone's last view shows it
        over, as after a last move (but the one ``leaving``, who goes back to the lobby and wants no more of this
        table)."""
        game = self.game
        assert game is not None
        ended = time_out(game.state, why) if timed_out else terminate(game.state, why)
        assert ended.outcome is not None
        await self.store.finish_game(game.id, ended.outcome.score, ended.outcome.reason.value)
        game.state = ended
        self._retime(tell=game.time.config.timed)  # no bank runs any more
        game.publish(self.viewers(but=leaving), None)
        await self._over(game, leaving)

    async def _over(self, game: Game, leaving: Player | None = None) -> None:
        """The game is over: everyone here (but ``leaving``) gets the whole game and its file, each seat (and who
        watched as it) the bots' reasons kept from it while it ran; then the review begins, from the same file."""
        replay = game.replay_json()
        self.to_members(game.over_frames(replay), but=leaving)
        for message, named in game.reasons:
            self.to_members(frame(message), but=leaving, seeing=named.__contains__)  # to the seats it was kept from
        await self.begin_review(game, replay, leaving)

    # --- clocks and pause ---------------------------------------------------------------------------------------------

    def _retime(self, clocks: Clocks | None = None, tell: bool = True, resumed_by: str | None = None) -> None:
        """After a move, a pause, the end, or the player to act coming or going: which bank runs now (from
        ``clocks``, or the banks as they stand), the timer that ends the game when it is empty, and (``tell``)
        everyone told (``resumed_by``: who let the game go on, when that is why)."""
        game = self.game
        if game is None:
            return
        time, state = game.time, game.state
        seat = self.seats[state.current] if game.running else None
        away = time.config.timed and seat is not None and seat.player is not None and not seat.player.online
        time.away = seat.name if away and seat is not None else None
        time.set(time.now() if clocks is None else clocks, state.current if game.running else None)
        expired = functools.partial(self.call_own, OutOfTime(game.id, state.turn))
        time.arm(None if self.closed else self.nursery, expired)
        if tell:
            self.to_members(frame(time.message(game.id, resumed_by)))

    async def _check_clock(self, request: OutOfTime) -> None:
        game = self.game
        if game is None or game.id != request.game or game.state.turn != request.turn or not game.running:
            return  # a move came in (or the game ended) while this was queued
        time = game.time
        if time.ticking is None:
            return  # paused meanwhile
        if not out_of_time(time.clocks, time.ticking, time.used()):
            self._retime()  # woken a hair early: sleep the rest
            return
        name = game.names_now()[game.state.current]
        log.info("table %d (%s): game %d: %s ran out of time", self.id, self.name, game.id, name)
        await self._end_game(out_of_time_sentence(name), timed_out=True)
        self.changed()

    async def _set_paused(self, player: Player, paused: bool) -> None:
        """``player`` pauses the game, or lets it go on; bots and pre-moves wait while it is paused."""
        self.seated(player)
        game = self._table_game()
        game.check_pause(paused)
        clocks = game.time.now()
        if clocks:
            await self.store.set_clocks(game.id, clocks)  # a restart finds the banks where the pause left them
        game.time.paused_by = player.name if paused else None
        log.info("table %d (%s): %s %s the game", self.id, self.name, player.name, "paused" if paused else "resumed")
        self._retime(clocks, resumed_by=None if paused else player.name)
        if not paused:
            self._schedule_bot()
            await self._premove_turn(game)

    # --- the bots' turns ----------------------------------------------------------------------------------------------

    def _schedule_bot(self, pause: float = 0.0) -> None:
        game = self.game
        if game is None or not game.running or self.nursery is None or game.time.paused:
            return  # bots wait while a game is paused
        state = game.state
        seat = self.seats[state.current]
        if seat is None or not seat.bot or game.bot_turn == state.turn:
            return
        game.bot_turn = state.turn
        self.nursery.start_soon(self._bot_turn, game.id, state.turn, state.current, view_for(state, state.current),
                                self.config.bot_delay + pause)

    async def _bot_turn(self, game: int, turn: int, seat: int, view: PlayerView, delay: float) -> None:
        decision = await decide(self.policy, view, self.bot_seats, self.level, delay)
        await self.call_own(BotMove(game, turn, seat, decision.action, decision.reason, decision.names_cards_of))

    async def _bot_move(self, move: BotMove) -> None:
        game = self.game
        seat = self.seats[move.seat]
        if game is None or game.id != move.game or game.state.turn != move.turn or not game.running \
                or seat is None or not seat.bot:
            return  # the game moved on (ended, or restarted), or the seat was handed to a person, while it thought
        if game.time.paused:
            game.bot_turn = None  # paused while it was thinking: it thinks again once the game goes on
            return
        new = apply(game.state, move.action, seat=move.seat)  # legal: ``decide`` saw to it, at this very turn
        decision = Decision(move.action, move.reason, move.names_cards_of)
        # The next seat's pre-move may be made in it too.
        await self._commit(game, move.seat, move.action, new, _reason(game.id, move.turn, move.seat, decision, new))

    def _tell_reason(self, game: Game, reason: Withheld) -> None:
        """A bot's reason, with its move: to everyone at the table but the seats whose own cards it names (and the
        spectators who watch as one of them)."""
        message, named = reason
        self.to_members(frame(message), seeing=lambda seat: seat not in named)
        game.reasons.append(reason)

    # --- reviews ------------------------------------------------------------------------------------------------------

    async def begin_review(self, game: Game, replay: str, leaving: Player | None = None) -> None:
        """The table's game has just ended (``replay``: its file): the host leads its review, from the end
        (``leaving``, who ended it by leaving the table, is not told). A review not saved is no review: the host can
        open it again."""
        host = self.player_at(self.host) if self.host is not None else None
        if host is None:
            return
        try:  # everyone has just had its replay with game_over
            await self._show_review(reviews.of_game(game.id, game.state, replay, host.name), but=leaving)
        except StoreFailure as e:
            log.error("table %d: the review of game %d could not be saved: %s", self.id, game.id, e)

    async def _review(self, player: Player, request: ReviewRequest) -> None:
        seat = self.place(player)
        if isinstance(request, OpenReview):
            refuse(rules.open_review_refusal(self.info(), seat))
            await self._show_review(await reviews.opened(self.store, request.game, player.name), with_game=True)
            return
        review = reviews.led(self.review, self.info(), self.watchers(), player.name, seat, request)
        if isinstance(request, HypoBot):
            assert self.nursery is not None
            self.nursery.start_soon(self._choose_for_what_if, review.game, reviews.bot_turn(review))
        elif isinstance(request, reviews.WhatIfMove):
            await self._show_what_if(reviews.hypothesised(review, player.name, request))
        else:
            await self._show_review(reviews.moved(review, player.name, request))

    async def _lead_left(self, player: Player) -> None:
        """The review's leader left the table: the host leads it now, and everyone here is told (their bar named
        the one who left, and the host's first step would have taken the lead without a word)."""
        review = self.review
        host = self.player_at(self.host) if self.host is not None else None
        if review is None or review.leader != player.name or host is None or host is player:
            return
        await self._show_review(replace(review, leader=host.name, pointer=None))

    async def _show_review(self, review: reviews.TableReview, with_game: bool = False,
                           but: Player | None = None) -> None:
        """Store the review's new state, then make it the table's and show it to everyone here (but ``but``)."""
        await self.store.set_review(self.id, review.game, review.leader, review.step, review.pointer)
        ended = self.review is not None and self.review.what_if is not None and review.what_if is None
        self.review = review
        data = review.frames(self.id) if with_game else frame(review.message(self.id))
        if ended:  # a step back to the real game (or the game opened again) ends the what if, for everyone
            data += frame(review.hypothetical(self.id))
        self.to_members(data, but=but)

    async def _show_what_if(self, review: reviews.TableReview) -> None:
        """The review's what if changed: everyone here is shown it. Only the review's own state is stored (the
        host taking the lead is); the what if never is."""
        old = self.review
        led = old is None or old.leader != review.leader
        if led or old is None or (old.step, old.pointer) != (review.step, review.pointer):
            await self.store.set_review(self.id, review.game, review.leader, review.step, review.pointer)
        self.review = review
        self.to_members((frame(review.message(self.id)) if led else b"") + frame(review.hypothetical(self.id)))

    async def _choose_for_what_if(self, game: int, what: WhatIf) -> None:
        """The house bot chooses the what if's next move beside the table's task, from the view of the seat to
        act there; its move comes back through the queue (``WhatIfBotMove``)."""
        seats = frozenset(s for s in self.bot_seats if s < what.state.players)
        decision = await decide(self.policy, seat_view(what), seats, self.level, 0.0)
        await self.call_own(WhatIfBotMove(game, what, decision.action))

    async def _bot_moved_in_what_if(self, move: WhatIfBotMove) -> None:
        review = self.review
        asked = move.what_if
        now = review.what_if if review is not None else None
        if review is None or review.game != move.game or now is None or (now.step, now.moves) != (asked.step,
                                                                                                   asked.moves):
            return  # the what if moved on (or ended) while the bot thought
        try:
            moved = reviews.with_move(review, review.leader, now, move.action)
        except Refused:  # a bug of the bot's: its first legal move, as in a game
            moved = reviews.with_move(review, review.leader, now, legal_actions(now.state)[0])
        await self._show_what_if(moved)

    # --- seats, the host's powers, chat -------------------------------------------------------------------------------

    async def sit(self, seat: int, player: Player | None) -> str:
        """``player`` (None: a house bot) takes ``seat``, in the store first; returns the name the seat shows."""
        name = player.name if player is not None else free_bot_name(s.name for s in self.seats if s is not None)
        await self.store.set_seat(self.id, seat, bot=player is None, name=name,
                                  key=player.key if player is not None else None)
        self.seats[seat] = Seat(name, player)
        return name

    async def _unseat(self, seat: int) -> None:
        await self.store.clear_seat(self.id, seat)
        self.seats[seat] = None

    async def _set_host(self, seat: int) -> None:
        await self.store.set_host(self.id, seat)
        self.host = seat

    async def may_use_host_powers(self, player: Player, refusal: rules.Refusal | None) -> None:
        """Refuse with ``refusal`` (from a table rule), or go ahead, the asker becoming host if the host is away."""
        refuse(refusal)
        seat = self.seated(player)
        if rules.takes_over_host(self.info(), seat):
            await self._set_host(seat)
            self.changed()

    async def _join(self, player: Player, seat: int | None, password: str | None, request_id: int | None) -> int:
        """Seat ``player`` (whom the lobby has checked sits nowhere); returns the seat."""
        check_password(self.password, password, self.name)
        info = self.info()
        refuse(rules.join_refusal(info, seat))
        if seat is None:
            seat = rules.free_seat(info)
            assert seat is not None
        await self.sit(seat, player)
        if player in self.spectators:  # a spectator of this table taking a seat
            await self._stop_watching(player)
        self.watch_absence()
        if self.host is None and not player.network_bot:
            await self._set_host(seat)
        self.send_table(player, request_id)
        self.changed()
        return seat

    async def _spectate(self, player: Player, password: str | None, request_id: int | None,
                        let_in: bool = False) -> None:
        if not let_in:
            check_password(self.password, password, self.name)
            if len(self.spectators) >= self.config.max_spectators and player not in self.spectators:
                raise Refused(ErrorCode.TABLE_FULL, f"table {self.name!r} has {len(self.spectators)} spectators, "
                                                    "the most it takes: watch another, or try again later")
        # Stored as a seat is: a spectator who resumes after a restart is taken back here (Lobby.restore).
        await self.store.set_watching(player.key, self.id)
        self.spectators.add(player)
        self.send_table(player, request_id)
        self.changed()

    async def _stop_watching(self, player: Player) -> None:
        await self.store.set_watching(player.key, None)
        self.spectators.discard(player)
        self.seen_as.pop(player, None)

    async def _leave(self, player: Player) -> None:
        seat = self.place(player)
        if seat is None:
            await self._stop_watching(player)
            await self._lead_left(player)
            self.changed()
            return
        if self.running:
            await self._end_game(f"{player.name} left the table", leaving=player)
        await self._unseat(seat)
        if not self.persons():
            await self.close(leaving=player)
            return
        self.watch_absence()  # the one who left may have been the only one connected
        if self.host == seat:
            await self._set_host(self.persons()[0][0])
        await self._lead_left(player)
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
        members = [p for p, _ in self.viewers()] + ([leaving] if leaving is not None else [])
        gone = TableGone(table=self.id, reason=f"table {self.name!r} closed: {why}")
        for p in members:
            p.tell(gone)
        self.spectators.clear()
        self.seen_as.clear()
        self.lobby.table_closed(self, members)

    async def _add_bot(self, player: Player, seat: int) -> None:
        await self.may_use_host_powers(player, rules.add_bot_refusal(self.info(), self.seat_of(player), seat))
        await self.sit(seat, None)
        self.changed()

    async def _remove_bot(self, player: Player, seat: int) -> None:
        await self.may_use_host_powers(player, rules.remove_bot_refusal(self.info(), self.seat_of(player), seat))
        await self._unseat(seat)
        self.changed()

    async def _give_host(self, player: Player, seat: int) -> None:
        refuse(rules.give_host_refusal(self.info(), self.seat_of(player), seat))
        await self._set_host(seat)
        self.changed()

    async def _hand_seat(self, host: Player, request: Handover) -> Player | None:
        """Give the seat (the lobby found ``to``), store it, tell everyone. Returns who lost it (None: a bot)."""
        seat, to = request.seat, request.to
        await self.may_use_host_powers(host, rules.hand_seat_refusal(self.info(), self.seat_of(host), seat,
                                                                     to_bot=to is None))
        old = self.seats[seat]
        assert old is not None  # the rule refuses an empty seat
        name = await self.sit(seat, to)
        game = self.game
        turn = None
        if game is not None and game.running:
            bot = to is None or to.network_bot
            added = game.handing(seat, name, bot, was_bot=old.info().plays_as_bot)
            await self.store.seat_handed(game.id, None if to is None else to.key, bot, added)
            game.holders.extend(added)  # once stored: a failed write leaves the game's record as the store's
            turn = game.state.turn
        if game is not None:
            game.premoves.pop(seat, None)  # the move the one who lost the seat queued is not the new holder's choice
            if old.bot and game.state.current == seat:
                game.bot_turn = None  # its choice, if it is still thinking, is refused (``_bot_move``)
        handed = SeatHanded(table=self.id, seat=seat, name=name, bot=to is None, previous=old.name, by=host.name,
                            turn=turn)
        if to is not None:
            self.send_table(to)
        self.changed()
        self.to_members(frame(handed))
        previous = old.player
        if previous is not None:  # away, so told when they come back (or now, if they came back meanwhile)
            previous.tell(handed)
        self.watch_absence()
        if self.running and self.settings.game.timed:
            self._retime()  # a timed game paused itself while the player to act was away: the new holder is here
        self._schedule_bot()
        return previous

    def _watch_seat(self, player: Player, request: WatchSeat) -> None:
        """A spectator sees the game as ``request.seat`` does from now on (None: every hand): told so, then sent
        that seat's view and the notes it may read. Nothing is stored: it is a way of looking, not a place."""
        if self.place(player) is not None:
            raise Refused(ErrorCode.ALREADY_SEATED, "you sit at this table and see your own seat's view: watching "
                                                    "as a seat is for spectators")
        seat = request.seat
        if seat is not None and seat >= len(self.seats):
            raise Refused(ErrorCode.BAD_FIELD, f"watch_seat.seat: this table has seats 0 to {len(self.seats) - 1}")
        if seat is None:
            self.seen_as.pop(player, None)
        else:
            self.seen_as[player] = seat
        player.send(WatchingSeat(table=self.id, seat=seat, id=request.id))
        game = self.game
        if game is None:
            return
        player.send(game.view(seat))
        player.send_frame(game.notes_seen(seat))

    def _chat(self, player: Player, text: str) -> None:
        refuse(rules.chat_refusal(self.info(), seated=self.place(player) is not None))
        self.to_members(frame(Chat(table=self.id, sender=player.name, text=text)))

    # --- connections coming and going, and absence --------------------------------------------------------------------
    # welcome_back and connection_lost run in the connection's task, not the table's: each is one step with no
    # await in it, so the table's task never sees it half done.

    def welcome_back(self, player: Player) -> None:
        """``player`` reconnected: their seat (or spectator place) and the current view, at once."""
        seat = self.seat_of(player)
        if seat is None and player not in self.spectators:
            return  # their seat was handed on while they were away (``lobby.hand_over``): the lobby is where they are
        if seat is not None and self.running and self.settings.game.timed:
            # The clock they are sent runs again if it was waiting for them, rather than saying it waits for them.
            self._retime(tell=False)
        self.send_table(player)
        if seat is not None:
            self._seat_status(seat, True)
        else:
            self.changed()  # one more spectator watching

    def connection_lost(self, player: Player, left: bool = False) -> None:
        """A closed connection keeps its place, seat or spectator's, for when the player resumes; ``left``: they
        quit on purpose (their goodbye came), which the others are told, rather than a dropped line."""
        seat = self.seat_of(player)
        if seat is None:
            self.changed()  # one spectator fewer watching (the count is of those connected)
        else:
            self._seat_status(seat, False, left)

    def _seat_status(self, seat: int, connected: bool, left: bool = False) -> None:
        self.to_members(frame(SeatStatus(table=self.id, seat=seat, connected=connected, left=left)))
        self.active = trio.current_time()
        self.lobby.table_changed(self)
        if self.running and self.settings.game.timed:
            self._retime()  # the player to act came or went: a timed game pauses itself while they are away
        self.watch_absence()

    def watch_absence(self) -> None:
        """A dropped connection keeps its seat, so a table whose people all went home would wait for ever: once
        no seated human is connected, an alarm starts that closes it after ``abandon_after``; one back stops it."""
        away = bool(self.persons()) and not self.someone_connected
        limit = self.config.abandon_after
        if not away or limit is None:
            self._away_since = None
            self._absence.cancel()
        elif self._away_since is None:
            since = trio.current_time()
            nursery = None if self.closed else self.nursery
            if self._absence.set(nursery, limit, functools.partial(self.call_own, Abandoned(since))):
                self._away_since = since

    async def _abandoned(self, request: Abandoned) -> None:
        if self._away_since != request.since:
            return  # someone came back while this was queued
        why = f"every player was away for {duration(self.config.abandon_after or 0)}"
        if self.running:
            await self._end_game(why)
        await self.close(why)

    # --- telling people -----------------------------------------------------------------------------------------------

    def to_members(self, data: bytes, but: Player | None = None,
                   seeing: Callable[[int | None], bool] | None = None) -> None:
        """The frame ``data``, the same for all, to everyone here (but ``but``); with ``seeing``, only to those
        the seat whose view they are sent (``viewers``) lets see it. A view is not such a frame: it goes through
        ``Player.send``, whose connection sends each peer only the game's events it has not had yet."""
        for p, seat in self.viewers(but):
            if seeing is None or seeing(seat):
                p.send_frame(data)

    def _tell(self, seat: int, message: Queued) -> None:
        player = self.player_at(seat)
        if player is not None:
            player.send(message)

    def changed(self) -> None:
        """Everyone at the table and in the lobby learns its new public state (and who watches, if that changed)."""
        data = frame(TableChanged(table=self.info()))
        watchers = self.watchers()
        if watchers != self._watchers:
            self._watchers = watchers
            data += frame(Watchers(table=self.id, names=watchers))
        self.to_members(data)
        self.active = trio.current_time()
        self.lobby.table_changed(self)

    def send_table(self, player: Player, request_id: int | None = None) -> None:
        """What someone arriving needs: ``joined`` (answering ``request_id``), the game's view, bots' reasons,
        clocks, pre-move and notes they may see (a seat only its own notes while the game runs), the review if
        any, and who watches."""
        own = self.seat_of(player)
        seat = dict(self.viewers()).get(player)  # whose view they are sent, as every frame to them is
        game = self.game
        holders = tuple(Holder(h.turn, h.seat, h.name) for h in game.holders[-HOLDERS_MAX:]) \
            if game is not None and game.running else ()
        player.send(Joined(table=self.info(), seat=own, id=request_id, holders=holders))
        if player in self.seen_as:
            player.send(WatchingSeat(table=self.id, seat=seat))
        if game is not None:
            player.send(game.view(seat))
            for message, named in game.reasons:  # the bots' reasons they may read (all, once the game is over)
                if not game.running or seat not in named:
                    player.send(message)
            player.send(game.time.message(game.id))
            if seat is not None and seat in game.premoves and player not in self.seen_as:
                player.send(game.queued(seat, ""))
            player.send_frame(game.notes_seen(seat))
        if self.review is not None:
            player.send_frame(self.review.frames(self.id))
        player.send(Watchers(table=self.id, names=self.watchers()))

    # --- who is here (reading only) -----------------------------------------------------------------------------------

    def people(self) -> list[tuple[int, Player]]:
        """The players seated here by a connection of their own (house bots are not; a ``hanabi-bot`` is), each
        with their seat, in seat order."""
        return [(i, s.player) for i, s in enumerate(self.seats) if s is not None and s.player is not None]

    def persons(self) -> list[tuple[int, Player]]:
        """The persons seated here: ``people`` but the network bots. A table with none is nobody's: it closes, and
        a bot is never its host (it would wait for itself to start the next game)."""
        return [(i, p) for i, p in self.people() if not p.network_bot]

    @property
    def someone_connected(self) -> bool:
        return any(p.online for _, p in self.persons())

    @property
    def running(self) -> bool:
        return self.game is not None and self.game.running

    def player_at(self, seat: int) -> Player | None:
        """The person in ``seat`` (None for an empty seat or a bot's)."""
        s = self.seats[seat]
        return s.player if s is not None else None

    def seat_of(self, player: Player) -> int | None:
        return next((i for i, p in self.people() if p is player), None)

    def place(self, player: Player) -> int | None:
        """``player``'s seat here (None: watching), or ``Refused`` if they are at this table neither way."""
        seat = self.seat_of(player)
        if seat is None and player not in self.spectators:
            raise Refused(ErrorCode.NOT_SEATED, "you are not at this table")
        return seat

    def seated(self, player: Player) -> int:
        seat = self.seat_of(player)
        if seat is None:
            raise Refused(ErrorCode.NOT_SEATED, "only players seated at this table can do that")
        return seat

    def viewers(self, but: Player | None = None) -> list[tuple[Player, int | None]]:
        """Everyone here (but ``but``), seated first, each with the seat whose view they are sent (their own, the one
        a spectator watches as, or None: every hand); one who both sits and watches here (the lobby should not let
        that happen) counts once, as seated."""
        seated: list[tuple[Player, int | None]] = [(p, i) for i, p in self.people()]
        sitting = {p for p, _ in seated}
        watching = [(p, self.seen_as.get(p)) for p in self.spectators if p not in sitting]
        return [(p, seat) for p, seat in seated + watching if p is not but]

    def info(self) -> TableInfo:
        return TableInfo(
            id=self.id, name=self.name, seats=len(self.seats),
            players=tuple(None if s is None else s.info() for s in self.seats),
            has_password=self.password is not None, running=self.running,
            spectators=sum(1 for p in self.spectators if p.online), host=self.host, level=self.level,
            seeded=self.settings.seed is not None, advice=self.settings.advice,
            **{k: getattr(self.settings.game, k) for k in GAME_CHOICES})

    @property
    def bot_seats(self) -> frozenset[int]:
        """The seats that play by the house bots' conventions: theirs, and network bots'."""
        return frozenset(i for i, s in enumerate(self.seats) if s is not None and s.info().plays_as_bot)

    @property
    def level(self) -> Level:
        """The level the bots play at: the one chosen, else beginner beside a person, the strongest among bots."""
        return table_level(self.settings.level, len(self.seats), self.bot_seats)

    def watchers(self) -> tuple[str, ...]:
        """The names of the spectators connected now, sorted."""
        return by_name(p.name for p in self.spectators if p.online)
