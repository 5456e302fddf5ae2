"""Fixes from a security review of the server: each test here fails without its fix.

One player in two seats at once (a redaction break), store errors that took the whole server down, a game
left unfinished by a kill at the wrong moment, floods of bad frames that skipped the rate limit, and smaller
protocol and wording faults.
"""

from __future__ import annotations

import contextlib
import sqlite3
import struct
from pathlib import Path

import msgpack
import pytest
import trio
import trio.testing
from hanabi.engine import GameConfig, Play, apply, legal_actions, new_game
from hanabi.protocol.messages import (
    ActionRequest,
    AddBot,
    CreateTable,
    ErrorReply,
    GameOver,
    Goodbye,
    Hello,
    Join,
    Joined,
    Leave,
    ListTables,
    RemoveBot,
    SeatStatus,
    Start,
    TableChanged,
    Tables,
    ViewUpdate,
    Welcome,
)
from hanabi.protocol.version import CLIENT_PROGRAM, PROTOCOL_VERSION
from hanabi.server import Server, ServerConfig, Store, serve
from hanabi.server.records import TableSettings
from hanabi.server.saved import read_game, read_games
from hanabi.server.store import StoreFailure

from .conftest import FAST, Client, Connect, config_with, eventually, settle
from .test_server_faults import last_view, started_game
from .test_server_tables import table_of

pytestmark = pytest.mark.virtual_time


async def _slow_store_writes(server: Server, monkeypatch: pytest.MonkeyPatch, seconds: float = 0.2) -> None:
    """Seat writes that take a while, as on a busy disk: the window the review's race needs."""
    real = server.store.set_seat

    async def slow(*args: object, **kwargs: object) -> None:
        await trio.sleep(seconds)
        await real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(server.store, "set_seat", slow)


