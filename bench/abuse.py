"""``python bench/abuse.py``: each attack on the server for a few seconds beside an honest game, measured.

For each attack a fresh server starts as ``bench/loadtest.py`` starts one (a real ``hanabi-server``
process on loopback, with a throwaway SQLite file). Then, side by side:

* an honest game in a process of its own: 3 players, about 50 ms of thinking per move, the load test's
  lean clients (from 127.0.0.x); it times each action to its own updated view (p50, p99);
* the attacker in a process of its own (Trio tasks), from addresses 127.0.1.x, 127.0.2.x, ...;
* this process: every half second a new login and a resume of a seated player who dropped (from
  127.0.3.x), each given 2 seconds; and the server's resident memory, sampled every 0.1 s (its peak).

The server runs with a Trio instrument (``ROUND_TIMER``) that times each round of its event loop: from waking
from its I/O wait to waiting again, every task that was ready run once. A long round holds every move that
arrives meanwhile, so the longest round of the attack's time (in wall-clock time, which on a busy machine also
counts the moments the kernel gave the CPU to another process, and in the server's CPU time) is printed, with
how many task steps the longest in CPU held (readers and writers of connections, tables: a count, which a busy
machine changes less than it changes times) and how much of its CPU went to Python's cycle collections; and the
longest round's CPU with its collections taken out, which is the server's own work.

All of it runs on loopback only. The attacker and the honest clients share the machine's cores with the
server (on a LAN the attacker's CPU would be its own), so the figures are, if anything, pessimistic.

    python bench/abuse.py [--seconds 5] [--rounds 3] [--only dense4k,silent] [--nice 19] [--json]

prints one line per attack (medians over the rounds), or JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import multiprocessing
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgpack
import trio

sys.path.insert(0, str(Path(__file__).parent))
import loadtest  # bench/ is not a package: found through sys.path
from hanabi.protocol import PROTOCOL_VERSION, CreateTable, Hello, Leave, Spectate, encode

V = PROTOCOL_VERSION
GONE = (trio.BrokenResourceError, trio.ClosedResourceError, OSError)  # an attacker's connection ended


def _frame(tree: object) -> bytes:
    body: bytes = msgpack.packb(tree)
    return len(body).to_bytes(4, "big") + body


# A frame of nested maps and arrays just under the 4 KiB cap: about 3,800 containers to decode, refused after
# (its ignored field holds more than the protocol's 512): the costliest frame a client may send.
DENSE_4K = _frame({"v": V, "t": "ping", "n": 1, "x": [[{}] * 64] * 58})
DENSE_64K = _frame({"v": V, "t": "ping", "n": 1, "x": [[[{}] * 64] * 64] * 15})  # refused at its header now


# --- the attacker (its own process) ------------------------------------------------------------------------------

async def _open(port: int, address: str, name: str | None) -> trio.SocketStream | None:
    """A connection from ``address``; with ``name``, logged in (None if the server would not have it)."""
    try:
        stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=address)
    except OSError:
        return None
    if name is None:
        return stream
    seen = b""
    with trio.move_on_after(5), contextlib.suppress(*GONE):
        await stream.send_all(encode(Hello(protocol=V, program="abuse", name=name)))
        while b"\xa7welcome" not in seen and b"\xa7goodbye" not in seen:
            data = await stream.receive_some(65536)
            if not data:
                break
            seen += data
    if b"\xa7welcome" in seen:
        return stream
    await stream.aclose()
    return None


async def _drain(stream: trio.SocketStream, gone: trio.Event) -> None:
    with contextlib.suppress(*GONE):
        while await stream.receive_some(65536):
            pass
    gone.set()


async def _session(port: int, address: str, login: bool, act: Callable[[trio.SocketStream], Awaitable[None]],
                   stop: float) -> None:
    """Over and over until ``stop``: connect (and log in), then ``act`` until the server hangs up."""
    while trio.current_time() < stop:
        stream = await _open(port, address, f"x{secrets.token_hex(6)}" if login else None)
        if stream is None:
            await trio.sleep(0.2)
            continue
        gone = trio.Event()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_drain, stream, gone)
            with contextlib.suppress(*GONE), trio.move_on_at(stop):
                await act(stream)
                await gone.wait()
            nursery.cancel_scope.cancel()
        with contextlib.suppress(*GONE):
            await stream.aclose()


def _every(frames: list[bytes], per_second: float) -> Callable[[trio.SocketStream], Awaitable[None]]:
    async def act(stream: trio.SocketStream) -> None:
        while True:
            for data in frames:
                await stream.send_all(data)
                await trio.sleep(1 / per_second)
    return act


def _once(data: bytes) -> Callable[[trio.SocketStream], Awaitable[None]]:
    async def act(stream: trio.SocketStream) -> None:
        await stream.send_all(data)
        await trio.sleep_forever()
    return act


async def _silent(stream: trio.SocketStream) -> None:
    await trio.sleep_forever()


# name -> (what it does, (connections, addresses, logged in, what each does))
ATTACKS: dict[str, tuple[str, tuple[int, int, bool, Callable[[trio.SocketStream], Awaitable[None]]] | None]] = {
    "baseline": ("nothing: the honest game alone", None),
    "dense64k": ("20 connections, each a dense 64 KiB frame 15 times a second (reconnecting)",
                 (20, 1, True, _every([DENSE_64K], 15))),
    "dense4k": ("200 connections from one address, each a dense 3.9 KiB frame 15 times a second",
                (200, 1, True, _every([DENSE_4K], 15))),
    "dense4kx4": ("the same from 4 addresses (4 guests together)", (200, 4, True, _every([DENSE_4K], 15))),
    "refused": ("400 connections from 10 addresses: one refused dense frame each, then silence",
                (400, 10, True, _once(DENSE_4K))),
    "silent": ("256 sockets from 16 addresses that never say hello, reopened as soon as closed",
               (256, 16, False, _silent)),
    "churn": ("200 lobby connections from 4 addresses creating and leaving tables 8 times a second",
              (200, 4, True, _every([encode(CreateTable(name="churn", seats=5)), encode(Leave())], 16))),
    "churn20": ("200 lobby connections from 20 addresses creating and leaving tables 8 times a second",
                (200, 20, True, _every([encode(CreateTable(name="churn", seats=5)), encode(Leave())], 16))),
    "tables": ("300 idle connections from 5 addresses, each opening an empty table",
               (300, 5, True, _once(encode(CreateTable(name="mine", seats=5))))),
    "spectators": ("1,500 connections from one address, each trying to watch the honest table",
                   (1500, 1, True, _once(encode(Spectate(table=1))))),
}


def _attack(name: str, port: int, seconds: float, nice: int = 19) -> None:
    spec = ATTACKS[name][1]
    if spec is None:
        return
    count, addresses, login, act = spec
    # On a LAN the attacker's CPU is its own machine's: here it shares two cores with the server, so it runs at
    # the lowest priority, lest the figures measure this machine's scheduler rather than the server.
    os.nice(nice)

    async def main() -> None:
        stop = trio.current_time() + seconds
        async with trio.open_nursery() as nursery:
            for i in range(count):
                nursery.start_soon(_session, port, f"127.0.{1 + i % addresses // 250}.{1 + i % addresses % 250}",
                                   login, act, stop)
                if i % 50 == 49:
                    await trio.sleep(0.01)  # a burst, not one instant: the listener's backlog is finite

    started = time.process_time()
    trio.run(main)
    print(f"  (the attacker used {(time.process_time() - started) / seconds:.0%} of a core)", flush=True)


# --- the honest game (its own process) -----------------------------------------------------------------------------

def _honest(port: int, server_pid: int, seconds: float, out: Any) -> None:
    stats = loadtest.Stats()
    try:
        clients = loadtest._seat_table(port, 0, 3, stats, 0.05)
        loadtest._play(clients, 0.5, seconds, stats, server_pid)
        error = None
    except Exception as e:  # reported, not raised: the other attacks still run
        error = f"{type(e).__name__}: {e}"
    lat = sorted(stats.latencies)
    out.put({"p50_ms": round(lat[len(lat) // 2] * 1000, 1) if lat else None,
             "p99_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, 1) if lat else None,
             "actions": stats.actions, "errors": len(stats.errors), "failed": error})


# --- the server (its own process), its event loop's rounds timed ------------------------------------------------------

ROUND_TIMER = """
import gc, os, runpy, sys, time, trio
log = open(os.environ["HANABI_ROUND_LOG"], "w", buffering=1)

