"""The fast paths of the protocol give exactly what the general paths give.

An ``event`` body packed from its parts (``viewpack.pack_event_body``) against packing ``to_wire``; a
well-formed ``action`` request read in one go (``messages._plain_action``) against the general field-by-field
reading, whatever the tree, and read again from the same bytes (``framing._ACTIONS``); and ``view`` bodies
packed from a ``PackMemo`` shared by the seats of a moment, against packing each whole map, for random seats,
connections that join mid-game, request ids and game ids of every size; and long texts checked without the
regular expression.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import msgpack
import pytest
from hanabi.engine import (
    Clue,
    Discard,
    GameConfig,
    Play,
    PlayerView,
    RearrangeEvent,
    Suit,
    TurnEvent,
    Variant,
    apply,
    legal_actions,
    new_game,
    views_for,
)
from hanabi.protocol import (
    ActionRequest,
    Decoder,
    Encoder,
    GameEvent,
    PackMemo,
    ProtocolError,
    ViewUpdate,
    encode,
    framing,
    from_wire,
    to_wire,
)
from hanabi.protocol import messages as messages_module
from hanabi.protocol.fields import _CONTROL, _CONTROL_MULTILINE, FieldError, ListOf, Text
from hanabi.protocol.messages import CLIENT_TYPES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_packer = msgpack.Packer(use_bin_type=True, datetime=False, strict_types=False)


def _general_frame(message: Any) -> bytes:
    body = _packer.pack(to_wire(message))
    return len(body).to_bytes(4, "big") + body


# -- event -----------------------------------------------------------------------------------------

_actions = st.one_of(st.builds(Play, st.integers(0, 59)), st.builds(Discard, st.integers(0, 59)),
                     st.builds(Clue, st.integers(0, 4), colour=st.sampled_from(list(Suit))),
                     st.builds(Clue, st.integers(0, 4), rank=st.integers(1, 5)))
_events = st.one_of(
    st.builds(TurnEvent, st.integers(0, 10_000), st.integers(0, 4), _actions, st.none(), st.booleans(),
              st.lists(st.integers(0, 59), max_size=5).map(tuple), st.none() | st.integers(0, 59), st.booleans()),
    st.builds(RearrangeEvent, st.integers(0, 4), st.lists(st.integers(0, 59), max_size=5).map(tuple)),
)


@FAST
@given(game=st.integers(0, 2**53 - 1) | st.integers(-5, -1) | st.integers(2**53, 2**64),
       event=_events, request_id=st.none() | st.integers(-3, 2**60))
def test_an_event_frame_is_the_frame_to_wire_gives(game: int, event: Any, request_id: int | None) -> None:
    if isinstance(event, TurnEvent) and not isinstance(event.action, Clue):
        event = TurnEvent(event.turn, event.seat, event.action, new_game(GameConfig(), seed=1).deck[3],
                          event.success, (), event.drawn, event.clue_gained)
    message = GameEvent(game=game, event=event, id=request_id)
    try:
        general = _general_frame(message)
    except ProtocolError as error:
        with pytest.raises(ProtocolError) as caught:
            encode(message)
        assert (caught.value.code, caught.value.message) == (error.code, error.message)
        return
    assert encode(message) == general


def test_an_event_that_is_no_event_gets_the_general_error() -> None:
    with pytest.raises(ProtocolError, match="expected an event"):
        encode(GameEvent(game=1, event="play"))  # type: ignore[arg-type]


# -- action ----------------------------------------------------------------------------------------

_values = (st.none() | st.booleans() | st.integers(-3, 70) | st.floats(allow_nan=False) | st.text(max_size=8)
           | st.sampled_from(["play", "discard", "clue", "red", "multicolor", "pink", b"play"]))
_keys = st.sampled_from(["v", "t", "kind", "order", "target", "colour", "rank", "id", "extra"])


def _read(tree: Any, accept: Any) -> Any:
    try:
        return from_wire(tree, accept)
    except ProtocolError as error:
        return ("error", error.code, error.message, error.request, error.id, error.fatal)


@FAST
@given(base=st.sampled_from([ActionRequest(Play(3)), ActionRequest(Discard(59), 7),
                             ActionRequest(Clue(2, colour=Suit.GREEN)), ActionRequest(Clue(0, rank=5), 2**53 - 1)]),
       changes=st.dictionaries(_keys, _values, max_size=3), drop=st.sets(_keys, max_size=2),
       accept=st.sampled_from([None, frozenset(CLIENT_TYPES), frozenset({"hello"})]))
def test_an_action_request_reads_as_the_general_path_reads_it(base: ActionRequest, changes: dict[str, Any],
                                                               drop: set[str], accept: Any) -> None:
    tree = to_wire(base)
    tree.update(changes)
    for key in drop:
        tree.pop(key, None)
    fast = _read(tree, accept)
    plain = messages_module._plain_action
    try:
        messages_module._plain_action = lambda tree: None  # type: ignore[assignment]
        general = _read(tree, accept)
    finally:
        messages_module._plain_action = plain
    assert fast == general
    if not changes and not drop and (accept is None or "action" in accept):
        assert fast == base


# -- view ------------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5), variant=st.sampled_from(list(Variant)),
       game=st.sampled_from([0, 5, 127, 128, 70_000, 2**40]), data=st.data())
def test_views_packed_through_a_shared_memo_are_the_bytes_of_each_whole_map(seed: int, players: int,
                                                                            variant: Variant, game: int,
                                                                            data: st.DataObject) -> None:
    rng = random.Random(seed)
    state = new_game(GameConfig(players=players, variant=variant), seed=seed)
    seats: list[int | None] = data.draw(st.lists(st.sampled_from([*range(players), None]), min_size=1, max_size=6))
    encoders = [Encoder() for _ in seats]
    sent = [0 for _ in seats]
    memo: PackMemo | None = None
    views: list[PlayerView] = []
    while True:
        memo = None if rng.random() < 0.1 else PackMemo(memo)
        views = views_for(state, seats, views if rng.random() < 0.9 else [])
        for i, view in enumerate(views):
            if rng.random() < 0.05:  # a connection that joins now: it gets the whole history
                encoders[i], sent[i] = Encoder(), 0
            request_id = None if rng.random() < 0.8 else rng.choice([0, 1, 200, 2**53 - 1])
            frame = encoders[i].encode(ViewUpdate(game, view, id=request_id), memo)
            assert frame == encode(ViewUpdate(game, view, id=request_id), since=sent[i])
            sent[i] = len(view.events)
        if state.over:
            break
        actions = legal_actions(state)
        safe = [a for a in actions if not isinstance(a, Play)] or actions
        state = apply(state, rng.choice(safe if rng.random() < 0.8 else actions))


def test_an_action_read_again_from_the_same_bytes_is_the_same_message_and_refused_where_it_was() -> None:
    """Requests read before are looked up by their bytes (framing._ACTIONS): the same message, the same refusals,
    and a bounded cache whatever a peer sends."""
    frame = encode(ActionRequest(Clue(1, rank=2)))
    assert Decoder(peer="client").feed(frame) == [ActionRequest(Clue(1, rank=2))]
    assert Decoder(peer="client").feed(frame) == [ActionRequest(Clue(1, rank=2))]  # from the cache
    assert Decoder().feed(frame) == [ActionRequest(Clue(1, rank=2))]
    with pytest.raises(ProtocolError) as caught:
        Decoder(peer="server").feed(frame)  # a client's request, sent to a client
    assert caught.value.code == "unknown_type"
    decoder = Decoder(peer="client")
    for request_id in range(framing._ACTIONS_CAP + 10):
        assert decoder.feed(encode(ActionRequest(Play(4), request_id))) == [ActionRequest(Play(4), request_id)]
    assert len(framing._ACTIONS) <= framing._ACTIONS_CAP


def test_a_view_of_odd_values_packs_as_the_whole_map_packs() -> None:
    """Nothing the engine builds, but a PlayerView may hold it: bools where integers go (msgpack packs them as
    bools), orders past any deck; the parts must still be the bytes of the whole map."""
    state = new_game(GameConfig(players=3), seed=2)
    for _ in range(6):
        state = apply(state, next(a for a in legal_actions(state) if isinstance(a, Discard | Clue)))
    view = views_for(state, [1])[0]
    card = state.deck[0]
    odd = dataclasses.replace(view, seat=True, clue_tokens=True, strikes=False, turn=300, deck_left=2**40,
                              final_turns_left=0, discard=((True, card), (70, card), (-1, card), *view.discard))
    for since in (0, 3):
        assert Encoder().encode(ViewUpdate(1, odd), PackMemo()) == encode(ViewUpdate(1, odd))
        assert PackMemo().pack_view(1, odd, since, None) == encode(ViewUpdate(1, odd), since=since)[4:]


# -- texts -----------------------------------------------------------------------------------------

_texts = st.text(st.characters(max_codepoint=0x7F) | st.sampled_from("\t\n\r\x00\x7f\x85\u2028é✓"), max_size=300)


@FAST
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
    """Lists check their items without building each item's path (fields.ListOf); a bad one is still named."""
    spec = ListOf(ListOf(Text(1, 5, trimmed=True), 4), 4)
    assert spec.encode((("a", "b"), ("c",)), "t") == [["a", "b"], ["c"]]
    assert spec.decode([["a", "b"], ["c"]], "t") == (("a", "b"), ("c",))
    with pytest.raises(FieldError, match=r"^t\[1\]\[2\]: ' d' starts or ends with white space$"):
        spec.encode((("a",), ("b", "c", " d")), "t")
    with pytest.raises(FieldError, match=r"^t\[0\]\[1\]: expected a string, got an integer$"):
        spec.decode([["a", 3]], "t")


def test_the_messages_of_every_move_construct_as_frozen_dataclasses_do() -> None:
    """ViewUpdate and GameEvent set their slots in their own __init__: the same fields, defaults and frozenness."""
    view = views_for(new_game(GameConfig(players=2), seed=1), [0])[0]
    event = RearrangeEvent(0, (1, 2))
    cases: list[tuple[Any, tuple[Any, ...]]] = [
        (ViewUpdate(game=4, view=view), (4, view, None)), (ViewUpdate(4, view, 9), (4, view, 9)),
        (GameEvent(game=2, event=event), (2, event, None)), (GameEvent(2, event, id=1), (2, event, 1))]
    for message, values in cases:
        assert tuple(getattr(message, f.name) for f in dataclasses.fields(message)) == values
        assert dataclasses.replace(message) == message and hash(dataclasses.replace(message)) == hash(message)
        with pytest.raises(dataclasses.FrozenInstanceError):
            message.id = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        ViewUpdate(game=4)  # type: ignore[call-arg]
