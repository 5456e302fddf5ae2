"""The replay viewer opens real hanab.live files like its own: an early end, a blind play from the deck,
a timeout, a vote to end, a six-suit game with hanab.live's seed and a file with notes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hanabi.client.replayer import ReplayViewer, game_steps
from hanabi.client.snapshot import SizedOutput, screen_text
from hanabi.engine.replay import load

GAMES = Path(__file__).resolve().parents[1] / "engine" / "hanablive" / "games"
pytestmark = pytest.mark.skipif(not GAMES.is_dir(), reason=f"no hanab.live games in {GAMES}")


def _every_step_shows(viewer: ReplayViewer, steps: int) -> list[str]:
    screens = []
    for step in range(steps):
        viewer.go(step)
        screens.append(screen_text(viewer.application))
    return screens


# Every step of six whole games drawn: untraced (docs/developing.md); the other tests reach every branch it does.
@pytest.mark.no_cover
@pytest.mark.parametrize(("name", "end"), [
    ("hc_nv_2p_03.json", "Game over: 22/25"),  # hanab.live ended it: no more points could be scored
    ("hc_nv_3p_20.json", "Game over: 25/25"),  # the deck's last card played blind
    ("hc_nv_5p_18.json", "Game over: 0/25"),  # Emily ran out of time
    ("nph_export_78921.json", "Game over: 0/30"),  # 6 Suits, all or nothing, with hanab.live's seed
    ("hl_no_variant_149251.json", "Game over: 23/25"),  # notes and an id
    ("hc_nv_6p_09.json", "Game over: 25/25"),  # six players, 3 cards each
])
def test_a_hanablive_file_opens_in_the_viewer(name: str, end: str) -> None:
    replay = load(GAMES / name)
    steps = game_steps(replay)
    assert steps[-1].outcome == replay.state.outcome
    viewer = ReplayViewer(replay, name, output=SizedOutput(80, 24))
    screens = _every_step_shows(viewer, len(steps))
    assert end in screens[-1]
    assert replay.state.outcome is not None
    detail = replay.state.outcome.detail
    assert (detail[:1].upper() + detail[1:])[:40] in screens[-1].replace("\n", " ")


def test_the_blind_play_from_the_deck_says_so() -> None:
    replay = load(GAMES / "hc_nv_3p_20.json")
    turn = next(i for i, e in enumerate(replay.state.events) if getattr(e.action, "order", None) == 49)
    viewer = ReplayViewer(replay, "deck play", output=SizedOutput(80, 24))
    viewer.go(turn + 1)
    assert "Alice plays Y5 blind from the deck (+1 clue); that was the last card" in screen_text(viewer.application)


def test_the_early_end_says_why() -> None:
    viewer = ReplayViewer(load(GAMES / "hc_nv_2p_03.json"), "early", output=SizedOutput(80, 24))
    viewer.go(10_000)
    assert "No more points can be scored" in screen_text(viewer.application)


def test_a_game_ended_by_vote_opens(tmp_path: Path) -> None:
    data = json.loads((GAMES / "hc_nv_2p_01.json").read_text(encoding="utf-8"))
    data["actions"] = data["actions"][:20] + [{"type": 5, "target": -1, "value": 10}]
    path = tmp_path / "vote.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    replay = load(path)
    steps = game_steps(replay)
    assert len(steps) == 22 and steps[-1].outcome == replay.state.outcome
    viewer = ReplayViewer(replay, "vote.json", output=SizedOutput(80, 24))
    viewer.go(10_000)
    assert "voted to end the game" in screen_text(viewer.application)
