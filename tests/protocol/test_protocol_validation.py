"""Bad bytes and bad fields: each is a precise ProtocolError (code, and a sentence naming the field), never a crash."""

from __future__ import annotations

import struct
from typing import Any

import msgpack
import pytest
from hanabi.engine import (
    ChatPolicy,
    Clue,
    EndReason,
    GameConfig,
    Play,
    Rearrange,
    Suit,
    TurnEvent,
    Variant,
    apply,
    new_game,
    view_for,
)
from hanabi.protocol import (
    DEFAULT_MAX_FRAME,
    LIST_MAX,
    NAME_MAX,
    PROTOCOL_VERSION,
    SEED_TEXT_MAX,
    TABLE_NAME_MAX,
    ActionRequest,
    Chat,
    Decoder,
    ErrorCode,
    ErrorReply,
    GameEvent,
    GameOver,
    Games,
    GameSummary,
    Goodbye,
    Hello,
    ListTables,
    Ping,
    ProtocolError,
    SeatInfo,
    TableChanged,
    TableInfo,
    Tables,
    ViewUpdate,
    Welcome,
    encode,
    to_wire,
    version_mismatch,
    view_to_wire,
)
from hanabi.protocol.engine_wire import MAX_EVENTS
from protocol_samples import TABLE

V = PROTOCOL_VERSION  # the version of every frame these tests build by hand


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def pack(tree: Any) -> bytes:
    return frame(msgpack.packb(tree, use_bin_type=True, datetime=False))


def hello(**fields: Any) -> dict[str, Any]:
    tree: dict[str, Any] = {"v": V, "t": "hello", "protocol": V, "program": "test", "name": "bob"}
    tree.update(fields)
    return {k: v for k, v in tree.items() if v is not DROP}


DROP = object()


def nested(depth: int) -> Any:
    tree: Any = 1
    for _ in range(depth):
        tree = [tree]
    return tree


def refused(data: bytes, *, peer: Any = None) -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        Decoder(peer=peer).feed(data)
    return info.value


@pytest.mark.parametrize(("fields", "where", "words"), [
    ({"name": DROP}, "hello.name", "missing"),
    ({"name": 7}, "hello.name", "expected a string, got an integer"),
    ({"name": "x" * 33}, "hello.name", "must be 1 to 32 characters long, not 33"),
    ({"name": ""}, "hello.name", "must be 1 to 32 characters long, not 0"),
    ({"name": " bob"}, "hello.name", "white space"),
    ({"name": "bo\x07b"}, "hello.name", "control character U+0007"),
    ({"name": "bob\n"}, "hello.name", "control character U+000A"),
    ({"name": b"bob"}, "hello.name", "got binary data"),
    ({"protocol": True}, "hello.protocol", "expected an integer, got a boolean"),
    ({"protocol": -1}, "hello.protocol", "out of range"),
    ({"protocol": 1.0}, "hello.protocol", "expected an integer, got a float"),
    ({"protocol": float("nan")}, "hello.protocol", "got a float"),
    ({"resume": "has space"}, "hello.resume", "printable ASCII"),
    ({"resume": 5}, "hello.resume", "expected a string"),
    ({"id": "one"}, "hello.id", "expected an integer"),
    ({"id": -1}, "hello.id", "out of range"),
    ({"name": msgpack.Timestamp(5)}, "hello.name", "got a timestamp"),
    ({"theme": msgpack.Timestamp(5)}, "hello.theme", "timestamps (ext type -1) are not part of this protocol"),
    ({"theme": {"deep": [1, {"x": msgpack.Timestamp(1, 2)}]}}, "hello.theme", "timestamps"),
    ({"theme": {b"k": 1}}, "hello.theme", "map keys must be strings, found binary data"),
    ({"theme": nested(20)}, "hello.theme", "nests maps and arrays more than 16 deep"),
])
def test_bad_hello_fields(fields: dict[str, Any], where: str, words: str) -> None:
    error = refused(pack(hello(**fields)))
    assert error.code == ErrorCode.BAD_FIELD == "bad_field"
    assert error.request == "hello"
    assert str(error.message).startswith(where + ":"), error.message
    assert words in error.message
    assert not error.fatal


