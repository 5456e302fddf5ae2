"""A second, independent replayer of hanab.live game files, to work out what hanab.live says of each game.

Written from hanab.live's rules as the team's summary of its format states them (FORMAT.md, kept beside
this repository), and hanab.live's Go server
it cites (``CheckEnd``, ``commandActionPlay``, ``DrawCard``, ``PlayDeck``), with the standard library only
and nothing of ``hanabi``: the engine is checked against what this says, so it must not share the engine's
code or its mistakes. It plays the way hanab.live's server does, which is not the way the engine is
written: hands are lists with the newest card last, a card is drawn even by the move that ends the game,
the end is judged after the turn has passed, and a card in the hand of a player who has taken their final
turn is marked as one that can no longer be played.

``result(data)`` replays one file and says how hanab.live ends it (its end condition, the score it records,
the turn); ``expected_row`` turns that into what a correct reader of the file does, and
``python tests/engine/hanablive_reference.py GAMES_DIR > tests/engine/hanablive_expected.json``
writes the table the engine is tested against (see ``replays/README.md``).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# hanab.live's end conditions (EndCondition.ts).
IN_PROGRESS, NORMAL, STRIKEOUT, TIMEOUT, TERMINATED, SPEEDRUN_FAIL, IDLE_TIMEOUT = 0, 1, 2, 3, 4, 5, 6
CHARACTER_SOFTLOCK, ALL_OR_NOTHING_FAIL, ALL_OR_NOTHING_SOFTLOCK, TERMINATED_BY_VOTE = 7, 8, 9, 10
END_GAME_VALUES = (TIMEOUT, TERMINATED, IDLE_TIMEOUT, ALL_OR_NOTHING_FAIL, TERMINATED_BY_VOTE)

# name: (number of suits, index of the special sixth suit or None, what it is, number of clue colours)
VARIANTS = {
    "No Variant": (5, None, "", 5),
    "6 Suits": (6, None, "", 6),
    "Black (6 Suits)": (6, 5, "black", 6),
    "Rainbow (6 Suits)": (6, 5, "rainbow", 5),
}
COPIES = {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}


class Unplayable(Exception):
    """A file this replayer cannot judge (an unknown variant, a rule option it does not model, a bad move)."""


class IllegalMove(Unplayable):
    """A move hanab.live's rules refuse: action ``index`` of the file (from 0)."""

    def __init__(self, index: int, why: str) -> None:
        super().__init__(f"action {index}: {why}")
        self.index = index


@dataclass
class Card:
    order: int
    suit: int
    rank: int
    discarded: bool = False
    played: bool = False
    cannot_be_played: bool = False


