"""Timed tables, pause and pre-moves at the server, on virtual time over in-memory streams: the server runs in
the test's Trio run, so its clock is the test's, and a bank is measured to the millisecond (a restart after
kill -9 runs in real time, over TCP)."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest
import trio
import trio.testing
from hanabi.engine import (
    Clue,
    Discard,
    EndReason,
    GameConfig,
    Play,
    PlayerView,
    apply,
    legal_actions,
    new_game,
)
from hanabi.protocol.messages import (
    ActionRequest,
    AddBot,
    CreateTable,
    ErrorReply,
    GameClock,
    GameOver,
    Join,
    Joined,
    PauseRequest,
    PreMoveKind,
    Queued,
    QueueMove,
    ReplayFile,
    Start,
    ViewUpdate,
)
from hanabi.server import Server, Store, serve
from hanabi.server.records import TableSettings
from hanabi.server.saved import read_games
from hanabi.server.store import token_hash

from .conftest import FAST, Client, Connect, config_with, settle
from .test_server_tables import table_of
from .test_server_tcp import _client, _start_server_process, kill_9

WAIT = 10.0  # a bound of the server's time that stops a hung test (on virtual time it costs nothing)

pytestmark = pytest.mark.virtual_time


async def _two(connect: Connect, **options: object) -> tuple[dict[int, Client], dict[int, PlayerView]]:
    """Alice (seat 0) and Bob (seat 1) at a started table with ``options``: their clients and first views."""
    alice, bob = await connect("Alice"), await connect("Bob")
    await table_of(alice, [bob], **options)
    await alice.send(Start())
    return {0: alice, 1: bob}, {0: (await alice.expect(ViewUpdate)).view, 1: (await bob.expect(ViewUpdate)).view}


async def _views(clients: dict[int, Client], turn: int) -> dict[int, PlayerView]:
    return {s: (await c.expect(ViewUpdate, WAIT, lambda m: m.view.turn == turn)).view for s, c in clients.items()}


def _own_play(view: PlayerView, seat: int) -> Play:
    return Play(view.hands[seat][0].order)


async def test_a_timed_game_shows_its_clocks_and_adds_the_bonus_after_a_move(
        connect: Connect, autojump_clock: trio.testing.MockClock) -> None:
    clients, views = await _two(connect, timed=True, time_base=600, time_per_turn=7)
    current = views[0].current
    start = await clients[0].expect(GameClock, WAIT)
    assert start.remaining == (600_000, 600_000) and start.running == current and not start.paused
    autojump_clock.jump(2.5)  # the player to act thinks for two and a half seconds
    await clients[current].send(ActionRequest(_own_play(views[current], current)))
    after = await clients[1 - current].expect(GameClock, WAIT, lambda m: m.running == 1 - current)
    # The mover's bank lost the 2.5 s the move took and gained the 7 seconds' bonus; the other's has not run.
    assert after.remaining[current] == 600_000 - 2_500 + 7_000 and after.remaining[1 - current] == 600_000


async def test_an_untimed_game_has_no_clocks_and_is_not_paused(connect: Connect) -> None:
    clients, views = await _two(connect)
    clock = await clients[0].expect(GameClock, WAIT)
    assert clock.remaining == () and clock.running is None and not clock.paused
    # Nothing of it changes with a move, so a move sends none (only a pause or its end would).
    current = views[0].current
    await clients[current].send(ActionRequest(_own_play(views[current], current)))
    await _views(clients, 1)
    await settle(clients[0])
    assert clients[0].take(GameClock) == []


async def test_the_player_to_act_running_out_of_time_loses_the_game_for_the_table(connect: Connect) -> None:
    clients, views = await _two(connect, timed=True, time_base=1, time_per_turn=0)
    started = trio.current_time()
    over = await clients[0].expect(GameOver, WAIT)
    assert trio.current_time() - started == pytest.approx(1.0), "the game ended before the 1 s bank was empty"
    assert over.outcome.reason is EndReason.TIMEOUT and over.outcome.score == 0
    loser = ("Alice", "Bob")[views[0].current]
    assert over.outcome.detail.startswith(f"{loser} ran out of time")
    final = await clients[1].expect(GameClock, WAIT, lambda m: m.running is None)
    assert final.remaining[views[0].current] == 0
    # The replay everyone gets is hanab.live's: the timers in its options, the timeout as end condition 3.
    exported = json.loads((await clients[0].expect(ReplayFile, WAIT)).json)
    assert exported["options"] | {"timed": True, "timeBase": 1, "timePerTurn": 0} == exported["options"]
    assert exported["actions"] == [{"type": 4, "target": views[0].current, "value": 3}]


async def test_a_paused_game_refuses_moves_stops_the_clock_and_goes_on_when_resumed(
        connect: Connect, autojump_clock: trio.testing.MockClock) -> None:
    clients, views = await _two(connect, timed=True, time_base=2, time_per_turn=0)
    current = views[0].current
    autojump_clock.jump(0.5)
    await clients[1].send(PauseRequest(True))
    paused = await clients[0].expect(GameClock, WAIT, lambda m: m.paused)
    assert paused.note == "Bob paused the game" and paused.running is None
    assert paused.remaining[current] == 1_500
    await clients[current].send(ActionRequest(_own_play(views[current], current)))
    refused = await clients[current].expect(ErrorReply, WAIT)
    assert refused.code == "game_paused" and "Bob paused the game" in refused.message
    await clients[0].send(PauseRequest(True))
    assert "already paused" in (await clients[0].expect(ErrorReply, WAIT)).message
    # Paused, the 2-second bank does not run out; the same bank is there after 50 s (one jump, in which the
    # clients read nothing: within the server's idle timeout).
    autojump_clock.jump(50)
    await settle(*clients.values())
    assert not clients[0].take(GameOver) and not clients[1].take(GameOver), "the bank ran out while paused"
    clients[1].inbox.clear()  # the clocks from before the pause: the start's would match the wait below
    await clients[0].send(PauseRequest(False))
    resumed = await clients[1].expect(GameClock, WAIT, lambda m: not m.paused)
    assert resumed.running == current and resumed.remaining[current] == 1_500
    assert resumed.resumed_by == "Alice" and resumed.paused_by is None
    await clients[current].send(ActionRequest(_own_play(views[current], current)))
    await _views(clients, 1)


async def test_pause_needs_a_seat_and_a_running_game(connect: Connect) -> None:
    alice = await connect("Alice")
    await alice.send(CreateTable(name="t", seats=2))
    await alice.expect(Joined)
    await alice.send(PauseRequest(True))
    assert (await alice.expect(ErrorReply, WAIT)).code == "game_not_running"


@pytest.mark.parametrize("fast_config", [config_with(bot_delay=0.6)])
async def test_bots_wait_while_the_game_is_paused(connect: Connect, autojump_clock: trio.testing.MockClock) -> None:
    alice = await connect("Alice")
    await alice.send(CreateTable(name="t", seats=2))
    await alice.expect(Joined)
    await alice.send(AddBot(seat=1))
    await alice.send(Start())
    view = (await alice.expect(ViewUpdate, WAIT)).view
    if view.current == 1:
        view = (await alice.expect(ViewUpdate, WAIT, lambda m: m.view.turn == 1)).view
    await alice.send(ActionRequest(_own_play(view, 0)))
    await alice.send(PauseRequest(True))  # before the bot's 0.6 s are up
    await alice.expect(ViewUpdate, WAIT, lambda m: m.view.turn == view.turn + 1)
    await alice.expect(GameClock, WAIT, lambda m: m.paused)
    autojump_clock.jump(50)
    await settle(alice)
    assert all(m.view.turn == view.turn + 1 for m in alice.take(ViewUpdate)), "a bot moved while paused"
    await alice.send(PauseRequest(False))
    resumed = trio.current_time()
    await alice.expect(ViewUpdate, WAIT, lambda m: m.view.turn == view.turn + 2)
    assert trio.current_time() - resumed == pytest.approx(0.6), "the bot did not wait its delay after the pause"


async def test_a_premove_is_made_at_the_start_of_its_players_turn(connect: Connect) -> None:
    clients, views = await _two(connect)
    current = views[0].current
    waiting = 1 - current
    queued = _own_play(views[waiting], waiting)
    await clients[waiting].send(QueueMove(PreMoveKind.PLAY, queued.order))
    ack = await clients[waiting].expect(Queued, WAIT)
    assert (ack.kind, ack.order) == (PreMoveKind.PLAY, queued.order) and "queued" in ack.note
    assert not clients[current].take(Queued)  # no one else learns of it
    await clients[current].send(ActionRequest(_own_play(views[current], current)))
    made = await clients[waiting].expect(Queued, WAIT, lambda m: "made" in m.note)
    assert made.kind is None
    after = await _views(clients, 2)
    assert after[0].events[-1].seat == waiting and after[0].events[-1].action == queued  # type: ignore[union-attr]


async def test_a_premove_is_refused_on_your_own_turn_and_for_a_card_not_yours(connect: Connect) -> None:
    clients, views = await _two(connect)
    current = views[0].current
    await clients[current].send(QueueMove(PreMoveKind.PLAY, views[current].hands[current][0].order))
    assert "it is your turn" in (await clients[current].expect(ErrorReply, WAIT)).message
    other = views[0].hands[current][0].order
    await clients[1 - current].send(QueueMove(PreMoveKind.DISCARD, other))
    assert "not in your hand" in (await clients[1 - current].expect(ErrorReply, WAIT)).message


async def test_a_clue_touching_the_queued_card_cancels_the_premove(connect: Connect) -> None:
    clients, views = await _two(connect)
    current = views[0].current
    waiting = 1 - current
    card = views[current].hands[waiting][0]
    await clients[waiting].send(QueueMove(PreMoveKind.PLAY, card.order))
    await clients[waiting].expect(Queued, WAIT)
    assert card.card is not None
    await clients[current].send(ActionRequest(Clue(waiting, colour=card.card.suit)))
    cancelled = await clients[waiting].expect(Queued, WAIT)
    assert cancelled.kind is None and "a clue touched" in cancelled.note and "cancelled" in cancelled.note
    after = await _views(clients, 1)
    assert after[0].current == waiting  # the turn waits for them: nothing was made


async def test_a_premove_queued_while_paused_waits_for_the_game_to_go_on(connect: Connect) -> None:
    clients, views = await _two(connect)
    current = views[0].current
    waiting = 1 - current
    queued = _own_play(views[waiting], waiting)
    await clients[waiting].send(QueueMove(PreMoveKind.PLAY, queued.order))
    await clients[waiting].expect(Queued, WAIT)
    await clients[waiting].send(PauseRequest(True))
    await clients[current].expect(GameClock, WAIT, lambda m: m.paused)
    await clients[current].send(ActionRequest(_own_play(views[current], current)))
    assert (await clients[current].expect(ErrorReply, WAIT)).code == "game_paused"
    await clients[current].send(PauseRequest(False))
    await clients[current].expect(GameClock, WAIT, lambda m: not m.paused)
    assert not clients[waiting].take(Queued), "the pause cancelled the pre-move"
    await clients[current].send(ActionRequest(_own_play(views[current], current)))
    await clients[waiting].expect(Queued, WAIT, lambda m: "made" in m.note)
    after = await _views(clients, 2)
    assert after[0].events[-1].action == queued  # type: ignore[union-attr]


async def test_a_timed_game_pauses_itself_while_the_player_to_act_is_away(connect: Connect) -> None:
    clients, views = await _two(connect, timed=True, time_base=600, time_per_turn=0)
    current = views[0].current
    other = clients[1 - current]
    token = clients[current].token  # type: ignore[attr-defined]
    await clients[current].stream.aclose()
    paused = await other.expect(GameClock, WAIT, lambda m: m.paused)
    assert paused.running is None and "disconnected" in paused.note and ("Alice", "Bob")[current] in paused.note
    back = await connect("again", resume=token)
    await back.expect(Joined, WAIT)
    going = await other.expect(GameClock, WAIT, lambda m: not m.paused)
    assert going.running == current
    # The player back is not told the game waits for them: the first clock they get runs their bank.
    first = await back.expect(GameClock, WAIT)
    assert not first.paused and first.running == current, first


@pytest.mark.real_time  # a server process, killed and started again
async def test_clocks_survive_a_kill_9_from_the_stored_banks(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    proc, port = await _start_server_process(db)
    try:
        alice, bob = await _client(port, "Alice"), await _client(port, "Bob")
        await alice.send(CreateTable(name="timed", seats=2, timed=True, time_base=600, time_per_turn=20))
        table = (await alice.expect(Joined)).table.id
        await bob.send(Join(table=table))
        await bob.expect(Joined)
        await alice.send(Start())
        clients = {0: alice, 1: bob}
        views = await _views(clients, 0)
        for turn in range(1, 4):
            current = views[0].current
            await clients[current].send(ActionRequest(views[current].legal_actions()[-1]))
            views = await _views(clients, turn)
        await alice.expect(GameClock, WAIT, lambda m: m.running == views[0].current)
        await alice.flush()
        before = ([m for m in alice.seen if isinstance(m, GameClock)])[-1]  # the banks after the last move
        assert any(ms > 600_000 for ms in before.remaining)  # a bonus was earned: the banks are not the start's
    finally:
        await kill_9(proc, alice, bob)

    proc, port = await _start_server_process(db)
    try:
        again = await _client(port, "x", alice.token)  # type: ignore[attr-defined]
        assert (await again.expect(Joined, WAIT)).table.timed
        restored = await again.expect(GameClock, WAIT)
        for seat, ms in enumerate(before.remaining):
            # The bank of the player to act may have run a few milliseconds since the restart; no other moved.
            assert abs(restored.remaining[seat] - ms) <= (200 if seat == views[0].current else 0)
        bob_again = await _client(port, "y", bob.token)  # type: ignore[attr-defined]
        await bob_again.expect(Joined, WAIT)
        going = await again.expect(GameClock, WAIT, lambda m: m.running == views[0].current and not m.paused)
        assert going.remaining[1 - views[0].current] == before.remaining[1 - views[0].current]
    finally:
        proc.send_signal(signal.SIGTERM)
        with trio.fail_after(10):
            await proc.wait()


async def test_time_running_out_on_the_last_turn_loses_the_game_at_the_server(tmp_path: Path) -> None:
    # A stored timed game at its very last turn, with half a second left in each bank: its player comes back.
    db = str(tmp_path / "last.db")
    store = Store(db)
    store.open_sync()
    config = GameConfig(players=2, timed=True, time_base=600, time_per_turn=0)
    state = new_game(config, "last turn")
    tokens = ("alice-token", "bob-token")
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        table_id = await store.create_table("L", TableSettings(GameConfig(timed=True, time_base=600, time_per_turn=0)),
                                            None, 0)
        for seat, name in enumerate(("Alice", "Bob")):
            await store.add_player(token_hash(tokens[seat]), name)
            await store.set_seat(table_id, seat, bot=False, name=name, key=token_hash(tokens[seat]))
        game_id = await store.start_game(table_id, config, "last turn", ("Alice", "Bob"))
        seq = 0
        while state.final_turns_left != 1:
            actions = legal_actions(state)
            action = next((a for a in actions if isinstance(a, Discard)), None) or next(
                a for a in actions if isinstance(a, Clue))
            state = apply(state, action)
            await store.add_action(game_id, seq, action, (0.5, 0.5))
            seq += 1
        nursery.cancel_scope.cancel()
    store.close_sync()

    with trio.fail_after(WAIT):
        async with trio.open_nursery() as nursery:
            server: Server = await nursery.start(
                lambda task_status: serve("127.0.0.1", 0, db, config=FAST, task_status=task_status))
            ours, theirs = trio.testing.memory_stream_pair()
            nursery.start_soon(server.handle, theirs, "memory:last")
            last = Client(ours, "last")
            await last.hello("x", resume=tokens[state.current])
            view = (await last.expect(ViewUpdate, WAIT)).view
            assert view.final_turns_left == 1 and view.current == state.current
            back = trio.current_time()
            over = await last.expect(GameOver, WAIT)
            assert trio.current_time() - back == pytest.approx(0.5), "the half second left was not what ran out"
            assert over.outcome.reason is EndReason.TIMEOUT and over.outcome.score == 0
            listed = {g.id: g for g in await server.store.read(read_games)}
            assert listed[game_id].end.value == "timeout"
            await server.stop()
