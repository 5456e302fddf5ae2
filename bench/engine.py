"""Benchmark: uniformly random legal games, in games and actions per second.

    python bench/engine.py --players 2 3 4 5 --games 20000 [--variant none] [--json]

Each game deals from a fixed seed and picks uniformly among ``legal_actions``
until it ends. The figure measures the engine (deal, legal_actions, apply),
on one core: the loop is single-threaded.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from hanabi.engine import GameConfig, apply, legal_actions, new_game
from hanabi.engine.bench import add_game_options, checked_variant


def play_random_games(config: GameConfig, games: int, seed: int = 0) -> tuple[int, float]:
    """Play ``games`` random games; return the number of actions taken and the seconds spent."""
    rng = random.Random(seed)
    choice = rng.choice
    actions = 0
    start = time.perf_counter()
    for g in range(games):
        state = new_game(config, seed * 1_000_003 + g)
        while state.outcome is None:
            state = apply(state, choice(legal_actions(state)))
        actions += state.turn
    return actions, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/engine.py", description=__doc__.split("\n")[0])
    add_game_options(parser, games=5000)
    args = parser.parse_args(argv)
    variant = checked_variant(parser, args)
    for players in args.players:
        config = GameConfig(players=players, variant=variant, all_or_nothing=args.all_or_nothing)
        actions, seconds = play_random_games(config, args.games)
        row = {
            "players": players,
            "games": args.games,
            "variant": variant.value,
            "games_per_second": round(args.games / seconds, 1),
            "actions_per_second": round(actions / seconds, 1),
            "actions_per_game": round(actions / args.games, 2),
        }
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"{players} players: {row['games_per_second']:>9.1f} games/s  "
                  f"{row['actions_per_second']:>10.1f} actions/s  "
                  f"({row['actions_per_game']} actions/game, {args.games} games, {variant.value})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
