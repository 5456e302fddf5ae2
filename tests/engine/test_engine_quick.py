"""``engine.quick``: the fast constructors of the engine's hot paths build exactly what the classes' own
constructors build (type, fields, equality, hash, repr, frozenness), and refuse classes they would misbuild."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

import pytest
from hanabi.engine import (
    Card,
    CardKnowledge,
    CardView,
    Clue,
    Discard,
    GameConfig,
    GameState,
    PlayerView,
    TurnEvent,
    apply,
    legal_actions,
    new_game,
    view_for,
)
from hanabi.engine.quick import quick
from hypothesis import given
from hypothesis import strategies as st


def _same_object(built: Any, expected: Any) -> None:
    assert type(built) is type(expected)
    assert built == expected and hash(built) == hash(expected) and repr(built) == repr(expected)
    for f in dataclasses.fields(expected):
        assert getattr(built, f.name) is getattr(expected, f.name)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(built, dataclasses.fields(expected)[0].name, 0)
    assert pickle.loads(pickle.dumps(built)) == expected
    assert dataclasses.replace(built) == expected


def _fields(value: Any) -> list[Any]:
    return [getattr(value, f.name) for f in dataclasses.fields(value)]


@given(st.integers(0, 2**30 - 1), st.integers(0, 63), st.integers(0, 31), st.integers(0, 63), st.integers(0, 31))
def test_quick_knowledge_is_the_knowledge_the_constructor_builds(p: int, c: int, r: int, nc: int, nr: int) -> None:
    _same_object(quick(CardKnowledge)(p, c, r, nc, nr), CardKnowledge(p, c, r, nc, nr))


@given(st.integers(0, 3), st.integers(0, 59))
def test_quick_values_of_a_game_are_the_values_the_constructors_build(seed: int, steps: int) -> None:
    state = new_game(GameConfig(players=2 + seed), seed=seed)
    for _ in range(steps):
        actions = legal_actions(state)
        if not actions:
            break
        state = apply(state, actions[(seed + state.turn) % len(actions)])
    # Every value apply and views_for build with quick constructors, against the same values built plainly.
    _same_object(quick(GameState)(*_fields(state)), GameState(*_fields(state)))
    for event in state.events:
        if isinstance(event, TurnEvent):
            _same_object(quick(TurnEvent)(*_fields(event)), TurnEvent(*_fields(event)))
    view = view_for(state, state.current)
    _same_object(quick(PlayerView)(*_fields(view)), PlayerView(*_fields(view)))
    for hand in view.hands:
        for cv in hand:
            _same_object(quick(CardView)(*_fields(cv)), CardView(*_fields(cv)))


def test_classes_a_quick_constructor_would_misbuild_are_refused() -> None:
    with pytest.raises(TypeError, match="__post_init__"):
        quick(Card)  # Card computes its identity after __init__
    with pytest.raises(TypeError, match="__post_init__"):
        quick(Clue)  # Clue checks its fields

    @dataclasses.dataclass(slots=True)
    class Mutable:
        x: int

    with pytest.raises(TypeError, match="not a frozen dataclass"):
        quick(Mutable)

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        x: int

    with pytest.raises(TypeError, match="__slots__"):
        quick(NoSlots)
    assert quick(Discard)(3) == Discard(3)
