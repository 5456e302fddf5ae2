"""What docs/protocol.md says the server does, checked against the real server over loopback TCP.

Written as a client written from the document would talk: plain msgpack and
4-byte length prefixes, no use of ``hanabi.protocol``, so that the frames
seen are exactly what a stranger's client would see.
"""

from __future__ import annotations

import struct
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest
import trio
from hanabi.protocol import PROTOCOL_VERSION
from hanabi.server import serve

DOC = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()


def frame(message: dict[str, Any]) -> bytes:
    body = msgpack.packb(message)
    return struct.pack(">I", len(body)) + body


def hello(name: str, protocol: int = PROTOCOL_VERSION, resume: str | None = None, v: int = PROTOCOL_VERSION) -> bytes:
    return frame({"v": v, "t": "hello", "protocol": protocol, "program": "doc-reader 1", "name": name,
                  "resume": resume})


class Peer:
    """One raw connection: send bytes, read whole frames as plain dicts."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buffer = b""
        self.closed = False

    async def send(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def next(self) -> dict[str, Any]:
        with trio.fail_after(5):
            while len(self.buffer) < 4 or len(self.buffer) < 4 + struct.unpack(">I", self.buffer[:4])[0]:
                data = await self.stream.receive_some()
                if not data:
                    raise EOFError("the server closed the connection")
                self.buffer += data
        size = struct.unpack(">I", self.buffer[:4])[0]
        body, self.buffer = self.buffer[4:4 + size], self.buffer[4 + size:]
        message: dict[str, Any] = msgpack.unpackb(body)
        return message

    async def until(self, kind: str) -> list[dict[str, Any]]:
        """Frames up to and including the first of type ``kind``."""
        seen = [await self.next()]
        while seen[-1]["t"] != kind:
            seen.append(await self.next())
        return seen

    async def until_any(self, kinds: set[str]) -> list[dict[str, Any]]:
        """Frames up to and including the first of a type in ``kinds``."""
        seen = [await self.next()]
        while seen[-1]["t"] not in kinds:
            seen.append(await self.next())
        return seen

    async def closes(self) -> bool:
        with trio.fail_after(5):
            while True:
                try:
                    data = await self.stream.receive_some()
                except trio.BrokenResourceError:
                    return True
                if not data:
                    return True


Connect = Callable[[], Awaitable[Peer]]


@pytest.fixture
async def connect(nursery: trio.Nursery) -> Connect:
    server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, ":memory:", task_status=task_status))

    async def open_peer() -> Peer:
        return Peer(await trio.open_tcp_stream("127.0.0.1", server.port))

    return open_peer


def test_the_document_is_of_the_version_the_code_speaks() -> None:
    assert f"# The hanabi wire protocol, version {PROTOCOL_VERSION}\n" in DOC
    assert f"This document is version **{PROTOCOL_VERSION}**." in DOC
    assert f"| `protocol` | int | 0..65535; send {PROTOCOL_VERSION}, this document's version" in DOC


async def test_a_frame_of_another_version_gets_goodbye_protocol_version_and_a_close(connect: Connect) -> None:
    assert "sends `goodbye` with reason\n`protocol_version`" in DOC
    for before_hello in (True, False):
        peer = await connect()
        if not before_hello:
            await peer.send(hello("alice"))
            await peer.until("welcome")
        await peer.send(frame({"v": PROTOCOL_VERSION - 1, "t": "list_tables"}))
        goodbye = await peer.next()
        assert (goodbye["t"], goodbye["reason"]) == ("goodbye", "protocol_version")
        assert await peer.closes()


async def test_hello_of_an_older_protocol_gets_goodbye_protocol_version(connect: Connect) -> None:
    peer = await connect()
    await peer.send(hello("old", protocol=PROTOCOL_VERSION - 1, v=PROTOCOL_VERSION - 1))
    goodbye = await peer.next()
    assert (goodbye["t"], goodbye["reason"]) == ("goodbye", "protocol_version")


async def test_an_oversized_frame_gets_goodbye_protocol_error_naming_frame_too_large(connect: Connect) -> None:
    assert "ends the connection with `goodbye` reason `protocol_error`, whose message starts `frame_too_large:`" in DOC
    peer = await connect()
    await peer.send(hello("bob"))
    await peer.until("welcome")
    await peer.send(struct.pack(">I", 65_537) + b"x" * 64)
    goodbye = await peer.next()
    assert (goodbye["t"], goodbye["reason"]) == ("goodbye", "protocol_error")
    assert goodbye["message"].startswith("frame_too_large:")
    assert await peer.closes()


async def test_every_server_frame_has_an_id_nil_unless_it_answers_one(connect: Connect) -> None:
    assert "Every frame the reference\nserver sends has the `id` key" in DOC
    peer = await connect()
    await peer.send(hello("carol"))
    seen = await peer.until("welcome")
    await peer.send(frame({"v": PROTOCOL_VERSION, "t": "create_table", "name": "t", "variant": "No Variant",
                           "seats": 2, "id": 8}))
    seen += await peer.until("joined")
    await peer.send(frame({"v": PROTOCOL_VERSION, "t": "add_bot", "seat": 1}))
    await peer.send(frame({"v": PROTOCOL_VERSION, "t": "start"}))
    seen += await peer.until("game_started")
    assert all("id" in m for m in seen), seen
    assert [m["id"] for m in seen if m["t"] == "joined"] == [8]
    assert all(m["id"] is None for m in seen if m["t"] != "joined")


async def test_a_resume_gives_back_the_same_token(connect: Connect) -> None:
    assert "when a resume\n   succeeds, the same token comes back" in DOC
    first = await connect()
    await first.send(hello("dave"))
    token = (await first.until("welcome"))[-1]["resume"]
    again = await connect()
    await again.send(hello("dave", resume=token))
    assert (await again.until("welcome"))[-1]["resume"] == token


def req(t: str, **fields: Any) -> bytes:
    return frame({"v": PROTOCOL_VERSION, "t": t, **fields})


async def logged_in(connect: Connect, name: str) -> Peer:
    peer = await connect()
    await peer.send(hello(name))
    await peer.until("welcome")
    return peer


def kinds(frames: list[dict[str, Any]]) -> list[str]:
    """The types of ``frames``, without those that may come between any two (pings, the table's news)."""
    return [f["t"] for f in frames if f["t"] not in ("ping", "table_changed", "seat_status")]


async def test_the_envelope_s_version_is_3_and_a_hello_for_protocol_2_is_not_welcomed(connect: Connect) -> None:
    assert "| `v`  | int  | the protocol version of this frame: `3` |" in DOC
    assert "sends `hello` with `protocol: 3`" in DOC and "send `hello` (`protocol` 3)" in DOC
    assert "a `hello` asking for `protocol` 2 gets\n`goodbye` `protocol_version` whatever the frame's `v`" in DOC
    peer = await connect()
    await peer.send(hello("old", protocol=PROTOCOL_VERSION - 1, v=PROTOCOL_VERSION))
    goodbye = await peer.next()
    assert (goodbye["t"], goodbye["reason"]) == ("goodbye", "protocol_version")


async def test_the_replies_that_carry_the_request_id_are_those_the_document_lists(connect: Connect) -> None:
    assert "`online` (`list_online`)" in DOC and "`notes` (`write_note`)" in DOC and "not `queued`" in DOC
    alice = await logged_in(connect, "alice")
    await alice.send(req("list_online", id=31))
    assert (await alice.until("online"))[-1]["id"] == 31
    await alice.send(req("create_table", name="ids", seats=3, id=32))
    assert (await alice.until("joined"))[-1]["id"] == 32
    await alice.send(req("add_bot", seat=1))
    await alice.send(req("add_bot", seat=2))
    await alice.send(req("start"))
    view = (await alice.until("view"))[-1]["view"]
    await alice.send(req("write_note", order=view["hands"][1][0][0], text="f", id=33))
    assert (await alice.until("notes"))[-1]["id"] == 33
    while True:  # on her own turn a pre-move is refused: she clues a bot, and queues for her next turn
        if view["current"] == 0:
            await alice.send(req("action", kind="clue", target=1, rank=int(view["hands"][1][0][1][1])))
            view = (await alice.until("view"))[-1]["view"]
        await alice.send(req("premove", kind="discard", order=view["hands"][0][0][0], id=34))
        answer = (await alice.until_any({"queued", "error"}))[-1]
        if answer["t"] == "queued":
            break
        assert answer["code"] == "illegal_action" and "your turn" in answer["message"]
        view = (await alice.until("view"))[-1]["view"]
    assert answer["kind"] == "discard" and answer["id"] is None


@pytest.mark.parametrize(("depth", "refused"), [(16, False), (17, True)])
async def test_an_unknown_field_may_nest_16_deep_and_one_deeper_is_refused_as_bad_field(
        connect: Connect, depth: int, refused: bool) -> None:
    assert '`"x": [[1]]` is 2\ndeep' in DOC and "refused with `error` `bad_field`" in DOC
    nested: list[Any] = []
    for _ in range(depth - 1):
        nested = [nested]
    peer = await logged_in(connect, "deep")
    await peer.send(req("ping", n=7, x=nested, id=40))
    answer = await peer.next()
    if refused:
        assert (answer["t"], answer["code"], answer["id"]) == ("error", "bad_field", 40)
        await peer.send(req("ping", n=8))  # the connection stays open
        answer = await peer.next()
    assert answer["t"] == "pong"


async def test_a_start_sends_game_started_view_clock_then_table_changed(connect: Connect) -> None:
    assert "(`start`: `game_started`, then `view`, then `clock`, then `table_changed`)" in DOC
    alice = await logged_in(connect, "alice")
    await alice.send(req("create_table", name="order", seats=2))
    await alice.until("joined")
    await alice.send(req("add_bot", seat=1))
    await alice.send(req("start"))
    await alice.until("game_started")  # after the table_changed frames of the table's making
    seen = await alice.until("table_changed")
    assert [f["t"] for f in seen if f["t"] != "ping"] == ["view", "clock", "table_changed"]


async def test_arriving_between_games_brings_the_last_game_then_its_review(connect: Connect) -> None:
    """Alice and Bob play beside a bot for a few turns, then Bob leaves (the game ends): Alice gets the reasons
    kept from her after the replay; Carol, watching the table then, gets the last game's view, reasons, clock
    and notes before its replay and review, as the document orders them."""
    assert "**Arriving at a table.**" in DOC and "`game_over`, `notes` and `replay`. The reason's text" in DOC
    alice, bob = await logged_in(connect, "alice"), await logged_in(connect, "bob")
    await alice.send(req("create_table", name="between", seats=3, level="basic", seed="why not"))
    table = (await alice.until("joined"))[-1]["table"]["id"]
    await bob.send(req("join", table=table, seat=1))
    await bob.until("joined")
    await alice.send(req("add_bot", seat=2))
    await alice.send(req("start"))
    view = (await alice.until("view"))[-1]["view"]
    while view["turn"] < 6:  # Alice and Bob discard their oldest card (or clue the bot when the tokens are full)
        if view["current"] < 2:
            hand = view["hands"][view["current"]]
            bot_card = view["hands"][2][0][1]
            await (alice, bob)[view["current"]].send(
                req("action", kind="discard", order=hand[-1][0]) if view["clue_tokens"] < 8
                else req("action", kind="clue", target=2, rank=int(bot_card[1])))
        view = (await alice.until("view"))[-1]["view"]
    await bob.send(req("leave"))
    after = await alice.until("review")
    order = [f["t"] for f in after if f["t"] in ("game_over", "notes", "replay", "bot_reason", "review")]
    assert order[:5] == ["game_over", "notes", "notes", "notes", "replay"] and order[-1] == "review"
    assert set(order[5:-1]) <= {"bot_reason"}
    carol = await logged_in(connect, "carol")
    await carol.send(req("spectate", table=table))
    got = kinds(await carol.until("watchers"))
    # Until she is at the table Carol is in the lobby, whose news of who is online may come first, in its batch.
    while got and got[0] == "online":
        got = got[1:]
    assert got[:2] == ["joined", "view"] and got[-3:] == ["replay", "review", "watchers"]
    reasons = got.count("bot_reason")
    assert reasons >= 2 and got[2:-3] == ["bot_reason"] * reasons + ["clock", "notes", "notes", "notes"]
