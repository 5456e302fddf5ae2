"""The bots' benchmark (bench/bots.py) runs and prints its figures, and its simulated beginner plays by its rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from bots import best_possible, critical, main, run
from hanabi.engine import Card, Clue, Discard, GameConfig, Play, Suit, apply, game_from_deck, view_for
from people import Beginner  # bench/ is on the tests' path (pyproject): its scripts are not a package

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_bench_prints_one_row_per_table_with_misplays_split_by_who(capsys: pytest.CaptureFixture[str]) -> None:
    # One game a table: every figure the rows print comes from one (three took twice the CPU, about a second).
    assert main(["--games", "1", "--players", "3", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["table"] for r in rows] == ["bots", "beginners", "beginner", "careless", "novices", "novice",
                                          "careless-novice", "eager-novice"]
    for row in rows:
        assert row["players"] == 3 and row["games"] == 1 and 0 <= row["mean"] <= 25
        assert row["bot_misplays_deck"] <= row["bot_misplays"]
    assert rows[0]["person_misplays"] == 0 and rows[1]["bot_misplays"] == 0 and rows[1]["mean_decision_ms"] == 0
    assert rows[0]["slowest_decision_ms"] > 0


def test_bench_refuses_bad_arguments_in_a_sentence() -> None:
    # The script run as a script, once; its other refusals and its figures are main's, in this process.
    done = subprocess.run([sys.executable, str(BENCH / "bots.py"), "--games", "0"], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)})
    assert done.returncode == 2 and "--games must be at least 1" in done.stderr and "Traceback" not in done.stderr


def test_bench_starts_at_the_deal_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    config = GameConfig(players=3)
    first_five = run(config, 5, "novices").mean * 5
    first_three = run(config, 3, "novices").mean * 3
    assert run(config, 2, "novices", first=3).mean * 2 == pytest.approx(first_five - first_three)
    with pytest.raises(SystemExit) as caught:
        main(["--first", "-1"])
    err = capsys.readouterr().err
    assert caught.value.code == 2 and "--first must be 0 or more" in err and "Traceback" not in err


def _deal(hands: str) -> list[Card]:
    rest = GameConfig().variant.deck()
    top = [Card.parse(name) for name in hands.split()]
    for card in top:
        rest.remove(card)
    return top + rest


def test_the_beginner_clues_a_playable_card_with_the_clue_touching_fewest_others() -> None:
    # Seat 1 holds R1 (order 9) beside two other 1s and no other red card: red touches it alone.
    state = game_from_deck(GameConfig(players=2, first_seat=0), _deal("Y3 G3 B3 W3 Y4  G1 B1 W4 Y4 R1"))
    assert Beginner().choose(view_for(state, 0)) == Clue(1, colour=Suit.RED)


def test_the_beginner_plays_only_what_its_clues_prove() -> None:
    state = game_from_deck(GameConfig(players=2, first_seat=1), _deal("R1 G3 B3 W3 Y4  G4 B4 W4 Y4 R3"))
    state = apply(state, Clue(0, colour=Suit.RED))  # red: R1 to R5, not proven
    assert not isinstance(Beginner().choose(view_for(state, 0)), Play)
    state = apply(state, Clue(1, colour=Suit.RED))
    state = apply(state, Clue(0, rank=1))  # red and 1: proven
    assert Beginner().choose(view_for(state, 0)) == Play(0)


def test_the_novice_also_plays_what_counting_proves() -> None:
    # 3 players: every red card but the R1s is in sight of seat 0, whose R1 (order 0) is clued red.
    state = game_from_deck(GameConfig(players=3, first_seat=1),
                           _deal("R1 G3 B3 W3 Y4  R2 R2 R3 R3 R4  R4 R5 G4 B4 W4"))
    state = apply(apply(state, Clue(0, colour=Suit.RED)), Clue(1, rank=2))
    assert Beginner(counting=True).choose(view_for(state, 0)) == Play(0)
    assert Beginner().choose(view_for(state, 0)) != Play(0)


def test_the_careless_beginner_gives_one_clue_in_four_at_random() -> None:
    state = game_from_deck(GameConfig(players=2, first_seat=0), _deal("Y3 G3 B3 W3 Y4  G1 B1 W4 Y4 R1"))
    view = view_for(state, 0)
    careful, careless = Beginner(), Beginner(seed=3, careless=True)
    chosen = [careless.choose(view) for _ in range(40)]
    assert all(careful.choose(view) == Clue(1, colour=Suit.RED) for _ in range(4))
    odd = [i for i, clue in enumerate(chosen) if clue != Clue(1, colour=Suit.RED)]
    assert odd and all(i % 4 == 3 for i in odd)


def test_losses_count_a_card_critical_once_its_other_copy_is_gone_and_the_points_a_lost_card_takes() -> None:
    state = game_from_deck(GameConfig(players=2, first_seat=0), _deal("R3 G3 B3 W3 Y4  R3 B1 W4 Y4 G1"))
    state = apply(apply(state, Clue(1, rank=1)), Clue(0, rank=3))
    assert not critical(state, 5) and best_possible(state) == 25
    state = apply(state, Discard(0))  # one R3 gone: the other is critical
    assert critical(state, 5) and not critical(state, 6)
    state = apply(state, Discard(5))  # both gone: red stops at 2
    assert best_possible(state) == 22
