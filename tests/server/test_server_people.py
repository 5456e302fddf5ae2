"""What people are told and what waits for them: refusals in the words of the screen (seats counted from 1,
players by name), a spectator's place kept across a dropped connection, and tables everyone has abandoned.
On virtual time: the absence limit is measured on the server's own clock."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
import trio
import trio.testing
from hanabi.engine import Play
from hanabi.protocol.messages import (
    ActionRequest,
    AddBot,
    CreateTable,
    ErrorReply,
    GameOver,
    Games,
    GiveHost,
    Join,
    Joined,
    ListGames,
    ListTables,
    Spectate,
    Start,
    TableChanged,
    TableGone,
    Tables,
    ViewUpdate,
)
from hanabi.server import Server, serve
from hanabi.server.saved import read_game, read_games

from .conftest import Client, Connect, config_with, eventually, memory_client, settle
from .test_server_tables import table_of

pytestmark = pytest.mark.virtual_time


async def refusal(client: Client, request: object) -> str:
    await client.send(request)  # type: ignore[arg-type]
    return (await client.expect(ErrorReply)).message


@pytest.mark.parametrize("fast_config", [config_with(bot_delay=30.0)])  # the bot does not move meanwhile
async def test_refusals_count_seats_from_one_and_name_players(connect: Connect) -> None:
    alice, bob, carol = await connect("Alice"), await connect("Bob"), await connect("Carol")
    table = await table_of(alice, [bob], seats=3)  # Alice in the first seat, Bob in the second
    told = [
        await refusal(carol, Join(table=table, seat=1)),
        await refusal(bob, Join(table=table, seat=2)),
        await refusal(carol, Join(table=table, seat=3)),
        await refusal(alice, Start()),
        await refusal(bob, Start()),
        await refusal(bob, Spectate(table=table)),
    ]
    assert told == [
        "seat 2 is taken by Bob",
        "you already sit at this table, in seat 2: leave it first",
        "there is no seat 4: this table has seats 1 to 3",
        "seat 3 is empty: wait for a player or add a bot",
        "only the host can start a game; the host is Alice",
        "you sit at table 'Friday', in seat 2: leave it before watching",
    ]
    await alice.send(AddBot(seat=2))
    await alice.expect(TableChanged, where=lambda m: m.table.players[2] is not None)
    told = [await refusal(alice, GiveHost(seat=2)), await refusal(alice, AddBot(seat=1))]
    assert told == ["Bot Ada is a bot: only a human player can be host", "seat 2 is taken by Bob"]
    await alice.send(Start())
    view = (await alice.expect(ViewUpdate)).view
    waiting, seat = (bob, 1) if view.current != 1 else (alice, 0)
    own = (await bob.expect(ViewUpdate)).view.hands[1] if seat == 1 else view.hands[0]
    message = await refusal(waiting, ActionRequest(Play(own[0].order)))
    current = ("Alice", "Bob", "Bot Ada")[view.current]
    assert message == f"it is not your turn: {current} is to act"
    for text in told + [message]:
        assert not re.search(r"seat 0\b", text)


async def test_a_spectator_who_drops_is_watching_the_same_table_on_resume(connect: Connect) -> None:
    alice, bob, carol = await connect("Alice"), await connect("Bob"), await connect("Carol")
    table = await table_of(alice, [bob])
    await carol.send(Spectate(table=table))
    await carol.expect(Joined)
    await alice.send(Start())
    await carol.expect(ViewUpdate)
    await carol.stream.aclose()
    # Those at the table see one spectator fewer, then one more again.
    await alice.expect(TableChanged, where=lambda m: m.table.spectators == 0)
    again = await connect("Carol", hello=False)
    welcome = await again.hello("Carol", resume=carol.token)  # type: ignore[attr-defined]
    assert welcome.player == "Carol"
    joined = await again.expect(Joined)
    assert joined.table.id == table and joined.seat is None
    view = await again.expect(ViewUpdate)
    assert view.view.seat is None and all(cv.card is not None for hand in view.view.hands for cv in hand)
    await alice.expect(TableChanged, where=lambda m: m.table.spectators == 1)


ABANDON = config_with(abandon_after=0.4)


@pytest.mark.parametrize("fast_config", [ABANDON])
async def test_a_table_every_player_abandoned_is_closed_and_its_game_kept(
        connect: Connect, autojump_clock: trio.testing.MockClock) -> None:
    alice, bob, watcher, lobby = [await connect(n) for n in ("Alice", "Bob", "Watcher", "Lobby")]
    table = await table_of(alice, [bob])
    await watcher.send(Spectate(table=table))
    await watcher.expect(Joined)
    await alice.send(Start())
    await watcher.expect(ViewUpdate)
    await alice.stream.aclose()
    await settle(watcher)  # the server has seen her go ...
    autojump_clock.jump(0.2)  # ... and a while later Bob goes too
    await bob.stream.aclose()
    dropped = trio.current_time()
    # A spectator does not keep a table alive; the game stops as terminated and the table goes.
    over = await watcher.expect(GameOver)
    # Counted from when the last player went, not the first.
    assert trio.current_time() - dropped == pytest.approx(0.4), "the game ended before all were away 0.4 s"
    assert over.outcome.reason.value == "terminated" and "away" in over.outcome.detail
    told = await watcher.expect(TableGone)
    assert "closed" in told.reason and "away for 0.4 seconds" in told.reason
    await lobby.expect(TableGone, where=lambda m: m.table == table)
    await lobby.send(ListTables())
    assert (await lobby.expect(Tables)).tables == ()
    await lobby.send(ListGames())
    games = (await lobby.expect(Games)).games
    assert [(g.end.value, g.players) for g in games] == [("terminated", ("Alice", "Bob"))]
    # Back later, Alice finds herself in the lobby, free to sit elsewhere.
    back = await connect("Alice", resume=alice.token)  # type: ignore[attr-defined]
    # ... and is told why: the table closed while she was away.
    gone = await back.expect(TableGone)
    assert gone.table == table and "closed" in gone.reason and "away" in gone.reason
    await settle(back)
    assert not back.take(Joined)
    await back.send(Join(table=table))
    assert (await back.expect(ErrorReply)).code == "no_such_table"
    again = await connect("Alice", resume=alice.token)  # type: ignore[attr-defined]
    await settle(again)
    assert not again.take(TableGone)  # told once


@pytest.mark.parametrize("fast_config", [ABANDON])
async def test_a_player_back_in_time_keeps_the_table(connect: Connect, server: Server,
                                                   autojump_clock: trio.testing.MockClock) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    table = await table_of(alice, [bob])
    await alice.send(Start())
    await bob.expect(ViewUpdate)
    await alice.stream.aclose()
    await bob.stream.aclose()
    await settle()  # the server has seen them go
    autojump_clock.jump(0.25)
    back = await connect("Bob", resume=bob.token)  # type: ignore[attr-defined]
    await back.expect(Joined)
    autojump_clock.jump(0.6)  # past the limit counted from when both were away
    await settle(back)
    assert server.lobby.tables[table].running, "the table closed though Bob came back within the limit"
    # Bob leaves again: the clock starts afresh.
    await back.stream.aclose()
    left = trio.current_time()
    await settle()
    autojump_clock.jump(0.39)
    await settle()
    assert table in server.lobby.tables, "the table closed before Bob was away 0.4 s"
    await eventually(lambda: table not in server.lobby.tables, "the table to close once Bob is away 0.4 s")
    assert trio.current_time() - left == pytest.approx(0.4, abs=0.011)


@pytest.mark.parametrize("fast_config", [config_with(abandon_after=None)])
async def test_with_no_limit_an_abandoned_table_waits(connect: Connect, server: Server,
                                                    autojump_clock: trio.testing.MockClock) -> None:
    alice = await connect("Alice")
    table = await table_of(alice, [], seats=2)
    await alice.send(AddBot(seat=1))
    await alice.send(Start())
    await alice.expect(ViewUpdate)
    await alice.stream.aclose()
    await settle()
    autojump_clock.jump(24 * 3600)  # a day (the default limit is 15 minutes), in one step of the server's clock
    await settle()
    assert server.lobby.tables[table].running, "with no limit, a table nobody is at closed all the same"


async def test_a_restored_table_nobody_comes_back_to_is_closed(tmp_path: Path) -> None:
    db = str(tmp_path / "away.sqlite3")
    async with trio.open_nursery() as nursery:
        server = await nursery.start(functools.partial(serve, "127.0.0.1", 0, db,
                                                       config=config_with(bot_delay=30.0)))
        alice = await memory_client(server, nursery, "Alice")
        await alice.send(CreateTable(name="left behind", seats=2))
        await alice.expect(Joined)
        await alice.send(AddBot(seat=1))
        await alice.send(Start())
        game = (await alice.expect(ViewUpdate)).game
        await server.stop()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(functools.partial(serve, "127.0.0.1", 0, db,
                                                       config=config_with(bot_delay=30.0, abandon_after=0.3)))
        assert server.restored == 1
        restored = trio.current_time()
        await eventually(lambda: not server.lobby.tables, "the restored table nobody came back to to close")
        assert trio.current_time() - restored == pytest.approx(0.3, abs=0.011)
        stored = await server.store.read(read_game, game)
        assert stored is not None and stored.finished is not None
        assert [(g.id, g.end.value) for g in await server.store.read(read_games)] == [(game, "terminated")]
        nursery.cancel_scope.cancel()


async def test_a_resume_keeps_the_tokens_name_whatever_name_the_hello_gives(connect: Connect) -> None:
    alice = await connect("Alice")
    await alice.stream.aclose()
    back = await connect("Zed", resume=alice.token)  # type: ignore[attr-defined]
    assert back.player == "Alice"  # type: ignore[attr-defined]
