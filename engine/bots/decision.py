"""What every bot gives back, and the convention levels a table can choose.

A ``Decision`` is a turn action with the one-line reason a player would give
for it ("Seat 2's clue told me slot 3 is R1: playable"), so that a person
can ask a bot why it did what it did. A reason may name cards in other
seats' hands ("saving the only R5 on seat 3's chop"), and a seat must never
be told its own cards while the game runs: ``names_cards_of`` says which
seats' cards the reason speaks about, so that whoever shows it shows it to
the other seats only.

The convention level says what the *people* at a table are expected to
follow; house bots read each other by their full conventions whatever it is:

* ``beginner``: nothing but what a clue says. A person's clue is read
  literally (with card counting); a bot gives a person only clues that prove
  a card playable or keep a card from the discard.
* ``basic``: play and save clues, the chop, clue focus, good touch and
  delayed play clues; no finesse, no prompt.
* ``h-group``: the bots' full conventions (docs/bots.md), finesses included.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..actions import Clue, Play, TurnAction
from ..views import PlayerView

Level = Literal["beginner", "basic", "h-group"]
LEVELS: tuple[Level, ...] = ("beginner", "basic", "h-group")
STRONGEST: Level = "h-group"


@dataclass(frozen=True, slots=True)
class Decision:
    """A bot's turn: the action, and why, in a sentence a player understands."""

    action: TurnAction
    reason: str
    # The seats (0-based, as ``PlayerView.seat``) whose cards the reason names or describes: it may be shown
    # during the game only to a seat not in this set. The bot's own seat is included when it speaks of its
    # own cards (harmless: those are visible to everyone else).
    names_cards_of: frozenset[int] = frozenset()


def table_level(level: str | None, players: int, bot_seats: frozenset[int] | None) -> Level:
    """The level to play at: ``level`` if given (checked), else beginner when a person sits at the table."""
    if level is None:
        people = bot_seats is not None and any(seat not in bot_seats for seat in range(players))
        return "beginner" if people else STRONGEST
    return known_level(level)


def known_level(level: str) -> Level:
    """``level`` as one of ``LEVELS``, or the ``ValueError`` that names them."""
    for known in LEVELS:
        if level == known:
            return known
    raise ValueError(f"there is no convention level {level!r}: choose one of {', '.join(LEVELS)}")


def seats_named(decision: Decision, seat: int, players: int) -> frozenset[int]:
    """The seats that may not read ``decision``'s reason (the move of ``seat``) while the game runs: those whose
    own cards it may name (it could tell them their cards).

    The decision's ``names_cards_of``, and a clue's target whatever it says (a clue's reason speaks of what it
    told them). A bot that names no seat (one written before ``names_cards_of``) is judged from its action: a
    finesse's reason names a card someone else is to blind-play, so it is kept from every seat but the giver's;
    a play's or a discard's names only the mover's own hand.
    """
    action = decision.action
    named = set(decision.names_cards_of)
    if isinstance(action, Clue):
        named.add(action.target)
        if not decision.names_cards_of and "finesse" in decision.reason:
            named.update(s for s in range(players) if s != seat)
    elif not named:
        named.add(seat)
    return frozenset(named)


# How a reason names a seat: "seat 3", counted from 1 as the board shows it (``Turn``'s reasons, ``seat_called``).
_SEAT_IN_REASON = re.compile(r"\bseat ([1-9])\b")


def seat_called(seat: int, names: Sequence[str] = ()) -> str:
    """A seat (0-based) as players see it: its player's name when known, else "seat 3" counted from 1."""
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"seat {seat + 1}"


def action_words(action: TurnAction, view: PlayerView, names: Sequence[str] = ()) -> str:
    """A turn action of the seat of ``view``, as its player says it: "play my slot 3", "clue Ada: red".

    Never a card's order in the deck or a 0-based seat (``str(action)`` is for logs and tests).
    """
    if isinstance(action, Clue):
        return f"clue {seat_called(action.target, names)}: {action.value}"
    verb = "play" if isinstance(action, Play) else "discard"
    hand = [cv.order for cv in view.hands[view.seat]] if view.seat is not None else []
    if action.order in hand:
        return f"{verb} my slot {hand.index(action.order) + 1}"
    return f"{verb} a card not in my hand"


def reason_words(reason: str, names: Sequence[str] = ()) -> str:
    """A bot's reason with every seat called by ``names`` when given (else "seat 3", counted from 1)."""
    return _SEAT_IN_REASON.sub(lambda m: seat_called(int(m.group(1)) - 1, names), reason)


def explained(decision: Decision, view: PlayerView, names: Sequence[str] = ()) -> str:
    """A decision in one line for the player who watches a bot: the action, then why, every seat called
    the same way (by ``names`` when given, else "seat 3", counted from 1) and every card by its slot."""
    return f"{action_words(decision.action, view, names)} - {reason_words(decision.reason, names)}"
