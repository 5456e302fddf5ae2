"""Each player's record (``saved.read_records``): worked out from the store's finished games, shown by
``hanabi-server stats`` and sent over the wire as ``stats``, where a handed seat counts for the people who played."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
import trio
from hanabi.engine import ChatPolicy, EndReason, GameConfig, Variant
from hanabi.protocol.messages import GameOver, GetStats, HandSeat, Joined, SeatHanded, Stats, StatsLine
from hanabi.server.cli import main
from hanabi.server.records import TableSettings
from hanabi.server.saved import read_records
from hanabi.server.store import Store

from .conftest import Connect
from .test_server_handover import _bobs_seat_to_a_bot
from .test_server_tables import play_out

# (players, variant, the people's keys, a bot at the table, score, end, finished)
GAMES = [
    (3, Variant.NONE, ("ann", "ben"), True, 21, EndReason.FINAL_ROUND, True),
    (3, Variant.NONE, ("ann", "ben", "cy"), False, 25, EndReason.PERFECT, True),
    (3, Variant.NONE, ("ann",), True, 0, EndReason.STRIKEOUT, True),
    (6, Variant.NONE, ("ann", "ben", "cy", "di", "ed", "flo"), False, 23, EndReason.NO_MORE_POINTS, True),
    (2, Variant.SIX_SUITS, ("ben",), True, 30, EndReason.PERFECT, True),
    (2, Variant.NONE, ("ann", "ben"), False, 0, EndReason.FINAL_ROUND, False),  # still running: not counted
]
NAMES = {"ann": "Ann", "ben": "Ben", "cy": "Cy", "di": "Di", "ed": "Ed", "flo": "flo"}


async def _store(path: Path, games: list[tuple[object, ...]] = GAMES) -> None:
    store = Store(str(path))
    store.open_sync()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        for key, name in NAMES.items():
            await store.add_player(key, name)
        table = await store.create_table("t", TableSettings(GameConfig(chat=ChatPolicy.OFF)), None, 0)
        for players, variant, keys, bots, score, end, finished in games:
            config = GameConfig(players=players, variant=variant)  # type: ignore[arg-type]
            gid = await store.start_game(table, config, "s", tuple(f"P{i}" for i in range(players)),  # type: ignore
                                         keys, bots=bots)  # type: ignore[arg-type]
            if finished:
                await store.finish_game(gid, score, end.value)  # type: ignore[attr-defined]
        nursery.cancel_scope.cancel()
    store.close_sync()


def _records(path: Path, key: str | None = None) -> dict[str, tuple[StatsLine, ...]]:
    db = sqlite3.connect(path)
    try:
        return {r.name: r.lines for r in read_records(db, key)}
    finally:
        db.close()


async def test_each_players_record_by_player_count_and_variant(tmp_path: Path) -> None:
    await _store(tmp_path / "s.sqlite3")
    records = _records(tmp_path / "s.sqlite3")
    assert list(records) == ["Ann", "Ben", "Cy", "Di", "Ed", "flo"]  # by name, case ignored
    three, six = StatsLine(3, Variant.NONE, 3, 46, 25, 1, 1, 2), StatsLine(6, Variant.NONE, 1, 23, 23, 0, 0, 0)
    assert records["Ann"] == (three, six)
    assert records["Ann"][0].mean == pytest.approx(46 / 3)
    assert records["Ben"] == (StatsLine(2, Variant.SIX_SUITS, 1, 30, 30, 1, 0, 1),
                              StatsLine(3, Variant.NONE, 2, 46, 25, 1, 0, 1), six)
    assert records["Cy"] == (StatsLine(3, Variant.NONE, 1, 25, 25, 1, 0, 0), six)
    assert _records(tmp_path / "s.sqlite3", "cy") == {"Cy": records["Cy"]}
    assert _records(tmp_path / "s.sqlite3", "nobody") == {}


async def test_advice_is_read_where_the_store_marks_it_and_a_bad_row_counts_for_no_one(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    await _store(path)
    db = sqlite3.connect(path)
    db.execute("INSERT INTO game_advice (game_id, seat) VALUES (1, 0), (1, 1), (5, 0)")  # game 1 counts once
    db.execute("UPDATE games SET config = '{\"variant\": \"Purple\"}' WHERE id = 3")  # its strike-out is lost
    db.execute("DELETE FROM players WHERE token_hash = 'flo'")  # a forgotten player has no record
    db.commit()
    db.close()
    records = _records(path)
    assert records["Ann"][0] == StatsLine(3, Variant.NONE, 2, 46, 25, 1, 0, 1, with_advice=1)
    assert records["Ben"][0].with_advice == 1 and records["Ben"][1].with_advice == 1
    assert "flo" not in records


async def test_the_stats_command_prints_each_players_record(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite3"
    await _store(db)
    assert main(["stats", "--db", str(db), "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["name"] for r in rows] == ["Ann", "Ben", "Cy", "Di", "Ed", "flo"]
    assert rows[0]["games"] == 4
    assert rows[0]["lines"][0] == {"players": 3, "variant": "No Variant", "games": 3, "mean": 15.33, "best": 25,
                                   "perfect": 1, "strikeouts": 1, "with_bots": 2, "with_advice": 0}
    assert main(["stats", "--db", str(db)]) == 0
    text = capsys.readouterr().out
    assert "Ann: 4 games" in text
    assert "  3 players  no variant" in text and "mean 15.33  best 25  perfect 1  strike-outs 1  with bots 2" in text
    assert " 1 game " in text and " 1 games" not in text  # Ann's one game at another size
    empty = tmp_path / "empty.sqlite3"
    await _store(empty, [])
    assert main(["stats", "--db", str(empty)]) == 0
    assert "no finished games with people" in capsys.readouterr().out
    assert main(["stats", "--db", str(tmp_path / "none.sqlite3")]) == 2
    assert "there is no game store" in capsys.readouterr().err


async def test_the_askers_own_record_over_the_wire_with_a_handed_seat(connect: Connect) -> None:
    alice, bob_token, _, handed = await _bobs_seat_to_a_bot(connect)
    assert handed.bot
    again = await connect("Bob")  # another machine: another player takes the seat back from the bot
    second_bob = next(t["player"] for t in again.trees if t["t"] == "welcome")
    await alice.send(HandSeat(seat=1, to=second_bob))
    assert (await again.expect(Joined)).seat == 1
    await alice.expect(SeatHanded, where=lambda m: not m.bot)
    over = await play_out({0: alice, 1: again})
    assert isinstance(over, GameOver)
    score, end = over.outcome.score, over.outcome.reason
    line = StatsLine(2, Variant.NONE, 1, score, score, int(score == 25), int(end is EndReason.STRIKEOUT), 1)
    for client, name in ((alice, "Alice"), (again, second_bob), (await connect("Bob", resume=bob_token), "Bob")):
        await client.send(GetStats(id=9))
        assert await client.expect(Stats) == Stats(name=name, lines=(line,), id=9)
    newcomer = await connect("Cy")
    await newcomer.send(GetStats())
    assert (await newcomer.expect(Stats)).lines == ()
