"""What the game store keeps and how it is read back: the SQLite schema, and its rows as plain values.

The readers take an open ``sqlite3`` connection (``Store.read`` runs them). A malformed row costs its own
table only: ``read_snapshot`` lists such tables apart (``damaged``).

Each player's record (``read_records``) is counted afresh on each request from the finished games' rows: per
player count and variant, the games, points, best score, perfect ones, strike-outs, those with a bot at the
table and those with advice. A game counts for every person who held one of its seats (``game_players``: seated
at its start, or handed a seat while it ran), under the name the store knows them by (a forgotten player has
none, and no record); it is "with bots" when a house bot or a network bot held a seat at any time
(``game_bots``), "with advice" when a seat asked the coach (``game_advice``).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import dataclass, field

from hanabi.engine import Action, EndReason, GameConfig, Variant
from hanabi.engine.bots import Level, known_level
from hanabi.engine.replay import SeatHolder
from hanabi.protocol import BotReason, GameSummary, StatsLine

from .records import COLUMNS, TableSettings, action_from_text, config_from_text, settings_from_row

log = logging.getLogger("hanabi.server.store")  # the store's one log, whichever of its modules writes it

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (token_hash TEXT PRIMARY KEY, name TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS network_bots (token_hash TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS tables (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, variant TEXT NOT NULL,
    empty_clues INTEGER NOT NULL, all_or_nothing INTEGER NOT NULL, chat TEXT NOT NULL, seats INTEGER NOT NULL,
    password TEXT, host INTEGER, created REAL NOT NULL, closed REAL);
CREATE TABLE IF NOT EXISTS seats (table_id INTEGER NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL,
    bot INTEGER NOT NULL, name TEXT NOT NULL, token_hash TEXT, PRIMARY KEY (table_id, seat));
CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY AUTOINCREMENT, table_id INTEGER NOT NULL REFERENCES tables(id),
    config TEXT NOT NULL, seed TEXT NOT NULL, players TEXT NOT NULL, started REAL NOT NULL, finished REAL,
    score INTEGER, end_reason TEXT);
CREATE TABLE IF NOT EXISTS actions (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
    action TEXT NOT NULL, PRIMARY KEY (game_id, seq));
CREATE TABLE IF NOT EXISTS reviews (table_id INTEGER PRIMARY KEY REFERENCES tables(id),
    game_id INTEGER NOT NULL REFERENCES games(id), leader TEXT NOT NULL, step INTEGER NOT NULL, pointer INTEGER);
CREATE TABLE IF NOT EXISTS game_players (game_id INTEGER NOT NULL REFERENCES games(id), token_hash TEXT NOT NULL,
    PRIMARY KEY (token_hash, game_id));
CREATE TABLE IF NOT EXISTS game_bots (game_id INTEGER PRIMARY KEY REFERENCES games(id));
CREATE TABLE IF NOT EXISTS notes (game_id INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
    card INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (game_id, seat, card));
CREATE TABLE IF NOT EXISTS table_choices (table_id INTEGER PRIMARY KEY REFERENCES tables(id), options TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seeded_games (game_id INTEGER PRIMARY KEY REFERENCES games(id), seed TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS seeded_games_by_seed ON seeded_games (seed);
CREATE TABLE IF NOT EXISTS game_clocks (game_id INTEGER PRIMARY KEY REFERENCES games(id), remaining TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS watching (token_hash TEXT PRIMARY KEY, table_id INTEGER NOT NULL REFERENCES tables(id));
CREATE TABLE IF NOT EXISTS bot_reasons (game_id INTEGER NOT NULL REFERENCES games(id), turn INTEGER NOT NULL,
    seat INTEGER NOT NULL, reason TEXT NOT NULL, kept_from TEXT NOT NULL, PRIMARY KEY (game_id, turn));
CREATE TABLE IF NOT EXISTS game_advice (game_id INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat));
CREATE TABLE IF NOT EXISTS seat_holders (game_id INTEGER NOT NULL REFERENCES games(id), ord INTEGER NOT NULL,
    turn INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, bot INTEGER NOT NULL,
    PRIMARY KEY (game_id, ord));
CREATE TABLE IF NOT EXISTS game_seating (game_id INTEGER PRIMARY KEY REFERENCES games(id), level TEXT NOT NULL,
    bots TEXT NOT NULL);
"""


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
    notes: dict[int, dict[int, str]] = field(default_factory=dict)  # seat -> card order -> the seat's note
    end_reason: str | None = None
    clocks: tuple[float, ...] | None = None  # a timed game's banks as stored with its latest action
    # The bots' reasons, each with the seats it was kept from while the game ran (as ``Game.reasons``).
    reasons: list[tuple[BotReason, frozenset[int]]] = field(default_factory=list)
    advised: set[int] = field(default_factory=set)  # the seats that asked the coach for advice (``game_advice``)
    holders: list[SeatHolder] = field(default_factory=list)  # the seats handed on, in order (as ``Game.holders``)
    # The level of its house bots beside people and the seats bots held at the deal (``game_seating``); None for a
    # game stored before they were kept.
    bot_level: Level | None = None
    dealt_bots: frozenset[int] = frozenset()