class Rounds(trio.abc.Instrument):
    began = (0.0, 0.0)
    steps = 0
    collecting = 0.0  # CPU time when the running collection began
    collected = 0.0  # CPU seconds of the round's collections
    oldest = -1  # the oldest generation the round collected (-1: none)
    # The collections' lines, written out between rounds: a collection can come inside a write to the log, and
    # writing from inside that write fails ("reentrant call"), losing the line.
    collections = []

    def after_io_wait(self, timeout):
        self.began = (time.perf_counter(), time.thread_time())
        self.steps, self.collected, self.oldest = 0, 0.0, -1

    def after_task_step(self, task):
        self.steps += 1

    def before_io_wait(self, timeout):
        wall, cpu = time.perf_counter() - self.began[0], time.thread_time() - self.began[1]
        if self.began[0] and wall > 0.001:  # the shorter ones, most of them, cannot be the longest
            log.write(f"{time.time():.6f} {wall * 1000:.3f} {cpu * 1000:.3f} {self.steps} "
                      f"{self.collected * 1000:.3f} {self.oldest}\\n")
        if self.collections:
            told, self.collections = self.collections, []  # a collection in another thread adds to the new list
            log.write("".join(told))

    def collection(self, phase, info):
        if phase == "start":
            self.collecting = time.thread_time()
            return
        took = time.thread_time() - self.collecting
        self.collected += took
        self.oldest = max(self.oldest, info["generation"])
        census = time.thread_time()
        # After a full pass every survivor is in the oldest generation: how many the next one will walk at least.
        kept = len(gc.get_objects(2)) if info["generation"] == 2 else 0
        self.collections.append(f"gc {time.time():.6f} {info['generation']} {took * 1000:.3f} {info['collected']} "
                                f"{kept}\\n")
        # The census and the line are the bench's, not the server's: out of the round's CPU.
        spent = time.thread_time() - census
        self.began = (self.began[0] + spent, self.began[1] + spent)

