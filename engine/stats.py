"""The game at a glance: what a card is worth now, the score still reachable, pace and clue efficiency.

``Prospects`` reads the fireworks and the discard pile, which every seat
sees, and answers for any card identity: is it playable now, is it trash
(already played, or above a card whose every copy is gone), is it critical
(needed, and its last copy). ``worth`` asks it of a set of possibilities: a
card is *certainly* playable when every identity it can be is playable, and
so on; a card seen whole is a set of one.

The figures are hanab.live's, so that its regulars read them as they are
used to: pace is score + cards in the deck + players - the maximum score
(none once the deck is empty); efficiency is the cards "gotten" (played,
or in a hand with a clue on them and not known to everyone to be trash)
per clue spent or lost (a misplay loses the clue a discard would have
earned, and so does a 5 played while all clue tokens are in the box); the
required efficiency is the cards not gotten yet per clue the team can still
give, counting the discards it can afford and the 5s it can play before the
final round.
"""

from __future__ import annotations

import enum
import functools
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from .actions import Clue, Play, TurnEvent
from .cards import MAX_RANK, Card
from .options import CLUE_TOKENS
from .variants import Variant
from .views import PlayerView


class Worth(enum.Flag):
    """What is certain about a card: any mix of playable and critical, or trash alone."""

    NONE = 0
    PLAYABLE = enum.auto()  # it would play now
    CRITICAL = enum.auto()  # still needed, and no other copy is left: discarding it lowers the maximum score
    TRASH = enum.auto()  # it can never be played: already played, or a card below it is gone for good


@dataclass(frozen=True, slots=True)
class Prospects:
    """What the fireworks and the discard pile say about every card identity of a variant."""

    variant: Variant
    fireworks: tuple[int, ...]  # height per suit of the variant, in suit order
    gone: Counter[int]  # identity -> copies in the discard pile
    reach: tuple[int, ...]  # per suit: the highest the firework can still go

    @classmethod
    def of(cls, variant: Variant, fireworks: tuple[int, ...], discarded: Iterable[Card]) -> Prospects:
        gone = Counter(card.identity for card in discarded)
        reach = []
        for suit, height in zip(variant.suits, fireworks, strict=True):
            top = height
            while top < MAX_RANK:
                above = Card(suit, top + 1)
                if gone[above.identity] >= variant.copies(above):
                    break
                top += 1
            reach.append(top)
        return cls(variant, fireworks, gone, tuple(reach))

    @classmethod
    def of_view(cls, view: PlayerView) -> Prospects:
        return cls.of(view.config.variant, view.fireworks, (card for _, card in view.discard))

    def _index(self, card: Card) -> int | None:
        suits = self.variant.suits
        return suits.index(card.suit) if card.suit in suits else None

    def playable(self, card: Card) -> bool:
        i = self._index(card)
        return i is not None and self.fireworks[i] == card.rank - 1

    def trash(self, card: Card) -> bool:
        i = self._index(card)
        return i is None or not self.fireworks[i] < card.rank <= self.reach[i]

    def critical(self, card: Card) -> bool:
        return not self.trash(card) and self.variant.copies(card) - self.gone[card.identity] == 1

    def worth(self, cards: Collection[Card]) -> Worth:
        """What holds for every one of ``cards`` (the identities one card can be); nothing for an empty set."""
        if not cards:
            return Worth.NONE
        if all(self.trash(c) for c in cards):
            return Worth.TRASH
        out = Worth.NONE
        if all(self.playable(c) for c in cards):
            out |= Worth.PLAYABLE
        if all(self.critical(c) for c in cards):
            out |= Worth.CRITICAL
        return out

    @property
    def max_score(self) -> int:
        """The highest score still reachable: every firework as high as the cards left allow."""
        return sum(self.reach)

    @property
    def lost(self) -> tuple[Card, ...]:
        """The cards that stop a firework short: per suit, the first card above it with every copy discarded."""
        return tuple(Card(suit, top + 1) for suit, top in zip(self.variant.suits, self.reach, strict=True)
                     if top < MAX_RANK)


