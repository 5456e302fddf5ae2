"""``hanabi-client``: connect to a server, play alone against bots (``--solo``), or watch a replay (``--replay``).

Without an address it shows the servers found on this network (``finder``,
``discovery``); ``--list`` prints them; ``--serve`` hosts a LAN server inside
this client (``solo.run_hosted``) and opens its lobby.

Bad arguments get one sentence saying what to type; the terminal is always
given back in its normal state (prompt_toolkit restores it when the app
exits, whatever made it exit).
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

# Only what the command line itself needs is imported here, so that --help and --version answer at once; the
# screen (prompt_toolkit), the network (Trio, msgpack) and the solo server are imported where they are used.
from hanabi.engine.commandline import CommandParser, seconds_problem
from hanabi.engine.options import MAX_PLAYERS, MIN_PLAYERS, TIME_BASE, TIME_PER_TURN
from hanabi.engine.variants import Variant
from hanabi.protocol.transport import DEFAULT_PORT

from .arguments import LIST_WAIT, SOLO_BOT_DELAY, name_problem, parse_clock

if TYPE_CHECKING:
    from .model import ClientModel
    from .session import Address
    from .solo import Solo

# The names typed most, each one ``Variant.parse`` accepts (a test checks), with its shorter alias if any;
# the titles players see and hanab.live's names are accepted too and listed after them.
VARIANT_NAMES = (("none", ""), ("six_suits", ""), ("short_multicolor", "short"), ("wild_multicolor", "wild"))
VARIANT_CHOICES = (
    ", ".join(name + (f" (or {alias})" if alias else "") for name, alias in VARIANT_NAMES)
    + "; also the titles (" + ", ".join(repr(v.title) for v in Variant)
    + ") and hanab.live's names (" + ", ".join(repr(v.value) for v in Variant) + ")"
)


def parse_variant(text: str) -> Variant:
    """The ``--variant`` asked for; ValueError with every accepted name when it is none of them."""
    try:
        return Variant.parse(text)
    except ValueError:
        raise ValueError(f"unknown variant {text!r}: choose {VARIANT_CHOICES}") from None


def default_name() -> str:
    from hanabi.engine.names import NAME_MAX

    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        name = ""
    return (name or "player")[:NAME_MAX]


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(
        prog="hanabi-client",
        description="Play Hanabi in the terminal: join a LAN server, play alone against bots, or replay a game.",
        epilog="Once in, ? shows every key and command; Ctrl-C quits at any time (your seat waits for you).",
    )
    parser.add_argument("server", nargs="?", metavar="HOST[:PORT]",
                        help=f"the server to join (port {DEFAULT_PORT} by default); without one, the servers found "
                             "on this network are listed to choose from")
    parser.add_argument("--name", default=None,
                        help="your name at the table (default: your login name); with --serve the server is "
                             "announced as \"NAME's Hanabi server\"")
    parser.add_argument("--list", action="store_true",
                        help=f"print the servers found on this network within {LIST_WAIT:g} seconds, then exit")
    parser.add_argument("--json", action="store_true", help="--list: one JSON object a line")
    parser.add_argument("--serve", action="store_true",
                        help=f"host a LAN server inside this client (port {DEFAULT_PORT} or the next free one, "
                             "announced on the network) and open its lobby; quitting stops it for everyone")
    parser.add_argument("--solo", action="store_true",
                        help="play at once against bots, on a private server inside this client")
    parser.add_argument("--players", type=int, default=None,
                        help=f"--solo: players at the table, you included ({MIN_PLAYERS}-{MAX_PLAYERS}, six beyond "
                             "the printed rules; 3 by default)")
    parser.add_argument("--variant", default=None, help=f"--solo: the deck; {VARIANT_CHOICES}")
    parser.add_argument("--bot-delay", type=float, default=None, metavar="S",
                        help=f"--solo: seconds each bot waits before its move ({SOLO_BOT_DELAY:g} by default; "
                             "0 answers at once)")
    parser.add_argument("--clock", metavar="BASE+BONUS", default=None,
                        help="--solo: a timed game, a chess clock each: BASE seconds to start with, BONUS more "
                             f"after each move (hanab.live's default is {TIME_BASE}+{TIME_PER_TURN}); run out and "
                             "the table loses")
    # Not argparse's choices: the levels are the bots' own (engine/bots), checked once parsed so that --help
    # need not load the bots.
    parser.add_argument("--level", default=None, metavar="LEVEL",
                        help="--solo: the conventions the bots expect of you: beginner (clues read literally; the "
                             "default), basic (play and save clues, chop, good touch) or h-group (finesses too)")
    parser.add_argument("--replay", metavar="FILE.json", help="step through a saved game, offline")
    parser.add_argument("--no-bell", action="store_true",
                        help="do not ring the terminal's bell when your turn comes (--solo never rings it)")
    parser.add_version(_speaks)
    return parser


def _speaks() -> str:
    from hanabi.protocol.version import PROTOCOL_VERSION

    return f"protocol {PROTOCOL_VERSION}"


def wants_bell(args: argparse.Namespace) -> bool:
    """Ring when our turn comes, unless told not to or playing --solo."""
    # Against bots the turn comes back every second or two: a bell each time would only nag.
    return not args.no_bell and not args.solo


def terminal_problem() -> str | None:
    """Why this process cannot draw a full-screen game, or None when its input and output are a terminal."""
    # Without a terminal prompt_toolkit reads end-of-file at once and dies with an EOFError traceback.
    for stream, what in ((sys.stdin, "input"), (sys.stdout, "output")):
        if stream is None or not stream.isatty():
            return (f"hanabi-client needs a terminal: its {what} is not one (redirected to a file or a pipe?); "
                    "run it in a terminal window")
    return None


def _refuse(text: str) -> int:
    """One line on stderr, exit status 2 (as argparse does for bad arguments)."""
    print(text if text.startswith("hanabi-client") else f"hanabi-client: {text}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    name = (args.name if args.name is not None else default_name()).strip()
    if (problem := name_problem(name)) is not None:
        parser.error(problem)
    modes = [flag for flag, given in (("--replay", args.replay is not None), ("--solo", args.solo),
                                      ("HOST[:PORT]", bool(args.server)), ("--list", args.list),
                                      ("--serve", args.serve)) if given]
    if len(modes) > 1:
        parser.error(f"{' and '.join(modes)} do not go together: join a server, play --solo, "
                     "watch a --replay, --list the servers or --serve one, one at a time")
    if args.json and not args.list:
        parser.error("--json is for --list")
    if not args.solo:
        for flag, value in (("--players", args.players), ("--variant", args.variant), ("--bot-delay", args.bot_delay),
                            ("--clock", args.clock), ("--level", args.level)):
            if value is not None:
                parser.error(f"{flag} is for --solo games (at a server, the table's host chooses)")
    if args.replay is not None:
        return _replay(args.replay)
    if args.solo:
        players = 3 if args.players is None else args.players
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            parser.error(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {players}")
        try:
            variant = parse_variant("none" if args.variant is None else args.variant)
        except ValueError as e:
            parser.error(str(e))
        bot_delay = SOLO_BOT_DELAY if args.bot_delay is None else args.bot_delay
        if (problem := seconds_problem("--bot-delay", bot_delay)) is not None:
            parser.error(problem)
        try:
            timer = None if args.clock is None else parse_clock(args.clock)
        except ValueError as e:
            parser.error(str(e))
        from hanabi.engine.bots import LEVELS

        if args.level is not None and args.level not in LEVELS:
            parser.error(f"--level {args.level!r} is not a level: choose {', '.join(LEVELS)}")
        if (problem := terminal_problem()) is not None:
            return _refuse(problem)
        from .solo import Solo

        return _run(None, name, solo=Solo(players, variant, bot_delay, timer, args.level), bell=wants_bell(args))
    if args.list or args.serve or not args.server:
        return _on_the_lan(args, name)
    from .session import parse_address

    try:
        address = parse_address(args.server)
    except ValueError as e:
        parser.error(str(e))
    return _join(address, name, args)


def _on_the_lan(args: argparse.Namespace, name: str) -> int:
    """``--list``, ``--serve``, or no address: the servers on this network."""
    if args.list:
        return list_servers(args.json)
    if (problem := terminal_problem()) is not None:
        return _refuse(problem)
    if args.serve:
        from hanabi.protocol.lan import hosted_name

        return _run(None, name, bell=wants_bell(args), lan_name=hosted_name(name))
    chosen = _choose_server()
    return 0 if chosen is None else _join(chosen, name, args)


def _join(address: Address, name: str, args: argparse.Namespace) -> int:
    from .session import resolve_problem

    if (problem := resolve_problem(address) or terminal_problem()) is not None:
        return _refuse(problem)
    return _run(address, name, bell=wants_bell(args))


def list_servers(as_json: bool, wait: float = LIST_WAIT) -> int:
    """``--list``: the servers heard from within ``wait`` seconds, one a line; exit status 0 even with none."""
    from .discovery import NOTHING_FOUND, Browser

    browser = Browser()
    problem = browser.start()
    try:
        found = [] if problem is not None else browser.wait(wait)
    finally:
        browser.close()
    if problem is not None:
        print(f"hanabi-client: {problem}", file=sys.stderr)
    elif not found:
        print(f"hanabi-client: {NOTHING_FOUND}", file=sys.stderr)
    for server in found:
        print(json.dumps(server.as_json()) if as_json else server.line(), flush=True)
    return 0


def _choose_server() -> Address | None:
    """The servers screen: the address chosen, or None when the player quit."""
    from .discovery import Browser
    from .finder import ServerFinder

    browser = Browser()
    problem = browser.start()
    try:
        return ServerFinder(browser.servers, problem).run()
    finally:
        browser.close()


def _replay(path: str) -> int:
    from hanabi.engine.replay import ReplayError, load

    from .replayer import ReplayViewer
    from .runner import settle

    try:
        replay = load(path)
    except ReplayError as e:
        return _refuse(f"{path}: {e}")
    if (problem := terminal_problem()) is not None:
        return _refuse(problem)
    viewer = ReplayViewer(replay, Path(path).name)
    settle()
    viewer.application.run()
    return 0


def _run(address: Address | None, name: str, solo: Solo | None = None, bell: bool = True,
         lan_name: str | None = None) -> int:
    import asyncio
    import contextlib

    from .app import ClientApp
    from .runner import ModelStore, run_with_trio, settle
    from .session import Session
    from .solo import HostingError, hosted_db, run_hosted, run_solo
    from .tokens import TokenStore

    store = ModelStore()
    box: list[Session] = []

    def send(message: object) -> None:
        if box:
            box[0].send(message)  # type: ignore[arg-type]

    def rename(new: str) -> None:
        if box:
            box[0].rename(new)

    app = ClientApp(store.get, store.dispatch, send, bell=bell, solo=solo is not None,
                    hosting=lan_name is not None, rename=rename)
    store.listeners.append(app.on_model)
    hosted: list[int] = []  # the port of the server this client hosts (--serve), once it listens
    failed: list[str] = []  # why it could not be started
    settle()

    async def network() -> None:
        if lan_name is not None:
            try:
                await run_hosted(name, lan_name, store, box, started=hosted.append)
            except HostingError as e:
                failed.append(str(e))
                app.quit()
            return
        if solo is None:
            assert address is not None
            session = Session(address, name, store.get, store.dispatch, tokens=TokenStore(f"{name}@{address}"))
            box.append(session)
            await session.run()
            return
        await run_solo(name, solo.players, solo.variant, store, box, solo.bot_delay, solo.timer, solo.level)

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_with_trio(app, store, network))
    if failed:
        return _refuse(failed[0])
    if hosted:
        print(f"hanabi-client: the server you hosted ({lan_name!r}, port {hosted[0]}) has stopped; "
              f"its games are kept in {hosted_db()}")
        return 0
    words = parting_words(store.model, solo is not None, address)
    if words:
        print(f"hanabi-client: {words}")
    return 0


def parting_words(model: ClientModel, solo: bool, address: Address | None) -> str | None:
    """What the client says as it ends, once off the screen (None: nothing to say)."""
    import shlex

    from .model import Link

    view = model.view
    if solo and view is not None and view.outcome is None:
        # The solo server lived in this process: its game went with it, which the key line cannot say after.
        points = sum(view.fireworks)
        return f"solo game ended at turn {view.turn + 1}, {points} point{'s' if points != 1 else ''} " \
               "(solo games are not kept)"
    if model.farewell:
        return f"the server said goodbye: {model.farewell}"
    if model.link is Link.CLOSED and model.status:
        return model.status  # why we stopped (a protocol mismatch)
    if (not solo and address is not None and model.table is not None and model.seat is not None and view is not None
            and view.outcome is None):
        # Quitting (Ctrl-C) leaves the seat as a lost connection does: it waits, and this name takes it back.
        return (f"your seat at table {model.table.name!r} waits for you: hanabi-client {address} "
                f"--name {shlex.quote(model.player)} takes it back")
    return None
