"""``hanabi-server export`` (and the replay a client saves, the same text): files hanab.live's JSON loader takes.

A finished game, a running game exported with ``--unfinished`` and the same game once stopped by a
player (hanab.live's type 4 with end condition 4, "terminated by a player"): each is checked with the
checker written from hanab.live's FORMAT.md (``tests/engine/hanablive_loader.py``), and none carries the seed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import trio
from hanabi.engine import GameConfig
from hanabi.server.cli import main
from hanabi.server.game import replay_text
from hanabi.server.records import config_from_text, config_to_text
from hanabi.server.saved import read_game
from hanabi.server.store import Store

from tests.engine.hanablive_loader import problems

from .test_server_cli import _store_with_games


async def _stop_game(path: Path, game_id: int) -> None:
    """Mark a running game finished as stopped, as the server does when a player leaves it."""
    store = Store(str(path))
    store.open_sync()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        await store.finish_game(game_id, 0, "terminated")
        nursery.cancel_scope.cancel()
    store.close_sync()


async def test_every_export_is_a_file_hanablive_takes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite3"
    await _store_with_games(db)  # game 1 played to its end, game 2 running after 3 moves
    files = {}
    for game_id, name in ((1, "finished"), (2, "running")):
        out = tmp_path / f"{name}.json"
        assert main(["export", str(game_id), "--db", str(db), "-o", str(out), "--unfinished"]) == 0
        files[name] = json.loads(out.read_text(encoding="utf-8"))
    await _stop_game(db, 2)
    out = tmp_path / "stopped.json"
    assert main(["export", "2", "--db", str(db), "-o", str(out)]) == 0
    files["stopped"] = json.loads(out.read_text(encoding="utf-8"))
    for data in files.values():
        assert "seed" not in data
        assert problems(data) == []
    assert files["stopped"]["actions"][-1]["type"] == 4 and files["stopped"]["actions"][-1]["value"] == 4
    assert files["stopped"]["actions"][:-1] == files["running"]["actions"] and len(files["running"]["actions"]) == 3
    # The text a client saves is the server's replay_text: the same file.
    store = Store(str(db))
    store.open_sync()
    try:
        stored = store.read_sync(read_game, 2)
    finally:
        store.close_sync()
    assert stored is not None and json.loads(replay_text(stored)) == files["stopped"]


def test_a_stored_game_keeps_hanablives_two_options() -> None:
    config = GameConfig(players=3, end_when_no_points=True, deck_plays=True)
    assert config_from_text(config_to_text(config)) == config
    old = json.loads(config_to_text(GameConfig(players=3)))
    del old["end_when_no_points"], old["deck_plays"]  # a game stored before the options existed
    assert config_from_text(json.dumps(old)) == GameConfig(players=3)
