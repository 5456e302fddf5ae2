"""Each action's stored form reads back as the same action."""

from __future__ import annotations

import pytest
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


# Records as the store has always written them: the files on disk hold these texts, which must read back as the
# same actions, and an action must still be written as exactly that text.
STORED = [
    ('{"k":"play","o":7}', Play(7)),
    ('{"k":"discard","o":0}', Discard(0)),
    ('{"k":"clue","t":2,"c":"multicolor"}', Clue(2, colour=Suit.MULTICOLOR)),
    ('{"k":"clue","t":0,"r":5}', Clue(0, rank=5)),
    ('{"k":"rearrange","s":1,"h":[4,2,9]}', Rearrange(1, (4, 2, 9))),
]


@pytest.mark.parametrize(("text", "action"), STORED)
def test_records_already_on_disk_read_back_and_are_written_the_same(text: str, action: Action) -> None:
    assert action_from_text(text) == action
    assert action_to_text(action) == text


@pytest.mark.parametrize(("text", "words"), [
    ('{"k":"juggle","o":1}', "'juggle' is not an action kind"),
    ('{"k":"clue","t":1}', "exactly one of colour or rank"),
    ('{"k":"play"}', "order: expected an integer, got nil"),
    ('[1, 2]', "a stored action is a JSON object"),
])
def test_a_malformed_record_is_refused_with_a_sentence(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        action_from_text(text)
