"""The lobby: who is here, which tables exist, where each player is (its one owner: docs/design.md, "The lobby"),
and where each request goes; requests about a table go to its task (``Table.call``)."""

from __future__ import annotations

import contextlib
import heapq
import logging
import secrets
from collections import Counter
from collections.abc import Iterable

import trio
from hanabi.protocol import (
    CLIENT_PROGRAM,
    LIST_MAX,
    CreateTable,
    ErrorCode,
    Games,
    GetReplay,
    GetStats,
    GoodbyeReason,
    HandSeat,
    Hello,
    Join,
    Leave,
    ListGames,
    ListOnline,
    ListTables,
    Message,
    Online,
    ReplayFile,
    Spectate,
    Stats,
    TableChanged,
    TableGone,
    TableInfo,
    Tables,
)
from hanabi.protocol import table_rules as rules

from .admission import PerAddress
from .config import ServerConfig
from .game import replay_text
from .names import NameBook, by_name, normalized, unique
from .records import settings_of
from .requests import CloseIfEmpty, Rewatch
from .saved import count_finished, read_game, read_games, read_records, read_snapshot
from .session import Outbox, Player, Refused, frame, refuse
from .store import Store, StoreFailure, token_hash
from .table import Handover, Policy, Table, hash_password, house_policy

log = logging.getLogger(__name__)

ONLINE_EVERY = 1.0  # seconds: the lobby hears who is online at most this often (a login storm is not a flood)
# The lobby's news goes out to this many players at a time, the other tasks (a move at a table) running between:
# one batch to hundreds of players at once held the event loop for tens of milliseconds.
NEWS_SLICE = 32


def sees_the_lobby(player: Player) -> bool:
    """Whether ``player``'s screen lists the lobby (its tables, who is online): at no table, or at one between
    games."""
    return player.table is None or not player.table.running