def test_an_unknown_optional_field_is_ignored() -> None:
    assert Decoder().feed(pack(hello(theme="dark", extra={"nested": [1, "two", None]}))) == [
        Hello(PROTOCOL_VERSION, "test", "bob")
    ]


def test_absent_optional_fields_take_their_defaults() -> None:
    assert Decoder().feed(pack({"v": V, "t": "ping"})) == [Ping()]


@pytest.mark.parametrize(("body", "code", "words"), [
    (msgpack.packb([1, 2]), "bad_frame", "one msgpack map, not an array"),
    (msgpack.packb("hello"), "bad_frame", "not a string"),
    (msgpack.packb(msgpack.Timestamp(1)), "bad_frame", "not a timestamp"),
    (msgpack.packb({"v": V, "t": "ping", "n": 1}) + b"\x00", "bad_frame", "bytes after its msgpack map"),
    (msgpack.packb({"v": V, "t": "ping", "n": 1})[:-1], "bad_frame", "not valid msgpack"),
    (b"\xc1", "bad_frame", "not valid msgpack"),
    (msgpack.packb({"v": V, "t": "ping", "n": msgpack.ExtType(5, b"xx")}), "bad_frame", "found ext type 5"),
    (b"\x83\xa1v\x01\xa1t\xa4ping\xa4name\xa2\xff\xfe", "bad_frame", "ping.name: not valid UTF-8"),
    (b"\x83\xa1v\x01\xa1t\xa4ping\xa2\xff\xfe\x01", "bad_frame", "ping (a key): not valid UTF-8"),
    (b"\x83\xa1v\x01\xa1t\xa2\xff\xfe\xa1x\x01", "bad_frame", "frame.t: not valid UTF-8"),
    (msgpack.packb({1: 2}), "bad_frame", "a map key that is not a string"),
    (msgpack.packb({"v": V, "t": "ping", b"n": 1}), "bad_field", "map keys must be strings"),
    (msgpack.packb({"v": V}), "bad_frame", '"t" must be a message type string, not nil'),
    (msgpack.packb({"v": V, "t": 3}), "bad_frame", '"t" must be a message type string'),
    (msgpack.packb({"t": "ping"}), "bad_frame", '"v" must be the protocol version'),
    (msgpack.packb({"v": "1", "t": "ping"}), "bad_frame", '"v" must be the protocol version'),
    (msgpack.packb({"v": V, "t": "frobnicate"}), "unknown_type",
     f"'frobnicate' is no message of protocol {PROTOCOL_VERSION}"),
    (b"\x91" * 2000 + b"\x00", "bad_frame", "nests maps and arrays too deeply"),  # deeper than msgpack's stack
    (b"\xdd\xff\xff\xff\xff", "bad_frame", "longer than the protocol allows"),  # claims 4 billion items in 5 bytes
    (b"\xdb\x7f\xff\xff\xff", "bad_frame", "not valid msgpack"),  # a 2 GiB string in a 5-byte frame
])
def test_bad_frames(body: bytes, code: str, words: str) -> None:
    error = refused(frame(body))
    assert error.code == code
    assert words in error.message
    # The text goes back to the peer: never a Python internal (msgpack's own words, a type name).
    assert not any(w in error.message for w in ("NoneType", "strict_map_key", "Error:", "max_array_len"))


def test_an_error_quoting_a_key_of_nul_and_bad_utf8_can_be_sent_back() -> None:
    """A key holding NUL next to a string that is not UTF-8: the refusal names the field without the NUL."""
    body = b"\x83\xa1v" + bytes([V]) + b"\xa1t\xa4ping\xa3a\x00b\xa2\xff\xfe"
    error = refused(frame(body))
    assert error.code == "bad_frame" and "ping.a?b: not valid UTF-8" in error.message
    encode(ErrorReply.for_error(error))  # raises if the text could not be sent


def test_an_error_text_is_short_and_printable_whatever_it_quotes() -> None:
    error = ProtocolError("bad_field", "hello.name: " + "\u202e\u200b\x00\ud800" * 400)
    assert len(error.message) <= 500 and error.message.isprintable()


def test_an_empty_frame_is_refused() -> None:
    assert refused(b"\x00\x00\x00\x00").code == "bad_frame"


