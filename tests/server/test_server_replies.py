"""Replies and limits: request ids echoed, long lists cut to the protocol's limit, rearrangements bounded,
encoding failures contained, and views sent as history deltas per connection."""

from __future__ import annotations

import logging
import socket
import struct

import pytest
from hanabi.engine import Clue, GameConfig
from hanabi.protocol.messages import (
    LIST_MAX,
    ActionRequest,
    Chat,
    CreateTable,
    ErrorReply,
    Games,
    GetReplay,
    Join,
    Joined,
    ListGames,
    ListTables,
    Ping,
    Pong,
    RearrangeRequest,
    ReplayFile,
    SeatStatus,
    Spectate,
    TableChanged,
    Tables,
    ViewUpdate,
)
from hanabi.server import Server

from .conftest import Client, Connect, eventually, settle
from .test_server_faults import last_view, started_game
from .test_server_tables import table_of

pytestmark = pytest.mark.virtual_time


async def pong_for(client: Client, request_id: int) -> Pong:
    """Ping the server with ``request_id`` and return its pong (the test client keeps pongs out of its inbox)."""
    await client.send(Ping(n=request_id, id=request_id))
    await client.flush()  # the answer to the ping above comes before the flush's own
    return next(m for m in client.seen if isinstance(m, Pong) and m.n == request_id)


async def test_every_direct_reply_echoes_the_request_id(connect: Connect, server: Server) -> None:
    alice, bob, carol = await connect("Alice"), await connect("Bob"), await connect("Carol")
    assert (await pong_for(alice, 11)).id == 11
    await alice.send(ListTables(id=12))
    assert (await alice.expect(Tables)).id == 12
    await alice.send(CreateTable(name="Ids", seats=2, id=13))
    joined = await alice.expect(Joined)
    assert joined.id == 13
    await bob.send(Join(table=joined.table.id, id=14))
    assert (await bob.expect(Joined)).id == 14
    await carol.send(Spectate(table=joined.table.id, id=15))
    assert (await carol.expect(Joined)).id == 15
    # A finished game to list and fetch.
    store = server.lobby.store
    game = await store.start_game(joined.table.id, GameConfig(players=2), "s33d", ("Alice", "Bob"))
    await store.finish_game(game, 0, "terminated")
    await alice.send(ListGames(id=16))
    games = await alice.expect(Games)
    assert games.id == 16 and [g.id for g in games.games] == [game] and games.total is None
    await alice.send(GetReplay(game=game, id=17))
    assert (await alice.expect(ReplayFile)).id == 17
    # Messages the server sends on its own carry none.
    assert all(m.id is None for m in alice.seen if isinstance(m, TableChanged))


async def test_more_tables_than_a_list_holds_are_cut_with_the_total(connect: Connect) -> None:
    hosts = [await connect(f"Host {i}") for i in range(LIST_MAX + 5)]
    for i, host in enumerate(hosts):
        await host.send(CreateTable(name=f"T{i}", seats=2 if i % 2 else 3))
        await host.expect(Joined)
    guest = await connect("Guest")
    await guest.send(ListTables())
    tables = await guest.expect(Tables)
    assert len(tables.tables) == LIST_MAX and tables.total == LIST_MAX + 5
    await guest.send(ListGames())
    assert (await guest.expect(Games)).total is None  # no game finished: nothing left out


async def test_more_finished_games_than_a_list_holds_are_cut_with_the_total(connect: Connect,
                                                                          server: Server) -> None:
    alice = await connect("Alice")
    table = await table_of(alice, [], seats=2)
    store = server.lobby.store
    for i in range(LIST_MAX + 3):
        game = await store.start_game(table, GameConfig(players=2), f"seed{i}", ("Alice", "Bob"))
        await store.finish_game(game, i % 26, "final_round")
    await alice.send(ListGames(id=1))
    games = await alice.expect(Games)
    assert len(games.games) == LIST_MAX and games.total == LIST_MAX + 3
    assert games.games[0].id > games.games[-1].id  # newest first


