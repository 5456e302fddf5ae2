"""Simulated people for the bots' benchmark: a beginner, a novice who counts, and careless ones.

The beginner knows no convention at all:

1. it plays a card only when the clues on it and the fireworks prove it
   playable (no card counting, no reading of intent);
2. otherwise, with a clue token, it clues a teammate's playable card that
   its holder does not know to be playable, with the clue that touches the
   fewest other cards (a clue that tells the holder nothing new about that
   card is not considered; on a tie, the clue that proves the card playable,
   then the nearest teammate, then the newest card);
3. otherwise it discards its oldest card no clue touched (its oldest card
   if every card is clued); with all 8 clue tokens, when it may not discard,
   it gives the legal clue that touches the fewest cards.

The novice is the beginner with card counting, and nothing more: it plays a
card when the clues on it *and every card it sees* (other hands, discards,
fireworks) prove it playable, and it clues a teammate's playable card that
clues and counting (from what both see) do not already prove playable to its
holder. No convention, no reading of intent, no saves: the bots were never
tuned to it.

The eager novice is the novice who also plays on one clue: when a clue given
to it since its last turn leaves exactly one of the cards it touched able to be
a card playable now (by the clues and the count), it plays that card, proven or
not; what people most often take a clue to mean.

The careless beginner (and novice) is the same player, except that every
fourth clue it gives is a uniformly random legal clue (from a generator
seeded per deal).
"""

from __future__ import annotations

import random

from hanabi.engine import (
    CLUE_TOKENS,
    Card,
    CardView,
    Clue,
    Discard,
    Play,
    PlayerView,
    TurnAction,
    TurnEvent,
    possible_cards,
)


def _playable(view: PlayerView, card: Card) -> bool:
    return view.fireworks[card.suit.index] == card.rank - 1


def proven_playable(view: PlayerView, cv: CardView) -> bool:
    """The clues alone prove the card playable: every identity they allow is."""
    candidates = cv.knowledge.candidates()
    return bool(candidates) and all(_playable(view, card) for card in candidates)


def touches(view: PlayerView, clue: Clue, card: Card) -> bool:
    if clue.colour is not None:
        return view.config.variant.touches_colour(card, clue.colour)
    return card.rank == clue.rank


def _narrowed(view: PlayerView, cv: CardView, clue: Clue) -> bool:
    """Whether the clue proves the card playable (clues only, as the beginner reads them)."""
    variant = view.config.variant
    mask = variant.colour_mask(clue.colour) if clue.colour is not None else variant.rank_mask(clue.rank or 1)
    after = cv.knowledge.possible & mask
    return all(_playable(view, Card.from_identity(i)) for i in range(after.bit_length()) if after >> i & 1)


def counted_playable(view: PlayerView, cards: tuple[Card, ...]) -> bool:
    """Clues and counting prove the card playable: every identity they leave is."""
    return bool(cards) and all(_playable(view, card) for card in cards)


def one_clue_play(view: PlayerView, counted: dict[int, tuple[Card, ...]]) -> int | None:
    """The card a clue given to us since our last turn most likely meant us to play: the one touched card the
    clue leaves able to be playable now (by ``counted``); None when no such clue leaves exactly one."""
    for event in reversed(view.events):
        if not isinstance(event, TurnEvent):
            continue
        if event.seat == view.seat:
            return None
        if isinstance(event.action, Clue) and event.action.target == view.seat:
            able = [o for o in event.touched
                    if o in counted and any(_playable(view, card) for card in counted[o])]
            if len(able) == 1:
                return able[0]
    return None


class Beginner:
    """A person who knows no conventions; ``careless``: every fourth clue is random; ``counting``: the novice,
    who also counts the cards it sees; ``eager``: the novice who also plays on one clue (``one_clue_play``)."""

    def __init__(self, seed: int = 0, careless: bool = False, counting: bool = False, eager: bool = False) -> None:
        self.careless = careless
        self.counting = counting or eager
        self.eager = eager
        self.rng = random.Random(seed)
        self.clues_given = 0

    def choose(self, view: PlayerView) -> TurnAction:
        hand = view.my_hand
        legal = view.legal_actions()
        counted = possible_cards(view) if self.counting else {}
        for cv in hand:
            if proven_playable(view, cv) or (self.counting and counted_playable(view, counted[cv.order])):
                return Play(cv.order)
        quick = one_clue_play(view, counted) if self.eager else None
        if quick is not None:
            return Play(quick)
        clues = [a for a in legal if isinstance(a, Clue)]
        if view.clue_tokens > 0 and clues:
            clue = self.useful_clue(view, clues)
            if clue is not None:
                self.clues_given += 1
                if self.careless and self.clues_given % 4 == 0:
                    return self.rng.choice(clues)
                return clue
        if view.clue_tokens < CLUE_TOKENS:
            unclued = [cv for cv in hand if not cv.knowledge.clued]
            return Discard((unclued or list(hand))[-1].order)
        self.clues_given += 1
        if self.careless and self.clues_given % 4 == 0:
            return self.rng.choice(clues)
        return min(clues, key=lambda c: sum(touches(view, c, cv.card) for cv in view.hands[c.target] if cv.card))

    def useful_clue(self, view: PlayerView, clues: list[Clue]) -> Clue | None:
        """The clue to a playable card its holder does not know about that touches the fewest other cards."""
        assert view.seat is not None
        best: tuple[tuple[int, int, int, int], Clue] | None = None
        for step in range(1, view.players):
            target = (view.seat + step) % view.players
            hand = view.hands[target]
            theirs = possible_cards(view, target) if self.counting else {}
            for slot, cv in enumerate(hand):
                card = cv.card
                if card is None or not _playable(view, card) or proven_playable(view, cv):
                    continue
                if self.counting and counted_playable(view, theirs[cv.order]):
                    continue  # they can count it out themselves
                for clue in clues:
                    if clue.target != target or not touches(view, clue, card):
                        continue
                    known = ((clue.colour is not None and cv.knowledge.colours >> clue.colour.index & 1)
                             or (clue.rank is not None and cv.knowledge.ranks >> (clue.rank - 1) & 1))
                    if known:
                        continue  # it tells the holder nothing new about this card
                    others = sum(touches(view, clue, o.card) for o in hand if o is not cv and o.card is not None)
                    key = (others, 0 if _narrowed(view, cv, clue) else 1, step, slot)
                    if best is None or key < best[0]:
                        best = (key, clue)
        return best[1] if best is not None else None