def test_a_frame_of_another_version_is_fatal_but_its_handshake_is_read() -> None:
    other = PROTOCOL_VERSION + 1
    error = refused(pack({"v": other, "t": "list_tables"}))
    assert error.code == "protocol_version" and error.fatal
    assert f"protocol {PROTOCOL_VERSION}" in error.message and f"protocol {other}" in error.message
    # hello, welcome and goodbye keep their shape in every version, so a newer hello is read and answered.
    assert Decoder().feed(pack(hello(v=other, protocol=other))) == [Hello(other, "test", "bob")]


def test_version_mismatch_names_both_versions() -> None:
    assert version_mismatch(1, 1) is None
    text = version_mismatch(1, 2, their_program="hanabi-lan 9.0")
    assert text is not None
    assert "protocol 1" in text and "protocol 2" in text and "hanabi-lan 9.0" in text and "upgrade this server" in text
    older = version_mismatch(3, 1, we_are="client")
    assert older is not None and "upgrade the server" in older


def test_a_server_decoder_refuses_server_messages() -> None:
    view = ViewUpdate(1, view_for(new_game(GameConfig(players=2), seed=1), 0))
    error = refused(encode(view), peer="client")
    assert error.code == "unknown_type" and "not one this side accepts" in error.message
    assert Decoder(peer="client").feed(encode(Chat("hi"))) == [Chat("hi")]
    assert Decoder(peer="server").feed(encode(view)) == [view]
    assert refused(encode(ListTables()), peer="server").code == "unknown_type"


def test_a_frame_claiming_4_gib_is_refused_at_once() -> None:
    decoder = Decoder()
    with pytest.raises(ProtocolError) as info:
        decoder.feed(b"\xff\xff\xff\xff")
    assert info.value.code == "frame_too_large" and info.value.fatal
    assert "4294967295" in info.value.message
    assert decoder.buffered == 0
    with pytest.raises(ProtocolError):  # the stream cannot be trusted any more
        decoder.feed(encode(Ping(1)))


def test_the_cap_is_checked_from_the_header_alone_and_is_inclusive() -> None:
    body = msgpack.packb({"v": V, "t": "chat", "text": "x" * 50})
    assert Decoder(max_frame=len(body)).feed(frame(body)) == [Chat("x" * 50)]
    decoder = Decoder(max_frame=len(body) - 1)
    with pytest.raises(ProtocolError) as info:
        decoder.feed(frame(body)[:4])  # the body has not even arrived
    assert info.value.code == "frame_too_large"


def test_encode_refuses_a_message_over_the_cap_and_bad_fields() -> None:
    with pytest.raises(ProtocolError) as info:
        encode(Chat("x" * 500), max_frame=100)
    assert info.value.code == "frame_too_large"
    with pytest.raises(ProtocolError) as info:
        encode(Hello(PROTOCOL_VERSION, "test", "x" * 40))
    assert info.value.code == "bad_field" and "hello.name" in info.value.message
    with pytest.raises(ProtocolError):
        encode(Chat("two\nlines"))
    with pytest.raises(ProtocolError):
        encode("not a message")  # type: ignore[arg-type]
    for wrong in (GameEvent(1, "R3"), ViewUpdate(1, None), TableChanged("table"), GameOver(1, None, (), "")):  # type: ignore[arg-type]
        with pytest.raises(ProtocolError) as info:
            encode(wrong)
        assert info.value.code == "bad_field" and "expected" in info.value.message


def test_after_a_bad_request_the_decoder_goes_on_and_keeps_earlier_messages() -> None:
    decoder = Decoder()
    good = encode(Ping(1))
    bad = pack(hello(name=5, id=42))
    with pytest.raises(ProtocolError) as info:
        decoder.feed(good + bad + encode(Ping(2)))
    error = info.value
    assert error.messages == [Ping(1)]
    assert (error.request, error.id, error.fatal) == ("hello", 42, False)
    assert decoder.feed(b"") == [Ping(2)]
    reply = ErrorReply.for_error(error)
    assert reply == ErrorReply("hello", "bad_field", error.message, 42)
    assert Decoder().feed(encode(reply)) == [reply]


