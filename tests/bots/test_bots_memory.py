"""The bot's memory of which cards are dead and which critical, against the rules' own words on the real game.

``Table`` works both out once per card that leaves a hand, a suit at a time; here they are worked out card by
card from the engine's state (the fireworks and the discard pile, misplays included), at every turn of games
that discard and misplay a lot, in every variant.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hanabi.engine import Card, Discard, GameConfig, GameState, Play, Variant, apply, legal_actions, new_game, view_for
from hanabi.engine.bots.memory import Table


def dead_and_critical(state: GameState) -> tuple[set[int], set[int]]:
    """The dead identities (played, or an earlier card of the suit all gone) and the critical ones (not dead,
    every other copy gone), as the rules say them."""
    variant = state.config.variant
    gone = Counter(state.deck[o].identity for o in state.discard)
    dead, critical = set(), set()
    for suit in variant.suits:
        height = state.fireworks[suit.index]
        for rank in range(1, 6):
            card = Card(suit, rank)
            lost_below = any(gone[Card(suit, q).identity] == variant.copies(Card(suit, q))
                             for q in range(height + 1, rank))
            if rank <= height or lost_below:
                dead.add(card.identity)
            elif gone[card.identity] >= variant.copies(card) - 1:
                critical.add(card.identity)
    return dead, critical


@pytest.mark.parametrize("variant", list(Variant), ids=lambda v: v.name)
def test_dead_and_critical_cards_are_the_rules(variant: Variant) -> None:
    rng = random.Random(variant.value)
    checked = Counter[str]()
    for game in range(4):
        config = GameConfig(players=2 + game % 3, variant=variant)
        state = new_game(config, rng.randrange(10_000))
        memory = Table(config, 0)
        while not state.over:
            # Every card of ours as if a person's clue had saved it on our chop: when such a card leaves, whether
            # it was critical is asked before the fireworks and the discards change (the masks must follow them).
            memory.save_claims.update(dict.fromkeys(state.hands[0], 1))
            memory.catch_up(view_for(state, 0))
            dead, critical = dead_and_critical(state)
            for i in memory.copies:
                assert memory.dead(i) == (i in dead), (Card.from_identity(i), state.fireworks)
                assert memory.critical(i) == (i in critical), (Card.from_identity(i), state.fireworks)
            assert memory.trash_mask() == sum(1 << i for i in dead)
            assert memory.critical_mask() == sum(1 << i for i in critical)
            checked["dead"] += len(dead) > sum(state.fireworks)  # dead beyond the played: a suit cut short
            checked["critical"] += bool(critical)
            # Discards whenever a token allows, so that copies run out and suits are cut short; a clue to get one
            # back; now and then a blind play (three misplays end the game).
            actions = legal_actions(state)
            discards = [a for a in actions if isinstance(a, Discard)]
            plays = [a for a in actions if isinstance(a, Play)]
            clues = [a for a in actions if not isinstance(a, (Discard, Play))]
            state = apply(state, rng.choice(plays if rng.random() < 0.05 else discards or clues or actions))
    assert checked["dead"] and checked["critical"]