@dataclass
class Game:
    players: int
    deck: list[Card]
    suits: int
    special: str
    special_suit: int | None
    clue_colours: int
    empty_clues: bool
    deck_plays: bool
    all_or_nothing: bool
    hands: list[list[Card]] = field(default_factory=list)
    deck_index: int = 0
    stacks: list[int] = field(default_factory=list)
    clue_tokens: int = 8
    strikes: int = 0
    score: int = 0
    max_score: int = 0
    turn: int = 0
    active: int = 0
    end_turn: int = -1
    end_condition: int = IN_PROGRESS
    why: str = ""
    early_end: bool = True  # False: as the servers before mid-2020 that played on (FORMAT.md)

    def copies(self, suit: int, rank: int) -> int:
        return 1 if suit == self.special_suit and self.special == "black" else COPIES[rank]

    def best_reachable(self) -> int:
        """GetMaxScore: per suit, the ranks from 1 up while some copy is not discarded."""
        best = 0
        for suit in range(self.suits):
            for rank in range(1, 6):
                if all(c.discarded for c in self.deck if c.suit == suit and c.rank == rank):
                    break
                best += 1
        return best

    def draw(self, seat: int) -> None:
        if self.deck_index >= len(self.deck):
            return
        self.hands[seat].append(self.deck[self.deck_index])
        self.deck_index += 1
        if self.deck_index >= len(self.deck) and not self.all_or_nothing:
            self.end_turn = self.turn + self.players + 1

    def discard(self, card: Card) -> None:
        card.discarded = True
        self.max_score = min(self.max_score, self.best_reachable())

    def play(self, card: Card) -> None:
        if card.rank != self.stacks[card.suit] + 1:
            self.strikes += 1
            self.discard(card)
            return
        card.played = True
        self.score += 1
        self.stacks[card.suit] = card.rank
        if card.rank == 5:
            self.clue_tokens = min(8, self.clue_tokens + 1)

    def touches(self, colour: int | None, rank: int | None, card: Card) -> bool:
        if rank is not None:
            return card.rank == rank
        if card.suit == self.special_suit and self.special == "rainbow":
            return True
        return card.suit == colour

    def take(self, seat: int, order: int) -> Card:
        for i, card in enumerate(self.hands[seat]):
            if card.order == order:
                return self.hands[seat].pop(i)
        raise Unplayable(f"card {order} is not in seat {seat}'s hand")

    def act(self, kind: int, target: int, value: int) -> None:
        seat = self.active
        if kind in (4, 5):
            if value not in END_GAME_VALUES:
                raise Unplayable(f"end condition {value} is not one hanab.live accepts")
            self.end_condition = value
            self.why = "timeout" if value == TIMEOUT else "ended from outside"
            return
        if kind == 0:
            if self.deck_plays and self.deck_index == len(self.deck) - 1 and target == self.deck_index:
                self.draw(seat)  # PlayDeck: draw the last card, then play it
                self.play(self.take(seat, target))
            else:
                self.play(self.take(seat, target))
                self.draw(seat)
        elif kind == 1:
            if self.clue_tokens >= 8:
                raise Unplayable("a discard at 8 clue tokens")
            self.clue_tokens += 1
            self.discard(self.take(seat, target))
            self.draw(seat)
        elif kind in (2, 3):
            if target == seat or not 0 <= target < self.players or self.clue_tokens < 1:
                raise Unplayable("an illegal clue")
            if kind == 2 and not 0 <= value < self.clue_colours:
                raise Unplayable(f"colour {value} is not a clue colour")
            colour, rank = (value, None) if kind == 2 else (None, value)
            if not self.empty_clues and not any(self.touches(colour, rank, c) for c in self.hands[target]):
                raise Unplayable("a clue that touches nothing")
            self.clue_tokens -= 1
        else:
            raise Unplayable(f"action type {kind}")
        # After a player's final turn, the cards left in their hand can no longer be played.
        if self.end_turn != -1 and self.end_turn != self.turn + self.players + 1:
            for card in self.hands[seat]:
                card.cannot_be_played = True
        self.turn += 1
        self.active = (self.active + 1) % self.players
        self.check_end()

    def check_end(self) -> None:
        if self.strikes == 3:
            self.end_condition, self.why = STRIKEOUT, "strikeout"
        elif self.all_or_nothing and self.max_score < self.suits * 5:
            self.end_condition, self.why = ALL_OR_NOTHING_FAIL, "all_or_nothing_fail"
        elif self.all_or_nothing and not self.hands[self.active] and self.clue_tokens < 1:
            self.end_condition, self.why = ALL_OR_NOTHING_SOFTLOCK, "all_or_nothing_softlock"
        elif self.turn == self.end_turn:
            self.end_condition, self.why = NORMAL, "final_round"
        elif self.score == self.max_score and (self.early_end or self.score == self.suits * 5):
            self.end_condition, self.why = NORMAL, "perfect" if self.score == self.suits * 5 else "max_reachable"
        elif self.early_end and not self.next_card_left():
            self.end_condition, self.why = NORMAL, "nothing_playable"

    def next_card_left(self) -> bool:
        for suit, height in enumerate(self.stacks):
            if height == 5:
                continue
            if any(c.suit == suit and c.rank == height + 1 and not c.discarded and not c.cannot_be_played
                   for c in self.deck):
                return True
        return False


def new_game(data: dict[str, Any], early_end: bool = True) -> tuple[Game, list[dict[str, Any]]]:
    options = data.get("options", {})
    name = options.get("variant", "No Variant")
    if name not in VARIANTS:
        raise Unplayable(f"variant {name}")
    for key in ("speedrun", "cardCycle", "oneExtraCard", "oneLessCard", "detrimentalCharacters"):
        if options.get(key):
            raise Unplayable(f"option {key}")
    suits, special_suit, special, colours = VARIANTS[name]
    players = len(data["players"])
    deck = [Card(i, c["suitIndex"], c["rank"]) for i, c in enumerate(data["deck"])]
    expected = sorted((s, r) for s in range(suits) for r in range(1, 6)
                      for _ in range(1 if s == special_suit and special == "black" else COPIES[r]))
    if sorted((c.suit, c.rank) for c in deck) != expected:
        raise Unplayable("the deck is not the variant's")
    game = Game(players, deck, suits, special, special_suit, colours, bool(options.get("emptyClues")),
                bool(options.get("deckPlays")), bool(options.get("allOrNothing")))
    game.stacks = [0] * suits
    game.early_end = early_end
    game.max_score = suits * 5
    game.hands = [[] for _ in range(players)]
    size = {2: 5, 3: 5, 4: 4, 5: 4, 6: 3}[players]
    for seat in range(players):
        for _ in range(size):
            game.draw(seat)
    game.active = options.get("startingPlayer", 0)
    return game, data["actions"]


