"""A seat's past rebuilt from its view alone: exactly the views it was sent, and each card's clue history."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hanabi.engine import (
    Card,
    Clue,
    GameConfig,
    GameState,
    Play,
    Rearrange,
    Suit,
    Variant,
    apply,
    clue_history,
    game_from_deck,
    legal_actions,
    new_game,
    seat_history,
    view_for,
)


def random_game(variant: Variant, players: int, rng: random.Random, **options: bool) -> list[GameState]:
    """Every state of a random game (now and then a hand rearranged), the deal first."""
    state = new_game(GameConfig(players=players, variant=variant, **options), rng.randrange(10_000))  # type: ignore[arg-type]
    states = [state]
    while not state.over and len(states) < 200:
        if rng.random() < 0.1:
            seat = rng.randrange(players)
            hand = list(state.hands[seat])
            rng.shuffle(hand)
            state = apply(state, Rearrange(seat, tuple(hand)), seat=seat)
        else:
            # Few plays, or three strikes end the game within a few turns: most games should reach the deck's end.
            actions = legal_actions(state)
            calm = [a for a in actions if not isinstance(a, Play)]
            state = apply(state, rng.choice(calm if calm and rng.random() < 0.85 else actions))
        states.append(state)
    return states


# A sweep over whole or random games: untraced (docs/developing.md); the other tests reach every branch it does.
@pytest.mark.no_cover
@pytest.mark.parametrize("variant", list(Variant), ids=lambda v: v.name)
def test_the_rebuilt_past_is_exactly_what_each_seat_was_sent(variant: Variant) -> None:
    rng = random.Random(variant.value)
    for players in range(2, 6):
        options = {name: rng.random() < 0.5
                   for name in ("empty_clues", "end_when_no_points", "deck_plays", "all_or_nothing")}
        states = random_game(variant, players, rng, **options)
        for cut in (len(states) // 3, len(states)):  # in the middle of the game, and at its end
            for seat in [*range(players), None]:
                history = seat_history(view_for(states[cut - 1], seat))
                assert len(history) == cut
                for step, view in enumerate(history):
                    assert view == view_for(states[step], seat), (players, cut, seat, step)


def test_own_cards_stay_hidden_in_every_past_view() -> None:
    states = random_game(Variant.NONE, 3, random.Random(5))
    final = view_for(states[-1], 1)
    assert final.over  # at the end every card shows ...
    for view in seat_history(final)[:-1]:  # ... but not in the past, where the game still ran
        assert all(cv.card is None for cv in view.hands[1])


def test_a_view_that_no_deck_can_explain_is_refused() -> None:
    view = view_for(new_game(GameConfig(players=2), 3), 0)
    r1 = Card(Suit.RED, 1)
    five_r1s = tuple(replace(cv, card=r1) for cv in view.hands[1])  # the deck holds three
    with pytest.raises(ValueError, match="more copies"):
        seat_history(replace(view, hands=(view.hands[0], five_r1s)))


def test_clue_history_lists_the_clues_that_touched_a_card_and_passed_it_by() -> None:
    deck = Variant.NONE.deck()
    top = [Card.parse(n) for n in ["R3", "Y1", "Y2", "Y3", "B2", "G1", "G2", "G3", "G4", "W1"]]
    for card in top:
        deck.remove(card)
    state = game_from_deck(GameConfig(players=2, first_seat=1), top + deck)
    state = apply(state, Clue(0, colour=Suit.RED))  # touches R3 (order 0) only
    state = apply(state, Clue(1, rank=1))  # to the other seat: not about order 0
    state = apply(state, Clue(0, rank=2))  # passes R3 by
    history = clue_history(view_for(state, 0), 0)
    assert [(h.clue.value, h.touched) for h in history] == [("red", True), ("2", False)]
    assert [h.event.turn for h in history] == [0, 2]
    assert clue_history(view_for(state, 0), 9) == [h for h in clue_history(view_for(state, 1), 9)]
