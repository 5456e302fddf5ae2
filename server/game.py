"""One game at a table: its state, the checks a move passes before it is stored, and the views it sends.

A ``Game`` is a value its table's task owns: the table asks it whether a
move may be made (``check``, which gives the next state without changing
anything), writes the move to the store, and only then records it
(``record``) and has the game show it (``publish``). Every frame to a seat
is built from that seat's redacted view (the engine's ``views_for`` makes a
move's views together), so nothing a seat may not see can reach it.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from hanabi.engine import (
    Action,
    ActionDoesNotApply,
    Discard,
    EndReason,
    Event,
    GameEnded,
    GameState,
    IllegalAction,
    NotYourTurn,
    Play,
    PreMove,
    Rearrange,
    apply,
    cancelled_by,
    new_game,
    note_problem,
    note_target_problem,
    premove_refusal,
    replay,
    replay_actions,
    reveal,
    seat_notes_problem,
    terminate,
    time_out,
    view_for,
    views_for,
)
from hanabi.engine.bots import Level
from hanabi.engine.replay import SeatHolder, handed_on, names_at
from hanabi.protocol import (
    BotReason,
    CardNote,
    CardNotes,
    ErrorCode,
    GameEvent,
    GameOver,
    PreMoveKind,
    Queued,
    QueueMove,
    ReplayFile,
    ViewUpdate,
)

from .saved import StoredGame
from .session import Player, Refused, frame
from .timing import GameTime

log = logging.getLogger(__name__)

NO_GAME = "no game is running at this table"  # the start of every refusal for want of a running game


def replayed(stored: StoredGame) -> GameState:
    """A stored game brought back: its actions applied to its deal. An action that no longer applies (a damaged
    store) stops the game there; a game the store marks finished but whose actions did not end it is stopped."""
    try:
        state = replay_actions(new_game(stored.config, stored.seed), stored.actions)
    except ActionDoesNotApply as e:
        log.error("game %d: %s; the game is stopped there", stored.id, e)
        return terminate(e.state, "the stored game could not be fully restored")
    if stored.finished is not None and not state.over:
        if stored.end_reason == EndReason.TIMEOUT.value:
            who = names_at(stored.players, stored.holders, state.turn)[state.current]
            return time_out(state, out_of_time_sentence(who))
        state = terminate(state, "the game was stopped")
    return state


def replay_text(stored: StoredGame) -> str:
    """The hanab.live JSON of a stored game, rebuilt by replaying its actions (one not finished: as stopped)."""
    return Game.restore(stored).replay_json()


def out_of_time_sentence(name: str) -> str:
    return f"{name} ran out of time: the table loses the game"


@dataclass(slots=True)
class Game:
    id: int
    seed: str
    names: tuple[str, ...]
    state: GameState
    seq: int = 0  # actions written to the store so far
    rearranged: Counter[int] = field(default_factory=Counter)  # seat -> rearrangements since the last turn taken
    notes: dict[int, dict[int, str]] = field(default_factory=dict)  # seat -> card order -> that seat's note
    premoves: dict[int, PreMove] = field(default_factory=dict)  # seat -> the move it queued for its next turn
    # The bots' reasons, each with the seats it was kept from while the game ran (it names their own cards): they
    # get it at the end; whoever comes back gets again what they may read.
    reasons: list[tuple[BotReason, frozenset[int]]] = field(default_factory=list)
    bot_turn: int | None = None  # the turn a bot is thinking about (its choice is taken only for that turn)
    # The seats handed on while the game ran: who played the seat from which turn on (a seat's first entry names its
    # holder at the deal), so that a log, the review and the file name who moved. Kept in the store's ``seat_holders``.
    holders: list[SeatHolder] = field(default_factory=list)
    advised: set[int] = field(default_factory=set)  # the seats that asked the coach for advice (stored first)
    # The level of the house bots beside people, and the seats bots held at the deal: the file says them, so that
    # it alone says whose moves were a person's (``replay.BOT_LEVEL``). None for a game stored before they were.
    bot_level: Level | None = None
    dealt_bots: frozenset[int] = frozenset()
    time: GameTime = field(init=False)  # the clocks and the pause (a restored game's: its stored banks)

    def __post_init__(self) -> None:
        self.time = GameTime(self.state.config)

    @classmethod
    def restore(cls, stored: StoredGame) -> Game:
        game = cls(stored.id, stored.seed, stored.players, replayed(stored), len(stored.actions))
        game.notes = {seat: dict(notes) for seat, notes in stored.notes.items()}
        game.reasons = list(stored.reasons)
        game.advised = set(stored.advised)
        game.holders = list(stored.holders)
        game.bot_level, game.dealt_bots = stored.bot_level, stored.dealt_bots
        game.time = GameTime(game.state.config, stored.clocks)
        return game

    @property
    def running(self) -> bool:
        return not self.state.over

    def names_now(self) -> tuple[str, ...]:
        """Who plays each seat now: whoever it was last handed on to, or else who was dealt it."""
        return names_at(self.names, self.holders, self.state.turn)

    def handing(self, seat: int, name: str, bot: bool, was_bot: bool) -> list[SeatHolder]:
        """The entries of ``holders`` that make ``seat`` ``name``'s from the turn to come on (``bot``: a bot's;
        ``was_bot``: a bot held it at the deal). Changes nothing: the table stores them first, then adds them."""
        return handed_on((h.seat for h in self.holders), seat, self.state.turn, self.names[seat], name,
                         was_bot=was_bot, bot=bot)

    def check(self, seat: int, action: Action, rearranges_per_turn: int) -> GameState:
        """The state after ``seat`` makes ``action``, or ``Refused`` saying why it may not; changes nothing."""
        # Each rearrangement adds an event to the history every view carries: a few per seat and turn.
        if isinstance(action, Rearrange) and self.running and self.rearranged[seat] >= rearranges_per_turn:
            raise Refused(ErrorCode.RATE_LIMITED, f"you have rearranged your hand {rearranges_per_turn} times "
                                                  "this turn, the most allowed: you can again once the next "
                                                  "turn is taken")
        try:
            return apply(self.state, action, seat=seat)
        except GameEnded:
            raise Refused(ErrorCode.GAME_NOT_RUNNING, NO_GAME) from None
        except NotYourTurn as e:
            raise Refused(ErrorCode.NOT_YOUR_TURN, NotYourTurn.sentence(self.names_now()[e.current])) from None
        except IllegalAction as e:
            raise Refused(ErrorCode.ILLEGAL_ACTION, str(e)) from None

    def record(self, seat: int, action: Action, new: GameState) -> None:
        """``action``, checked and stored, happened."""
        if isinstance(action, Rearrange):  # counted once saved: a refused one does not use up the limit
            self.rearranged[seat] += 1
        else:  # a turn taken: every seat may rearrange again
            self.rearranged.clear()
        self.seq += 1
        self.state = new

    def check_note(self, seat: int, order: int, text: str) -> None:
        """Refuse a note the rules do not allow (engine/notes.py): only while the game runs, only on a card
        someone has drawn, only a short single line."""
        if not self.running:
            raise Refused(ErrorCode.GAME_NOT_RUNNING, "the game is over: notes are written while it runs")
        state = self.state
        problem = note_target_problem(len(state.deck), state.deck_left, order)
        if problem is not None:
            raise Refused(ErrorCode.ILLEGAL_ACTION, problem)
        problem = note_problem(text)
        if problem is not None:
            raise Refused(ErrorCode.BAD_FIELD, f"write_note.text: {problem}")
        problem = seat_notes_problem(self.notes.get(seat, {}), order, text)
        if problem is not None:
            raise Refused(ErrorCode.BAD_FIELD, problem)

    def write_note(self, seat: int, order: int, text: str) -> None:
        """``seat``'s note, checked and stored, is written (or deleted, for the empty text)."""
        notes = self.notes.setdefault(seat, {})
        if text:
            notes[order] = text
        else:
            notes.pop(order, None)

    def notes_of(self, seat: int, request_id: int | None = None) -> CardNotes:
        """Every note ``seat`` has written, in card order. Private to that seat while the game runs."""
        notes = self.notes.get(seat, {})
        return CardNotes(game=self.id, seat=seat, notes=tuple(CardNote(o, notes[o]) for o in sorted(notes)),
                         id=request_id)

    def every_seat_notes(self) -> bytes:
        """Every seat's notes, one frame each: for spectators, and for everyone once the game is over."""
        return b"".join(frame(self.notes_of(seat)) for seat in range(self.state.players))

    def notes_seen(self, seat: int | None) -> bytes:
        """The notes whoever sees the game as ``seat`` (None: every hand) may read: only its own while it runs."""
        return frame(self.notes_of(seat)) if seat is not None and self.running else self.every_seat_notes()

    # --- pre-moves and pause: the checks of the requests, which the table carries out ----------------------------

    def queue(self, seat: int, request: QueueMove) -> str:
        """Queue (or cancel) ``seat``'s pre-move as ``request`` asks; returns the sentence that tells them so."""
        if not self.running:
            raise Refused(ErrorCode.GAME_NOT_RUNNING, f"{NO_GAME}: there is no turn to queue a move for")
        if request.kind is None:
            self.premoves.pop(seat, None)
            return "no move is queued for your next turn any more"
        if request.order is None:
            raise Refused(ErrorCode.ILLEGAL_ACTION, "name the card: a pre-move plays or discards one card of your "
                                                    "hand, given by its order")
        move: PreMove = Play(request.order) if request.kind is PreMoveKind.PLAY else Discard(request.order)
        refusal = premove_refusal(self.state, seat, move)
        if refusal is not None:
            raise Refused(ErrorCode.ILLEGAL_ACTION, refusal)
        self.premoves[seat] = move
        return f"queued: your {request.kind.value} is made at the start of your turn"

    def cancel_premoves(self, event: Event) -> list[tuple[int, str]]:
        """The pre-moves ``event`` cancels (the engine's rule), taken off: (seat, why) for each."""
        cancelled = []
        for seat, move in list(self.premoves.items()):
            why = cancelled_by(event, move)
            if why is not None:
                del self.premoves[seat]
                cancelled.append((seat, why))
        return cancelled

    def queued(self, seat: int, note: str) -> Queued:
        move = self.premoves.get(seat)
        kind = None if move is None else PreMoveKind.PLAY if isinstance(move, Play) else PreMoveKind.DISCARD
        return Queued(game=self.id, kind=kind, order=None if move is None else move.order, note=note)

    def check_pause(self, paused: bool) -> None:
        """Refuse a pause (``paused``) or a resume that cannot be made now, with the sentence saying why."""
        if not self.running:
            raise Refused(ErrorCode.GAME_NOT_RUNNING, f"{NO_GAME}: there is nothing to pause")
        by = self.time.paused_by
        if paused and by is not None:
            raise Refused(ErrorCode.ILLEGAL_ACTION, f"the game is already paused ({by} paused it)")
        if not paused and by is None:
            waiting = f": it waits for {self.time.away} to reconnect" if self.time.away else ""
            raise Refused(ErrorCode.ILLEGAL_ACTION, f"the game is not paused by a player{waiting}")

    def check_not_paused(self) -> None:
        if self.time.paused:
            raise Refused(ErrorCode.GAME_PAUSED, f"the game is paused ({self.time.note()}): moves wait until a "
                                                 "player resumes it")

    def view(self, seat: int | None) -> ViewUpdate:
        return ViewUpdate(game=self.id, view=view_for(self.state, seat))

    def publish(self, viewers: Iterable[tuple[Player, int | None]], event: Event | None) -> None:
        """After a change: the event (public), and each one connected the view of the seat they see (their own, the
        one a spectator watches as, or None: every hand)."""
        event_frame = frame(GameEvent(game=self.id, event=event)) if event is not None else b""
        receivers = [(p, seat) for p, seat in viewers if p.online]
        # Built together, the views share the cards they all show (engine.views_for); one per seat seen.
        wanted = list(dict.fromkeys(seat for _, seat in receivers))
        views = dict(zip(wanted, views_for(self.state, wanted), strict=True))
        for player, seat in receivers:
            player.send(ViewUpdate(game=self.id, view=views[seat]), event_frame)

    def over_frames(self, replay: str) -> bytes:
        """What everyone at the table gets when the game ends: the whole deal, every seat's notes, and the replay
        file (``replay_json``)."""
        assert self.state.outcome is not None
        shown = reveal(self.state)
        return (frame(GameOver(game=self.id, outcome=shown.outcome, deck=shown.deck, seed=self.seed))
                + self.every_seat_notes()  # private while the game ran; everyone's now
                + frame(ReplayFile(game=self.id, json=replay)))

    def replay_json(self) -> str:
        """The game as hanab.live JSON, with every seat's notes, whether anyone asked the coach for advice and who
        took over a seat from which turn: what the end of the game and its review show everyone."""
        notes = [self.notes.get(seat, {}) for seat in range(self.state.players)]
        return replay.dumps(self.state, self.names, notes, bool(self.advised), self.holders, self.bot_level,
                            self.dealt_bots)
