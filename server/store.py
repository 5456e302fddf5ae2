"""The game store: tables, seats, players and every game action, in SQLite.

A game *is* its config, its seed and its actions, so that is all we keep;
restoring a game replays its actions through the engine. The stdlib
``sqlite3`` module blocks, so one task owns the connection and runs every
statement in its own long-lived writer thread: the event loop never waits
on the disk. Writes queue up while a batch is being committed and go in
together in the next transaction (group commit), so a busy server pays one
wake-up of the event loop and one commit for many actions, and every caller
still gets its answer only once its write is committed. The thread takes
work from a plain queue and answers a whole batch through the Trio token
(``run_sync_soon``), which wakes exactly the tasks waiting on it: no task,
channel or ``trio.to_thread`` hop per batch, which the load test found to
cost more than the SQLite work itself.

The database is in WAL mode with ``synchronous=NORMAL``: a committed write
survives the server process being killed (SIGKILL); a power cut may lose
the last moments, which a LAN game can live with.
"""

from __future__ import annotations

import hashlib
import json
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from json.encoder import encode_basestring_ascii
from pathlib import Path
from typing import Any, TypeVar

import trio
from hanabi.engine import Action, ChatPolicy, Clue, Discard, GameConfig, Play, Rearrange, Suit, Variant

from .handoff import Reply

log = logging.getLogger(__name__)