rounds = Rounds()
gc.callbacks.append(rounds.collection)
run = trio.run
trio.run = lambda *args, **kwargs: run(*args, instruments=[rounds], **kwargs)
sys.argv[0] = "hanabi-server"
runpy.run_module("hanabi.server", run_name="__main__", alter_sys=True)
"""


def _start_server(db: str, round_log: str) -> tuple[subprocess.Popen[bytes], int]:
    """A ``hanabi-server`` process as the load test starts one, its event loop's rounds logged to ``round_log``
    (each over 1 ms: when it ended, its wall-clock and CPU milliseconds, its task steps, and the CPU milliseconds
    of the cycle collections that ran in it with the oldest generation they collected)."""
    return loadtest.started([sys.executable, "-c", ROUND_TIMER], db, {**os.environ, "HANABI_ROUND_LOG": round_log})


def _longest_round(round_log: str, since: float, until: float) -> dict[str, Any]:
    """The longest round that ended between ``since`` and ``until`` (time.time()): its wall-clock and (of all
    of them) the longest CPU milliseconds, with the task steps of that longest in CPU (a count, which a busy
    machine does not change as it changes times: how many readers and writers one round held) and the CPU its
    cycle collections took; and the longest CPU of a round with its collections' CPU taken out (what the
    server's own work in one round came to)."""
    wall = cpu = collected = own = 0.0
    steps, oldest = 0, -1
    for line in Path(round_log).read_text().splitlines():
        if line.startswith("gc "):
            continue
        at, w, c, n, g, generation = (float(x) for x in line.split())
        if since <= at <= until:
            wall, own = max(wall, w), max(own, c - g)
            if c > cpu:
                cpu, steps, collected, oldest = c, int(n), g, int(generation)
    return {"round_ms": round(wall, 1), "round_cpu_ms": round(cpu, 1), "round_steps": steps,
            "round_gc_ms": round(collected, 1), "round_gc_generation": oldest, "round_own_cpu_ms": round(own, 1)}


