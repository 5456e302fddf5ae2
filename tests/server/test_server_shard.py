"""A server with worker processes (``--workers``): connections move to the worker of their table and back.

Everything here runs over real loopback TCP (a socket can only move between
processes as a real file descriptor) against ``serve(..., workers=2)`` in
the test's nursery, whose two workers are real processes sharing an SQLite
file. The tests check what a player sees, never how the processes split the
work, except where the point is that two tables run in two processes.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import trio
from hanabi.engine import ChatPolicy
from hanabi.protocol.framing import encode
from hanabi.protocol.messages import (
    AddBot,
    Chat,
    CreateTable,
    ErrorReply,
    GameOver,
    GameStarted,
    Goodbye,
    Hello,
    Join,
    Joined,
    Leave,
    ListTables,
    SeatStatus,
    Spectate,
    Start,
    TableChanged,
    Tables,
    ViewUpdate,
)
from hanabi.protocol.version import PROTOCOL_VERSION
from hanabi.server import Server, serve
from hanabi.server.shard import FrontLobby

from .conftest import FAST, Client
from .test_server_tables import play_out
from .test_server_tcp import _start_server_process, check_redaction


@pytest.fixture
async def sharded(nursery: trio.Nursery, tmp_path: Path) -> AsyncIterator[Server]:
    db = str(tmp_path / "sharded.sqlite3")
    started: Server = await nursery.start(lambda task_status: serve("127.0.0.1", 0, db, config=FAST, workers=2,
                                                                     task_status=task_status))
    yield started
    await started.stop()


async def _client(server: Server, name: str, resume: str | None = None) -> Client:
    client = Client(await trio.open_tcp_stream("127.0.0.1", server.port), name)
    welcome = await client.hello(name, resume)
    client.token = welcome.resume  # type: ignore[attr-defined]
    return client


def _worker_of(server: Server, table: int) -> int:
    lobby = server.lobby
    assert isinstance(lobby, FrontLobby)
    return lobby.remote[table].worker.index


async def _table(host: Client, name: str, seats: int, **options: object) -> int:
    await host.send(CreateTable(name=name, seats=seats, chat=ChatPolicy.ALWAYS, **options))  # type: ignore[arg-type]
    return (await host.expect(Joined, timeout=10)).table.id


async def test_games_at_tables_in_two_workers_never_show_a_seat_its_own_cards(sharded: Server) -> None:
    tables: list[tuple[int, list[Client]]] = []
    for t in range(2):
        clients = [await _client(sharded, f"T{t}P{i}") for i in range(3)]
        table = await _table(clients[0], f"table {t}", 3)
        for c in clients[1:]:
            await c.send(Join(table=table))
            await c.expect(Joined, timeout=10)
        tables.append((table, clients))
    assert {_worker_of(sharded, table) for table, _ in tables} == {0, 1}, "two tables, one in each worker"
    for _, clients in tables:
        await clients[0].send(Start())
        for c in clients:
            await c.expect(GameStarted, timeout=10)
    async with trio.open_nursery() as games:
        for _, clients in tables:
            games.start_soon(play_out, dict(enumerate(clients)), 60)
    for _, clients in tables:
        for seat, c in enumerate(clients):
            if not any(t["t"] == "game_over" for t in c.trees):
                await c.expect(GameOver, timeout=10)
            assert check_redaction(c, seat) > 5


async def test_a_player_who_leaves_is_back_in_the_lobby_and_can_sit_in_the_other_worker(sharded: Server) -> None:
    alice, bob = await _client(sharded, "Alice"), await _client(sharded, "Bob")
    first = await _table(alice, "first", 2)
    second = await _table(bob, "second", 2)
    assert _worker_of(sharded, first) != _worker_of(sharded, second)
    # A seated player asks for the list of every table: the worker asks the front.
    await alice.send(ListTables(id=3))
    listed = await alice.expect(Tables, timeout=10)
    assert listed.id == 3 and {t.id for t in listed.tables} == {first, second}
    await alice.send(Leave())
    await alice.expect(TableChanged, timeout=10, where=lambda m: m.table.id == first)
    # In the lobby again: the front tells her of changes to any table...
    carol = await _client(sharded, "Carol")
    await carol.send(Join(table=second, seat=1))
    await carol.expect(Joined, timeout=10)
    await alice.expect(TableChanged, timeout=10,
                       where=lambda m: m.table.id == second and m.table.players[1] is not None)
    # ... and she can take a seat at a table of the other worker (the one she left closed: she was alone).
    dave = await _client(sharded, "Dave")
    third = await _table(dave, "third", 2)
    await alice.send(Join(table=third))
    joined = await alice.expect(Joined, timeout=10)
    assert joined.table.id == third and joined.seat == 1


async def test_requests_sent_with_the_join_are_not_lost_on_the_move(sharded: Server) -> None:
    alice, bob = await _client(sharded, "Alice"), await _client(sharded, "Bob")
    table = await _table(alice, "chatty", 2)
    # One write: the join (handled by the front, which moves the connection) and two requests behind it.
    await bob.send_raw(encode(Join(table=table, id=1)) + encode(Chat(table=table, text="hi")) +
                       encode(ListTables(id=2)))
    assert (await bob.expect(Joined, timeout=10)).id == 1
    said = await alice.expect(Chat, timeout=10)
    assert (said.sender, said.text) == ("Bob", "hi")
    assert (await bob.expect(Tables, timeout=10)).id == 2


async def test_a_refused_join_leaves_the_player_in_the_lobby(sharded: Server) -> None:
    alice, bob = await _client(sharded, "Alice"), await _client(sharded, "Bob")
    table = await _table(alice, "secret", 2, password="open sesame")
    await bob.send(Join(table=table, password="wrong", id=5))
    refused = await bob.expect(ErrorReply, timeout=10)
    assert (refused.code, refused.id) == ("wrong_password", 5)
    # Still served, by whichever process: a table of his own, then the right password elsewhere works.
    mine = await _table(bob, "bob's", 2)
    assert mine != table
    await bob.send(Leave())
    await bob.send(Join(table=table, password="open sesame"))
    assert (await bob.expect(Joined, timeout=10)).table.id == table


async def _a_game_of_two(server: Server, name: str) -> tuple[int, Client, Client, dict[int, ViewUpdate]]:
    """Alice's new table, Bob in the second seat, a game started: the table and each seat's first view."""
    alice, bob = await _client(server, "Alice"), await _client(server, "Bob")
    table = await _table(alice, name, 2)
    await bob.send(Join(table=table))
    await bob.expect(Joined, timeout=10)
    await alice.send(Start())
    views = {0: await alice.expect(ViewUpdate, timeout=10), 1: await bob.expect(ViewUpdate, timeout=10)}
    return table, alice, bob, views


async def test_a_dropped_player_resumes_the_seat_in_its_worker(sharded: Server) -> None:
    _, alice, bob, views = await _a_game_of_two(sharded, "resume")
    before = views[1]
    await bob.stream.aclose()
    gone = await alice.expect(SeatStatus, timeout=10)
    assert (gone.seat, gone.connected) == (1, False)
    again = await _client(sharded, "Bob?", bob.token)  # type: ignore[attr-defined]
    assert (await again.expect(Joined, timeout=10)).seat == 1
    assert (await again.expect(ViewUpdate, timeout=10)).view == before.view
    back = await alice.expect(SeatStatus, timeout=10)
    assert (back.seat, back.connected) == (1, True)
    # A second connection with the same token replaces the first, in the worker.
    third = await _client(sharded, "Bob!", bob.token)  # type: ignore[attr-defined]
    assert (await third.expect(Joined, timeout=10)).seat == 1
    bye = await again.expect(Goodbye, timeout=10)
    assert bye.reason == "replaced"


async def test_bots_play_in_a_worker_and_a_spectator_can_move_to_the_other_worker(sharded: Server) -> None:
    alice, bob, watcher = [await _client(sharded, n) for n in ("Alice", "Bob", "Watcher")]
    first = await _table(alice, "with a bot", 2)
    second = await _table(bob, "elsewhere", 2)
    assert _worker_of(sharded, first) != _worker_of(sharded, second)
    await alice.send(AddBot(seat=1))
    await alice.expect(TableChanged, timeout=10, where=lambda m: m.table.players[1] is not None)
    await watcher.send(Spectate(table=first))
    assert (await watcher.expect(Joined, timeout=10)).seat is None
    await alice.send(Start())
    await play_out({0: alice}, game_timeout=60)  # the bot takes every other turn, in the worker
    # From watching a table in one worker to watching one in the other: the connection goes via the front.
    await watcher.send(Spectate(table=second, id=9))
    moved = await watcher.expect(Joined, timeout=10, where=lambda m: m.id == 9)
    assert moved.table.id == second and moved.seat is None


async def test_stopping_says_goodbye_to_players_in_every_process(sharded: Server) -> None:
    alice, bob = await _client(sharded, "Alice"), await _client(sharded, "Bob")
    await _table(alice, "at a worker", 2)
    await sharded.stop("closing time")
    for c in (alice, bob):  # alice at a worker's table, bob in the front's lobby
        bye = await c.expect(Goodbye, timeout=10)
        assert bye.reason == "server_shutdown" and "closing time" in bye.message


async def test_a_worker_that_dies_is_started_again_and_its_players_resume(sharded: Server) -> None:
    table, alice, bob, views = await _a_game_of_two(sharded, "fragile")
    lobby = sharded.lobby
    assert isinstance(lobby, FrontLobby)
    worker = lobby.remote[table].worker
    assert worker.process is not None
    old = worker.process.pid
    os.kill(old, signal.SIGKILL)
    for c in (alice, bob):
        await c.expect_closed(timeout=10)
    with trio.fail_after(20):
        while worker.process is None or worker.process.pid == old or not worker.ready.is_set():
            await trio.sleep(0.05)
    for seat, c in ((0, alice), (1, bob)):
        again = await _client(sharded, c.name, c.token)  # type: ignore[attr-defined]
        assert (await again.expect(Joined, timeout=10)).seat == seat
        assert (await again.expect(ViewUpdate, timeout=10)).view == views[seat].view


def test_workers_need_a_store_file_and_a_sensible_count(tmp_path: Path) -> None:
    for args, said in ((["--workers", "2", "--db", ":memory:"], "must be a file"),
                       (["--workers", "-1"], "--workers -1")):
        done = subprocess.run([sys.executable, "-m", "hanabi.server", "--port", "0", *args], capture_output=True,
                              text=True, timeout=30)
        assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr


async def test_killing_the_front_stops_its_workers_and_a_restart_resumes_the_game(tmp_path: Path) -> None:
    from .test_server_tcp import _client as tcp_client

    db = tmp_path / "games.sqlite3"
    proc, port = await _start_server_process(db, "--workers", "2")
    try:
        alice, bob = await tcp_client(port, "Alice"), await tcp_client(port, "Bob")
        await alice.send(CreateTable(name="kill the front", seats=2))
        table = (await alice.expect(Joined, timeout=10)).table.id
        await bob.send(Join(table=table))
        await bob.expect(Joined, timeout=10)
        await alice.send(Start())
        views = {0: await alice.expect(ViewUpdate, timeout=10), 1: await bob.expect(ViewUpdate, timeout=10)}
        with trio.fail_after(10):
            while len(workers := _children(proc.pid)) < 2:
                await trio.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
    with trio.fail_after(10):  # the workers notice their front is gone and stop
        while any(_alive(pid) for pid in workers):
            await trio.sleep(0.05)
    proc, port = await _start_server_process(db, "--workers", "2")
    try:
        for seat, c in ((0, alice), (1, bob)):
            again = await tcp_client(port, c.name, c.token)  # type: ignore[attr-defined]
            assert (await again.expect(Joined, timeout=10)).seat == seat
            assert (await again.expect(ViewUpdate, timeout=10)).view == views[seat].view
    finally:
        proc.send_signal(signal.SIGTERM)
        with trio.fail_after(15):
            await proc.wait()
    assert proc.returncode == 0


def _children(pid: int) -> list[int]:
    # Every thread's children: Trio starts processes from a worker thread.
    return [int(p) for task in Path(f"/proc/{pid}/task").iterdir() for p in (task / "children").read_text().split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


async def test_each_worker_keeps_to_a_core_of_its_own_when_there_are_enough(sharded: Server) -> None:
    lobby = sharded.lobby
    assert isinstance(lobby, FrontLobby)
    with trio.fail_after(20):
        while not all(w.ready.is_set() for w in lobby.workers):
            await trio.sleep(0.05)
    allowed = []
    for worker in lobby.workers:
        assert worker.process is not None
        status = Path(f"/proc/{worker.process.pid}/status").read_text()
        allowed.append(next(line.split(":")[1].strip() for line in status.splitlines()
                            if line.startswith("Cpus_allowed_list")))
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) >= len(lobby.workers):
        assert allowed == [str(core) for core in cores[:len(lobby.workers)]]
    else:  # more workers than cores: the scheduler places them
        assert len(set(allowed)) == 1


async def test_a_second_connection_during_a_move_never_seats_one_player_twice(sharded: Server) -> None:
    lobby = sharded.lobby
    assert isinstance(lobby, FrontLobby)
    alice, bob = await _client(sharded, "Alice"), await _client(sharded, "Bob")
    first, second = await _table(alice, "one", 5), await _table(bob, "two", 5)
    assert _worker_of(sharded, first) != _worker_of(sharded, second)
    for attempt in range(6):
        # Eve joins the first table; at the same moment a second connection with her token joins the second.
        eve = await _client(sharded, f"Eve{attempt}")
        again = Client(await trio.open_tcp_stream("127.0.0.1", sharded.port), "Eve again")
        await trio.sleep(0.05)
        async with trio.open_nursery() as both:
            both.start_soon(eve.send, Join(table=first, id=1))
            both.start_soon(again.send_raw, encode(Hello(protocol=PROTOCOL_VERSION, program="test", name="Eve",
                                                         resume=eve.token)) + encode(Join(table=second, id=2)))  # type: ignore[attr-defined]
        for c in (eve, again):
            with contextlib.suppress(EOFError):
                await c.drain(1.0)
        seated = [t for t in (first, second)
                  if any(s is not None and s.name.startswith(f"Eve{attempt}") for s in lobby.remote[t].info().players)]
        assert len(seated) <= 1, f"attempt {attempt}: one player sits at two tables"


async def test_moving_does_not_reset_the_rate_limit(sharded: Server) -> None:
    alice, bob = await _client(sharded, "Alice"), await _client(sharded, "Bob")
    table = await _table(alice, "watched", 3)
    # Watch, leave, watch...: each pair moves the connection to the worker and back.
    await bob.send_raw(b"".join(encode(Spectate(table=table, id=i)) + encode(Leave()) for i in range(150)))
    with contextlib.suppress(EOFError):
        await bob.drain(6.0)
    carried_out = [m for m in bob.inbox if isinstance(m, Joined)]
    assert len(carried_out) <= FAST.burst + 1, "each move gave the connection a fresh rate limit"
    assert any(isinstance(m, ErrorReply) and m.code == "rate_limited" for m in bob.inbox) or bob.closed


async def test_a_list_of_tables_asked_for_just_before_leaving_is_answered_first(sharded: Server) -> None:
    alice, bob = await _client(sharded, "Alice"), await _client(sharded, "Bob")
    table = await _table(alice, "watched", 3)
    for i in range(3):
        await bob.send(Spectate(table=table))
        await bob.expect(Joined, timeout=10)
        await bob.send_raw(encode(ListTables(id=100 + i)) + encode(Leave()))
        listed = await bob.expect(Tables, timeout=10, where=lambda m, i=i: m.id == 100 + i)  # type: ignore[misc]
        assert table in {t.id for t in listed.tables}
