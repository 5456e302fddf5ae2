"""The load test runs end to end on a small load and reports sane figures (a smoke test: no speed asserted)."""

from __future__ import annotations

import pytest
from hanabi.server.loadtest import main, run


def test_a_small_load_plays_and_reports_without_errors() -> None:
    # Players think a little: a closed loop over so few tables would outrun the rate limit (20 requests a second).
    result = run(tables=3, players=3, seconds=1.0, warmup=0.3, think=0.03)
    assert result["connections"] == 9 and result["errors"] == 0, result["first_error"]
    assert result["actions"] > 0 and result["actions_per_s"] > 0
    assert 0 < result["p50_ms"] <= result["p99_ms"]
    assert result["server_cpu_us_per_action"] > 0 and result["clients_cpu_us_per_action"] > 0


def test_thinking_players_and_the_printed_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--tables", "2", "--players", "2", "--seconds", "1", "--warmup", "0.2", "--think", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "2 tables x 2 players = 4 connections" in out and "think time 0.05 s" in out
    assert "actions/s" in out and "µs per action" in out and "KiB playing" in out
    assert "errors from the server" not in out
