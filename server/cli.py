"""``hanabi-server``: run a LAN server (announced on the LAN unless told not to; Ctrl-C or SIGTERM stop it
cleanly, telling every player why), or list and export the games it kept (``games``, ``export``), or show
each player's record over them (``stats``).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import functools
import json
import logging
import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs
from hanabi.engine.commandline import CommandParser, seconds_problem
from hanabi.protocol.transport import DEFAULT_PORT

from .config import ServerConfig

# What serves (Trio, the store, the protocol's msgpack, zeroconf) is imported where it is used, so that --help,
# --version and a mistyped argument answer at once.
if TYPE_CHECKING:
    from hanabi.engine.replay import SeatHolder
    from hanabi.protocol.messages import GameSummary

    from .app import Server
    from .saved import PlayerRecord, StoredGame

_DEFAULTS = ServerConfig()


def default_db() -> Path:
    """The game store in the user's data folder (XDG on Linux, Application Support on macOS, AppData on Windows)."""
    return platformdirs.user_data_path("hanabi", appauthor=False) / "server.sqlite3"


def _parser() -> argparse.ArgumentParser:
    parser = CommandParser(
        prog="hanabi-server",
        description="Run a Hanabi server for your LAN; players connect with the hanabi terminal client. "
                    "Without a COMMAND it runs the server; 'games', 'export' and 'stats' read the games it "
                    "kept.",
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"TCP port to listen on (default {DEFAULT_PORT}; 0 picks a free one)")
    parser.add_argument("--host", default=None,
                        help="address to listen on (default: every interface; 127.0.0.1 for this machine only)")
    parser.add_argument("--db", default=None, metavar="PATH",
                        help=f"the game store, an SQLite file (default {default_db()}); "
                             "':memory:' keeps nothing after the server stops")
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"],
                        help="how much to log to the terminal (default info)")
    parser.add_argument("--bot-delay", type=float, default=_DEFAULTS.bot_delay, metavar="SECONDS",
                        help=f"how long bots wait before acting (default {_DEFAULTS.bot_delay})")
    parser.add_argument("--motd", default=_DEFAULTS.motd, help="the message of the day shown to players")
    parser.add_argument("--abandon-after", type=float, default=(_DEFAULTS.abandon_after or 0) / 60,
                        metavar="MINUTES",
                        help="close a table once none of its seated players has been connected for this long, "
                             "stopping its game (kept as terminated); 0 never closes one "
                             f"(default {(_DEFAULTS.abandon_after or 0) / 60:g})")
    parser.add_argument("--max-connections", type=int, default=None, metavar="N",
                        help="players connected at once; more new ones are told the server is full, a player "
                             f"coming back always gets in (default {_DEFAULTS.max_connections}, or fewer if the "
                             "open-files limit is lower)")
    parser.add_argument("--name", default=None,
                        help="the name players see in their list of servers on this network "
                             "(default \"LOGIN's Hanabi server\", with your login name)")
    parser.add_argument("--no-announce", action="store_true",
                        help="do not announce this server on the LAN; players connect by address")
    parser.add_version(_speaks)
    sub = parser.add_subparsers(dest="command", metavar="[COMMAND]", title="commands (optional)")
    reading = CommandParser(add_help=False)  # what every command that reads the store takes
    reading.add_argument("--db", default=argparse.SUPPRESS, metavar="PATH",
                         help=f"the game store (default {default_db()})")
    games = sub.add_parser("games", parents=[reading], help="list the finished games in the store, newest first")
    games.add_argument("--json", action="store_true", help="one JSON object per game, one per line")
    stats = sub.add_parser("stats", parents=[reading], help="each player's record over the finished games: games, "
                           "mean and best score by player count and variant, perfect games, strike-outs")
    stats.add_argument("--json", action="store_true", help="one JSON object per player, one per line")
    export = sub.add_parser("export", parents=[reading], help="write a game as a hanab.live JSON replay file")
    export.add_argument("game", type=int, metavar="GAME_ID", help="the game's number (see 'hanabi-server games')")
    export.add_argument("-o", "--output", default=None, metavar="FILE",
                        help="write to FILE instead of the screen (never over an existing file, unless --force)")
    export.add_argument("--force", action="store_true", help="with -o: replace FILE if it exists")
    export.add_argument("--unfinished", action="store_true",
                        help="also export a game still in progress (its file shows every hand: not for players)")
    return parser


