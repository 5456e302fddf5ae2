"""Benchmark: a bot playing with copies of itself on a fixed list of seeds.

    python -m hanabi.engine.bots.bench [--players 2 3 4 5] [--games 1000] [--variant none]
                                       [--bot NAME] [--all-or-nothing] [--json]

Game ``g`` of an N-player run is dealt from seed ``g`` (so every run, and
every bot, meets the same decks). For each player count it prints the number
of games, the mean score with its standard error, the share of perfect games
and of strike-outs (which score 0, as the rules say), the mean decision time,
the 99th percentile and the slowest single decision. The slowest is given in
CPU time (the bot's own work) and in wall-clock time, which on a shared,
busy machine also counts the time spent waiting for a core. Single-threaded:
it uses one core.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass

from ..bench import add_game_options, checked_variant
from ..options import GameConfig
from ..outcome import EndReason
from ..state import apply, new_game
from ..views import view_for
from .registry import BOTS, DEFAULT_BOT, make_bot


@dataclass
class BenchResult:
    players: int
    games: int
    variant: str
    bot: str
    mean: float
    stderr: float
    perfect_pct: float
    strikeout_pct: float
    mean_decision_ms: float
    p99_decision_ms: float
    slowest_decision_ms: float  # CPU time of the costliest decision: the bot's own work
    slowest_wall_ms: float  # wall-clock time of the slowest decision: includes waiting for a core

    def line(self) -> str:
        return (f"{self.players} players: {self.games:>5} games  score {self.mean:6.2f} ± {self.stderr:4.2f}  "
                f"perfect {self.perfect_pct:5.1f} %  strike-outs {self.strikeout_pct:4.1f} %  "
                f"decision mean {self.mean_decision_ms:5.2f} ms, p99 {self.p99_decision_ms:5.1f} ms, "
                f"slowest {self.slowest_decision_ms:5.1f} ms CPU ({self.slowest_wall_ms:.1f} ms wall)")


def run(config: GameConfig, games: int, bot: str = DEFAULT_BOT) -> BenchResult:
    """Play ``games`` self-play games on seeds 0..games-1 and measure them."""
    scores: list[int] = []
    perfect = strikeouts = 0
    times: list[float] = []
    cpu_slowest = 0.0
    for seed in range(games):
        bots = [make_bot(bot) for _ in range(config.players)]
        state = new_game(config, seed)
        while state.outcome is None:
            view = view_for(state, state.current)
            start, cpu = time.perf_counter(), time.thread_time()
            action = bots[state.current].choose(view)
            times.append(time.perf_counter() - start)
            cpu_slowest = max(cpu_slowest, time.thread_time() - cpu)
            state = apply(state, action, seat=state.current)
        scores.append(state.outcome.score)
        perfect += state.outcome.reason is EndReason.PERFECT
        strikeouts += state.outcome.reason is EndReason.STRIKEOUT
    mean = sum(scores) / games
    var = sum((s - mean) ** 2 for s in scores) / (games - 1) if games > 1 else 0.0
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return BenchResult(config.players, games, config.variant.value, bot, mean, math.sqrt(var / games),
                       100 * perfect / games, 100 * strikeouts / games, 1000 * sum(times) / len(times),
                       1000 * p99, 1000 * cpu_slowest, 1000 * times[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hanabi.engine.bots.bench",
                                     description="Self-play benchmark of a bot on a fixed list of seeds.")
    add_game_options(parser, games=1000)
    parser.add_argument("--empty-clues", action="store_true", help="allow clues that touch no card")
    parser.add_argument("--bot", default=DEFAULT_BOT, help=f"which bot: {', '.join(sorted(BOTS))}")
    args = parser.parse_args(argv)
    variant = checked_variant(parser, args)
    if args.bot not in BOTS:
        parser.error(f"there is no bot named {args.bot!r}: choose one of {', '.join(sorted(BOTS))}")
    for players in args.players:
        config = GameConfig(players=players, variant=variant, all_or_nothing=args.all_or_nothing,
                            empty_clues=args.empty_clues)
        result = run(config, args.games, args.bot)
        if args.json:
            print(json.dumps(result.__dict__), flush=True)
        else:
            print(result.line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
