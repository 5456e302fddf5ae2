"""The simplest sensible bot: play what clues prove playable, else clue or discard.

It exists as a baseline for the benchmark and as a fallback. It plays a card
only when the public knowledge of that card says every possibility is
playable, clues a visible playable card when it can, and otherwise discards
its oldest unclued card.
"""

from __future__ import annotations

from ..actions import Clue, Discard, Play
from ..options import CLUE_TOKENS
from ..views import PlayerView
from .decision import Decision


def _playable(view: PlayerView, suit_index: int, rank: int) -> bool:
    # Fireworks follow the variant's suits, which are always a prefix of the global suit order.
    return view.fireworks[suit_index] == rank - 1


def decide_simple(view: PlayerView) -> Decision:
    if view.seat is None or view.seat != view.current or view.over:
        raise ValueError("a bot can only choose for the seat to move, while the game runs")
    legal = view.legal_actions()
    hand = view.my_hand
    for cv in hand:
        cands = cv.knowledge.candidates()
        if cands and all(_playable(view, c.suit.index, c.rank) for c in cands):
            return Decision(Play(cv.order), f"the clues say my slot {hand.index(cv) + 1} is playable")
    if view.clue_tokens > 0:
        for step in range(1, view.players):
            target = (view.seat + step) % view.players
            for cv in view.hands[target]:
                card = cv.card
                if card is None or not _playable(view, card.suit.index, card.rank):
                    continue
                if cv.knowledge.ranks:
                    continue
                clue = Clue(target, rank=card.rank)
                if clue in legal:
                    return Decision(clue, f"cluing seat {target + 1} {card.rank}: their {card} is playable",
                                    frozenset({target}))
    if view.clue_tokens < CLUE_TOKENS:
        unclued = [cv for cv in hand if not cv.knowledge.clued]
        oldest = (unclued or list(hand))[-1].order
        return Decision(Discard(oldest), "nothing to play or clue: discarding my oldest card")
    stall = legal[-1] if isinstance(legal[-1], Clue) else legal[0]
    return Decision(stall, "8 clue tokens: a clue rather than a discard")
