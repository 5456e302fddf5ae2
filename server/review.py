"""Review together: once a game is over, everyone at its table follows one leader through it, step by step.

A table holds one ``TableReview`` (or None). It starts when the table's game ends (the host leads, from the
end) or when the host opens a finished game of the store, and ends when the next game starts. Like every
table request these run in the table's task, store the review first and only then tell everyone, so a
restart brings it back as last shown. Only a game whose end is stored (or just played) is ever reviewed: its
hanab.live file (``Game.replay_json`` or ``game.replay_text``, with its notes) goes out before the first step.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from hanabi.engine import EndReason, GameState, TurnEvent
from hanabi.protocol import ErrorCode, OpenReview, ReplayFile, Review, ReviewLead, ReviewPoint, ReviewStep
from hanabi.protocol import table_rules as rules

from .game import Game, replay_text, replayed
from .saved import StoredReview, read_game
from .session import Player, Refused, frame, refuse
from .store import StoreFailure

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger(__name__)

ReviewRequest = OpenReview | ReviewStep | ReviewPoint | ReviewLead


def last_step(state: GameState) -> int:
    """The game's last step: one per turn taken, one more when it was stopped from outside (no turn ended it)."""
    turns = sum(1 for e in state.events if isinstance(e, TurnEvent))
    stopped = state.outcome is not None and state.outcome.reason is EndReason.TERMINATED
    return turns + stopped


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


def _of_state(game: int, state: GameState, text: str, leader: str, step: int | None = None,
              pointer: int | None = None) -> TableReview:
    last = last_step(state)
    return TableReview(game, leader, last if step is None else min(step, last), last, len(state.deck), text,
                       pointer)


def restored(stored: StoredReview) -> TableReview:
    """A review from the store, as it was last shown (or a stored game opened: a review at its first step)."""
    game = stored.game
    return _of_state(game.id, replayed(game), replay_text(game), stored.leader, stored.step, stored.pointer)


async def _save_and_tell(table: Table, review: TableReview, with_game: bool = False,
                         but: Player | None = None) -> None:
    """Store the review's new state, then make it the table's and show it to everyone there (but ``but``)."""
    await table.store.set_review(table.id, review.game, review.leader, review.step, review.pointer)
    table.review = review
    table.to_members(review.frames(table.id) if with_game else frame(review.message(table.id)), but=but)


async def begin(table: Table, game: Game, replay: str, leaving: Player | None = None) -> None:
    """The table's game has just ended (``replay``: its file): the host leads its review, from the end
    (``leaving``, who ended it by leaving the table, is not told). A review not saved is no review: the host can
    open it again."""
    host = table.player_at(table.host) if table.host is not None else None
    if host is None:
        return
    review = _of_state(game.id, game.state, replay, host.name)
    try:
        await _save_and_tell(table, review, but=leaving)  # everyone has just had its replay with game_over
    except StoreFailure as e:
        log.error("table %d: the review of game %d could not be saved: %s", table.id, game.id, e)


async def end(table: Table) -> None:
    """A new game starts: the review (if any) is over."""
    if table.review is not None:
        await table.store.clear_review(table.id)
        table.review = None


async def handle(table: Table, player: Player, request: ReviewRequest) -> None:
    """One review request of ``player``, at ``table``; refusals raise ``Refused``."""
    table.place(player)
    if isinstance(request, OpenReview):
        await _open(table, player, request.game)
        return
    review = table.review
    if review is None:
        why = "a game is being played" if table.running else "no game has been played or opened here yet"
        raise Refused(ErrorCode.NO_REVIEW, f"there is no review at this table ({why})")
    if isinstance(request, ReviewLead):
        refuse(rules.review_lead_refusal(table.info(), table.watchers(), review.leader, player.name,
                                         table.seat_of(player), request.name))
        # The arrow is dropped: the bar says the leader points at it, and the new leader has not.
        await _save_and_tell(table, replace(review, leader=request.name, pointer=None))
        return
    # Who leads once ``player`` acts: the leader; or the host, taking the lead back from a leader away.
    if not rules.leads_review(table.info(), table.watchers(), review.leader, player.name, table.seat_of(player)):
        raise Refused(ErrorCode.NOT_LEADER, f"{review.leader} leads the review: only they can step or point for "
                                            "everyone (step on your own instead, then come back to them)")
    if isinstance(request, ReviewStep):
        new = replace(review, leader=player.name, step=min(request.step, review.last), pointer=None)
    else:
        if request.order is not None and request.order >= review.deck_size:
            raise Refused(ErrorCode.BAD_FIELD, f"review_point.order: {request.order} is not a card of this game "
                                               f"(its deck has {review.deck_size} cards, 0 to {review.deck_size - 1})")
        new = replace(review, leader=player.name, pointer=request.order)
    await _save_and_tell(table, new)


async def _open(table: Table, player: Player, game_id: int) -> None:
    refuse(rules.open_review_refusal(table.info(), table.seat_of(player)))
    stored = await table.store.read(read_game, game_id)
    if stored is None or stored.finished is None:
        # A running game is never opened: its deck would show.
        raise Refused(ErrorCode.NO_SUCH_GAME, f"there is no finished game {game_id}: list the games to see them")
    await _save_and_tell(table, restored(StoredReview(stored, player.name, 0, None)), with_game=True)