def _collections(round_log: str, since: float, until: float) -> dict[str, Any]:
    """The cycle collections between ``since`` and ``until``: how many of each generation, the objects each
    generation's passes found in cycles (garbage only the collector frees), and the full passes (of the oldest
    generation): their CPU milliseconds, the objects they left (which the next one walks), and the seconds between
    them (None for fewer than two), and when each came (seconds into the attack)."""
    counts, freed, full = [0, 0, 0], [0, 0, 0], []
    for line in Path(round_log).read_text().splitlines():
        if line.startswith("gc "):
            _, at, generation, ms, collected, kept = line.split()
            if since <= float(at) <= until:
                counts[int(generation)] += 1
                freed[int(generation)] += int(collected)
                if generation == "2":
                    full.append((float(at), float(ms), int(kept)))
    gaps = [b[0] - a[0] for a, b in itertools.pairwise(full)]
    return {"gc_counts": counts, "gc_freed": freed, "full_at_s": [round(f[0] - since, 1) for f in full],
            "full_ms": [round(f[1], 1) for f in full],
            "full_kept": [f[2] for f in full], "full_every_s": round(statistics.median(gaps), 1) if gaps else None}


# --- this process: logins, resumes, memory -------------------------------------------------------------------------

def _until(sock: socket.socket, kinds: set[str], timeout: float) -> set[str]:
    """Read frames until every type in ``kinds`` came (or a goodbye, or the time is up); returns those seen."""
    seen: set[str] = set()
    buffer = b""
    deadline = time.monotonic() + timeout
    while not kinds <= seen and "goodbye" not in seen:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            data = sock.recv(65536)
        except OSError:
            break
        if not data:
            break
        buffer += data
        while len(buffer) >= 4 and len(buffer) >= 4 + int.from_bytes(buffer[:4], "big"):
            end = 4 + int.from_bytes(buffer[:4], "big")
            seen.add(msgpack.unpackb(buffer[4:end])["t"])
            buffer = buffer[end:]
    return seen


def _hello(port: int, address: str, name: str, resume: str | None, kinds: set[str],
           keep: Callable[[socket.socket], None] | None = None) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(address, 0)) as sock:
            sock.sendall(encode(Hello(protocol=V, program="probe", name=name, resume=resume)))
            ok = kinds <= _until(sock, kinds, 2.0)
            if ok and keep is not None:
                keep(sock)
            return ok
    except OSError:
        return False


def _returner(port: int) -> str:
    """A player seated at a table of their own who then drops: the one whose resumes are tried."""
    with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.3.2", 0)) as sock:
        sock.sendall(encode(Hello(protocol=V, program="probe", name="Returner")))
        buffer = b""
        while b"\xa6resume" not in buffer:
            buffer += sock.recv(65536)
        length = int.from_bytes(buffer[:4], "big")
        while len(buffer) < 4 + length:
            buffer += sock.recv(65536)
        token: str = msgpack.unpackb(buffer[4:4 + length])["resume"]
        sock.sendall(encode(CreateTable(name="back soon", seats=2)))
        _until(sock, {"joined"}, 5)
    return token


