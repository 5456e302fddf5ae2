"""What a card's holder knows about it from clues alone.

For each card we keep which colours and ranks were clued *onto* it (positive
information), which were clued past it (negative information), and the set of
identities still possible, as a bitmask over ``Card.identity``. Visible cards
elsewhere are deliberately not used: that inference belongs to a player (or a
bot), while this is the public record every view can show.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import RANKS, SUITS, Card


@dataclass(frozen=True, slots=True)
class CardKnowledge:
    possible: int
    colours: int = 0  # bit suit.index: a clue of this colour touched the card
    ranks: int = 0  # bit rank-1: a clue of this rank touched the card
    not_colours: int = 0
    not_ranks: int = 0

    @property
    def clued(self) -> bool:
        """Touched by at least one clue."""
        return bool(self.colours or self.ranks)

    def candidates(self) -> list[Card]:
        """The identities still possible, in suit then rank order."""
        return [Card.from_identity(i) for i in range(len(SUITS) * len(RANKS)) if self.possible >> i & 1]

    def can_be(self, card: Card) -> bool:
        return bool(self.possible >> card.identity & 1)

    @property
    def known(self) -> Card | None:
        """The card's identity, when clues alone pin it down."""
        p = self.possible
        return Card.from_identity(p.bit_length() - 1) if p and not p & (p - 1) else None

    def clued_colours(self) -> list[str]:
        return [s.value for s in SUITS if self.colours >> s.index & 1]

    def clued_ranks(self) -> list[int]:
        return [r for r in RANKS if self.ranks >> (r - 1) & 1]
