"""Rewind during a game: step back through the game as this seat saw it, while the live game goes on.

``r`` opens the rewind one step back; ← → (or ``,`` ``.``) step, ``[`` ``]``
step a whole round, Home and End go to the deal and to now; ``r`` or Esc
returns to the live game; other game keys say to return first. The past
comes from the engine's ``seat_history``, rebuilt from the live view
alone, so it shows no more than the seat was sent: its own cards as it
knew them then. The live model keeps changing underneath; the status line
says what the live game is doing, loudest when it is our turn.

``i SEAT SLOT`` looks back at one card: each clue given to its holder
while they held it, the ones that touched it and the ones that passed it
by ("not red"), then what the card can be now (clues and counting).

``Rewind.shown`` is the model the screen draws while rewinding: the live
one with the past view and a log of the events up to that step. Its link
reads "replay", so the title names whose turn it was without a "your
turn" that is not now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from hanabi.engine import PlayerView, TurnEvent, clue_history, possible_cards, seat_history

from .board import opening, seat_name
from .keys import KeyRefused, Prompt
from .model import ClientModel, Link, LogLine, log_new_events
from .stepping import Move, Place

# The keys of a rewind besides the arrows, Home and End (bindings.py): [ ] a whole round, , . one step.
STEP_KEYS: dict[str, Move] = {"[": Place.round_back, "]": Place.round_on, ",": Place.back, ".": Place.on}


@dataclass
class Rewind:
    """Where the rewind stands: ``step`` 0 is the deal, step i the table after the live view's i-th event."""

    step: int
    notice: str = ""  # a key the rewind refused, said until the next step
    _history: tuple[PlayerView, list[PlayerView]] | None = field(default=None, repr=False)
    _shown: tuple[ClientModel, int, ClientModel] | None = field(default=None, repr=False)
    _told: tuple[PlayerView, tuple[LogLine, ...]] | None = field(default=None, repr=False)

    @classmethod
    def open(cls, view: PlayerView) -> Rewind | str:
        """A rewind one step before now, or the sentence saying why there is nothing to rewind."""
        if not view.events:
            return "nothing to rewind yet: no move has been made"
        try:
            history = seat_history(view)
        except ValueError as e:
            return f"this game cannot be rewound ({e})"
        return cls(len(view.events) - 1, _history=(view, history))

    def history(self, view: PlayerView) -> list[PlayerView]:
        """The seat's past, rebuilt once per live view."""
        if self._history is None or self._history[0] is not view:
            self._history = (view, seat_history(view))
        return self._history[1]

    def place(self, view: PlayerView) -> Place:
        """Where the rewind stands in the live game's history: between the deal and now."""
        return Place(self.step, len(view.events), view.players)

    def move(self, view: PlayerView, move: Move) -> None:
        self.step = move(self.place(view)).at
        self.notice = ""

    def key(self, view: PlayerView, key: str) -> bool:
        """A printable key while rewinding: whether it moved the rewind (``[`` ``]`` a round, ``,`` ``.`` a step);
        any other key is refused, said on the status line."""
        if key not in STEP_KEYS:
            self.notice = f"{key!r} does nothing in a rewind: r returns to the game first"
            return False
        self.move(view, STEP_KEYS[key])
        return True

    def shown(self, live: ClientModel) -> ClientModel:
        """The model to draw: the live one, seen at ``step``."""
        view = live.view
        if view is None:
            return live
        if self._shown is not None and self._shown[0] is live and self._shown[1] == self.step:
            return self._shown[2]
        step = min(self.step, len(view.events))
        try:
            past = self.history(view)[step]
        except ValueError:  # a live view no game could produce (checked when opened): show the live game
            return live
        blank = replace(live, link=Link.REPLAY, view=past, log=(), logged_events=0, hands=())
        told = self.told(live, view)
        # The log of step k is the first k lines of the whole game's (one line per event), unless the log keeps
        # fewer lines than the game has events: then it is told again from the deal.
        model = replace(blank, log=told[:step], logged_events=step) if len(told) == len(view.events) \
            else log_new_events(blank, past)
        self._shown = (live, self.step, model)
        return model

    def told(self, live: ClientModel, view: PlayerView) -> tuple[LogLine, ...]:
        """Every event of the live view as the log tells it, told once per live view rather than again from the
        deal at each step."""
        if self._told is None or self._told[0] is not view:
            blank = replace(live, link=Link.REPLAY, view=view, log=(), logged_events=0, hands=())
            self._told = (view, log_new_events(blank, view).log)
        return self._told[1]

    def status(self, live: ClientModel) -> str:
        """The status line while rewinding: where we are, and what the live game is doing."""
        view = live.view
        if view is None:
            return ""
        total = len(view.events)
        if self.step == 0:
            where = "the deal"
        else:
            event = view.events[self.step - 1]
            # "after turn 5": the board shows turn 5 done, so the title above already says turn 6 is to come.
            where = f"after turn {event.turn + 1}" if isinstance(event, TurnEvent) else "after a rearrangement"
        # ``live.seat``: a spectator watching as the player to act is sent a view with a seat, but it is not theirs.
        now = ("IT IS YOUR TURN in the live game" if live.seat is not None and view.current == view.seat
               and view.outcome is None else f"live: {seat_name(live.names, view.current)} to act")
        said = f"{self.notice} · " if self.notice else ""
        return f"{said}REWIND: {where}, step {self.step} of {total} · {now} · r returns"


