"""Each action's stored form reads back as the same action."""

from __future__ import annotations

from hanabi.engine import Action, Clue, Discard, Play, Rearrange, Suit
from hanabi.server.records import action_from_text, action_to_text
from hypothesis import given, settings
from hypothesis import strategies as st

PROFILE = settings(max_examples=300)


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
    assert action_from_text(text) == action
