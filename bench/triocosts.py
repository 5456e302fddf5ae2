"""``python bench/triocosts.py``: what the Trio primitives on a move's path cost, in µs of CPU per use.

The server's CPU per move (``bench/loadtest.py``) is a third engine and
protocol (``bench/movebench.py``), a fifth the kernel's socket work, and the
rest the Trio plumbing that carries a request from its socket to its table,
to the store and back: cancel scopes, locks, channels, events, a thread hop.
This prints what each of those costs on this machine, so that a change to
that path can say what it buys without a load test (whose figures swing by
tens of µs a move when other work shares the machine). Each figure is the
median of ``--runs`` runs of CPU time (process time, so time lost to other
processes does not count), divided by the uses in a run.

Then a connection's read path over a real socket pair, a 60-byte request
read and answered, with and without a deadline scope around each read: what
``server/connection.py`` saves by letting its heartbeat keep the peer's
deadline. Last, what one move's write to the store costs (the caller's hop
to the store's task, the SQLite transaction on the event loop), alone and in
batches, process-wide (its worker thread included: the WAL's copy).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable

import trio
from hanabi.engine import Discard, GameConfig
from hanabi.server import Store
from hanabi.server.records import TableSettings

REQUEST = b"x" * 60  # an action request is a few dozen bytes


async def _scope(n: int) -> None:
    for _ in range(n):
        with trio.move_on_at(trio.current_time() + 30):
            pass


async def _shield(n: int) -> None:
    for _ in range(n):
        with trio.CancelScope(shield=True):
            pass


async def _lock(n: int) -> None:
    lock = trio.Lock()
    for _ in range(n):
        async with lock:
            pass


async def _checkpoint(n: int) -> None:
    for _ in range(n):
        await trio.lowlevel.checkpoint()


async def _call(n: int) -> None:
    """A request handed to another task through a memory channel, waited for on a ``trio.Event`` (Table.call)."""
    send, receive = trio.open_memory_channel[trio.Event](64)

    async def owner() -> None:
        async for done in receive:
            done.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(owner)
        for _ in range(n):
            done = trio.Event()
            await send.send(done)
            await done.wait()
        send.close()


async def _thread(n: int) -> None:
    for _ in range(n):
        await trio.to_thread.run_sync(int)


def _reads(scoped: bool) -> Callable[[int], Awaitable[None]]:
    async def reads(n: int) -> None:
        a, b = trio.socket.socketpair()
        ours, peer = trio.SocketStream(a), trio.SocketStream(b)

        async def client() -> None:
            for _ in range(n):
                await peer.send_all(REQUEST)
                await peer.receive_some(100)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(client)
            for _ in range(n):
                if scoped:
                    with trio.move_on_at(trio.current_time() + 30):
                        data = await ours.receive_some(4100)
                else:
                    data = await ours.receive_some(4100)
                await ours.send_all(data)
    return reads


def _store(writers: int) -> Callable[[int], Awaitable[None]]:
    """``Store.add_action`` (into a throwaway SQLite file), ``writers`` tasks writing at once: the store's task
    commits what is queued together, so this is the cost of a move's write in batches of about ``writers``."""
    async def writes(n: int) -> None:
        with tempfile.TemporaryDirectory() as folder:
            store = Store(os.path.join(folder, "store.sqlite3"))
            store.open_sync(exclusive=True)
            try:
                async with trio.open_nursery() as nursery:
                    await nursery.start(store.run)
                    table = await store.create_table("bench", TableSettings(), None, None)
                    games = [await store.start_game(table, GameConfig(), "seed", ("a", "b")) for _ in range(writers)]

                    async def writer(game: int) -> None:
                        for seq in range(n // writers):
                            await store.add_action(game, seq, Discard(0))

                    async with trio.open_nursery() as inner:
                        for game in games:
                            inner.start_soon(writer, game)
                    store.stop()
            finally:
                store.close_sync()
    return writes


CASES: list[tuple[str, Callable[[int], Awaitable[None]], int]] = [
    ("cancel scope with a deadline (move_on_at), entered and left", _scope, 20_000),
    ("shielded cancel scope, entered and left", _shield, 20_000),
    ("trio.Lock, taken and released", _lock, 20_000),
    ("checkpoint (a yield to the scheduler)", _checkpoint, 20_000),
    ("call: a memory channel to another task, then waiting on its trio.Event", _call, 20_000),
    ("trio.to_thread.run_sync of a function doing nothing", _thread, 2_000),
    ("a read and its answer over a socket pair, a deadline scope per read", _reads(True), 10_000),
    ("a read and its answer over a socket pair, no scope", _reads(False), 10_000),
    ("a move's write to the store, alone (a LAN's pace: a batch of one)", _store(1), 2_000),
    ("a move's write to the store, 4 at once (batches of about 4)", _store(4), 4_000),
]


def measure(case: Callable[[int], Awaitable[None]], n: int, runs: int) -> float:
    """Median µs of CPU per use over ``runs`` runs."""
    figures = []
    for _ in range(runs):
        start = time.process_time()
        trio.run(case, n)
        figures.append((time.process_time() - start) / n * 1e6)
    return statistics.median(figures)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/triocosts.py", description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each case; the median is shown (default 5)")
    parser.add_argument("--scale", type=float, default=1.0, help="uses per run, as a share of the usual (default 1)")
    args = parser.parse_args(argv)
    for name, case, n in CASES:
        print(f"{measure(case, max(1, round(n * args.scale)), args.runs):8.1f} µs  {name}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
