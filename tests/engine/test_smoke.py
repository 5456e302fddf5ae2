"""A first check that a whole random game runs and ends."""

from __future__ import annotations

import random

from hanabi.engine import GameConfig, apply, legal_actions, new_game


def test_random_game_ends() -> None:
    state = new_game(GameConfig(players=3), seed=7)
    rng = random.Random(7)
    while not state.over:
        state = apply(state, rng.choice(legal_actions(state)))
    assert state.outcome is not None
    assert state.turn > 0