async def test_rearranging_is_bounded_per_seat_and_turn(connect: Connect, server: Server) -> None:
    alice, bob = await started_game(connect)
    view = last_view(alice).view
    mover, waiter = (alice, bob) if view.current == 0 else (bob, alice)
    seat = 1 - view.current
    limit = server.config.rearranges_per_turn
    for i in range(limit):
        hand = tuple(cv.order for cv in last_view(waiter).view.hands[seat])
        await waiter.send(RearrangeRequest(hand=hand[1:] + hand[:1], id=i))
        await waiter.expect(ViewUpdate, where=lambda m, n=i: len(m.view.events) == n + 1)
    hand = tuple(cv.order for cv in last_view(waiter).view.hands[seat])
    await waiter.send(RearrangeRequest(hand=hand[::-1], id=99))
    err = await waiter.expect(ErrorReply)
    assert (err.code, err.id) == ("rate_limited", 99) and f"{limit} times this turn" in err.message
    # The next turn opens the limit again.
    await mover.send(ActionRequest(last_view(mover).view.legal_actions()[0]))
    await waiter.expect(ViewUpdate, where=lambda m: m.view.turn == 1)
    await waiter.send(RearrangeRequest(hand=hand[::-1]))
    seen = await waiter.expect(ViewUpdate)
    assert tuple(cv.order for cv in seen.view.hands[seat]) == hand[::-1]


async def test_a_message_that_cannot_be_encoded_costs_an_error_not_the_server(
        connect: Connect, server: Server, caplog: pytest.LogCaptureFixture) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    table_id = await table_of(alice, [bob], seats=3)
    server.lobby.tables[table_id].name = "x" * 300  # a bug's result: longer than the protocol carries
    with caplog.at_level(logging.ERROR):
        await bob.send(Chat(text="hello?"))  # refused (between-games chat is allowed; the table is fine)
        await alice.send(Join(table=table_id))  # refused: already seated; no table_changed needed
        await alice.send(ListTables(id=3))  # the table list holds the bad name: its encoding fails
        err = await alice.expect(ErrorReply, where=lambda e: e.code == "internal")
    assert "tables message" in err.message
    assert any("could not encode a tables message" in r.getMessage() for r in caplog.records)
    # The server, the table and both connections go on.
    assert (await pong_for(alice, 2)).id == 2
    assert (await pong_for(bob, 3)).id == 3


async def test_views_carry_only_new_events_and_a_resumed_connection_gets_the_whole_history(
        connect: Connect) -> None:
    alice, bob = await started_game(connect)
    for turn in range(4):
        mover = alice if last_view(alice).view.current == 0 else bob
        # Clues only: three plays at random could strike out before the fourth turn.
        clue = next(a for a in last_view(mover).view.legal_actions() if isinstance(a, Clue))
        await mover.send(ActionRequest(clue))
        for c in (alice, bob):
            await c.expect(ViewUpdate, where=lambda m, t=turn: m.view.turn == t + 1)
    await settle(alice)
    views = [t for t in alice.trees if t["t"] == "view"]
    # The start (no event), then one event per view: each says how many came before it.
    assert [v["since"] for v in views] == [0, 0, 1, 2, 3]
    assert all(sum(len(p) for p in v["view"]["events"]) <= 1 for v in views)
    assert len(last_view(alice).view.events) == 4  # yet the decoded view holds them all
    back = await connect("Alice", resume=alice.token)  # type: ignore[attr-defined]
    first = await back.expect(ViewUpdate)
    tree = next(t for t in back.trees if t["t"] == "view")
    assert tree["since"] == 0 and sum(len(p) for p in tree["view"]["events"]) == 4
    assert first.view.events == last_view(alice).view.events


@pytest.mark.real_time  # a reset is TCP's own
async def test_a_connection_reset_by_the_client_is_a_disconnection_not_a_failure(
        tcp_connect: Connect, caplog: pytest.LogCaptureFixture) -> None:
    alice, bob = await tcp_connect("Alice"), await tcp_connect("Bob")
    await table_of(alice, [bob])
    with caplog.at_level(logging.INFO):
        # Closing with SO_LINGER 0 sends a reset, as when a client dies with data unread.
        sock = bob.stream.socket  # type: ignore[attr-defined]
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        await bob.stream.aclose()
        status = await alice.expect(SeatStatus, where=lambda m: not m.connected)
        # The server logs the departure just after telling the table.
        await eventually(lambda: any("disconnected" in r.getMessage() for r in caplog.records),
                         "the server to log Bob's departure")
    assert status.seat == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("disconnected" in r.getMessage() for r in caplog.records)
