"""The game store: what is written comes back after a reopen, actions replay to the same game."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import trio
import trio.testing
from hanabi.engine import (
    ChatPolicy,
    Clue,
    Discard,
    GameConfig,
    Play,
    Rearrange,
    Suit,
    Variant,
    apply,
    legal_actions,
    new_game,
)
from hanabi.server.records import TableSettings, action_from_text, action_to_text
from hanabi.server.saved import read_game, read_games, read_snapshot
from hanabi.server.store import Store, StoreError, StoreFailure, token_hash


@pytest.mark.parametrize("action", [Play(3), Discard(0), Clue(1, colour=Suit.BLUE), Clue(2, rank=4),
                                    Rearrange(1, (5, 9, 7, 6, 8))])
def test_actions_survive_the_text_form(action: object) -> None:
    assert action_from_text(action_to_text(action)) == action  # type: ignore[arg-type]


async def test_a_game_is_back_after_reopening(tmp_path: Path) -> None:
    path = str(tmp_path / "games.sqlite3")
    config = GameConfig(players=3, variant=Variant.SIX_SUITS, chat=ChatPolicy.ALWAYS)
    state = new_game(config, "abc")
    store = Store(path)
    store.open_sync()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        await store.add_player(token_hash("secret-token"), "Alice")
        tid = await store.create_table("Friday", TableSettings(config), None, 0)
        await store.set_seat(tid, 0, bot=False, name="Alice", key=token_hash("secret-token"))
        await store.set_seat(tid, 1, bot=True, name="Bot", key=None)
        gid = await store.start_game(tid, state.config, "abc", ("Alice", "Bot", "Cathy"))
        played = []
        for seq in range(12):
            options = legal_actions(state)
            action = options[(seq * 7) % len(options)]
            state = apply(state, action)
            played.append(action)
            await store.add_action(gid, seq, action)
        nursery.cancel_scope.cancel()
    store.close_sync()

    again = Store(path)
    again.open_sync()
    snap = again.read_sync(read_snapshot)
    again.close_sync()
    [table] = snap.tables
    assert (table.id, table.name, table.settings, table.host) == (tid, "Friday", TableSettings(config), 0)
    assert [(s.seat, s.bot, s.name) for s in table.seated] == [(0, False, "Alice"), (1, True, "Bot")]
    assert table.seated[0].token_hash == token_hash("secret-token")
    assert snap.players[0].token_hash != "secret-token"  # only the hash is kept
    assert table.game is not None and table.game.id == gid and table.game.actions == played
    replayed = new_game(table.game.config, table.game.seed)
    for action in table.game.actions:
        replayed = apply(replayed, action)
    assert replayed == state


async def test_finished_games_are_listed(tmp_path: Path) -> None:
    store = Store(":memory:")
    store.open_sync()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        tid = await store.create_table("t", TableSettings(GameConfig(chat=ChatPolicy.OFF)), None, 0)
        g1 = await store.start_game(tid, GameConfig(players=2), "s1", ("A", "B"))
        g2 = await store.start_game(tid, GameConfig(players=2), "s2", ("A", "B"))
        await store.finish_game(g1, 17, "final_round")
        games = await store.read(read_games)
        assert [(g.id, g.score, g.end.value, g.players) for g in games] == [(g1, 17, "final_round", ("A", "B"))]
        assert (await store.read(read_game, g2)) is not None and (await store.read(read_game, 999)) is None
        nursery.cancel_scope.cancel()


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("these are my notes, not a database" * 100)
    with pytest.raises(StoreError, match="cannot be used as a game store"):
        Store(str(bad)).open_sync()




async def test_a_write_handed_to_the_store_as_it_is_cancelled_is_still_answered() -> None:
    # The store's task waits for work; a write is handed to it, and the task is cancelled before it runs again
    # (the server stopping, a test's nursery ending). Writers wait for their answer shielded (Store._do), so an
    # answer that never comes hangs the server's shutdown for ever.
    from hanabi.server.store import _Pending

    store = Store(":memory:")
    store.open_sync()
    pending = _Pending(lambda db: db.execute("INSERT INTO players (token_hash, name, created) VALUES ('k', 'A', 0)"))
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        await trio.testing.wait_all_tasks_blocked()  # the store's task is waiting for work
        store._submit.send_nowait(pending)  # handed straight to the waiting task...
        nursery.cancel_scope.cancel()  # ...which is cancelled before it runs again
        with trio.CancelScope(shield=True), trio.move_on_after(3) as waiting:
            await pending.done.wait()
    assert not waiting.cancelled_caught, "the write was never answered"
    assert pending.error is None  # a batch taken is committed (or each write told it failed, never silence)
    assert store.read_sync(read_snapshot).players[0].name == "A"
    store.close_sync()


async def test_a_write_the_database_refuses_is_a_store_failure() -> None:
    # A statement can fail on its own (a full disk, a constraint) inside a batch that commits: callers handle
    # StoreFailure ("it was not done, try again"; a bot chooses again), not sqlite3's own errors.
    from hanabi.server.store import StoreFailure

    store = Store(":memory:")
    store.open_sync()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        tid = await store.create_table("t", TableSettings(GameConfig(chat=ChatPolicy.ALWAYS)), None, 0)
        gid = await store.start_game(tid, GameConfig(players=2), "s", ("A", "B"))
        await store.add_action(gid, 0, Discard(0))
        with pytest.raises(StoreFailure):
            await store.add_action(gid, 0, Discard(1))  # the same place twice: the database refuses it
        await store.add_action(gid, 1, Discard(1))  # the store goes on
        nursery.cancel_scope.cancel()
    game = store.read_sync(read_game, gid)
    store.close_sync()
    assert game is not None and game.actions == [Discard(0), Discard(1)]


async def test_the_wal_starts_over_under_steady_writes_and_keeps_every_one(tmp_path: Path) -> None:
    """SQLite copies the WAL into the database file by itself (its auto-checkpoint, once the WAL passes 1,000
    pages, inside a commit in the store's worker thread): the WAL does not grow for ever, and no write is lost."""
    path = tmp_path / "games.sqlite3"
    store = Store(str(path))
    store.open_sync()
    wal_sizes = []
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        tid = await store.create_table("t", TableSettings(GameConfig(players=2)), None, 0)
        gid = await store.start_game(tid, GameConfig(players=2), "s", ("A", "B"))
        for seq in range(1200):
            await store.add_action(gid, seq, Discard(seq % 5))
            if seq % 50 == 49:
                wal_sizes.append((tmp_path / "games.sqlite3-wal").stat().st_size)
        listed = await store.read(read_game, gid)  # a read after the writes sees them all
        nursery.cancel_scope.cancel()
    store.close_sync()
    assert listed is not None and len(listed.actions) == 1200
    # Each commit here appends two pages (8 KiB): 1,200 of them, never copied, would make about 10 MB of WAL.
    # Copied, the WAL starts over from its beginning (its file keeps the size it reached, about 4 MB).
    assert max(wal_sizes) < 6_000_000, wal_sizes


def _actions_in_a_copy(path: Path, copy: Path, wal: bool) -> int:
    """How many actions a copy of the store's files holds (``wal``: the WAL's file copied too; without it, only
    what SQLite has copied into the database file)."""
    copy.write_bytes(path.read_bytes())
    if wal:
        copy.with_name(copy.name + "-wal").write_bytes(path.with_name(path.name + "-wal").read_bytes())
    db = sqlite3.connect(copy)
    try:
        return int(db.execute("SELECT COUNT(*) FROM actions").fetchone()[0])
    finally:
        db.close()


async def test_a_commit_is_in_the_wal_file_when_its_caller_hears_back(tmp_path: Path) -> None:
    """A commit is written to the WAL file before its caller hears back (so the files a killed process leaves
    hold it), and is not synced to the disk each time (``synchronous=NORMAL``): no move waits for the disk."""
    path = tmp_path / "games.sqlite3"
    store = Store(str(path))
    store.open_sync()
    store.close_sync()  # the last connection's close copies the new schema into the database file
    store.open_sync()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        tid = await store.create_table("t", TableSettings(GameConfig(players=2)), None, 0)
        gid = await store.start_game(tid, GameConfig(players=2), "s", ("A", "B"))
        await store.add_action(gid, 0, Discard(0))
        await store.add_action(gid, 1, Discard(1))
        # The files as they are now, as a process killed at this instant leaves them.
        assert _actions_in_a_copy(path, tmp_path / "killed.sqlite3", wal=True) == 2
        assert _actions_in_a_copy(path, tmp_path / "file-only.sqlite3", wal=False) == 0  # not copied yet
        assert store.read_sync(lambda db: db.execute("PRAGMA journal_mode").fetchone()[0]) == "wal"
        assert store.read_sync(lambda db: db.execute("PRAGMA synchronous").fetchone()[0]) == 1  # NORMAL
        nursery.cancel_scope.cancel()
    store.close_sync()


async def test_a_write_lock_held_by_another_process_never_stops_the_event_loop(tmp_path: Path) -> None:
    """Another program writing to the store's file (an operator's sqlite3 shell) holds SQLite's write lock: the
    store's batch waits for it in a worker thread, not on the event loop, and is committed once it is free."""
    path = str(tmp_path / "games.sqlite3")
    store = Store(path)
    store.open_sync()
    other = sqlite3.connect(path, isolation_level=None)
    gaps = []
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        tid = await store.create_table("t", TableSettings(GameConfig(players=2)), None, 0)
        gid = await store.start_game(tid, GameConfig(players=2), "s", ("A", "B"))
        other.execute("BEGIN IMMEDIATE")
        written = trio.Event()

        async def write() -> None:
            await store.add_action(gid, 0, Discard(0))
            written.set()

        nursery.start_soon(write)
        last = trio.current_time()
        for _ in range(30):  # 0.3 s of ticks while the lock is held
            await trio.sleep(0.01)
            now = trio.current_time()
            gaps.append(now - last)
            last = now
        assert not written.is_set()  # it waits for the lock...
        other.execute("COMMIT")
        with trio.fail_after(5):
            await written.wait()  # ... and is written once it is free
        stored = await store.read(read_game, gid)
        nursery.cancel_scope.cancel()
    other.close()
    store.close_sync()
    assert stored is not None and stored.actions == [Discard(0)]
    # On the event loop, SQLite's busy wait would have stopped every tick for its 5 s: nothing could free the lock.
    assert max(gaps) < 2.0, max(gaps)


async def test_a_bug_in_a_commit_stops_the_store_and_its_callers_hear_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The callers of a batch wait for it shielded: a bug that stops the store's task must still answer them (a
    failure), or a table would wait for ever and the server could not stop."""

    def broken(self: Store, batch: object) -> None:
        raise RuntimeError("a bug")

    store = Store(":memory:")
    store.open_sync()
    monkeypatch.setattr(Store, "_commit", broken)
    heard: list[StoreFailure] = []

    async def write() -> None:
        try:
            await store.add_player("key", "Alice")
        except StoreFailure as e:
            heard.append(e)

    with trio.fail_after(5), pytest.raises(ExceptionGroup) as stopped:
        async with trio.open_nursery() as nursery:
            await nursery.start(store.run)
            nursery.start_soon(write)
    store.close_sync()
    assert stopped.group_contains(RuntimeError, match="a bug")
    assert len(heard) == 1


def test_a_store_that_cannot_open_lets_go_of_its_lock(tmp_path: Path) -> None:
    """A file that is no game store is refused in a sentence, and holds nothing after: once it is moved aside, the
    same server (process) can open the store there."""
    path = tmp_path / "games.sqlite3"
    path.write_text("not a database " * 200)
    with pytest.raises(StoreError, match="cannot be used as a game store"):
        Store(str(path)).open_sync(exclusive=True)
    path.unlink()
    store = Store(str(path))
    store.open_sync(exclusive=True)  # the lock of the failed open would refuse this: "in use by another"
    store.close_sync()


async def test_the_seating_at_the_deal_is_kept_and_its_file_says_it_and_an_older_game_says_nothing(
        tmp_path: Path) -> None:
    """The bots' level and the seats bots held at the deal survive a reopening, and the game's file says them (a
    turn-0 ``seatHolders`` entry for a bot seat); a game stored without them (before they were kept) has a file
    that does not say who the bots were."""
    import json

    from hanabi.engine.replay import from_json
    from hanabi.server.game import replay_text

    path = str(tmp_path / "games.sqlite3")
    store = Store(path)
    store.open_sync()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        tid = await store.create_table("t", TableSettings(GameConfig(players=3)), None, 0)
        seated = await store.start_game(tid, GameConfig(players=3), "s", ("Ann", "Ben", "Bot Cleo"), bots=True,
                                        seating=("basic", frozenset({2})))
        older = await store.start_game(tid, GameConfig(players=3), "s", ("Ann", "Ben", "Bot Cleo"), bots=True)
        nursery.cancel_scope.cancel()
    store.close_sync()
    again = Store(path)
    again.open_sync()
    try:
        games = [again.read_sync(read_game, gid) for gid in (seated, older)]
    finally:
        again.close_sync()
    assert [(g.bot_level, g.dealt_bots) for g in games if g is not None] == [("basic", {2}), (None, frozenset())]
    files = [from_json(json.loads(replay_text(g))) for g in games if g is not None]
    assert [(f.bot_level, f.bots_at(0)) for f in files] == [("basic", {2}), (None, None)]
    assert [(h.turn, h.seat, h.name, h.bot) for h in files[0].holders] == [(0, 2, "Bot Cleo", True)]
