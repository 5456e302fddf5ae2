"""Benchmark: ``hanabi-server stats --json`` on a store of finished games.

    python bench/stats.py [--games 200] [--people 12] [--runs 5] [--keep PATH]

Builds a store through the server's own ``Store`` (a few tables, each game played to its end, every action
written, 2 to 6 seats of which some are bots; the moves are a peeking player's: a playable card when one is held,
else a random clue or discard, so games last as long as real ones), then runs the real command in a fresh
process ``--runs`` times and prints the median wall time (start-up included: what an operator waits for) and
the median CPU time of the command's process (user + system: on a shared machine the wall time also counts
waiting for a core), with the time of the store read alone (``read_records``) in this process. The command runs
as an installed program does, from compiled bytecode: the runs share a bytecode cache in a temporary folder
(even where ``PYTHONDONTWRITEBYTECODE`` is set, which would compile every module at every start), filled by one
run before those measured; where ``PYTHONPYCACHEPREFIX`` names a cache already (the tests' own), that one is used
and the run before only tops it up. Single-threaded: it uses one core.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio
from hanabi.engine import MAX_PLAYERS, MIN_PLAYERS, GameConfig, GameState, Play, Variant, apply, legal_actions, new_game
from hanabi.server.records import TableSettings
from hanabi.server.saved import read_records
from hanabi.server.store import Store


def _playable(state: GameState, order: int) -> bool:
    card = state.deck[order]
    return state.fireworks[state.config.variant.suits.index(card.suit)] == card.rank - 1


async def build(path: Path, games: int, people: int, seed: int = 1) -> int:
    """A store of ``games`` finished games among ``people`` people (and bots); returns the actions written."""
    rng = random.Random(seed)
    store = Store(str(path))
    store.open_sync()
    written = 0
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        keys = [f"key{i}" for i in range(people)]
        for i, key in enumerate(keys):
            await store.add_player(key, f"Player {i}")
        tables = [await store.create_table(f"t{t}", TableSettings(), None, 0) for t in range(8)]
        for g in range(games):
            players = rng.randint(MIN_PLAYERS, MAX_PLAYERS)
            config = GameConfig(players=players, variant=rng.choice(list(Variant)))
            seated = rng.sample(keys, rng.randint(1, min(players, people)))
            names = tuple(f"Player {keys.index(k)}" for k in seated) + tuple(
                f"Bot {b}" for b in range(players - len(seated)))
            gid = await store.start_game(rng.choice(tables), config, str(g), names, tuple(seated),
                                         bots=len(seated) < players)
            state = new_game(config, g)
            while not state.over:
                actions = legal_actions(state)
                good = [a for a in actions if isinstance(a, Play) and _playable(state, a.order)]
                action = rng.choice(good or [a for a in actions if not isinstance(a, Play)] or actions)
                state = apply(state, action)
                await store.add_action(gid, written, action)
                written += 1
            assert state.outcome is not None
            await store.finish_game(gid, state.outcome.score, state.outcome.reason.value)
        nursery.cancel_scope.cancel()
    store.close_sync()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/stats.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="finished games in the store (default 200)")
    parser.add_argument("--people", type=int, default=12, help="people who play them (default 12)")
    parser.add_argument("--runs", type=int, default=5, help="runs of the command (default 5)")
    parser.add_argument("--keep", default=None, metavar="PATH", help="build the store here and keep it")
    parser.add_argument("--json", action="store_true", help="one JSON object with the figures")
    args = parser.parse_args(argv)
    if args.games < 1 or args.people < 1 or args.runs < 1:
        parser.error("--games, --people and --runs must be at least 1")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(args.keep) if args.keep else Path(folder) / "stats.sqlite3"
        if path.exists():
            parser.error(f"{path} already exists: name a new file")
        actions = trio.run(build, path, args.games, args.people)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.setdefault("PYTHONPYCACHEPREFIX", str(Path(folder) / "bytecode"))
        command = [sys.executable, "-m", "hanabi.server", "stats", "--json", "--db", str(path)]
        subprocess.run(command, capture_output=True, check=True, env=env)  # fills the bytecode cache
        walls, cpus = [], []
        for _ in range(args.runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
            walls.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        people = len(done.stdout.splitlines())
        db = sqlite3.connect(path)
        reads = []
        for _ in range(args.runs):
            start = time.perf_counter()
            read_records(db)
            reads.append(time.perf_counter() - start)
        db.close()
    figures = {"games": args.games, "actions": actions, "people": people, "runs": args.runs,
               "command_median_s": round(statistics.median(walls), 3), "command_max_s": round(max(walls), 3),
               "command_cpu_median_s": round(statistics.median(cpus), 3),
               "read_median_ms": round(statistics.median(reads) * 1000, 2)}
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"a store of {args.games} finished games ({actions} actions, {people} people with a record)")
        print(f"hanabi-server stats --json: median {figures['command_median_s']:.3f} s, slowest "
              f"{figures['command_max_s']:.3f} s of {args.runs} runs (wall, start-up included); CPU median "
              f"{figures['command_cpu_median_s']:.3f} s")
        print(f"the store read alone (read_records): median {figures['read_median_ms']:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
