"""The benchmark runs and reports (a smoke test: figures are read from its output, never asserted)."""

from __future__ import annotations

import itertools

import pytest

from bench.protocol import game_views, main


def test_the_benchmark_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--runs", "1", "--number", "3", "--turns", "12"]) == 0
    out = capsys.readouterr().out
    assert "5 players, turn 12, 12 events" in out
    assert out.count("µs per message") == 2


def test_the_benchmark_views_are_consecutive_turns_of_one_game() -> None:
    views = game_views(5, 30, 10)
    assert [m.view.turn for m in views] == list(range(21, 31))
    assert all(a.view.events == b.view.events[: len(a.view.events)] for a, b in itertools.pairwise(views))
