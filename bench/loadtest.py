"""``python bench/loadtest.py``: many tables playing at once through the real protocol, measured.

It starts a real ``hanabi-server`` process on loopback (with a throwaway
SQLite file, so every action is written to disk as in production), opens
``tables x players`` TCP connections from this process, seats them, and lets
every table play games back to back (the host starts the next one) for the
given time. Then it prints:

* applied actions per second (every turn the server checked, stored and sent);
* round-trip latency, p50 and p99: from sending an action to receiving one's
  own updated view (the server's ack);
* the server's CPU time per applied action (how much of it the kernel
  spent, and how much its event loop's thread and its other threads, the
  store's commits) and its share of one core, the same for the load
  generator (this process: both run on the same machine), and the server's
  memory (resident set) per table, from /proc (so Linux only).

The clients cost little on purpose, so that the server, not the load, is what
is measured (they share the machine's cores with it): they all run on one
epoll loop in this process (no task or thread per connection), with the
kernel's receive timestamps to time each answer. They cut what they receive
into the protocol's frames and unpack each as a plain msgpack tree (no
``Decoder``: they trust the server, so they skip the protocol's field
checks and the views' history, which a real client keeps and which cost
five times this loop's CPU); they still read every frame's type, answer
pings, count errors and goodbyes, and act on each view of their turn. They
send requests made with the protocol's ``encode``, each distinct one once.
Their play is simple and always legal: discard the oldest card, or clue the
next seat with the rank of its newest card when all clue tokens are in.
With ``--think S`` each player pauses 0.5 S to 1.5 S (at random) before
acting, counted from when the view reached their socket.
"""

from __future__ import annotations

import argparse
import gc
import heapq
import json
import os
import random
import select
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack
from hanabi.engine import CLUE_TOKENS, MAX_PLAYERS, MIN_PLAYERS, Clue, Discard
from hanabi.protocol import (
    HEADER,
    PROTOCOL_VERSION,
    ActionRequest,
    CreateTable,
    Hello,
    Join,
    Message,
    Pong,
    Start,
    encode,
)

_REQUESTS: dict[tuple[int, int], bytes] = {}  # (0, order) discards, (target + 1, rank) clues: their frames
_SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)  # Linux; its control message has the same number
_TIMESPEC = struct.Struct("@qq")  # struct timespec: seconds, nanoseconds (wall clock)
_STAMP_SPACE = socket.CMSG_SPACE(_TIMESPEC.size)
SETUP_TIMEOUT = 20.0  # seconds for one connection to be welcomed and seated
_HALF_TICK = 0.0005  # half of epoll's timeout unit (a millisecond)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # to the view's arrival at the client's socket
    read_latencies: list[float] = field(default_factory=list)  # to when this process got round to reading it
    actions: int = 0
    games: int = 0
    errors: list[str] = field(default_factory=list)
    measuring: bool = False
    window: tuple[float, float] = (0.0, 0.0)  # wall-clock start and end of the measured time


