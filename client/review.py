"""Review together on the client: the table's review as the leader shows it (or stepped on one's own), and a
private replay of any finished game.

The server says where the table's review is (``Review``: the game, the
leader, the step, the card pointed at) and sends the game before it as a
hanab.live replay file; the client rebuilds every step of that file with the
engine (``replayer.game_steps``) and draws one with the game screen's own
board and log. A player who steps on their own leaves the leader (``alone``)
and ``f`` follows them again; the leader's steps and pointing go to the
server, which shows them to everyone. A private replay (opened from the
history) is the same screen with no leader. Whatever the replay file carries
(notes, in its ``notes`` field) is what the review shows.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from hanabi.engine import GameState, ReplayError, view_for
from hanabi.engine.replay import Replay, from_json
from hanabi.protocol.messages import Review, ReviewPoint, ReviewStep
from hanabi.protocol.table_rules import leads_review
from prompt_toolkit.formatted_text import StyleAndTextTuples

from .board import seat_name
from .model import ClientModel, log_new_events
from .replayer import file_notes, game_steps
from .stepping import Move, Place

if TYPE_CHECKING:
    from .app import ClientApp

CHAT_KEPT = 5  # the table's latest chat lines shown under a review's log


@dataclass
class ReviewUi:
    """What only this screen knows of the review: one's own step, and a private replay open."""

    alone: bool = False  # stepping on one's own instead of following the leader
    step: int = 0  # one's own step (alone, or in a private replay), or the leader's latest
    private: int | None = None  # a finished game looked at alone (from the history)
    pointing: list[str] = field(default_factory=list)  # keys typed after "o" so far


@dataclass(frozen=True, slots=True)
class Shown:
    """The review on screen: the game's steps and the one shown."""

    game: int
    players: tuple[str, ...]
    states: tuple[GameState, ...]
    step: int
    leader: str | None  # None: a private replay
    pointer: int | None
    alone: bool
    replay: Replay  # the file: the game, and everyone's notes on its cards

    @property
    def last(self) -> int:
        return len(self.states) - 1

    @property
    def state(self) -> GameState:
        return self.states[self.step]

    def place(self, step: int) -> Place:
        return Place(step, self.last, self.states[0].players)


@lru_cache(maxsize=4)
def game_of(text: str) -> tuple[Replay, tuple[GameState, ...]] | None:
    """A replay file's game and every step of it; None when the file cannot be read."""
    try:
        game = from_json(json.loads(text))
    except (ValueError, ReplayError):
        return None
    return game, tuple(game_steps(game))


def shown(model: ClientModel, ui: ReviewUi) -> Shown | None:
    """What the review screen shows now, or None when there is no review (nor private replay) to show."""
    replay = model.replay
    review = model.review
    if ui.private is not None:
        game, leader, pointer, step = ui.private, None, None, ui.step
    elif review is not None and model.table is not None and review.table == model.table.id \
            and (model.view is None or model.view.outcome is not None):
        game, leader, pointer = review.game, review.leader, review.pointer
        step = ui.step if ui.alone else review.step
    else:
        return None
    if replay is None or replay[0] != game:
        return None
    parsed = game_of(replay[1])
    if parsed is None:
        return None
    replay_file, states = parsed
    step = max(0, min(step, len(states) - 1))
    return Shown(game, tuple(replay_file.players), states, step, leader,
                 pointer if step == (review.step if review else -1) else None, ui.alone or leader is None,
                 replay_file)


def display_model(model: ClientModel, review: Shown) -> ClientModel:
    """The model the game screen draws for the step shown: every hand seen (the game is over), its log so far."""
    # Everyone's notes, from the file (the server writes them in it once the game is over), as a spectator's.
    base = ClientModel(address=model.address, link=model.link, player=model.player, seat_names=review.players,
                       seat=None, chat=model.chat, watchers=model.watchers,
                       card_notes=file_notes(review.replay, review.state, None),
                       review=model.review if review.pointer is not None else None)  # its pointer: an arrow
    view = view_for(review.state, None)
    stepped = log_new_events(replace(base, view=view), view)
    # The table's latest words stay under the step's log: a review is talked over.
    talk = [line for line in model.log if line.kind == "chat"][-CHAT_KEPT:]
    return replace(stepped, log=(*stepped.log, *talk))


def where_card_is(state: GameState, names: tuple[str, ...], order: int) -> str:
    """Where the card of ``order`` is at this step, in words: a hand's slot, the discard pile, a firework."""
    card = str(state.deck[order]) if 0 <= order < len(state.deck) else "?"
    for seat, hand in enumerate(state.hands):
        if order in hand:
            return f"{seat_name(names, seat)}'s slot {hand.index(order) + 1} ({card})"
    if order in state.discard:
        return f"{card} in the discard pile"
    if order < len(state.deck) - state.deck_left:
        return f"{card} on the fireworks"
    return f"{card}, still in the deck"


def review_fragments(review: Shown, me: str) -> StyleAndTextTuples:
    """The review's bar: the step, who leads and whether we follow, and the card pointed at."""
    head = f" Review of game {review.game} · step {review.step}/{review.last}"
    if review.leader is None:
        who = "on your own"
    elif review.alone:
        who = f"on your own (f follows {review.leader} again)"
    elif review.leader == me:
        who = "you lead: everyone sees your steps"
    else:
        who = f"following {review.leader}"
    out: StyleAndTextTuples = []
    outcome = review.state.outcome
    if outcome is not None:  # the end: its result, as the end of a game says it
        out.append(("class:end", f" Game over: {outcome.score}/{outcome.max_score} — {outcome.rating}. "
                                 "s: save the replay.\n"))  # the step's line follows
    out.append(("class:keys", f"{head} · {who}"))
    if review.pointer is not None:
        out.append(("class:status.prompt", f"\n ➜ {review.leader} points at "
                                           f"{where_card_is(review.state, review.players, review.pointer)}"))
    return out


