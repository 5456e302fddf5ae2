"""Benchmark: the engine's and the protocol's work in a server for each applied action, in µs.

    python bench/movebench.py [--tables 200] [--rounds 40] [--runs 5]

What a table of the server does with the engine and the protocol for every
move of a 5-player game: read the ``action`` request (``Decoder``),
``apply`` it, build the five seats' views together (``views_for``),
encode them for five connections (their ``Encoder``s) after the
move's ``event`` frame, and at the end of a game the ``game_over`` and ``replay`` frames and
a new deal. Sockets, Trio, the store and the lobby are left out: this is
the slice of the server's CPU per action that the engine and the protocol
own (the load test measures the whole).

``--tables`` tables play at once, one move each in turn, so that their
values are spread over memory as on a loaded server (one table alone runs
from the CPU's caches and looks a third faster). The players play as the
load test's do (discard the oldest card, or clue the next seat the rank of
its newest card when every clue token is in), so the games are the load
test's games. Requests are made outside the timing. Each run prints the
CPU time (process time) per action; the median run is reported, with where
the time went (wall-clock time, by stage).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from hanabi.engine import (
    CLUE_TOKENS,
    Clue,
    Discard,
    GameConfig,
    GameState,
    apply,
    new_game,
    reveal,
    views_for,
)
from hanabi.engine import replay as replay_file
from hanabi.protocol import (
    ActionRequest,
    Decoder,
    Encoder,
    GameEvent,
    GameOver,
    ReplayFile,
    ViewUpdate,
    encode,
)

PLAYERS = 5
NAMES = ("Alice", "Bob", "Cathy", "Donald", "Emily")
STAGES = ("read the request", "apply", "event frame", "views_for", "encode the views", "game over, new deal")


def load_test_move(state: GameState) -> Discard | Clue:
    """The load test's player: discard the oldest card, or clue the next seat the rank of its newest card."""
    seat = state.current
    if state.clue_tokens < CLUE_TOKENS:
        return Discard(state.hands[seat][-1])
    target = (seat + 1) % state.players
    return Clue(target, rank=state.deck[state.hands[target][0]].rank)


class Table:
    """One table's share of the server's work: its game, and a decoder and an encoder per seat's connection."""

    def __init__(self, number: int, clock: Counter[str]) -> None:
        self.number, self.games, self.clock = number, 0, clock
        self.decoders = [Decoder(peer="client") for _ in range(PLAYERS)]
        self.encoders = [Encoder() for _ in range(PLAYERS)]
        self.deal()

    def deal(self) -> None:
        self.games += 1
        self.state = new_game(GameConfig(players=PLAYERS), seed=self.number * 100_000 + self.games)
        self.publish(b"")  # the encoders see a new game id: each connection gets the history from its start

    def publish(self, event_frame: bytes) -> list[bytes]:
        clock, now = self.clock, time.perf_counter_ns
        start = now()
        views = views_for(self.state, range(PLAYERS))
        built = now()
        frames = [event_frame + encoder.encode(ViewUpdate(self.games, view))
                  for encoder, view in zip(self.encoders, views, strict=True)]
        clock["views_for"] += built - start
        clock["encode the views"] += now() - built
        return frames

    def move(self, request: bytes) -> None:
        clock, now = self.clock, time.perf_counter_ns
        start = now()
        seat = self.state.current
        decoder = self.decoders[seat]
        decoder.receive(request)
        message = decoder.next_message()
        decoder.next_message()  # as a server's reader does: None, nothing more has arrived
        assert isinstance(message, ActionRequest)
        read = now()
        self.state = apply(self.state, message.action, seat=seat)
        applied = now()
        event = encode(GameEvent(self.games, self.state.events[-1]))
        clock["read the request"] += read - start
        clock["apply"] += applied - read
        clock["event frame"] += now() - applied
        self.publish(event)
        if self.state.outcome is not None:
            start = now()
            shown = reveal(self.state)
            encode(GameOver(self.games, shown.outcome, shown.deck, str(self.games)))
            encode(ReplayFile(self.games, replay_file.dumps(self.state, NAMES)))
            self.deal()
            clock["game over, new deal"] += now() - start


def run(tables: list[Table], rounds: int) -> tuple[float, int]:
    """Every table makes ``rounds`` moves in turn; returns the CPU seconds they took and the moves made."""
    cpu = 0.0
    for _ in range(rounds):
        requests = [encode(ActionRequest(load_test_move(table.state))) for table in tables]
        start = time.process_time()
        for table, request in zip(tables, requests, strict=True):
            table.move(request)
        cpu += time.process_time() - start
    return cpu, rounds * len(tables)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/movebench.py", description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables playing at once (5 players each)")
    parser.add_argument("--rounds", type=int, default=40, help="moves per table in each run")
    parser.add_argument("--runs", type=int, default=5, help="timed runs; the median is reported")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.rounds < 1 or args.runs < 1:
        parser.error("--tables, --rounds and --runs must be at least 1")
    clock: Counter[str] = Counter()
    tables = [Table(number, clock) for number in range(args.tables)]
    run(tables, max(1, args.rounds // 4))  # warm-up
    results = []
    for _ in range(args.runs):
        clock.clear()
        cpu, moves = run(tables, args.rounds)
        results.append((cpu / moves * 1e6, {stage: clock[stage] / moves / 1000 for stage in STAGES}))
    results.sort(key=lambda result: result[0])
    median, stages = results[len(results) // 2]
    print(f"{args.tables} tables of {PLAYERS} players, {args.rounds} moves each per run: median "
          f"{median:.1f} µs of CPU per applied action over {args.runs} runs (min {results[0][0]:.1f}, "
          f"max {results[-1][0]:.1f}); wall-clock time by stage in that run:")
    for stage in STAGES:
        print(f"  {stage:20s} {stages[stage]:6.1f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