async def test_one_player_cannot_take_seats_at_two_tables_at_once(connect: Connect, server: Server,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = await connect("Host1"), await connect("Host2")
    t1 = await table_of(first, [], seats=3)
    t2 = await table_of(second, [], seats=3)
    mallory = await connect("Mallory")
    player = server.lobby.players[next(k for k, p in server.lobby.players.items() if p.name == "Mallory")]
    await _slow_store_writes(server, monkeypatch)
    outcomes: list[str] = []

    async def join(table_id: int) -> None:
        try:
            await server.lobby.handle(player, Join(table=table_id, seat=1))
            outcomes.append("joined")
        except Exception as e:  # the refusal is what is looked at
            outcomes.append(getattr(e, "code", repr(e)))

    with trio.fail_after(3):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(join, t1)
            nursery.start_soon(join, t2)
    assert sorted(outcomes) == ["already_seated", "joined"]
    holding = [(t.id, i) for t in server.lobby.tables.values() for i, s in enumerate(t.seats)
               if s is not None and s.player is player]
    assert len(holding) == 1 and (player.table.id, player.seat) == holding[0]  # type: ignore[union-attr]
    # Every view Mallory was sent is of the one seat she holds.
    await settle(mallory)
    assert {m.view.seat for m in mallory.seen if isinstance(m, ViewUpdate)} <= {player.seat}


async def test_a_seat_whose_store_write_fails_is_given_back(connect: Connect, server: Server,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    host, guest = await connect("Host"), await connect("Guest")
    table_id = await table_of(host, [], seats=2)

    async def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk I/O error")

    monkeypatch.setattr(server.store, "set_seat", broken)
    await guest.send(Join(table=table_id, seat=1, id=5))
    err = await guest.expect(ErrorReply)
    assert err.id == 5
    table = server.lobby.tables[table_id]
    assert table.seats[1] is None
    assert not any(p.seat is not None for p in server.lobby.players.values() if p.name == "Guest")
    monkeypatch.undo()
    await guest.send(Join(table=table_id, seat=1))
    assert (await guest.expect(Joined)).seat == 1


async def test_a_replaced_connection_s_queued_requests_are_dropped(connect: Connect, server: Server,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    host = await connect("Host")
    table_id = await table_of(host, [], seats=3)
    old = await connect("Mallory")
    await _slow_store_writes(server, monkeypatch, 0.3)
    # The old connection's join is being handled while a create_table waits behind it; then a new
    # connection takes the player over. The queued create_table must not run for the player.
    await old.send(Join(table=table_id, seat=1))
    await old.send(CreateTable(name="second", seats=2))
    await settle()  # the join's slow write has begun, the create_table waits behind it
    new = await connect("Mallory", resume=old.token)  # type: ignore[attr-defined]
    await new.listen(0.5)  # the write's 0.3 s of the server's clock pass
    assert [t.name for t in server.lobby.tables.values()] == ["Friday"]


class _FailingDb:
    """A store connection whose next statements starting with ``prefix`` fail, as on a failing disk."""

    def __init__(self, real: sqlite3.Connection, prefix: str, times: int = 1) -> None:
        self.real, self.prefix, self.times = real, prefix, times

    def execute(self, sql: str, *args: object) -> object:
        if sql.startswith(self.prefix) and self.times > 0:
            self.times -= 1
            raise sqlite3.OperationalError("disk I/O error")
        return self.real.execute(sql, *args)

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)


@pytest.mark.parametrize("statement", ["BEGIN", "COMMIT"])
async def test_a_failed_commit_refuses_that_move_and_the_server_goes_on(connect: Connect, server: Server,
                                                                         statement: str) -> None:
    alice, bob = await started_game(connect)
    view = last_view(alice).view
    mover = alice if view.current == 0 else bob
    action = view.legal_actions()[0] if mover is alice else last_view(bob).view.legal_actions()[0]
    real = server.store._db
    assert real is not None
    server.store._db = _FailingDb(real, statement)  # type: ignore[assignment]
    await mover.send(ActionRequest(action, id=3))
    err = await mover.expect(ErrorReply)
    assert (err.code, err.id) == ("internal", 3) and "so it was not done" in err.message
    assert server.lobby.tables[next(iter(server.lobby.tables))].game.state.turn == view.turn  # type: ignore[union-attr]
    await mover.send(ActionRequest(action))
    after = await mover.expect(ViewUpdate)
    assert after.view.turn == view.turn + 1
    await alice.send(ListTables())
    await alice.expect(Tables)


async def test_a_game_whose_last_action_was_saved_but_not_its_end_is_finished_on_restart(tmp_path: Path) -> None:
    # The store as a kill -9 between the last action and the "finished" mark leaves it.
    db = str(tmp_path / "window.db")
    store = Store(db)
    store.open_sync()
    config = GameConfig(players=2)
    state = new_game(config, "window")
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        table_id = await store.create_table("W", TableSettings(GameConfig()), None, 0)
        for seat in (0, 1):
            await store.set_seat(table_id, seat, bot=True, name=f"Bot {seat}", key=None)
        game_id = await store.start_game(table_id, config, "window", ("Bot 0", "Bot 1"))
        seq = 0
        while not state.over:
            action = legal_actions(state)[-1]
            state = apply(state, action)
            await store.add_action(game_id, seq, action)
            seq += 1
        nursery.cancel_scope.cancel()
    store.close_sync()
    assert state.outcome is not None

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server: Server = await nursery.start(
                lambda task_status: serve("127.0.0.1", 0, db, config=FAST, task_status=task_status))
            assert server.restored == 0  # nothing is running any more
            stored = await server.store.read(read_game, game_id)
            assert stored is not None and stored.finished is not None
            listed = {g.id: g for g in await server.store.read(read_games)}
            assert listed[game_id].end == state.outcome.reason
            assert listed[game_id].score == state.outcome.score
            await server.stop()


def _frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


@pytest.mark.parametrize("fast_config", [config_with(rate=ServerConfig().rate, burst=ServerConfig().burst)])
@pytest.mark.parametrize("logged_in", [True, False])
async def test_floods_of_bad_frames_end_in_rate_limited_then_flood(connect: Connect, logged_in: bool) -> None:
    flooder = await connect("Flood", hello=logged_in)
    garbage = _frame(b"\xc1") * 50 + _frame(msgpack.packb({"v": PROTOCOL_VERSION, "t": "list_tables"})) * 50
    with contextlib.suppress(trio.BrokenResourceError):  # the server hangs up mid-flood
        await flooder.send_raw(garbage)
    limited = await flooder.expect(ErrorReply, where=lambda m: m.code == "rate_limited")
    assert "slow down" in limited.message
    assert (await flooder.expect(Goodbye)).reason == "flood"
    # Fewer replies than frames: once over the rate, frames are dropped unanswered.
    assert len([m for m in flooder.seen if isinstance(m, ErrorReply)]) < 60


async def test_a_refused_request_does_not_hand_over_the_host_role(connect: Connect, server: Server) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    table_id = await table_of(alice, [bob], seats=3)
    await alice.stream.aclose()  # the host is away: Bob may stand in, but only for a request that is carried out
    await bob.expect(SeatStatus, where=lambda m: not m.connected)
    await bob.send(RemoveBot(seat=2, id=4))
    assert (await bob.expect(ErrorReply)).code == "bad_field"
    assert server.lobby.tables[table_id].host == 0
    await bob.send(AddBot(seat=2))
    changed = await bob.expect(TableChanged, where=lambda m: m.table.players[2] is not None)
    assert changed.table.host == 1


async def test_a_frame_of_another_version_gets_goodbye_protocol_version(connect: Connect) -> None:
    alice = await connect("Alice")
    await alice.send_raw(_frame(msgpack.packb({"v": PROTOCOL_VERSION + 1, "t": "list_tables"})))
    bye = await alice.expect(Goodbye)
    assert bye.reason == "protocol_version" and str(PROTOCOL_VERSION + 1) in bye.message


async def test_the_version_mismatch_names_the_program_the_welcome_names(connect: Connect) -> None:
    alice = await connect("Alice")
    program = next(m for m in alice.seen if isinstance(m, Welcome)).program
    late = await connect("Late", hello=False)
    await late.send(Hello(protocol=PROTOCOL_VERSION + 1, program="future-client", name="Late"))
    bye = await late.expect(Goodbye)
    assert bye.reason == "protocol_version" and f"({program})" in bye.message


async def test_refusals_name_wire_types_not_python_classes(connect: Connect) -> None:
    alice = await connect("Alice")
    await alice.send(Hello(protocol=PROTOCOL_VERSION, program="again", name="Alice"))
    err = await alice.expect(ErrorReply)
    assert err.request == "hello" and "hello" in err.message and "Hello" not in err.message


async def test_leaving_mid_game_sends_everyone_the_final_view_with_game_over(connect: Connect) -> None:
    alice, bob = await started_game(connect)
    await bob.send(Leave())
    view = await alice.expect(ViewUpdate)
    assert view.view.outcome is not None and view.view.outcome.reason.value == "terminated"
    await alice.expect(GameOver)
    # The one who left is in the lobby: nothing more of that table's game reaches them.
    await settle(bob)
    assert not bob.take(GameOver) and not [m for m in bob.take(ViewUpdate) if m.view.outcome is not None]


async def _stored_players(server: Server) -> int:
    return int(await server.store._do(lambda db: db.execute("SELECT COUNT(*) FROM players").fetchone()[0]))


@pytest.mark.parametrize("fast_config", [config_with(max_players=6)])
async def test_logins_without_a_token_do_not_grow_the_players_without_bound(connect: Connect,
                                                                            server: Server) -> None:
    host, guest = await connect("Host"), await connect("Guest")
    await table_of(host, [guest], seats=2)
    await guest.stream.aclose()  # offline but seated: must be kept
    for i in range(20):
        drifter = await connect(f"Drifter{i}")
        await drifter.stream.aclose()
        await settle()  # the server has seen the drifter go
    assert len(server.lobby.players) <= 6
    assert await _stored_players(server) <= 6
    names = {p.name for p in server.lobby.players.values()}
    assert {"Host", "Guest", "Drifter19"} <= names
    again = await connect("Guest", resume=guest.token)  # type: ignore[attr-defined]
    assert (await again.expect(Joined)).seat == 1


@pytest.mark.parametrize("fast_config", [config_with(forget_after=0.2)])
async def test_players_offline_and_at_no_table_are_forgotten_after_a_while(
        connect: Connect, server: Server, autojump_clock: trio.testing.MockClock) -> None:
    gone = await connect("Gone")
    await gone.stream.aclose()
    stays = await connect("Stays")
    await settle(stays)
    autojump_clock.jump(0.9)  # offline past forget_after, but the sweep runs every second at the least
    await settle(stays)
    assert {p.name for p in server.lobby.players.values()} == {"Gone", "Stays"}, "forgotten before the sweep"
    autojump_clock.jump(0.1)
    await settle(stays)
    assert {p.name for p in server.lobby.players.values()} == {"Stays"}
    assert await _stored_players(server) == 1
    back = await connect("Gone", hello=False)
    await back.hello("Gone", resume=gone.token)  # type: ignore[attr-defined]
    assert (await back.expect(ErrorReply)).code == "bad_resume"
    assert stays.player == "Stays"  # type: ignore[attr-defined]


async def test_a_network_bot_back_while_it_is_being_forgotten_stays_one_in_the_store(
        connect: Connect, server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    async def log_in(resume: str | None = None) -> tuple[Client, Welcome]:
        client = await connect("Robo", hello=False)
        await client.send(Hello(PROTOCOL_VERSION, CLIENT_PROGRAM, "Robo", resume=resume, network_bot=True))
        return client, await client.expect(Welcome)

    client, first = await log_in()
    player = next(p for p in server.lobby.players.values() if p.name == "Robo")
    await client.stream.aclose()
    await eventually(lambda: player.conn is None, "the server to see the network bot's connection end")
    forget = server.store.forget_players

    async def forget_while_it_comes_back(keys: list[str]) -> None:
        await forget(keys)
        await log_in(first.resume)  # back (a network bot again) while the lobby was forgetting it

    monkeypatch.setattr(server.store, "forget_players", forget_while_it_comes_back)
    assert await server.lobby.forget_idle(keep=0) == 1
    assert server.lobby.players[player.key] is player and player.network_bot
    stored = await server.store._do(lambda db: db.execute("SELECT token_hash FROM network_bots").fetchall())
    assert stored == [(player.key,)]  # so a restart still knows its seat plays as a bot


def test_the_command_line_refuses_a_connection_cap_below_one(capsys: pytest.CaptureFixture[str]) -> None:
    from hanabi.server.cli import main

    assert main(["--max-connections", "0", "--db", ":memory:"]) == 2
    assert "--max-connections 0" in capsys.readouterr().err


async def test_a_request_queued_at_a_table_by_a_replaced_connection_is_not_carried_out(
        connect: Connect, server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    host, busy = await connect("Host"), await connect("Busy")
    table_id = await table_of(host, [], seats=3)
    old = await connect("Mallory")
    await _slow_store_writes(server, monkeypatch, 0.3)
    await busy.send(Join(table=table_id, seat=2))  # keeps the table's task busy for a while
    await settle()
    await old.send(Join(table=table_id, seat=1))  # queued at the table behind it
    await settle()
    new = await connect("Mallory", resume=old.token)  # type: ignore[attr-defined]
    await busy.expect(Joined)
    await new.listen(0.5)  # the queued join's slow write would be done by now
    assert server.lobby.tables[table_id].seats[1] is None
    assert not [m for m in new.seen if isinstance(m, Joined)]


async def test_a_login_the_store_cannot_save_is_refused_and_the_server_goes_on(
        connect: Connect, server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*args: object) -> None:
        raise StoreFailure("disk I/O error")

    monkeypatch.setattr(server.store, "add_player", broken)
    unlucky = await connect("Unlucky", hello=False)
    await unlucky.send(Hello(protocol=PROTOCOL_VERSION, program="test-client", name="Unlucky"))
    err = await unlucky.expect(ErrorReply)
    assert (err.code, err.request) == ("internal", "hello") and "connect again" in err.message
    await unlucky.expect_closed()
    monkeypatch.undo()
    assert (await connect("Lucky")).player == "Lucky"  # type: ignore[attr-defined]


async def test_a_new_table_its_creator_could_not_sit_at_is_not_left_listed(
        connect: Connect, server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise StoreFailure("disk I/O error")

    alice = await connect("Alice")
    monkeypatch.setattr(server.store, "set_seat", broken)
    await alice.send(CreateTable(name="Ghost", id=8))
    assert (await alice.expect(ErrorReply)).id == 8
    monkeypatch.undo()
    await alice.send(ListTables())
    assert (await alice.expect(Tables)).tables == ()
    assert not server.lobby.tables


async def test_a_game_whose_end_cannot_be_saved_still_ends_for_everyone(
        connect: Connect, server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*args: object) -> None:
        raise StoreFailure("disk I/O error")

    alice = await connect("Alice")
    await alice.send(CreateTable(name="t", seats=2))
    await alice.expect(Joined)
    await alice.send(AddBot(seat=1))
    monkeypatch.setattr(server.store, "finish_game", broken)
    await alice.send(Start())
    with trio.fail_after(20):
        while True:
            update = await alice.expect(ViewUpdate, timeout=10)
            if update.view.outcome is not None:
                break
            if update.view.current == 0:
                # Blind plays: three strikes end the game within a few turns.
                await alice.send(ActionRequest(Play(update.view.hands[0][0].order)))
    over = await alice.expect(GameOver)
    assert over.outcome.score == update.view.outcome.score
