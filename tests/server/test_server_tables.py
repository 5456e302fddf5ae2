"""Lobby and tables over in-memory streams: handshake, seats, host powers, bots, chat, spectators, whole games."""

from __future__ import annotations

import json

import pytest
import trio
from hanabi.engine import ChatPolicy, Variant
from hanabi.engine.bots.hgroup import ConventionBot
from hanabi.protocol.messages import (
    ActionRequest,
    AddBot,
    Chat,
    CreateTable,
    ErrorReply,
    GameEvent,
    GameOver,
    Games,
    GameStarted,
    GetReplay,
    GiveHost,
    Goodbye,
    Hello,
    Join,
    Joined,
    Leave,
    ListGames,
    ListTables,
    RemoveBot,
    ReplayFile,
    SeatStatus,
    Spectate,
    Start,
    TableChanged,
    TableGone,
    Tables,
    ViewUpdate,
)
from hanabi.server import Server

from .conftest import Client, Connect, read_any, settle

pytestmark = pytest.mark.virtual_time


async def table_of(host: Client, guests: list[Client], seats: int | None = None, **options: object) -> int:
    """``host`` creates a table, the guests join it in order; returns its id."""
    await host.send(CreateTable(name="Friday", seats=seats or 1 + len(guests), **options))  # type: ignore[arg-type]
    joined = await host.expect(Joined)
    assert joined.seat == 0 and joined.table.host == 0
    for guest in guests:
        await guest.send(Join(table=joined.table.id))
        await guest.expect(Joined)
    return joined.table.id


async def play_out(clients: dict[int, Client], game_timeout: float = 120.0) -> GameOver:
    """Every seat lets the house bot choose from its view on its turn until the game ends; returns the game_over.
    ``game_timeout`` only stops a hung test: a game takes a few seconds, more on a busy machine.

    One bot per seat for the whole game, as the server keeps its own, without replaying the game's history from the
    start at every turn. The house bot's conventions without its endgame look-ahead (``endgame.search``, which
    tests/bots measures): these tests need a whole game of legal moves, and at two seats the look-ahead was about
    two thirds of the CPU of playing one out."""
    bots = {seat: ConventionBot(search=False) for seat in clients}
    latest = {seat: next((m.view for m in reversed(client.seen) if isinstance(m, ViewUpdate)), None)
              for seat, client in clients.items()}
    acted: dict[int, int] = {}  # seat -> the turn it last acted on
    with trio.move_on_after(game_timeout):
        while True:
            for seat, client in clients.items():
                overs = client.take(GameOver)
                if overs:
                    return overs[0]
                views = client.take(ViewUpdate)
                if views:
                    latest[seat] = views[-1].view
                view = latest[seat]
                if view is not None and not view.over and view.current == seat and acted.get(seat) != view.turn:
                    acted[seat] = view.turn
                    await client.send(ActionRequest(bots[seat].choose(view)))
            await read_any(clients.values())  # the next view (or the end) for any seat
    # A hung game says where it stood, so that a failure on a busy machine can be understood from its log.
    stood = {seat: (None if v is None else (v.turn, v.current), acted.get(seat),
                    [type(m).__name__ for m in clients[seat].seen[-6:]]) for seat, v in latest.items()}
    raise AssertionError(f"the game did not end in {game_timeout} s; seat: (turn, current), acted, last heard: {stood}")


async def test_handshake_gives_a_token(connect: Connect) -> None:
    a = await connect("Alice")
    b = await connect("Bob")
    assert a.player == "Alice" and b.player == "Bob"  # type: ignore[attr-defined]
    assert a.token != b.token and len(a.token) >= 20  # type: ignore[attr-defined]


async def test_another_protocol_version_is_told_both_versions(connect: Connect) -> None:
    c = await connect("Old", hello=False)
    await c.send(Hello(protocol=99, program="future-client 9", name="Old"))
    bye = await c.expect(Goodbye)
    assert bye.reason == "protocol_version" and "1" in bye.message and "99" in bye.message
    await c.expect_closed()


async def test_requests_before_hello_are_refused(connect: Connect) -> None:
    c = await connect("Eager", hello=False)
    await c.send(ListTables(id=7))
    err = await c.expect(ErrorReply)
    assert (err.code, err.request, err.id) == ("not_logged_in", "list_tables", 7)
    await c.hello("Eager")  # still allowed afterwards


