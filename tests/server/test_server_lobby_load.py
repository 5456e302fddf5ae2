"""The lobby scales with people, not with churn: batched table news, unplayed tables forgotten, the most
useful tables listed first, a few empty tables per address, spectators per table bounded. On virtual time."""

from __future__ import annotations

import pytest
import trio
import trio.testing
from hanabi.protocol.messages import (
    AddBot,
    CreateTable,
    ErrorReply,
    Joined,
    Leave,
    ListTables,
    RemoveBot,
    Spectate,
    Start,
    TableChanged,
    TableGone,
    Tables,
    ViewUpdate,
)
from hanabi.server import Server

from .conftest import Client, Connect, config_with, eventually, settle
from .test_server_tables import table_of

pytestmark = pytest.mark.virtual_time


def _rows(server: Server, table_id: int) -> list[tuple[object, ...]]:
    db = server.store._db
    assert db is not None
    return db.execute("SELECT id, closed FROM tables WHERE id = ?", (table_id,)).fetchall()


@pytest.mark.parametrize("fast_config", [config_with(lobby_interval=3600.0)])  # batches only when the test says
async def test_many_changes_of_a_table_reach_the_lobby_as_one_update(connect: Connect, server: Server) -> None:
    lou, hal = await connect("Lou"), await connect("Hal")
    table = await table_of(hal, [], seats=3)
    for _ in range(10):
        await hal.send(AddBot(seat=1))
        await hal.send(RemoveBot(seat=1))
    await hal.send(AddBot(seat=2))
    await hal.expect(TableChanged, where=lambda m: m.table.players[2] is not None)
    await settle(lou)
    assert not lou.take(TableChanged)  # 22 changes so far, none sent to the lobby yet
    await server.lobby.tell_lobby()
    await settle(lou)
    [news] = lou.take(TableChanged)
    assert news.table.id == table and news.table.players[2] is not None and news.table.players[1] is None
    await server.lobby.tell_lobby()
    await settle(lou)
    assert not lou.take(TableChanged)  # nothing new: nothing sent


@pytest.mark.parametrize("fast_config", [config_with(lobby_interval=0.05, lobby_news_rate=20.0)])
async def test_with_a_crowd_in_the_lobby_its_news_comes_less_often(connect: Connect) -> None:
    lobby = [await connect(f"Lou{i}") for i in range(4)]
    hal = await connect("Hal")
    table = await table_of(hal, [], seats=3)  # Hal at a table with no game sees the lobby too: 5 told each batch
    start = trio.current_time()
    while trio.current_time() - start < 2.0:  # the table changes every 0.05 s of the server's clock, for 2 s
        await hal.send(AddBot(seat=1))
        await hal.send(RemoveBot(seat=1))
        await hal.listen(0.05)
    await settle(*lobby)
    for lou in lobby:
        batches = [m for m in lou.take(TableChanged) if m.table.id == table]
        # 5 players told, 20 a second: a batch every 0.25 s (8 in 2 s), where every 0.05 s would make 40.
        assert 6 <= len(batches) <= 10, len(batches)


async def test_a_table_never_played_leaves_the_store_and_a_played_one_stays(connect: Connect,
                                                                          server: Server) -> None:
    ann, bob = await connect("Ann"), await connect("Bob")
    unplayed = await table_of(ann, [], seats=2)
    await ann.send(Leave())
    await ann.expect(TableGone)
    assert _rows(server, unplayed) == []
    played = await table_of(ann, [bob])
    await ann.send(Start())
    await ann.expect(ViewUpdate)
    for c in (ann, bob):
        await c.send(Leave())
        await c.expect(TableGone, where=lambda m: m.table == played) if c is bob else await c.expect(TableChanged)
    [(_, closed)] = _rows(server, played)
    assert closed is not None


