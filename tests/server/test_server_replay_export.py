"""``hanabi-server export`` (and the replay a client saves, the same text): files hanab.live's JSON loader takes.

A finished game, a game stopped by a player (hanab.live's type 4 with end condition 4, "terminated by a
player") and a running game exported with ``--unfinished``: each is checked with the checker written from
hanab.live's FORMAT.md (``tests/engine/hanablive_loader.py``), and none carries the seed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import trio
from hanabi.engine import ChatPolicy, GameConfig, Variant, apply, legal_actions, new_game
from hanabi.server.cli import main
from hanabi.server.lobby import replay_text
from hanabi.server.store import Store

from tests.engine.hanablive_loader import problems


async def _store(path: Path) -> None:
    """Game 1 played to its end, game 2 stopped after 5 moves, game 3 still running after 3."""
    store = Store(str(path))
    store.open_sync()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        table = await store.create_table("t", Variant.SIX_SUITS, False, False, ChatPolicy.OFF, 3, None, 0)
        for game_id, moves in ((1, None), (2, 5), (3, 3)):
            config = GameConfig(players=3, variant=Variant.SIX_SUITS)
            gid = await store.start_game(table, config, f"seed{game_id}", ("Ann", "Ben", "Cy"))
            state = new_game(config, f"seed{game_id}")
            seq = 0
            while not state.over and (moves is None or seq < moves):
                action = legal_actions(state)[-1]
                state = apply(state, action)
                await store.add_action(gid, seq, action)
                seq += 1
            if state.outcome is not None:
                await store.finish_game(gid, state.outcome.score, state.outcome.reason.value)
            elif game_id == 2:
                await store.finish_game(gid, 0, "terminated")
        nursery.cancel_scope.cancel()
    store.close_sync()


async def test_every_export_is_a_file_hanablive_takes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite3"
    await _store(db)
    files = {}
    for game_id in (1, 2, 3):
        out = tmp_path / f"{game_id}.json"
        assert main(["export", str(game_id), "--db", str(db), "-o", str(out), "--unfinished"]) == 0
        files[game_id] = json.loads(out.read_text(encoding="utf-8"))
    for data in files.values():
        assert "seed" not in data
        assert problems(data) == []
    assert files[2]["actions"][-1]["type"] == 4 and files[2]["actions"][-1]["value"] == 4
    assert len(files[2]["actions"]) == 6 and len(files[3]["actions"]) == 3
    # The text a client saves is the server's replay_text: the same file.
    store = Store(str(db))
    store.open_sync()
    try:
        stored = store.game_sync(2)
    finally:
        store.close_sync()
    assert stored is not None and json.loads(replay_text(stored)) == files[2]
