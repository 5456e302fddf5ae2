"""The per-move benchmark runs and reports (a smoke test: figures are read from its output, never asserted)."""

from __future__ import annotations

import pytest
from hanabi.engine import CLUE_TOKENS, Clue, Discard, GameConfig, apply, new_game

from bench.movebench import STAGES, load_test_move, main


def test_the_benchmark_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--tables", "3", "--rounds", "70", "--runs", "1"]) == 0  # a game ends
    out = capsys.readouterr().out
    assert "3 tables of 5 players, 70 moves each per run" in out and "µs of CPU per applied action" in out
    assert all(stage in out for stage in STAGES)


def test_the_players_play_the_load_tests_legal_game() -> None:
    state = new_game(GameConfig(players=5), seed=4)
    while state.outcome is None:
        move = load_test_move(state)
        assert isinstance(move, Discard) == (state.clue_tokens < CLUE_TOKENS)
        assert isinstance(move, Discard | Clue)
        state = apply(state, move, seat=state.current)
