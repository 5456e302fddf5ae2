"""Texts the server writes by hand for speed are exactly what ``json`` writes: the replay file sent at the end
of every game (``jsontext``) and each action's stored form (``store.action_to_text``)."""

from __future__ import annotations

import json
import random
from enum import StrEnum
from typing import Any

import pytest
from hanabi.engine import (
    Action,
    Clue,
    Discard,
    GameConfig,
    Play,
    Rearrange,
    Suit,
    Variant,
    apply,
    legal_actions,
    new_game,
    replay,
    terminate,
)
from hanabi.server.jsontext import dumps_indented, replay_text
from hanabi.server.store import action_from_text, action_to_text, action_to_text_slowly
from hypothesis import given, settings
from hypothesis import strategies as st

PROFILE = settings(max_examples=300, deadline=None)

scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
                    st.text(max_size=12), st.floats(allow_nan=False))
trees = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)), max_leaves=30)


@PROFILE
@given(trees)
def test_indented_json_is_json_dumps_byte_for_byte(tree: Any) -> None:
    assert dumps_indented(tree) == json.dumps(tree, indent=1)


class Shade(StrEnum):
    DARK = "dark"


@pytest.mark.parametrize("odd", [{1: "int key"}, [Shade.DARK], {"k": Shade.DARK}, (1, [2, ()]), {"x": (True, None)},
                                 {"f": 1.5, "n": [float("inf")]}, "\u00e9\n\x00"])
def test_what_the_fast_writer_leaves_to_json_comes_out_the_same(odd: Any) -> None:
    assert dumps_indented(odd) == json.dumps(odd, indent=1)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(list(Variant)), st.integers(2, 5), st.integers(0, 10**6), st.booleans())
def test_the_replay_file_is_the_engines_text(variant: Variant, players: int, seed: int, stop_early: bool) -> None:
    state = new_game(GameConfig(players=players, variant=variant), str(seed))
    rng = random.Random(seed)
    while not state.over:
        if stop_early and rng.random() < 0.05:
            state = terminate(state, "someone left")  # a terminated game ends with hanab.live's "game over" action
            break
        state = apply(state, rng.choice(legal_actions(state)))
    names = tuple(f"Player {i} \u00e9" for i in range(players))
    assert replay_text(state, names) == replay.dumps(state, names)


actions = st.one_of(
    st.builds(Play, st.integers(0, 59)),
    st.builds(Discard, st.integers(0, 59)),
    st.builds(lambda target, suit: Clue(target, colour=suit), st.integers(0, 4), st.sampled_from(list(Suit))),
    st.builds(lambda target, rank: Clue(target, rank=rank), st.integers(0, 4), st.integers(1, 5)),
    st.builds(lambda seat, hand: Rearrange(seat, tuple(hand)), st.integers(0, 4),
              st.lists(st.integers(0, 59), min_size=1, max_size=5, unique=True)),
)


@PROFILE
@given(actions)
def test_the_stored_action_text_is_jsons_and_reads_back(action: Action) -> None:
    text = action_to_text(action)
    assert text == action_to_text_slowly(action)
    assert action_from_text(text) == action
