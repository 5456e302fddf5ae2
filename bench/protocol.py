"""Micro-benchmark: encode + decode of a typical 5-player view message, in µs per message.

    python bench/protocol.py [--players 5] [--turns 30] [--runs 7] [--number 2000]

The views are seat 0's after each of the ten turns up to ``--turns``, in a
game played by a careful random player (it plays only cards that fit, so
the game lasts), as the server sends them after every move. Each run times
``--number`` round trips (a connection's ``Encoder`` then its ``Decoder``),
going through those views in order; the median run is printed, during a
game (each view carries only the event that is new on the connection) and
cold (a new connection for every message: the whole history).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from hanabi.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Clue,
    Discard,
    GameConfig,
    GameState,
    Play,
    apply,
    legal_actions,
    new_game,
    view_for,
)
from hanabi.protocol import Decoder, Encoder, ViewUpdate, encode


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
    """Seconds per message spent in ``Encoder.encode`` and in ``Decoder.feed``, going through ``messages``.

    During a game, a pair of encoder and decoder (one connection) takes the
    views in order, so each carries what is new since the one before; the
    first view of each pass through the list, which starts a connection, is
    sent untimed. ``cold`` gives every message a new connection, as for the
    first view a client receives.
    """
    clock = time.perf_counter
    encoding = decoding = 0.0
    encoder, decoder = Encoder(), Decoder()
    timed = 0
    i = 0
    while timed < number:
        message = messages[i % len(messages)]
        i += 1
        if cold:
            encoder, decoder = Encoder(), Decoder()
        elif i % len(messages) == 1:  # a new pass: a new connection, primed with the first view untimed
            encoder, decoder = Encoder(), Decoder()
            decoder.feed(encoder.encode(message))
            continue
        start = clock()
        frame = encoder.encode(message)
        middle = clock()
        decoder.feed(frame)
        encoding += middle - start
        decoding += clock() - middle
        timed += 1
    return encoding / number, decoding / number


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/protocol.py", description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=5, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1),
                        help=f"players at the table ({MIN_PLAYERS}-{MAX_PLAYERS})")
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
    encoder = Encoder()
    encoder.encode(messages[-2] if len(messages) > 1 else last)
    print(f"view message: {args.players} players, turn {last.view.turn}, {len(last.view.events)} events; "
          f"{len(encoder.encode(last))} bytes in a game (new events only), {len(encode(last))} bytes with the "
          "whole history")
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
