"""``views_for`` builds several seats' views at once (``view_for`` is it for one seat): each view must be what
the rules let that seat see, at every moment."""

from __future__ import annotations

import random

import pytest
from hanabi.engine import (
    CardView,
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
    while True:
        together = views_for(state, seats)
        assert together == [reference_view(state, seat) for seat in seats]
        assert together == [view_for(state, seat) for seat in seats]
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
