"""Card counting: what a seat's own cards can be, from the clues and every card the seat sees."""

from __future__ import annotations

import random

import pytest
from hanabi.engine import (
    Card,
    Clue,
    Discard,
    GameConfig,
    Suit,
    Variant,
    apply,
    game_from_deck,
    legal_actions,
    new_game,
    possible_cards,
    spectator_view,
    unseen_copies,
    view_for,
)


def deal(hands: str, players: int = 2) -> list[Card]:
    """The no-variant deck with ``hands`` ("R1 R2 ...", seat 0's cards first) on top."""
    rest = Variant.NONE.deck()
    top = [Card.parse(name) for name in hands.split()]
    for card in top:
        rest.remove(card)
    return top + rest


def test_a_red_card_is_not_a_red_four_when_both_are_in_sight() -> None:
    # Seat 0 holds R3 at order 0; seat 1 holds both R4s.
    state = game_from_deck(GameConfig(players=2, first_seat=1), deal("R3 Y1 Y2 Y3 B2  R4 R4 G1 G2 G3"))
    state = apply(state, Clue(0, colour=Suit.RED))
    cards = possible_cards(view_for(state, 0))
    assert state.knowledge[0].can_be(Card.parse("R4"))  # the clues alone allow it ...
    assert cards[0] == tuple(map(Card.parse, ["R1", "R2", "R3", "R5"]))  # ... the count does not
    assert Card.parse("R4") not in cards[1]  # unclued cards are counted too


def test_copies_a_hand_already_accounts_for_are_ruled_out_for_its_other_cards() -> None:
    # Seat 0 holds both R2s (orders 0 and 1) and R3; clues pin the two R2s, then red touches the R3 too.
    state = game_from_deck(GameConfig(players=2, first_seat=1), deal("R2 R2 R3 Y1 B4  G1 G2 G3 G4 W1"))
    state = apply(state, Clue(0, rank=2))
    state = apply(state, Discard(4))  # seat 0 throws its B4
    state = apply(state, Clue(0, colour=Suit.RED))
    cards = possible_cards(view_for(state, 0))
    assert cards[0] == cards[1] == (Card.parse("R2"),)
    assert Card.parse("R2") not in cards[2]
    assert cards[2] == tuple(map(Card.parse, ["R1", "R3", "R4", "R5"]))


def test_fireworks_and_discards_count_as_seen() -> None:
    left = unseen_copies(Variant.NONE, [Card.parse("R1"), Card.parse("R1"), Card.parse("R5")])
    assert left[Card.parse("R1").identity] == 1 and left[Card.parse("R5").identity] == 0
    assert left[Card.parse("W3").identity] == 2


def test_a_spectator_is_told_to_ask_with_a_seat() -> None:
    state = new_game(GameConfig(players=3), seed=1)
    with pytest.raises(ValueError, match="spectator"):
        possible_cards(spectator_view(state))


@pytest.mark.parametrize("variant", list(Variant), ids=lambda v: v.name)
def test_a_cards_true_identity_is_always_among_its_possibilities(variant: Variant) -> None:
    """Over random games in every deck, counting never rules out what a card really is."""
    rng = random.Random(variant.value)
    for seed in range(4):
        state = new_game(GameConfig(players=2 + seed, variant=variant), seed)
        while not state.over:
            for seat in range(state.config.players):
                cards = possible_cards(view_for(state, seat))
                for order in state.hands[seat]:
                    assert state.deck[order] in cards[order]
            state = apply(state, rng.choice(legal_actions(state)))
