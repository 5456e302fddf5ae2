"""``hanabi-replay FILE.json [...]``: replay hanab.live-format files and summarise each.

A bad file never stops the others: its error is printed (naming the file), the
rest are still replayed, and the exit code is 2.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from .commandline import CommandParser
from .variants import Variant

# How each end of a game reads (``summary``'s "end": an ``EndReason`` value, or "in_progress").
ENDS = {
    "in_progress": "still in progress",
    "strikeout": "lost",  # the detail says how: "the third strike: the fireworks exploded"
    "perfect": "every firework complete",
    "final_round": "ended after the final round",
    "no_more_points": "ended early: no more points could be scored",
    "all_or_nothing_defeat": "all or nothing: defeat",
    "terminated": "stopped early",
    "timeout": "lost on the clock",
}


def _text(name: str, s: dict[str, Any], players: tuple[str, ...]) -> str:
    suits = s["fireworks"]
    end = ENDS[s["end"]]
    lines = [
        f"{name}: {Variant(s['variant']).title}, {s['players']} players ({', '.join(players)})",
        f"  score {s['score']}/{s['max_score']}"
        + (f" — {s['rating']}" if s["rating"] else "")
        + f"; {end}" + (f" ({s['detail']})" if s["detail"] else ""),
        f"  fireworks {' '.join(str(h) for h in suits)}; strikes {s['strikes']}; "
        f"clue tokens {s['clue_tokens']}; {s['turns']} turns; {s['deck_left']} cards left in the deck",
    ]
    if s["advice_used"]:
        lines.append("  played with advice: someone asked the coach during the game")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = CommandParser(
        prog="hanabi-replay",
        description="Replay Hanabi games saved in hanab.live's JSON format and print what happened.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE.json", help="replay files to check and summarise")
    parser.add_argument("--json", action="store_true", help="print one JSON object per file, one per line")
    # The engine speaks no wire protocol (the import table keeps it from the protocol's package): what it reads is
    # hanab.live's JSON replay format.
    parser.add_version(lambda: "reads hanab.live's JSON replays", "the files it reads")
    args = parser.parse_args(argv)
    from .replay import ReplayError, load, summary

    status = 0
    try:
        for name in args.files:
            try:
                replay = load(name)
            except ReplayError as e:
                status = 2
                if args.json:
                    print(json.dumps({"file": name, "error": str(e)}), flush=True)
                else:
                    print(f"hanabi-replay: {name}: {e}", file=sys.stderr, flush=True)
                continue
            # Whether someone asked the coach (the file's adviceUsed): its score is not one played alone.
            s = {**summary(replay.state), "advice_used": replay.advice_used}
            if args.json:
                print(json.dumps({"file": name, **s}), flush=True)
            else:
                print(_text(name, s, replay.players), flush=True)
    except BrokenPipeError:
        # The reader went away (``hanabi-replay *.json | head -1``): stop quietly. Pointing stdout at
        # devnull keeps Python's last flush at exit from printing a traceback of its own.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