def _speaks() -> str:
    from hanabi.protocol.version import PROTOCOL_VERSION

    return f"protocol {PROTOCOL_VERSION}"


def _say(message: str) -> None:
    print(f"hanabi-server: {message}", flush=True)


def _fail(message: str) -> int:
    print(f"hanabi-server: {message}", file=sys.stderr, flush=True)
    return 2


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader of our output went away (``hanabi-server games | head``): stop quietly, as Unix tools do.
        # Python would complain once more when it flushes stdout at exit, so stdout now points nowhere.
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 141  # what a shell reports for a command ended by SIGPIPE


def _main(argv: list[str] | None) -> int:
    args = _parser().parse_args(argv)
    db = args.db if args.db is not None else str(default_db())
    if args.command in ("games", "export", "stats"):
        return _read_store(args, db)
    if not 0 <= args.port <= 65535:
        return _fail(f"--port {args.port} is not a TCP port: choose one from 1 to 65535 (or 0: any free one)")
    if (problem := seconds_problem("--bot-delay", args.bot_delay)) is not None:  # nan too
        return _fail(problem)
    if not args.abandon_after >= 0:
        return _fail("--abandon-after cannot be negative (0 never closes a table)")
    if args.max_connections is not None and args.max_connections < 1:
        return _fail(f"--max-connections {args.max_connections}: give at least 1")
    if args.db is not None and db != ":memory:":
        # The default folder is made when needed; a folder named by hand that does not exist is more likely
        # a typing mistake than a wish for new folders.
        folder = Path(db).expanduser().parent
        if not folder.is_dir():
            return _fail(f"--db {db}: the folder {folder} does not exist; create it first "
                         "(or leave out --db to use the default store)")
    lan_name, lan_problem = _lan_name(args)  # checked before anything starts
    if lan_problem is not None:
        return _fail(lan_problem)
    motd_problem = _motd_problem(args.motd)
    if motd_problem:
        return _fail(f"--motd: {motd_problem}")
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)-7s %(name)s: %(message)s")
    files = _more_files()
    # Past the open-files limit the server could not even open its store: keep room for it and the log.
    fitting = max(1, files - _FILES_KEPT) if files is not None else _DEFAULTS.max_connections
    max_connections = args.max_connections or min(_DEFAULTS.max_connections, fitting)
    if max_connections > fitting:
        logging.getLogger(__name__).warning("--max-connections %d is over what the open-files limit (%d) allows; "
                                            "%d are served at most", max_connections, files, fitting)
        max_connections = fitting
    import trio

    from .store import StoreError

    config = ServerConfig(bot_delay=args.bot_delay, motd=args.motd,
                          abandon_after=args.abandon_after * 60 if args.abandon_after > 0 else None,
                          max_connections=max_connections,
                          max_unwelcomed=min(_DEFAULTS.max_unwelcomed, max_connections))
    try:
        try:
            trio.run(_run, args.host, args.port, db, config, lan_name)
        except BaseExceptionGroup as group:
            raise _leaf(group) from None
    except StoreError as e:
        return _fail(str(e))
    except BrokenPipeError:
        raise  # our own output's reader left: main stops quietly
    except socket.gaierror:
        return _fail(f"cannot listen on {args.host}: that name cannot be resolved to an address; give an address "
                     "of this machine (such as 127.0.0.1), or leave out --host to listen on every interface")
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            return _fail(f"port {args.port} is already in use (is another server running?): choose one with --port")
        if e.errno == errno.EADDRNOTAVAIL:
            return _fail(f"cannot listen on {args.host}: it is not an address of this machine")
        if e.errno == errno.EACCES:
            return _fail(f"not allowed to listen on port {args.port}: ports below 1024 need privileges")
        return _fail(f"cannot listen on port {args.port}: {e.strerror or e}")
    return 0


