"""The command-line options every game benchmark takes: which games, how many, how to print.

The benchmarks themselves live in ``bench/`` at the top of the repository
(not installed). These options stay in the package only because the bots'
benchmark, ``engine/bots/bench.py``, still lives here and takes them too;
once it moves to ``bench/``, they move beside it and this module goes.
"""

from __future__ import annotations

import argparse

from .variants import Variant


def add_game_options(parser: argparse.ArgumentParser, games: int) -> None:
    """The options every game benchmark takes (bench/engine.py and the bots'): which games, how many, how to print."""
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5], choices=range(2, 6),
                        metavar="N", help="player counts to measure (2-5; default: all)")
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
