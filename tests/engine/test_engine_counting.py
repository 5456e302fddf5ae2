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
    new_game,
    possible_cards,
    spectator_view,
    unseen_copies,
    view_for,
    views_for,
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
def test_a_cards_true_identity_is_always_among_its_possibilities(variant: Variant, kit) -> None:
    """Over random games in every deck, counting never rules out what a card really is."""
    rng = random.Random(variant.value)
    for seed in range(4):
        for state in kit.random_states(GameConfig(players=2 + seed, variant=variant), seed, rng):
            for seat in range(state.config.players):
                cards = possible_cards(view_for(state, seat))
                for order in state.hands[seat]:
                    assert state.deck[order] in cards[order]


def test_another_seat_is_counted_only_from_the_cards_both_seats_see() -> None:
    # Seat 0 holds R3 (order 0) and a G4; seat 1 holds both R4s; seat 2 holds G4 too.
    state = game_from_deck(GameConfig(players=3, first_seat=1),
                           deal("R3 Y1 Y2 Y3 G4  R4 R4 G1 G2 G3  B1 B2 B3 G4 W1", players=3))
    state = apply(state, Clue(0, colour=Suit.RED))
    for viewer in (1, 2, None):  # seat 0's red card, as another seat or a spectator works it out
        cards = possible_cards(view_for(state, viewer), seat=0)
        assert Card.parse("R3") in cards[0]
        if viewer == 1:
            assert Card.parse("R4") in cards[0]  # seat 1 cannot see its own R4s, so it cannot rule them out
        else:
            assert Card.parse("R4") not in cards[0]  # seat 0 sees both R4s in seat 1's hand
    # Seat 0's own G4 (order 4) is not counted against it: seat 0 cannot see it, so the other G4 seen
    # (in seat 2's hand) still leaves one unseen.
    assert Card.parse("G4") in possible_cards(view_for(state, 1), seat=0)[4]


# Every state of random games, every viewer and seat: untraced by coverage (docs/developing.md), the focused tests
# above reach its lines.
@pytest.mark.no_cover
@pytest.mark.parametrize("variant", list(Variant), ids=lambda v: v.name)
def test_counting_for_another_seat_never_rules_out_more_than_that_seat_does(variant: Variant, kit) -> None:
    rng = random.Random(variant.value + "others")
    for seed in range(3):
        for state in kit.random_states(GameConfig(players=3 + seed % 3, variant=variant), seed, rng, calm=0.7):
            # Every seat's and the spectator's view built together, as the server builds them; what each seat
            # works out for itself, once per state (it does not depend on who else looks).
            viewers: list[int | None] = [*range(state.players), None]
            views = views_for(state, viewers)
            own = [possible_cards(view) for view in views[:-1]]
            for viewer, view in zip(viewers, views, strict=True):
                for seat in range(state.players):
                    if seat == viewer:
                        continue
                    theirs = own[seat]
                    ours = possible_cards(view, seat=seat)
                    for order, cards in theirs.items():
                        assert set(cards) <= set(ours[order])
                        assert state.deck[order] in ours[order]
                        if viewer is None:
                            assert ours[order] == cards  # a spectator counts exactly


def test_counting_for_a_seat_that_is_not_there_is_refused() -> None:
    with pytest.raises(ValueError, match="no seat 4"):
        possible_cards(view_for(new_game(GameConfig(players=3), 1), 0), seat=3)
