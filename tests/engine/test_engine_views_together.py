"""``views_for`` builds several seats' views at once: each must equal ``view_for`` of that seat, at every moment."""

from __future__ import annotations

import random

import pytest
from hanabi.engine import GameConfig, Variant, apply, legal_actions, new_game, terminate, view_for, views_for


@pytest.mark.parametrize("players", [2, 3, 5])
def test_views_built_together_equal_views_built_one_by_one(players: int) -> None:
    rng = random.Random(players)
    state = new_game(GameConfig(players=players, variant=Variant.WILD_MULTICOLOR), seed=players)
    seats: list[int | None] = [*range(players), None]
    while True:
        together = views_for(state, seats)
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
