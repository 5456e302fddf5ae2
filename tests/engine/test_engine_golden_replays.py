"""Golden replays: hand-built hanab.live games whose summaries were worked out on paper (see replays/README.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hanabi.engine.cli import main
from hanabi.engine.replay import load, to_json

REPLAYS = Path(__file__).parent / "replays"
EXPECTED: dict[str, dict[str, Any]] = json.loads((REPLAYS / "expected.json").read_text(encoding="utf-8"))


def run_json(capsys: pytest.CaptureFixture[str], *files: Path) -> tuple[int, list[dict[str, Any]]]:
    status = main(["--json", *map(str, files)])
    out = capsys.readouterr().out
    return status, [json.loads(line) for line in out.splitlines()]


def test_every_replay_file_has_an_expected_summary() -> None:
    files = {p.name for p in REPLAYS.glob("*.json")} - {"expected.json"}
    assert files == set(EXPECTED)
    variants = {summary["variant"] for summary in EXPECTED.values()}
    assert variants == {"No Variant", "6 Suits", "Black (6 Suits)", "Rainbow (6 Suits)"}
    ends = {summary["end"] for summary in EXPECTED.values()}
    assert {"strikeout", "perfect", "final_round", "all_or_nothing_defeat", "in_progress"} <= ends


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_replay(capsys: pytest.CaptureFixture[str], name: str) -> None:
    status, lines = run_json(capsys, REPLAYS / name)
    assert status == 0
    [got] = lines
    assert got["file"] == str(REPLAYS / name)
    assert "error" not in got
    for key, value in EXPECTED[name].items():
        assert got[key] == value, f"{name}: {key} is {got[key]!r}, expected {value!r}"


def test_all_golden_replays_in_one_run(capsys: pytest.CaptureFixture[str]) -> None:
    names = sorted(EXPECTED)
    status, lines = run_json(capsys, *(REPLAYS / n for n in names))
    assert status == 0
    assert [Path(line["file"]).name for line in lines] == names
    assert [line["score"] for line in lines] == [EXPECTED[n]["score"] for n in names]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_exporting_a_golden_replay_gives_the_file_back(name: str) -> None:
    data = json.loads((REPLAYS / name).read_text(encoding="utf-8"))
    replay = load(REPLAYS / name)
    assert to_json(replay.state, replay.players) == data
