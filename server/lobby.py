"""The lobby: who is here, which tables exist, and where each request goes.

Players are known by the hash of their resume token. Requests about one
table go to that table's task (``Table.call``); the lobby itself only lists
tables and games, creates tables, hands out replays, and tells players who
are not at a table when the list of tables changes.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import Sequence
from typing import Protocol

import trio
from hanabi.engine import EndReason, Rearrange, Variant, apply, new_game, replay, terminate

from . import wire
from .bots import BOT_NAMES, Policy, default_policy
from .config import ServerConfig
from .session import Outbox, Player, Refused, Transfer
from .store import Snapshot, Store, StoredGame, StoreFailure, token_hash
from .table import CloseIfEmpty, Table, hash_password

log = logging.getLogger(__name__)
E = wire.ErrorCode

# Requests that concern the table the player is at.
_AT_TABLE = (wire.Leave, wire.Start, wire.AddBot, wire.RemoveBot, wire.GiveHost, wire.ActionRequest,
             wire.RearrangeRequest, wire.Chat)


class _Named(Protocol):
    @property
    def name(self) -> str: ...


class Listed(Protocol):
    """A table as the lobby lists it: a ``Table`` here, or one that another process runs (``shard``)."""

    @property
    def id(self) -> int: ...

    @property
    def running(self) -> bool: ...

    @property
    def seats(self) -> Sequence[_Named | None]: ...

    def info(self) -> wire.TableInfo: ...


def no_such_table(table: int) -> Refused:
    return Refused(E.NO_SUCH_TABLE, f"there is no table {table}: list the tables to see them")


class Lobby:
    def __init__(self, store: Store, config: ServerConfig, nursery: trio.Nursery,
                 policy: Policy | None = None) -> None:
        self.store = store
        self.config = config
        self.policy = policy or default_policy()
        self.bot_names = BOT_NAMES
        self.players: dict[str, Player] = {}  # by token hash
        self.tables: dict[int, Table] = {}
        self._online: set[Player] = set()  # players with a connection now
        self._nursery = nursery

    # --- start-up -----------------------------------------------------------------------------------------------

    async def restore(self, only: set[int] | None = None) -> int:
        """Bring back every open table (``only`` these) and unfinished game from the store; returns how many
        games run again."""
        snap = await self.restore_players()
        running = 0
        for stored in snap.tables:
            if only is not None and stored.id not in only:
                continue
            try:
                table = Table.restore(self, stored)
            except Exception:  # one damaged table must not keep the others (or the server) down
                log.exception("table %d could not be restored; it is left out", stored.id)
                continue
            game = table.game
            if game is not None and stored.game is not None and stored.game.finished is None and not game.running:
                # The last action was saved but the server died before marking the game over: mark it now, or
                # it would count as running for ever (no replay, not among the finished games).
                outcome = game.state.outcome
                assert outcome is not None
                await self.store.finish_game(game.id, outcome.score, outcome.reason.value)
                log.info("game %d: ended with its last saved action; marked finished now", game.id)
            self.tables[table.id] = table
            await self._nursery.start(table.run)
            running += table.running
        if only is None:
            self._nursery.start_soon(self._forget_now_and_then)
        return running

    async def restore_players(self) -> Snapshot:
        """Every player the store knows (all away for now); returns what the store holds."""
        snap = await self.store.snapshot()
        now = trio.current_time()
        for p in snap.players:
            player = self.players[p.token_hash] = Player(p.token_hash, p.name)
            player.away_since = now
        return snap

    # --- players coming and going -------------------------------------------------------------------------------

    async def login(self, conn: Outbox, hello: wire.Hello) -> tuple[Player, str, Refused | None]:
        """Who this connection is: a returning player (by token) or a new one. Returns the player, their token,
        and a notice when a token was given but not recognised."""
        notice = None
        if hello.resume is not None:
            player = self.players.get(token_hash(hello.resume))
            if player is not None:
                self._attach(player, conn)
                return player, hello.resume, None
            notice = Refused(E.BAD_RESUME, "that resume token is not known here (the server's store may have "
                                           "been reset): you are in the lobby with a new one")
        if len(self.players) >= self.config.max_players:
            await self.forget_idle(keep=self.config.max_players * 9 // 10)
        token = secrets.token_urlsafe(24)
        player = Player(token_hash(token), self._unique_name(hello.name))
        await self.store.add_player(player.key, player.name)
        self.players[player.key] = player
        self._attach(player, conn)
        return player, token, notice

    def adopt(self, conn: Outbox, key: str, name: str) -> Player:
        """A connection another process of this server handed over (``shard``): it is ``key``'s now."""
        player = self.players.get(key)
        if player is None:
            player = self.players[key] = Player(key, name)
        self._attach(player, conn)
        return player

    def _attach(self, player: Player, conn: Outbox) -> None:
        """``conn`` is ``player``'s connection now; the one before it, if any, is told it was replaced."""
        old = player.conn
        player.conn = conn
        if old is not None and old is not conn:
            old.replaced()
        self._online.add(player)

    def moves(self, player: Player) -> Transfer | None:
        """After each request: whether the connection now goes on in another process (never, in one process)."""
        return None

    def arrived(self, player: Player) -> None:
        """After the welcome: a returning player gets their seat and view back."""
        if player.table is not None:
            player.table.welcome_back(player)

    def _unique_name(self, wanted: str) -> str:
        in_use = {p.name for p in self._online} | {s.name for t in self.listed() for s in t.seats if s}
        if wanted not in in_use:
            return wanted
        for n in range(2, 1000):
            candidate = f"{wanted[:28]} {n}"
            if candidate not in in_use:
                return candidate
        return f"{wanted[:20]} {secrets.token_hex(4)}"

    def disconnected(self, player: Player, conn: Outbox) -> None:
        if player.conn is not conn:
            return  # replaced by a newer connection: the seat is not empty
        player.conn = None
        player.away_since = trio.current_time()
        self._online.discard(player)
        if player.table is not None:
            player.table.connection_lost(player)

    async def forget_idle(self, keep: int | None = None) -> int:
        """Forget players who are offline and at no table: those away longer than ``forget_after``, and with
        ``keep``, the longest away until no more than ``keep`` players are known. Returns how many."""
        idle = sorted((p for p in self.players.values() if p.conn is None and p.table is None and not p.elsewhere),
                      key=lambda p: p.away_since)
        cutoff = trio.current_time() - self.config.forget_after
        over = max(0, len(self.players) - keep) if keep is not None else 0
        gone = [p for i, p in enumerate(idle) if i < over or p.away_since <= cutoff]
        if not gone:
            return 0
        await self.store.forget_players([p.key for p in gone])
        for p in gone:
            if p.conn is None and p.table is None and not p.elsewhere:  # still so after the write
                self.players.pop(p.key, None)
            else:  # came back meanwhile: they stay, in the store too
                await self.store.add_player(p.key, p.name)
        log.info("forgot %d players who were offline and at no table", len(gone))
        return len(gone)

    async def _forget_now_and_then(self) -> None:
        while True:
            await trio.sleep(min(3600.0, max(1.0, self.config.forget_after / 4)))
            try:
                await self.forget_idle()
            except Exception:  # the store failed: try again next time, the players are still known meanwhile
                log.exception("forgetting idle players failed")

    def to_lobby(self, frame: bytes) -> None:
        """Tell every connected player who is not at a table."""
        for p in self._online:
            if p.conn is not None and p.table is None:
                p.conn.send_frame(frame)

    def table_closed(self, table: Table, frame: bytes, members: list[Player]) -> None:
        """``table`` closed; ``members`` were at it (and are at no table now)."""
        self.tables.pop(table.id, None)
        self.to_lobby(frame)

    # --- requests -----------------------------------------------------------------------------------------------

    async def handle(self, player: Player, request: object) -> None:
        """Carry out one request of ``player``; replies go to the player, refusals raise ``Refused``."""
        if isinstance(request, _AT_TABLE):
            if player.table is None:
                raise Refused(E.NOT_SEATED, "you are not at a table: join or watch one first")
            await player.table.call(player, request)
        elif isinstance(request, (wire.Join, wire.Spectate)):
            table = self.tables.get(request.table)
            if table is None:
                raise no_such_table(request.table)
            await table.call(player, request)
        elif isinstance(request, wire.ListTables):
            self._list_tables(player, request.id)
        elif isinstance(request, wire.CreateTable):
            await self._create(player, request)
        elif isinstance(request, wire.ListGames):
            await self._list_games(player, request.id)
        elif isinstance(request, wire.GetReplay):
            await self._replay(player, request.game, request.id)
        else:
            raise Refused(E.UNKNOWN_TYPE, f"the server does not take {getattr(request, 'TYPE', 'such')} requests here")

    def _may_create(self, player: Player) -> None:
        if player.seated:
            raise Refused(E.ALREADY_SEATED, "you already sit at a table: leave it before creating another")
        if len(self.listed()) >= self.config.max_tables:
            raise Refused(E.TABLE_FULL, f"this server holds at most {self.config.max_tables} tables")

    async def _create(self, player: Player, request: wire.CreateTable) -> None:
        self._may_create(player)
        password = hash_password(request.password) if request.password else None
        variant, chat = request.variant, request.chat
        table_id = await self._table_row(player, request, password)
        table = Table(self, table_id, request.name, variant, request.empty_clues, request.all_or_nothing, chat,
                      request.seats, password)
        self.tables[table_id] = table
        log.info("%s opened table %d (%s): %d seats, %s", player.name, table_id, request.name, request.seats,
                 variant.value)
        await self._nursery.start(table.run)
        try:
            await table.call(player, wire.Join(table=table_id, seat=0, password=request.password, id=request.id))
        except Refused:
            with contextlib.suppress(Refused, StoreFailure):
                await table.call(None, CloseIfEmpty("its creator could not sit down at it"))
            raise

    async def _table_row(self, player: Player, request: wire.CreateTable, password: str | None) -> int:
        """The id of a new table: that of the row written for it in the store."""
        return await self.store.create_table(request.name, request.variant, request.empty_clues,
                                             request.all_or_nothing, request.chat, request.seats, password, None)

    def _list_tables(self, player: Player, request_id: int | None) -> None:
        player.send_frame(self.tables_frame(request_id))

    def tables_frame(self, request_id: int | None) -> bytes:
        """At most the protocol's LIST_MAX tables, those with a free seat first; ``total`` tells when some are
        left out."""
        tables = sorted(self.listed(), key=lambda t: (t.running or None not in t.seats, t.id))
        shown = tables[:wire.LIST_MAX]
        total = len(tables) if len(tables) > len(shown) else None
        return wire.frame(wire.Tables(tables=tuple(t.info() for t in shown), id=request_id, total=total))

    async def _list_games(self, player: Player, request_id: int | None) -> None:
        games = [g for g in await self.store.games(wire.LIST_MAX) if g.end is not None]
        total = await self.store.finished_count() if len(games) == wire.LIST_MAX else None
        if total is not None and total <= len(games):
            total = None
        player.send_frame(wire.frame(wire.Games(games=tuple(
            wire.GameSummary(id=g.id, table=g.table_id, players=g.players, variant=Variant(g.variant),
                             score=g.score or 0, end=EndReason(g.end), finished_at=int(g.finished or 0))
            for g in games), id=request_id, total=total)))

    async def _replay(self, player: Player, game_id: int, request_id: int | None) -> None:
        stored = await self.store.game(game_id)
        if stored is None:
            raise Refused(E.NO_SUCH_GAME, f"there is no game {game_id}: list the games to see them")
        if stored.finished is None:
            # A replay holds the whole deck: never while the game runs.
            raise Refused(E.NO_SUCH_GAME, f"game {game_id} is still running: its replay comes when it ends")
        player.send_frame(wire.frame(wire.ReplayFile(game=game_id, json=replay_text(stored), id=request_id)))

    def listed(self) -> Sequence[Listed]:
        """Every table of this server, as the lobby lists them."""
        return list(self.tables.values())

    # --- stopping -----------------------------------------------------------------------------------------------

    def online(self) -> list[Player]:
        return list(self._online)


def replay_text(stored: StoredGame, finish: bool = True) -> str:
    """The hanab.live JSON of a stored game, rebuilt by replaying its actions (``finish``: as a stopped game)."""
    state = new_game(stored.config, stored.seed)
    for action in stored.actions:
        state = apply(state, action, seat=action.seat if isinstance(action, Rearrange) else None)
    if finish and not state.over:
        state = terminate(state, "the game was stopped")
    return replay.dumps(state, stored.players)
