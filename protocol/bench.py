"""Micro-benchmark: encode + decode of a typical 5-player view message, in µs per message.

    python -m hanabi.protocol.bench [--players 5] [--turns 30] [--runs 7] [--number 2000]

The views are seat 0's after each of the ten turns up to ``--turns``, in a
game played by a careful random player (it plays only cards that fit, so
the game lasts), each with the whole event history, as the server sends
them after every move. Each run times ``--number`` round trips (``encode``
then ``Decoder.feed``), cycling through those views; the median run is
printed, during a game (each view reuses what the previous one converted)
and cold (conversion caches emptied before every message).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from hanabi.engine import Clue, Discard, GameConfig, GameState, Play, apply, legal_actions, new_game, view_for

from .engine_wire import clear_caches
from .framing import Decoder, encode
from .messages import ViewUpdate


def typical_states(players: int = 5, turns: int = 30, seed: int = 1) -> list[GameState]:
    """The states of one game, from the deal to ``turns`` turns in, played with some sense:
    only playable cards are played, so the game lasts."""
    rng = random.Random(seed)
    state = new_game(GameConfig(players=players), seed=seed)
    states = [state]
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
        states.append(state)
    return states


def typical_game(players: int = 5, turns: int = 30, seed: int = 1) -> GameState:
    """The game ``turns`` turns in (see ``typical_states``)."""
    return typical_states(players, turns, seed)[-1]


def typical_view_message(players: int = 5, turns: int = 30) -> ViewUpdate:
    """Seat 0's view after ``turns`` turns, as the server sends it."""
    return ViewUpdate(game=1, view=view_for(typical_game(players, turns), 0))


def game_views(players: int, turns: int, count: int) -> list[ViewUpdate]:
    """Seat 0's views after each of the last ``count`` turns up to ``turns``: what a client receives in a row."""
    return [ViewUpdate(game=1, view=view_for(state, 0)) for state in typical_states(players, turns)[-count:]]


def time_round_trips(messages: list[ViewUpdate], number: int, *, cold: bool = False) -> tuple[float, float]:
    """Seconds per message spent in ``encode`` and in ``Decoder.feed``, cycling through ``messages``.

    ``cold`` forgets the conversion caches before each message, as for the
    first view a client receives; otherwise each view reuses what the
    previous one already converted, as during a game.
    """
    decoder = Decoder()
    feed = decoder.feed
    clock = time.perf_counter
    encoding = decoding = 0.0
    for i in range(number):
        message = messages[i % len(messages)]
        if cold:
            clear_caches()
        start = clock()
        frame = encode(message)
        middle = clock()
        feed(frame)
        encoding += middle - start
        decoding += clock() - middle
    return encoding / number, decoding / number


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hanabi.protocol.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=5, choices=range(2, 6), help="players at the table (2-5)")
    parser.add_argument("--turns", type=int, default=30, help="turns played before the view is taken")
    parser.add_argument("--runs", type=int, default=7, help="timed runs; the median is reported")
    parser.add_argument("--number", type=int, default=2000, help="messages per run")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.number < 1 or args.turns < 0:
        parser.error("--runs and --number must be at least 1, --turns at least 0")
    messages = game_views(args.players, args.turns, 10)
    for message in messages:
        if Decoder().feed(encode(message)) != [message]:
            print("error: a view did not survive a round trip; the benchmark would be meaningless", file=sys.stderr)
            return 1
    last = messages[-1]
    frame = encode(last)
    print(f"view message: {args.players} players, turn {last.view.turn}, {len(last.view.events)} events, "
          f"{len(frame)} bytes per frame")
    for label, cold in (("during a game", False), ("cold (first view)", True)):
        time_round_trips(messages, max(1, args.number // 10), cold=cold)  # warm-up
        runs = [time_round_trips(messages, args.number, cold=cold) for _ in range(args.runs)]
        both = [(e + d) * 1e6 for e, d in runs]
        print(f"encode+decode {label}: median {statistics.median(both):.1f} µs per message "
              f"(encode {statistics.median(e for e, _ in runs) * 1e6:.1f}, "
              f"decode {statistics.median(d for _, d in runs) * 1e6:.1f}) "
              f"over {args.runs} runs of {args.number}; min {min(both):.1f}, max {max(both):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
