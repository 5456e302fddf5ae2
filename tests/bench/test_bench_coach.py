"""The coach's benchmark runs and prints its figures (it measures speed; it is not a timed test)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.coach import main


@pytest.mark.no_cover  # the coach over every step of a real game: untraced (the engine's tests cover the coach)
def test_bench_coach_prints_the_advice_and_moments_figures(capsys: pytest.CaptureFixture[str]) -> None:
    # One game is the smallest that gives every figure: advice on each of its turns, and its moments.
    assert main(["--limit", "1", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["games"] == 1 and row["advice_count"] > 20
    assert 0 < row["advice_median_ms"] <= row["advice_p99_ms"] <= row["advice_max_ms"]
    assert 0 < row["moments_median_s"] <= row["moments_max_s"]


def test_bench_coach_refuses_a_folder_without_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--games", str(tmp_path)])
    assert "no replay file" in capsys.readouterr().err
