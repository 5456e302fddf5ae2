"""Once its screen is built the client leaves what it built to start out of the cycle collector's full passes."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from hanabi.client import cli
from hanabi.client.runner import settle
from hanabi.engine.replay import dumps
from prompt_toolkit.application import Application

from .test_client_replay_and_cli import finished_game


@pytest.fixture
def thawed() -> Iterator[list[int]]:
    """The objects frozen when the screen was run, if it was. Nothing is frozen during the test; afterwards what
    lives is frozen again if the tests' process had frozen what it collected (tests/conftest.py), else thawed."""
    frozen_before = gc.get_freeze_count() > 0
    gc.unfreeze()
    yield []
    gc.unfreeze()
    if frozen_before:
        gc.collect()
        gc.freeze()


def test_settle_leaves_what_is_built_out_of_the_collectors_passes(thawed: list[int]) -> None:
    built = {"hands": [[1, 2], [3, 4]]}
    assert gc.get_freeze_count() == 0 and any(o is built for o in gc.get_objects())
    settle()
    assert gc.get_freeze_count() > 1000 and not any(o is built for o in gc.get_objects())


def test_the_replay_viewer_settles_before_it_runs(thawed: list[int], kit, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    replay = tmp_path / "game.json"
    replay.write_text(dumps(finished_game(kit), kit.NAMES))
    monkeypatch.setattr(cli, "terminal_problem", lambda: None)
    monkeypatch.setattr(Application, "run", lambda self, *a, **k: thawed.append(gc.get_freeze_count()))
    assert cli.main(["--replay", str(replay)]) == 0
    assert len(thawed) == 1 and thawed[0] > 1000


def test_a_game_screen_settles_before_it_runs(thawed: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    def run(main: object) -> None:
        thawed.append(gc.get_freeze_count())
        main.close()  # type: ignore[attr-defined]  # the screen and the network never start

    monkeypatch.setattr(asyncio, "run", run)
    assert cli._run(None, "alice") == 0
    assert len(thawed) == 1 and thawed[0] > 1000