async def test_create_join_start_and_play_a_whole_game_then_again(connect: Connect) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    lobby = await connect("Watcher")
    table = await table_of(alice, [bob], variant=Variant.SIX_SUITS)
    changed = await lobby.expect(TableChanged, where=lambda m: m.table.players[1] is not None)
    assert [p.name for p in changed.table.players if p] == ["Alice", "Bob"]
    await bob.send(Start(id=3))
    err = await bob.expect(ErrorReply)
    assert (err.code, err.id) == ("not_host", 3)
    await alice.send(Start())
    started = await alice.expect(GameStarted)
    assert started.table == table
    first = await alice.expect(ViewUpdate)
    assert first.view.seat == 0 and all(cv.card is None for cv in first.view.hands[0])
    assert all(cv.card is not None for cv in first.view.hands[1])
    over = await play_out({0: alice, 1: bob})
    assert len(over.deck) == 60 and over.seed
    replay = await bob.expect(ReplayFile)
    assert json.loads(replay.json)["players"] == ["Alice", "Bob"]
    assert bob.take(GameEvent), "every move comes with its public event"
    # Play again: the same seats, a new game.
    await alice.send(Start())
    again = await bob.expect(GameStarted, where=lambda m: m.game != started.game)
    assert again.game != started.game


async def test_bots_fill_seats_and_play_by_themselves(connect: Connect) -> None:
    alice = await connect("Alice")
    await alice.send(CreateTable(name="solo", seats=3))
    await alice.expect(Joined)
    await alice.send(Start())
    assert (await alice.expect(ErrorReply)).code == "not_ready"
    await alice.send(AddBot(seat=1))
    await alice.send(AddBot(seat=2))
    await alice.send(RemoveBot(seat=2))
    await alice.send(AddBot(seat=2))
    await alice.send(AddBot(seat=2))
    assert (await alice.expect(ErrorReply)).code == "seat_taken"
    info = await alice.expect(TableChanged, where=lambda m: all(m.table.players))
    assert all(p.bot for p in info.table.players[1:] if p)
    await alice.send(Start())
    await alice.expect(GameStarted)
    over = await play_out({0: alice})
    assert over.outcome.max_score == 25


async def test_host_can_hand_the_role_on_and_leaving_closes_an_empty_table(connect: Connect) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    table = await table_of(alice, [bob])
    await alice.send(GiveHost(seat=1))
    changed = await bob.expect(TableChanged, where=lambda m: m.table.host == 1)
    assert changed.table.id == table
    await alice.send(AddBot(seat=1))
    assert (await alice.expect(ErrorReply)).code == "not_host"
    await bob.send(Leave())
    changed = await alice.expect(TableChanged, where=lambda m: m.table.players[1] is None)
    assert changed.table.host == 0  # the host left: the role passes to the human still seated
    await alice.send(Leave())
    await alice.expect(TableGone)
    await alice.send(ListTables())
    assert (await alice.expect(Tables)).tables == ()


async def test_seats_and_passwords_are_checked(connect: Connect) -> None:
    alice, bob, carol = await connect("Alice"), await connect("Bob"), await connect("Carol")
    await alice.send(CreateTable(name="private", seats=2, password="hunter2"))
    table = (await alice.expect(Joined)).table
    assert table.has_password
    await bob.send(Join(table=table.id, seat=1))
    assert (await bob.expect(ErrorReply)).code == "wrong_password"
    await bob.send(Join(table=table.id, seat=1, password="nope"))
    assert (await bob.expect(ErrorReply)).code == "wrong_password"
    await bob.send(Spectate(table=table.id))
    assert (await bob.expect(ErrorReply)).code == "wrong_password"
    await bob.send(Join(table=table.id, seat=0, password="hunter2"))
    assert (await bob.expect(ErrorReply)).code == "seat_taken"
    await bob.send(Join(table=999))
    assert (await bob.expect(ErrorReply)).code == "no_such_table"
    await bob.send(Join(table=table.id, password="hunter2"))
    assert (await bob.expect(Joined)).seat == 1
    await carol.send(Join(table=table.id, password="hunter2"))
    assert (await carol.expect(ErrorReply)).code == "table_full"
    await bob.send(CreateTable(name="second"))
    assert (await bob.expect(ErrorReply)).code == "already_seated"


async def test_a_spectator_moving_to_a_table_that_refuses_them_watches_where_they_were(connect: Connect,
                                                                                        server: Server) -> None:
    alice, bob, carol, eve = await connect("Alice"), await connect("Bob"), await connect("Carol"), await connect("Eve")
    watched = await table_of(alice, [], seats=2, chat=ChatPolicy.ALWAYS)
    full = await table_of(bob, [carol])
    await eve.send(Spectate(table=watched))
    await eve.expect(Joined)
    await eve.send(Join(table=full))
    assert (await eve.expect(ErrorReply)).code == "table_full"
    player = next(p for p in server.lobby.players.values() if p.name == "Eve")
    assert player.table is server.lobby.tables[watched] and player in server.lobby.tables[watched].spectators
    await alice.send(Chat(text="still there?"))
    assert (await eve.expect(Chat)).text == "still there?"
    await eve.send(Spectate(table=full))  # a move that works leaves the table she watched
    await eve.expect(Joined, where=lambda m: m.table.id == full)
    assert player not in server.lobby.tables[watched].spectators and player.table is server.lobby.tables[full]