def test_receive_and_next_message_step_through_a_stream() -> None:
    decoder = Decoder()
    decoder.receive(encode(Ping(1)) + pack({"v": V, "t": "nope", "id": 3}) + encode(Ping(2)))
    assert decoder.next_message() == Ping(1)
    with pytest.raises(ProtocolError) as info:
        decoder.next_message()
    assert (info.value.code, info.value.request, info.value.id) == ("unknown_type", "nope", 3)
    assert decoder.next_message() == Ping(2)
    assert decoder.next_message() is None


@pytest.mark.parametrize(("fields", "words"), [
    ({"kind": "clue", "target": 1, "colour": "red", "rank": 2}, "exactly one of colour or rank"),
    ({"kind": "clue", "target": 1}, "exactly one of colour or rank"),
    ({"kind": "clue", "target": 1, "colour": "purple"}, "'purple' is not a colour"),
    ({"kind": "clue", "target": 9, "rank": 2}, "action.target: 9 is out of range"),
    ({"kind": "clue", "target": 1, "rank": 6}, "action.rank: 6 is out of range"),
    ({"kind": "clue", "order": 3, "target": 1, "rank": 2}, "must be nil for a clue"),
    ({"kind": "play", "order": 3, "target": 1}, "must be nil for a play"),
    ({"kind": "play"}, "action.order: expected an integer, got nil"),
    ({"kind": "discard", "order": 60}, "out of range"),
    ({"kind": "juggle", "order": 1}, "'juggle' is not an action kind"),
    ({}, "action.kind: missing"),
])
def test_bad_actions(fields: dict[str, Any], words: str) -> None:
    error = refused(pack({"v": V, "t": "action", "id": 8, **fields}))
    assert error.code == "bad_field" and error.id == 8
    assert words in error.message


def test_actions_decode_to_engine_actions() -> None:
    assert Decoder().feed(pack({"v": V, "t": "action", "kind": "clue", "target": 2, "colour": "red"})) == [
        ActionRequest(Clue(2, colour=Suit.RED))
    ]
    assert Decoder().feed(pack({"v": V, "t": "action", "kind": "play", "order": 5})) == [ActionRequest(Play(5))]


def test_a_table_whose_players_do_not_match_its_seats_is_refused() -> None:
    tree = to_wire(ListTables())
    table = to_wire(TableChanged(TABLE))["table"]
    table["players"] = table["players"][:2]
    error = refused(pack({"v": V, "t": "table_changed", "table": table}))
    assert error.code == "bad_field" and "lists 2 players; list one per seat" in error.message
    assert tree["t"] == "list_tables"
    with pytest.raises(ValueError):
        TableInfo(**{**{f: getattr(TABLE, f) for f in TABLE.__dataclass_fields__}, "host": 4})


def _view_tree() -> dict[str, Any]:
    state = new_game(GameConfig(players=3), seed=11)
    return {"v": V, "t": "view", "game": 1, "view": view_to_wire(view_for(state, 1))}


