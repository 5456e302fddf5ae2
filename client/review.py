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

A what if (``engine.whatif``) plays on from the step shown: the table's, which
its leader plays through the server (``hypo_*``) and everyone following sees
(``Hypothetical``), or one's own, stepping alone or in a private replay, played
here with the same engine. Either way the screen shows it as a step of the
review: the position after its moves, the cards drawn since unknown until
revealed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from hanabi.engine import (
    Clue,
    Discard,
    GameState,
    IllegalAction,
    Play,
    ReplayError,
    TurnAction,
    WhatIf,
    played,
    seat_view,
    taken_back,
    view_for,
)
from hanabi.engine import what_if as start_what_if
from hanabi.engine.bots import decide
from hanabi.engine.replay import Replay, from_json
from hanabi.engine.whatif import replay as replay_what_if
from hanabi.engine.whatif import what_if_view
from hanabi.protocol.messages import (
    HypoAction,
    HypoBack,
    HypoBot,
    HypoEnd,
    HypoReveal,
    HypoStart,
    Hypothetical,
    Review,
    ReviewPoint,
    ReviewStep,
)
from hanabi.protocol.table_rules import leads_review
from prompt_toolkit.formatted_text import StyleAndTextTuples

from . import keys as shortcuts
from .board import opening, seat_name
from .model import ClientModel, LogLine, add_log, log_new_events
from .moments import Found, MomentsOf, jump, moment_at, moment_lines
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
    what_if: WhatIf | None = None  # our own what if (stepping alone, or in a private replay)
    what_if_keys: list[str] = field(default_factory=list)  # a move's keys typed so far in a what if (p 2, c 1 r)


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
    what_if: WhatIf | None = None  # a what if shown in place of the step: the table's (``shared``) or our own
    shared: bool = False

    @property
    def position(self) -> GameState:
        """The game as the screen shows it: the step, or the what if played on from it."""
        return self.what_if.state if self.what_if is not None else self.state

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
    alone = ui.alone or leader is None
    what, shared = ui.what_if if alone else None, False
    hypo = model.hypothetical
    if not alone and hypo is not None and hypo.game == game and hypo.step is not None:
        what, shared = table_what_if(replay[1], hypo), True
        step = what.step if what is not None else step
    return Shown(game, tuple(replay_file.players), states, step, leader,
                 pointer if step == (review.step if review else -1) else None, alone, replay_file, what, shared)


@lru_cache(maxsize=4)
def table_what_if(text: str, hypo: Hypothetical) -> WhatIf | None:
    """The table's what if, rebuilt from the game's file and its moves (None: the file or a move cannot be read,
    which a server of ours never sends)."""
    parsed = game_of(text)
    if parsed is None or hypo.step is None:
        return None
    try:
        what = start_what_if(parsed[0].state, hypo.step)
        return replace(replay_what_if(what, hypo.actions), revealed=hypo.revealed)
    except IllegalAction:
        return None


def display_model(model: ClientModel, review: Shown, told: tuple[LogLine, ...] = ()) -> ClientModel:
    """The model the game screen draws for the step shown: every hand seen (the game is over), its log so far.
    ``told``: the whole game's log (``game_log``), cut at the step rather than told again from the deal."""
    # Everyone's notes, from the file (the server writes them in it once the game is over), as a spectator's.
    base = ClientModel(address=model.address, link=model.link, player=model.player, seat_names=review.players,
                       seat=None, chat=model.chat, watchers=model.watchers,
                       card_notes=file_notes(review.replay, review.state, None),
                       holders=tuple((h.turn, h.seat, h.name) for h in review.replay.holders),
                       review=model.review if review.pointer is not None else None)  # its pointer: an arrow
    view = view_for(review.state, None)
    what = review.what_if
    events = len(view.events)
    # A what if goes on telling from where the step's log ends (its hands), so it tells the step's afresh.
    if what is None and len(told) == len(review.states[-1].events):
        stepped = replace(base, view=view, log=told[:events], logged_events=events)
    else:
        stepped = log_new_events(replace(base, view=view), view)
    if what is not None:  # its moves follow the game's, under a line that says they never happened
        view = what_if_view(what)
        marked = add_log(stepped, "notice", [("class:log.notice", f"— what if, from step {what.step} —")])
        stepped = log_new_events(replace(marked, view=view), view)
    # The table's latest words since the game's last move stay under the step's log: a review is talked over.
    # What was said before it (during the game, in the lobby) would push the moves off a small screen.
    last_move = max((i for i, line in enumerate(model.log) if line.kind == "event"), default=-1)
    talk = [line for line in model.log[last_move + 1:] if line.kind == "chat"][-CHAT_KEPT:]
    return replace(stepped, log=(*stepped.log, *talk))


