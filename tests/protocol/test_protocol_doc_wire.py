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
