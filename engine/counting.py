"""Card counting: what each of a seat's own cards can still be, from everything that seat sees.

Clues alone (``CardKnowledge.possible``) say what a card may be; a player
who also counts the cards in sight knows more: when both R4s lie in the
discard pile or in other hands, a card clued red cannot be R4. This module
is that count, for any seat's view: every card of the deck, minus the
copies the seat sees (other hands, the discard pile, the fireworks), minus
the copies its own cards are already known to be. Used by the bots and by
the client's display of what a seat knows.

It is the one place the count is made. ``possible_masks`` works on plain
bitmasks (identities as in ``Card.identity``) so that a bot can also run it
for another seat, from what that seat sees; ``possible_cards`` is the same
answer for a view, as cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

from .cards import Card
from .variants import Variant
from .views import PlayerView

# Identity -> copies in the whole deck, per variant: counted once here, not again for every hand of every view.
_COPIES = {v: {card.identity: v.copies(card) for card in set(v.deck())} for v in Variant}


def unseen_copies(variant: Variant, seen: Iterable[Card]) -> Counter[int]:
    """Identity -> how many copies of it the deck holds that are not among ``seen``."""
    left: Counter[int] = Counter(_COPIES[variant])
    for card in seen:
        left[card.identity] -= 1
    return left


def possible_masks(variant: Variant, knowledge: Sequence[int], left: Counter[int]) -> list[int]:
    """Narrow each card's clue mask (``knowledge``, one hand) by the copies ``left`` unseen.

    An identity is ruled out for a card when no unseen copy remains, or when
    the hand's other cards already account for every unseen copy (two cards
    known to be R2, the only two R2s left: a third card is not R2). Repeated
    until nothing changes. A card whose clues clash with the count (a view
    that cannot happen in a real game) keeps its clue mask.
    """
    gone = sum(1 << i for i, n in left.items() if n <= 0)
    masks = [k & ~gone or k for k in knowledge]
    changed = True
    while changed:
        changed = False
        pinned: Counter[int] = Counter()
        for m in masks:
            if m and not m & (m - 1):
                pinned[m.bit_length() - 1] += 1
        for i, n in pinned.items():
            if n < left[i]:
                continue
            bit = 1 << i
            for index, m in enumerate(masks):
                if m & bit and m != bit and m & ~bit:
                    masks[index] = m & ~bit
                    changed = True
    return masks


def possible_cards(view: PlayerView, seat: int | None = None) -> dict[int, tuple[Card, ...]]:
    """Card order -> the identities that card can still be, by clues and counting, for ``seat``'s hand.

    ``seat`` defaults to the viewer's own. For another seat the count uses only the cards both see: the
    discard pile, the fireworks and the hands of everyone else but the viewer (whose cards the viewer cannot
    see). So it may leave more than that seat really knows, never less: each identity it rules out, that
    seat rules out too. A spectator sees every hand but the one asked about, so for a spectator it is exact.
    """
    if seat is None:
        if view.seat is None:
            raise ValueError("a spectator has no hand to count for: ask with a seat's view")
        seat = view.seat
    if not 0 <= seat < view.players:
        raise ValueError(f"there is no seat {seat + 1} at a {view.players}-player table")
    hand = view.hands[seat]
    left = unseen_copies(view.config.variant, view.visible_cards())
    for cv in hand:  # a seat does not see its own cards (the viewer's show once the game is over)
        if cv.card is not None:
            left[cv.card.identity] += 1  # counted by identity: no list of cards searched for each
    masks = possible_masks(view.config.variant, [cv.knowledge.possible for cv in hand], left)
    return {cv.order: _cards(m) for cv, m in zip(hand, masks, strict=True)}


@lru_cache(maxsize=4096)
def _cards(mask: int) -> tuple[Card, ...]:
    """The cards of a mask's identities, lowest identity first. The same few masks come back for every hand of
    every view (a card clued red 1, an untouched card), so each is turned into cards once."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(Card.from_identity(low.bit_length() - 1))
        mask ^= low
    return tuple(cards)
