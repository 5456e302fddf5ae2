"""The four decks of the printed game and how clues touch cards in each.

RULES.md numbers the variants 1-3 (variant 4, all or nothing, is an option
that combines with any of them, see ``options.py``). Everything that differs
between variants lives here: which suits are in play, how many cards of each,
which colours can be named in a clue, and which cards a clue touches.
"""

from __future__ import annotations

import enum

from .cards import COPIES, MAX_RANK, RANKS, SUITS, Card, Suit


class Variant(enum.Enum):
    """A deck. The value is the name hanab.live gives the same deck."""

    NONE = "No Variant"
    SIX_SUITS = "6 Suits"
    SHORT_MULTICOLOR = "Black (6 Suits)"
    WILD_MULTICOLOR = "Rainbow (6 Suits)"

    @classmethod
    def parse(cls, text: str) -> Variant:
        """A variant from its hanab.live name, its Python name or a short alias."""
        key = text.strip().lower().replace("-", "_").replace(" ", "_").replace(",", "")
        for variant in cls:
            spellings = (variant.name, variant.value, _TITLES[variant])
            if key in (n.lower().replace(" ", "_").replace(",", "") for n in spellings):
                return variant
        if key in _ALIASES:
            return _ALIASES[key]
        names = ", ".join(v.name.lower() for v in cls)
        raise ValueError(f"unknown variant {text!r}: choose one of {names} (or a hanab.live name such as '6 Suits')")

    @property
    def title(self) -> str:
        """The name players see. The value is hanab.live's name for the same deck, which is not
        always ours: its "Black" suit is our short multicolor suit."""
        return _TITLES[self]

    @property
    def suits(self) -> tuple[Suit, ...]:
        return _SUITS[self]

    @property
    def wild(self) -> bool:
        """True when multicolor is touched by every colour clue and cannot be named."""
        return self is Variant.WILD_MULTICOLOR

    @property
    def clue_colours(self) -> tuple[Suit, ...]:
        """The colours a clue may name, in hanab.live's clue-value order."""
        return SUITS[:5] if self in (Variant.NONE, Variant.WILD_MULTICOLOR) else SUITS

    @property
    def max_score(self) -> int:
        return len(self.suits) * MAX_RANK

    def copies(self, card: Card) -> int:
        """How many copies of this card the deck holds (0 if the suit is not in play)."""
        if card.suit not in self.suits:
            return 0
        if card.suit is Suit.MULTICOLOR and self is Variant.SHORT_MULTICOLOR:
            return 1
        return COPIES[card.rank]

    def deck(self) -> list[Card]:
        """Every card of the deck, sorted by suit then rank (shuffle it to play)."""
        return list(_DECKS[self])

    def touches_colour(self, card: Card, colour: Suit) -> bool:
        return card.suit is colour or (self.wild and card.suit is Suit.MULTICOLOR)

    def colour_mask(self, colour: Suit) -> int:
        """The identities a clue of this colour touches, as a bitmask."""
        return _masks(self)[0][colour.index]

    def rank_mask(self, rank: int) -> int:
        """The identities a clue of this rank touches, as a bitmask."""
        return _masks(self)[1][rank - 1]

    @property
    def all_identities(self) -> int:
        """Bitmask of every identity in the deck: what an unclued card may be."""
        return _ALL[self]


_SUITS = {
    Variant.NONE: SUITS[:5],
    Variant.SIX_SUITS: SUITS,
    Variant.SHORT_MULTICOLOR: SUITS,
    Variant.WILD_MULTICOLOR: SUITS,
}
_TITLES = {
    Variant.NONE: "no variant",
    Variant.SIX_SUITS: "six suits",
    Variant.SHORT_MULTICOLOR: "six suits, short multicolor",
    Variant.WILD_MULTICOLOR: "wild multicolor",
}
_ALIASES = {
    "none": Variant.NONE,
    "no_variant": Variant.NONE,
    "six_suits": Variant.SIX_SUITS,
    "6_suits": Variant.SIX_SUITS,
    "short": Variant.SHORT_MULTICOLOR,
    "black": Variant.SHORT_MULTICOLOR,
    "wild": Variant.WILD_MULTICOLOR,
    "rainbow": Variant.WILD_MULTICOLOR,
}


def _build_masks(variant: Variant) -> tuple[tuple[int, ...], tuple[int, ...]]:
    colour = []
    for c in SUITS:
        colour.append(sum(1 << Card(s, r).identity for s in variant.suits for r in RANKS
                          if variant.touches_colour(Card(s, r), c)))
    rank = [sum(1 << Card(s, r).identity for s in variant.suits) for r in RANKS]
    return tuple(colour), tuple(rank)


_MASKS = {v: _build_masks(v) for v in Variant}
_DECKS = {v: tuple(Card(s, r) for s in v.suits for r in RANKS for _ in range(v.copies(Card(s, r)))) for v in Variant}
_ALL = {v: sum(1 << Card(s, r).identity for s in v.suits for r in RANKS) for v in Variant}


def _masks(variant: Variant) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return _MASKS[variant]