def run_attack(name: str, seconds: float, nice: int = 19) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        round_log = os.path.join(tmp, "rounds.log")
        proc, port = _start_server(os.path.join(tmp, "abuse.sqlite3"), round_log)
        try:
            out: Any = multiprocessing.Queue()
            honest = multiprocessing.Process(target=_honest, args=(port, proc.pid, seconds, out))
            honest.start()
            time.sleep(1.0)  # the honest table is table 1 (the spectators' target), seated before the attack
            token = _returner(port)
            attacker = multiprocessing.Process(target=_attack, args=(name, port, seconds, nice))
            attacker.start()
            peak = [loadtest._rss_kib(proc.pid)]
            done = threading.Event()

            def sample() -> None:
                while not done.wait(0.1):
                    peak.append(loadtest._rss_kib(proc.pid))

            sampler = threading.Thread(target=sample)
            sampler.start()
            logins = resumes = tries = 0
            cpu_before, started, began = sum(loadtest._cpu_seconds(proc.pid)), time.monotonic(), time.time()
            stop = started + seconds
            while time.monotonic() < stop:
                tries += 1
                logins += _hello(port, "127.0.3.1", f"Probe {tries}", None, {"welcome"})
                resumes += _hello(port, "127.0.3.2", "Returner", token, {"welcome", "joined"})
                time.sleep(0.5)
            cpu = (sum(loadtest._cpu_seconds(proc.pid)) - cpu_before) / (time.monotonic() - started)
            rounds = {**_longest_round(round_log, began, time.time()),
                      **_collections(round_log, began, time.time())}
            result = out.get(timeout=seconds + 60)
            done.set()
            sampler.join()
            attacker.join(30)
            honest.join(30)
        finally:
            proc.terminate()
            proc.wait(10)
    return {"attack": name, **result, "logins": f"{logins}/{tries}", "resumes": f"{resumes}/{tries}",
            "logins_ok": logins == tries, "resumes_ok": resumes == tries, "rss_peak_mib": round(max(peak) / 1024, 1),
            "server_cpu": round(cpu, 2), **rounds}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/abuse.py", description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="each attack's measured time (default 5)")
    parser.add_argument("--rounds", type=int, default=1, help="runs of every attack; medians are printed")
    parser.add_argument("--only", default="", help="comma-separated attacks (default all: " + ", ".join(ATTACKS) + ")")
    parser.add_argument("--json", action="store_true", help="one JSON object per attack and round, one per line")
    parser.add_argument("--nice", type=int, default=19, help="the attacker's niceness (default 19, the lowest "
                        "priority; on a machine busy with other work it may then hardly run: 0 gives it a fair share)")
    args = parser.parse_args(argv)
    names = [n for n in args.only.split(",") if n] or list(ATTACKS)
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores shared); {args.rounds} round(s) of "
          f"{args.seconds:g} s each", flush=True)
    for name in names:
        results = [run_attack(name, args.seconds, args.nice) for _ in range(args.rounds)]
        for r in results if args.json else ():
            print(json.dumps(r), flush=True)

        def med(key: str, results: list[dict[str, Any]] = results) -> float | None:
            values = [r[key] for r in results if r[key] is not None]
            return round(statistics.median(values), 1) if values else None

        failed = next((r["failed"] for r in results if r["failed"]), None)
        print(f"{name:<11} honest p50 {med('p50_ms')} ms, p99 {med('p99_ms')} ms ({med('actions')} actions); "
              f"logins {', '.join(r['logins'] for r in results)}; resumes {', '.join(r['resumes'] for r in results)}"
              f"; server peak {med('rss_peak_mib')} MiB, CPU {med('server_cpu')}; longest loop round "
              f"{med('round_ms')} ms ({med('round_cpu_ms')} ms of CPU, {med('round_steps')} task steps, "
              f"{med('round_gc_ms')} ms collecting); without its collections {med('round_own_cpu_ms')} ms of CPU; "
              f"collections of generation 0/1/2 {', '.join('/'.join(map(str, r['gc_counts'])) for r in results)}, "
              f"freed in cycles {', '.join('/'.join(map(str, r['gc_freed'])) for r in results)}; full passes "
              f"{'; '.join(', '.join(f'{ms} ms' for ms in r['full_ms']) or 'none' for r in results)}; "
              f"load {os.getloadavg()[0]:.1f}"
              + (f"; honest game broke: {failed}" if failed else "") + f"  [{ATTACKS[name][0]}]", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