@dataclass(slots=True)
class StoredReview:
    """A table's review as it was last shown: the game reviewed, who leads, the step, the card pointed at."""

    game: StoredGame
    leader: str
    step: int
    pointer: int | None


@dataclass(slots=True)
class StoredTable:
    id: int
    name: str
    settings: TableSettings
    password: str | None
    host: int | None
    seated: list[StoredSeat] = field(default_factory=list)
    game: StoredGame | None = None  # the latest game, finished or not
    review: StoredReview | None = None
    watching: list[str] = field(default_factory=list)  # the token hashes of its spectators


@dataclass(slots=True)
class StoredPlayer:
    token_hash: str
    name: str
    network_bot: bool = False  # its last hello said it is a hanabi-bot of our version (``Player.network_bot``)


@dataclass(slots=True)
class Snapshot:
    tables: list[StoredTable]
    players: list[StoredPlayer]
    # Open tables a malformed row keeps from restoring: (id, name, the token hashes of their seated players).
    damaged: list[tuple[int, str, list[str]]] = field(default_factory=list)


def read_snapshot(db: sqlite3.Connection) -> Snapshot:
    """Everything a restarted server needs: open tables, their seats and latest games, and the players."""
    snap = Snapshot([], [StoredPlayer(h, n, bool(b)) for h, n, b in db.execute(
        "SELECT token_hash, name, token_hash IN (SELECT token_hash FROM network_bots) FROM players")])
    for row in db.execute(f"SELECT id, name, password, host, {COLUMNS}, options FROM tables"
                          " LEFT JOIN table_choices ON table_id = id WHERE closed IS NULL ORDER BY id").fetchall():
        seated = [StoredSeat(seat, bool(bot), name, h) for seat, bot, name, h in db.execute(
            "SELECT seat, bot, name, token_hash FROM seats WHERE table_id = ? ORDER BY seat", (row[0],))]
        try:  # each table on its own: a malformed row (a variant, a config, an action) costs this one only
            game = db.execute("SELECT id FROM games WHERE table_id = ? ORDER BY id DESC LIMIT 1",
                              (row[0],)).fetchone()
            watching = [h for (h,) in db.execute("SELECT token_hash FROM watching WHERE table_id = ?", (row[0],))]
            snap.tables.append(StoredTable(row[0], row[1], settings_from_row(*row[4:]), row[2], row[3], seated,
                                           read_game(db, game[0]) if game is not None else None,
                                           _read_review(db, row[0]), watching))
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as e:
            log.error("table %s (%s) cannot be restored, a stored row of it is malformed (%s): it is closed, "
                      "its players are told when they come back", row[0], row[1], e)
            snap.damaged.append((row[0], str(row[1]), [s.token_hash for s in seated if s.token_hash]))
    return snap


