"""The game-running half of a table: starting a game, moves, the bots' turns, clocks, pause, pre-moves, advice.

These run in the table's task. ``table.py`` keeps who sits where, the
host's powers and who is told what; this module keeps what happens once a
game is dealt, and reaches its table only through ``TableSide``: it reads
the seats and asks the table to tell people; what it changes is the
``Game`` (a value the table holds). A move follows one path whoever makes
it (a person, a bot, a pre-move): checked by the game, written to the
store, and only then shown (``commit``). A bot's choice is made after a
delay (so people can follow), in a worker thread (so a slow bot never
stalls the event loop), from its seat's redacted ``PlayerView`` alone (it
cannot cheat), the seats house bots hold and the table's convention level.
"""
from __future__ import annotations

import functools
import logging
import secrets
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

import trio
from hanabi.engine import (
    Action,
    Clocks,
    GameState,
    Play,
    PlayerView,
    Rearrange,
    apply,
    new_game,
    out_of_time,
    terminate,
    time_out,
    view_for,
)
from hanabi.engine.bots import Decision, Level, seats_named, table_level
from hanabi.protocol import (
    SENTENCE_MAX,
    AdviceReply,
    BotReason,
    ErrorCode,
    GameStarted,
    GetAdvice,
    Queued,
    QueueMove,
    TableInfo,
    WriteNote,
)
from hanabi.protocol import table_rules as rules

from .config import ServerConfig
from .game import NO_GAME, Game, out_of_time_sentence
from .records import TableSettings
from .requests import BotMove, OutOfTime
from .session import Player, Refused, Seat, frame, refuse
from .store import Store, StoreFailure

log = logging.getLogger("hanabi.server.table")  # one log for a table's work, whichever module does it

Withheld = tuple[BotReason, frozenset[int]]  # a bot's reason, and the seats it is kept from while the game runs

class TableSide(Protocol):
    """What the game-running part reads of its table (``table.Table``) and asks of it; it never changes it."""

    id: int
    name: str
    store: Store
    config: ServerConfig
    policy: Policy
    seats: list[Seat | None]

    @property
    def game(self) -> Game | None: ...
    @property
    def closed(self) -> bool: ...
    @property
    def nursery(self) -> trio.Nursery | None: ...
    @property
    def bot_seats(self) -> frozenset[int]: ...
    @property
    def level(self) -> Level: ...
    def viewers(self, but: Player | None = None) -> list[tuple[Player, int | None]]: ...
    def player_at(self, seat: int) -> Player | None: ...
    def seat_of(self, player: Player) -> int | None: ...
    def seated(self, player: Player) -> int: ...
    def to_members(self, data: bytes, but: Player | None = None,
                   seeing: Callable[[int | None], bool] | None = None) -> None: ...
    def changed(self) -> None: ...
    async def call_own(self, request: object) -> None: ...
    async def begin_review(self, game: Game, replay: str, leaving: Player | None = None) -> None: ...


async def deal(store: Store, table: int, settings: TableSettings, seats: Sequence[Seat | None]) -> Game:
    """A new game for the table ``table``'s ``seats``, written to the store (``started`` shows it)."""
    # A seed text deals every game of the table alike, and like every table given that text (with as many
    # players and the same variant): the engine shuffles from the text itself.
    seed = settings.seed if settings.seed is not None else secrets.token_hex(8)
    names = tuple(s.name for s in seats if s is not None)
    keys = tuple(s.player.key for s in seats if s is not None and s.player is not None)
    dealt = [s for s in seats if s is not None]
    bots = frozenset(i for i, s in enumerate(dealt) if s.info().plays_as_bot)  # house bots and network bots
    # The level the bots play at beside a person (``Table.level`` while one sits there): a person's moves are
    # judged at it.
    level = table_level(settings.level, len(dealt), frozenset())
    game_id = await store.start_game(table, settings.game, seed, names, keys, seeded=settings.seed is not None,
                                     bots=bool(bots), seating=(level, bots))
    game = Game(game_id, seed, names, new_game(settings.game, seed))
    game.bot_level, game.dealt_bots = level, bots
    return game


