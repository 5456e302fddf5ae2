"""An action's one encoding (``action_fields``): every action reads back from its fields, and fields that make no
action are refused naming the field and what is wrong."""

from __future__ import annotations

import pytest
from hanabi.engine import MAX_PLAYERS, Action, Clue, Discard, Play, Rearrange, Suit
from hanabi.engine.action_fields import (
    ALL_KINDS,
    MAX_ORDER,
    ActionFieldError,
    action_fields,
    action_from_fields,
    turn_action_from_fields,
)
from hypothesis import given
from hypothesis import strategies as st

actions = st.one_of(
    st.builds(Play, st.integers(0, MAX_ORDER)),
    st.builds(Discard, st.integers(0, MAX_ORDER)),
    st.builds(lambda target, suit: Clue(target, colour=suit), st.integers(0, MAX_PLAYERS - 1),
              st.sampled_from(list(Suit))),
    st.builds(lambda target, rank: Clue(target, rank=rank), st.integers(0, MAX_PLAYERS - 1), st.integers(1, 5)),
    st.builds(lambda seat, hand: Rearrange(seat, tuple(hand)), st.integers(0, MAX_PLAYERS - 1),
              st.lists(st.integers(0, MAX_ORDER), min_size=1, max_size=5, unique=True)),
)


@given(actions)
def test_every_action_reads_back_from_its_fields(action: Action) -> None:
    fields = action_fields(action)
    assert action_from_fields(fields, ALL_KINDS) == action
    if not isinstance(action, Rearrange):
        assert list(fields) == ["kind", "order", "target", "colour", "rank"]  # the wire's order
        assert turn_action_from_fields(fields) == action


@pytest.mark.parametrize(("fields", "field", "words"), [
    ({"kind": "rearrange", "seat": 0, "hand": [1]}, "kind", "'rearrange' is not an action kind: use \"play\", "
                                                           "\"discard\" or \"clue\""),
    ({"order": 1}, "kind", "missing"),
    ({"kind": 3}, "kind", "an integer is not an action kind"),
    ({"kind": "play", "order": True}, "order", "expected an integer, got a boolean"),
    ({"kind": "discard", "order": 3, "rank": 2}, "rank", "must be nil for a discard"),
    ({"kind": "clue", "target": 1, "colour": 4}, "colour", "an integer is not a colour"),
    ({"kind": "clue", "target": MAX_PLAYERS, "rank": 1}, "target", f"{MAX_PLAYERS} is out of range"),
])
def test_fields_that_make_no_turn_are_refused_by_field(fields: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(ActionFieldError) as refused:
        turn_action_from_fields(fields)
    assert refused.value.field == field and words in refused.value.problem


@pytest.mark.parametrize(("fields", "words"), [
    ({"kind": "rearrange", "seat": 0, "hand": "1,2"}, "hand: expected an array of card orders, got a string"),
    ({"kind": "rearrange", "seat": 0, "hand": list(range(6))}, "hand: 6 cards: a hand holds at most 5"),
    ({"kind": "rearrange", "seat": 0, "hand": [1, MAX_ORDER + 1]}, f"hand: {MAX_ORDER + 1} is out of range"),
    ({"kind": "rearrange", "seat": 0, "hand": [1], "order": 2}, "order: must be nil for a rearrange"),
])
def test_a_rearrangement_is_checked_too(fields: dict[str, object], words: str) -> None:
    with pytest.raises(ActionFieldError, match=words.replace("(", r"\(")):
        action_from_fields(fields, ALL_KINDS)


def test_what_is_not_an_action_has_no_fields() -> None:
    with pytest.raises(ActionFieldError, match="is not an action"):
        action_fields("play")  # type: ignore[arg-type]
