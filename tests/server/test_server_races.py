"""Races found in review: what happens when something else moves while a request is in flight.

Each test holds the store (or the table) at a chosen point with an event,
does the other thing at exactly that moment, then lets go, and checks that
where the lobby thinks a player is matches the table, that nothing hidden
reaches a seat, and that nothing waits for ever.
"""

from __future__ import annotations

from typing import Any

import pytest
import trio
import trio.testing
from hanabi.engine.bots import choose_action
from hanabi.protocol.messages import (
    ActionRequest,
    AddBot,
    CreateTable,
    ErrorReply,
    GameStarted,
    Goodbye,
    Hello,
    Join,
    Joined,
    Leave,
    ListTables,
    Spectate,
    Start,
    TableChanged,
    Tables,
    ViewUpdate,
)
from hanabi.protocol.version import PROTOCOL_VERSION
from hanabi.server import Server
from hanabi.server.store import StoreFailure

from .conftest import FAST, Connect, alone_with_bots, config_with, eventually, settle

pytestmark = pytest.mark.virtual_time


def hold_set_seat(server: Server, monkeypatch: pytest.MonkeyPatch) -> tuple[trio.Event, trio.Event]:
    """The next ``store.set_seat`` waits, once it has begun, until the second event is set."""
    begun, release = trio.Event(), trio.Event()
    original = server.store.set_seat

    async def held(*args: Any, **kwargs: Any) -> None:
        if not release.is_set():
            begun.set()
            await release.wait()
        await original(*args, **kwargs)

    monkeypatch.setattr(server.store, "set_seat", held)
    return begun, release