def game_log(review: Shown) -> tuple[LogLine, ...]:
    """Every event of the reviewed game as the step's log tells it (``display_model``), from the deal to the end."""
    last = replace(review, step=review.last, what_if=None, pointer=None)
    return display_model(ClientModel(), last).log


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


def what_if_line(review: Shown) -> str:
    """The what if's bar: where it starts, its moves, whose it is, the drawn cards."""
    what = review.what_if
    assert what is not None
    moves = len(what.moves)
    whose = f"{review.leader}'s" if review.shared else "yours"
    drawn = "drawn cards shown" if what.revealed else "drawn cards ??"
    return (f" What if · from step {what.step} · {moves} move{'s' if moves != 1 else ''} · {whose} · {drawn}"
            f" · h leaves")


def review_fragments(review: Shown, me: str, found: Found | None = None, narrow: bool = False,
                     solo: bool = False) -> StyleAndTextTuples:
    """The review's bar: the step, who leads and whether we follow, the card pointed at, and the moment that
    mattered whose board this step is (``found``: the game's moments, when found). ``narrow``: the key that
    follows the leader again is left to the keys line, so that a moment keeps its lines on a small screen.
    ``solo``: no one else is there to see our steps or to be followed."""
    if review.what_if is not None:
        return [("class:status.prompt", what_if_line(review))]
    head = f" Review of game {review.game} · step {review.step}/{review.last}"
    if review.leader is None or solo:
        who = "on your own"
    elif review.alone:
        who = "on your own" if narrow else f"on your own (f follows {review.leader} again)"
    elif review.leader == me:
        who = "you lead: everyone sees your steps"
    else:
        who = f"following {review.leader}"
    out: StyleAndTextTuples = []
    outcome = review.state.outcome
    if outcome is not None:  # the end: its result, as the end of a game says it
        why = opening(outcome.detail, review.players)  # a strike-out, the clock: else a 0 reads as a bug
        out.append(("class:end", f" Game over: {outcome.score}/{outcome.max_score} — {outcome.rating}. {why}. "
                                 "s: save the replay.\n"))  # the step's line follows
    out.append(("class:keys", f"{head} · {who}"))
    if review.pointer is not None:
        out.append(("class:status.prompt", f"\n ➜ {review.leader} points at "
                                           f"{where_card_is(review.state, review.players, review.pointer)}"))
    moment = moment_at(found, review.step)
    if found is not None and moment is not None:
        done, suggested = moment_lines(found, moment)
        out.append(("class:status.prompt", f"\n {done}\n {suggested}"))
    return out


