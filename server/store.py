"""The game store: SQLite, written by its own task; each async method returns once its write is committed.

A game is its config, its seed and its actions, so that is all we keep (the schema and its readers are in
``saved.py``); restoring a game replays its actions. docs/design.md ("The store") says how it commits, why it
survives kill -9 and how one server holds it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import trio
from hanabi.engine import Action, GameConfig
from hanabi.engine.bots import Level
from hanabi.engine.replay import SeatHolder
from hanabi.protocol import BotReason

from .records import COLUMNS, PLAIN_CHOICES, TableSettings, action_to_text, choices_text, columns, config_to_text
from .requests import handed, waiting
from .saved import SCHEMA, fold_table_clocks

log = logging.getLogger(__name__)

T = TypeVar("T")
P = ParamSpec("P")


class StoreError(Exception):
    """The store cannot be opened, or is not a hanabi game store (the message says which file and why)."""


class StoreFailure(Exception):
    """A write could not be committed (a full disk, no file descriptor left): nothing of it is kept."""


def token_hash(token: str) -> str:
    """Resume tokens are secrets: the store keeps only their hash, so a copied database cannot take seats."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(eq=False, slots=True)
class _Pending:
    """One job on its way to the store's task, and its outcome once committed (or not)."""

    job: Callable[[sqlite3.Connection], Any]
    done: trio.Event = field(default_factory=trio.Event)
    result: Any = None
    error: BaseException | None = None


