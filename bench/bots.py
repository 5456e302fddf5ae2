"""Benchmark: the house bots with copies of themselves and beside simulated people, on fixed deals.

    python bench/bots.py [--players 2 3 4 5 6] [--games 500] [--tables bots beginners beginner careless novices
                         novice careless-novice eager-novice]
                         [--level beginner|basic|h-group] [--bot NAME] [--variant none] [--all-or-nothing]
                         [--losses] [--first DEAL] [--json]

Tables (each on the same deals: game ``g`` of an N-player run is dealt from
seed ``g``, from 0 or from ``--first``):

* ``bots``: every seat a house bot (the strongest level: no person sits there);
* ``beginners``: every seat the simulated beginner of ``people.py``;
* ``beginner``: one beginner, the other seats bots at ``--level`` (default:
  beginner, the level a table with a person gets); the beginner sits in seat
  ``g mod N``, so every seat takes its turn;
* ``careless``: the same with the careless beginner (every fourth clue random);
* ``novices``, ``novice``, ``careless-novice``: the same three with the
  novice of ``people.py``, who also counts the cards it sees (a person model
  the bots were never tuned to);
* ``eager-novice``: one novice who also plays on one clue (a card a clue most
  likely meant, proven or not), the other seats bots.

For each table it prints the mean score with its standard error, the share
of perfect games and of strike-outs (which score 0), misplays per game split
by who made them (people, bots, and bots while the deck still had cards: the
misplays the targets bound), and the bots' decision time: mean, 99th
percentile and the slowest single decision in CPU time (the bot's own work;
the wall-clock slowest is given too: on a shared machine it also counts
waiting for a core). Single-threaded: it uses one core.

``--losses`` adds a line a table saying where its points go: lost to
discards (25 less the best score the discard pile still allows at the end),
lost to time (that best score less the score: cards still playable when the
game ended), critical cards discarded a game by people and by bots (and how
many of those with 3 or more clue tokens unused), and the cards a person
played per clue a bot gave them.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field

from hanabi.engine import (
    Card,
    Clue,
    Discard,
    EndReason,
    GameConfig,
    GameState,
    Play,
    TurnAction,
    TurnEvent,
    apply,
    new_game,
    view_for,
)
from hanabi.engine.bots import BOTS, LEVELS, make_bot
from options import add_game_options, checked_variant  # beside this script
from people import Beginner


@dataclass
class Losses:
    """Where a table's points go, summed over its games (``--losses``)."""

    lost_to_discards: int = 0
    lost_to_time: int = 0
    critical_discards: Counter[str] = field(default_factory=Counter)  # "person", "bot", and "... rich": 3+ tokens
    clues_to_people: int = 0  # by bots
    people_plays: int = 0

    def observe(self, state: GameState, action: TurnAction, seat: int, people: set[int]) -> None:
        """Count one action, ``state`` being the game before it."""
        who = "person" if seat in people else "bot"
        if isinstance(action, Discard) and critical(state, action.order):
            self.critical_discards[who] += 1
            self.critical_discards[who + " rich"] += state.clue_tokens >= 3
        elif isinstance(action, Clue) and who == "bot" and action.target in people:
            self.clues_to_people += 1

    def finish(self, state: GameState, people: set[int]) -> None:
        """Count a finished game."""
        best = best_possible(state)
        self.lost_to_discards += 5 * len(state.fireworks) - best
        self.lost_to_time += best - state.score
        self.people_plays += sum(1 for e in state.events if isinstance(e, TurnEvent) and isinstance(e.action, Play)
                                 and e.success and e.seat in people)

    def per_game(self, games: int) -> dict[str, float]:
        """The figures ``BenchResult`` carries, a game each."""
        per = {k: v / games for k, v in self.critical_discards.items()}
        return {"lost_to_discards": self.lost_to_discards / games, "lost_to_time": self.lost_to_time / games,
                "person_critical_discards": per.get("person", 0.0),
                "person_critical_discards_rich": per.get("person rich", 0.0),
                "bot_critical_discards": per.get("bot", 0.0), "bot_critical_discards_rich": per.get("bot rich", 0.0),
                "people_plays_per_bot_clue": self.people_plays / self.clues_to_people if self.clues_to_people else 0.0}


def gone_copies(state: GameState) -> Counter[int]:
    return Counter(state.deck[o].identity for o in state.discard)


def critical(state: GameState, order: int) -> bool:
    """Whether the card is still needed and every other copy of it is discarded."""
    card = state.deck[order]
    gone = gone_copies(state)
    copies = state.config.variant.copies(card)
    still_possible = all(gone[Card(card.suit, r).identity] < state.config.variant.copies(Card(card.suit, r))
                         for r in range(state.fireworks[card.suit.index] + 1, card.rank))
    return state.fireworks[card.suit.index] < card.rank and still_possible and gone[card.identity] == copies - 1


def best_possible(state: GameState) -> int:
    """The best score the discard pile still allows: each suit up to its first rank with every copy gone."""
    gone = gone_copies(state)
    best = 0
    for suit in state.config.variant.suits:
        rank = 0
        while rank < 5 and gone[Card(suit, rank + 1).identity] < state.config.variant.copies(Card(suit, rank + 1)):
            rank += 1
        best += rank
    return best