async def test_chat_follows_the_table_policy(connect: Connect) -> None:
    alice, bob, eve = await connect("Alice"), await connect("Bob"), await connect("Eve")
    table = await table_of(alice, [bob], chat=ChatPolicy.BETWEEN_GAMES)
    await eve.send(Spectate(table=table))
    await eve.expect(Joined)
    await alice.send(Chat(text="ready?"))
    heard = await bob.expect(Chat)
    assert (heard.sender, heard.text, heard.table) == ("Alice", "ready?", table)
    assert (await eve.expect(Chat)).text == "ready?"
    await alice.send(Start())
    await bob.expect(GameStarted)
    await bob.send(Chat(text="I have the red 5"))
    assert (await bob.expect(ErrorReply)).code == "chat_disabled"
    await settle(bob)
    assert not bob.take(Chat)
    lobby = await connect("Lonely")
    await lobby.send(Chat(text="anyone?"))
    assert (await lobby.expect(ErrorReply)).code == "not_seated"


async def test_chat_always_but_not_for_spectators_mid_game_and_off(connect: Connect) -> None:
    alice, bob, eve = await connect("Alice"), await connect("Bob"), await connect("Eve")
    table = await table_of(alice, [bob], chat=ChatPolicy.ALWAYS)
    await eve.send(Spectate(table=table))
    await eve.expect(Joined)
    await alice.send(Start())
    await eve.expect(GameStarted)
    await bob.send(Chat(text="good luck"))
    assert (await alice.expect(Chat)).text == "good luck"
    await eve.send(Chat(text="Bob, play your slot 2!"))
    assert (await eve.expect(ErrorReply)).code == "chat_disabled"
    carol, dan = await connect("Carol"), await connect("Dan")
    await table_of(carol, [dan], chat=ChatPolicy.OFF)
    await dan.send(Chat(text="hello?"))
    assert (await dan.expect(ErrorReply)).code == "chat_disabled"


async def test_spectators_see_every_hand_and_cannot_act(connect: Connect) -> None:
    alice, bob, eve = await connect("Alice"), await connect("Bob"), await connect("Eve")
    table = await table_of(alice, [bob])
    await alice.send(Start())
    await alice.expect(GameStarted)
    await eve.send(Spectate(table=table))
    joined = await eve.expect(Joined)
    assert joined.seat is None
    view = (await eve.expect(ViewUpdate)).view
    assert view.seat is None and all(cv.card is not None for hand in view.hands for cv in hand)
    await eve.send(ActionRequest(view.legal_actions()[0]))
    assert (await eve.expect(ErrorReply)).code == "not_seated"
    await alice.expect(TableChanged, where=lambda m: m.table.spectators == 1)
    alice.take(TableChanged)
    await eve.send(Leave())
    changed = await alice.expect(TableChanged, where=lambda m: m.table.spectators == 0)
    assert changed.table.running


async def test_finished_games_are_listed_and_replayed_but_running_ones_are_not(connect: Connect) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    await table_of(alice, [bob])
    await alice.send(Start())
    game = (await alice.expect(GameStarted)).game
    await bob.send(GetReplay(game=game))
    assert (await bob.expect(ErrorReply)).code == "no_such_game"
    await play_out({0: alice, 1: bob})
    await bob.send(ListGames())
    games = (await bob.expect(Games)).games
    assert [g.id for g in games] == [game] and games[0].players == ("Alice", "Bob")
    bob.take(ReplayFile)
    await bob.send(GetReplay(game=game, id=5))
    replay = await bob.expect(ReplayFile)
    assert replay.id is None or replay.id == 5
    assert len(json.loads(replay.json)["deck"]) == 50
    await bob.send(GetReplay(game=424242))
    assert (await bob.expect(ErrorReply)).code == "no_such_game"


async def test_leaving_mid_game_ends_it_for_everyone(connect: Connect) -> None:
    alice, bob, carol = await connect("Alice"), await connect("Bob"), await connect("Carol")
    await table_of(alice, [bob, carol])
    await alice.send(Start())
    await alice.expect(GameStarted)
    await carol.send(Leave())
    over = await alice.expect(GameOver)
    assert over.outcome.reason.value == "terminated" and "Carol" in over.outcome.detail
    status = await bob.expect(TableChanged, where=lambda m: m.table.players[2] is None)
    assert not status.table.running


async def test_seat_status_tells_the_table_who_dropped(connect: Connect) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    await table_of(alice, [bob])
    await bob.stream.aclose()
    status = await alice.expect(SeatStatus)
    assert (status.seat, status.connected) == (1, False)


async def test_when_the_host_is_away_a_seated_player_takes_the_role(connect: Connect) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    await table_of(alice, [bob])
    await alice.stream.aclose()
    await bob.expect(SeatStatus, where=lambda m: not m.connected)
    await bob.send(Start())
    await bob.expect(GameStarted)
    changed = await bob.expect(TableChanged, where=lambda m: m.table.running)
    assert changed.table.host == 1