class ReviewActions:
    """What one ``ClientApp`` does with the review's keys."""

    def __init__(self, app: ClientApp) -> None:
        self.app = app
        self.ui = ReviewUi()
        self._seen: Review | None = None  # the last Review message: a new one brings a follower's step along
        self._cache: tuple[ClientModel, tuple[object, ...], ClientModel] | None = None

    def current(self) -> Shown | None:
        return shown(self.app.get_model(), self.ui)

    def model(self) -> ClientModel:
        """The model to draw: the review's step when a review is shown, else the live one."""
        model = self.app.get_model()
        key = (self.ui.alone, self.ui.step, self.ui.private)
        if self._cache is not None and self._cache[0] is model and self._cache[1] == key:
            return self._cache[2]
        review = shown(model, self.ui)
        drawn = display_model(model, review) if review is not None else model
        self._cache = (model, key, drawn)
        return drawn

    def on_model(self, model: ClientModel) -> None:
        """A new review (another game) starts by following its leader; a follower keeps the leader's step."""
        review, seen = model.review, self._seen
        if review is seen:
            return
        self._seen = review
        if review is None or seen is None or seen.game != review.game:
            self.ui.alone = False
        if review is not None and not self.ui.alone:
            self.ui.step = review.step

    def leads(self, model: ClientModel) -> bool:
        """Whether our steps go to everyone: we lead, or we host and the leader is not here."""
        review, table = model.review, model.table
        if review is None or table is None:
            return False
        return leads_review(table, model.watchers, review.leader, model.player, model.seat)

    def go(self, step: int) -> None:
        """Show ``step``: for everyone when we lead, else on our own."""
        review = self.current()
        if review is None:
            return
        step = review.place(step).at
        model = self.app.get_model()
        if review.leader is not None and not review.alone and self.leads(model):
            self.ui.step = step
            self.app.send(ReviewStep(step))
            return
        if review.leader is not None and not self.ui.alone:
            self.app.note(f"Stepping on your own: f follows {review.leader} again.")
        self.ui.alone = review.leader is not None
        self.ui.step = step

    def move(self, move: Move) -> None:
        """←, →, Home, End, ↑, ↓: from the step a key counts from, the leader's own latest when we lead (the server
        may not have shown it yet)."""
        review = self.current()
        if review is None:
            return
        here = self.ui.step if review.leader is not None and self.leads(self.app.get_model()) else review.step
        self.go(move(review.place(here)).at)

    def follow(self) -> None:
        review = self.current()
        if review is None or review.leader is None:
            self.app.note("there is no leader to follow: this replay is yours alone", True)
            return
        self.ui.alone = False
        model = self.app.get_model()
        if model.review is not None:
            self.ui.step = model.review.step
        self.app.note(f"Following {review.leader} again.")

    def point_key(self, key: str) -> None:
        """The keys of ``o P N`` (pointing everyone at a card), one at a time."""
        self._point([*self.ui.pointing, key])

    def _point(self, keys: list[str]) -> None:
        """``o P N``: point everyone at player P's slot N (``o 0``: at nothing). Only the leader points."""
        review = self.current()
        model = self.app.get_model()
        if review is None or review.leader is None or not self.leads(model):
            self.ui.pointing = []
            who = "nobody" if review is None or review.leader is None else review.leader
            self.app.note(f"only the review's leader points at cards ({who} leads)", True)
            return
        state = review.state
        if len(keys) == 1:
            self.ui.pointing = keys
            self.app.ui.prompt = f"Point at whose card? 1-{state.players} (the seat), 0 points at nothing"
            return
        seat_key = keys[1]
        if seat_key == "0" and len(keys) == 2:
            self._pointed(None)
            return
        if not seat_key.isdigit() or not 1 <= int(seat_key) <= state.players:
            self._refuse(f"{seat_key!r} is not a seat: type 1 to {state.players}")
            return
        hand = state.hands[int(seat_key) - 1]
        if len(keys) == 2:
            self.ui.pointing = keys
            self.app.ui.prompt = f"Point at {seat_name(review.players, int(seat_key) - 1)}'s slot: 1-{len(hand)}"
            return
        slot = keys[2]
        if not slot.isdigit() or not 1 <= int(slot) <= len(hand):
            self._refuse(f"{slot!r} is not a slot of that hand: type 1 to {len(hand)}")
            return
        self._pointed(hand[int(slot) - 1])

    def _pointed(self, order: int | None) -> None:
        self.ui.pointing = []
        self.app.ui.prompt = ""
        if self.ui.alone:  # the leader stepping alone points at what everyone sees: come back first
            self.app.note("you are on your own: press f to show your step to everyone before pointing", True)
            return
        self.app.send(ReviewPoint(order))

    def _refuse(self, text: str) -> None:
        self.ui.pointing = []
        self.app.ui.prompt = ""
        self.app.note(text, True)

    def cancel(self) -> None:
        self.ui.pointing = []

    def save(self) -> None:
        review = self.current()
        replay = self.app.get_model().replay
        if review is None or replay is None:
            return
        self.app.write_replay(review.game, replay[1], review.state.config.variant)

    def open_private(self, game: int) -> None:
        """Look at finished game ``game`` alone (its replay is asked for; the screen shows once it comes)."""
        self.ui.private, self.ui.step, self.ui.pointing = game, 0, []

    def close(self) -> None:
        """Close a private replay: back to the list it was opened from."""
        self.ui.private = None