def read_game(db: sqlite3.Connection, game_id: int) -> StoredGame | None:
    row = db.execute("SELECT id, table_id, config, seed, players, started, finished, end_reason FROM games"
                     " WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        return None
    game = StoredGame(row[0], row[1], config_from_text(row[2]), row[3], tuple(json.loads(row[4])), row[5],
                      row[6], end_reason=row[7])
    clocks = db.execute("SELECT remaining FROM game_clocks WHERE game_id = ?", (game_id,)).fetchone()
    if clocks is not None:
        game.clocks = tuple(float(c) for c in json.loads(clocks[0]))
    game.actions = [action_from_text(t) for (t,) in db.execute(
        "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]
    for seat, order, text in db.execute("SELECT seat, card, text FROM notes WHERE game_id = ? ORDER BY card",
                                        (game_id,)):
        game.notes.setdefault(seat, {})[order] = text
    game.reasons = [(BotReason(game=game_id, turn=turn, seat=seat, reason=reason), frozenset(json.loads(kept)))
                    for turn, seat, reason, kept in db.execute(
                        "SELECT turn, seat, reason, kept_from FROM bot_reasons WHERE game_id = ? ORDER BY turn",
                        (game_id,))]
    game.advised = {seat for (seat,) in db.execute("SELECT seat FROM game_advice WHERE game_id = ?", (game_id,))}
    game.holders = read_holders(db, [game_id]).get(game_id, [])
    seating = db.execute("SELECT level, bots FROM game_seating WHERE game_id = ?", (game_id,)).fetchone()
    if seating is not None:
        game.bot_level = known_level(seating[0])
        game.dealt_bots = frozenset(int(seat) for seat in json.loads(seating[1]))
    return game


def _read_review(db: sqlite3.Connection, table_id: int) -> StoredReview | None:
    row = db.execute("SELECT game_id, leader, step, pointer FROM reviews WHERE table_id = ?",
                     (table_id,)).fetchone()
    game = read_game(db, row[0]) if row is not None else None
    if row is None or game is None or game.finished is None:
        return None  # never a review of a game not over
    return StoredReview(game, str(row[1]), int(row[2]), None if row[3] is None else int(row[3]))


# The finished games, as the games list shows them, but those dealt from the seed text given (the parameter).
_FINISHED = (" FROM games g LEFT JOIN seeded_games s ON s.game_id = g.id WHERE g.finished IS NOT NULL"
             " AND g.end_reason IS NOT NULL AND (s.seed IS NULL OR s.seed IS NOT ?)")


def read_games(db: sqlite3.Connection, limit: int = 100, key: str | None = None, seed: str | None = None,
               hidden: str | None = None) -> list[GameSummary]:
    """The latest finished games, newest first; with ``key``, the games of the player of that token hash first;
    with ``seed``, only those dealt from that seed text; with ``hidden``, none dealt from that seed text."""
    query = ("SELECT g.id, g.table_id, g.players, g.config, g.score, g.end_reason, g.finished,"
             " EXISTS (SELECT 1 FROM game_players p WHERE p.token_hash = ? AND p.game_id = g.id) AS yours, s.seed,"
             " EXISTS (SELECT 1 FROM game_advice a WHERE a.game_id = g.id)" + _FINISHED)
    rows = (db.execute(query + " ORDER BY yours DESC, g.id DESC LIMIT ?", (key, hidden, limit)) if seed is None
            else db.execute(query + " AND s.seed = ? ORDER BY g.id DESC LIMIT ?", (key, hidden, seed, limit)))
    return [GameSummary(gid, tid, tuple(json.loads(players)), Variant(json.loads(config)["variant"]), score or 0,
                        EndReason(end), int(finished), bool(yours), seeded, bool(advised))
            for gid, tid, players, config, score, end, finished, yours, seeded, advised in rows]


def read_holders(db: sqlite3.Connection, game_ids: list[int]) -> dict[int, list[SeatHolder]]:
    """Who took over which seat from which turn, for each of ``game_ids`` in which a seat changed hands."""
    out: dict[int, list[SeatHolder]] = {}
    for gid in game_ids:
        for turn, seat, name, bot in db.execute(
                "SELECT turn, seat, name, bot FROM seat_holders WHERE game_id = ? ORDER BY ord", (gid,)):
            out.setdefault(gid, []).append(SeatHolder(turn, seat, name, bool(bot)))
    return out


def count_finished(db: sqlite3.Connection, hidden: str | None = None) -> int:
    """How many finished games the store holds, counted as ``read_games`` lists them (which shows the latest),
    without those dealt from the seed text ``hidden``."""
    return int(db.execute("SELECT COUNT(*)" + _FINISHED, (hidden,)).fetchone()[0])


def fold_table_clocks(db: sqlite3.Connection) -> None:
    """A store written while a timed table's clock was kept apart from its other options (in ``table_clocks``):
    each clock moves into its table's options, once, so one row says how a table was set up."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'table_clocks'").fetchone() is None:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        for table_id, base, per_turn in db.execute("SELECT table_id, time_base, time_per_turn FROM table_clocks")\
                .fetchall():
            row = db.execute("SELECT options FROM table_choices WHERE table_id = ?", (table_id,)).fetchone()
            try:
                options = json.loads(row[0]) if row is not None else {}
            except ValueError:
                continue  # a malformed row: its table is not restored anyway (see ``read_snapshot``)
            if not isinstance(options, dict):
                continue
            options["timer"] = [int(base), int(per_turn)]
            db.execute("INSERT OR REPLACE INTO table_choices (table_id, options) VALUES (?, ?)",
                       (table_id, json.dumps(options)))
        db.execute("DROP TABLE table_clocks")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


_VARIANT_ORDER = {v: i for i, v in enumerate(Variant)}


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """One player's record: a line per player count and variant they finished a game of."""

    name: str
    lines: tuple[StatsLine, ...]

    @property
    def games(self) -> int:
        return sum(line.games for line in self.lines)


def read_records(db: sqlite3.Connection, key: str | None = None) -> list[PlayerRecord]:
    """Every player's record, by name (case ignored); with ``key``, only the player of that token hash."""
    query = ("SELECT gp.token_hash, p.name, g.config, g.score, g.end_reason,"
             " EXISTS (SELECT 1 FROM game_bots b WHERE b.game_id = g.id),"
             " EXISTS (SELECT 1 FROM game_advice a WHERE a.game_id = g.id)"
             " FROM game_players gp JOIN games g ON g.id = gp.game_id JOIN players p ON p.token_hash = gp.token_hash"
             " WHERE g.finished IS NOT NULL AND g.end_reason IS NOT NULL")
    rows = db.execute(query, ()) if key is None else db.execute(query + " AND gp.token_hash = ?", (key,))
    names: dict[str, str] = {}
    # token -> (player count, variant) -> each game's (score, struck out, with bots, with advice)
    played: dict[str, dict[tuple[int, Variant], list[tuple[int, bool, bool, bool]]]] = {}
    for token, name, config, score, end, bots, advised in rows:
        try:
            options = json.loads(config)
            kind = (int(options["players"]), Variant(options["variant"]))
        except (ValueError, KeyError, TypeError):
            continue  # a malformed row counts for no one (it is not restored or listed either)
        names[token] = name
        played.setdefault(token, {}).setdefault(kind, []).append(
            (int(score or 0), end == EndReason.STRIKEOUT.value, bool(bots), bool(advised)))
    records = [PlayerRecord(names[token], tuple(
        _line(players, variant, games)
        for (players, variant), games in sorted(kinds.items(), key=lambda kv: (kv[0][0], _VARIANT_ORDER[kv[0][1]]))))
        for token, kinds in played.items()]
    return sorted(records, key=lambda r: (r.name.casefold(), r.name))


def _line(players: int, variant: Variant, games: list[tuple[int, bool, bool, bool]]) -> StatsLine:
    scores, struck_out, with_bots, with_advice = zip(*games, strict=True)
    return StatsLine(players, variant, len(games), sum(scores), max(scores), scores.count(variant.max_score),
                     sum(struck_out), sum(with_bots), sum(with_advice))
