"""How one card, or what someone knows about one card, is written on screen.

Every suit is shown with its letter *and* its colour, so the screen reads the
same for colour-blind players and on monochrome terminals. Knowledge comes
from the engine's ``CardKnowledge`` (clues only): the colours and ranks clued
onto a card, and the suits and ranks it can still be.
"""

from __future__ import annotations

from hanabi.engine import RANKS, Card, CardKnowledge, Suit, Variant
from prompt_toolkit.formatted_text import StyleAndTextTuples

from .history import card_style


def suit_style(suit: Suit) -> str:
    return f"class:card.{suit.value}"


def card_fragments(card: Card | None, width: int = 0, clued: bool = False) -> StyleAndTextTuples:
    """A card face ("R3" in red), padded to ``width``; a clued card is underlined as well (see ``in_hand``)."""
    text = str(card) if card is not None else "??"
    style = card_style(card) + (" class:card.clued" if clued else "")
    out: StyleAndTextTuples = [(style, text)]
    if width > len(text):
        out.append(("", " " * (width - len(text))))
    return out


def in_hand(fragments: StyleAndTextTuples, clued: bool) -> StyleAndTextTuples:
    """A card's cell in a hand: ``[R3]`` once a clue touched it, `` R3 `` otherwise.

    Brackets, not only underlining or colour, so a clued card stands out on any
    terminal, for colour-blind players, and in copied or captured text. The
    unclued cell keeps the same width, so the cards of every row stay in columns.
    """
    if clued:
        return [("class:clue.mark", "["), *fragments, ("class:clue.mark", "]")]
    return [("", " "), *fragments, ("", " ")]


def clue_marks(knowledge: CardKnowledge) -> StyleAndTextTuples:
    """What clues said about the card: clued colour letters and ranks ("R3", "R", "3"), or "·" if never clued."""
    out: StyleAndTextTuples = []
    for suit in Suit:
        if knowledge.colours >> suit.index & 1:
            out.append((suit_style(suit), suit.letter))
    for rank in knowledge.clued_ranks():
        out.append(("class:knowledge.rank", str(rank)))
    return out or [("class:knowledge.none", "·")]


def possible_suits(knowledge: CardKnowledge, variant: Variant) -> list[Suit]:
    cands = knowledge.candidates()
    return [s for s in variant.suits if any(c.suit is s for c in cands)]


def possible_ranks(knowledge: CardKnowledge) -> list[int]:
    cands = knowledge.candidates()
    return [r for r in RANKS if any(c.rank == r for c in cands)]


def rank_span(ranks: list[int]) -> str:
    """Ranks written compactly: "1-5", "1245", "3"."""
    if not ranks:
        return "-"
    if len(ranks) > 2 and ranks == list(range(ranks[0], ranks[-1] + 1)):
        return f"{ranks[0]}-{ranks[-1]}"
    return "".join(str(r) for r in ranks)


def can_be_suits(knowledge: CardKnowledge, variant: Variant) -> StyleAndTextTuples:
    """The suits the card can still be, each letter in its colour."""
    suits = possible_suits(knowledge, variant)
    if not suits:
        return [("class:knowledge.none", "-")]
    return [(suit_style(s), s.letter) for s in suits]


def can_be_ranks(knowledge: CardKnowledge) -> StyleAndTextTuples:
    return [("class:knowledge.rank", rank_span(possible_ranks(knowledge)))]


def fragments_width(fragments: StyleAndTextTuples) -> int:
    return sum(len(f[1]) for f in fragments)


def pad(fragments: StyleAndTextTuples, width: int) -> StyleAndTextTuples:
    """``fragments`` followed by spaces up to ``width`` columns (at least one space of gap)."""
    used = fragments_width(fragments)
    return [*fragments, ("", " " * max(1, width - used))]
