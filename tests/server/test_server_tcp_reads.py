"""A TCP connection's own read path (wait until readable, then read) and the writer's deadline, over real
loopback sockets and in-memory streams: requests split or bunched any way arrive whole and in order, a reset
is a dropped connection, silence is still noticed, a peer that stops reading is still dropped; and what a waiting
reader and a waiting table keep."""

from __future__ import annotations

import socket
import struct

import pytest
import trio
import trio.testing
from hanabi.engine import ChatPolicy
from hanabi.protocol.framing import encode
from hanabi.protocol.messages import Chat, ErrorReply, Goodbye, ListTables, Ping, Pong, SeatStatus, Tables
from hanabi.server import ServerConfig
from hanabi.server.requests import Call

from .conftest import Connect, config_with
from .test_server_tables import table_of


async def test_requests_cut_into_single_bytes_or_sent_together_are_all_answered_in_order(
        tcp_connect: Connect) -> None:
    alice = await tcp_connect("Alice")
    pings = b"".join(encode(Ping(n=n, id=n)) for n in range(1, 6))
    for byte in pings[:-1]:
        await alice.send_raw(bytes([byte]))  # a frame in pieces: nothing happens until it is whole
    await alice.send_raw(pings[-1:] + encode(ListTables(id=7)) + encode(Ping(n=6, id=6)))
    await alice.flush()
    pongs = [m.n for m in alice.seen if isinstance(m, Pong) and m.id is not None]  # not the flush's
    assert pongs == [1, 2, 3, 4, 5, 6]
    assert [m.id for m in alice.take(Tables)] == [7]
    # Ping 6 came after list_tables in the same segment: its pong came after the tables.
    order = [type(m).__name__ for m in alice.seen if isinstance(m, (Pong, Tables)) and m.id is not None]
    assert order == ["Pong"] * 5 + ["Tables", "Pong"]


async def test_a_bad_frame_over_tcp_is_refused_and_the_next_one_served(tcp_connect: Connect) -> None:
    alice = await tcp_connect("Alice")
    body = b"\x81\xa1v\x02"  # a map without a type
    await alice.send_raw(struct.pack(">I", len(body)) + body + encode(ListTables(id=3)))
    error = await alice.expect(ErrorReply)
    assert error.code in ("bad_frame", "bad_field", "unknown_type")
    assert (await alice.expect(Tables)).id == 3


async def test_a_client_whose_connection_is_reset_loses_it_but_keeps_its_seat(tcp_connect: Connect,
                                                                             server: object) -> None:
    alice, bob = await tcp_connect("Alice"), await tcp_connect("Bob")
    await table_of(alice, [bob], chat=ChatPolicy.ALWAYS)
    sock = bob.stream.socket  # type: ignore[attr-defined]
    # SO_LINGER 0: close sends a reset, as when a client's process dies with unread data.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    await bob.stream.aclose()
    status = await alice.expect(SeatStatus, where=lambda m: not m.connected)
    assert status.seat == 1
    await alice.send(Chat(text="still here"))
    assert (await alice.expect(Chat)).text == "still here"


# The heartbeat first sleeps until the hello's deadline: a short one lets the idle drop come at once.
@pytest.mark.parametrize("fast_config", [config_with(idle_timeout=0.5, ping_interval=5.0, handshake_timeout=1.0)])
async def test_a_silent_tcp_client_is_told_it_was_idle(tcp_connect: Connect, fast_config: ServerConfig) -> None:
    mute = await tcp_connect("Mute")
    bye = await mute.expect(Goodbye, timeout=5)
    assert bye.reason == "idle"


@pytest.mark.virtual_time  # over in-memory streams: the deadline measured on the server's clock
# The heartbeat keeps the writes' deadline: shorter than its ping interval (0.5 s), the writer asks it to look
# sooner; longer, it looks anyway.
@pytest.mark.parametrize("fast_config", [config_with(send_timeout=0.3), config_with(send_timeout=1.3)])
async def test_a_peer_that_stops_reading_is_dropped_by_the_writers_deadline(connect: Connect,
                                                                          fast_config: ServerConfig) -> None:
    alice = await connect("Alice")
    sloth = await connect("Sloth", lockstep=True)  # a lockstep stream takes nothing its reader does not read
    await table_of(alice, [sloth], chat=ChatPolicy.ALWAYS)
    said = trio.current_time()
    for i in range(3):  # far fewer frames than its queue holds: only the deadline can drop it
        await alice.send(Chat(text=f"message {i}"))
    status = await alice.expect(SeatStatus, where=lambda m: not m.connected)
    assert status.seat == 1
    assert trio.current_time() - said == pytest.approx(fast_config.send_timeout), "not dropped at the deadline"


def _waits(task: trio.lowlevel.Task) -> list[str]:
    """The functions ``task`` is parked in, outermost first (its coroutine, what that awaits, and so on down)."""
    names: list[str] = []
    coro: object = task.coro
    while coro is not None:
        code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
        if code is None:
            break
        names.append(code.co_qualname)
        coro = getattr(coro, "cr_await", None) if hasattr(coro, "cr_await") else getattr(coro, "gi_yieldfrom", None)
    return names


def _every_task() -> list[trio.lowlevel.Task]:
    tasks, nurseries = [], list(trio.lowlevel.current_root_task().child_nurseries)
    while nurseries:
        nursery = nurseries.pop()
        tasks.extend(nursery.child_tasks)
        for task in nursery.child_tasks:
            nurseries.extend(task.child_nurseries)
    return tasks


async def test_an_idle_tcp_reader_waits_on_its_socket_alone(tcp_connect: Connect) -> None:
    """A connection waits most of its life, and what its reader waits in is made again at each read: the less it
    is, the less a thousand idle players put before the cycle collector."""
    alice = await tcp_connect("Alice")
    await alice.flush()
    await trio.testing.wait_all_tasks_blocked()
    readers = [waits for task in _every_task() if "Connection._reader" in (waits := _waits(task))]
    assert len(readers) == 1
    below = readers[0][readers[0].index("Connection._reader") + 1:]
    assert "SocketStream.receive_some" not in below, below  # not inside the stream's and the socket's layers
    assert len(below) <= 5, below  # Trio's wait for the socket to be readable, and its yield to the loop


async def test_a_waiting_table_keeps_no_call_it_has_carried_out(connect: Connect) -> None:
    """Between moves a table's task waits for the next call: the one it carried out (the request, its event, the
    outcome) is let go, and the wait is the channel's receive alone, no ``async for`` layer above it."""
    alice, bob = await connect("Alice"), await connect("Bob")
    await table_of(alice, [bob], chat=ChatPolicy.ALWAYS)
    await alice.send(Chat(text="hello"))
    assert (await alice.expect(Chat)).text == "hello"
    await trio.testing.wait_all_tasks_blocked()
    tables = [task for task in _every_task() if _waits(task)[:1] == ["Table.run"]]
    assert len(tables) == 1
    waits = _waits(tables[0])
    assert waits[1] == "MemoryReceiveChannel.receive", waits
    frame = tables[0].coro.cr_frame
    assert frame is not None
    assert not [value for value in frame.f_locals.values() if isinstance(value, Call)]
