"""The command-line options the game benchmarks take (``bench/engine.py``, ``bench/bots.py``): which games,
how many, how to print."""

from __future__ import annotations

import argparse

from hanabi.engine import MAX_PLAYERS, MIN_PLAYERS, Variant


def add_game_options(parser: argparse.ArgumentParser, games: int) -> None:
    """The options every game benchmark takes (bench/engine.py and the bots'): which games, how many, how to print."""
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5],
                        choices=range(MIN_PLAYERS, MAX_PLAYERS + 1), metavar="N",
                        help=f"player counts to measure ({MIN_PLAYERS}-{MAX_PLAYERS}; default 2-5, the printed rules' "
                             "counts: six is beyond them)")
    parser.add_argument("--games", type=int, default=games, help=f"games per player count (default {games})")
    parser.add_argument("--variant", default="none", help="none, six_suits, short, wild (default none)")
    parser.add_argument("--all-or-nothing", action="store_true", help="play the all-or-nothing option")
    parser.add_argument("--json", action="store_true", help="one JSON object per player count")


def checked_variant(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Variant:
    """The variant of ``add_game_options``' arguments; a bad variant or game count is a usage error."""
    try:
        variant = Variant.parse(args.variant)
    except ValueError as e:
        parser.error(str(e))
    if args.games < 1:
        parser.error("--games must be at least 1")
    return variant