def result(data: dict[str, Any], early_end: bool = True) -> dict[str, Any]:
    """How hanab.live ends this game: its end condition, the score it records, the turn, and why.

    hanab.live's JSON loader goes on applying the actions that follow the end; ``after_end`` counts them
    (a file from a server that did not end games early has some).
    """
    game, actions = new_game(data, early_end)
    after = 0
    ended: dict[str, Any] | None = None
    for i, raw in enumerate(actions):
        if ended is not None:
            after += 1
            if raw["type"] in (4, 5):
                break
            # Keep emulating, as hanab.live's loader does, to check the rest of the file is legal.
        try:
            game.act(raw["type"], raw["target"], raw.get("value", 0))
        except Unplayable as e:
            raise IllegalMove(i, str(e)) from None
        if ended is None and game.end_condition != IN_PROGRESS:
            ended = {"end_condition": game.end_condition, "why": game.why,
                     "score": game.score if game.end_condition == NORMAL else 0, "turn": game.turn,
                     "strikes": game.strikes}
    if ended is None:
        return {"end_condition": IN_PROGRESS, "why": "in_progress", "score": game.score, "turn": game.turn,
                "strikes": game.strikes, "after_end": 0}
    return {**ended, "after_end": after}


# The project's names (``hanabi-replay --json``'s "end") for each way hanab.live ends a game.
_END_NAMES = {
    "final_round": ["final_round"], "perfect": ["perfect"], "max_reachable": ["no_more_points"],
    "nothing_playable": ["no_more_points"], "strikeout": ["strikeout"],
    "all_or_nothing_fail": ["all_or_nothing_defeat"], "all_or_nothing_softlock": ["all_or_nothing_defeat"],
    "ended from outside": ["terminated"], "timeout": ["timeout"], "in_progress": ["in_progress"],
}
MAX_PLAYERS_HERE = 6  # the project plays 2 to 6 players (hanab.live's range)


def expected_row(data: dict[str, Any]) -> dict[str, Any]:
    """What a correct reader of this file does: replay it with hanab.live's result, or refuse it by name."""
    options = data.get("options", {})
    variant = options.get("variant", "No Variant")
    if variant not in VARIANTS:
        return {"refuse": variant, "because": "a variant the project does not play"}
    for key in ("speedrun", "cardCycle", "oneExtraCard", "oneLessCard", "detrimentalCharacters"):
        if options.get(key):
            return {"refuse": key, "because": "an option that changes the deal or the rules"}
    if len(data["players"]) > MAX_PLAYERS_HERE:
        return {"refuse": f"has {len(data['players'])}", "because": "the project plays 2 to 6 players"}
    try:
        hanablive = result(data)
    except IllegalMove as e:
        # hanab.live's own loader refuses the file too: the reader must name the move it cannot make.
        return {"refuse": f"action {e.index} (", "because": "a move hanab.live's rules refuse"}
    row = {"score": hanablive["score"], "turns": hanablive["turn"], "strikes": hanablive["strikes"],
           "end_condition": hanablive["end_condition"], "hanablive_end": hanablive["why"]}
    if hanablive["after_end"]:
        # Moves follow hanab.live's early end: the game was played on a server that did not end there, and
        # is replayed as it was played. The score cannot change once no more points can be scored.
        played_on = result(data, early_end=False)
        assert played_on["score"] == hanablive["score"]
        row["played_on"] = hanablive["after_end"]
        row["turns"] = played_on["turn"]
        row["strikes"] = played_on["strikes"]
        row["end"] = list(_END_NAMES[played_on["why"]])
    else:
        row["end"] = engine_names(hanablive["why"], hanablive["score"], 5 * VARIANTS[variant][0])
    return row


def engine_names(why: str, score: int, max_score: int) -> list[str]:
    """The project's names for the ending ``why`` (a ``result``'s): more than one where both fit."""
    names = list(_END_NAMES[why])
    if why == "final_round" and score == max_score:
        names.append("perfect")  # the last card of the final round completed the fireworks
    return names


def table(folder: Path) -> dict[str, dict[str, Any]]:
    """The expected row of every game file in ``folder``, by file name."""
    return {path.name: expected_row(json.loads(path.read_text(encoding="utf-8")))
            for path in sorted(folder.glob("*.json"))}


if __name__ == "__main__":
    print(json.dumps(table(Path(sys.argv[1])), indent=1))