async def test_list_tables_shows_free_seats_then_the_latest_activity_first(
        connect: Connect, autojump_clock: trio.testing.MockClock) -> None:
    ann, bob, cid, dee, eve = [await connect(n) for n in ("Ann", "Bob", "Cid", "Dee", "Eve")]
    full = await table_of(ann, [bob])
    autojump_clock.jump(1)  # each change a second after the one before: which is the latest is beyond doubt
    old = await table_of(cid, [], seats=2)
    autojump_clock.jump(1)
    new = await table_of(dee, [], seats=2)

    async def listed() -> list[int]:
        await eve.send(ListTables())
        return [t.id for t in (await eve.expect(Tables)).tables]

    assert await listed() == [new, old, full]  # the newest first, not the oldest
    await cid.send(AddBot(seat=1))  # the old table is full for a moment ...
    await cid.expect(TableChanged, where=lambda m: m.table.players[1] is not None)
    autojump_clock.jump(1)
    await cid.send(RemoveBot(seat=1))  # ... and free again: the latest to change

    async def old_goes_first() -> bool:  # cid, at a waiting table, also hears the lobby's news of it, older ones
        return await listed() == [old, new, full]

    await eventually(old_goes_first, "the old table, free again and the latest to change, to be listed first")
    await cid.stream.aclose()  # nobody at the old table is connected now: it goes after those with someone

    async def old_goes_after_new() -> bool:
        return await listed() == [new, old, full]

    await eventually(old_goes_after_new, "the old table, nobody at it connected, to be listed after the new one")


async def _from(server: Server, nursery: trio.Nursery, name: str, address: str) -> Client:
    ours, theirs = trio.testing.memory_stream_pair()
    nursery.start_soon(server.handle, theirs, f"{address}:{name}", address)
    client = Client(ours, name)
    await client.hello(name)
    return client


@pytest.mark.parametrize("fast_config", [config_with(max_empty_tables_per_address=2)])
async def test_an_address_holds_a_few_empty_tables_at_most(server: Server, nursery: trio.Nursery) -> None:
    idle = [await _from(server, nursery, f"Idle{i}", "10.0.0.66") for i in range(3)]
    for c in idle[:2]:
        await table_of(c, [], seats=3)
    await idle[2].send(CreateTable(name="third", seats=3))
    refused = await idle[2].expect(ErrorReply)
    assert refused.code == "table_full" and "2 tables opened from your address wait for players" in refused.message
    other = await _from(server, nursery, "Ann", "10.0.0.7")  # another address is not held back
    await table_of(other, [], seats=3)


@pytest.mark.parametrize("fast_config", [config_with(max_spectators=2)])
async def test_spectators_per_table_are_bounded_with_a_clear_refusal(connect: Connect) -> None:
    ann, bob = await connect("Ann"), await connect("Bob")
    table = await table_of(ann, [bob])
    watchers = [await connect(f"W{i}") for i in range(3)]
    for w in watchers[:2]:
        await w.send(Spectate(table=table))
        assert (await w.expect(Joined)).seat is None
    await watchers[2].send(Spectate(table=table))
    refused = await watchers[2].expect(ErrorReply)
    assert refused.code == "table_full" and "has 2 spectators, the most it takes" in refused.message
    await watchers[0].send(Leave())
    await watchers[2].send(Spectate(table=table))
    assert (await watchers[2].expect(Joined)).seat is None


@pytest.mark.parametrize("fast_config", [config_with(new_tables_per_second=0.01)])
async def test_an_address_opens_tables_at_a_bounded_rate(server: Server, nursery: trio.Nursery) -> None:
    """Opening and leaving tables in a loop costs store writes: four at once, then one a second (here 0.01)."""
    churner = await _from(server, nursery, "Churn", "10.0.0.66")
    for _ in range(4):
        await table_of(churner, [], seats=3)
        await churner.send(Leave())
        await churner.expect(TableGone)
    await churner.send(CreateTable(name="fifth", seats=3))
    refused = await churner.expect(ErrorReply)
    assert refused.code == "rate_limited" and "faster than the server takes" in refused.message
    await table_of(await _from(server, nursery, "Ann", "10.0.0.7"), [], seats=3)  # others are not held back
