"""Every message type survives encode -> bytes -> Decoder, however the bytes are split."""

from __future__ import annotations

import random

import pytest
from hanabi.engine import GameConfig, Variant, apply, legal_actions, new_game, view_for
from hanabi.protocol import (
    CLIENT_TYPES,
    MESSAGE_TYPES,
    SERVER_TYPES,
    Decoder,
    Encoder,
    Message,
    ViewUpdate,
    config_from_wire,
    config_to_wire,
    encode,
    event_from_wire,
    event_to_wire,
    from_wire,
    to_wire,
    view_from_wire,
    view_to_wire,
)
from hanabi.protocol.fields import FieldError
from protocol_samples import all_messages, finished_game_messages


def test_the_samples_cover_every_message_type() -> None:
    covered = {type(m).TYPE for m in all_messages()}
    assert covered == set(MESSAGE_TYPES)
    assert set(MESSAGE_TYPES) == CLIENT_TYPES | SERVER_TYPES


@pytest.mark.parametrize("message", all_messages() + finished_game_messages(), ids=lambda m: type(m).TYPE)
def test_round_trip(message: Message) -> None:
    frame = encode(message)
    assert int.from_bytes(frame[:4], "big") == len(frame) - 4
    assert Decoder().feed(frame) == [message]
    # The plain-tree layer alone, too: what a test or a tool sees.
    assert from_wire(to_wire(message)) == message


def test_a_stream_split_at_random_points_gives_the_same_messages() -> None:
    messages = all_messages()
    stream = b"".join(encode(m) for m in messages)
    rng = random.Random(5)
    for _ in range(5):
        decoder = Decoder()
        out: list[Message] = []
        at = 0
        while at < len(stream):
            step = rng.choice([1, 2, 3, 7, 64, 1000])
            out += decoder.feed(stream[at:at + step])
            at += step
        assert out == messages
        assert decoder.buffered == 0


def test_one_byte_at_a_time() -> None:
    message = all_messages()[1]
    decoder = Decoder()
    frame = encode(message)
    for byte in frame[:-1]:
        assert decoder.feed(bytes([byte])) == []
    assert decoder.feed(frame[-1:]) == [message]


# A sweep over whole or random games: untraced (docs/developing.md); the other tests reach every branch it does.
@pytest.mark.no_cover
@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_view_of_a_random_game_round_trips(variant: Variant, players: int) -> None:
    """Views of every seat and of a spectator, at every turn, in every variant."""
    rng = random.Random(players * 10 + len(variant.value))
    state = new_game(GameConfig(players=players, variant=variant), seed=rng.randrange(10**6))
    states = [state]
    while not state.over:
        state = apply(state, rng.choice(legal_actions(state)))
        states.append(state)
    for state in states:
        for seat in [*range(players), None]:
            view = view_for(state, seat)
            assert view_from_wire(view_to_wire(view)) == view
            for event in view.events:
                assert event_from_wire(event_to_wire(event), "event", players, variant) == event
    # Through one connection per seat: every view comes out whole, though each event is sent once.
    for seat in [*range(players), None]:
        encoder, decoder = Encoder(), Decoder(peer="server")
        for state in states:
            message = ViewUpdate(9, view_for(state, seat))
            assert decoder.feed(encoder.encode(message)) == [message]


def test_a_finished_game_reveals_everything_in_the_last_view() -> None:
    messages = finished_game_messages()
    last_view = [m for m in messages if isinstance(m, ViewUpdate)][-1]
    assert last_view.view.outcome is not None
    assert all(cv.card is not None for hand in last_view.view.hands for cv in hand)


def test_hanablives_rule_options_travel_in_a_config_only_when_on() -> None:
    plain, both = GameConfig(players=2), GameConfig(players=2, end_when_no_points=True, deck_plays=True)
    assert config_to_wire(plain).keys() == {"players", "variant", "empty_clues", "all_or_nothing", "first_seat", "chat"}
    assert config_from_wire(config_to_wire(both), "config") == both
    assert config_from_wire(config_to_wire(plain), "config") == plain
    with pytest.raises(FieldError, match=r"config\.deck_plays"):
        config_from_wire({**config_to_wire(plain), "deck_plays": 1}, "config")
