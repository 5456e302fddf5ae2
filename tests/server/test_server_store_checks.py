"""A store the host broke by accident: each case ends in a sentence, and only the damaged table is lost.

A second server on the same file, a torn page, a dropped table, a read-only file, a malformed row in one
open table, and a write SQLite refuses while the server runs.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing
from hanabi.protocol import PROTOCOL_VERSION
from hanabi.protocol.messages import ErrorReply, Hello, Joined, Start, ViewUpdate
from hanabi.server import Server, Store, StoreError, serve

from .conftest import FAST, Client
from .test_server_tables import table_of


@asynccontextmanager
async def running(db: str) -> AsyncIterator[tuple[Server, Callable[..., Any]]]:
    """A server on ``db`` and a way to connect to it over memory streams; stopped on leaving."""
    with trio.fail_after(15):
        async with trio.open_nursery() as nursery:
            server: Server = await nursery.start(
                lambda task_status: serve("127.0.0.1", 0, db, config=FAST, task_status=task_status))

            async def connect(name: str, resume: str | None = None) -> Client:
                ours, theirs = trio.testing.memory_stream_pair()
                nursery.start_soon(server.handle, theirs, f"memory:{name}")
                client = Client(ours, name)
                client.token = (await client.hello(name, resume)).resume  # type: ignore[attr-defined]
                return client

            yield server, connect
            await server.stop()


async def _two_running_games(db: str) -> dict[str, str]:
    """Two tables with a game each; returns each player's resume token."""
    tokens = {}
    async with running(db) as (_, connect):
        for pair in (("Ann", "Bob"), ("Cid", "Dee")):
            host, guest = await connect(pair[0]), await connect(pair[1])
            await table_of(host, [guest])
            await host.send(Start())
            for c in (host, guest):
                await c.expect(ViewUpdate)
                tokens[c.name] = c.token  # type: ignore[attr-defined]
    return tokens


async def test_a_malformed_row_costs_its_own_table_and_its_players_are_told(tmp_path: Path) -> None:
    db = str(tmp_path / "store.db")
    tokens = await _two_running_games(db)
    with sqlite3.connect(db) as raw:  # the first table's game: its first action's text is no longer JSON
        raw.execute("INSERT INTO actions (game_id, seq, action) VALUES (1, 0, '{not json')")
    async with running(db) as (server, connect):
        assert server.restored == 1  # the other game runs again
        ann = await connect("Ann", tokens["Ann"])
        told = await ann.expect(ErrorReply)
        assert told.code == "no_such_table" and "could not be restored" in told.message
        cid = await connect("Cid", tokens["Cid"])
        assert (await cid.expect(Joined)).seat == 0
        await cid.expect(ViewUpdate)
    async with running(db) as (server, _):  # the lost table stays closed: no second report
        assert sorted(server.lobby.tables) == [2]


@pytest.mark.parametrize("damage", ["variant", "config"])
async def test_a_malformed_variant_or_config_costs_its_table_not_the_server(tmp_path: Path, damage: str) -> None:
    db = str(tmp_path / "store.db")
    await _two_running_games(db)
    with sqlite3.connect(db) as raw:
        if damage == "variant":
            raw.execute("UPDATE tables SET variant = 'Mauve Suits' WHERE id = 1")
        else:
            raw.execute("UPDATE games SET config = '{\"players\": 99}' WHERE table_id = 1")
    async with running(db) as (server, _):
        assert sorted(server.lobby.tables) == [2] and server.restored == 1


async def test_a_second_server_on_the_same_store_refuses_to_start_naming_the_first(tmp_path: Path) -> None:
    db = str(tmp_path / "store.db")
    async with running(db):
        with pytest.raises(StoreError, match=r"in use by another hanabi-server \(process \d+, started"):
            Store(db).open_sync(exclusive=True)
    second = Store(db)  # the first one stopped: the lock went with it
    second.open_sync(exclusive=True)
    second.close_sync()


def _store_with_a_player(path: Path) -> None:
    with sqlite3.connect(path) as raw:
        store = Store(str(path))
        store.open_sync()
        store.close_sync()
        raw.execute("INSERT INTO players VALUES ('h', 'Ann', 0)")
        raw.executemany("INSERT INTO tables (name, variant, empty_clues, all_or_nothing, chat, seats, created) "
                        "VALUES (?, 'No Variant', 0, 0, 'always', 2, 0)", [(f"t{i}",) for i in range(2000)])


def test_a_store_with_a_dropped_table_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    _store_with_a_player(path)
    with sqlite3.connect(path) as raw:
        raw.execute("DROP TABLE players")
    with pytest.raises(StoreError, match=r"its players table.* missing"):
        Store(str(path)).open_sync()


def test_a_torn_page_is_found_at_start(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    _store_with_a_player(path)
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = raw.execute("PRAGMA page_size").fetchone()[0]
        # A leaf in the middle of the tables' tree (pages are numbered from 1), whatever else the schema holds.
        leaves = [n for (n,) in raw.execute("SELECT pageno FROM dbstat WHERE name = 'tables' AND pagetype = 'leaf' "
                                            "ORDER BY pageno")]
    with open(path, "r+b") as f:  # half of a page in the middle of the tables' tree, as a torn write leaves it
        f.seek(page * (leaves[len(leaves) // 2] - 1) + 8)
        f.write(b"\xa5" * (page // 2))
    with pytest.raises(StoreError, match=r"damaged|cannot be used"):
        Store(str(path)).open_sync()


def test_a_read_only_store_is_refused_at_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "store.db"
    _store_with_a_player(path)
    real = sqlite3.connect

    def read_only(database: str, **kwargs: Any) -> sqlite3.Connection:  # as a file the server may not write
        # Only the store's file: coverage writes its own data through sqlite3.connect too (with ``uri``), and a
        # run recording which test reached which line (``--cov-context=test``) does so while a test runs.
        if database != str(path):
            return real(database, **kwargs)
        return real(f"file:{database}?mode=ro", uri=True, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", read_only)
    with pytest.raises(StoreError, match="is read-only: the server must write"):
        Store(str(path)).open_sync()


async def test_a_write_sqlite_refuses_is_a_store_failure_and_the_server_goes_on(tmp_path: Path) -> None:
    async with running(str(tmp_path / "store.db")) as (server, connect):
        ann = await connect("Ann")
        assert server.store._db is not None
        server.store._db.execute("PRAGMA query_only = ON")  # every write now fails, as on a read-only file
        ours, theirs = trio.testing.memory_stream_pair()
        server.lobby._nursery.start_soon(server.handle, theirs, "memory:Bob")
        bob = Client(ours, "Bob")
        await bob.send(Hello(protocol=PROTOCOL_VERSION, program="test", name="Bob"))  # its login cannot be saved
        refused = await bob.expect(ErrorReply)
        assert refused.code == "internal" and "store failed" in refused.message
        server.store._db.execute("PRAGMA query_only = OFF")
        await table_of(ann, [], seats=2)  # the server went on