def started(table: TableSide) -> None:
    """The table's new game (``deal``) is its own now: everyone sees it, its clock runs, a bot may begin."""
    game = _table_game(table)
    log.info("table %d (%s): game %d started: %s", table.id, table.name, game.id, ", ".join(game.names))
    table.to_members(frame(GameStarted(table=table.id, game=game.id)))
    game.publish(table.viewers(), None)
    retime(table)
    table.changed()
    schedule_bot(table)


async def act(table: TableSide, player: Player, action: Action) -> None:
    seat = table.seated(player)
    game = _table_game(table)
    if not isinstance(action, Rearrange):
        game.check_not_paused()
    new = game.check(seat, action, table.config.rearranges_per_turn)
    await commit(table, game, seat, action, new)


async def commit(table: TableSide, game: Game, seat: int, action: Action, new: GameState,
                 reason: Withheld | None = None) -> None:
    """Write the action (with the clocks after it, and a bot's ``reason`` for it), then show it: nobody sees a
    move the store does not hold, and a bot's reason comes with its move (a restart keeps it, from the same
    seats)."""
    takes_turn = not isinstance(action, Rearrange)  # rearranging one's hand is no turn
    clocks = game.time.after_move(seat) if takes_turn else ()
    await table.store.add_action(game.id, game.seq, action, clocks, reason)
    game.record(seat, action, new)
    event = new.events[-1]
    game.publish(table.viewers(), event)
    if reason is not None:
        _tell_reason(table, game, reason)
    if takes_turn:
        for cancelled, why in game.cancel_premoves(event):
            _tell(table, cancelled, game.queued(cancelled, why))
        retime(table, clocks, tell=game.time.config.timed)  # an untimed game's clock does not change with moves
    if new.outcome is not None:
        try:
            await table.store.finish_game(game.id, new.outcome.score, new.outcome.reason.value)
        except StoreFailure as e:
            # The last action is saved, so the game is over all the same: everyone is told so now, and a
            # restart marks it finished from its actions (Lobby.restore).
            log.error("game %d: its end could not be saved (marked on the next start): %s", game.id, e)
        log.info("table %d (%s): game %d over: %d/%d, %s", table.id, table.name, game.id, new.outcome.score,
                 new.outcome.max_score, new.outcome.reason.value)
        await _over(table, game)
        table.changed()
    else:
        schedule_bot(table)
        if takes_turn:
            await _premove_turn(table, game)


async def end_game(table: TableSide, why: str, leaving: Player | None = None, timed_out: bool = False) -> None:
    """Stop the running game (``timed_out``: the player to act ran out of time); everyone's last view shows it
    over, as after a last move (but the one ``leaving``, who goes back to the lobby and wants no more of this
    table)."""
    game = table.game
    assert game is not None
    ended = time_out(game.state, why) if timed_out else terminate(game.state, why)
    assert ended.outcome is not None
    await table.store.finish_game(game.id, 0, ended.outcome.reason.value)
    game.state = ended
    retime(table, tell=game.time.config.timed)  # no bank runs any more
    game.publish(table.viewers(but=leaving), None)
    await _over(table, game, leaving)


async def _over(table: TableSide, game: Game, leaving: Player | None = None) -> None:
    """The game is over: everyone here (but ``leaving``) gets the whole game and its file, each seat (and who
    watched as it) the bots' reasons kept from it while it ran; then the review begins, from the same file."""
    replay = game.replay_json()
    table.to_members(game.over_frames(replay), but=leaving)
    for message, named in game.reasons:
        table.to_members(frame(message), but=leaving, seeing=named.__contains__)  # to the seats it was kept from
    await table.begin_review(game, replay, leaving)


def _table_game(table: TableSide) -> Game:
    """The table's game (running, or the last one), or the refusal that there is none."""
    if table.game is None:
        raise Refused(ErrorCode.GAME_NOT_RUNNING, NO_GAME)
    return table.game


def _tell(table: TableSide, seat: int, message: Queued) -> None:
    player = table.player_at(seat)
    if player is not None:
        player.send(message)