class LoadClient:
    """One seat: reads its socket, acts on its turn, and times its own actions."""

    def __init__(self, sock: socket.socket, seat: int, players: int, stats: Stats, host: bool,
                 think: float = 0.0) -> None:
        self.sock = sock
        self.seat = seat
        self.players = players
        self.stats = stats
        self.host = host
        self.buffer = bytearray()  # the start of a frame whose end has not arrived yet
        self.acted_turn = -1  # the turn of the last view acted on: a view of the same turn is not acted on again
        self.sent_at: float | None = None
        self.think = think  # seconds to wait before acting, like a player thinking (0: as fast as possible)
        self.pending: dict[str, Any] | None = None  # the view to act on once the thinking is over

    def send(self, message: Message) -> None:
        self.sock.sendall(encode(message))  # a request is a few dozen bytes: the socket's buffer takes it

    def until(self, kind: str) -> dict[str, Any]:
        """During the setup (blocking socket): the next message of type ``kind``, as a plain tree."""
        while True:
            data = self.sock.recv(1 << 16)
            if not data:
                raise EOFError("the server closed the connection during the setup")
            for tree in self.trees(data, len(data)):
                if tree["t"] == kind:
                    return tree
                if tree["t"] == "error":
                    raise RuntimeError(f"the server refused a setup request: {tree['message']}")

    def trees(self, data: bytes | bytearray, size: int) -> list[dict[str, Any]]:
        """The messages completed by the first ``size`` bytes of ``data`` (a buffer reused for every read: nothing
        of it is kept but the start of an incomplete frame, copied), each unpacked as a plain msgpack tree."""
        if self.buffer:
            self.buffer += memoryview(data)[:size]
            data, size = self.buffer, len(self.buffer)
            self.buffer = bytearray()
        out = []
        start = 0
        while size - start >= HEADER.size:
            (length,) = HEADER.unpack_from(data, start)
            end = start + HEADER.size + length
            if end > size:
                break
            out.append(msgpack.unpackb(memoryview(data)[start + HEADER.size:end]))
            start = end
        if start < size:
            self.buffer = bytearray(memoryview(data)[start:size])
        return out

    def receive(self, data: bytes | bytearray, size: int, timers: list[tuple[float, int, LoadClient]],
                arrived: float | None = None) -> None:
        """Handle the messages completed by the first ``size`` bytes of ``data``. ``arrived``: when the kernel
        received the first of these bytes (wall clock)."""
        if self.buffer:
            arrived = None  # a frame began in an earlier read: its bytes did not all arrive then
        for tree in self.trees(data, size):
            # A move's event and view leave the server in one write: they arrive together, at ``arrived``.
            self.handle(tree, timers, arrived)

    def handle(self, tree: dict[str, Any], timers: list[tuple[float, int, LoadClient]],
               arrived: float | None = None) -> None:
        """One message from the server, as a plain tree. ``arrived``: when it reached the socket, if known (see
        ``_play``)."""
        kind = tree["t"]
        if kind == "view":
            self.viewed(tree["view"], timers, arrived)
        elif kind == "ping":
            self.send(Pong(n=tree["n"]))
        elif kind == "game_started":
            self.acted_turn = -1  # a new game counts its turns from 0 again
        elif kind == "game_over":
            if self.host:
                self.stats.games += 1
                self.send(Start())
        elif kind == "error":
            self.stats.errors.append(tree["message"])
        elif kind == "goodbye":
            raise EOFError(f"goodbye: {tree['reason']}: {tree['message']}")
        # Anything else (a move's event, news of the table) needs no answer: the view that follows says all.

    def viewed(self, view: dict[str, Any], timers: list[tuple[float, int, LoadClient]],
               arrived: float | None) -> None:
        """This seat's view after a move: the answer to its own action, if it sent one; its turn, maybe."""
        if self.sent_at is not None:
            if self.stats.measuring:
                read = time.time() - self.sent_at
                self.stats.read_latencies.append(read)
                # Bytes that reached the socket before the action was sent cannot be its answer: then only
                # the reading time is known.
                late = arrived - self.sent_at if arrived is not None and arrived >= self.sent_at else read
                self.stats.latencies.append(late)
                self.stats.actions += 1
            self.sent_at = None
        if view["current"] != self.seat or view["outcome"] is not None or view["turn"] == self.acted_turn:
            return
        self.acted_turn = view["turn"]
        if self.think:
            # Players do not all think for the same time; equal pauses would keep every table
            # in step and turn the load into bursts of one action per table at the same instant.
            # A player starts thinking when the view reaches their socket: the time this process
            # took to get round to reading it (1,000 clients on one loop) is part of the pause, not
            # added to it, or the load offered would fall as this process gets busier.
            self.pending = view
            late = max(0.0, time.time() - arrived) if arrived is not None else 0.0
            due = time.perf_counter() - late + self.think * random.uniform(0.5, 1.5)
            heapq.heappush(timers, (due, id(self), self))
        else:
            self.act(view)

    def act(self, view: dict[str, Any]) -> None:
        """Act on a view read as a plain tree (``docs/protocol.md``): what the server checks."""
        hands = view["hands"]
        if view["clue_tokens"] < CLUE_TOKENS:
            key = (0, hands[self.seat][-1][0])  # discard the oldest card (by its order)
        else:
            target = (self.seat + 1) % self.players
            key = (target + 1, int(hands[target][0][1][-1]))  # clue the rank of its newest card, "R3" -> 3
        request = _REQUESTS.get(key)
        if request is None:
            action = Discard(key[1]) if key[0] == 0 else Clue(key[0] - 1, rank=key[1])
            request = _REQUESTS[key] = encode(ActionRequest(action))
        self.sent_at = time.time()  # the wall clock, as the kernel's receive timestamps (see _play)
        self.sock.sendall(request)  # a request is a few dozen bytes: the socket's buffer takes it


_connected = 0


def _connect(port: int, name: str, seat: int, players: int, stats: Stats, host: bool,
             think: float) -> LoadClient:
    # From 127.0.0.2 to 127.0.0.201 in turn (all loopback on Linux): the server takes only so many players
    # from one address (max_players_per_address), as from one machine on a LAN.
    global _connected
    _connected += 1
    source = (f"127.0.0.{2 + _connected % 200}", 0)
    sock = socket.create_connection(("127.0.0.1", port), timeout=SETUP_TIMEOUT, source_address=source)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    client = LoadClient(sock, seat, players, stats, host, think)
    client.send(Hello(protocol=PROTOCOL_VERSION, program="loadtest", name=name))
    client.until("welcome")
    return client


def _seat_table(port: int, index: int, players: int, stats: Stats, think: float) -> list[LoadClient]:
    host = _connect(port, f"h{index}", 0, players, stats, True, think)
    host.send(CreateTable(name=f"load {index}", seats=players))
    table = host.until("joined")["table"]["id"]
    clients = [host]
    for seat in range(1, players):
        c = _connect(port, f"p{index}.{seat}", seat, players, stats, False, think)
        c.send(Join(table=table, seat=seat))
        c.until("joined")
        clients.append(c)
    return clients


def _answer_pings(clients: list[LoadClient]) -> None:
    """During the setup: whatever the seated clients have been sent, read and handled (so they answer the
    server's pings: on a busy machine seating 1,000 clients takes longer than the server waits for a sign of
    life from each)."""
    poller = select.poll()  # not select.select: it takes no file descriptor past 1023
    by_fd = {c.sock.fileno(): c for c in clients}
    for fd in by_fd:
        poller.register(fd, select.POLLIN)
    for fd, _ in poller.poll(0):
        data = by_fd[fd].sock.recv(1 << 16)
        if not data:
            raise EOFError("the server closed a connection during the setup")
        by_fd[fd].receive(data, len(data), [])


