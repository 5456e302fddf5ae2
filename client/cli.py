"""``hanabi-client``: connect to a server, play alone against bots (``--solo``), or watch a replay (``--replay``).

Bad arguments get one sentence saying what to type; the terminal is always
given back in its normal state (prompt_toolkit restores it when the app
exits, whatever made it exit).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import sys
from collections.abc import Sequence
from pathlib import Path

from hanabi.engine import MAX_PLAYERS, MIN_PLAYERS, Variant
from hanabi.engine.replay import ReplayError, load
from hanabi.protocol import DEFAULT_PORT, NAME_MAX

from .app import ClientApp
from .arguments import delay_problem, name_problem
from .model import Link
from .replayer import ReplayViewer
from .runner import ModelStore, run_with_trio
from .session import Address, Session, parse_address, resolve_problem
from .solo import SOLO_BOT_DELAY, Solo, run_solo
from .tokens import TokenStore

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
    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        name = ""
    return (name or "player")[:NAME_MAX]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hanabi-client",
        description="Play Hanabi in the terminal: join a LAN server, play alone against bots, or replay a game.",
        epilog="Once in, ? shows every key and command; Ctrl-C quits at any time (your seat waits for you).",
    )
    parser.add_argument("server", nargs="?", metavar="HOST[:PORT]",
                        help=f"the server to join (port {DEFAULT_PORT} by default)")
    parser.add_argument("--name", default=None, help="your name at the table (default: your login name)")
    parser.add_argument("--solo", action="store_true",
                        help="play at once against bots, on a private server inside this client")
    parser.add_argument("--players", type=int, default=None,
                        help="--solo: players at the table, you included (2-5; 3 by default)")
    parser.add_argument("--variant", default=None, help=f"--solo: the deck; {VARIANT_CHOICES}")
    parser.add_argument("--bot-delay", type=float, default=None, metavar="S",
                        help=f"--solo: seconds each bot waits before its move ({SOLO_BOT_DELAY:g} by default; "
                             "0 answers at once)")
    parser.add_argument("--replay", metavar="FILE.json", help="step through a saved game, offline")
    parser.add_argument("--no-bell", action="store_true",
                        help="do not ring the terminal's bell when your turn comes (--solo never rings it)")
    return parser


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
                                      ("HOST[:PORT]", bool(args.server))) if given]
    if len(modes) > 1:
        parser.error(f"{' and '.join(modes)} do not go together: join a server, play --solo, "
                     "or watch a --replay, one at a time")
    if not args.solo:
        for flag, value in (("--players", args.players), ("--variant", args.variant), ("--bot-delay", args.bot_delay)):
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
        if (problem := delay_problem("--bot-delay", bot_delay)) is not None:
            parser.error(problem)
        if (problem := terminal_problem()) is not None:
            return _refuse(problem)
        return _run(None, name, solo=Solo(players, variant, bot_delay), bell=wants_bell(args))
    if not args.server:
        parser.error("give a server to join (HOST or HOST:PORT), or use --solo or --replay FILE.json")
    try:
        address = parse_address(args.server)
    except ValueError as e:
        parser.error(str(e))
    if (problem := resolve_problem(address) or terminal_problem()) is not None:
        return _refuse(problem)
    return _run(address, name, bell=wants_bell(args))


def _replay(path: str) -> int:
    try:
        replay = load(path)
    except ReplayError as e:
        return _refuse(f"{path}: {e}")
    if (problem := terminal_problem()) is not None:
        return _refuse(problem)
    viewer = ReplayViewer(replay, Path(path).name)
    viewer.application.run()
    return 0


def _run(address: Address | None, name: str, solo: Solo | None = None, bell: bool = True) -> int:
    store = ModelStore()
    box: list[Session] = []

    def send(message: object) -> None:
        if box:
            box[0].send(message)  # type: ignore[arg-type]

    app = ClientApp(store.get, store.dispatch, send, bell=bell, solo=solo is not None)
    store.listeners.append(app.on_model)

    async def network() -> None:
        if solo is None:
            assert address is not None
            session = Session(address, name, store.get, store.dispatch, tokens=TokenStore(f"{name}@{address}"))
            box.append(session)
            await session.run()
            return
        await run_solo(name, solo.players, solo.variant, store, box, solo.bot_delay)

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_with_trio(app, store, network))
    farewell = store.model.farewell
    if farewell:
        print(f"hanabi-client: the server said goodbye: {farewell}")
    elif store.model.link is Link.CLOSED and store.model.status:
        print(f"hanabi-client: {store.model.status}")  # why we stopped (a protocol mismatch), once off the screen
    return 0