async def test_a_join_in_flight_when_its_connection_is_replaced_still_places_the_player(
        connect: Connect, server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    bob = await connect("Bob")
    await bob.send(CreateTable(name="t", seats=2))
    table = (await bob.expect(Joined)).table.id
    alice = await connect("Alice")
    begun, release = hold_set_seat(server, monkeypatch)
    await alice.send(Join(table=table))
    with trio.fail_after(3):
        await begun.wait()
    # Alice comes back on another connection while her join is being written: the older one is replaced.
    again = await connect("Alice", resume=alice.token)  # type: ignore[attr-defined]
    release.set()
    assert (await again.expect(Joined)).seat == 1  # the table did seat her: she hears it on the new connection
    player = next(p for p in server.lobby.players.values() if p.name == "Alice")
    with trio.fail_after(3):
        async with player.busy:  # the join in flight is done (it holds the player's lock)
            pass
    # Where the lobby thinks she is matches the table.
    assert player.table is server.lobby.tables[table] and player.seat == 1
    # So she can leave her seat, and cannot watch the table she sits at (a spectator sees every hand).
    await bob.send(Start())
    await again.expect(GameStarted)
    await again.send(Spectate(table=table, id=7))
    err = await again.expect(ErrorReply, where=lambda m: m.id == 7)
    assert err.code == "already_seated"
    await settle(again)
    assert all(m.view.seat == 1 for m in again.inbox if isinstance(m, ViewUpdate))
    await again.send(Leave(id=8))
    await again.send(ListTables(id=9))
    tables = await again.expect(Tables, where=lambda m: m.id == 9)
    assert not [m for m in again.take(ErrorReply) if m.id == 8]
    assert tables.tables[0].players[1] is None and player.table is None


async def test_who_leaves_a_table_sees_it_change_in_the_lobby(connect: Connect) -> None:
    # The client counts on it ("the server has nothing to answer but the tables' changes", client/model.py):
    # otherwise its list of tables still shows the player in the seat they left.
    bob = await connect("Bob")
    await bob.send(CreateTable(name="t", seats=3))
    table = (await bob.expect(Joined)).table.id
    alice = await connect("Alice")
    await alice.send(Join(table=table))
    assert (await alice.expect(Joined)).seat == 1
    await settle(alice)
    alice.inbox.clear()
    await alice.send(Leave())
    changed = await alice.expect(TableChanged, where=lambda m: m.table.id == table and m.table.players[1] is None)
    assert changed.table.players[0] is not None


@pytest.mark.parametrize("fast_config", [config_with(shutdown_grace=5.0)])  # a busy machine is not a failure
async def test_a_login_being_saved_when_the_server_stops_gets_its_goodbye(
        connect: Connect, server: Server, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    begun, release = trio.Event(), trio.Event()
    original = server.store.add_player

    async def held(key: str, name: str) -> None:
        begun.set()
        with trio.CancelScope(shield=True):  # as the store's own wait (Store._do): a write queued is seen through
            await release.wait()
            await original(key, name)

    monkeypatch.setattr(server.store, "add_player", held)
    alice = await connect("Alice", hello=False)
    await alice.send(Hello(protocol=PROTOCOL_VERSION, program="test-client", name="Alice"))
    with trio.fail_after(3):
        await begun.wait()
    server.request_stop("the server is shutting down")
    await trio.testing.wait_all_tasks_blocked()
    release.set()
    bye = await alice.expect(Goodbye)
    assert bye.reason == "server_shutdown"
    assert not [r for r in caplog.records if r.exc_info], "no traceback in the log"


async def test_a_connection_that_comes_while_the_server_stops_is_told_so_at_once(connect: Connect,
                                                                                  server: Server) -> None:
    staying = await connect("Alice", lockstep=True)  # reads nothing: the stop waits its grace for her
    server.request_stop("the server is shutting down")
    await trio.testing.wait_all_tasks_blocked()
    with trio.fail_after(FAST.shutdown_grace / 2):  # not held to the end of the grace, and then cut off
        late = await connect("Late", hello=False)
        bye = await late.expect(Goodbye)
        await late.expect_closed()
    assert bye.reason == "server_shutdown" and bye.message == "the server is shutting down"
    assert not [m for m in staying.inbox if isinstance(m, Goodbye)]  # still held in its grace


async def test_a_table_whose_closing_is_not_saved_does_not_keep_its_last_player(
        connect: Connect, server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    async def failing(table_id: int, played: bool = True) -> None:
        raise StoreFailure("disk full")

    monkeypatch.setattr(server.store, "close_table", failing)
    alice = await connect("Alice")
    await alice.send(CreateTable(name="t", seats=2))
    await alice.expect(Joined)
    await alice.send(Leave(id=1))
    await settle(alice)
    # Whatever the store said, Alice is not stuck at a table that no longer takes requests: she can sit again.
    await alice.send(CreateTable(name="u", seats=2, id=2))
    joined = await alice.expect(Joined, where=lambda m: m.table.name == "u")
    assert joined.seat == 0
    assert not [m for m in alice.take(ErrorReply) if m.id == 2]


async def test_a_spectator_whose_connection_is_replaced_while_moving_is_never_at_two_tables(
        connect: Connect, server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    bob = await connect("Bob")
    await bob.send(CreateTable(name="w", seats=3))
    watched = (await bob.expect(Joined)).table.id
    carol = await connect("Carol")
    await carol.send(CreateTable(name="u", seats=2))
    other = (await carol.expect(Joined)).table.id
    alice = await connect("Alice")
    await alice.send(Spectate(table=watched))
    await alice.expect(Joined)
    begun, release = hold_set_seat(server, monkeypatch)
    await bob.send(AddBot(seat=1))  # table w's task is busy with this while...
    with trio.fail_after(3):
        await begun.wait()
    await alice.send(Join(table=other))  # ...Alice's move asks it to stop showing her the table
    await trio.testing.wait_all_tasks_blocked()
    again = await connect("Alice", resume=alice.token)  # type: ignore[attr-defined]
    release.set()
    player = next(p for p in server.lobby.players.values() if p.name == "Alice")
    await settle(again)
    with trio.fail_after(3):
        async with player.busy:
            pass
    w = server.lobby.tables[watched]
    # Wherever she ends up, it is one place: not seated at u while table w still shows her every hand of its game.
    assert player not in w.spectators or player.table is w
    assert player in w.spectators or player.table is not w


@pytest.mark.parametrize("fast_config", [config_with(bot_delay=0.2)])
async def test_a_bot_whose_move_the_database_refuses_chooses_again(
        connect: Connect, server: Server, caplog: pytest.LogCaptureFixture) -> None:
    # The database refuses the statement itself (as with a full disk), in a batch that commits.
    await server.store._do(lambda db: db.execute("CREATE TABLE refuse (x)"))
    await server.store._do(lambda db: db.execute(
        "CREATE TRIGGER refused BEFORE INSERT ON actions WHEN EXISTS (SELECT 1 FROM refuse)"
        " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"))
    alice, view = await alone_with_bots(connect)
    if view.current == 0:
        await alice.send(ActionRequest(choose_action(view)))
        view = (await alice.expect(ViewUpdate, where=lambda m: m.view.turn == view.turn + 1)).view
    assert view.current == 1
    await server.store._do(lambda db: db.execute("INSERT INTO refuse VALUES (1)"))
    await eventually(  # the bot's move is refused...
        lambda: bool([r for r in caplog.records if r.levelname == "ERROR" and "BotMove" in r.getMessage()]),
        "the store to refuse the bot's move")
    await server.store._do(lambda db: db.execute("DELETE FROM refuse"))  # ...then the disk has room again
    await alice.expect(ViewUpdate, where=lambda m: m.view.turn == view.turn + 1, timeout=5)
