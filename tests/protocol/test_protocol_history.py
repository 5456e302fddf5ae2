"""Views on one connection carry each event of the history once: the Encoder sends what is new, the Decoder
puts the whole history back, and a view that continues a history the connection never received is refused."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from hanabi.engine import (
    GameConfig,
    Rearrange,
    RearrangeEvent,
    apply,
    new_game,
    view_for,
)
from hanabi.protocol import (
    PROTOCOL_VERSION,
    Decoder,
    Encoder,
    ProtocolError,
    ViewUpdate,
    decode_body,
    encode,
)
from hanabi.protocol.engine_wire import MAX_EVENTS, view_to_wire

from bench.protocol import typical_states


def game_views(seat: int | None = 0, game: int = 7, turns: int = 40) -> list[ViewUpdate]:
    return [ViewUpdate(game, view_for(state, seat)) for state in typical_states(5, turns)]


def body(frame: bytes) -> dict[str, Any]:
    tree: dict[str, Any] = msgpack.unpackb(frame[4:])
    return tree


def test_a_game_through_one_connection_arrives_whole_and_each_event_is_sent_once() -> None:
    encoder, decoder = Encoder(), Decoder(peer="server")
    views = game_views()
    sizes = []
    for before, message in zip([None, *views], views, strict=False):
        frame = encoder.encode(message)
        tree = body(frame)
        held = 0 if before is None else len(before.view.events)
        assert tree["since"] == held
        assert sum(len(page) for page in tree["view"]["events"]) == len(message.view.events) - held
        assert decoder.feed(frame) == [message]  # the whole history again, as the server holds it
        sizes.append(len(frame))
    assert len(views[-1].view.events) == 40
    # Frames do not grow with the history: the last one is no bigger than the second (only hands change).
    assert sizes[-1] < len(encode(views[-1])) - 300
    assert sizes[-1] <= sizes[1] + 40


def test_a_new_connection_gets_the_whole_history_once() -> None:
    views = game_views()
    first = Encoder()
    for message in views[:20]:
        first.encode(message)
    resumed, decoder = Encoder(), Decoder()
    frame = resumed.encode(views[20])
    assert body(frame)["since"] == 0 and decoder.feed(frame) == [views[20]]
    assert body(resumed.encode(views[21]))["since"] == len(views[20].view.events)


def test_a_view_of_another_game_starts_from_the_first_event_and_replaces_the_history() -> None:
    encoder, decoder = Encoder(), Decoder()
    one, two = game_views(game=1, turns=10), game_views(game=2, turns=10)
    for message in (one[5], one[6], two[3], two[4]):
        frame = encoder.encode(message)
        assert decoder.feed(frame) == [message]
    assert body(encoder.encode(one[7]))["since"] == 0  # back to game 1: it is sent whole again


def test_a_history_that_is_shorter_than_what_was_sent_is_sent_whole() -> None:
    encoder = Encoder()
    views = game_views(turns=10)
    encoder.encode(views[8])
    assert body(encoder.encode(views[3]))["since"] == 0


def test_spectators_and_rearrangements_go_through_deltas_too() -> None:
    state = new_game(GameConfig(players=3), seed=3)
    hand = state.hands[1]
    moved = apply(state, Rearrange(1, (hand[-1], *hand[:-1])), seat=1)
    assert isinstance(moved.events[-1], RearrangeEvent)
    encoder, decoder = Encoder(), Decoder()
    for s in (state, moved):
        message = ViewUpdate(3, view_for(s, None))
        assert decoder.feed(encoder.encode(message)) == [message]


def refused(decoder: Decoder, frame: bytes) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        decoder.feed(frame)
    return caught.value


def continued_frame(views: list[ViewUpdate], upto: int) -> bytes:
    encoder = Encoder()
    for message in views[:upto]:
        encoder.encode(message)
    return encoder.encode(views[upto])


def test_a_view_that_continues_a_history_never_received_is_a_fatal_history_gap() -> None:
    views = game_views(turns=10)
    frame = continued_frame(views, 5)
    error = refused(Decoder(), frame)
    assert error.code == "history_gap" and error.fatal
    assert "continues its history from event 4" in error.message and "received no view yet" in error.message
    # Nothing is read after it: the connection is out of step and must be opened again.
    decoder = Decoder()
    refused(decoder, frame)
    assert refused(decoder, encode(views[0])).code == "history_gap"


def test_a_gap_in_the_same_game_and_a_view_of_another_game_are_named() -> None:
    views = game_views(turns=10)
    decoder = Decoder()
    decoder.feed(encode(views[2]))  # 2 events held; the frame continues from 4
    error = refused(decoder, continued_frame(views, 5))
    assert error.code == "history_gap" and "has received 2 events of it" in error.message
    decoder = Decoder()
    decoder.feed(encode(game_views(game=99, turns=10)[4]))
    error = refused(decoder, continued_frame(views, 5))
    assert error.code == "history_gap" and "the history of game 99, not 7" in error.message


def test_a_view_decoded_without_its_connection_cannot_continue_a_history() -> None:
    frame = continued_frame(game_views(turns=10), 5)
    with pytest.raises(ProtocolError) as caught:
        decode_body(frame[4:])
    assert caught.value.code == "history_gap"


def view_tree(since: object, events: object = None) -> bytes:
    view = view_to_wire(view_for(new_game(GameConfig(players=2), seed=1), 0))
    if events is not None:
        view["events"] = events
    return encode_tree({"v": PROTOCOL_VERSION, "t": "view", "game": 1, "since": since, "view": view})


def encode_tree(tree: dict[str, Any]) -> bytes:
    packed: bytes = msgpack.packb(tree)
    return len(packed).to_bytes(4, "big") + packed


@pytest.mark.parametrize(("since", "words"), [
    ("3", "view.since: expected an integer"), (-1, "view.since: -1 is out of range"),
    (MAX_EVENTS + 1, "view.since"), (True, "view.since"),
])
def test_a_bad_since_is_a_bad_field(since: object, words: str) -> None:
    error = refused(Decoder(), view_tree(since))
    assert error.code == "bad_field" and words in error.message and not error.fatal


def test_nil_or_missing_since_means_the_whole_history() -> None:
    assert len(Decoder().feed(view_tree(None))) == 1
    tree = msgpack.unpackb(view_tree(0)[4:])
    del tree["since"]
    assert len(Decoder().feed(encode_tree(tree))) == 1


def test_a_history_can_not_grow_past_the_bound_by_continuing() -> None:
    views = game_views(turns=3)
    decoder = Decoder()
    decoder.feed(encode(views[2]))  # 2 events held
    state_events = [["clue", 0, 0, 1, 1, []]] * 64
    pages = [state_events] * 64  # 4096 more: past MAX_EVENTS with the two held
    tree = body(encode(views[2]))
    tree["since"] = 2
    tree["view"]["events"] = pages
    error = refused(decoder, encode_tree(tree))
    assert error.code == "bad_field" and f"at most {MAX_EVENTS}" in error.message


def test_the_encoder_refuses_a_since_beyond_the_history() -> None:
    with pytest.raises(ProtocolError) as caught:
        encode(game_views(turns=3)[1], since=5)
    assert caught.value.code == "bad_field" and "view.since" in caught.value.message


def test_the_encoder_refuses_what_to_wire_refuses() -> None:
    view = game_views(turns=2)[1].view
    for message, words in ((ViewUpdate(-1, view), "view.game"), (ViewUpdate(1, "x"), "view.view"),  # type: ignore[arg-type]
                           (ViewUpdate(1, view, id=-3), "view.id")):
        with pytest.raises(ProtocolError) as caught:
            Encoder().encode(message)
        assert caught.value.code == "bad_field" and words in caught.value.message