@pytest.mark.parametrize(("change", "words"), [
    (lambda v: v.update(fireworks=[0, 0, 0]), "view.fireworks: expected an array of 5 heights"),
    (lambda v: v["hands"][0][0].__setitem__(1, "M1"), "'M1' is not a card of the No Variant deck"),
    (lambda v: v["hands"][0][0].__setitem__(1, "Q9"), "'Q9' is not a card"),
    (lambda v: v["hands"][0][0].__setitem__(0, 50), "view.hands[0][0][0] (order): 50 is out of range"),
    (lambda v: v["hands"][0][0].__setitem__(3, True), "(colours): expected an integer, got a boolean"),
    (lambda v: v["hands"][0].__setitem__(2, [1, 2]), "view.view.hands[0][2]: expected [order, card or nil"),
    (lambda v: v["hands"].pop(), "expected an array of 3 hands, got 2"),
    (lambda v: v.update(seat=3), "view.seat: 3 is out of range"),
    (lambda v: v.update(clue_tokens=9), "view.clue_tokens: 9 is out of range"),
    (lambda v: v.update(deck_size=60), "the No Variant deck has 50 cards, not 60"),
    (lambda v: v["config"].update(variant="Purple"), "'Purple' is not one of"),
    (lambda v: v["config"].update(players=7), "view.config.players: 7 is out of range"),
    (lambda v: v.update(events=[[["play", 0, 0, 1, "R1", True, 15]]]), "a play event has 8 items, not 7"),
    (lambda v: v.update(events=[[["clue", 0, 0, 4, "red", []]]]), "events[0][0][3] (target): 4 is out of range"),
    (lambda v: v.update(events=[[["clue", 0, 0, 1, "pink", []]]]), "'pink' is neither a colour nor a rank"),
    (lambda v: v.update(events=[[["dance", 0]]]), "'dance' is not an event kind"),
    (lambda v: v.update(events=[[{"kind": "play"}]]), "expected an event array"),
    (lambda v: v.update(events=[["play", 0, 0, 1, "R1", True, 15, False]]), "expected an event array"),
    (lambda v: v.update(events=[[]]), "view.view.events[0]: expected a page of events"),
    (lambda v: v.update(events=[[["clue", 0, 0, 1, 3, []]], [["clue", 1, 1, 0, 3, []]]]),
     "view.view.events[0]: expected a page of events: 64 of them in every page but the last"),
    (lambda v: v.update(outcome={"reason": "boredom"}), "'boredom' is not one of"),
    (lambda v: v.pop("turn"), "view.turn: missing"),
])
def test_bad_views(change: Any, words: str) -> None:
    tree = _view_tree()
    change(tree["view"])
    error = refused(pack(tree))
    assert error.code == "bad_field"
    assert words in error.message


def test_a_view_tolerates_unknown_fields_and_longer_arrays() -> None:
    tree = _view_tree()
    tree["view"]["theme"] = "dark"
    tree["view"]["hands"][0][0].append("a later addition")
    tree["view"]["events"] = [[["clue", 0, 0, 1, 3, [], "later"]]]
    (message,) = Decoder().feed(pack(tree))
    assert isinstance(message, ViewUpdate)
    assert message.view.events[0] == TurnEvent(0, 0, Clue(1, rank=3))


def test_the_longest_lists_of_the_largest_entries_fit_in_a_default_frame() -> None:
    """LIST_MAX is chosen so that a server never builds a "tables" or "games" reply over the cap."""
    wide = "\U0001f386"  # four bytes of UTF-8 per character: the worst case for every text limit
    seat = SeatInfo(wide * NAME_MAX, True, True)
    table = TableInfo(2**53 - 1, wide * TABLE_NAME_MAX, Variant.WILD_MULTICOLOR, True, True, ChatPolicy.BETWEEN_GAMES,
                      5, (seat,) * 5, True, True, 10_000, 4, "beginner", True, True, True)
    assert len(encode(Tables((table,) * LIST_MAX))) <= DEFAULT_MAX_FRAME
    game = GameSummary(2**53 - 1, 2**53 - 1, (wide * NAME_MAX,) * 5, Variant.SIX_SUITS, 30,
                       EndReason.ALL_OR_NOTHING_DEFEAT, 2**53 - 1, True, wide * SEED_TEXT_MAX)
    assert len(encode(Games((game,) * LIST_MAX))) <= DEFAULT_MAX_FRAME
    with pytest.raises(ProtocolError) as info:
        encode(Tables((table,) * (LIST_MAX + 1)))
    assert info.value.code == "bad_field" and f"0 to {LIST_MAX} items" in info.value.message


def test_a_view_with_too_long_a_history_is_refused_when_sent() -> None:
    state = new_game(GameConfig(players=2), seed=3)
    hand = state.hands[0]
    for i in range(MAX_EVENTS + 1):  # rearranging is not a turn, so a history can grow without end
        state = apply(state, Rearrange(0, hand if i % 2 else tuple(reversed(hand))))
    with pytest.raises(ProtocolError) as info:
        encode(ViewUpdate(1, view_for(state, 1)))
    assert info.value.code in ("bad_field", "frame_too_large")


