"""``hanabi-server`` on the command line: listing and exporting games, and clear refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import trio
from hanabi.engine import ChatPolicy, GameConfig, Variant, apply, legal_actions, new_game
from hanabi.server.cli import default_db, main
from hanabi.server.store import Store


async def _store_with_games(path: Path) -> None:
    """One finished game (1) and one still running (2)."""
    store = Store(str(path))
    store.open_sync()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        table = await store.create_table("t", Variant.NONE, False, False, ChatPolicy.OFF, 2, None, 0)
        for game_id, moves in ((1, None), (2, 3)):
            config = GameConfig(players=2)
            gid = await store.start_game(table, config, f"seed{game_id}", ("Ann", "Ben"))
            assert gid == game_id
            state = new_game(config, f"seed{game_id}")
            seq = 0
            while not state.over and (moves is None or seq < moves):
                action = legal_actions(state)[-1]
                state = apply(state, action)
                await store.add_action(gid, seq, action)
                seq += 1
            if state.outcome is not None:
                await store.finish_game(gid, state.outcome.score, state.outcome.reason.value)
        nursery.cancel_scope.cancel()
    store.close_sync()


async def test_games_and_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite3"
    await _store_with_games(db)
    assert main(["games", "--db", str(db), "--json"]) == 0
    listed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [g["id"] for g in listed] == [1] and listed[0]["players"] == ["Ann", "Ben"]
    out = tmp_path / "one.json"
    assert main(["export", "1", "--db", str(db), "-o", str(out)]) == 0
    assert json.loads(out.read_text())["players"] == ["Ann", "Ben"]
    assert main(["export", "2", "--db", str(db)]) == 2
    assert "still in progress" in capsys.readouterr().err
    assert main(["export", "2", "--db", str(db), "--unfinished"]) == 0
    assert len(json.loads(capsys.readouterr().out)["actions"]) == 3
    assert main(["export", "7", "--db", str(db)]) == 2
    assert "no game 7" in capsys.readouterr().err


def test_refusals_are_sentences(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--db", str(tmp_path / "missing.sqlite3")]) == 2
    assert "there is no game store" in capsys.readouterr().err
    assert main(["--port", "70000", "--db", ":memory:"]) == 2
    assert "not a TCP port" in capsys.readouterr().err
    # A message of the day that no welcome could carry is refused at start, not sent as an error to everyone.
    assert main(["--port", "0", "--db", ":memory:", "--motd", "x" * 2001]) == 2
    err = capsys.readouterr().err
    assert "--motd" in err and "2000" in err
    notes = tmp_path / "notes.sqlite3"
    notes.write_text("not a database " * 200)
    assert main(["--port", "0", "--db", str(notes)]) == 2
    assert "cannot be used as a game store" in capsys.readouterr().err


def test_the_default_store_is_in_the_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db() == tmp_path / "hanabi" / "server.sqlite3"


async def test_the_store_may_be_named_before_or_after_the_command(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite3"
    await _store_with_games(db)
    assert main(["--db", str(db), "games"]) == 0
    assert main(["games", "--db", str(db)]) == 0
    assert capsys.readouterr().out.count("Ann, Ben") == 2