# Open files kept for the store, its lock and checkpoints, the log, the listener and (64) connections before hello.
_FILES_KEPT = 128


def _more_files() -> int | None:
    """Each client is an open socket: raise the soft limit on open files to the hard one (often 1024 -> more).
    Returns the limit now in force (None: no limit known)."""
    try:
        import resource
    except ImportError:  # Windows has no such limit to raise
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else soft


def _leaf(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The first real error inside nested exception groups (Trio wraps what its nurseries raise)."""
    error: BaseException = group
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    return error


async def _run(host: str | None, port: int, db: str, config: ServerConfig, lan_name: str | None = None) -> None:
    import trio

    from .announce import announce as announce_on_lan
    from .app import serve

    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:
            server: Server = await nursery.start(functools.partial(serve, host, port, db, config=config))
            _say_where(server, db)
            if lan_name is not None:  # runs beside the server until it stops
                nursery.start_soon(functools.partial(announce_on_lan, lan_name, host, server.port, server.counts))
            async for signum in signals:
                name = "Ctrl-C" if signum == signal.SIGINT else "SIGTERM"
                _say(f"{name}: telling players and stopping...")
                await server.stop("the server is shutting down (stopped by its operator)")
                break
            nursery.cancel_scope.cancel()  # the server has stopped; this ends the LAN announcement too
    if db == ":memory:":
        _say("stopped; its games were kept in memory only (--db :memory:) and are gone")
    else:
        _say("stopped; every game is saved")


def _lan_name(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """The name to announce (None: --no-announce), or why it cannot be."""
    from hanabi.protocol.lan import name_problem

    from .announce import default_name as default_lan_name

    if args.no_announce:
        clash = "--name is the name announced on the LAN: it does not go with --no-announce"
        return None, clash if args.name is not None else None
    name = args.name if args.name is not None else default_lan_name()
    problem = name_problem(name)
    return name, None if problem is None else f"--name: {problem}"


def _motd_problem(motd: str) -> str | None:
    """Why ``motd`` cannot go in a ``welcome`` (too long, a control character...), or None."""
    from hanabi.protocol import PROTOCOL_VERSION, SERVER_PROGRAM, ProtocolError, Welcome, encode

    try:
        encode(Welcome(protocol=PROTOCOL_VERSION, program=SERVER_PROGRAM, player="x", resume="x", motd=motd))
    except ProtocolError as e:
        return e.message.rsplit(": ", 1)[-1]
    return None


def _say_where(server: Server, db: str) -> None:
    from .announce import lan_address

    where = "every interface" if server.host == "*" else server.host
    _say(f"listening on port {server.port} ({where})")
    lan = lan_address() if server.host in ("*", "0.0.0.0", "::") else server.host
    if lan:
        _say(f"players connect to {host_port(lan, server.port)}")
    if db == ":memory:":
        _say("games are kept in memory only (--db :memory:): nothing is saved")
    else:
        _say(f"games are kept in {Path(db).expanduser().resolve()}")
    if server.restored:
        _say(f"{server.restored} unfinished game(s) restored; players resume where they were")
    _say("press Ctrl-C to stop")


def host_port(host: str, port: int) -> str:
    """``host:port`` as a client takes it: an IPv6 address goes in brackets (``[::1]:7777``)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _read_store(args: argparse.Namespace, db: str) -> int:
    """The commands that read the store: a store that cannot be opened is one sentence, not a traceback."""
    if db != ":memory:" and not Path(db).expanduser().exists():
        return _fail(f"there is no game store at {db}: start a server with --db {db} first")
    from .saved import read_game, read_games, read_holders, read_records
    from .store import Store, StoreError

    store = Store(str(Path(db).expanduser()) if db != ":memory:" else db)
    try:
        store.open_sync()
        if args.command == "games":
            games = store.read_sync(read_games, 1000)
            return _games(db, games, store.read_sync(read_holders, [g.id for g in games]), args.json)
        if args.command == "stats":
            return _stats(db, store.read_sync(read_records), args.json)
        return _export(db, args.game, store.read_sync(read_game, args.game), args.output, args.unfinished,
                       args.force)
    except StoreError as e:
        return _fail(str(e))
    finally:
        store.close_sync()


ADVICE_MARK = "  (with advice)"  # a game in which someone asked the coach: its score is not one played alone


def took_over(holders: list[SeatHolder]) -> str:
    """Who took over which seat, in words: "seat 2: Bot Basil from turn 5, Bob 2 from turn 9" (turns and seats
    counted from 1, as on every screen); a seat's holder at the deal is already in the list of players."""
    seats: dict[int, list[str]] = {}
    for h in holders:
        if h.seat in seats:  # a seat's first entry is its holder at the deal
            seats[h.seat].append(f"{h.name} from turn {h.turn + 1}")
        else:
            seats[h.seat] = []
    return "; ".join(f"seat {seat + 1}: {', '.join(names)}" for seat, names in sorted(seats.items()))


def _games(db: str, games: list[GameSummary], holders: dict[int, list[SeatHolder]], as_json: bool) -> int:
    if not games:
        print(f"no finished games in {db}")
    for g in games:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.finished_at))
        handed = holders.get(g.id, [])
        if as_json:
            print(json.dumps({"id": g.id, "table": g.table, "players": list(g.players), "variant": g.variant.value,
                              "score": g.score, "end": g.end.value, "finished_at": g.finished_at, "seed": g.seed,
                              "advice": g.advice, "holders": [h._asdict() for h in handed]}))
        else:
            # The variant as every screen of the client names it ("no variant"); --json keeps hanab.live's name.
            print(f"#{g.id:<5} {when}  {g.variant.title:<18} score {g.score:>2}  {g.end.value:<22} "
                  f"{', '.join(g.players)}{ADVICE_MARK if g.advice else ''}")
            if handed:  # the players list names each seat's holder at the deal: then who took over
                print(f"       took over: {took_over(handed)}")
            if g.seed is not None:
                # A seeded deal: who else played it (the same seed, variant and number of players), and how.
                same = [o for o in games if o.seed == g.seed and o.id != g.id and o.variant == g.variant
                        and len(o.players) == len(g.players)]
                others = "; ".join(f"#{o.id} {', '.join(o.players)}: {o.score}" for o in same) or "no one else yet"
                print(f"       seed {g.seed!r}, also played by: {others}")
    return 0


