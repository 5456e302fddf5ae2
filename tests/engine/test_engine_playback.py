"""Hands followed through public events, replayed actions, and the refusals callers tell apart.

Whoever follows a game from its events (a client's action log, a bot) uses
``opening_hands`` and ``hands_after``; they must give the engine's own hands
at every step. A game replayed from its actions is the same game.
"""

from __future__ import annotations

import random

import pytest
from hanabi.engine import (
    ActionDoesNotApply,
    Discard,
    GameConfig,
    GameEnded,
    GameState,
    IllegalAction,
    NotYourTurn,
    Play,
    Rearrange,
    Variant,
    action_of,
    apply,
    check_turn,
    hands_after,
    legal_actions,
    new_game,
    opening_hands,
    replay_actions,
    replay_steps,
)
from hypothesis import given, settings
from hypothesis import strategies as st


def _random_game(players: int, variant: Variant, seed: int) -> tuple[GameState, list[GameState]]:
    """A game to its end, random legal moves with a rearrangement now and then; the start and every state."""
    rng = random.Random(seed)
    start = state = new_game(GameConfig(players=players, variant=variant), seed=seed)
    states = []
    while not state.over:
        if rng.random() < 0.1 and len(state.hands[state.current]) > 1:
            hand = list(state.hands[state.current])
            rng.shuffle(hand)
            state = apply(state, Rearrange(state.current, tuple(hand)), seat=state.current)
        else:
            state = apply(state, rng.choice(legal_actions(state)))
        states.append(state)
    return start, states


@settings(max_examples=30)
@given(players=st.integers(2, 5), variant=st.sampled_from(list(Variant)), seed=st.integers(0, 10_000))
def test_following_the_events_gives_the_engines_hands_at_every_step(players: int, variant: Variant,
                                                                   seed: int) -> None:
    start, states = _random_game(players, variant, seed)
    hands = opening_hands(start.config)
    assert hands == start.hands
    for state in states:
        hands = hands_after(hands, state.events[-1])
        assert hands == state.hands


@settings(max_examples=30)
@given(players=st.integers(2, 5), variant=st.sampled_from(list(Variant)), seed=st.integers(0, 10_000))
def test_a_game_replayed_from_its_actions_is_the_same_game(players: int, variant: Variant, seed: int) -> None:
    start, states = _random_game(players, variant, seed)
    actions = [action_of(event) for event in states[-1].events]
    assert replay_actions(start, actions) == states[-1]
    assert list(replay_steps(start, actions)) == states
    assert replay_actions(start, []) == start


def test_an_action_that_does_not_apply_is_named_with_the_game_up_to_it() -> None:
    start = new_game(GameConfig(players=2), seed=5)
    first = legal_actions(start)[0]
    after = apply(start, first)
    stranger = Play(start.hands[start.current][0])  # the first seat's card, but the second seat is to act
    with pytest.raises(ActionDoesNotApply) as caught:
        replay_actions(start, [first, stranger])
    assert caught.value.index == 1 and caught.value.action == stranger and caught.value.state == after
    assert str(caught.value).startswith(f"action 1 ({stranger}) does not apply: card #")
    assert isinstance(caught.value, IllegalAction)


def test_not_your_turn_says_whose_turn_it_is() -> None:
    state = new_game(GameConfig(players=3, first_seat=1), seed=2)
    with pytest.raises(NotYourTurn) as caught:
        apply(state, Discard(state.hands[2][0]), seat=2)
    assert (caught.value.seat, caught.value.current) == (2, 1)
    assert str(caught.value) == "it is not your turn: seat 1 is to act"
    assert NotYourTurn.sentence("Bob") == "it is not your turn: Bob is to act"
    check_turn(1, 1)
    check_turn(1, None)
    with pytest.raises(NotYourTurn):
        check_turn(1, 0)


def test_acting_after_the_end_is_refused_with_the_outcome() -> None:
    _, states = _random_game(2, Variant.NONE, 3)
    end = states[-1]
    assert end.outcome is not None
    with pytest.raises(GameEnded) as caught:
        apply(end, Discard(0))
    assert caught.value.outcome == end.outcome and str(caught.value) == f"the game is over ({end.outcome.detail})"
    with pytest.raises(GameEnded):
        apply(end, Rearrange(0, end.hands[0]))
