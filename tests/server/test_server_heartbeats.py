"""The heartbeats: one task pings every connection and closes the silent ones; a connection runs two tasks.

A connection waits most of its life, and what its tasks wait in is made
again at each wake and lives until the next: the fewer tasks a connection
keeps, the less of it reaches the cycle collector's oldest generation.
"""
from __future__ import annotations

import pytest
import trio
from hanabi.protocol.messages import Goodbye, Ping
from hanabi.server import Server

from .conftest import Client, Connect, config_with, settle

pytestmark = pytest.mark.virtual_time


def _tasks() -> int:
    """Every task of the run, the root's descendants counted."""
    count, nurseries = 0, list(trio.lowlevel.current_root_task().child_nurseries)
    while nurseries:
        nursery = nurseries.pop()
        count += len(nursery.child_tasks)
        for task in nursery.child_tasks:
            nurseries.extend(task.child_nurseries)
    return count


async def test_a_connection_runs_its_reader_and_its_writer_only(connect: Connect, server: Server) -> None:
    first = [await connect(f"p{i}") for i in range(2)]
    for client in first:
        await client.settle()
    before = _tasks()
    more = [await connect(f"q{i}") for i in range(10)]
    for client in first + more:
        await client.settle()
    # Each connection: the task serving it (its reader) and its writer. The pings come from the server's one.
    assert _tasks() - before == 2 * len(more)


@pytest.mark.parametrize("fast_config", [config_with(ping_interval=2.0, idle_timeout=60.0)])
async def test_every_connection_is_pinged_within_the_interval_of_its_hello(connect: Connect) -> None:
    clients = [await connect(f"p{i}") for i in range(12)]
    await clients[0].listen(2.0)  # at a random phase, so that connections opened together are not pinged together
    await settle(*clients)
    for client in clients:
        assert [m.n for m in client.seen if isinstance(m, Ping)] == [1], client.name


@pytest.mark.parametrize("fast_config", [config_with(ping_interval=2.0, idle_timeout=60.0)])
async def test_a_quiet_connection_is_pinged_and_a_talking_one_only_once(connect: Connect) -> None:
    """A ping is the server asking for a sign of life: a peer heard from within the interval has given one."""
    quiet, talking = await connect("quiet"), await connect("talking")

    async def talk() -> None:
        for n in range(11):
            await talking.send(Ping(n=n))  # what a client sends to know the server is there: a sign of life too
            await talking.listen(1.0)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(talk)
        nursery.start_soon(quiet.listen, 11.0)
    assert [m.n for m in talking.seen if isinstance(m, Ping)] == [1]
    # Its pong is a sign of life too, so a quiet peer answering is pinged every one or two intervals.
    assert len([m for m in quiet.seen if isinstance(m, Ping)]) >= 3


@pytest.mark.parametrize("fast_config", [config_with(ping_interval=0.5, idle_timeout=3.0)])
async def test_a_silent_connection_among_talking_ones_is_said_goodbye_at_its_deadline(connect: Connect) -> None:
    talking: list[Client] = [await connect(f"p{i}") for i in range(5)]
    silent = await connect("quiet")
    silent.answer_pings = False
    heard = trio.current_time()
    closed_after: list[float] = []

    async def quiet_listens() -> None:
        await silent.expect_closed(timeout=10.0)
        closed_after.append(trio.current_time() - heard)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(quiet_listens)
        for client in talking:
            nursery.start_soon(client.listen, 5.0)  # they answer their pings meanwhile: heard from, they stay
    goodbye = [m for m in silent.seen if isinstance(m, Goodbye)]
    assert [g.reason for g in goodbye] == ["idle"]
    # Closed once nothing was heard for idle_timeout (its hello was the last), and not much later.
    assert closed_after and 3.0 <= closed_after[0] < 3.1
    for client in talking:
        assert not client.closed and not any(isinstance(m, Goodbye) for m in client.seen), client.name


@pytest.mark.parametrize("fast_config", [config_with(ping_interval=0.5, send_timeout=0.2)])
async def test_writes_that_ask_the_heartbeat_to_look_sooner_leave_one_schedule_per_connection(
        connect: Connect, server: Server) -> None:
    """A write with less time than the next ping's asks the heartbeat to look at it sooner: the time asked for
    before is let go when it comes, not kept as a second schedule of that connection's beats (each ping is a
    write that asks again: two schedules would become four, and so on)."""
    clients = [await connect(f"p{i}") for i in range(3)]
    for _ in range(10):
        for client in clients:
            await client.send(Ping(n=7))  # each answer is a write
        await settle(*clients)
    async with trio.open_nursery() as nursery:
        for client in clients:
            nursery.start_soon(client.listen, 5.0)  # ten pings each, every one a write
    # A connection's one time to be looked at, and at most one it let go of that has not come yet.
    assert len(server._heartbeats._due) <= 2 * len(clients)