class ReviewActions:
    """What one ``ClientApp`` does with the review's keys."""

    def __init__(self, app: ClientApp) -> None:
        self.app = app
        self.ui = ReviewUi()
        self._seen: Review | None = None  # the last Review message: a new one brings a follower's step along
        self.moments = MomentsOf(lambda: app.application.invalidate())  # a redraw, safe from the worker thread
        self._cache: tuple[ClientModel, Shown | None, ClientModel] | None = None  # the model drawn, and from what
        self._current: tuple[ClientModel, tuple[object, ...], Shown | None] | None = None
        self._told: tuple[Replay, tuple[LogLine, ...]] | None = None  # game_log of the file reviewed
        self._stayed = ""  # why the last m or M stayed, while the status line still says it

    def current(self) -> Shown | None:
        """What the review shows now. A redraw asks this dozens of times (every window's text and filter): it is
        worked out once per model and per value of what it reads of the screen's state."""
        model, ui = self.app.get_model(), self.ui
        key = (ui.private, ui.step, ui.alone, ui.what_if)
        held = self._current
        if held is not None and held[0] is model and held[1] == key:
            return held[2]
        review = shown(model, ui)
        self._current = (model, key, review)
        return review

    def model(self) -> ClientModel:
        """The model to draw: the review's step when a review is shown, else the live one."""
        model, review = self.app.get_model(), self.current()  # the same Shown while nothing it reads changed
        if self._cache is not None and self._cache[0] is model and self._cache[1] is review:
            return self._cache[2]
        drawn = display_model(model, review, self.told(review)) if review is not None else model
        self._cache = (model, review, drawn)
        return drawn

    def told(self, review: Shown) -> tuple[LogLine, ...]:
        """The whole game's log, told once per file reviewed rather than again from the deal at each step."""
        if self._told is None or self._told[0] is not review.replay:
            self._told = (review.replay, game_log(review))
        return self._told[1]

    def on_model(self, model: ClientModel) -> None:
        """A new review (another game) starts by following its leader; a follower keeps the leader's step."""
        review, seen = model.review, self._seen
        if review is seen:
            return
        self._seen = review
        if review is None or seen is None or seen.game != review.game:
            self.ui.alone = False
        elif review.leader == model.player and seen.leader != model.player:
            self.ui.alone = False  # handed the lead: our steps are everyone's now, from the step they all see
        if review is not None and not self.ui.alone:
            self.ui.step = review.step

    def found(self) -> Found | None:
        """The moments that mattered in the game shown (None while they are being found, or with no review),
        from its replay file alone: the seats people held and the table's level are in it, so the file saved or
        opened with ``--replay`` shows the same."""
        review = self.current()
        if review is None:
            return None
        return self.moments.of((review.game, len(review.states)), review.replay)

    def jump(self, forward: bool) -> None:
        """``m`` / ``M``: to the next / previous moment that mattered, or the sentence that says why not."""
        review = self.current()
        if review is None:
            return
        step, why = jump(self.found(), review.step, forward)
        if step is None:
            self.app.note(why)
            self._stayed = why  # true of this step only: the next step, or a what if, takes it away
        else:
            self.go(step)

    def _drop_stayed(self) -> None:
        """Take away why m / M stayed at the step left, unless something else has been said since."""
        if self._stayed and self.app.get_model().status == self._stayed:
            self.app.note("")
        self._stayed = ""

    def plays_what_if(self, drawn: ClientModel) -> bool:
        """Whether our moves go into the what if shown: our own, or the table's while we lead (a follower's are
        refused, so the key line does not offer them). ``drawn``, the step's model, does not say who we are."""
        review = self.current()
        return review is not None and (not review.shared or self.leads(self.app.get_model()))

    def leads(self, model: ClientModel) -> bool:
        """Whether our steps go to everyone: we lead, or we host and the leader is not here."""
        review, table = model.review, model.table
        if review is None or table is None:
            return False
        return leads_review(table, model.watchers, review.leader, model.player, model.seat)

    def go(self, step: int) -> None:
        """Show ``step``: for everyone when we lead, else on our own."""
        self._drop_stayed()
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
        self.ui.what_if = None  # our own what if gives way to the leader's step (and theirs, if they play one)
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
        self.ui.what_if_keys = []

    # -- what if ------------------------------------------------------------------------------------------------

    def _what_if_here(self) -> tuple[Shown, WhatIf] | None:
        review = self.current()
        if review is None or review.what_if is None:
            return None
        return review, review.what_if

    def _playing_table_s(self, review: Shown) -> bool:
        """Whether our moves go to the table's what if (we lead it); a follower's are refused, saying so."""
        if not review.shared:
            return False
        if not self.leads(self.app.get_model()):
            raise IllegalAction(f"{review.leader} plays this what if for everyone: h leaves it, to step on your own")
        return True

    def start_what_if(self) -> None:
        """``h``: what if, from the step shown: the table's when we lead it, else our own (a follower steps on
        their own from the leader's step)."""
        self._drop_stayed()
        review = self.current()
        if review is None:
            return
        model = self.app.get_model()
        if review.leader is not None and not review.alone and self.leads(model):
            self.app.send(HypoStart())
            return
        if review.leader is not None and not review.alone:
            self.ui.alone, self.ui.step = True, review.step
            self.app.note(f"Your own what if: {review.leader} and the others do not see it (f follows them again).")
        self.ui.what_if = start_what_if(review.replay.state, review.step)

    def leave_what_if(self) -> None:
        """``h`` or Esc in a what if: back to the real game (for everyone, when we lead the table's)."""
        here = self._what_if_here()
        if here is None:
            return
        review, what = here
        self.ui.what_if_keys = []
        if review.shared and self.leads(self.app.get_model()):
            self.app.send(HypoEnd())
        elif review.shared:  # a follower leaves the leader's what if: on their own, at its step
            self.ui.alone, self.ui.step = True, what.step
            self.app.note(f"On your own at step {what.step}: f follows {review.leader} again.")
        else:
            self.ui.what_if = None

    def what_if_move(self, action: TurnAction) -> None:
        """Make ``action`` for the seat to act in the what if; the engine says why not, at once."""
        here = self._what_if_here()
        if here is None:
            return
        review, what = here
        try:
            shared = self._playing_table_s(review)
        except IllegalAction as e:
            self.app.note(str(e), True)
            return
        try:
            moved = played(what, action)
        except IllegalAction as e:
            self.app.note(f"Not in this what if: {e}", True)
            return
        if shared:
            self.app.send(HypoAction(action))
        else:
            self.ui.what_if = moved

    def what_if_bot(self) -> None:
        """``b``: the house bot plays the seat to act, from that seat's view."""
        here = self._what_if_here()
        if here is None:
            return
        review, what = here
        try:
            if self._playing_table_s(review):
                self.app.send(HypoBot())
                return
        except IllegalAction as e:
            self.app.note(str(e), True)
            return
        if what.state.over:
            self.app.note("the game of this what if is over: ← takes a move back, h leaves", True)
            return
        model = self.app.get_model()
        table = model.table
        seats = frozenset() if table is None else frozenset(
            i for i, p in enumerate(table.players) if p is not None and p.plays_as_bot and i < what.state.players)
        decision = decide(seat_view(what), bot_seats=seats, level=table.level if table is not None else None)
        self.what_if_move(decision.action)
        who = f"{seat_name(review.players, what.state.current)} (the house bot)"
        # Its reason may name a card drawn during the what if, which shows only once revealed.
        hidden = "its reason is kept while the drawn cards are hidden (r shows them)"
        said = decision.reason if what.revealed or not what.drawn_since else hidden
        self.app.note(f"{who}: {said}")

    def what_if_back(self) -> None:
        """``←``: the what if's last move taken back."""
        here = self._what_if_here()
        if here is None:
            return
        review, what = here
        try:
            if self._playing_table_s(review):
                self.app.send(HypoBack())
            else:
                self.ui.what_if = taken_back(what)
        except IllegalAction as e:
            self.app.note(str(e), True)

    def what_if_reveal(self) -> None:
        """``r``: show the cards drawn during the what if, or hide them again."""
        here = self._what_if_here()
        if here is None:
            return
        review, what = here
        try:
            if self._playing_table_s(review):
                self.app.send(HypoReveal(not what.revealed))
            else:
                self.ui.what_if = replace(what, revealed=not what.revealed)
        except IllegalAction as e:
            self.app.note(str(e), True)

    def what_if_key(self, key: str) -> None:
        """A key of a move in the what if (``p 2``, ``d 1``, ``c 1 r``), as a game's shortcuts take them, for the
        seat to act there."""
        here = self._what_if_here()
        if here is None:
            self.ui.what_if_keys = []
            return
        review, what = here
        view = seat_view(what)
        names = review.players
        typed = [*self.ui.what_if_keys, key]
        if review.shared and not self.leads(self.app.get_model()):
            told: shortcuts.Step = shortcuts.KeyRefused(f"{review.leader} plays this what if for everyone: h leaves "
                                                        "it, to step on your own")
        elif what.state.over:
            told = shortcuts.KeyRefused("the game of this what if is over: ← takes a move back")
        else:
            told = shortcuts.start(key, view, names) if len(typed) == 1 else shortcuts.step(self.ui.what_if_keys,
                                                                                             key, view, names)
        self.app.ui.prompt = ""
        if isinstance(told, shortcuts.Prompt):
            self.ui.what_if_keys = typed
            self.app.ui.prompt = f"{seat_name(names, what.state.current)}: {told.text}"
            return
        self.ui.what_if_keys = []
        if isinstance(told, shortcuts.KeyRefused):
            self.app.note(told.text, True)
        elif isinstance(told.intent, (Play, Discard, Clue)):
            self.what_if_move(told.intent)

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