TABLES = ("bots", "beginners", "beginner", "careless", "novices", "novice", "careless-novice", "eager-novice")
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
    # Where the points go (``Losses``), a game each; "rich": with 3 or more clue tokens unused.
    lost_to_discards: float = 0.0
    lost_to_time: float = 0.0
    person_critical_discards: float = 0.0
    person_critical_discards_rich: float = 0.0
    bot_critical_discards: float = 0.0
    bot_critical_discards_rich: float = 0.0
    people_plays_per_bot_clue: float = 0.0

    def line(self) -> str:
        timing = (f"decision mean {self.mean_decision_ms:5.2f} ms, p99 {self.p99_decision_ms:5.1f} ms, "
                  f"slowest {self.slowest_decision_ms:5.1f} ms CPU ({self.slowest_wall_ms:.1f} ms wall)"
                  if self.table not in PEOPLE_ONLY else "")
        return (f"{self.players}p {self.table:<15} {self.games:>4} games  score {self.mean:6.2f} ± {self.stderr:4.2f}  "
                f"perfect {self.perfect_pct:5.1f} %  strike-outs {self.strikeout_pct:4.1f} %  "
                f"misplays/game: people {self.person_misplays:4.2f}, bots {self.bot_misplays:4.2f} "
                f"({self.bot_misplays_deck:4.2f} with cards in the deck)  {timing}").rstrip()

    def losses_line(self) -> str:
        """Where the points go (``--losses``)."""
        plays = (f"  people's plays per bot clue to them {self.people_plays_per_bot_clue:4.2f}"
                 if self.table not in ("bots", *PEOPLE_ONLY) else "")
        return (f"{self.players}p {self.table:<15} points lost to discards {self.lost_to_discards:4.2f}, to time "
                f"{self.lost_to_time:4.2f}  critical cards discarded/game: people {self.person_critical_discards:4.2f}"
                f" ({self.person_critical_discards_rich:4.2f} with 3+ tokens), bots {self.bot_critical_discards:4.2f}"
                f" ({self.bot_critical_discards_rich:4.2f})" + plays)


def person_seat(table: str, players: int, game: int) -> set[int]:
    """The seats people sit in at a table of this kind, in game ``game``."""
    if table == "bots":
        return set()
    if table in PEOPLE_ONLY:
        return set(range(players))
    return {game % players}


def run(config: GameConfig, games: int, table: str = "bots", bot: str = "hgroup",
        level: str | None = None, first: int = 0) -> BenchResult:
    """Play ``games`` games on seeds first..first+games-1 at a table of kind ``table`` and measure them."""
    scores: list[int] = []
    perfect = strikeouts = 0
    misplays = {"person": 0, "bot": 0, "bot_deck": 0}
    times: list[float] = []
    cpu_slowest = 0.0
    losses = Losses()
    for seed in range(first, first + games):
        people = person_seat(table, config.players, seed)
        bot_seats = frozenset(s for s in range(config.players) if s not in people)
        careless, counting, eager = table.startswith("careless"), "novice" in table, table.startswith("eager")
        seats = [Beginner(seed * 10 + s, careless=careless, counting=counting, eager=eager) if s in people
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
            losses.observe(state, action, seat, people)
            state = apply(state, action, seat=seat)
            event = state.events[-1]
            if isinstance(action, Play) and isinstance(event, TurnEvent) and not event.success:
                who = "person" if seat in people else "bot"
                misplays[who] += 1
                if who == "bot" and deck_left > 0:
                    misplays["bot_deck"] += 1
        scores.append(state.outcome.score)
        losses.finish(state, people)
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
                       1000 * times[-1] if times else 0.0, **losses.per_game(games))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/bots.py",
                                     description="The house bots with themselves and beside simulated people.")
    add_game_options(parser, games=500)
    parser.add_argument("--tables", nargs="+", default=list(TABLES), choices=TABLES, metavar="TABLE",
                        help=f"which tables: {', '.join(TABLES)} (default: all)")
    parser.add_argument("--level", choices=LEVELS, help="the bots' convention level beside people (default beginner)")
    parser.add_argument("--bot", default="hgroup", help=f"which bot: {', '.join(sorted(BOTS))}")
    parser.add_argument("--losses", action="store_true", help="also say where each table's points go")
    parser.add_argument("--empty-clues", action="store_true", help="allow clues that touch no card")
    parser.add_argument("--first", type=int, default=0, metavar="DEAL",
                        help="the first deal (default 0): choose a rule on other deals than the ones reported")
    args = parser.parse_args(argv)
    variant = checked_variant(parser, args)
    if args.first < 0:
        parser.error(f"--first must be 0 or more (the first deal's number), not {args.first}")
    if args.bot not in BOTS:
        parser.error(f"there is no bot named {args.bot!r}: choose one of {', '.join(sorted(BOTS))}")
    for players in args.players:
        config = GameConfig(players=players, variant=variant, all_or_nothing=args.all_or_nothing,
                            empty_clues=args.empty_clues)
        for table in args.tables:
            result = run(config, args.games, table, args.bot, args.level, args.first)
            print(json.dumps(asdict(result)) if args.json else result.line(), flush=True)
            if args.losses and not args.json:
                print(result.losses_line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
