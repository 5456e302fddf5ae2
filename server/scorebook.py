"""Each player's record, worked out from the finished games the store keeps: per player count and variant, how
many games, their points and best score, the perfect ones, the strike-outs, those played with a bot at the table
and those played with advice.

A game counts for every person who held one of its seats (``game_players``: those seated at its start, and
those handed a seat while it ran), under the name the store knows them by (``players``; a forgotten player has
none, and no record). A game is "with bots" when a house bot or a network bot held a seat of it at any time
(``game_bots``). "With advice" reads the coach's mark: the store lists in ``game_advice`` each seat of a game
that asked for advice (opening a store written before the coach adds the table, empty). Nothing is stored
twice: the record is counted afresh on each request, from rows the games already write.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from hanabi.engine import EndReason, Variant
from hanabi.protocol import StatsLine

_VARIANT_ORDER = {v: i for i, v in enumerate(Variant)}


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """One player's record: a line per player count and variant they finished a game of."""

    name: str
    lines: tuple[StatsLine, ...]

    @property
    def games(self) -> int:
        return sum(line.games for line in self.lines)


@dataclass(slots=True)
class _Tally:
    games: int = 0
    points: int = 0
    best: int = 0
    perfect: int = 0
    strikeouts: int = 0
    with_bots: int = 0
    with_advice: int = 0


def read_records(db: sqlite3.Connection, key: str | None = None) -> list[PlayerRecord]:
    """Every player's record, by name (case ignored); with ``key``, only the player of that token hash."""
    query = ("SELECT gp.token_hash, p.name, g.config, g.score, g.end_reason,"
             " EXISTS (SELECT 1 FROM game_bots b WHERE b.game_id = g.id),"
             " EXISTS (SELECT 1 FROM game_advice a WHERE a.game_id = g.id)"
             " FROM game_players gp JOIN games g ON g.id = gp.game_id JOIN players p ON p.token_hash = gp.token_hash"
             " WHERE g.finished IS NOT NULL AND g.end_reason IS NOT NULL")
    rows = db.execute(query, ()) if key is None else db.execute(query + " AND gp.token_hash = ?", (key,))
    names: dict[str, str] = {}
    tallies: dict[str, dict[tuple[int, Variant], _Tally]] = {}
    for token, name, config, score, end, bots, advised in rows:
        try:
            options = json.loads(config)
            kind = (int(options["players"]), Variant(options["variant"]))
        except (ValueError, KeyError, TypeError):
            continue  # a malformed row counts for no one (it is not restored or listed either)
        names[token] = name
        tally = tallies.setdefault(token, {}).setdefault(kind, _Tally())
        score = int(score or 0)
        tally.games += 1
        tally.points += score
        tally.best = max(tally.best, score)
        tally.perfect += score == kind[1].max_score
        tally.strikeouts += end == EndReason.STRIKEOUT.value
        tally.with_bots += bool(bots)
        tally.with_advice += bool(advised)
    records = [PlayerRecord(names[token], tuple(
        StatsLine(players, variant, t.games, t.points, t.best, t.perfect, t.strikeouts, t.with_bots, t.with_advice)
        for (players, variant), t in sorted(kinds.items(), key=lambda kv: (kv[0][0], _VARIANT_ORDER[kv[0][1]]))))
        for token, kinds in tallies.items()]
    return sorted(records, key=lambda r: (r.name.casefold(), r.name))
