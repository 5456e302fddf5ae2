"""``hanabi-bot HOST[:PORT]`` (its command line is ``botcli.py``): the house bot as an ordinary protocol client.

It connects like any player, says hello, sits at a table with a free seat
(``--table ID`` to choose one; ``--password`` for a table that has one) and, whenever the view the server sends shows
that it is its seat's turn, asks the engine's bot (``hanabi.engine.bots``,
run in a worker thread) for an action and sends it. It sees exactly what a
human in that seat would: the redacted views the server sends. It stops
after ``--games`` games (default: plays on until the server closes).

It plays as the server's own bots do at that table: at the table's
convention level, reading the seats the table shows as bots (house bots, and
network bots like itself) by the full conventions and everyone else's clues
as that level expects of a person. It says in ``hello`` that it is a network
bot; the server counts it as a bot only when it is of the server's own
version (so reads clues exactly as the house bots do), and shows it so to
everyone, other network bots included. There is no ``--level``: every bot at
a table must read the others' clues the way they were meant, so the level is
the table's (a table option), never the bot's.

When the connection drops, or the host stops the server, it keeps trying to
reach the server again for ``--reconnect`` seconds (two minutes by default),
then says hello with the resume token of its first welcome: the server puts it
back in its seat (a restarted server too, from its store) and it plays on. A
server that no longer knows the token gets it a new table, as at the start, but waits for one to open if none
has a free seat; so does a bot whose table closes (everyone else left). The token is kept on disk as the
client keeps a person's (``tokens.py``, under ``bot:NAME@HOST:PORT``), so a bot stopped (Ctrl-C, a crash) and
started again with the same name takes its seat back too.

Whoever started it sees a line on stdout at each step (connected, joined,
waiting for the host, game started with the level it plays at, game over with
the score), flushed at once, so that a terminal or a log shows where it is;
with ``--explain``, also each move it makes and the one-line reason for it.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
from collections.abc import Awaitable, Callable, Iterable

import trio
from hanabi.engine import PlayerView
from hanabi.engine.bots import Bot, Level, explained, make_bot
from hanabi.protocol.errors import ErrorCode, GoodbyeReason, ProtocolError
from hanabi.protocol.messages import (
    ActionRequest,
    ErrorReply,
    GameClock,
    GameOver,
    GameStarted,
    Goodbye,
    Hello,
    Join,
    Joined,
    ListTables,
    Message,
    Ping,
    Pong,
    TableChanged,
    TableGone,
    TableInfo,
    Tables,
    ViewUpdate,
    Welcome,
)
from hanabi.protocol.version import CLIENT_PROGRAM, PROTOCOL_VERSION
from prompt_toolkit.formatted_text import to_plain_text

from .arguments import RECONNECT_FOR
from .session import CONNECT_TIMEOUT, FAREWELL_GRACE, HANDSHAKE_TIMEOUT, LINK_BROKEN, Address
from .tokens import TokenStore
from .wire import Wire
from .wrapping import columns, wrap_words

# Goodbyes after which the same server may take us back: it stopped (and may start again), or it thought us gone.
# The others (replaced, version, flood, full...) would say the same again.
_COME_BACK = frozenset({GoodbyeReason.SERVER_SHUTDOWN, GoodbyeReason.TOO_SLOW, GoodbyeReason.IDLE})


class BotError(Exception):
    """Why the bot client had to stop, in a sentence for the person who started it."""


class LinkLost(BotError):
    """The connection ended in a way that trying again may mend (a drop, a reset, the server stopping)."""


class Stopped(Exception):
    """Ctrl-C: the bot quit as a player quitting does (its seat, if it had one, waits for it); ``games`` is how
    many games it played."""

    def __init__(self, games: int, seated: bool = True) -> None:
        waits = "; its seat waits for it: the same command takes it back" if seated else ""
        super().__init__(f"stopped by Ctrl-C after {games} game(s){waits}")
        self.games = games


# What each goodbye means, for the person who started the bot, when the server gave no sentence of its own.
_GOODBYE_SENTENCES: dict[str, str] = {
    GoodbyeReason.SERVER_SHUTDOWN: "the server stopped",
    GoodbyeReason.REPLACED: "another connection with this bot's name took its place",
    GoodbyeReason.PROTOCOL_ERROR: "the server could not read what the bot sent",
    GoodbyeReason.PROTOCOL_VERSION: "the server speaks another version of the protocol",
    GoodbyeReason.TOO_SLOW: "the bot did not read what the server sent in time",
    GoodbyeReason.FLOOD: "the bot sent too much, too fast",
    GoodbyeReason.IDLE: "the server heard nothing from the bot for too long",
    GoodbyeReason.SERVER_FULL: "the server is full: try again later",
}


def _goodbye(message: Goodbye) -> BotError:
    text = message.message or _GOODBYE_SENTENCES.get(message.reason, "it gave no reason")
    why = f"the server closed the connection: {text}"
    return LinkLost(why) if message.reason in _COME_BACK else BotError(why)


def conventions_at(table: TableInfo) -> tuple[Level, frozenset[int]]:
    """How a bot plays at ``table``: its level (the server's word: the one chosen, else beginner beside a person)
    and the seats that play by the house bots' conventions (theirs, and the network bots the server counts)."""
    return table.level, frozenset(i for i, p in enumerate(table.players) if p is not None and p.plays_as_bot)


def say(line: str) -> None:
    """One progress line on stdout, flushed: a log or a pipe sees it at once, not when the bot exits. In a
    terminal it is wrapped at words to the terminal's width (the terminal would cut words in two)."""
    width = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
    print(wrapped(f"hanabi-bot: {line}", width), flush=True)


def wrapped(line: str, width: int | None) -> str:
    """``line`` in lines of at most ``width`` terminal columns (an emoji or a CJK letter in a name takes two),
    broken at spaces, the later ones indented, as the client's screen wraps; whole when ``width`` is None (a pipe
    or a log keeps one line a move, for grep)."""
    if width is None or columns(line) <= width:
        return line
    return to_plain_text(wrap_words([("", line)], max(width, 20), 4))


async def _farewell(client: BotClient) -> None:
    """``goodbye`` ``client_quit``, so the table reads that the bot left rather than lost its connection; given a
    moment, and dropped if the line is already broken."""
    with trio.CancelScope(shield=True), trio.move_on_after(FAREWELL_GRACE), \
            contextlib.suppress(*LINK_BROKEN, ProtocolError):
        await client.send(Goodbye("client_quit", "the bot was stopped"))


# How long a move refused for the pace (``rate_limited``) waits before it is sent again: a few of the server's
# default 20 messages a second.
RATE_RETRY = 0.25


class BotClient:
    def __init__(self, stream: trio.abc.Stream, name: str, delay: float,
                 report: Callable[[str], None] = say, explain: bool = False, password: str | None = None,
                 tokens: TokenStore | None = None) -> None:
        self.wire = Wire(stream)
        self.name = name
        self.password = password  # the table's, when it has one (``--password``)
        self.delay = delay
        self.report = report
        self.explain = explain
        self.table: TableInfo | None = None  # our table as the server last showed it (from ``joined``)
        self.seat: int | None = None
        self.resume: str | None = None  # the token of our first welcome: a new connection takes our seat back with it
        self.tokens = tokens  # where the token is kept for the next run of the same name (None: nowhere)
        self.earlier_run = False  # ``resume`` is an earlier run's token (from ``tokens``), not this run's
        self.games_done = 0  # across reconnections
        self._conventions: tuple[Level, frozenset[int]] | None = None
        self._bot: Bot = make_bot()

    @property
    def bot(self) -> Bot:
        """The engine's bot for our table as it is now: a new one when its level or its bots change."""
        if self.table is not None and (conventions := conventions_at(self.table)) != self._conventions:
            self._conventions = conventions
            self._bot = make_bot(level=conventions[0], bot_seats=conventions[1])
        return self._bot

    def seat_names(self) -> tuple[str, ...]:
        """The players' names by seat, as the table shows them ("" for an empty seat): how ``--explain`` calls them."""
        if self.table is None:
            return ()
        return tuple(player.name if player is not None else "" for player in self.table.players)

    def level_said(self) -> str:
        """The level we play at, and whether the server counts us as a bot, for the person who started us."""
        if self.table is None or self.seat is None:
            return "unknown (no table)"
        level, bots = conventions_at(self.table)
        if self.seat in bots:
            return level
        return f"{level} (the server counts this bot as a person: it is of another version)"

    async def send(self, message: Message) -> None:
        await self.wire.send(message)

    async def receive(self) -> Message:
        try:
            message = await self.wire.receive()
        except ProtocolError as exc:
            raise BotError(f"the server sent something unreadable: {exc}") from None
        if message is None:
            raise LinkLost("the server closed the connection")
        return message

    async def expect(self, kind: type, timeout: float = HANDSHAKE_TIMEOUT) -> Message:
        with trio.fail_after(timeout):
            while True:
                message = await self.receive()
                if isinstance(message, kind):
                    return message
                if isinstance(message, ErrorReply):
                    raise BotError(f"the server refused: {message.message}")
                if isinstance(message, Goodbye):
                    raise _goodbye(message)
                if isinstance(message, Ping):
                    await self.send(Pong(message.n))

    def reconnected(self, stream: trio.abc.Stream) -> None:
        """Go on over a new connection (what the old one had half-read is dropped with it)."""
        self.wire = Wire(stream)

    async def join(self, table: int | None) -> int:
        await self.send(Hello(PROTOCOL_VERSION, CLIENT_PROGRAM, self.name, self.resume, network_bot=True))
        welcome = await self.expect(Welcome)
        assert isinstance(welcome, Welcome)
        resumed, earlier_run = self.resume is not None, self.earlier_run
        self.resume, self.earlier_run = welcome.resume, False
        if self.tokens is not None:
            self.tokens.save(welcome.resume)
        self.report(f"connected as {welcome.player}")
        await self.send(ListTables())
        listing = await self.tables_or_seat()
        if isinstance(listing, tuple):
            # A resume: the server sent our seat back before answering (a notice came instead if it forgot us).
            self.seat, self.table = listing
            self.report(f"back in seat {self.seat + 1} at {self.table.name} (#{self.table.id})")
            return self.seat
        if resumed:
            self.report("the server did not keep our seat: looking for a table again")
        # Sent off to find a seat, the bot says so when there is none; back after playing, it waits for one.
        return await self.sit(table, listing, wait=resumed and not earlier_run)

    async def sit(self, table: int | None, listing: Tables, wait: bool) -> int:
        """Take a seat at ``table`` (None: the first free one in ``listing``, or with ``wait`` the first to open)."""
        if table is None:
            table = await self._wait_for_table(listing) if wait else self._free_table(listing)
        await self.send(Join(table, password=self.password))
        joined = await self.expect(Joined)
        assert isinstance(joined, Joined)
        if joined.seat is None:
            raise BotError(f"table {table} gave us no seat")
        self.seat = joined.seat
        info = self.table = joined.table
        self.report(f"joined {info.name} (#{info.id}), seat {joined.seat + 1} of {info.seats}")
        if not info.running:
            self.report("waiting for the host to start the game...")
        return joined.seat

    def _free_table(self, listing: Tables) -> int:
        """The first table waiting with an empty seat that we may sit at: one with a password only when we have
        one to give (it is locked to everyone else)."""
        free = self._free(listing.tables)
        if free is not None:
            return free
        locked = [f"{t.name} (#{t.id})" for t in _waiting(listing.tables) if t.has_password]
        if locked:
            raise BotError(f"no table has a free seat the bot may take: {', '.join(locked)} "
                           f"{'has' if len(locked) == 1 else 'have'} one but ask for a password; give it with "
                           "--password (and the table with --table)")
        raise BotError("no table has a free seat: open one in a client (or name it with --table)")

    def _free(self, tables: Iterable[TableInfo]) -> int | None:
        """The first of ``tables`` waiting with an empty seat we may take (a password only if we have one)."""
        return next((t.id for t in _waiting(tables) if self.password is not None or not t.has_password), None)

    async def _wait_for_table(self, listing: Tables) -> int:
        """The first table with a free seat for us, waiting for the lobby's news of one if none has one yet."""
        tables = {t.id: t for t in listing.tables}
        said = False
        while (free := self._free(tables.values())) is None:
            if not said:
                self.report("no table has a free seat: waiting for one to open (Ctrl-C stops the bot)")
                said = True
            message = await self.receive()
            if isinstance(message, TableChanged):
                tables[message.table.id] = message.table
            elif isinstance(message, TableGone):
                tables.pop(message.table, None)
            elif isinstance(message, Ping):
                await self.send(Pong(message.n))
            elif isinstance(message, Goodbye):
                raise _goodbye(message)
        return free

    async def tables_or_seat(self) -> Tables | tuple[int, TableInfo]:
        """After the welcome: the list of tables, or our seat and table if the server put us back in it first."""
        with trio.fail_after(HANDSHAKE_TIMEOUT):
            while True:
                message = await self.receive()
                if isinstance(message, Joined) and message.seat is not None:
                    return message.seat, message.table
                if isinstance(message, Tables):
                    return message
                if isinstance(message, Goodbye):
                    raise _goodbye(message)
                if isinstance(message, Ping):
                    await self.send(Pong(message.n))

    async def play(self, games: int | None) -> int:
        """Answer every view that shows our turn; return how many games ended (over every connection)."""
        acted: tuple[int, int] | None = None
        sent: ActionRequest | None = None  # our last move, made again if the server refuses it for our pace
        latest: ViewUpdate | None = None
        paused = False  # a paused game refuses moves: the bot waits for it to go on, as the house bots do
        while games is None or self.games_done < games:
            message = await self.receive()
            if isinstance(message, Ping):
                await self.send(Pong(message.n))
            elif isinstance(message, (ViewUpdate, GameClock)):
                if isinstance(message, ViewUpdate):
                    latest, sent = message, None  # a new view: our last move went through (or was not ours)
                else:
                    paused = message.paused
                view: PlayerView | None = latest.view if latest is not None else None
                key = (latest.game, view.turn) if latest is not None and view is not None else None
                if view is not None and view.seat == view.current and not view.over and key != acted and not paused:
                    acted = key
                    if self.delay > 0:
                        await trio.sleep(self.delay)
                    decision = await trio.to_thread.run_sync(self.bot.decide, view)
                    if self.explain:
                        self.report(f"turn {view.turn + 1}: {explained(decision, view, self.seat_names())}")
                    sent = ActionRequest(decision.action)
                    await self.send(sent)
            elif isinstance(message, TableChanged) and self.table is not None and message.table.id == self.table.id:
                self.table = message.table  # a seat taken, left or handed: who is a bot, and so the level
            elif isinstance(message, TableGone) and self.table is not None and message.table == self.table.id:
                # Everyone else left: the bot plays on at the next table that has a seat for it.
                self.report(f"{message.reason or 'our table closed'}: looking for another table")
                self.table, latest = None, None
                await self.send(ListTables())
                listing = await self.expect(Tables)
                assert isinstance(listing, Tables)
                await self.sit(None, listing, wait=True)
            elif isinstance(message, GameStarted):
                self.report(f"game started (game #{message.game}), playing at level {self.level_said()}")
            elif isinstance(message, GameOver):
                self.games_done += 1
                outcome = message.outcome
                self.report(f"game over: {outcome.score}/{outcome.max_score}, {outcome.rating}")
                if games is None or self.games_done < games:
                    self.report("waiting for the host to start the next game...")
            elif isinstance(message, ErrorReply) and message.code == ErrorCode.GAME_PAUSED:
                acted = None  # paused just before the move arrived: it is made again once the game goes on
            elif isinstance(message, ErrorReply) and message.code == ErrorCode.RATE_LIMITED and sent is not None:
                # Refused for our pace, not for the move: nothing else would make it again, and the game would
                # wait for it. The same move, once the server's budget has had time to refill.
                await trio.sleep(RATE_RETRY)
                await self.send(sent)
            elif isinstance(message, ErrorReply):
                print(f"hanabi-bot: the server refused a request: {message.message}", file=sys.stderr)
            elif isinstance(message, Goodbye):
                raise _goodbye(message)
        await self.send(Goodbye("client_quit", "the bot played its games"))
        return self.games_done


def _waiting(tables: Iterable[TableInfo]) -> list[TableInfo]:
    """The tables with no game running and an empty seat."""
    return [t for t in tables if not t.running and None in t.players]


async def run_bot(address: Address, name: str = "Bot", table: int | None = None, games: int | None = None,
                  delay: float = 0.5, report: Callable[[str], None] = say, explain: bool = False,
                  reconnect_for: float = RECONNECT_FOR, password: str | None = None,
                  open_stream: Callable[[Address], Awaitable[trio.abc.Stream]] | None = None,
                  tokens: TokenStore | None = None) -> int:
    """Connect, sit down and play; returns the number of games played. ``report`` gets the progress lines.
    A link lost after the welcome is tried again for ``reconnect_for`` seconds (0: stop at once). ``password``
    opens a table that has one. ``open_stream`` connects instead of TCP (as the session's does: a test's
    in-memory line). ``tokens``: where an earlier run left its seat's token, and where this run keeps its own."""
    client: BotClient | None = None
    give_up_at = pause = 0.0
    while True:
        try:
            with trio.fail_after(CONNECT_TIMEOUT):
                stream = await (open_stream(address) if open_stream is not None
                                else trio.open_tcp_stream(address.host, address.port))
        except (OSError, trio.TooSlowError) as exc:
            if client is None or trio.current_time() >= give_up_at:
                tried = "" if client is None else f" (tried for {reconnect_for:g} s)"
                raise BotError(f"cannot reach a server at {address}: {exc or 'no answer'}{tried}") from None
            await trio.sleep(pause)
            pause = min(pause * 2, 5.0)
            continue
        async with stream:
            if client is None:
                client = BotClient(stream, name, delay, report, explain, password, tokens)
                if tokens is not None:
                    client.resume = await tokens.wait_for()  # an earlier run of this name may have left its seat
                    client.earlier_run = client.resume is not None
            else:
                client.reconnected(stream)
            seated = False
            try:
                try:
                    await client.join(table)
                    seated = True
                    return await client.play(games)
                except KeyboardInterrupt:
                    # Ctrl-C (trio raises it in this, the main task): leave the seat as a client quitting does.
                    await _farewell(client)
                    raise Stopped(client.games_done, seated) from None
                except trio.TooSlowError:
                    raise LinkLost(f"the server at {address} did not answer in time") from None
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                    # A reset (the server's machine went away, a killed server): one line, not a traceback.
                    raise LinkLost(f"lost the connection to the server at {address}: {exc}") from None
            except LinkLost as lost:
                if seated:  # a link that worked: a new window to come back in (one that never seats us does not)
                    give_up_at, pause = trio.current_time() + reconnect_for, 0.5
                if client.resume is None or reconnect_for <= 0 or trio.current_time() >= give_up_at:
                    raise BotError(str(lost)) from None
                if seated:
                    report(f"{lost}; trying to reconnect for up to {reconnect_for:g} s")
                await trio.sleep(pause)
                pause = min(pause * 2, 5.0)
