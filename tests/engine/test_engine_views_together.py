"""``views_for`` builds several seats' views at once (``view_for`` is it for one seat): each view must be what
the rules let that seat see, at every moment, whatever earlier views it reuses hands from."""

from __future__ import annotations

import random

import pytest
from hanabi.engine import (
    CardView,
    Clue,
    GameConfig,
    GameState,
    PlayerView,
    Variant,
    apply,
    legal_actions,
    new_game,
    terminate,
    view_for,
    views_for,
)


def reference_view(state: GameState, seat: int | None) -> PlayerView:
    """What RULES.md lets ``seat`` see, written out plainly card by card (the model views_for must match)."""
    over = state.outcome is not None
    hands = tuple(tuple(CardView(o, state.deck[o] if over or s != seat else None, state.knowledge[o]) for o in hand)
                  for s, hand in enumerate(state.hands))
    return PlayerView(seat, state.config, hands, state.fireworks, state.clue_tokens, state.strikes,
                      tuple((o, state.deck[o]) for o in state.discard), state.deck_left, len(state.deck),
                      state.current, state.turn, state.final_turns_left, state.outcome, state.events)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_views_built_together_equal_views_built_one_by_one(players: int) -> None:
    rng = random.Random(players)
    state = new_game(GameConfig(players=players, variant=Variant.WILD_MULTICOLOR), seed=players)
    seats: list[int | None] = [*range(players), None]
    before: list[PlayerView] = []
    while True:
        together = views_for(state, seats)
        assert together == [reference_view(state, seat) for seat in seats]
        assert together == [view_for(state, seat) for seat in seats]
        # Built again with the last move's views to take unchanged hands from: still the same views.
        again = views_for(state, seats, before)
        assert again == together
        before = again
        for seat, view in zip(seats, together, strict=True):
            if seat is not None and not state.over:
                assert all(cv.card is None for cv in view.hands[seat])  # still redacted
        if state.over:
            break
        state = apply(state, rng.choice(legal_actions(state)))
    assert views_for(terminate(new_game(GameConfig(players=2), seed=1)), [0])[0].hands[0][0].card is not None


def test_a_seat_that_does_not_exist_is_refused() -> None:
    with pytest.raises(ValueError, match="no seat 3"):
        views_for(new_game(GameConfig(players=3), seed=1), [0, 3])


def test_unchanged_hands_are_taken_from_earlier_views_and_changed_ones_are_not() -> None:
    state = new_game(GameConfig(players=4), seed=5)
    first = views_for(state, [0, 1, 2, 3, None])
    moved = apply(state, next(a for a in legal_actions(state) if isinstance(a, Clue) and a.target == 2))
    second = views_for(moved, [0, 1, 2, 3, None], first)
    assert second == [reference_view(moved, seat) for seat in [0, 1, 2, 3, None]]
    # Seat 2's hand was clued: rebuilt (its knowledge changed); seat 1's hand did not change: the same object,
    # both as others see it and as seat 1 sees it.
    assert second[0].hands[2] is not first[0].hands[2]
    assert second[0].hands[1] is first[0].hands[1] and second[1].hands[1] is first[1].hands[1]
    # A hidden hand is never taken for a shown one, nor the other way round, whatever views are offered.
    spectator_only = views_for(moved, [1], [first[4]])
    assert spectator_only[0].hands[1] == reference_view(moved, 1).hands[1]
    assert all(cv.card is None for cv in spectator_only[0].hands[1])
    over = terminate(moved)
    assert views_for(over, [1], first) == [reference_view(over, 1)]