def _stats(db: str, records: list[PlayerRecord], as_json: bool) -> int:
    if not records and not as_json:
        print(f"no finished games with people in {db}")
    for record in records:
        if as_json:
            print(json.dumps({"name": record.name, "games": record.games, "lines": [
                {"players": line.players, "variant": line.variant.value, "games": line.games,
                 "mean": round(line.mean, 2), "best": line.best, "perfect": line.perfect,
                 "strikeouts": line.strikeouts, "with_bots": line.with_bots, "with_advice": line.with_advice}
                for line in record.lines]}))
            continue
        print(f"{record.name}: {record.games} game{'s' if record.games != 1 else ''}")
        for line in record.lines:
            games = f"{line.games:>4} game{'s' if line.games != 1 else ' '}"
            print(f"  {line.players} players  {line.variant.title:<18} {games}  mean {line.mean:5.2f}"
                  f"  best {line.best:>2}  perfect {line.perfect}  strike-outs {line.strikeouts}"
                  f"  with bots {line.with_bots}  with advice {line.with_advice}")
    return 0


def _export(db: str, game_id: int, stored: StoredGame | None, output: str | None, unfinished: bool,
            force: bool) -> int:
    if stored is None:
        return _fail(f"there is no game {game_id} in {db}: 'hanabi-server games' lists them")
    if stored.finished is None and not unfinished:
        return _fail(f"game {game_id} is still in progress; its replay would show every hand "
                     "(add --unfinished if you really want it)")
    from .game import replay_text

    text = replay_text(stored)
    if output is None:
        print(text)
        return 0
    try:
        with Path(output).open("w" if force else "x", encoding="utf-8") as file:
            file.write(text + "\n")
    except FileExistsError:
        return _fail(f"{output} already exists: choose another name, or add --force to replace it")
    except OSError as e:
        return _fail(f"cannot write {output}: {e.strerror}")
    print(f"game {game_id} written to {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
