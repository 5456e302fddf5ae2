"""Micro-benchmark: encode + decode of a typical 5-player view message, in µs per message.

    python -m hanabi.protocol.bench [--players 5] [--turns 30] [--runs 7] [--number 2000]

The view is seat 0's, after ``--turns`` turns of a game played by a careful
random player (it plays only cards that fit, so the game lasts), with the
whole event history, as the server sends it after every move. Each run
times ``--number`` round trips (``encode`` then ``Decoder.feed``); the
median run is printed, with the frame's size.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from hanabi.engine import Clue, Discard, GameConfig, GameState, Play, apply, legal_actions, new_game, view_for

from .framing import Decoder, encode
from .messages import ViewUpdate


def typical_game(players: int = 5, turns: int = 30, seed: int = 1) -> GameState:
    """A game ``turns`` turns in, played with some sense: only playable cards are played."""
    rng = random.Random(seed)
    state = new_game(GameConfig(players=players), seed=seed)
    for _ in range(turns):
        if state.over:
            break
        actions = legal_actions(state)
        good = [a for a in actions if not isinstance(a, Play)
                or state.fireworks[state.deck[a.order].suit.index] == state.deck[a.order].rank - 1]
        plays = [a for a in good if isinstance(a, Play)]
        clues = [a for a in good if isinstance(a, Clue)]
        discards = [a for a in good if isinstance(a, Discard)]
        pool = plays or (clues if clues and rng.random() < 0.6 else discards) or good
        state = apply(state, rng.choice(pool))
    return state


def typical_view_message(players: int = 5, turns: int = 30) -> ViewUpdate:
    return ViewUpdate(game=1, view=view_for(typical_game(players, turns), 0))


def time_round_trips(message: ViewUpdate, number: int) -> float:
    """Seconds per encode + decode, over ``number`` round trips."""
    decoder = Decoder()
    feed = decoder.feed
    start = time.perf_counter()
    for _ in range(number):
        feed(encode(message))
    return (time.perf_counter() - start) / number


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hanabi.protocol.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=5, choices=range(2, 6), help="players at the table (2-5)")
    parser.add_argument("--turns", type=int, default=30, help="turns played before the view is taken")
    parser.add_argument("--runs", type=int, default=7, help="timed runs; the median is reported")
    parser.add_argument("--number", type=int, default=2000, help="round trips per run")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.number < 1 or args.turns < 0:
        parser.error("--runs and --number must be at least 1, --turns at least 0")
    message = typical_view_message(args.players, args.turns)
    frame = encode(message)
    decoded = Decoder().feed(frame)
    if decoded != [message]:
        print("error: the view did not survive a round trip; the benchmark would be meaningless", file=sys.stderr)
        return 1
    time_round_trips(message, max(1, args.number // 10))  # warm-up
    runs = [time_round_trips(message, args.number) for _ in range(args.runs)]
    median = statistics.median(runs) * 1e6
    view = message.view
    print(f"view message: {args.players} players, turn {view.turn}, {len(view.events)} events, "
          f"{len(frame)} bytes per frame")
    print(f"encode+decode: median {median:.1f} µs per message over {args.runs} runs of {args.number} "
          f"(min {min(runs) * 1e6:.1f}, max {max(runs) * 1e6:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
