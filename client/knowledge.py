"""What the board adds to the cards: card counting, what each card is worth, and the last clue.

``Insight.of(view)`` asks the engine, once per view, for everything the
board marks: for every hand, what each card can still be by clues and by
counting (``possible_cards``: your own hand from what you see; a teammate's
from the cards you both see, which is all you can honestly say of what
they count, since they also see your hand); what each card is certainly
worth (``Prospects``: your cards from what you know of them, the others'
from what you see); and the cards the last clue touched.

How it is written, so that it reads the same in any terminal and in copied
text: a suit or rank that clues allow but counting rules out stays in its
place, written small (a lower-case letter, a superscript digit) and struck
through; after a card, ``+`` says it is certainly playable, ``!`` critical
(the last copy of a card still needed), ``x`` certainly trash.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from hanabi.engine import (
    RANKS,
    Card,
    CardView,
    Clue,
    PlayerView,
    Prospects,
    TurnEvent,
    Variant,
    Worth,
    possible_cards,
)
from prompt_toolkit.formatted_text import StyleAndTextTuples

from .cardtext import suit_style

SMALL_DIGITS = {1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵"}
COUNTED = "class:knowledge.counted"  # what counting alone rules out: dim and struck through


@dataclass(frozen=True, slots=True)
class Insight:
    """For one view: per card order, what it can be by counting and what it is worth; the last clue's cards."""

    counted: dict[int, tuple[Card, ...]]
    worth: dict[int, Worth]
    last_clue: frozenset[int]

    @classmethod
    def of(cls, view: PlayerView) -> Insight:
        prospects = Prospects.of_view(view)
        counted: dict[int, tuple[Card, ...]] = {}
        worth: dict[int, Worth] = {}
        for seat, hand in enumerate(view.hands):
            counted.update(possible_cards(view, seat))
            for cv in hand:
                worth[cv.order] = prospects.worth([cv.card] if cv.card is not None else counted[cv.order])
        return cls(counted, worth, last_clue_touched(view))


def last_clue_touched(view: PlayerView) -> frozenset[int]:
    """The cards the latest clue touched (those still in a hand are the ones the board can highlight)."""
    for event in reversed(view.events):
        if isinstance(event, TurnEvent) and isinstance(event.action, Clue):
            return frozenset(event.touched)  # an empty clue (a table option) touched nothing: nothing to show
    return frozenset()


def worth_mark(worth: Worth) -> StyleAndTextTuples:
    """The marks after a card: ``+`` playable, ``!`` critical, ``x`` trash (nothing when nothing is certain)."""
    out: StyleAndTextTuples = []
    if Worth.PLAYABLE in worth:
        out.append(("class:worth.playable", "+"))
    if Worth.CRITICAL in worth:
        out.append(("class:worth.critical", "!"))
    if Worth.TRASH in worth:
        out.append(("class:worth.trash", "x"))
    return out


def counted_suits(cv: CardView, counted: Collection[Card], variant: Variant) -> StyleAndTextTuples:
    """The suits clues allow, each in its colour; those counting rules out in lower case, struck through."""
    by_clues = cv.knowledge.candidates()
    out: StyleAndTextTuples = []
    for suit in variant.suits:
        if not any(c.suit is suit for c in by_clues):
            continue
        if any(c.suit is suit for c in counted):
            out.append((suit_style(suit), suit.letter))
        else:
            out.append((f"{suit_style(suit)} {COUNTED}", suit.letter.lower()))
    return out or [("class:knowledge.none", "-")]


def counted_ranks(cv: CardView, counted: Collection[Card]) -> StyleAndTextTuples:
    """The ranks clues allow; those counting rules out as small digits, struck through.

    Written as a span ("1-5") when counting rules none of them out, as the board always wrote them.
    """
    by_clues = {c.rank for c in cv.knowledge.candidates()}
    left = {c.rank for c in counted}
    ranks = [r for r in RANKS if r in by_clues]
    if not ranks:
        return [("class:knowledge.none", "-")]
    if all(r in left for r in ranks):
        if len(ranks) > 2 and ranks == list(range(ranks[0], ranks[-1] + 1)):
            return [("class:knowledge.rank", f"{ranks[0]}-{ranks[-1]}")]
        return [("class:knowledge.rank", "".join(map(str, ranks)))]
    return [("class:knowledge.rank", str(r)) if r in left else (COUNTED, SMALL_DIGITS[r]) for r in ranks]


def can_be_cells(cards: Sequence[CardView | None], insight: Insight,
                 variant: Variant) -> tuple[list[StyleAndTextTuples], list[StyleAndTextTuples]]:
    """The two rows under a hand: suits, then ranks, per card (blank for ``None``, a card known outright)."""
    suits = [counted_suits(cv, insight.counted.get(cv.order, ()), variant) if cv is not None else []
             for cv in cards]
    ranks = [counted_ranks(cv, insight.counted.get(cv.order, ())) if cv is not None else [] for cv in cards]
    return suits, ranks

