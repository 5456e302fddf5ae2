"""The client's one protocol client (``Wire``): messages in order however the bytes are cut, a bad frame
skipped with an error, None once the server has closed, frames out as the server reads them."""

from __future__ import annotations

import msgpack
import pytest
import trio
import trio.testing
from hanabi.client.wire import Wire
from hanabi.protocol import HEADER, PROTOCOL_VERSION, Decoder, Ping, ProtocolError, Welcome, encode


async def test_messages_arrive_in_order_however_the_bytes_are_cut_and_none_at_the_close() -> None:
    ours, theirs = trio.testing.memory_stream_pair()
    wire = Wire(ours)
    sent = [Welcome(PROTOCOL_VERSION, "hanabi 1", "alice", "token"), Ping(1), Ping(2)]
    data = b"".join(encode(m) for m in sent)
    # Two messages in the first piece (the welcome and what came with it), the third cut in two.
    await theirs.send_all(data[:len(data) - 3])
    assert [await wire.receive(), await wire.receive()] == sent[:2]
    await theirs.send_all(data[len(data) - 3:])
    assert await wire.receive() == sent[2]
    await theirs.aclose()
    assert await wire.receive() is None


async def test_a_frame_that_cannot_be_read_raises_once_and_the_next_one_is_read() -> None:
    ours, theirs = trio.testing.memory_stream_pair()
    wire = Wire(ours)
    bad = msgpack.packb({"v": PROTOCOL_VERSION, "t": "ping", "n": "one"})
    await theirs.send_all(HEADER.pack(len(bad)) + bad + encode(Ping(3)))
    with pytest.raises(ProtocolError, match=r"ping\.n") as error:
        await wire.receive()
    assert not error.value.fatal
    assert await wire.receive() == Ping(3)


async def test_what_the_wire_sends_the_server_reads() -> None:
    ours, theirs = trio.testing.memory_stream_pair()
    wire = Wire(ours)
    await wire.send(Ping(7))
    assert Decoder(peer="client").feed(await theirs.receive_some()) == [Ping(7)]
