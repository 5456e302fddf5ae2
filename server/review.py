"""Review together: once a game is over, everyone at its table follows one leader through it, step by step.

A table holds one ``TableReview`` (or None), a value: this module says what the next one is (or why not), and
the table, in its task, stores it first and only then makes it its own and tells everyone, so a restart brings
it back as last shown. It starts when the table's game ends (the host leads, from the end) or when the host
opens a finished game of the store, and ends when the next game starts. Only a game whose end is stored (or
just played) is ever reviewed: its hanab.live file (``Game.replay_json``, with its notes) goes out before the
first step.

A review may hold a what if (``engine.whatif``): the leader plays on from the step shown with moves the game
never had, for any seat, or has the house bot play a seat's turn. Every move goes through the engine's ``apply``;
nothing of it is stored (a restart brings the review back without it), and stepping the review ends it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from hanabi.engine import GameState, IllegalAction, TurnAction, WhatIf, last_step, played, taken_back, what_if
from hanabi.engine.replay import ReplayError, from_json
from hanabi.protocol import (
    ErrorCode,
    HypoAction,
    HypoBack,
    HypoBot,
    HypoEnd,
    HypoReveal,
    HypoStart,
    Hypothetical,
    ReplayFile,
    Review,
    ReviewLead,
    ReviewPoint,
    ReviewStep,
    TableInfo,
)
from hanabi.protocol import table_rules as rules

from .game import Game
from .saved import StoredReview, read_game
from .session import Refused, frame, refuse
from .store import Store

ReviewMove = ReviewStep | ReviewPoint | ReviewLead  # what moves a review on (an open_review starts one)
WhatIfMove = HypoStart | HypoAction | HypoBack | HypoReveal | HypoEnd  # what changes its what if (and HypoBot)


@dataclass(frozen=True, slots=True)
class TableReview:
    game: int
    leader: str  # a player's name: the leader may be seated or watching
    step: int
    last: int
    deck_size: int
    replay: str  # the game's hanab.live JSON, sent to whoever arrives before the review's state
    pointer: int | None = None
    what_if: WhatIf | None = None  # the leader's what if from ``step``, if one is under way (never stored)

    def message(self, table: int) -> Review:
        return Review(table=table, game=self.game, leader=self.leader, step=self.step, last=self.last,
                      pointer=self.pointer)

    def hypothetical(self, table: int) -> Hypothetical:
        what = self.what_if
        if what is None:
            return Hypothetical(table=table, game=self.game, step=None)
        return Hypothetical(table=table, game=self.game, step=what.step, actions=what.moves, revealed=what.revealed)

    def frames(self, table: int) -> bytes:
        """What someone arriving at the table needs to follow the review: the game, then where it is, then its
        what if, if one is under way."""
        arriving = frame(ReplayFile(game=self.game, json=self.replay)) + frame(self.message(table))
        return arriving + (frame(self.hypothetical(table)) if self.what_if is not None else b"")


def of_game(game: int, state: GameState, text: str, leader: str, step: int | None = None,
            pointer: int | None = None) -> TableReview:
    """The review of game ``game`` (``state``, its file ``text``) led by ``leader``; by default from its end."""
    last = last_step(state)
    return TableReview(game, leader, last if step is None else min(step, last), last, len(state.deck), text,
                       pointer)


def restored(stored: StoredReview) -> TableReview:
    """A review from the store, as it was last shown (or a stored game opened: a review at its first step)."""
    game = Game.restore(stored.game)  # replayed once: its state and its file
    return of_game(game.id, game.state, game.replay_json(), stored.leader, stored.step, stored.pointer)


async def opened(store: Store, game_id: int, leader: str) -> TableReview:
    """The review of a stored game ``leader`` opens, at its first step; ``Refused`` unless the game is finished."""
    stored = await store.read(read_game, game_id)
    if stored is None or stored.finished is None:
        # A running game is never opened: its deck would show.
        raise Refused(ErrorCode.NO_SUCH_GAME, f"there is no finished game {game_id}: list the games to see them")
    return restored(StoredReview(stored, leader, 0, None))


def led(review: TableReview | None, info: TableInfo, watchers: tuple[str, ...], name: str, seat: int | None,
        request: ReviewMove | WhatIfMove | HypoBot) -> TableReview:
    """The table's review, which the player called ``name`` (in ``seat``, None: watching) may move on by
    ``request`` at the table ``info``; else ``Refused`` saying why not. The leader steps, points and plays a what
    if for everyone, and so does the host, taking the lead back from a leader away; the lead itself is handed on
    by the table rule of ``review_lead``."""
    if review is None:
        why = "a game is being played" if info.running else "no game has been played or opened here yet"
        raise Refused(ErrorCode.NO_REVIEW, f"there is no review at this table ({why})")
    if isinstance(request, ReviewLead):
        refuse(rules.review_lead_refusal(info, watchers, review.leader, name, seat, request.name))
    elif not rules.leads_review(info, watchers, review.leader, name, seat):
        raise Refused(ErrorCode.NOT_LEADER, f"{review.leader} leads the review: only they can step, point or play "
                                            "a what if for everyone (step on your own instead, then come back to "
                                            "them)")
    return review


def moved(review: TableReview, name: str, request: ReviewMove) -> TableReview:
    """The review (``led``) once the player called ``name`` makes ``request``, or ``Refused`` saying why not."""
    if isinstance(request, ReviewLead):
        # The arrow is dropped: the bar says the leader points at it, and the new leader has not.
        return replace(review, leader=request.name, pointer=None)
    if isinstance(request, ReviewStep):  # back to the real game: a what if ends with the step
        return replace(review, leader=name, step=min(request.step, review.last), pointer=None, what_if=None)
    if request.order is not None and request.order >= review.deck_size:
        raise Refused(ErrorCode.BAD_FIELD, f"review_point.order: {request.order} is not a card of this game "
                                           f"(its deck has {review.deck_size} cards, 0 to {review.deck_size - 1})")
    return replace(review, leader=name, pointer=request.order)


def _under_way(review: TableReview) -> WhatIf:
    if review.what_if is None:
        raise Refused(ErrorCode.NO_HYPOTHETICAL, "no what if is under way: start one from the step shown")
    return review.what_if


def _final(review: TableReview) -> GameState:
    """The reviewed game as its file holds it: the positions every client at the table rebuilds too."""
    try:
        return from_json(json.loads(review.replay)).state
    except (ValueError, ReplayError) as e:  # the server wrote the file itself: a bug, said plainly
        raise Refused(ErrorCode.INTERNAL, f"the review's game file cannot be read back ({e}): the server's fault, "
                                          "not yours") from None


def hypothesised(review: TableReview, name: str, request: WhatIfMove) -> TableReview:
    """The review (``led``) once the player called ``name`` changes its what if by ``request``, or ``Refused``
    saying why not. The moves go through the engine's ``apply``."""
    if isinstance(request, HypoStart):
        return replace(review, leader=name, what_if=what_if(_final(review), review.step))
    what = _under_way(review)
    if isinstance(request, HypoEnd):
        return replace(review, leader=name, what_if=None)
    if isinstance(request, HypoBack):
        return replace(review, leader=name, what_if=taken_back(what))
    if isinstance(request, HypoReveal):
        return replace(review, leader=name, what_if=replace(what, revealed=request.shown))
    return with_move(review, name, what, request.action)


def with_move(review: TableReview, name: str, what: WhatIf, action: TurnAction) -> TableReview:
    """The review once ``action`` is made in its what if ``what`` (by ``name``, or by the bot on their word)."""
    try:
        return replace(review, leader=name, what_if=played(what, action))
    except IllegalAction as e:
        raise Refused(ErrorCode.ILLEGAL_ACTION, f"not in this what if: {e}") from None


def bot_turn(review: TableReview) -> WhatIf:
    """The what if of the review (``led``) whose next move the house bot is to choose, or ``Refused``."""
    what = _under_way(review)
    if what.state.over:
        raise Refused(ErrorCode.ILLEGAL_ACTION, "the game of this what if is over: take a move back, or leave it")
    return what
