"""One game at a table: its state, the checks a move passes before it is stored, and the views it sends.

A ``Game`` is a value its table's task owns: the table asks it whether a
move may be made (``check``, which gives the next state without changing
anything), writes the move to the store, and only then records it
(``record``) and has the game show it (``publish``). Every frame to a seat
is built from ``view_for(state, seat)`` alone, so nothing a seat may not see
can reach it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from hanabi.engine import (
    Action,
    ActionDoesNotApply,
    Event,
    GameEnded,
    GameState,
    IllegalAction,
    NotYourTurn,
    PlayerView,
    Rearrange,
    TurnAction,
    apply,
    new_game,
    replay,
    replay_actions,
    reveal,
    terminate,
    view_for,
    views_for,
)
from hanabi.protocol import ErrorCode, GameEvent, GameOver, ReplayFile, ViewParts, ViewUpdate

from .session import Player, Refused, frame
from .store import StoredGame

log = logging.getLogger(__name__)


def replayed(stored: StoredGame) -> GameState:
    """A stored game brought back: its actions applied to its deal. An action that no longer applies (a damaged
    store) stops the game there; a game the store marks finished but whose actions did not end it is stopped."""
    try:
        state = replay_actions(new_game(stored.config, stored.seed), stored.actions)
    except ActionDoesNotApply as e:
        log.error("game %d: %s; the game is stopped there", stored.id, e)
        return terminate(e.state, "the stored game could not be fully restored")
    if stored.finished is not None and not state.over:
        state = terminate(state, "the game was stopped")
    return state


@dataclass(slots=True)
class Game:
    id: int
    seed: str
    names: tuple[str, ...]
    state: GameState
    seq: int = 0  # actions written to the store so far
    rearranged: dict[int, int] = field(default_factory=dict)  # seat -> rearrangements during turn ``rearranged_turn``
    rearranged_turn: int = -1
    _views: list[PlayerView] = field(default_factory=list)  # the views sent last (see publish)
    _parts: ViewParts | None = None  # their packed parts

    @classmethod
    def restore(cls, stored: StoredGame) -> Game:
        return cls(stored.id, stored.seed, stored.players, replayed(stored), len(stored.actions))

    @property
    def running(self) -> bool:
        return not self.state.over

    def check(self, seat: int, action: Action, rearranges_per_turn: int) -> GameState:
        """The state after ``seat`` makes ``action``, or ``Refused`` saying why it may not; changes nothing."""
        state = self.state
        if isinstance(action, Rearrange) and self.running:
            # Each rearrangement adds an event to the history every view carries: a few per seat and turn.
            done = self.rearranged.get(seat, 0) if self.rearranged_turn == state.turn else 0
            if done >= rearranges_per_turn:
                raise Refused(ErrorCode.RATE_LIMITED, f"you have rearranged your hand {rearranges_per_turn} times "
                                                      "this turn, the most allowed: you can again once the next "
                                                      "turn is taken")
        try:
            return apply(state, action, seat=seat)
        except GameEnded:
            raise Refused(ErrorCode.GAME_NOT_RUNNING, "no game is running at this table") from None
        except NotYourTurn as e:
            raise Refused(ErrorCode.NOT_YOUR_TURN, NotYourTurn.sentence(self.names[e.current])) from None
        except IllegalAction as e:
            raise Refused(ErrorCode.ILLEGAL_ACTION, str(e)) from None

    def bot_choice(self, seat: int, action: TurnAction) -> tuple[TurnAction, GameState]:
        """A bot's action and the state after it; an illegal choice (a bug of the bot's) becomes its first legal
        action, so that the game goes on."""
        try:
            return action, apply(self.state, action, seat=seat)
        except IllegalAction as e:
            log.error("game %d: the bot in seat %d chose an illegal action (%s): %s", self.id, seat, action, e)
            fallback = view_for(self.state, seat).legal_actions()[0]
            return fallback, apply(self.state, fallback, seat=seat)

    def record(self, seat: int, action: Action, new: GameState) -> None:
        """``action``, checked and stored, happened."""
        if isinstance(action, Rearrange):  # counted once saved: a refused one does not use up the limit
            if self.rearranged_turn != self.state.turn:
                self.rearranged_turn, self.rearranged = self.state.turn, {}
            self.rearranged[seat] = self.rearranged.get(seat, 0) + 1
        self.seq += 1
        self.state = new

    def view(self, seat: int | None) -> ViewUpdate:
        return ViewUpdate(game=self.id, view=view_for(self.state, seat))

    def publish(self, seats: Sequence[Player | None], spectators: Iterable[Player], event: Event | None) -> None:
        """After a change: the event (public), each seated player's own view, one spectator view for all."""
        event_frame = frame(GameEvent(game=self.id, event=event)) if event is not None else b""
        receivers = [(seat, p) for seat, p in enumerate(seats) if p is not None and p.online]
        # A spectator sees every hand: never someone who sits here too (the lobby should not let that happen).
        seated = {p for _, p in receivers}
        watching = [p for p in spectators if p.online and p not in seated]
        # Built together, the views share the cards they all show, and take the hands a move left alone from
        # the last move's views (engine.views_for): measured, this halves the cost of building them.
        views = views_for(self.state, [seat for seat, _ in receivers] + ([None] if watching else []), self._views)
        self._views = views
        # What the views share is packed once for all of them, and hands the move left alone are not packed again.
        parts = self._parts = ViewParts(self._parts)
        for (_, player), view in zip(receivers, views, strict=False):
            player.send(ViewUpdate(game=self.id, view=view), event_frame, parts)
        for p in watching:
            p.send(ViewUpdate(game=self.id, view=views[-1]), event_frame, parts)

    def over_frames(self) -> bytes:
        """What everyone at the table gets when the game ends: the whole deal, and the replay file."""
        assert self.state.outcome is not None
        shown = reveal(self.state)
        return (frame(GameOver(game=self.id, outcome=shown.outcome, deck=shown.deck, seed=self.seed))
                + frame(ReplayFile(game=self.id, json=replay.dumps(self.state, self.names))))