T = TypeVar("T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    token_hash TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    variant TEXT NOT NULL,
    empty_clues INTEGER NOT NULL,
    all_or_nothing INTEGER NOT NULL,
    chat TEXT NOT NULL,
    seats INTEGER NOT NULL,
    password TEXT,
    host INTEGER,
    created REAL NOT NULL,
    closed REAL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    bot INTEGER NOT NULL,
    name TEXT NOT NULL,
    token_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id INTEGER NOT NULL REFERENCES tables(id),
    config TEXT NOT NULL,
    seed TEXT NOT NULL,
    players TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    score INTEGER,
    end_reason TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class StoreError(Exception):
    """The store cannot be opened or is not a hanabi game store; the message says which file and why."""


class StoreFailure(Exception):
    """A write could not be committed (the disk failed, no file descriptor was left): nothing of it is kept."""


def token_hash(token: str) -> str:
    """Resume tokens are secrets: the store keeps only their hash, so a copied database cannot take seats."""
    return hashlib.sha256(token.encode()).hexdigest()


# --- actions <-> text -------------------------------------------------------------------------------------------
# The store's own compact form, independent of the wire protocol so either can change alone.

def action_to_text(action: Action) -> str:
    """The stored JSON text of ``action``: ``json.dumps`` of a small dict, written directly (every applied
    action is stored, and this is several times faster); ``tests/server`` checks it is the same text."""
    if isinstance(action, Play):
        return f'{{"k":"play","o":{action.order:d}}}'
    if isinstance(action, Discard):
        return f'{{"k":"discard","o":{action.order:d}}}'
    if isinstance(action, Clue):
        if action.colour is not None:
            return f'{{"k":"clue","t":{action.target:d},"c":{encode_basestring_ascii(action.colour.value)}}}'
        return f'{{"k":"clue","t":{action.target:d},"r":{action.rank:d}}}'
    hand = ",".join(f"{order:d}" for order in action.hand)
    return f'{{"k":"rearrange","s":{action.seat:d},"h":[{hand}]}}'


def action_to_text_slowly(action: Action) -> str:
    """``action_to_text`` as it was first written, through ``json``: what the fast one must match."""
    if isinstance(action, Play):
        data: dict[str, Any] = {"k": "play", "o": action.order}
    elif isinstance(action, Discard):
        data = {"k": "discard", "o": action.order}
    elif isinstance(action, Clue):
        data = {"k": "clue", "t": action.target}
        if action.colour is not None:
            data["c"] = action.colour.value
        else:
            data["r"] = action.rank
    else:
        data = {"k": "rearrange", "s": action.seat, "h": list(action.hand)}
    return json.dumps(data, separators=(",", ":"))


_SUIT_BY_NAME = {s.value: s for s in Suit}


def action_from_text(text: str) -> Action:
    data = json.loads(text)
    kind = data["k"]
    if kind == "play":
        return Play(int(data["o"]))
    if kind == "discard":
        return Discard(int(data["o"]))
    if kind == "clue":
        if "c" in data:
            return Clue(int(data["t"]), colour=_SUIT_BY_NAME[data["c"]])
        return Clue(int(data["t"]), rank=int(data["r"]))
    if kind == "rearrange":
        return Rearrange(int(data["s"]), tuple(int(o) for o in data["h"]))
    raise ValueError(f"unknown stored action kind {kind!r}")


def config_to_text(config: GameConfig) -> str:
    return json.dumps({
        "players": config.players, "variant": config.variant.value, "empty_clues": config.empty_clues,
        "all_or_nothing": config.all_or_nothing, "first_seat": config.first_seat, "chat": config.chat.value,
    })


def config_from_text(text: str) -> GameConfig:
    d = json.loads(text)
    return GameConfig(players=d["players"], variant=Variant(d["variant"]), empty_clues=d["empty_clues"],
                      all_or_nothing=d["all_or_nothing"], first_seat=d["first_seat"], chat=ChatPolicy(d["chat"]))


# --- what a restart reads back -----------------------------------------------------------------------------------

@dataclass(slots=True)
class StoredSeat:
    seat: int
    bot: bool
    name: str
    token_hash: str | None


@dataclass(slots=True)
class StoredGame:
    id: int
    table_id: int
    config: GameConfig
    seed: str
    players: tuple[str, ...]
    started: float
    finished: float | None
    actions: list[Action] = field(default_factory=list)


@dataclass(slots=True)
class StoredTable:
    id: int
    name: str
    variant: Variant
    empty_clues: bool
    all_or_nothing: bool
    chat: ChatPolicy
    seats: int
    password: str | None
    host: int | None
    seated: list[StoredSeat] = field(default_factory=list)
    game: StoredGame | None = None  # the latest game, finished or not


@dataclass(slots=True)
class StoredPlayer:
    token_hash: str
    name: str


@dataclass(slots=True)
class Snapshot:
    tables: list[StoredTable]
    players: list[StoredPlayer]


@dataclass(frozen=True, slots=True)
class GameSummary:
    id: int
    table_id: int
    players: tuple[str, ...]
    variant: str
    score: int | None
    end: str | None  # the EndReason value, None while running
    finished: float | None


def _begin(db: sqlite3.Connection, patience: float = 5.0) -> None:
    """Start a write transaction, waiting while another process (a worker of the same server) writes.

    IMMEDIATE takes the write lock at once, so nothing later in the transaction can find it taken."""
    give_up = time.monotonic() + patience
    pause = 0.00005
    while True:
        try:
            db.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as e:
            if ("locked" not in str(e) and "busy" not in str(e)) or time.monotonic() > give_up:
                raise
        time.sleep(pause)  # in the store's own thread: the event loop never waits for this
        pause = min(pause * 2, 0.001)


# --- the store ---------------------------------------------------------------------------------------------------

Job = Callable[[sqlite3.Connection], Any]


class _Pending(Reply):
    """One job on its way to the writer thread, and its outcome once committed (or not)."""

    __slots__ = ("error", "job", "result")

    def __init__(self, job: Job) -> None:
        super().__init__()
        self.job = job
        self.result: Any = None
        self.error: BaseException | None = None


class Store:
    """One SQLite file (or ``:memory:``), driven by ``run()``; every method waits until its work is committed."""

    BATCH = 512  # most jobs per transaction
    QUEUED = 10_000  # most jobs waiting at once; callers past it wait for room

    def __init__(self, path: str) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        # Jobs for the writer thread; None tells it to stop. Bounded by ``QUEUED`` (``_queued`` counts them).
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._queued = 0
        self._room = trio.lowlevel.ParkingLot()
        self._stopped = False
        self.commits = 0  # transactions so far (the load test reports writes per commit)
        self.jobs = 0

    # -- lifetime --

    def open_sync(self) -> None:
        """Open (creating if needed) the database file and its schema. Blocking: call before serving."""
        if self.path != ":memory:":
            folder = Path(self.path).expanduser().parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StoreError(f"cannot create the folder {folder} for the game store: {e.strerror}") from None
        try:
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            # Checkpoints (copying the WAL into the main file, with an fsync) run on their own connection in
            # their own thread (``_checkpoints``), so a commit never waits for one.
            db.execute("PRAGMA wal_autocheckpoint=0")
            db.executescript(SCHEMA)
            # From now on no busy timeout: SQLite's own waits for a lock another process holds (a server's worker
            # processes share the store) sleep 1, 2, 5, 10... ms; ``_begin`` waits in much shorter steps.
            db.execute("PRAGMA busy_timeout=0")
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path} cannot be used as a game store: {e}") from None
        self._db = db

    def close_sync(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Commit queued work, batch by batch, until cancelled. Work queued before that is always finished."""
        writer = threading.Thread(target=self._writer, args=(trio.lowlevel.current_trio_token(),),
                                  name="hanabi-store", daemon=True)
        writer.start()
        try:
            async with trio.open_nursery() as nursery:
                if self.path != ":memory:":
                    nursery.start_soon(self._checkpoints)
                task_status.started()
                await trio.sleep_forever()
        finally:
            # What was queued before is committed and answered (the thread answers through this run, so it must
            # end before the run does); what comes later is refused at once instead of waiting for ever.
            self._stopped = True
            self._queue.put(None)
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(writer.join)

    def _writer(self, token: trio.lowlevel.TrioToken) -> None:
        """The writer thread: commit what is queued, batch by batch, and answer each batch in the Trio run."""
        jobs = self._queue
        stop = False
        while not stop:
            first = jobs.get()
            if first is None:
                break
            batch = [first]
            while len(batch) < self.BATCH:
                try:
                    more = jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            try:
                self._commit(batch)
            except Exception as e:  # a failing disk refuses this batch's requests; it must not stop the server
                log.error("the store could not commit %d writes: %s", len(batch), e)
                for p in batch:
                    p.error = p.error or StoreFailure(str(e))
            token.run_sync_soon(self._answer, batch)

    def _answer(self, batch: list[_Pending]) -> None:
        """In the Trio run: wake every caller of a committed (or failed) batch, and senders waiting for room."""
        self._queued -= len(batch)
        for p in batch:
            p.finish()
        if self._room:
            self._room.unpark(count=len(batch))

    async def _checkpoints(self, every: float = 1.0) -> None:
        """Fold the WAL into the database file now and then, beside the commits (never blocking them).

        A checkpoint that fails (no file descriptor left, a disk error) is logged and tried again later:
        the WAL keeps every committed write meanwhile, so nothing is lost by waiting."""
        db: sqlite3.Connection | None = None
        try:
            done = self.jobs
            while True:
                await trio.sleep(every)
                if self.jobs == done:
                    continue
                try:
                    if db is None:
                        db = await trio.to_thread.run_sync(
                            lambda: sqlite3.connect(self.path, check_same_thread=False, isolation_level=None))
                    await trio.to_thread.run_sync(db.execute, "PRAGMA wal_checkpoint(PASSIVE)")
                    done = self.jobs
                except (sqlite3.Error, OSError) as e:
                    log.warning("checkpoint of %s failed (tried again later): %s", self.path, e)
        finally:
            if db is not None:
                db.close()

    def _commit(self, batch: list[_Pending]) -> None:
        db = self._db
        assert db is not None, "the store is not open"
        try:
            if db.in_transaction:  # left open by a failure before: start clean
                db.execute("ROLLBACK")
            _begin(db)
        except sqlite3.Error as e:
            log.error("cannot begin a transaction: %s", e)
            for p in batch:
                p.error = StoreFailure(str(e))
            return
        for p in batch:
            try:
                p.result = p.job(db)
            except Exception as e:  # one bad job must not lose the others' writes
                p.error = e
        try:
            db.execute("COMMIT")
        except sqlite3.Error as e:
            log.error("commit failed: %s", e)
            for p in batch:
                p.error = StoreFailure(str(e))
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error as again:
                log.error("rollback failed too: %s", again)
        self.commits += 1
        self.jobs += len(batch)

    async def _do(self, job: Callable[[sqlite3.Connection], T]) -> T:
        await trio.lowlevel.checkpoint_if_cancelled()
        while self._queued >= self.QUEUED and not self._stopped:
            await self._room.park()
        if self._stopped:
            raise StoreFailure("the store has stopped")
        pending = _Pending(job)
        self._queued += 1
        self._queue.put(pending)
        # Not cancellable: once queued, the write happens; the caller must learn its outcome to stay consistent.
        await pending.wait(cancellable=False)
        if pending.error is not None:
            raise pending.error
        return pending.result  # type: ignore[no-any-return]

    async def flush(self) -> None:
        """Return once everything queued before this call is committed."""
        await self._do(lambda db: None)

    # -- writes --

    async def add_player(self, key: str, name: str) -> None:
        """Remember a player by the hash of their resume token (``token_hash``)."""
        h = key
        await self._do(lambda db: db.execute(
            "INSERT OR REPLACE INTO players (token_hash, name, created) VALUES (?, ?, ?)", (h, name, time.time())))

    async def create_table(self, name: str, variant: Variant, empty_clues: bool, all_or_nothing: bool,
                           chat: ChatPolicy, seats: int, password: str | None, host: int | None) -> int:
        def job(db: sqlite3.Connection) -> int:
            cur = db.execute(
                "INSERT INTO tables (name, variant, empty_clues, all_or_nothing, chat, seats, password, host, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (name, variant.value, empty_clues, all_or_nothing, chat.value, seats, password, host, time.time()))
            assert cur.lastrowid is not None
            return cur.lastrowid
        return await self._do(job)

    async def set_host(self, table_id: int, host: int | None) -> None:
        await self._do(lambda db: db.execute("UPDATE tables SET host = ? WHERE id = ?", (host, table_id)))

    async def close_table(self, table_id: int) -> None:
        await self._do(lambda db: db.execute("UPDATE tables SET closed = ? WHERE id = ?", (time.time(), table_id)))

    async def set_seat(self, table_id: int, seat: int, *, bot: bool, name: str, key: str | None) -> None:
        """Seat a bot (``key`` None) or the player whose token hashes to ``key``."""
        h = key
        await self._do(lambda db: db.execute(
            "INSERT OR REPLACE INTO seats (table_id, seat, bot, name, token_hash) VALUES (?, ?, ?, ?, ?)",
            (table_id, seat, bot, name, h)))

    async def clear_seat(self, table_id: int, seat: int) -> None:
        await self._do(lambda db: db.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat)))

    async def start_game(self, table_id: int, config: GameConfig, seed: str, players: tuple[str, ...]) -> int:
        def job(db: sqlite3.Connection) -> int:
            cur = db.execute(
                "INSERT INTO games (table_id, config, seed, players, started) VALUES (?, ?, ?, ?, ?)",
                (table_id, config_to_text(config), seed, json.dumps(list(players)), time.time()))
            assert cur.lastrowid is not None
            return cur.lastrowid
        return await self._do(job)

    async def add_action(self, game_id: int, seq: int, action: Action) -> None:
        text = action_to_text(action)
        await self._do(lambda db: db.execute(
            "INSERT INTO actions (game_id, seq, action) VALUES (?, ?, ?)", (game_id, seq, text)))

    async def finish_game(self, game_id: int, score: int, end: str) -> None:
        def job(db: sqlite3.Connection) -> None:
            db.execute("UPDATE games SET finished = ?, score = ?, end_reason = ? WHERE id = ?",
                       (time.time(), score, end, game_id))
        await self._do(job)

    async def forget_players(self, keys: list[str]) -> None:
        """Drop players (by token hash) the server no longer keeps: seated players are never among them."""
        def job(db: sqlite3.Connection) -> None:
            for start in range(0, len(keys), 500):  # SQLite takes a bounded number of parameters per statement
                chunk = keys[start:start + 500]
                db.execute(f"DELETE FROM players WHERE token_hash IN ({','.join('?' * len(chunk))})", chunk)
        await self._do(job)

    # -- reads --

    def snapshot_sync(self) -> Snapshot:
        """Everything a restarted server needs: open tables, their seats and latest games, and the players."""
        db = self._db
        assert db is not None, "the store is not open"
        return self._snapshot(db)

    def _snapshot(self, db: sqlite3.Connection) -> Snapshot:
        tables: dict[int, StoredTable] = {}
        for row in db.execute("SELECT id, name, variant, empty_clues, all_or_nothing, chat, seats, password, host"
                              " FROM tables WHERE closed IS NULL ORDER BY id"):
            tables[row[0]] = StoredTable(row[0], row[1], Variant(row[2]), bool(row[3]), bool(row[4]),
                                         ChatPolicy(row[5]), row[6], row[7], row[8])
        for tid, seat, bot, name, h in db.execute(
                "SELECT table_id, seat, bot, name, token_hash FROM seats ORDER BY table_id, seat"):
            if tid in tables:
                tables[tid].seated.append(StoredSeat(seat, bool(bot), name, h))
        for table in tables.values():
            row = db.execute("SELECT id FROM games WHERE table_id = ? ORDER BY id DESC LIMIT 1",
                             (table.id,)).fetchone()
            if row is not None:
                table.game = self._game(db, row[0])
        players = [StoredPlayer(h, n) for h, n in db.execute("SELECT token_hash, name FROM players")]
        return Snapshot(list(tables.values()), players)

    async def snapshot(self) -> Snapshot:
        return await self._do(self._snapshot)

    @staticmethod
    def _game(db: sqlite3.Connection, game_id: int) -> StoredGame | None:
        row = db.execute("SELECT id, table_id, config, seed, players, started, finished FROM games WHERE id = ?",
                         (game_id,)).fetchone()
        if row is None:
            return None
        game = StoredGame(row[0], row[1], config_from_text(row[2]), row[3], tuple(json.loads(row[4])), row[5],
                          row[6])
        game.actions = [action_from_text(t) for (t,) in db.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]
        return game

    def game_sync(self, game_id: int) -> StoredGame | None:
        db = self._db
        assert db is not None, "the store is not open"
        return self._game(db, game_id)

    async def game(self, game_id: int) -> StoredGame | None:
        return await self._do(lambda db: self._game(db, game_id))

    def games_sync(self, limit: int = 100) -> list[GameSummary]:
        db = self._db
        assert db is not None, "the store is not open"
        return _games(db, limit)

    async def games(self, limit: int = 100) -> list[GameSummary]:
        return await self._do(lambda db: _games(db, limit))

    async def finished_count(self) -> int:
        """How many finished games the store holds (a list shows only the latest)."""
        return await self._do(lambda db: int(db.execute("SELECT COUNT(*) FROM games WHERE finished IS NOT NULL")
                                             .fetchone()[0]))


def _games(db: sqlite3.Connection, limit: int) -> list[GameSummary]:
    """The latest finished games, newest first."""
    out = []
    for gid, tid, config, players, score, end, finished in db.execute(
            "SELECT id, table_id, config, players, score, end_reason, finished FROM games"
            " WHERE finished IS NOT NULL ORDER BY id DESC LIMIT ?", (limit,)):
        out.append(GameSummary(gid, tid, tuple(json.loads(players)), json.loads(config)["variant"], score, end,
                               finished))
    return out