# -- a card's clue history, asked with i SEAT SLOT ------------------------------------------------


def _whose(view: PlayerView, names: Sequence[str], seat: int) -> str:
    return "your" if seat == view.seat else f"{seat_name(names, seat)}'s"


def history_step(keys: Sequence[str], key: str, view: PlayerView, names: Sequence[str]) -> Prompt | KeyRefused | str:
    """The next step of ``i SEAT SLOT`` (``keys`` so far, starting with "i"): a prompt, a refusal, or the answer."""
    if len(keys) == 1:
        if not (key.isdigit() and 1 <= int(key) <= view.players):
            return KeyRefused(f"no seat {key!r}: press a seat number from 1 to {view.players}, as the board shows them")
        seat = int(key) - 1
        return Prompt(f"Which of {_whose(view, names, seat)} cards? slot 1-{len(view.hands[seat])} · Esc cancels")
    seat = int(keys[1]) - 1
    hand = view.hands[seat]
    if not (key.isdigit() and 1 <= int(key) <= len(hand)):
        return KeyRefused(f"no slot {key!r}: press a number from 1 to {len(hand)}")
    return card_history_text(view, names, seat, int(key))


def history_prompt(view: PlayerView, names: Sequence[str]) -> Prompt:
    you = f" (you are {view.seat + 1})" if view.seat is not None else ""
    return Prompt(f"Clue history of whose card? seat 1-{view.players}{you} · Esc cancels")


def card_history_text(view: PlayerView, names: Sequence[str], seat: int, slot: int) -> str:
    """One line: every clue the card in ``seat``'s ``slot`` got or was passed by, and what it can be now."""
    cv = view.hands[seat][slot - 1]
    card = f" ({cv.card})" if cv.card is not None else ""
    clues = []
    for told in clue_history(view, cv.order):
        giver = seat_name(names, told.event.seat)
        clues.append(f"turn {told.event.turn + 1} {giver}: {'' if told.touched else 'not '}{told.clue.value}")
    counted = possible_cards(view, seat)[cv.order]
    can_be = " ".join(map(str, counted)) if len(counted) <= 8 else f"any of {len(counted)} cards"
    told_text = " · ".join(clues) if clues else "no clue yet"
    whose = _whose(view, names, seat)
    return f"{opening(whose, names)} slot {slot}{card}: {told_text} · can be {can_be}"
