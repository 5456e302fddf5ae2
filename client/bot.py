"""``hanabi-bot HOST[:PORT]``: the house bot as an ordinary protocol client.

It connects like any player, says hello, sits at a table with a free seat
(``--table ID`` to choose one) and, whenever the view the server sends shows
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

Whoever started it sees a line on stdout at each step (connected, joined,
waiting for the host, game started with the level it plays at, game over with
the score), flushed at once, so that a terminal or a log shows where it is;
with ``--explain``, also each move it makes and the one-line reason for it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

import trio
from hanabi.engine import PlayerView
from hanabi.engine.bots import Bot, Level, make_bot
from hanabi.protocol import DEFAULT_PORT
from hanabi.protocol.errors import ErrorCode, ProtocolError
from hanabi.protocol.framing import Decoder, encode
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
    TableInfo,
    Tables,
    ViewUpdate,
    Welcome,
)
from hanabi.protocol.version import CLIENT_PROGRAM, PROTOCOL_VERSION

from .arguments import delay_problem, name_problem
from .session import CONNECT_TIMEOUT, HANDSHAKE_TIMEOUT, SEND_TIMEOUT, Address, parse_address


class BotError(Exception):
    """Why the bot client had to stop, in a sentence for the person who started it."""


def conventions_at(table: TableInfo) -> tuple[Level, frozenset[int]]:
    """How a bot plays at ``table``: its level (the server's word: the one chosen, else beginner beside a person)
    and the seats that play by the house bots' conventions (theirs, and the network bots the server counts)."""
    return table.level, frozenset(i for i, p in enumerate(table.players) if p is not None and p.plays_as_bot)


def say(line: str) -> None:
    """One progress line on stdout, flushed: a log or a pipe sees it at once, not when the bot exits."""
    print(f"hanabi-bot: {line}", flush=True)


class BotClient:
    def __init__(self, stream: trio.abc.Stream, name: str, delay: float,
                 report: Callable[[str], None] = say, explain: bool = False) -> None:
        self.stream = stream
        self.name = name
        self.delay = delay
        self.report = report
        self.explain = explain
        self.decoder = Decoder(peer="server")
        self.inbox: list[Message] = []
        self.table: TableInfo | None = None  # our table as the server last showed it (from ``joined``)
        self.seat: int | None = None
        self._conventions: tuple[Level, frozenset[int]] | None = None
        self._bot: Bot = make_bot()

    @property
    def bot(self) -> Bot:
        """The engine's bot for our table as it is now: a new one when its level or its bots change."""
        if self.table is not None and (conventions := conventions_at(self.table)) != self._conventions:
            self._conventions = conventions
            self._bot = make_bot(level=conventions[0], bot_seats=conventions[1])
        return self._bot

    def level_said(self) -> str:
        """The level we play at, and whether the server counts us as a bot, for the person who started us."""
        if self.table is None or self.seat is None:
            return "unknown (no table)"
        level, bots = conventions_at(self.table)
        if self.seat in bots:
            return level
        return f"{level} (the server counts this bot as a person: it is of another version)"

    async def send(self, message: Message) -> None:
        with trio.fail_after(SEND_TIMEOUT):
            await self.stream.send_all(encode(message))

    async def receive(self) -> Message:
        while not self.inbox:
            data = await self.stream.receive_some()
            if not data:
                raise BotError("the server closed the connection")
            try:
                self.inbox.extend(self.decoder.feed(bytes(data)))
            except ProtocolError as exc:
                raise BotError(f"the server sent something unreadable: {exc}") from None
        return self.inbox.pop(0)

    async def expect(self, kind: type, timeout: float = HANDSHAKE_TIMEOUT) -> Message:
        with trio.fail_after(timeout):
            while True:
                message = await self.receive()
                if isinstance(message, kind):
                    return message
                if isinstance(message, ErrorReply):
                    raise BotError(f"the server refused: {message.message}")
                if isinstance(message, Goodbye):
                    raise BotError(f"the server said goodbye ({message.reason}) {message.message}".strip())
                if isinstance(message, Ping):
                    await self.send(Pong(message.n))

    async def join(self, table: int | None) -> int:
        await self.send(Hello(PROTOCOL_VERSION, CLIENT_PROGRAM, self.name, network_bot=True))
        welcome = await self.expect(Welcome)
        assert isinstance(welcome, Welcome)
        self.report(f"connected as {welcome.player}")
        if table is None:
            await self.send(ListTables())
            listing = await self.expect(Tables)
            assert isinstance(listing, Tables)
            free = [t.id for t in listing.tables if not t.running and not t.has_password and None in t.players]
            if not free:
                raise BotError("no table has a free seat: open one in a client (or name it with --table)")
            table = free[0]
        await self.send(Join(table))
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

    async def play(self, games: int | None) -> int:
        """Answer every view that shows our turn; return how many games ended."""
        done = 0
        acted: tuple[int, int] | None = None
        latest: ViewUpdate | None = None
        paused = False  # a paused game refuses moves: the bot waits for it to go on, as the house bots do
        while games is None or done < games:
            message = await self.receive()
            if isinstance(message, Ping):
                await self.send(Pong(message.n))
            elif isinstance(message, (ViewUpdate, GameClock)):
                if isinstance(message, ViewUpdate):
                    latest = message
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
                        self.report(f"turn {view.turn + 1}: {decision.action} - {decision.reason}")
                    await self.send(ActionRequest(decision.action))
            elif isinstance(message, TableChanged) and self.table is not None and message.table.id == self.table.id:
                self.table = message.table  # a seat taken, left or handed: who is a bot, and so the level
            elif isinstance(message, GameStarted):
                self.report(f"game started (game #{message.game}), playing at level {self.level_said()}")
            elif isinstance(message, GameOver):
                done += 1
                outcome = message.outcome
                self.report(f"game over: {outcome.score}/{outcome.max_score}, {outcome.rating}")
                if games is None or done < games:
                    self.report("waiting for the host to start the next game...")
            elif isinstance(message, ErrorReply) and message.code == ErrorCode.GAME_PAUSED:
                acted = None  # paused just before the move arrived: it is made again once the game goes on
            elif isinstance(message, ErrorReply):
                print(f"hanabi-bot: the server refused a request: {message.message}", file=sys.stderr)
            elif isinstance(message, Goodbye):
                raise BotError(f"the server said goodbye ({message.reason}) {message.message}".strip())
        await self.send(Goodbye("client_quit", "the bot played its games"))
        return done


async def run_bot(address: Address, name: str = "Bot", table: int | None = None, games: int | None = None,
                  delay: float = 0.5, report: Callable[[str], None] = say, explain: bool = False) -> int:
    """Connect, sit down and play; returns the number of games played. ``report`` gets the progress lines."""
    try:
        with trio.fail_after(CONNECT_TIMEOUT):
            stream = await trio.open_tcp_stream(address.host, address.port)
    except (OSError, trio.TooSlowError) as exc:
        raise BotError(f"cannot reach a server at {address}: {exc or 'no answer'}") from None
    async with stream:
        client = BotClient(stream, name, delay, report, explain)
        try:
            await client.join(table)
            return await client.play(games)
        except trio.TooSlowError:
            raise BotError(f"the server at {address} did not answer in time") from None
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            # A reset (the server's machine went away, a killed server): one line, not a traceback.
            raise BotError(f"lost the connection to the server at {address}: {exc}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hanabi-bot", description="Run the house bot as a player at a table.")
    parser.add_argument("address", help=f"the server: HOST or HOST:PORT (default port {DEFAULT_PORT})")
    parser.add_argument("--name", default="Bot", help="the bot's player name (default Bot)")
    parser.add_argument("--table", type=int, help="the table to join (default: the first with a free seat)")
    parser.add_argument("--games", type=int, help="stop after this many games (default: play on)")
    parser.add_argument("--delay", type=float, default=0.5, help="seconds to wait before each move (default 0.5)")
    parser.add_argument("--explain", action="store_true", help="print each move with the reason for it")
    args = parser.parse_args(argv)
    try:
        address = parse_address(args.address)
    except ValueError as exc:
        parser.error(str(exc))
    if (problem := name_problem(args.name.strip())) is not None:
        parser.error(problem)
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if (problem := delay_problem("--delay", args.delay)) is not None:
        parser.error(problem)
    try:
        played = trio.run(run_bot, address, args.name.strip(), args.table, args.games, args.delay, say, args.explain)
    except BotError as exc:
        print(f"hanabi-bot: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    print(f"hanabi-bot: played {played} game(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
