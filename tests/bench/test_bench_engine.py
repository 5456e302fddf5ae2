"""The benchmark command runs and prints its figures (it measures speed; it is not a timed test)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.engine import main

SCRIPT = Path(__file__).parents[2] / "bench" / "engine.py"


def test_bench_json_prints_one_line_with_the_figures() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run([sys.executable, str(SCRIPT), "--games", "20", "--players", "2", "--json"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    row = json.loads(lines[0])
    assert row["players"] == 2 and row["games"] == 20
    assert row["games_per_second"] > 0 and row["actions_per_second"] > row["games_per_second"]


def test_bench_one_line_per_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "3", "--players", "3", "5", "--variant", "wild", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["players"] for r in rows] == [3, 5]
    assert all(r["variant"] == "Rainbow (6 Suits)" and r["games"] == 3 for r in rows)


def test_bench_readable_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "2", "--players", "4", "--all-or-nothing"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("4 players:") and "games/s" in out and "actions/s" in out


@pytest.mark.parametrize("args", [["--variant", "purple"], ["--games", "0"], ["--players", "7"]])
def test_bench_bad_arguments(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(args)
    assert caught.value.code == 2
    assert "Traceback" not in capsys.readouterr().err
