"""Benchmark: the house bots with copies of themselves and beside simulated people, on fixed deals.

    python bench/bots.py [--players 2 3 4 5 6] [--games 500] [--tables bots beginners beginner careless novices
                         novice careless-novice]
                         [--level beginner|basic|h-group] [--bot NAME] [--variant none] [--all-or-nothing]
                         [--json]

Tables (each on the same deals: game ``g`` of an N-player run is dealt from
seed ``g``):

* ``bots``: every seat a house bot (the strongest level: no person sits there);
* ``beginners``: every seat the simulated beginner of ``people.py``;
* ``beginner``: one beginner, the other seats bots at ``--level`` (default:
  beginner, the level a table with a person gets); the beginner sits in seat
  ``g mod N``, so every seat takes its turn;
* ``careless``: the same with the careless beginner (every fourth clue random);
* ``novices``, ``novice``, ``careless-novice``: the same three with the
  novice of ``people.py``, who also counts the cards it sees (a person model
  the bots were never tuned to).

For each table it prints the mean score with its standard error, the share
of perfect games and of strike-outs (which score 0), misplays per game split
by who made them (people, bots, and bots while the deck still had cards: the
misplays the targets bound), and the bots' decision time: mean, 99th
percentile and the slowest single decision in CPU time (the bot's own work;
the wall-clock slowest is given too: on a shared machine it also counts
waiting for a core). Single-threaded: it uses one core.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass

from hanabi.engine import EndReason, GameConfig, Play, TurnEvent, apply, new_game, view_for
from hanabi.engine.bots import BOTS, LEVELS, make_bot
from options import add_game_options, checked_variant  # beside this script
from people import Beginner

TABLES = ("bots", "beginners", "beginner", "careless", "novices", "novice", "careless-novice")
PEOPLE_ONLY = ("beginners", "novices")


@dataclass
class BenchResult:
    players: int
    table: str
    games: int
    variant: str
    bot: str
    level: str
    mean: float
    stderr: float
    perfect_pct: float
    strikeout_pct: float
    person_misplays: float  # per game
    bot_misplays: float  # per game
    bot_misplays_deck: float  # per game, while the deck still had cards
    mean_decision_ms: float
    p99_decision_ms: float
    slowest_decision_ms: float  # CPU time of the costliest bot decision: the bot's own work
    slowest_wall_ms: float  # wall-clock time of the slowest bot decision: includes waiting for a core

    def line(self) -> str:
        timing = (f"decision mean {self.mean_decision_ms:5.2f} ms, p99 {self.p99_decision_ms:5.1f} ms, "
                  f"slowest {self.slowest_decision_ms:5.1f} ms CPU ({self.slowest_wall_ms:.1f} ms wall)"
                  if self.table not in PEOPLE_ONLY else "")
        return (f"{self.players}p {self.table:<15} {self.games:>4} games  score {self.mean:6.2f} ± {self.stderr:4.2f}  "
                f"perfect {self.perfect_pct:5.1f} %  strike-outs {self.strikeout_pct:4.1f} %  "
                f"misplays/game: people {self.person_misplays:4.2f}, bots {self.bot_misplays:4.2f} "
                f"({self.bot_misplays_deck:4.2f} with cards in the deck)  {timing}").rstrip()


def person_seat(table: str, players: int, game: int) -> set[int]:
    """The seats people sit in at a table of this kind, in game ``game``."""
    if table == "bots":
        return set()
    if table in PEOPLE_ONLY:
        return set(range(players))
    return {game % players}


def run(config: GameConfig, games: int, table: str = "bots", bot: str = "hgroup",
        level: str | None = None) -> BenchResult:
    """Play ``games`` games on seeds 0..games-1 at a table of kind ``table`` and measure them."""
    scores: list[int] = []
    perfect = strikeouts = 0
    misplays = {"person": 0, "bot": 0, "bot_deck": 0}
    times: list[float] = []
    cpu_slowest = 0.0
    for seed in range(games):
        people = person_seat(table, config.players, seed)
        bot_seats = frozenset(s for s in range(config.players) if s not in people)
        careless, counting = table.startswith("careless"), "novice" in table
        seats = [Beginner(seed * 10 + s, careless=careless, counting=counting) if s in people
                 else make_bot(bot, level=level, bot_seats=bot_seats) for s in range(config.players)]
        state = new_game(config, seed)
        while state.outcome is None:
            seat = state.current
            view = view_for(state, seat)
            player = seats[seat]
            if isinstance(player, Beginner):
                action = player.choose(view)
            else:
                start, cpu = time.perf_counter(), time.thread_time()
                action = player.choose(view)
                times.append(time.perf_counter() - start)
                cpu_slowest = max(cpu_slowest, time.thread_time() - cpu)
            deck_left = state.deck_left
            state = apply(state, action, seat=seat)
            event = state.events[-1]
            if isinstance(action, Play) and isinstance(event, TurnEvent) and not event.success:
                who = "person" if seat in people else "bot"
                misplays[who] += 1
                if who == "bot" and deck_left > 0:
                    misplays["bot_deck"] += 1
        scores.append(state.outcome.score)
        perfect += state.outcome.reason is EndReason.PERFECT
        strikeouts += state.outcome.reason is EndReason.STRIKEOUT
    mean = sum(scores) / games
    var = sum((s - mean) ** 2 for s in scores) / (games - 1) if games > 1 else 0.0
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))] if times else 0.0
    return BenchResult(config.players, table, games, config.variant.value, bot,
                       "none" if table in PEOPLE_ONLY else "h-group" if table == "bots" else level or "beginner",
                       mean, math.sqrt(var / games),
                       100 * perfect / games, 100 * strikeouts / games, misplays["person"] / games,
                       misplays["bot"] / games, misplays["bot_deck"] / games,
                       1000 * sum(times) / len(times) if times else 0.0, 1000 * p99, 1000 * cpu_slowest,
                       1000 * times[-1] if times else 0.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/bots.py",
                                     description="The house bots with themselves and beside simulated people.")
    add_game_options(parser, games=500)
    parser.add_argument("--tables", nargs="+", default=list(TABLES), choices=TABLES, metavar="TABLE",
                        help=f"which tables: {', '.join(TABLES)} (default: all)")
    parser.add_argument("--level", choices=LEVELS, help="the bots' convention level beside people (default beginner)")
    parser.add_argument("--bot", default="hgroup", help=f"which bot: {', '.join(sorted(BOTS))}")
    parser.add_argument("--empty-clues", action="store_true", help="allow clues that touch no card")
    args = parser.parse_args(argv)
    variant = checked_variant(parser, args)
    if args.bot not in BOTS:
        parser.error(f"there is no bot named {args.bot!r}: choose one of {', '.join(sorted(BOTS))}")
    for players in args.players:
        config = GameConfig(players=players, variant=variant, all_or_nothing=args.all_or_nothing,
                            empty_clues=args.empty_clues)
        for table in args.tables:
            result = run(config, args.games, table, args.bot, args.level)
            print(json.dumps(asdict(result)) if args.json else result.line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
