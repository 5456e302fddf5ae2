"""What if: a finished game played on from one of its steps, through the same ``apply``."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hanabi.engine import (
    MOVES_MAX,
    Clue,
    GameConfig,
    GameEnded,
    GameState,
    IllegalAction,
    Play,
    Rearrange,
    apply,
    game_at,
    legal_actions,
    new_game,
    played,
    taken_back,
    terminate,
    what_if,
    what_if_view,
)
from hypothesis import given, settings
from hypothesis import strategies as st


def finished(seed: int, players: int = 3, turns: int = 12) -> GameState:
    """A game of ``turns`` clues and discards (the last legal action each turn), rearranging once, then stopped."""
    state = new_game(GameConfig(players=players), seed)
    for turn in range(turns):
        if turn == 2:
            hand = state.hands[1]
            state = apply(state, Rearrange(1, hand[::-1]), seat=1)
        state = apply(state, legal_actions(state)[-1])
    return terminate(state, "stopped for the test")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), step=st.integers(0, 12))
def test_the_game_at_a_step_is_the_game_after_that_many_turns_as_its_file_holds_them(seed: int, step: int) -> None:
    final = finished(seed)
    at = game_at(final, step)
    assert at.turn == step and at.deck == final.deck and not at.over
    # Played on from there with the game's own next turn, it is the game's next step.
    turns = [e.action for e in final.events if hasattr(e, "action") and not isinstance(e.action, Rearrange)]
    if step < len(turns):
        assert game_at(final, step + 1).fireworks == apply(at, turns[step]).fireworks


def test_moves_go_through_apply_and_cards_drawn_since_stay_unknown_until_revealed() -> None:
    final = finished(7)
    what = what_if(final, 4)
    current = what.state.current
    first = what.state.hands[current][0]
    what = played(what, Play(first))
    drawn = len(what.base.deck) - what.base.deck_left
    assert what.drawn_since == {drawn} and what.moves == (Play(first),)
    view = what_if_view(what)
    new_card = next(cv for hand in view.hands for cv in hand if cv.order == drawn)
    assert new_card.card is None
    assert all(cv.card is not None for hand in view.hands for cv in hand if cv.order != drawn)
    shown = what_if_view(replace(what, revealed=True))
    assert next(cv for hand in shown.hands for cv in hand if cv.order == drawn).card == final.deck[drawn]
    assert taken_back(what).moves == () and taken_back(what).state == what.base


def test_an_illegal_move_is_refused_with_the_engines_reason_and_a_what_if_has_a_length() -> None:
    final = finished(3)
    what = what_if(final, 1)
    other = (what.state.current + 1) % what.state.players
    with pytest.raises(IllegalAction, match="hand"):
        played(what, Play(what.state.hands[other][0]))
    with pytest.raises(IllegalAction):
        played(what, Clue(what.state.current, rank=1))  # no clue to oneself
    with pytest.raises(GameEnded):  # the last step of a stopped game is its end: nothing more is played
        played(what_if(final, 13), legal_actions(game_at(final, 12))[0])
    with pytest.raises(IllegalAction, match="no step 14"):
        game_at(final, 14)
    full = replace(what, moves=(legal_actions(what.state)[-1],) * MOVES_MAX)  # as long as a what if gets
    with pytest.raises(IllegalAction, match=f"at most {MOVES_MAX}"):
        played(full, legal_actions(full.state)[-1])