def pace(score: int, deck_left: int, players: int, max_score: int) -> int | None:
    """hanab.live's pace: how many more discards the team can afford and still reach ``max_score``.

    None once the deck is empty, when discarding no longer draws anything.
    """
    return score + deck_left + players - max_score if deck_left > 0 else None


def clues_usable(prospects: Prospects, deck_left: int, players: int, clue_tokens: int) -> int | None:
    """The most clues the team can still give and reach the maximum score (None once the deck is empty).

    The clue tokens in hand, plus one per discard the team can afford before the final round, plus one per
    firework it can complete before the final round (the 5 gives a token back). The final round lasts one
    turn per player.
    """
    if deck_left <= 0:
        return None
    missing = prospects.max_score - sum(prospects.fireworks)
    final = players
    # With the last cards to play few enough, every discard but the one that draws the deck's last card is free.
    discards = deck_left - 1 if missing <= final + 1 else max(0, final + deck_left - missing)
    plays_before_final = min(missing, final + deck_left) - min(missing, final + 1)
    completed = 0
    for short in sorted(MAX_RANK - h for h, top in zip(prospects.fireworks, prospects.reach, strict=True)
                        if top == MAX_RANK and h < MAX_RANK):
        if short > plays_before_final:
            break
        plays_before_final -= short
        completed += 1
    return clue_tokens + discards + completed


@dataclass(frozen=True, slots=True)
class Glance:
    """The figures a player checks between moves."""

    score: int
    max_score: int
    lost: tuple[Card, ...]  # why the maximum is below the variant's: the first lost card of each short suit
    pace: int | None  # None once the deck is empty
    cards_gotten: int
    clues_spent: int  # clues given, plus the clues misplays and 5s at full tokens lost
    required: float | None  # efficiency still needed for the maximum; None when it cannot be said
    starting: float  # the efficiency the maximum needed at the deal

    @property
    def efficiency(self) -> float | None:
        return self.cards_gotten / self.clues_spent if self.clues_spent else None


def starting_efficiency(view: PlayerView) -> float:
    """The efficiency a perfect score needs from the deal, in this variant at this many players."""
    return _starting_efficiency(view.config.variant, view.players, view.config.hand_size, view.deck_size)


# The same few tables all game long: glance asks it for every view, and it depends on nothing that changes.
@functools.cache
def _starting_efficiency(variant: Variant, players: int, hand_size: int, deck_size: int) -> float:
    fresh = Prospects.of(variant, (0,) * len(variant.suits), ())
    usable = clues_usable(fresh, deck_size - players * hand_size, players, CLUE_TOKENS)
    return variant.max_score / usable if usable else float("inf")


def glance(view: PlayerView) -> Glance:
    """The figures of the game at a glance, from what any seat's view holds (all of it public)."""
    prospects = Prospects.of_view(view)
    score = sum(view.fireworks)
    max_score = prospects.max_score
    spent = 0
    for event in view.events:
        if not isinstance(event, TurnEvent):
            continue
        action, card = event.action, event.card
        lost = isinstance(action, Play) and card is not None and (
            not event.success or (card.rank == MAX_RANK and not event.clue_gained))
        if isinstance(action, Clue) or lost:
            spent += 1
    # A clued card is gotten unless its clues alone (what everyone knows of it) say it is trash.
    clued = sum(1 for hand in view.hands for cv in hand
                if cv.knowledge.clued and prospects.worth(cv.knowledge.candidates()) is not Worth.TRASH)
    gotten = min(max_score, score + clued)
    usable = clues_usable(prospects, view.deck_left, view.players, view.clue_tokens)
    required = (max_score - gotten) / usable if usable else None
    return Glance(score, max_score, prospects.lost, pace(score, view.deck_left, view.players, max_score),
                  gotten, spent, required, starting_efficiency(view))
