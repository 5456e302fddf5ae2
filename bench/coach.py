"""Benchmark: the coach's CPU time, for advice on one turn and for the moments of a whole game.

    python bench/coach.py [--games DIR] [--limit N] [--level beginner|basic|h-group] [--json]

Reads the real games of hanab.live kept under ``DIR`` (default:
tests/engine/hanablive/games, the replays the tests use). For every turn of
every game it asks for the advice of the seat to move (``advice_for``, a
fresh bot each time, as the server asks it) and times it in CPU time
(``time.process_time``: the coach's own work, not the waiting for a core on
a shared machine); for every game it times ``find_moments`` (every seat a
person). ``--level`` is the table's convention level (default: what a table
of people gets, beginner). It prints the median, the 99th percentile and the slowest advice,
and the median and slowest moments per game with the game's turns, and the
slowest per 60 turns. Single-threaded: it uses one core. Targets: advice
under 100 ms at the slowest; a 60-turn game's moments under 5 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from hanabi.engine import ReplayError
from hanabi.engine.bots import LEVELS
from hanabi.engine.coach import advice_for, find_moments, game_steps
from hanabi.engine.replay import load

GAMES = Path(__file__).resolve().parents[1] / "tests" / "engine" / "hanablive" / "games"


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(folder: Path, limit: int, level: str | None = None) -> dict[str, float]:
    """The figures for the first ``limit`` readable games of ``folder`` (``games`` 0: none could be read)."""
    advice: list[float] = []
    moments: list[tuple[float, int]] = []  # (seconds, turns)
    for path in sorted(folder.glob("*.json")):
        if len(moments) >= limit:
            break
        try:
            final = load(path).state
        except (ReplayError, OSError):
            continue  # a game this program does not play (its variant or options): not the coach's concern
        for _, state in game_steps(final):
            if state.outcome is not None:
                continue
            start = time.process_time()
            advice_for(state, state.current, level=level)
            advice.append(time.process_time() - start)
        start = time.process_time()
        find_moments(final, level=level)
        moments.append((time.process_time() - start, final.turn))
    if not moments:
        return {"games": 0}
    per_60 = [seconds * 60 / max(turns, 1) for seconds, turns in moments]
    return {
        "games": len(moments),
        "advice_count": len(advice),
        "advice_median_ms": round(1000 * statistics.median(advice), 2),
        "advice_p99_ms": round(1000 * _percentile(advice, 0.99), 2),
        "advice_max_ms": round(1000 * max(advice), 2),
        "moments_median_s": round(statistics.median(s for s, _ in moments), 3),
        "moments_max_s": round(max(s for s, _ in moments), 3),
        "moments_max_turns": max(moments)[1],
        "moments_max_per_60_turns_s": round(max(per_60), 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/coach.py", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=Path, default=GAMES, help="a folder of hanab.live replay files")
    parser.add_argument("--limit", type=int, default=1000, help="read at most this many games")
    parser.add_argument("--level", choices=LEVELS, default=None, help="the table's convention level")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    if not args.games.is_dir():
        parser.error(f"{args.games} is not a folder: give --games a folder of replay files")
    row = measure(args.games, args.limit, args.level)
    if not row["games"]:
        parser.error(f"no replay file in {args.games} could be read: give --games a folder of hanab.live games")
    if args.json:
        print(json.dumps(row))
    else:
        print(f"advice ({row['advice_count']} turns): median {row['advice_median_ms']} ms, "
              f"p99 {row['advice_p99_ms']} ms, slowest {row['advice_max_ms']} ms CPU")
        print(f"moments ({row['games']} games): median {row['moments_median_s']} s, slowest "
              f"{row['moments_max_s']} s CPU ({row['moments_max_turns']} turns), "
              f"slowest per 60 turns {row['moments_max_per_60_turns_s']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
