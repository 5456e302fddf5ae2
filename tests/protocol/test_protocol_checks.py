"""Checks that give a clear sentence: texts with control characters, bad items of lists (named by their
path both ways), a value that is not the engine type a field carries, a request sent the wrong way, and the
messages of every move built as the frozen dataclasses they are."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hanabi.engine import Clue, GameConfig, RearrangeEvent, new_game, views_for
from hanabi.protocol import ActionRequest, Decoder, GameEvent, ProtocolError, ViewUpdate, encode
from hanabi.protocol.fields import _CONTROL, _CONTROL_MULTILINE, FieldError, ListOf, Text
from hypothesis import given, settings
from hypothesis import strategies as st

_texts = st.text(st.characters(max_codepoint=0x7F) | st.sampled_from("\t\n\r\x00\x7f\x85\u2028é✓"), max_size=300)


@settings(max_examples=200)
@given(value=_texts, multiline=st.booleans(), padding=st.integers(0, 80))
def test_a_text_is_refused_exactly_when_the_expression_finds_a_control_character(value: str, multiline: bool,
                                                                                 padding: int) -> None:
    """Long ASCII texts are checked without the regular expression (fields.Text): the same verdict, and the same
    sentence naming the first control character."""
    value = "x" * padding + value
    expression = _CONTROL_MULTILINE if multiline else _CONTROL
    found = expression.search(value)
    try:
        Text(0, 10_000, multiline=multiline).decode(value, "chat.text")
    except FieldError as error:
        assert found is not None and f"U+{ord(found.group()):04X}" in str(error)
    else:
        assert found is None


def test_a_bad_item_of_a_list_is_named_by_its_path_both_ways() -> None:
    spec = ListOf(ListOf(Text(1, 5, trimmed=True), 4), 4)
    assert spec.encode((("a", "b"), ("c",)), "t") == [["a", "b"], ["c"]]
    assert spec.decode([["a", "b"], ["c"]], "t") == (("a", "b"), ("c",))
    with pytest.raises(FieldError, match=r"^t\[1\]\[2\]: ' d' starts or ends with white space$"):
        spec.encode((("a",), ("b", "c", " d")), "t")
    with pytest.raises(FieldError, match=r"^t\[0\]\[1\]: expected a string, got an integer$"):
        spec.decode([["a", 3]], "t")


def test_an_event_that_is_no_event_is_refused_with_a_sentence() -> None:
    with pytest.raises(ProtocolError, match="expected an event"):
        encode(GameEvent(game=1, event="play"))  # type: ignore[arg-type]


def test_a_clients_request_sent_to_a_client_is_refused() -> None:
    frame = encode(ActionRequest(Clue(1, rank=2)))
    assert Decoder(peer="client").feed(frame) == [ActionRequest(Clue(1, rank=2))]
    assert Decoder().feed(frame) == [ActionRequest(Clue(1, rank=2))]
    with pytest.raises(ProtocolError) as caught:
        Decoder(peer="server").feed(frame)
    assert caught.value.code == "unknown_type"


def test_the_messages_of_every_move_are_frozen_dataclasses() -> None:
    view = views_for(new_game(GameConfig(players=2), seed=1), [0])[0]
    event = RearrangeEvent(0, (1, 2))
    cases: list[tuple[Any, tuple[Any, ...]]] = [
        (ViewUpdate(game=4, view=view), (4, view, None)), (ViewUpdate(4, view, 9), (4, view, 9)),
        (GameEvent(game=2, event=event), (2, event, None)), (GameEvent(2, event, id=1), (2, event, 1))]
    for message, values in cases:
        assert tuple(getattr(message, f.name) for f in dataclasses.fields(message)) == values
        with pytest.raises(dataclasses.FrozenInstanceError):
            message.id = 3
    with pytest.raises(TypeError):
        ViewUpdate(game=4)  # type: ignore[call-arg]