class Lobby:
    def __init__(self, store: Store, config: ServerConfig, nursery: trio.Nursery,
                 policy: Policy | None = None) -> None:
        self.store = store
        self.config = config
        self.policy = policy or house_policy
        self.players: dict[str, Player] = {}  # by token hash
        self.names = NameBook()  # the names of ``players``: a new one may not look like any (they may come back)
        self.tables: dict[int, Table] = {}
        self.online: set[Player] = set()  # players with a connection now
        self._from: Counter[str] = Counter()  # how many of them are connected from each address
        self._online_names: tuple[str, ...] | None = None  # their names, sorted (None: to sort again)
        self._reserved: set[str] = set()  # names of logins being saved
        self._lost: dict[str, Refused] = {}  # by token hash: what to tell who sat at a table lost to a damaged store
        self._news: dict[int, Table] = {}  # tables changed (or closed) since the lobby was last told
        self._openings = PerAddress(config.new_tables_per_second, 4)  # tables opened (each costs store writes)
        self._online_told: tuple[str, ...] | None = None  # the online list the lobby heard last
        self._online_at = float("-inf")  # when
        self._nursery = nursery

    # --- start-up -----------------------------------------------------------------------------------------------

    async def restore(self) -> int:
        """Bring back every open table and unfinished game from the store, then start the lobby's own two tasks
        (forgetting idle players, the lobby's news); returns how many games run again."""
        snap = await self.store.read(read_snapshot)
        for p in snap.players:  # every player the store knows, all away for now
            self.players[p.token_hash] = Player(p.token_hash, p.name, away_since=trio.current_time(),
                                                network_bot=p.network_bot)
            self.names.add(p.name)
        running = 0
        watched: list[tuple[Table, list[str]]] = []
        for damaged in snap.damaged:
            await self._lose(*damaged)
        for stored in snap.tables:
            try:  # its seats given back to the players known (by token hash), who are at it again
                table = Table.restore(stored, self.players, store=self.store, config=self.config, policy=self.policy,
                                      lobby=self)
            except Exception:  # one damaged table must not keep the others (or the server) down
                log.exception("table %d could not be restored; it is closed", stored.id)
                await self._lose(stored.id, stored.name, [s.token_hash for s in stored.seated if s.token_hash])
                continue
            game = table.game
            if game is not None and stored.game is not None and stored.game.finished is None and not game.running:
                # The last action was saved but the server died before marking the game over: mark it now, or
                # it would count as running for ever (no replay, not among the finished games).
                outcome = game.state.outcome
                assert outcome is not None
                await self.store.finish_game(game.id, outcome.score, outcome.reason.value)
                log.info("game %d: ended with its last saved action; marked finished now", game.id)
            for seat, player in table.people():
                player.table, player.seat = table, seat
            self.tables[table.id] = table
            await self._nursery.start(table.run)
            running += table.running
            watched.append((table, stored.watching))
        for table, keys in watched:  # once every seat is back: one seated somewhere watches nowhere
            for key in keys:
                spectator = self.players.get(key)
                if spectator is not None and spectator.table is None:
                    table.watched_by(spectator)
                    spectator.table = table
        self._nursery.start_soon(self._forget_now_and_then)
        self._nursery.start_soon(self._tell_lobby)
        return running

    async def _lose(self, table_id: int, name: str, keys: list[str]) -> None:
        """A table that could not be restored is closed; its players learn why when they come back."""
        await self.store.close_table(table_id)
        for key in keys:
            self._lost[key] = Refused(ErrorCode.NO_SUCH_TABLE, f"your table {name!r} could not be restored after "
                                      "the server restarted (its saved state is damaged): it is closed, sorry")

    # --- players coming and going -------------------------------------------------------------------------------

    async def login(self, conn: Outbox, hello: Hello) -> tuple[Player, str, Refused | None]:
        """Who this connection is: a returning player (by token) or a new one. Returns the player, their token,
        and a notice when a token was given but not recognised."""
        notice = None
        if hello.resume is not None:
            player = self.players.get(token_hash(hello.resume))
            if player is not None:
                await self._say_network_bot(player, hello)
                self._attach(player, conn)
                return player, hello.resume, self._lost.pop(player.key, None)
            notice = Refused(ErrorCode.BAD_RESUME, "that resume token is not known here (the server's store may "
                                                   "have been reset): you are in the lobby with a new one")
        # Past the caps a resume is let in all the same (above): only new players are turned away.
        if len(self.online) >= self.config.max_connections:
            raise Refused(GoodbyeReason.SERVER_FULL, f"the server is full ({len(self.online)} players are "
                                                     "connected): try again later")
        if self._from[conn.address] >= self.config.max_players_per_address:
            raise Refused(GoodbyeReason.SERVER_FULL, f"{self.config.max_players_per_address} players are connected "
                                                     "from your address, the most the server takes from one")
        if len(self.players) >= self.config.max_players:
            await self.forget_idle(keep=self.config.max_players * 9 // 10)
        token = secrets.token_urlsafe(24)
        bots = {s.name for t in self.tables.values() for s in t.seats if s and s.player is None}
        player = Player(token_hash(token), unique(normalized(hello.name), bots | self._reserved, self.names,
                                                  connected=self._connected, person=not hello.network_bot))
        self._reserved.add(player.name)  # before the await: a login at the same moment cannot take it too
        try:
            await self.store.add_player(player.key, player.name)
        finally:
            self._reserved.discard(player.name)
        self.players[player.key] = player
        self.names.add(player.name)
        await self._say_network_bot(player, hello)
        self._attach(player, conn)
        return player, token, notice

    def _connected(self, name: str) -> bool:
        """Whether a player connected now bears exactly ``name`` (asked only of a name someone bears)."""
        return any(p.name == name for p in self.online)

    async def _say_network_bot(self, player: Player, hello: Hello) -> None:
        """Whether ``player`` plays as a house bot, by this hello; stored when it changes, so that a restarted
        server counts its seat as a bot's before it is back. Only a bot of our own version is known to read
        clues exactly as our house bots do."""
        network_bot = hello.network_bot and hello.program == CLIENT_PROGRAM
        if network_bot != player.network_bot:
            await self.store.set_network_bot(player.key, network_bot)
            player.network_bot = network_bot

    def _attach(self, player: Player, conn: Outbox) -> None:
        """``conn`` is ``player``'s connection now; the one before it, if any, is told it was replaced."""
        old = player.conn
        player.conn = conn
        if old is not None:
            self._from[old.address] -= 1
        self._from[conn.address] += 1
        if old is not None and old is not conn:
            old.replaced()
        if player not in self.online:
            self.online.add(player)
            self._online_names = None

    def arrived(self, player: Player) -> None:
        """After the welcome: a returning player gets their seat and view back, or hears what happened to
        their table while they were away."""
        missed, player.missed = player.missed, []
        for message in missed:
            player.send(message)
        if player.table is not None:
            player.table.welcome_back(player)

    def disconnected(self, player: Player, conn: Outbox, left: bool = False) -> None:
        """``player``'s connection ``conn`` closed: ``left`` when they said goodbye (quit), not when it dropped."""
        if player.conn is not conn:
            return  # replaced by a newer connection: the seat is not empty
        player.conn = None
        self._from[conn.address] -= 1
        if self._from[conn.address] <= 0:
            del self._from[conn.address]
        player.away_since = trio.current_time()
        self.online.discard(player)
        self._online_names = None
        if player.table is not None:
            player.table.connection_lost(player, left)

    async def forget_idle(self, keep: int | None = None) -> int:
        """Forget players who are offline and at no table: those away longer than ``forget_after``, and with
        ``keep``, the longest away until no more than ``keep`` players are known. Returns how many."""
        idle = sorted((p for p in self.players.values() if p.conn is None and p.table is None),
                      key=lambda p: p.away_since)
        cutoff = trio.current_time() - self.config.forget_after
        over = max(0, len(self.players) - keep) if keep is not None else 0
        gone = [p for i, p in enumerate(idle) if i < over or p.away_since <= cutoff]
        if not gone:
            return 0
        await self.store.forget_players([p.key for p in gone])
        for p in gone:
            if p.conn is None and p.table is None:  # still so after the write
                if self.players.pop(p.key, None) is not None:
                    self.names.discard(p.name)
            else:  # came back meanwhile: they stay, in the store too, a network bot still one
                await self.store.add_player(p.key, p.name)
                if p.network_bot:
                    await self.store.set_network_bot(p.key, True)
        log.info("forgot %d players who were offline and at no table", len(gone))
        return len(gone)

    async def _forget_now_and_then(self) -> None:
        while True:
            await trio.sleep(min(3600.0, max(1.0, self.config.forget_after / 4)))
            try:
                await self.forget_idle()
            except Exception:  # the store failed: try again next time, the players are still known meanwhile
                log.exception("forgetting idle players failed")

    # --- what tables tell the lobby -----------------------------------------------------------------------------

    def table_changed(self, table: Table) -> None:
        self._news[table.id] = table

    def table_closed(self, table: Table, members: list[Player]) -> None:
        """``table`` closed; ``members`` were at it (told why, or to be told when they come back), and are at no
        table now."""
        self.tables.pop(table.id, None)
        for p in members:
            if p.table is table:
                p.table, p.seat = None, None
        self._news[table.id] = table  # the lobby hears it in the next batch (the members were told already)

    async def _tell_lobby(self) -> None:
        pause = self.config.lobby_interval
        while True:
            await trio.sleep(pause)
            told = await self.tell_lobby()
            # A write for each player told: with a crowd in the lobby the next batch waits longer, so that the
            # news costs the server a bounded number of writes a second however many watch and tables churn.
            pause = max(self.config.lobby_interval, told / self.config.lobby_news_rate)

    async def tell_lobby(self) -> int:
        """What changed goes to every player who sees the lobby in one batch every ``lobby_interval`` (the latest
        state of each table changed, once), so the lobby's traffic grows with its people, not with churn. Those
        who see it are the players at no table and those at a table with no game running, whose screen lists the
        lobby's tables and who is online under their own; a game's players see only their game. It goes out
        NEWS_SLICE players at a time, letting the rest of the server run between: a player whose game starts
        meanwhile is left out, one who comes to the lobby gets the next. Returns how many players it went to."""
        news, self._news = self._news, {}
        data = b"".join(frame(TableGone(table=t.id)) if t.closed else frame(TableChanged(table=t.info()))
                        for t in news.values())
        data += self._online_news()
        if not data:
            return 0
        lobby = [p for p in self.online if sees_the_lobby(p)]
        for start in range(0, len(lobby), NEWS_SLICE):
            if start:
                await trio.sleep(0)
            for p in lobby[start:start + NEWS_SLICE]:
                if sees_the_lobby(p):
                    p.send_frame(data)
        return len(lobby)

    def _online_news(self) -> bytes:
        """The ``online`` frame when the list changed since the lobby last heard it (at most every ONLINE_EVERY)."""
        now = trio.current_time()
        if now - self._online_at < ONLINE_EVERY:
            return b""
        names = self._online_sorted()
        if names == self._online_told:
            return b""
        self._online_told, self._online_at = names, now
        return self.online_frame(None, names)

    def online_frame(self, request_id: int | None, names: tuple[str, ...] | None = None) -> bytes:
        """Who is connected, by name: at most the protocol's LIST_MAX, ``total`` telling when some are left out."""
        names = self._online_sorted() if names is None else names
        total = len(names) if len(names) > LIST_MAX else None
        return frame(Online(players=names[:LIST_MAX], id=request_id, total=total))

    def _online_sorted(self) -> tuple[str, ...]:
        """The names of the players online, sorted once for every request, leave and news until one comes or
        goes (each player back in the lobby from a table is sent them)."""
        if self._online_names is None:
            self._online_names = by_name(p.name for p in self.online)
        return self._online_names

    # --- requests -----------------------------------------------------------------------------------------------

    async def handle(self, player: Player, request: Message) -> None:
        """Carry out one request of ``player``; replies go to the player, refusals raise ``Refused``."""
        if isinstance(request, ListTables):
            player.send_frame(self.tables_frame(request.id))
        elif isinstance(request, ListOnline):
            player.send_frame(self.online_frame(request.id))
        elif isinstance(request, ListGames):
            await self._list_games(player, request.id, request.seed)
        elif isinstance(request, GetReplay):
            await self._replay(player, request.game, request.id)
        elif isinstance(request, GetStats):
            found = await self.store.read(read_records, player.key)
            lines = found[0].lines if found else ()
            player.send_frame(frame(Stats(name=player.name, lines=lines, id=request.id)))
        else:
            # One at a time per player. Shielded: a table carries out a request even if the connection asking
            # stops meanwhile, so the lobby waits for the outcome (bounded: tables answer every request, even when
            # stopped) and records where the player is, or it would lose a seat the table gave.
            async with player.busy:
                with trio.CancelScope(shield=True):
                    await self._one_at_a_time(player, request)

    async def _one_at_a_time(self, player: Player, request: Message) -> None:
        """The requests that may change where ``player`` is (joining, creating, handing a seat on) and all that
        their table carries out: each alone, under the player's ``busy`` lock (see ``handle``)."""
        if isinstance(request, (Join, Spectate)):
            table = self.tables.get(request.table)
            if table is None:
                raise Refused(ErrorCode.NO_SUCH_TABLE,
                              f"there is no table {request.table}: list the tables to see them")
            await self._enter(player, table, request)
        elif isinstance(request, CreateTable):
            await self._create(player, request)
        elif isinstance(request, HandSeat):
            await hand_over(self.online, player, request)
        else:  # the rest concern the player's table, which carries each out (or says it takes no such request)
            at = player.table
            if at is None:
                raise Refused(ErrorCode.NOT_SEATED, "you are not at a table: join or watch one first")
            await at.call(player, request)
            if isinstance(request, Leave):
                player.table, player.seat = None, None
                if not at.closed:  # in the lobby now: the table as it is without them (a closed one said so)
                    player.send_frame(frame(TableChanged(table=at.info())))
                player.send_frame(self.online_frame(None))  # the lobby's news of who is online went on without them

    async def _enter(self, player: Player, table: Table, request: Join | Spectate) -> None:
        """Sit down at (``Join``) or watch (``Spectate``) ``table``, leaving the table the player watched."""
        going = "watch" if isinstance(request, Spectate) else "join"
        refuse(rules.seated_refusal(self._sits_at(player), player.seat, going, table.id))
        watched = player.table if player.table is not table else None
        if watched is not None:
            try:
                await watched.call(player, Leave())  # a spectator's leave: they stop watching there
            except Refused:
                if not watched.closed:
                    raise  # refused to this request's connection (a newer one replaced it): nothing moves
                # closed meanwhile: nothing to stop watching
            player.table = None
        try:
            seat = await table.call(player, request)
        except Refused:
            if watched is not None:
                with contextlib.suppress(Refused):
                    await watched.call(player, Rewatch())
                    player.table = watched
            raise
        player.table, player.seat = table, seat if isinstance(request, Join) else None

    @staticmethod
    def _sits_at(player: Player) -> TableInfo | None:
        return player.table.info() if player.table is not None and player.seat is not None else None

    async def _create(self, player: Player, request: CreateTable) -> None:
        refuse(rules.seated_refusal(self._sits_at(player), player.seat, "create"))
        if len(self.tables) >= self.config.max_tables:
            raise Refused(ErrorCode.TABLE_FULL, f"this server holds at most {self.config.max_tables} tables")
        address = player.conn.address if player.conn else ""
        empty = sum(1 for t in self.tables.values()
                    if t.address == address and t.game is None and len(t.persons()) <= 1)
        if empty >= self.config.max_empty_tables_per_address:
            raise Refused(ErrorCode.TABLE_FULL, f"{empty} tables opened from your address wait for players: join "
                                                "one of them, or wait until they fill up")
        if not self._openings.allow(address, trio.current_time()):
            raise Refused(ErrorCode.RATE_LIMITED, "tables are opened from your address faster than the server "
                                                  "takes: wait a moment, or join one")
        password = hash_password(request.password) if request.password else None
        settings = settings_of(request)
        table_id = await self.store.create_table(request.name, settings, password, None)
        table = Table(table_id, request.name, settings, password, store=self.store, config=self.config,
                      policy=self.policy, lobby=self, address=address)
        self.tables[table_id] = table
        log.info("%s opened table %d (%s): %d seats, %s", player.name, table_id, request.name, request.seats,
                 request.variant.value)
        await self._nursery.start(table.run)
        try:
            await self._enter(player, table, Join(table=table_id, seat=0, password=request.password, id=request.id))
        except Refused:
            with contextlib.suppress(Refused, StoreFailure):
                await table.call(None, CloseIfEmpty("its creator could not sit down at it"))
            raise

    def tables_frame(self, request_id: int | None) -> bytes:
        """At most the protocol's LIST_MAX tables, those people most likely want first: with a free seat, then
        with someone connected, then the latest to change; ``total`` tells when some are left out."""
        shown = heapq.nsmallest(LIST_MAX, self.tables.values(), key=lambda t: (
            t.running or None not in t.seats, not t.someone_connected,
            -t.active))
        total = len(self.tables) if len(self.tables) > len(shown) else None
        return frame(Tables(tables=tuple(t.info() for t in shown), id=request_id, total=total))

    async def _list_games(self, player: Player, request_id: int | None, seed: str | None = None) -> None:
        if seed is not None:
            self._refuse_own_seed(player, seed, "the games of this seed are listed")
        # The plain list leaves out the games of the seed the player's running game is dealt from: their seed
        # text, shown beside them, is that game's deck to anyone who shuffles it.
        hidden = self._running_seed(player)
        found = await self.store.read(read_games, LIST_MAX, player.key, seed, hidden)
        total = None
        if seed is None and len(found) == LIST_MAX:
            total = await self.store.read(count_finished, hidden)
            if total <= len(found):
                total = None
        player.send_frame(frame(Games(games=tuple(found), id=request_id, total=total)))

    @staticmethod
    def _running_seed(player: Player) -> str | None:
        """The seed text of the running game ``player`` sits at or watches, if it is dealt from one."""
        table = player.table
        return table.settings.seed if table is not None and table.running else None

    @classmethod
    def _refuse_own_seed(cls, player: Player, seed: str, what: str) -> None:
        """The deal of a seed is the same at every table: a player in (or watching, and able to chat about) a game
        dealt from ``seed`` must not see it played out elsewhere (its replay holds the whole deck) before it ends."""
        if cls._running_seed(player) == seed:
            raise Refused(ErrorCode.NO_SUCH_GAME, f"the game at your table is dealt from this seed: {what} once it "
                                                  "is over")

    async def _replay(self, player: Player, game_id: int, request_id: int | None) -> None:
        stored = await self.store.read(read_game, game_id)
        if stored is None:
            raise Refused(ErrorCode.NO_SUCH_GAME, f"there is no game {game_id}: list the games to see them")
        if stored.finished is None:
            # A replay holds the whole deck: never while the game runs.
            raise Refused(ErrorCode.NO_SUCH_GAME, f"game {game_id} is still running: its replay comes when it ends")
        self._refuse_own_seed(player, stored.seed, f"the replay of game {game_id} comes")
        player.send_frame(frame(ReplayFile(game=game_id, json=replay_text(stored), id=request_id)))


# --- seats that survive lost laptops ---------------------------------------------------------------------------------
# One back from another machine is someone else to the server (a new token, often "Bob 2"), so the host hands an
# away player's seat to a house bot or to someone in the lobby: the lobby finds the receiver and records where
# everyone is now (``hand_over``); the table, in its task, checks the rule, stores the seat and tells everyone. The
# seat's views and notes go to the new holder only; what the old one left pending (a bot's choice being thought
# about, a pre-move) goes with them.


def receiver(online: Iterable[Player], host: Player, name: str) -> Player:
    """The player in the lobby (among those ``online``) called ``name`` (in any case), or ``Refused`` saying why
    no one can take it."""
    key = name.casefold()
    found = next((p for p in online if p.name.casefold() == key), None)
    if found is None:
        raise Refused(ErrorCode.BAD_FIELD, f"no player called {name!r} is connected: they must be in the lobby "
                                           "(the name their screen shows at the top) to be handed a seat")
    if found is host:
        raise Refused(ErrorCode.ALREADY_SEATED, "you sit at this table already: hand the seat to someone else")
    if found.table is not None:
        where = "sits" if found.seat is not None else "is watching"
        raise Refused(ErrorCode.ALREADY_SEATED, f"{found.name} {where} at table {found.table.name!r}: they must "
                                                "go back to the lobby (l) before they can be handed a seat")
    return found


async def hand_over(online: Iterable[Player], host: Player, request: HandSeat) -> None:
    """Under ``host.busy``: the seat goes to the receiver; then who is where is brought up to date."""
    table = host.table
    if table is None or host.seat is None:
        raise Refused(ErrorCode.NOT_SEATED, "you are not seated at a table: only a table's host can hand a seat on")
    if request.to is None:
        previous = await table.call(host, Handover(request.seat, None))
    else:
        to = receiver(online, host, request.to)
        async with to.busy:  # nothing else may move them meanwhile (a join elsewhere, a table of their own)
            if to.table is not None:
                raise Refused(ErrorCode.ALREADY_SEATED, f"{to.name} has just gone to another table")
            previous = await table.call(host, Handover(request.seat, to))
            to.table, to.seat = table, request.seat
    if previous is not None:
        async with previous.busy:
            if previous.table is table and previous.seat == request.seat:
                previous.table, previous.seat = None, None
