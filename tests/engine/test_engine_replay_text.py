"""``replay.dumps`` writes its text itself (from remembered pieces) rather than through ``json.dumps``: it must be
character for character what ``json.dumps(to_json(...), indent=1)`` writes, for any game and any names."""

from __future__ import annotations

import json
import random

from hanabi.engine import GameConfig, Variant, apply, legal_actions, new_game, replay, terminate
from hanabi.engine.replay import to_json
from hypothesis import given, settings
from hypothesis import strategies as st

_names = st.text(st.characters(), min_size=1, max_size=12)


@settings(max_examples=150, deadline=None)
@given(players=st.integers(2, 5), variant=st.sampled_from(list(Variant)), empty_clues=st.booleans(),
       all_or_nothing=st.booleans(), seed=st.one_of(st.integers(0, 2**70), st.text(max_size=8)),
       turns=st.integers(0, 120), stop=st.booleans(), data=st.data())
def test_the_replay_text_is_what_json_dumps_writes(players: int, variant: Variant, empty_clues: bool,
                                                   all_or_nothing: bool, seed: int | str, turns: int, stop: bool,
                                                   data: st.DataObject) -> None:
    config = GameConfig(players=players, variant=variant, empty_clues=empty_clues, all_or_nothing=all_or_nothing)
    state = new_game(config, seed=seed)
    rng = random.Random(turns)
    while state.outcome is None and state.turn < turns:
        state = apply(state, rng.choice(legal_actions(state)))
    if stop:
        state = terminate(state)
    names = data.draw(st.none() | st.lists(_names, min_size=players, max_size=players))
    assert replay.dumps(state, names) == json.dumps(to_json(state, names), indent=1)


def test_values_that_are_not_integers_are_written_as_json_writes_them() -> None:
    """True equals 1 (as a key too): an action whose value is a bool must not be written from a 1's text."""
    state = apply(new_game(GameConfig(players=2), seed=3), legal_actions(new_game(GameConfig(players=2), seed=3))[0])
    replay.dumps(state)  # remembers the integer pieces of this game
    data = to_json(state)
    data["actions"][0] = {key: bool(value) if key == "target" else value for key, value in data["actions"][0].items()}
    data["deck"][0] = {"suitIndex": True, "rank": 1}
    assert replay._small_objects(data["actions"]) is None  # such lists are left to json.dumps
    assert replay._small_objects(data["deck"]) is None
    assert replay.dumps(state) == json.dumps(to_json(state), indent=1)