def retime(table: TableSide, clocks: Clocks | None = None, tell: bool = True, resumed_by: str | None = None) -> None:
    """After a move, a pause, the end, or the player to act coming or going: which bank runs now (from
    ``clocks``, or the banks as they stand), the timer that ends the game when it is empty, and (``tell``)
    everyone told (``resumed_by``: who let the game go on, when that is why)."""
    game = table.game
    if game is None:
        return
    time, state = game.time, game.state
    seat = table.seats[state.current] if game.running else None
    away = time.config.timed and seat is not None and seat.player is not None and not seat.player.online
    time.away = seat.name if away and seat is not None else None
    time.set(time.now() if clocks is None else clocks, state.current if game.running else None)
    time.arm(None if table.closed else table.nursery, functools.partial(table.call_own, OutOfTime(game.id, state.turn)))
    if tell:
        table.to_members(frame(time.message(game.id, resumed_by)))


async def check_clock(table: TableSide, request: OutOfTime) -> None:
    game = table.game
    if game is None or game.id != request.game or game.state.turn != request.turn or not game.running:
        return  # a move came in (or the game ended) while this was queued
    time = game.time
    if time.ticking is None:
        return  # paused meanwhile
    if not out_of_time(time.clocks, time.ticking, time.used()):
        retime(table)  # woken a hair early: sleep the rest
        return
    name = game.names[game.state.current]
    log.info("table %d (%s): game %d: %s ran out of time", table.id, table.name, game.id, name)
    await end_game(table, out_of_time_sentence(name), timed_out=True)
    table.changed()


async def set_paused(table: TableSide, player: Player, paused: bool) -> None:
    """``player`` pauses the game, or lets it go on; bots and pre-moves wait while it is paused."""
    table.seated(player)
    game = _table_game(table)
    game.check_pause(paused)
    clocks = game.time.now()
    if clocks:
        await table.store.set_clocks(game.id, clocks)  # a restart finds the banks where the pause left them
    game.time.paused_by = player.name if paused else None
    log.info("table %d (%s): %s %s the game", table.id, table.name, player.name, "paused" if paused else "resumed")
    retime(table, clocks, resumed_by=None if paused else player.name)
    if not paused:
        schedule_bot(table)
        await _premove_turn(table, game)


async def _premove_turn(table: TableSide, game: Game) -> None:
    """At the start of a turn: the move its player queued, made now (unless the game is paused)."""
    if game is not table.game or not game.running or game.time.paused:
        return
    seat = game.state.current
    move = game.premoves.pop(seat, None)
    if move is None:
        return
    verb = "play" if isinstance(move, Play) else "discard"
    try:
        new = game.check(seat, move, table.config.rearranges_per_turn)
    except Refused as e:
        _tell(table, seat, game.queued(seat, f"your queued {verb} was not made, it is your turn now: {e.message}"))
        return
    try:
        await commit(table, game, seat, move, new)
    except StoreFailure as e:
        # The move before this one is saved and shown; this one is not made, and its player plays by hand.
        log.error("game %d: a queued move was not saved: %s", game.id, e)
        _tell(table, seat, game.queued(seat, f"your queued {verb} was not made (the server could not save it): "
                                           "it is your turn now"))
        return
    _tell(table, seat, game.queued(seat, f"your queued {verb} was made"))


def queue_move(table: TableSide, player: Player, request: QueueMove) -> None:
    """A seat's pre-move for its next turn (or none): kept, and its player told what is queued now."""
    game = _table_game(table)
    seat = table.seated(player)
    player.send(game.queued(seat, game.queue(seat, request)))


async def write_note(table: TableSide, player: Player, request: WriteNote) -> None:
    """A seat's note on a card: stored, then its writer's whole set goes back to the writer and to the
    spectators who see everyone's notes or watch as that seat; never to another seat while the game runs."""
    seat = table.seated(player)
    game = _table_game(table)
    game.check_note(seat, request.order, request.text)
    await table.store.set_note(game.id, seat, request.order, request.text)
    game.write_note(seat, request.order, request.text)
    player.send(game.notes_of(seat, request.id))
    # Another seat sees its own notes only.
    table.to_members(frame(game.notes_of(seat)), but=player, seeing=lambda seen: seen in (None, seat))


# (the bot's view, the seats of house bots, the table's convention level) -> the bot's decision
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