def test_conversion_caches_never_let_a_boolean_or_float_pass_for_an_integer() -> None:
    """Python finds True == 1 == 1.0 (and hashes them alike); a view decoded before must not vouch for them."""
    tree = _view_tree()
    tree["view"]["events"] = [[["play", 0, 0, 1, "R1", True, 15, False]]]
    assert Decoder().feed(pack(tree))  # decoded once: now in the caches
    for change, words in [
        (lambda v: v["events"][0][0].__setitem__(5, 1), "(success): expected a boolean, got an integer"),
        (lambda v: v["events"][0][0].__setitem__(1, False), "(turn): expected an integer, got a boolean"),
        (lambda v: v["events"][0][0].__setitem__(3, 1.0), "(order): expected an integer, got a float"),
        (lambda v: v["hands"][0][0].__setitem__(4, False), "(ranks): expected an integer, got a boolean"),
        (lambda v: v["hands"][1][0].__setitem__(0, float(v["hands"][1][0][0])), "(order): expected an integer"),
    ]:
        bad = _view_tree()
        bad["view"]["events"] = [[["play", 0, 0, 1, "R1", True, 15, False]]]
        change(bad["view"])
        error = refused(pack(bad))
        assert words in error.message


def test_no_array_longer_than_64_and_no_map_larger_than_64() -> None:
    """msgpack allocates for a claimed length before reading the items: claims are capped, so memory is too."""
    assert "64 items" in refused(pack({"v": V, "t": "ping", "extra": list(range(65))})).message
    assert "64 entries" in refused(pack({"v": V, "t": "ping", **{f"k{i}": i for i in range(70)}})).message
    assert Decoder().feed(pack({"v": V, "t": "ping", "extra": list(range(64))})) == [Ping()]


def test_ignored_fields_have_a_budget_of_containers_per_message() -> None:
    """Walking ignored fields is Python work per map or array: one message may not make it unbounded."""
    many = [[[] for _ in range(60)] for _ in range(10)]  # 611 arrays
    error = refused(pack({"v": V, "t": "ping", "a": many}))
    assert "ignores hold more than 512 maps and arrays" in error.message
    spread = {f"f{i}": [[] for _ in range(20)] for i in range(30)}  # 630 arrays over 30 fields
    assert "more than 512" in refused(pack({"v": V, "t": "ping", **spread})).message
    assert Decoder().feed(pack({"v": V, "t": "ping", "a": many[:5]})) == [Ping()]


def test_a_newer_peers_handshake_and_goodbye_are_read_with_their_additions() -> None:
    welcome = {"v": 7, "t": "welcome", "protocol": 7, "program": "hanabi 9", "player": "bob", "resume": "t0k",
               "motd": "", "features": ["spectator-chat"]}
    goodbye = {"v": 7, "t": "goodbye", "reason": "protocol_version", "message": "upgrade", "retry_after": 30}
    assert Decoder(peer="server").feed(pack(welcome) + pack(goodbye)) == [
        Welcome(7, "hanabi 9", "bob", "t0k", ""), Goodbye("protocol_version", "upgrade")]


def test_a_name_that_is_not_utf8_is_named_and_answerable() -> None:
    body = msgpack.packb({"v": V, "t": "hello", "protocol": 1, "program": "p", "name": "XX", "id": 4})
    body = body.replace(b"\xa2XX", b"\xa2\xc3\x28")  # an invalid two-byte sequence where the name was
    error = refused(frame(body))
    assert (error.code, error.request, error.id) == ("bad_frame", "hello", 4)
    assert error.message.startswith("hello.name: not valid UTF-8")


def test_nothing_of_a_refused_frame_is_kept_by_its_error_or_the_decoder() -> None:
    """A dense frame (60 KiB of nested maps, a few MiB once decoded) refused after decoding: neither the error
    (through its traceback) nor the decoder holds any of it afterwards."""
    import gc
    import tracemalloc

    dense = msgpack.packb({"v": V, "t": "ping", "x": [[{"a": [{}] * 60}] * 60] * 12})
    assert 40_000 < len(dense) < DEFAULT_MAX_FRAME
    decoder = Decoder(peer="client")
    tracemalloc.start()
    try:
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        try:
            decoder.feed(frame(dense))
        except ProtocolError as e:
            error = e.with_traceback(None)  # as the server keeps it: the decoder's frames are not held
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert error.code == "bad_field" and decoder.buffered == 0
    assert held < 16_000, f"{held} bytes still held after the refusal"
