"""``hanabi-bot``'s command line: its arguments, checked before anything else is loaded, then the bot (``bot.py``).

Kept apart from the bot so that ``hanabi-bot --help`` and a mistyped argument answer at once, without loading
Trio, msgpack and the engine's bots.
"""

from __future__ import annotations

import functools
import sys

from hanabi.engine.commandline import CommandParser, seconds_problem
from hanabi.protocol.transport import DEFAULT_PORT

from .arguments import RECONNECT_FOR, name_problem


def _speaks() -> str:
    from hanabi.protocol.version import PROTOCOL_VERSION

    return f"protocol {PROTOCOL_VERSION}"


def build_parser() -> CommandParser:
    parser = CommandParser(prog="hanabi-bot", description="Run the house bot as a player at a table.")
    parser.add_argument("address", help=f"the server: HOST or HOST:PORT (default port {DEFAULT_PORT})")
    parser.add_argument("--name", default="Bot", help="the bot's player name (default Bot)")
    parser.add_argument("--table", type=int, help="the table to join (default: the first with a free seat)")
    parser.add_argument("--password", default=None,
                        help="the table's password, when it has one (without it, a table with a password is not "
                             "free to the bot)")
    parser.add_argument("--games", type=int, help="stop after this many games (default: play on)")
    parser.add_argument("--delay", type=float, default=0.5, help="seconds to wait before each move (default 0.5)")
    parser.add_argument("--explain", action="store_true", help="print each move with the reason for it")
    parser.add_argument("--reconnect", type=float, default=RECONNECT_FOR, metavar="SECONDS",
                        help="how long to keep trying when the link to the server is lost "
                             f"(default {RECONNECT_FOR:g}; 0 stops at once)")
    parser.add_version(_speaks)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from .session import parse_address

    try:
        address = parse_address(args.address)
    except ValueError as exc:
        parser.error(str(exc))
    if (problem := name_problem(args.name.strip())) is not None:
        parser.error(problem)
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    spans = (("--delay", args.delay, "acts at once"), ("--reconnect", args.reconnect, "stops at once"))
    for flag, seconds, zero in spans:
        if (problem := seconds_problem(flag, seconds, zero)) is not None:
            parser.error(problem)
    import trio

    from .bot import BotError, Stopped, run_bot, say
    from .tokens import TokenStore

    name = args.name.strip()
    # Its own key: a person's client of the same name keeps its token apart from the bot's.
    tokens = TokenStore(f"bot:{name}@{address}")
    try:
        played = trio.run(functools.partial(run_bot, address, name, args.table, args.games, args.delay, say,
                                            args.explain, args.reconnect, args.password, tokens=tokens))
    except BotError as exc:
        print(f"hanabi-bot: {exc}", file=sys.stderr)
        return 1
    except Stopped as stopped:
        # 130, the shell's code for a program stopped by Ctrl-C: a script running the bot can tell it was
        # stopped rather than done with its --games; the line says its seat waits for it.
        print(f"hanabi-bot: {stopped}")
        return 130
    except KeyboardInterrupt:  # Ctrl-C before the bot was seated, or while it waited to reconnect
        print("hanabi-bot: stopped by Ctrl-C")
        return 130
    print(f"hanabi-bot: played {played} game(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