def schedule_bot(table: TableSide, pause: float = 0.0) -> None:
    game = table.game
    if game is None or not game.running or table.nursery is None or game.time.paused:
        return  # bots wait while a game is paused
    state = game.state
    seat = table.seats[state.current]
    if seat is None or not seat.bot or game.bot_turn == state.turn:
        return
    game.bot_turn = state.turn
    table.nursery.start_soon(_bot_turn, table, game.id, state.turn, state.current, view_for(state, state.current),
                              table.config.bot_delay + pause)


async def _bot_turn(table: TableSide, game: int, turn: int, seat: int, view: PlayerView, delay: float) -> None:
    decision = await decide(table.policy, view, table.bot_seats, table.level, delay)
    await table.call_own(BotMove(game, turn, seat, decision.action, decision.reason, decision.names_cards_of))


async def bot_move(table: TableSide, move: BotMove) -> None:
    game = table.game
    seat = table.seats[move.seat]
    if game is None or game.id != move.game or game.state.turn != move.turn or not game.running \
            or seat is None or not seat.bot:
        return  # the game moved on (ended, or restarted), or the seat was handed to a person, while it thought
    if game.time.paused:
        game.bot_turn = None  # paused while it was thinking: it thinks again once the game goes on
        return
    new = apply(game.state, move.action, seat=move.seat)  # legal: ``bots.decide`` saw to it, at this very turn
    decision = Decision(move.action, move.reason, move.names_cards_of)
    # The next seat's pre-move may be made in it too.
    await commit(table, game, move.seat, move.action, new, _reason(game.id, move.turn, move.seat, decision, new))


def _reason(game: int, turn: int, seat: int, decision: Decision, new: GameState) -> Withheld:
    """Why the bot of ``seat`` made its move of ``turn`` (``new`` the state after it), and the seats it is kept
    from: those whose own cards it names, while the game runs; none once the move ended it."""
    # One line, as the protocol wants it, whatever a bot wrote.
    reason = " ".join(decision.reason.split())[:SENTENCE_MAX] or "no reason given"
    named = frozenset() if new.outcome is not None else seats_named(decision, seat, new.players)
    return BotReason(game=game, turn=turn, seat=seat, reason=reason), named


def _tell_reason(table: TableSide, game: Game, reason: Withheld) -> None:
    """A bot's reason, with its move: to everyone at the table but the seats whose own cards it names (and the
    spectators who watch as one of them)."""
    message, named = reason
    table.to_members(frame(message), seeing=lambda seat: seat not in named)
    game.reasons.append(reason)


async def advise(table: TableSide, info: TableInfo, player: Player, request: GetAdvice) -> None:
    """Answer ``player``'s ``get_advice`` (``info``: the table as everyone sees it), or refuse it. The advice is
    the engine's: the house bot at the table's level decides from the asker's own redacted view, so it tells them
    nothing their screen does not already show. Whether a table gives advice at all is its host's choice
    (``table_rules.advice_refusal``). The game is marked as played with advice in the store before the answer
    leaves, so no advice is ever given unmarked."""
    refuse(rules.advice_refusal(info, table.seat_of(player)))  # a seated player, while the game runs
    seat, game = table.seated(player), _table_game(table)
    state = game.state
    if state.current != seat:
        raise Refused(ErrorCode.NOT_YOUR_TURN, f"advice is for your own turn: it is {game.names[state.current]}'s "
                                               "turn now")
    # The names of who holds each seat now (a seat handed to a bot is the bot's), not of who was dealt it.
    names = tuple(p.name if p is not None else dealt for p, dealt in zip(info.players, game.names, strict=True))
    from hanabi.engine.coach import advice_for  # with the first advice asked for, not at start

    # Off the event loop, as the bots' own turns are: the table waits for it, and nothing else changes the game.
    advice = await trio.to_thread.run_sync(functools.partial(
        advice_for, state, seat, level=table.level, bot_seats=table.bot_seats, names=names))
    if seat not in game.advised:
        await table.store.mark_advice(game.id, seat)
        game.advised.add(seat)
    player.send(AdviceReply(game=game.id, turn=state.turn, move=advice.move[:SENTENCE_MAX],
                            reason=advice.reason[:SENTENCE_MAX], convention=advice.convention,
                            section=advice.section, id=request.id))