class Store:
    BATCH = 256  # most jobs in one transaction
    QUEUED = 4096  # most jobs waiting at once; callers past it wait for room
    LOCK_WAIT_MS = 5000  # how long a batch waits, in its worker thread, for another process's write lock

    def __init__(self, path: str) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._lock_fd: int | None = None
        self._submit, self._jobs = trio.open_memory_channel[_Pending](self.QUEUED)

    def open_sync(self, exclusive: bool = False) -> None:
        """Open (creating if needed) the file and its schema, checked; ``exclusive``: as the one server using it.
        Blocking: call before serving."""
        if self.path != ":memory:":
            folder = Path(self.path).expanduser().parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StoreError(f"cannot create the folder {folder} for the game store: {e.strerror}") from None
            if exclusive:
                self._lock_sync()
        try:
            db = self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            # A commit is in the WAL file before its callers hear back, which the process's death (kill -9) does
            # not undo; the WAL is synced to the disk when SQLite copies it into the database file (its
            # auto-checkpoint, inside a commit, in the worker thread), not at every commit, so that no move waits
            # for the disk: a power cut may lose the last moves, never the database's consistency.
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(f"PRAGMA busy_timeout = {self.LOCK_WAIT_MS}")
            db.execute("PRAGMA foreign_keys=ON")
            # Is it writable? A write that changes nothing (the schema's version, set to what it is) tells.
            db.execute(f"PRAGMA user_version = {int(db.execute('PRAGMA user_version').fetchone()[0])}")
            problem = db.execute("PRAGMA quick_check(1)").fetchone()[0]
            if problem != "ok":
                raise StoreError(f"{self.path} is damaged (SQLite's check found: {problem}): restore it from a "
                                 "backup, or move it aside to start with an empty store")
            tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            missing = sorted({"players", "tables", "seats", "games", "actions"} - tables)
            if tables - {"sqlite_sequence"} and missing:
                raise StoreError(f"{self.path} is damaged: its {', '.join(missing)} table(s) are missing; restore "
                                 "it from a backup, or move it aside to start with an empty store")
            db.executescript(SCHEMA)
            fold_table_clocks(db)
        except BaseException as error:
            # A store that could not open holds nothing: neither the file nor its lock (a caller may try again).
            self.close_sync()
            if not isinstance(error, sqlite3.DatabaseError):
                raise
            if "readonly" in str(error):
                raise StoreError(f"{self.path} is read-only: the server must write every move to it; make it "
                                 "writable (file and folder), or choose another with --db") from None
            raise StoreError(f"{self.path} cannot be used as a game store: {error}") from None

    def _lock_sync(self) -> None:
        try:
            import fcntl
        except ImportError:  # Windows: no advisory locks; one server per store is then the host's to keep
            return
        lock = Path(self.path).expanduser().with_name(Path(self.path).name + ".lock")
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 200).decode(errors="replace").strip() or "another process"
            os.close(fd)
            raise StoreError(f"{self.path} is in use by another hanabi-server ({holder}): stop that one first, "
                             "or give this one another store with --db") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"process {os.getpid()}, started {time.strftime('%Y-%m-%d %H:%M:%S')}".encode())
        self._lock_fd = fd

    def close_sync(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        if self._lock_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._lock_fd)  # which releases the lock
            self._lock_fd = None

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """The store's task: commit what is queued, a batch per transaction (group commit), until ``stop``.

        Each batch is committed in a worker thread while the task waits, so the connection is never used by two
        threads at once and the event loop never waits for the disk (a commit's sync, SQLite's checkpoint, another
        process holding the write lock)."""
        task_status.started()
        try:
            async for first in self._jobs:
                batch = [first, *waiting(self._jobs, self.BATCH - 1)]
                # Shielded: a batch taken is committed, and its callers told (they wait shielded). to_thread alone
                # would not do: it raises Cancelled before starting the thread if cancelled meanwhile.
                with trio.CancelScope(shield=True):
                    try:
                        await trio.to_thread.run_sync(self._commit, batch)
                    except BaseException:
                        # A bug of ours (SQLite's errors are handled in _commit): it stops the server, and the
                        # batch's callers, who wait shielded, hear that nothing was kept rather than wait for ever.
                        for pending in batch:
                            pending.error = pending.error or StoreFailure("the store failed")
                        raise
                    finally:
                        for pending in batch:
                            pending.done.set()
        finally:
            # Cancelled from outside: what is still queued is refused, and later work too, never left waiting.
            for pending in waiting(self._jobs):
                pending.error = StoreFailure("the store has stopped")
                pending.done.set()
            self._jobs.close()

    def stop(self) -> None:
        """No new work from now on; ``run`` returns once what was queued before is committed."""
        self._submit.close()

    def _commit(self, batch: list[_Pending]) -> None:
        """The batch in one transaction, each job in a savepoint of its own, so that one failing job (a bug) costs
        only its own writes. A failed commit fails every job with ``StoreFailure``."""
        db = self._db
        try:
            if db is None:
                raise sqlite3.OperationalError("the store is closed")
            if db.in_transaction:  # left open by a failure before: start clean
                db.execute("ROLLBACK")
            db.execute("BEGIN IMMEDIATE")
            for pending in batch:
                db.execute("SAVEPOINT job")
                try:
                    pending.result = pending.job(db)
                except Exception as e:
                    # The database refusing this write (a full disk, a constraint) is a StoreFailure, which callers
                    # handle ("it was not done; try again"); anything else is a bug of the job's, passed on as it is.
                    pending.error = StoreFailure(str(e)) if isinstance(e, sqlite3.Error) else e
                    db.execute("ROLLBACK TO job")
                db.execute("RELEASE job")
            db.execute("COMMIT")
        except sqlite3.Error as e:
            log.error("the store could not commit %d writes: %s", len(batch), e)
            for pending in batch:
                pending.error = StoreFailure(str(e))
            if db is not None and db.in_transaction:
                try:
                    db.execute("ROLLBACK")
                except sqlite3.Error as again:
                    log.error("rollback failed too: %s", again)

    async def _do(self, job: Callable[[sqlite3.Connection], T]) -> T:
        pending = _Pending(job)
        try:
            await handed(self._submit, pending)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            raise StoreFailure("the store has stopped") from None
        # Once queued the write happens: the caller must learn its outcome to stay consistent, even if cancelled.
        with trio.CancelScope(shield=True):
            await pending.done.wait()
        if pending.error is not None:
            raise pending.error
        return pending.result  # type: ignore[no-any-return]

    async def _execute(self, sql: str, *params: object) -> None:
        await self._do(lambda db: db.execute(sql, params))

    async def add_player(self, key: str, name: str) -> None:
        """Remember a player by the hash of their resume token (``token_hash``)."""
        await self._execute("INSERT OR REPLACE INTO players (token_hash, name, created) VALUES (?, ?, ?)", key, name,
                            time.time())

    async def create_table(self, name: str, settings: TableSettings, password: str | None, host: int | None) -> int:
        choices = choices_text(settings)

        def job(db: sqlite3.Connection) -> int:
            cur = db.execute(f"INSERT INTO tables (name, {COLUMNS}, password, host, created)"
                             " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             (name, *columns(settings), password, host, time.time()))
            assert cur.lastrowid is not None
            if choices != PLAIN_CHOICES:
                db.execute("INSERT INTO table_choices (table_id, options) VALUES (?, ?)", (cur.lastrowid, choices))
            return cur.lastrowid
        return await self._do(job)

    async def set_host(self, table_id: int, host: int | None) -> None:
        await self._execute("UPDATE tables SET host = ? WHERE id = ?", host, table_id)

    async def close_table(self, table_id: int, played: bool = True) -> None:
        """A table closed: one ``played`` keeps its row for its games; one never played is forgotten (tables
        opened and left again would otherwise pile up)."""
        def job(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM reviews WHERE table_id = ?", (table_id,))
            db.execute("DELETE FROM watching WHERE table_id = ?", (table_id,))
            if played:
                db.execute("UPDATE tables SET closed = ? WHERE id = ?", (time.time(), table_id))
            else:
                db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
                db.execute("DELETE FROM table_choices WHERE table_id = ?", (table_id,))
                db.execute("DELETE FROM tables WHERE id = ?", (table_id,))
        await self._do(job)

    async def set_seat(self, table_id: int, seat: int, *, bot: bool, name: str, key: str | None) -> None:
        """Seat a bot (``key`` None) or the player whose token hashes to ``key``."""
        await self._execute("INSERT OR REPLACE INTO seats (table_id, seat, bot, name, token_hash)"
                            " VALUES (?, ?, ?, ?, ?)", table_id, seat, bot, name, key)

    async def clear_seat(self, table_id: int, seat: int) -> None:
        await self._execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", table_id, seat)

    async def set_watching(self, key: str, table_id: int | None) -> None:
        """The player whose token hashes to ``key`` watches table ``table_id`` (None: no table), so that a
        restarted server takes them back there when they resume."""
        if table_id is None:
            await self._execute("DELETE FROM watching WHERE token_hash = ?", key)
        else:
            await self._execute("INSERT OR REPLACE INTO watching (token_hash, table_id) VALUES (?, ?)", key, table_id)

    async def start_game(self, table_id: int, config: GameConfig, seed: str, players: tuple[str, ...],
                         keys: tuple[str, ...] = (), seeded: bool = False, bots: bool = False,
                         seating: tuple[Level, frozenset[int]] | None = None) -> int:
        """A new game; ``keys`` are the token hashes of the people playing it (their history lists it first);
        ``seeded``: its ``seed`` is a seed text its table was given (``read_games`` lists them by seed); ``bots``:
        a bot holds one of its seats (the players' records count it as a game with bots); ``seating``: the level
        of its house bots beside people and the seats bots hold at the deal (its file says so)."""
        def job(db: sqlite3.Connection) -> int:
            cur = db.execute(
                "INSERT INTO games (table_id, config, seed, players, started) VALUES (?, ?, ?, ?, ?)",
                (table_id, config_to_text(config), seed, json.dumps(list(players)), time.time()))
            assert cur.lastrowid is not None
            db.executemany("INSERT OR IGNORE INTO game_players (game_id, token_hash) VALUES (?, ?)",
                           [(cur.lastrowid, key) for key in keys])
            if seeded:
                db.execute("INSERT INTO seeded_games (game_id, seed) VALUES (?, ?)", (cur.lastrowid, seed))
            if bots:
                db.execute("INSERT INTO game_bots (game_id) VALUES (?)", (cur.lastrowid,))
            if seating is not None:
                db.execute("INSERT INTO game_seating (game_id, level, bots) VALUES (?, ?, ?)",
                           (cur.lastrowid, seating[0], json.dumps(sorted(seating[1]))))
            return cur.lastrowid
        return await self._do(job)

    async def seat_handed(self, game_id: int, key: str | None, bot: bool, holders: Sequence[SeatHolder] = ()) -> None:
        """A seat of a running game went to the person whose token hashes to ``key`` (the game counts for them
        too; None: a house bot); ``bot``: to a house bot or a network bot (the game is one with bots);
        ``holders``: the entries ``Game.handing`` gave, kept so that the review and the file name who moved."""
        def job(db: sqlite3.Connection) -> None:
            start = db.execute("SELECT COUNT(*) FROM seat_holders WHERE game_id = ?", (game_id,)).fetchone()[0]
            db.executemany("INSERT INTO seat_holders (game_id, ord, turn, seat, name, bot) VALUES (?, ?, ?, ?, ?, ?)",
                           [(game_id, start + i, h.turn, h.seat, h.name, int(h.bot)) for i, h in enumerate(holders)])
            if key is not None:
                db.execute("INSERT OR IGNORE INTO game_players (game_id, token_hash) VALUES (?, ?)", (game_id, key))
            if bot:
                db.execute("INSERT OR IGNORE INTO game_bots (game_id) VALUES (?)", (game_id,))
        await self._do(job)

    async def set_review(self, table_id: int, game_id: int, leader: str, step: int, pointer: int | None) -> None:
        await self._execute("INSERT OR REPLACE INTO reviews (table_id, game_id, leader, step, pointer)"
                            " VALUES (?, ?, ?, ?, ?)", table_id, game_id, leader, step, pointer)

    async def clear_review(self, table_id: int) -> None:
        await self._execute("DELETE FROM reviews WHERE table_id = ?", table_id)

    async def add_action(self, game_id: int, seq: int, action: Action, clocks: tuple[float, ...] = (),
                         reason: tuple[BotReason, frozenset[int]] | None = None) -> None:
        """Store an action, and with it (in the same transaction) a timed game's ``clocks`` after it and a bot's
        ``reason`` for it, with the seats it is kept from."""
        text = action_to_text(action)

        def job(db: sqlite3.Connection) -> None:
            db.execute("INSERT INTO actions (game_id, seq, action) VALUES (?, ?, ?)", (game_id, seq, text))
            if clocks:
                _set_clocks(db, game_id, clocks)
            if reason is not None:
                said, kept_from = reason
                db.execute("INSERT OR REPLACE INTO bot_reasons (game_id, turn, seat, reason, kept_from) "
                           "VALUES (?, ?, ?, ?, ?)", (game_id, said.turn, said.seat, said.reason,
                                                      json.dumps(sorted(kept_from))))
        await self._do(job)

    async def set_clocks(self, game_id: int, clocks: tuple[float, ...]) -> None:
        """A timed game's banks, stopped where they are (a pause)."""
        await self._do(lambda db: _set_clocks(db, game_id, clocks))

    async def set_note(self, game_id: int, seat: int, order: int, text: str) -> None:
        """Keep ``seat``'s note on the card of ``order`` (the empty text deletes it)."""
        if text:
            await self._execute("INSERT OR REPLACE INTO notes (game_id, seat, card, text) VALUES (?, ?, ?, ?)",
                                game_id, seat, order, text)
        else:
            await self._execute("DELETE FROM notes WHERE game_id = ? AND seat = ? AND card = ?", game_id, seat, order)

    async def mark_advice(self, game_id: int, seat: int) -> None:
        """Keep that ``seat`` of the game asked the coach for advice (its scores are then not like the others)."""
        await self._execute("INSERT OR IGNORE INTO game_advice (game_id, seat) VALUES (?, ?)", game_id, seat)

    async def finish_game(self, game_id: int, score: int, end: str) -> None:
        await self._execute("UPDATE games SET finished = ?, score = ?, end_reason = ? WHERE id = ?", time.time(),
                            score, end, game_id)

    async def set_network_bot(self, key: str, network_bot: bool) -> None:
        """Remember whether a player's last hello said it is a network bot, so that a restarted server counts
        its seat as a bot's before it is back (the house bots read its clues the same either way)."""
        if network_bot:
            await self._execute("INSERT OR IGNORE INTO network_bots (token_hash) VALUES (?)", key)
        else:
            await self._execute("DELETE FROM network_bots WHERE token_hash = ?", key)

    async def forget_players(self, keys: list[str]) -> None:
        """Drop players (by token hash) the server no longer keeps: seated players are never among them."""
        def job(db: sqlite3.Connection) -> None:
            for table in ("network_bots", "watching", "players"):
                db.executemany(f"DELETE FROM {table} WHERE token_hash = ?", [(k,) for k in keys])
        await self._do(job)

    # -- reads: the readers of saved.py, given the connection --

    def read_sync(self, reader: Callable[Concatenate[sqlite3.Connection, P], T], *args: P.args,
                  **kwargs: P.kwargs) -> T:
        """Read at once, blocking: before serving, or for ``hanabi-server games``."""
        assert self._db is not None, "the store is not open"
        return reader(self._db, *args, **kwargs)

    async def read(self, reader: Callable[Concatenate[sqlite3.Connection, P], T], *args: P.args,
                   **kwargs: P.kwargs) -> T:
        """Read in the store's task, after every write queued before."""
        return await self._do(lambda db: reader(db, *args, **kwargs))


def _set_clocks(db: sqlite3.Connection, game_id: int, clocks: tuple[float, ...]) -> None:
    db.execute("INSERT OR REPLACE INTO game_clocks (game_id, remaining) VALUES (?, ?)",
               (game_id, json.dumps([round(c, 3) for c in clocks])))
