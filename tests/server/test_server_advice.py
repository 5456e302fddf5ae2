"""The coach at the server: advice only where the host allowed it, only on one's turn, and the mark it leaves on
the game (the store's record, the games list, the replay file), over real TCP."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import trio
from hanabi.engine import EndReason, GameConfig, PlayerView
from hanabi.engine.coach import advise
from hanabi.protocol.messages import (
    AddBot,
    AdviceReply,
    CreateTable,
    ErrorReply,
    GameOver,
    Games,
    GetAdvice,
    GetReplay,
    GetStats,
    Join,
    Joined,
    ListGames,
    ReplayFile,
    Spectate,
    Start,
    Stats,
    ViewUpdate,
)
from hanabi.server.cli import ADVICE_MARK, main
from hanabi.server.records import TableSettings
from hanabi.server.store import Store

from .conftest import Client, Connect
from .test_server_tables import play_out

pytestmark = pytest.mark.real_time  # real TCP: the refusal and the mark over the wire


async def _alone_with_a_bot(connect: Connect, advice: bool) -> tuple[Client, PlayerView]:
    """Alice at a two-seat table with a house bot, created with or without advice, the game running: her client
    and her view on her first turn."""
    alice = await connect("Alice")
    await alice.send(CreateTable(name="coached" if advice else "plain", seats=2, advice=advice))
    joined = await alice.expect(Joined)
    assert joined.table.advice is advice
    await alice.send(AddBot(seat=1))
    await alice.send(Start())
    view = (await alice.expect(ViewUpdate)).view
    while view.current != 0:
        view = (await alice.expect(ViewUpdate)).view
    return alice, view


async def _refusal(client: Client, request_id: int) -> ErrorReply:
    await client.send(GetAdvice(id=request_id))
    return await client.expect(ErrorReply, where=lambda m: m.id == request_id)


async def test_a_table_without_advice_refuses_it_and_its_game_stays_unmarked(tcp_connect: Connect) -> None:
    alice, _ = await _alone_with_a_bot(tcp_connect, advice=False)
    refused = await _refusal(alice, 1)
    assert refused.code == "advice_off" and refused.request == "get_advice"
    assert "did not allow advice" in refused.message
    assert not [m for m in alice.seen if isinstance(m, AdviceReply)]
    await play_out({0: alice})
    await alice.send(ListGames(id=2))
    assert [g.advice for g in (await alice.expect(Games)).games] == [False]


async def test_advice_on_your_turn_is_the_house_bots_from_your_view_and_marks_the_game(tcp_connect: Connect) -> None:
    alice, view = await _alone_with_a_bot(tcp_connect, advice=True)
    await alice.send(GetAdvice(id=7))
    reply = await alice.expect(AdviceReply)
    # What the engine's coach says from the view Alice was sent: the server gave the bot nothing more.
    expected = advise(view, bot_seats=frozenset({1}), names=("Alice", "Bot Ada"))
    assert (reply.id, reply.turn, reply.move, reply.reason) == (7, view.turn, expected.move, expected.reason)
    assert (reply.convention, reply.section) == (expected.convention, expected.section)
    over = await play_out({0: alice})
    assert over.outcome is not None
    await alice.send(ListGames(id=8))
    assert [g.advice for g in (await alice.expect(Games)).games] == [True]
    await alice.send(GetReplay(over.game, id=9))
    replay = json.loads((await alice.expect(ReplayFile)).json)
    assert replay["options"]["adviceUsed"] is True
    await alice.send(GetStats(id=10))
    assert [line.with_advice for line in (await alice.expect(Stats)).lines] == [1]


async def test_advice_is_refused_out_of_turn_to_spectators_and_between_games(tcp_connect: Connect) -> None:
    alice, bob, cy = await tcp_connect("Alice"), await tcp_connect("Bob"), await tcp_connect("Cy")
    await alice.send(CreateTable(name="coached", seats=2, advice=True))
    table = (await alice.expect(Joined)).table.id
    assert (await _refusal(alice, 1)).code == "game_not_running"
    await bob.send(Join(table=table))
    await bob.expect(Joined)
    await cy.send(Spectate(table=table))
    await cy.expect(Joined)
    await alice.send(Start())
    view = (await alice.expect(ViewUpdate)).view
    waiting = bob if view.current == 0 else alice
    refused = await _refusal(waiting, 2)
    assert refused.code == "not_your_turn" and "your own turn" in refused.message
    assert (await _refusal(cy, 3)).code == "not_seated"
    over = await play_out({0: alice, 1: bob})
    assert isinstance(over, GameOver)
    await alice.send(ListGames(id=4))
    assert [g.advice for g in (await alice.expect(Games)).games] == [False]  # refused requests leave no mark


async def test_the_mark_reaches_hanabi_server_games_and_export(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.sqlite3"
    store = Store(str(path))
    store.open_sync()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        await store.add_player("ann", "Ann")
        table = await store.create_table("t", TableSettings(GameConfig(), advice=True), None, 0)
        for advised in (True, False):
            gid = await store.start_game(table, GameConfig(), "s", ("Ann", "Bot Ada"), ("ann",), bots=True)
            if advised:
                await store.mark_advice(gid, 0)
                await store.mark_advice(gid, 0)  # asked twice: one mark
            await store.finish_game(gid, 0, EndReason.TERMINATED.value)
        nursery.cancel_scope.cancel()
    store.close_sync()
    assert main(["games", "--db", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.endswith(ADVICE_MARK) for line in lines] == [False, True]  # newest first
    assert main(["games", "--db", str(path), "--json"]) == 0
    assert [json.loads(line)["advice"] for line in capsys.readouterr().out.splitlines()] == [False, True]
    assert main(["export", "1", "--db", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["options"]["adviceUsed"] is True
    assert main(["export", "2", "--db", str(path)]) == 0
    assert "adviceUsed" not in json.loads(capsys.readouterr().out)["options"]
