"""Review together: once a game is over, everyone at its table follows one leader through it, step by step.

A table holds one ``TableReview`` (or None), a value: this module says what the next one is (or why not), and
the table, in its task, stores it first and only then makes it its own and tells everyone, so a restart brings
it back as last shown. It starts when the table's game ends (the host leads, from the end) or when the host
opens a finished game of the store, and ends when the next game starts. Only a game whose end is stored (or
just played) is ever reviewed: its hanab.live file (``Game.replay_json`` or ``game.replay_text``, with its
notes) goes out before the first step.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from hanabi.engine import GameState, TurnEvent
from hanabi.protocol import ErrorCode, ReplayFile, Review, ReviewLead, ReviewPoint, ReviewStep, TableInfo
from hanabi.protocol import table_rules as rules

from .game import replay_text, replayed
from .saved import StoredReview, read_game
from .session import Refused, frame, refuse
from .store import Store

ReviewMove = ReviewStep | ReviewPoint | ReviewLead  # what moves a review on (an open_review starts one)


def last_step(state: GameState) -> int:
    """The game's last step: one per turn taken, one more when it was stopped from outside (no turn ended it: a
    host's stop, a clock run out), as every viewer of its replay counts them."""
    turns = sum(1 for e in state.events if isinstance(e, TurnEvent))
    return turns + (state.outcome is not None and state.outcome.stopped)


@dataclass(frozen=True, slots=True)
class TableReview:
    game: int
    leader: str  # a player's name: the leader may be seated or watching
    step: int
    last: int
    deck_size: int
    replay: str  # the game's hanab.live JSON, sent to whoever arrives before the review's state
    pointer: int | None = None

    def message(self, table: int) -> Review:
        return Review(table=table, game=self.game, leader=self.leader, step=self.step, last=self.last,
                      pointer=self.pointer)

    def frames(self, table: int) -> bytes:
        """What someone arriving at the table needs to follow the review: the game, then where it is."""
        return frame(ReplayFile(game=self.game, json=self.replay)) + frame(self.message(table))


def of_game(game: int, state: GameState, text: str, leader: str, step: int | None = None,
            pointer: int | None = None) -> TableReview:
    """The review of game ``game`` (``state``, its file ``text``) led by ``leader``; by default from its end."""
    last = last_step(state)
    return TableReview(game, leader, last if step is None else min(step, last), last, len(state.deck), text,
                       pointer)


def restored(stored: StoredReview) -> TableReview:
    """A review from the store, as it was last shown (or a stored game opened: a review at its first step)."""
    game = stored.game
    return of_game(game.id, replayed(game), replay_text(game), stored.leader, stored.step, stored.pointer)


async def opened(store: Store, game_id: int, leader: str) -> TableReview:
    """The review of a stored game ``leader`` opens, at its first step; ``Refused`` unless the game is finished."""
    stored = await store.read(read_game, game_id)
    if stored is None or stored.finished is None:
        # A running game is never opened: its deck would show.
        raise Refused(ErrorCode.NO_SUCH_GAME, f"there is no finished game {game_id}: list the games to see them")
    return restored(StoredReview(stored, leader, 0, None))


def moved(review: TableReview | None, info: TableInfo, watchers: tuple[str, ...], name: str, seat: int | None,
          request: ReviewMove) -> TableReview:
    """The review once the player called ``name`` (in ``seat``, None: watching) makes ``request`` at the table
    ``info``, or ``Refused`` saying why they may not."""
    if review is None:
        why = "a game is being played" if info.running else "no game has been played or opened here yet"
        raise Refused(ErrorCode.NO_REVIEW, f"there is no review at this table ({why})")
    if isinstance(request, ReviewLead):
        refuse(rules.review_lead_refusal(info, watchers, review.leader, name, seat, request.name))
        # The arrow is dropped: the bar says the leader points at it, and the new leader has not.
        return replace(review, leader=request.name, pointer=None)
    # Who leads once the player acts: the leader; or the host, taking the lead back from a leader away.
    if not rules.leads_review(info, watchers, review.leader, name, seat):
        raise Refused(ErrorCode.NOT_LEADER, f"{review.leader} leads the review: only they can step or point for "
                                            "everyone (step on your own instead, then come back to them)")
    if isinstance(request, ReviewStep):
        return replace(review, leader=name, step=min(request.step, review.last), pointer=None)
    if request.order is not None and request.order >= review.deck_size:
        raise Refused(ErrorCode.BAD_FIELD, f"review_point.order: {request.order} is not a card of this game "
                                           f"(its deck has {review.deck_size} cards, 0 to {review.deck_size - 1})")
    return replace(review, leader=name, pointer=request.order)
