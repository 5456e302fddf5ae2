"""The stats benchmark builds a store of finished games and prints how long ``hanabi-server stats --json`` took
on it (it measures; it is not a timed test)."""

from __future__ import annotations

import json

import pytest

from bench.stats import main


def test_the_stats_bench_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "4", "--people", "3", "--runs", "1", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["games"] == 4 and row["actions"] > 0 and 1 <= row["people"] <= 3
    assert row["command_median_s"] > 0 and row["command_cpu_median_s"] > 0 and row["read_median_ms"] > 0


def test_the_stats_bench_refuses_an_empty_store(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--games", "0"])
    assert caught.value.code == 2 and "at least 1" in capsys.readouterr().err
