"""What a connection and a table leave behind when they end: nothing that only Python's cycle collector can free.
Whatever ends in a reference cycle waits for a collection, fills the collector's generations on the way and makes
its passes, which stop the event loop, longer (docs/performance.md, "Server load"). And what a connection keeps
while its messages wait their turn: what lives that long reaches the collector's oldest generation.

Each test runs with the collector off (restored after) and keeps what it finds in cycles (``DEBUG_SAVEALL``), so
it can name the server's objects among them rather than only count them.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
import trio.testing
from hanabi.protocol.framing import encode
from hanabi.protocol.messages import CreateTable, ErrorReply, Joined, Leave, ListTables, TableGone, Tables
from hanabi.server import Server

from .conftest import Connect, config_with, eventually


@pytest.fixture
def cycles_kept() -> Iterator[set[int]]:
    """The collector off, and what a collection finds in cycles kept in ``gc.garbage`` rather than freed. Yields
    the objects alive before the test (their ids): an earlier test's server, still held by its report, may
    become garbage during this one, and is not this test's."""
    gc.collect()
    was_on, debug = gc.isenabled(), gc.get_debug()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield {id(o) for o in gc.get_objects()}
    finally:
        gc.set_debug(debug)
        gc.garbage.clear()
        if was_on:
            gc.enable()


def servers_own_in_cycles(alive_before: set[int]) -> list[str]:
    """The kinds of the server's own objects (and the protocol's) made during the test that only a collection
    found: their cycles."""
    gc.garbage.clear()
    gc.collect()
    found = sorted({type(o).__qualname__ for o in gc.garbage if id(o) not in alive_before
                    and type(o).__module__.startswith(("hanabi.server", "hanabi.protocol"))})
    gc.garbage.clear()
    return found


@pytest.mark.virtual_time  # the heartbeat lets a closed connection go when it next looks at it: no wait for that
async def test_a_closed_connection_is_freed_without_the_collector(connect: Connect, server: Server,
                                                                  cycles_kept: set[int]) -> None:
    before = set(server._connections)
    clients = [await connect(name) for name in ("Alice", "Bob", "Carol")]
    theirs = [weakref.ref(conn) for conn in server._connections - before]
    assert len(theirs) == 3
    for client in clients:
        await client.flush()
        await client.stream.aclose()
    await eventually(lambda: all(conn() is None for conn in theirs),
                     "the closed connections to be freed as soon as the server let them go")
    assert servers_own_in_cycles(cycles_kept) == []


# Tables opened as fast as a test sends: the rate limit on new tables is not what is checked here.
@pytest.mark.parametrize("fast_config", [config_with(new_tables_per_second=1000.0)])
async def test_a_table_opened_and_left_is_freed_without_the_collector(tcp_connect: Connect, server: Server,
                                                                      cycles_kept: set[int]) -> None:
    alice = await tcp_connect("Alice")
    for i in range(3):
        await alice.send(CreateTable(name=f"table {i}", seats=5, id=1))
        joined = await alice.expect(Joined)
        await alice.send(Leave(id=2))
        await alice.expect(TableGone, where=lambda m, table=joined.table: m.table == table.id)
    await eventually(lambda: not server.lobby.tables, "the tables to close")
    await alice.flush()
    assert servers_own_in_cycles(cycles_kept) == []


# A refused request (a table opened too soon, a leave from no table) raises inside the server and is answered:
# the exception and its traceback must not stay in a cycle with the frames that handled it.
@pytest.mark.parametrize("fast_config", [config_with(new_tables_per_second=0.001)])
async def test_refused_requests_leave_no_cycles(tcp_connect: Connect, cycles_kept: set[int]) -> None:
    alice = await tcp_connect("Alice")
    for _ in range(5):
        await alice.send(CreateTable(name="too soon", id=1))
        await alice.send(Leave(id=2))
    await alice.flush()
    refused = sorted({m.code for m in alice.take(ErrorReply)})
    assert refused == ["not_seated", "rate_limited"]
    assert servers_own_in_cycles(cycles_kept) == []


# One message of the address's budget left after the hello, and the next a thousand seconds away.
@pytest.mark.parametrize("fast_config", [config_with(address_rate=0.001, address_burst=2)])
async def test_messages_waiting_for_their_addresss_budget_wait_as_bytes(tcp_connect: Connect) -> None:
    alice = await tcp_connect("Alice")
    await alice.send_raw(b"".join(encode(ListTables(id=n)) for n in range(1, 21)))  # one read for the server
    assert (await alice.expect(Tables)).id == 1
    await trio.testing.wait_all_tasks_blocked()  # the reader waits with the second request
    waiting = [o for o in gc.get_objects() if type(o) is ListTables and o.id is not None and 1 <= o.id <= 20]
    # The one waiting, and the one carried out last (the reader's last step still names it); the rest are bytes.
    assert len(waiting) <= 2, f"{len(waiting)} requests decoded and kept while they wait their turn"