def _family(pid: int) -> list[int]:
    """The server's process and any children it has (none today; a profiler's run may have one)."""
    found = [pid]
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():  # every thread's: Trio starts processes from a thread
            found += map(int, (task / "children").read_text().split())
    except OSError:
        pass
    return found


def _cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system (kernel) CPU time the server's processes have used so far (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    user = kernel = 0.0
    for p in _family(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        user += int(fields[11]) / tick
        kernel += int(fields[12]) / tick
    return user, kernel


def _threads_cpu(pid: int) -> dict[int, float] | None:
    """The CPU seconds each thread of the server has used so far, from its schedstat (nanoseconds); None where the
    kernel keeps none. The process's first thread runs the event loop; the others are the store's commits'."""
    used = {}
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            used[int(task.name)] = int((task / "schedstat").read_text().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        return None
    return used


def _rss_kib(pid: int) -> int:
    """Resident memory of the server's processes, summed."""
    total = 0
    for p in _family(pid):
        try:
            lines = Path(f"/proc/{p}/status").read_text().splitlines()
        except OSError:
            continue
        total += sum(int(line.split()[1]) for line in lines if line.startswith("VmRSS:"))
    return total


# With ``--gc-log``, the server's ``-c`` program begins with this (``_start_server``): every cycle collection
# written to the file named by HANABI_GC_LOG (wall-clock start, generation, CPU ms, objects in the generations it
# looked at), one line each, as it happens; before each collection of the oldest generation, a census of what it
# holds, by kind. Before each collection of generation 1, a census of the two young generations by kind ("young"),
# and after it what it passed on to the oldest ("promoted"); before every fourth, for the commonest young kinds, the
# kinds of the objects that refer to them ("held": who keeps them alive).
_GC_LOGGER = """
import collections, gc, json, os, time, types
gc_log = open(os.environ["HANABI_GC_LOG"], "w", buffering=1)
gc_began = [0.0, 0.0, 0]
young = {}  # before a collection of generation 1: the id of each object it looks at -> its kind (``kind``)
middle = [0]  # collections of generation 1 so far
def kind(o):
    # The name of o's type; for a coroutine, a generator, a function, a method or a frame, also its code's (which
    # wait it is in, whose closure); by type, not getattr: some objects make any attribute (ctypes' loaders).
    code = (o.cr_code if isinstance(o, types.CoroutineType) else o.gi_code if isinstance(o, types.GeneratorType)
            else o.__code__ if isinstance(o, types.FunctionType) else o.f_code if isinstance(o, types.FrameType)
            else o.__func__.__code__ if isinstance(o, types.MethodType) and isinstance(o.__func__, types.FunctionType)
            else None)
    return type(o).__qualname__ + (" " + code.co_qualname if code is not None else "")
def holders():
    # For the 15 commonest young kinds: the kinds of what refers to them, from every tracked object's referents.
    common = {k for k, _ in collections.Counter(young.values()).most_common(15)}
    held = collections.Counter()
    for r in gc.get_objects():
        owner = None
        for x in gc.get_referents(r):
            k = young.get(id(x))
            if k in common:
                owner = owner or kind(r)
                held[k + " <- " + owner] += 1
    return held.most_common(60)
def watch(phase, info):
    if phase == "start":
        now = time.time()
        if info["generation"] == 2:
            # What the oldest generation holds, by kind (the 40 commonest), before the collection and its clock.
            kinds = collections.Counter(kind(o) for o in gc.get_objects(2))
            gc_log.write(f"{now:.6f} census {json.dumps(kinds.most_common(40))}\\n")
        elif info["generation"] == 1:
            young.clear()
            census = []
            for g in (0, 1):
                kinds = collections.Counter()
                for o in gc.get_objects(g):
                    young[id(o)] = k = kind(o)
                    kinds[k] += 1
                census.append(kinds.most_common(40) + [["(all)", sum(kinds.values())]])
            gc_log.write(f"{now:.6f} young {json.dumps(census)}\\n")
            middle[0] += 1
            if middle[0] % 4 == 0:
                gc_log.write(f"{now:.6f} held {json.dumps(holders())}\\n")
        tracked = sum(len(gc.get_objects(g)) for g in range(info["generation"] + 1))  # before the clock starts
        gc_began[:] = now, time.thread_time(), tracked
    else:
        spent = (time.thread_time() - gc_began[1]) * 1000
        gc_log.write(f"{gc_began[0]:.6f} {info['generation']} {spent:.3f} {gc_began[2]} {info['collected']}\\n")
        if info["generation"] == 1:
            # What survived it went to the oldest generation: by kind, the 40 commonest.
            kinds = collections.Counter(young[id(o)] for o in gc.get_objects(2) if id(o) in young)
            young.clear()
            gc_log.write(f"{gc_began[0]:.6f} promoted {json.dumps(kinds.most_common(40))}\\n")
gc.callbacks.append(watch)
"""


# With ``--count``, the server's ``-c`` program begins with this: a Trio instrument counting its event loop's
# rounds and each kind of task's steps, and a count of its thread hops and stream writes, all written to the file
# named by HANABI_COUNT_LOG (wall-clock time, then the counts so far as JSON) at most every quarter second.
_COUNTER = """
import collections, json, os, time, trio
count_log = open(os.environ["HANABI_COUNT_LOG"], "w", buffering=1)
counts = collections.Counter()
written = [0.0]

class Counting(trio.abc.Instrument):
    def before_task_step(self, task):
        counts["steps " + ".".join(task.name.split(".")[-2:])] += 1

    def before_io_wait(self, timeout):
        counts["rounds"] += 1
        now = time.time()
        if now - written[0] >= 0.25:
            written[0] = now
            count_log.write(f"{now:.6f} {json.dumps(counts)}\\n")

def counted(name, function):
    def call(*args, **kwargs):
        counts[name] += 1
        return function(*args, **kwargs)
    return call

trio.to_thread.run_sync = counted("thread hops", trio.to_thread.run_sync)
trio.SocketStream.send_all = counted("stream writes", trio.SocketStream.send_all)
trio_run = trio.run
trio.run = lambda *args, **kwargs: trio_run(*args, instruments=[Counting()], **kwargs)
"""


# With ``--trace``, the server's ``-c`` program begins with this: the path of each move made by a person
# timed, one line per move in the file named by HANABI_TRACE_LOG: the wall-clock time its request was read, then
# seconds from that read to: the table's task taking it up, the store given its action, its batch begun and done in
# the store's thread, the table's task back from the store, the views built, queued and their writers woken
# (``Game.publish`` begun and done), the mover's writer starting its write and done with it; and a line for each
# cycle collection (generation, start, end on the same clock as the moves' reads). Patches the server's own
# functions by name: a diagnosis, not a contract.
_TRACER = """
import gc, os, time
from hanabi.server import connection, game, store, table
trace_log = open(os.environ["HANABI_TRACE_LOG"], "w", buffering=1)
clock = time.perf_counter
moving = {}  # game id -> [mover's connection, stamps], while its table's task carries out a move

take, commit, add_action, publish, write = (connection.Connection._take, table.Table._commit, store.Store.add_action,
                                            game.Game.publish, connection.Connection._write)
batch = store.Store._commit
batches = []  # (start, end) of each batch committed in the store's thread, in order (one thread commits them all)

async def traced_take(self, data):
    self.traced_read = (time.time(), clock())
    await take(self, data)

async def traced_commit(self, game, seat, action, new, reason=None):
    player = self.player_at(seat)
    read = getattr(player.conn, "traced_read", None) if player is not None and player.conn is not None else None
    if read is None:
        return await commit(self, game, seat, action, new, reason)
    player.conn.traced_read = None
    moving[game.id] = [player.conn, [read[0], read[1], clock()]]
    try:
        await commit(self, game, seat, action, new, reason)
    finally:
        moving.pop(game.id, None)

def timed_batch(self, jobs):
    began = clock()
    try:
        return batch(self, jobs)
    finally:
        batches.append((began, clock()))
        del batches[:-64]

async def traced_add_action(self, game_id, *args, **kwargs):
    stamps = moving[game_id][1] if game_id in moving else None
    if stamps is not None:
        stamps.append(clock())
    await add_action(self, game_id, *args, **kwargs)
    if stamps is not None:
        # The action's batch: the first begun after it was queued (a batch takes what is queued when it begins).
        span = next((span for span in tuple(batches) if span[0] >= stamps[-1]), None)
        stamps += [*(span or (stamps[-1], stamps[-1])), clock()]

def traced_publish(self, *args, **kwargs):
    began = clock()
    publish(self, *args, **kwargs)
    if self.id in moving and len(moving[self.id][1]) == 7:
        conn, stamps = moving[self.id]
        stamps += [began, clock()]
        conn.traced_stamps = stamps

async def traced_write(self, data):
    stamps = getattr(self, "traced_stamps", None)
    self.traced_stamps = None
    if stamps is not None:
        stamps.append(clock())
    await write(self, data)
    if stamps is not None:
        at, read, *rest = stamps
        trace_log.write(" ".join([f"{at:.6f}", f"{read:.6f}"] + [f"{t - read:.6f}" for t in rest + [clock()]]) + "\\n")

collection_began = [0.0]
def collected(phase, info):
    if phase == "start":
        collection_began[0] = clock()
    else:
        trace_log.write(f"gc {info['generation']} {collection_began[0]:.6f} {clock():.6f}\\n")
gc.callbacks.append(collected)

connection.Connection._take, table.Table._commit, store.Store.add_action = traced_take, traced_commit, traced_add_action
store.Store._commit = timed_batch
game.Game.publish, connection.Connection._write = traced_publish, traced_write
"""
# The server itself, run after the diagnoses' programs.
_SERVER = """
import runpy, sys
sys.argv[0] = "hanabi-server"
runpy.run_module("hanabi.server", run_name="__main__", alter_sys=True)
"""
# The parts of a move's path that ``--trace`` times, in order: each ends where the next begins.
_PATH = ("read -> table", "table -> store", "to the store's thread", "in the store's thread",
         "back from the store's thread", "commit -> views", "views built and queued", "queued -> write", "write")


def _start_server(db: str, profile: str | None = None, gc_log: str | None = None,
                  count_log: str | None = None, trace_log: str | None = None) -> tuple[subprocess.Popen[bytes], int]:
    """The server started (``started``), plain or with the diagnoses asked for, each given the file it writes to.

    The diagnoses' programs keep to names of their own, so that any of them can run together in one server (each
    slows it down: a figure of speed is the plain server's)."""
    python = [sys.executable] + (["-m", "cProfile", "-o", profile] if profile else [])
    diagnoses = [(program, variable, path) for program, variable, path in
                 ((_GC_LOGGER, "HANABI_GC_LOG", gc_log), (_COUNTER, "HANABI_COUNT_LOG", count_log),
                  (_TRACER, "HANABI_TRACE_LOG", trace_log)) if path is not None]
    if not diagnoses:
        return started([*python, "-m", "hanabi.server"], db, None)
    program = "".join(program for program, _, _ in diagnoses) + _SERVER
    return started([*python, "-c", program], db, {**os.environ, **{variable: path for _, variable, path in diagnoses}})


def _counts(count_log: str, window: tuple[float, float], actions: int) -> dict[str, float]:
    """What the server counted (``_COUNTER``) between the measured window's ends, per action."""
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for line in Path(count_log).read_text().splitlines():
        at, counted = line.split(" ", 1)
        if float(at) <= window[0]:
            first = json.loads(counted)
        if float(at) <= window[1]:
            last = json.loads(counted)
    return {name: round((n - first.get(name, 0)) / max(1, actions), 2) for name, n in last.items()}


def _path(trace_log: str, window: tuple[float, float]) -> dict[str, dict[str, float]]:
    """The parts of the moves' path (``_TRACER``) read in the measured window: p50, p90 and p99 of each, in ms,
    and of the whole (from the request read to the mover's view written). Then, for the collections of each
    generation (and of any): how many moves had one run during their path, and the p50, p90 and p99 of the
    whole path of the moves that had none (what the path would be without them)."""
    moves: list[tuple[float, list[float]]] = []  # (when read, on the server's clock; the parts' ends from then)
    collections: list[tuple[int, float, float]] = []
    for line in Path(trace_log).read_text().splitlines():
        first, *rest = line.split()
        if first == "gc":
            collections.append((int(rest[0]), float(rest[1]), float(rest[2])))
        elif window[0] <= float(first) <= window[1]:
            moves.append((float(rest[0]), [float(t) for t in rest[1:]]))

    def percentiles(values: list[float]) -> dict[str, float]:
        values = sorted(values)
        return {f"p{q}": round(values[min(len(values) - 1, int(q / 100 * len(values)))], 3) for q in (50, 90, 99)}

    summary = {}
    for i, name in enumerate(_PATH):
        if moves:
            summary[name] = percentiles([(ends[i] - (ends[i - 1] if i else 0.0)) * 1000 for _, ends in moves])
    if moves:
        summary["read -> written"] = percentiles([ends[-1] * 1000 for _, ends in moves])
    for label, generations in (("generation 0", {0}), ("generation 1", {1}), ("generation 2", {2}),
                               ("any generation", {0, 1, 2})):
        spans = [(start, end) for g, start, end in collections if g in generations]
        clear = [ends[-1] * 1000 for read, ends in moves
                 if not any(start <= read + ends[-1] and end >= read for start, end in spans)]
        held = len(moves) - len(clear)
        summary[f"without {label}"] = {"moves with one": held, **(percentiles(clear) if clear else {})}
    # The slowest 1 % (what the p99 is made of): how many had a collection of each generation run during their path
    # (of none), and each part's median among them.
    slowest = sorted(moves, key=lambda move: move[1][-1])[-max(1, len(moves) // 100):] if moves else []
    tail: dict[str, float] = {"moves": len(slowest)}
    for label, generations in (("generation 0", {0}), ("generation 1", {1}), ("generation 2", {2}),
                               ("none", set())):
        spans = [(start, end) for g, start, end in collections if g in (generations or {0, 1, 2})]
        with_one = sum(any(start <= read + ends[-1] and end >= read for start, end in spans) for read, ends in slowest)
        tail[f"with {label}"] = with_one if generations else len(slowest) - with_one
    for i, name in enumerate(_PATH):
        if slowest:
            tail[name] = round(statistics.median((ends[i] - (ends[i - 1] if i else 0.0)) * 1000
                                                 for _, ends in slowest), 3)
    summary["slowest 1 %"] = tail
    return summary


def started(program: list[str], db: str, env: dict[str, str] | None) -> tuple[subprocess.Popen[bytes], int]:
    """``program`` (a Python command line that runs the server) started on loopback on a free port with the store
    ``db``, once it says it listens; the process and its port."""
    proc = subprocess.Popen([*program, "--host", "127.0.0.1", "--port", "0", "--db", db,
                             "--log-level", "warning", "--no-announce"], stdout=subprocess.PIPE, env=env)
    assert proc.stdout is not None
    seen = ""
    while "listening on port" not in seen:
        line = proc.stdout.readline().decode(errors="replace")
        if not line:
            raise RuntimeError(f"the server did not start: {seen}")
        seen += line
    return proc, int(seen.split("listening on port ")[1].split()[0])


def _play(clients: list[LoadClient], warmup: float, seconds: float, stats: Stats,
          pid: int) -> tuple[float, float, float, float, int, tuple[float, float] | None]:
    """Every client plays until the time is up, on one epoll loop (no task per connection: the load generator
    shares the machine with the server, so it must cost as little as it can). Returns the measured seconds,
    the server's user and kernel CPU seconds and this process's CPU seconds over them, the server's RSS, and
    the CPU seconds of the server's event loop's thread and of its other threads over them (``_threads_cpu``)."""
    poller = select.epoll()
    by_fd: dict[int, LoadClient] = {}
    for c in clients:
        # The kernel stamps each read with when its bytes arrived: the latency measured is the server's, not
        # also the time this process (1,000 clients on one loop, on a busy machine) took to get to the socket.
        c.sock.setsockopt(socket.SOL_SOCKET, _SO_TIMESTAMPNS, 1)
        c.sock.setblocking(False)
        by_fd[c.sock.fileno()] = c
        poller.register(c.sock.fileno(), select.EPOLLIN)
    timers: list[tuple[float, int, LoadClient]] = []  # (when, tie-breaker, client): thinking players
    received = bytearray(1 << 16)  # every read lands here: no new buffer per read
    now = time.perf_counter()
    # Each table deals its first game after a pause of up to the warm-up, at random: started in the same instant,
    # 200 tables would keep dealing, ending and dealing again nearly together (their games are of much the same
    # length), a burst of work every few seconds that no server of real tables sees.
    starts = sorted((now + random.uniform(0, warmup), id(c), c) for c in clients if c.host)
    measure_at, stop_at = now + warmup, now + warmup + seconds
    before: tuple[float, float] = (0.0, 0.0)
    threads_before: dict[int, float] | None = None
    load_before = started = 0.0
    try:
        while True:
            now = time.perf_counter()
            if not stats.measuring and started == 0.0 and now >= measure_at:
                stats.measuring = True
                started, before, load_before = now, _cpu_seconds(pid), time.process_time()
                threads_before = _threads_cpu(pid)
                stats.window = (time.time(), 0.0)
            if now >= stop_at:
                break
            while starts and starts[0][0] <= now + _HALF_TICK:
                starts.pop(0)[2].send(Start())
            # epoll waits whole milliseconds, rounded up: waiting half of one less, and firing a timer due within
            # half of one, makes pauses on average as long as asked, not half a millisecond longer.
            while timers and timers[0][0] <= now + _HALF_TICK:
                _, _, c = heapq.heappop(timers)
                view, c.pending = c.pending, None
                if view is not None:
                    c.act(view)
            wait = min(stop_at, measure_at if started == 0.0 else stop_at, timers[0][0] if timers else stop_at,
                       starts[0][0] if starts else stop_at)
            for fd, _ in poller.poll(max(0.0, wait - time.perf_counter() - _HALF_TICK)):
                c = by_fd[fd]
                size, ancillary, _, _ = c.sock.recvmsg_into([received], _STAMP_SPACE)
                if not size:
                    raise EOFError("the server closed a connection")
                arrived = None
                for level, kind, stamp in ancillary:
                    if level == socket.SOL_SOCKET and kind == _SO_TIMESTAMPNS and len(stamp) >= _TIMESPEC.size:
                        seconds, nanoseconds = _TIMESPEC.unpack_from(stamp)
                        arrived = seconds + nanoseconds * 1e-9
                c.receive(received, size, timers, arrived)
    finally:
        stats.measuring = False
        stats.window = (stats.window[0], time.time())
        poller.close()
    elapsed = time.perf_counter() - started
    after, threads_after = _cpu_seconds(pid), _threads_cpu(pid)
    threads = None
    if threads_before is not None and threads_after is not None:  # a thread that ended meanwhile is left out
        spent = {tid: used - threads_before.get(tid, 0.0) for tid, used in threads_after.items()}
        threads = (spent.pop(pid, 0.0), sum(spent.values()))
    return (elapsed, after[0] - before[0], after[1] - before[1], time.process_time() - load_before, _rss_kib(pid),
            threads)


def run(tables: int, players: int, seconds: float, warmup: float, think: float = 0.0,
        profile: str | None = None, gc_log: bool = False, count: bool = False,
        trace: bool = False) -> dict[str, Any]:
    stats = Stats()
    clients: list[LoadClient] = []
    # The server's cycle collections while measured: generation, CPU ms, objects it had to look at, objects freed.
    collections: list[tuple[int, float, int, int]] = []
    census: dict[str, int] = {}  # what the oldest generation held at its first collection while measured, by type
    promoted: Counter[str] = Counter()  # what reached the oldest generation, by type
    young: list[list[dict[str, int]]] = []  # each collection of generation 1: generations 0 and 1 by kind
    held: Counter[str] = Counter()  # "kind <- kind of what refers to it", over the young censuses that count them
    with tempfile.TemporaryDirectory() as tmp:
        log_path = os.path.join(tmp, "gc.log") if gc_log else None
        count_path = os.path.join(tmp, "counts.log") if count else None
        trace_path = os.path.join(tmp, "trace.log") if trace else None
        proc, port = _start_server(os.path.join(tmp, "load.sqlite3"), profile, log_path, count_path, trace_path)
        try:
            rss_idle = _rss_kib(proc.pid)
            t0 = time.perf_counter()
            for i in range(tables):
                clients += _seat_table(port, i, players, stats, think)
                _answer_pings(clients)
            setup_s = time.perf_counter() - t0
            # This process's own collector pauses would show up as server latency: keep them rare (while it
            # plays only: called from a test, the process goes on with its collector as it was).
            # A caller that froze its own objects (the tests' conftest) is left as it was: nothing of ours frozen.
            threshold, ours = gc.get_threshold(), not gc.get_freeze_count()
            if ours:
                gc.freeze()
            gc.set_threshold(50_000, 20, 100)
            rss_seated = _rss_kib(proc.pid)
            try:
                elapsed, user, kernel, load_cpu, rss_playing, threads = _play(clients, warmup, seconds, stats,
                                                                              proc.pid)
            finally:
                gc.set_threshold(*threshold)
                if ours:
                    gc.unfreeze()
        finally:
            for c in clients:
                c.sock.close()
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if log_path is not None:
            for line in Path(log_path).read_text().splitlines():
                at, generation, rest = line.split(" ", 2)
                if not stats.window[0] <= float(at) <= stats.window[1]:
                    continue
                if generation == "census":
                    census = census or {kind: n for kind, n in json.loads(rest)}  # the first in the window
                    continue
                if generation == "promoted":
                    promoted.update({kind: n for kind, n in json.loads(rest)})
                    continue
                if generation == "young":
                    young.append([{kind: n for kind, n in g} for g in json.loads(rest)])
                    continue
                if generation == "held":
                    held.update({pair: n for pair, n in json.loads(rest)})
                    continue
                ms, tracked, collected = rest.split()
                collections.append((int(generation), float(ms), int(tracked), int(collected)))
                if generation == "1":  # what a collection of generation 1 did not free went to the oldest
                    promoted["(all)"] += int(tracked) - int(collected)
        counts = _counts(count_path, stats.window, stats.actions) if count_path is not None else None
        path = _path(trace_path, stats.window) if trace_path is not None else None
    cpu = user + kernel
    lat = sorted(stats.latencies)
    read = sorted(stats.read_latencies)

    def pct(p: float, values: list[float] = lat) -> float:
        return values[min(len(values) - 1, int(p * len(values)))] * 1000 if values else float("nan")

    return {
        "tables": tables, "players": players, "think": think, "connections": tables * players,
        "seconds": round(elapsed, 1),
        "setup_s": round(setup_s, 1), "actions": stats.actions, "actions_per_second": round(stats.actions / elapsed),
        "p50_ms": round(pct(0.50), 2), "p99_ms": round(pct(0.99), 2),
        "read_p50_ms": round(pct(0.50, read), 2), "read_p99_ms": round(pct(0.99, read), 2),
        "mean_ms": round(statistics.fmean(lat) * 1000, 2) if lat else None,
        "games_finished": stats.games,
        "server_cpu_share": round(cpu / elapsed, 2),
        "cpu_us_per_action": round(cpu / stats.actions * 1e6) if stats.actions else None,
        "server_kernel_us_per_action": round(kernel / stats.actions * 1e6) if stats.actions else None,
        # The same split by thread: the event loop's (every task) and the others' (the store's commits).
        "loop_thread_us_per_action": round(threads[0] / stats.actions * 1e6) if threads and stats.actions else None,
        "other_threads_us_per_action": round(threads[1] / stats.actions * 1e6) if threads and stats.actions else None,
        "clients_cpu_us_per_action": round(load_cpu / stats.actions * 1e6) if stats.actions else None,
        "clients_cpu_share": round(load_cpu / elapsed, 2),
        "rss_mib": round(rss_playing / 1024, 1),
        "kib_per_table_seated": round((rss_seated - rss_idle) / tables, 1),
        "kib_per_table_playing": round((rss_playing - rss_idle) / tables, 1),
        "errors": len(stats.errors), "first_error": stats.errors[0] if stats.errors else None,
        **({"gc": _collections(collections), "oldest_generation": census,
            "gen2_per_1000_actions": round(sum(c[0] == 2 for c in collections) * 1000 / max(1, stats.actions), 2),
            "promoted_per_action": {kind: round(n / max(1, stats.actions), 2)
                                    for kind, n in promoted.most_common(25)},
            "young": _young(young), "young_held_by": dict(held.most_common(40))} if gc_log else {}),
        **({"per_action": counts} if counts is not None else {}),
        **({"path_ms": path} if path is not None else {}),
    }


def _young(censuses: list[list[dict[str, int]]]) -> dict[str, Any]:
    """What the two young generations held when each collection of generation 1 began: the median of their sizes
    (each, and together), and each kind's median count in them together (the 30 commonest)."""
    if not censuses:
        return {}
    kinds: dict[str, list[int]] = {}
    for i, (gen0, gen1) in enumerate(censuses):
        for kind in set(gen0) | set(gen1):
            if kind != "(all)":
                kinds.setdefault(kind, [0] * len(censuses))[i] = gen0.get(kind, 0) + gen1.get(kind, 0)
    medians = {kind: statistics.median(ns) for kind, ns in kinds.items()}
    return {"generation 0": statistics.median(g[0].get("(all)", 0) for g in censuses),
            "generation 1": statistics.median(g[1].get("(all)", 0) for g in censuses),
            "together": statistics.median(g[0].get("(all)", 0) + g[1].get("(all)", 0) for g in censuses),
            "by kind": dict(sorted(medians.items(), key=lambda item: -item[1])[:30])}


def _collections(collections: list[tuple[int, float, int, int]]) -> dict[str, dict[str, float]]:
    """Per generation: how many collections, their CPU ms in all, at most and their median, the most objects one
    looked at, and how many objects they freed in all."""
    summary = {}
    for generation in range(3):
        ms = [m for g, m, _, _ in collections if g == generation]
        summary[str(generation)] = {"count": len(ms), "total_ms": round(sum(ms), 1),
                                    "max_ms": round(max(ms, default=0.0), 1),
                                    "median_ms": round(statistics.median(ms), 1) if ms else 0.0,
                                    "max_objects": max((n for g, _, n, _ in collections if g == generation), default=0),
                                    # Garbage found: objects in reference cycles, which only a collection frees.
                                    "freed": sum(f for g, _, _, f in collections if g == generation)}
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/loadtest.py",
                                     description="Load a real hanabi server with many concurrent tables and "
                                                 "print actions/s, latency percentiles and memory per table. "
                                                 "--gc-log, --count and --trace can be given together; each slows "
                                                 "the server, so its speed is best measured with none.")
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables (default 200)")
    parser.add_argument("--players", type=int, default=5,
                        help=f"seats per table, {MIN_PLAYERS}-{MAX_PLAYERS} (default 5)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time (default 20)")
    parser.add_argument("--warmup", type=float, default=3.0, help="unmeasured time first (default 3)")
    parser.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                        help="each player waits about this long (0.5x to 1.5x, at random) before acting "
                             "(default 0: flat out, a closed loop where the server is the only limit)")
    parser.add_argument("--gc-log", action="store_true",
                        help="log the server's cycle collections (generation, CPU time) and sum them up")
    parser.add_argument("--count", action="store_true",
                        help="count the server's event loop rounds, task steps (by task), thread hops and stream "
                             "writes, and print them per action")
    parser.add_argument("--trace", action="store_true",
                        help="time the parts of each move's path in the server (read, table, store, views, write) "
                             "and print their p50/p90/p99")
    parser.add_argument("--json", action="store_true", help="end with the figures as one JSON object on one line")
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile, writing stats to FILE")
    args = parser.parse_args(argv)
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS or args.tables < 1:
        parser.error(f"--players must be {MIN_PLAYERS}-{MAX_PLAYERS} and --tables at least 1")
    result = run(args.tables, args.players, args.seconds, args.warmup, args.think, args.profile, args.gc_log,
                 args.count, args.trace)
    print(f"{result['tables']} tables x {result['players']} players = {result['connections']} connections "
          f"(seated in {result['setup_s']} s), think time {result['think']} s, measured for {result['seconds']} s")
    print(f"applied actions: {result['actions']} = {result['actions_per_second']} actions/s; "
          f"games finished: {result['games_finished']}")
    print(f"action -> own updated view at the client's socket: p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms "
          f"(mean {result['mean_ms']} ms)")
    print(f"  ... and once this process got round to reading it: p50 {result['read_p50_ms']} ms, "
          f"p99 {result['read_p99_ms']} ms")
    print(f"server CPU: {result['cpu_us_per_action']} µs per action, of which "
          f"{result['server_kernel_us_per_action']} µs in the kernel (it used {result['server_cpu_share']:.0%} "
          "of one core)")
    if result["loop_thread_us_per_action"] is not None:
        print(f"  ... by thread: the event loop's {result['loop_thread_us_per_action']} µs, the others' (the store's "
              f"commits) {result['other_threads_us_per_action']} µs")
    print(f"load generator ({result['connections']} clients, one process): "
          f"{result['clients_cpu_us_per_action']} µs of CPU per action (it used {result['clients_cpu_share']:.0%} "
          "of one core)")
    print(f"server memory: {result['rss_mib']} MiB resident; per table "
          f"{result['kib_per_table_seated']} KiB seated, {result['kib_per_table_playing']} KiB playing")
    for generation, figures in result.get("gc", {}).items():
        print(f"server's collections of generation {generation}: {figures['count']}, {figures['total_ms']} ms of "
              f"CPU in all, the median {figures['median_ms']} ms, the longest {figures['max_ms']} ms, the most objects "
              f"looked at {figures['max_objects']}, freed {figures['freed']}")
    if result.get("oldest_generation"):
        held = list(result["oldest_generation"].items())  # the 40 commonest in the JSON, the first 15 here
        print("the oldest generation's commonest objects at its first collection: "
              + ", ".join(f"{kind} {n}" for kind, n in held[:15]))
    if result.get("young"):
        young = result["young"]
        print(f"the young generations when a collection of generation 1 began (medians): {young['together']} objects "
              f"({young['generation 0']} + {young['generation 1']}); by kind: "
              + ", ".join(f"{kind} {n}" for kind, n in list(young["by kind"].items())[:15]))
    if result.get("young_held_by"):
        print("held by: " + ", ".join(f"{pair} {n}" for pair, n in list(result["young_held_by"].items())[:15]))
    if "per_action" in result:
        counted = result["per_action"]
        steps = sorted(((n, name[6:]) for name, n in counted.items() if name.startswith("steps ")), reverse=True)
        print(f"server per action: {counted.get('rounds', 0)} event loop rounds, {sum(n for n, _ in steps):.2f} task "
              f"steps ({', '.join(f'{name} {n}' for n, name in steps[:5])}), {counted.get('thread hops', 0)} "
              f"thread hops, {counted.get('stream writes', 0)} stream writes")
    for name, figures in result.get("path_ms", {}).items():
        if name == "slowest 1 %":
            print(f"the slowest 1 % of the moves ({figures['moves']}): a collection ran during the path of "
                  + ", ".join(f"{figures[f'with generation {g}']} (generation {g})" for g in range(3))
                  + f", none during {figures['with none']}; their parts' medians: "
                  + ", ".join(f"{part} {figures[part]} ms" for part in _PATH if part in figures))
        elif name.startswith("without "):
            print(f"a collection of {name[8:]} ran during {figures['moves with one']} moves' paths; the others' "
                  f"whole path: p50 {figures.get('p50')} ms, p90 {figures.get('p90')} ms, p99 {figures.get('p99')} ms")
        else:
            print(f"a move's path, {name}: p50 {figures['p50']} ms, p90 {figures['p90']} ms, p99 {figures['p99']} ms")
    if result["errors"]:
        print(f"errors from the server: {result['errors']} (first: {result['first_error']})")
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
