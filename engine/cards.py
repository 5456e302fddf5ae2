"""Cards and suits: the plain values every other module talks about.

A card is a suit and a rank. Suits have a fixed global index (red 0 ...
multicolor 5) so that a card identity can be packed into one small integer,
``suit.index * 5 + rank - 1``, which the knowledge bitmasks use.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

RANKS = (1, 2, 3, 4, 5)
MAX_RANK = 5
# How many copies of each rank a full suit holds: three 1s, two 2s/3s/4s, one 5.
COPIES = {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}


class Suit(enum.Enum):
    """The six suits, in the rulebook's order. The value is the colour's name."""

    RED = "red", 0
    YELLOW = "yellow", 1
    GREEN = "green", 2
    BLUE = "blue", 3
    WHITE = "white", 4
    MULTICOLOR = "multicolor", 5

    index: int  # position in the rulebook's order; a plain attribute because it is read on every move

    def __new__(cls, value: str, index: int) -> Suit:
        suit = object.__new__(cls)
        suit._value_ = value
        suit.index = index
        return suit

    @property
    def letter(self) -> str:
        """One letter per suit, so colour-blind players and plain terminals can tell them apart."""
        return str(self.value)[0].upper()

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its name or letter, case-insensitive ("red", "R", "multi")."""
        key = text.strip().lower()
        for suit in cls:
            if key in (suit.value, suit.value[0]) or (len(key) >= 3 and suit.value.startswith(key)):
                return suit
        raise ValueError(f"unknown colour {text!r}: say one of {', '.join(s.value for s in cls)}")


SUITS = tuple(Suit)


@dataclass(frozen=True, slots=True)
class Card:
    """A card's identity. Two copies of the red 1 are equal; the deck tells them apart by order."""

    suit: Suit
    rank: int
    # The packed integer used by knowledge masks: suit index * 5 + rank - 1.
    identity: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "identity", self.suit.index * MAX_RANK + self.rank - 1)

    def __str__(self) -> str:
        return f"{self.suit.letter}{self.rank}"

    @classmethod
    def from_identity(cls, identity: int) -> Card:
        return _CARDS[identity]

    @classmethod
    def parse(cls, text: str) -> Card:
        """A card from its short name, such as "R3" or "m5"."""
        text = text.strip()
        if len(text) < 2 or not text[-1].isdigit() or int(text[-1]) not in RANKS:
            raise ValueError(f"unknown card {text!r}: write a colour letter and a rank, like R3")
        return cls(Suit.parse(text[:-1]), int(text[-1]))


_CARDS = tuple(Card(suit, rank) for suit in SUITS for rank in RANKS)
