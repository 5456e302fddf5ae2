"""Small arithmetic on card identities for the bots: suits, ranks and bitmasks.

Identities are ``Card.identity`` integers (suit index * 5 + rank - 1), and a
set of identities is an ``int`` bitmask, as in ``CardKnowledge.possible``.
These helpers keep the convention code readable.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..cards import MAX_RANK, Card
from ..variants import Variant


def ident(suit_index: int, rank: int) -> int:
    return suit_index * MAX_RANK + rank - 1


def suit_of(identity: int) -> int:
    return identity // MAX_RANK


def rank_of(identity: int) -> int:
    return identity % MAX_RANK + 1


def bits(mask: int) -> Iterator[int]:
    """The identities in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def single(mask: int) -> int | None:
    """The only identity in a mask, or None."""
    return mask.bit_length() - 1 if mask and not mask & (mask - 1) else None


def copies_table(variant: Variant) -> dict[int, int]:
    """How many copies of each identity the variant's deck holds."""
    return {ident(s.index, r): variant.copies(Card(s, r)) for s in variant.suits for r in range(1, MAX_RANK + 1)}


def name(identity: int) -> str:
    return str(Card.from_identity(identity))
