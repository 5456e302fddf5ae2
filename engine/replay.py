"""Replay files in hanab.live's JSON format: export a game, import and check one.

The format (see hanab.live's ``misc/example_game_with_comments.jsonc``):
``players`` (names), ``deck`` (``{suitIndex, rank}``, top card first),
``actions`` (``{type, target, value}``: 0 play and 1 discard name a card
order in ``target``; 2 colour clue and 3 rank clue name a seat in ``target``
and the colour index or rank in ``value``; 4 ends the game from outside, its
``value`` hanab.live's end condition, 3 for a player whose time ran out; 5
ends it by a vote) and ``options`` (``variant``, the rule flags and the
timers of a timed game). Importing replays every action through
``apply``, so a file is accepted only if every move in it was legal.

hanab.live always ends a game as soon as no more points can be scored, so a
file read here plays with ``end_when_no_points`` unless its options say
``"endWhenNoPoints": false`` (what this program writes for its own tables,
which may play on; hanab.live ignores option names it does not know).
Options that change the deal or the rules in ways this program does not
play are refused by name; options with no effect on the rules (timers) are
read and checked. An export never carries ``seed``: hanab.live would shuffle
its own deck from it and replay the actions against another deal.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

from .action_fields import ActionFieldError, action_fields, turn_action_from_fields
from .actions import TurnAction, TurnEvent
from .bots.decision import LEVELS, Level, known_level
from .cards import RANKS, Card
from .clocks import time_out
from .names import NAME_MAX, name_problem
from .notes import SeatNotes, notes_from_json, notes_to_json
from .options import MAX_PLAYERS, MAX_TIME, MIN_PLAYERS, TIME_BASE, TIME_PER_TURN, GameConfig
from .outcome import EndReason
from .state import GameState, IllegalAction, apply, game_from_deck, terminate
from .variants import Variant

PLAY, DISCARD, COLOUR_CLUE, RANK_CLUE, GAME_OVER, GAME_OVER_BY_VOTE = range(6)
DEFAULT_NAMES = ("Alice", "Bob", "Cathy", "Donald", "Emily", "Frank")

# hanab.live's end conditions a game-over action may carry, and what each says happened. 0 is not one of
# them: this program wrote it before it knew, so its own old files still read (as stopped by a player).
TIMEOUT, TERMINATED_BY_PLAYER, IDLE_TIMEOUT, ALL_OR_NOTHING_FAIL, TERMINATED_BY_VOTE = 3, 4, 6, 8, 10
_END_CONDITIONS = {
    0: "{who} stopped the game",
    TIMEOUT: "{who} ran out of time",
    TERMINATED_BY_PLAYER: "{who} stopped the game",
    IDLE_TIMEOUT: "the table was idle for too long",
    ALL_OR_NOTHING_FAIL: "all or nothing could no longer be won",
    TERMINATED_BY_VOTE: "the players voted to end the game",
}

# hanab.live's options that change the deal or the rules in ways this program does not play.
UNSUPPORTED_OPTIONS = {
    "oneExtraCard": "one extra card in each hand",
    "oneLessCard": "one card less in each hand",
    "cardCycle": "hands cycle after each clue",
    "detrimentalCharacters": "detrimental characters",
    "speedrun": "speedrun",
}
# hanab.live's options with no effect on the rules of a replay, and the JSON type each must have (the timers
# are read into the game's config, so that a timed game exported again stays timed).
NO_EARLY_END = "endWhenNoPoints"  # this program's own option name; hanab.live ignores it
ADVICE_USED = "adviceUsed"  # this program's own option: a player asked the coach for advice during the game
_RULELESS_OPTIONS: dict[str, type] = {"timed": bool, "timeBase": int, "timePerTurn": int, ADVICE_USED: bool}
# This program's own option: the seats that changed hands while the game ran, a list of {turn, seat, name, bot}
# (from ``turn`` on, ``seat`` was played by ``name``; ``bot``: a bot). ``players`` keeps each seat's holder at the
# deal, as hanab.live expects one name a seat; hanab.live ignores the option.
SEAT_HOLDERS = "seatHolders"
# This program's own option: the convention level the house bots played at beside people, the one a person's moves
# are judged at. A file that has it also says who the bots were: every seat a bot (a house bot, or a program playing
# as one) held at the deal has a turn-0 entry in ``seatHolders`` with ``bot`` true, so a seat without one was a
# person's until it was handed over. hanab.live ignores it.
BOT_LEVEL = "botLevel"
_HOLDERS_MAX = 1000  # more hand-overs than a file of ours ever holds: the rest is not read


class SeatHolder(NamedTuple):
    """From ``turn`` of the game on, ``seat`` was played by ``name`` (``bot``: a bot)."""

    turn: int
    seat: int
    name: str
    bot: bool = False


def handed_on(handed: Iterable[int], seat: int, turn: int, previous: str, name: str, *, was_bot: bool = False,
              bot: bool = False) -> list[SeatHolder]:
    """The entries ``seat``, handed from ``previous`` to ``name`` at ``turn``, adds to the seat holders (``handed``:
    the seats they name already). A seat's first hand-over also names who held it from the deal (``was_bot``: a
    bot), since its moves until then are theirs."""
    dealt = [] if seat in set(handed) else [SeatHolder(0, seat, previous, was_bot)]
    return [*dealt, SeatHolder(turn, seat, name, bot)]


class ReplayError(ValueError):
    """A replay file that cannot be loaded; the message says what is wrong and where."""


@dataclass(frozen=True, slots=True)
class Replay:
    state: GameState
    players: tuple[str, ...]
    notes: tuple[dict[int, str], ...] = ()  # each player's notes (card order -> text); () when the file has none
    advice_used: bool = False  # someone asked the coach for advice during the game (the file's ``adviceUsed``)
    holders: tuple[SeatHolder, ...] = ()  # the seats that changed hands, in order (the file's ``seatHolders``)
    # The level of the house bots beside people (the file's ``botLevel``); None: the file does not say it, nor
    # which seats bots held at the deal (an older file of this program's, or hanab.live's own).
    bot_level: Level | None = None

    def bots_at(self, turn: int) -> frozenset[int] | None:
        """The seats bots held at ``turn``: at the deal, then as the seats were handed on; None when the file
        does not say who the bots were (no ``botLevel``)."""
        if self.bot_level is None:
            return None
        bot = [False] * len(self.players)
        for holder in self.holders:  # in the order they were handed: the last one begun by ``turn``
            if holder.turn <= turn and 0 <= holder.seat < len(bot):
                bot[holder.seat] = holder.bot
        return frozenset(seat for seat, is_bot in enumerate(bot) if is_bot)

    def names_at(self, turn: int) -> tuple[str, ...]:
        return names_at(self.players, self.holders, turn)


def names_at(players: Sequence[str], holders: Iterable[SeatHolder], turn: int) -> tuple[str, ...]:
    """Who held each seat at ``turn``: its player at the deal, or the latest who took it over by then (``holders``,
    in the order the seats were handed)."""
    names = list(players)
    for holder in holders:
        if holder.turn <= turn and 0 <= holder.seat < len(names):
            names[holder.seat] = holder.name
    return tuple(names)


def action_to_json(variant: Variant, action: TurnAction) -> dict[str, int]:
    """hanab.live's form of a turn action's fields (``action_fields``): a clue's colour as its index among the
    variant's clue colours."""
    fields = action_fields(action)
    kind = fields["kind"]
    if kind != "clue":
        return {"type": PLAY if kind == "play" else DISCARD, "target": fields["order"]}
    if fields["colour"] is None:
        return {"type": RANK_CLUE, "target": fields["target"], "value": fields["rank"]}
    colours = [suit.value for suit in variant.clue_colours]
    return {"type": COLOUR_CLUE, "target": fields["target"], "value": colours.index(fields["colour"])}


def to_json(state: GameState, players: Sequence[str] | None = None,
            notes: Sequence[SeatNotes] = (), advice_used: bool = False,
            holders: Sequence[SeatHolder] = (), bot_level: Level | None = None,
            dealt_bots: Iterable[int] = ()) -> dict[str, Any]:
    """The replay of a finished or running game. It holds the whole deck: never send it to a player mid-game.

    ``notes`` (one mapping per seat, card order -> text) go into hanab.live's ``notes`` field when any is
    written; they too are for the end of the game, since they are each player's private notes. A game in which
    someone asked the coach for advice says so in its options (``adviceUsed``), so that its score is not taken
    for one played alone. ``holders``: the seats handed on, in order; with ``bot_level``, each seat of
    ``dealt_bots`` (bots held it at the deal) never handed on gets its turn-0 entry first (``BOT_LEVEL``)."""
    names = list(players) if players is not None else list(DEFAULT_NAMES[: state.players])
    if len(names) != state.players:
        raise ValueError(f"{len(names)} names for {state.players} players")
    if bot_level is not None:  # a seat handed on names its holder at the deal in its first entry already
        handed = {h.seat for h in holders}
        holders = [*(SeatHolder(0, seat, names[seat], True) for seat in sorted(dealt_bots) if seat not in handed),
                   *holders]
    config = state.config
    variant = config.variant
    suits = variant.suits
    actions: list[dict[str, int]] = [
        action_to_json(variant, e.action) for e in state.events if isinstance(e, TurnEvent)
    ]
    if state.outcome is not None and state.outcome.reason is EndReason.TERMINATED:
        actions.append({"type": GAME_OVER, "target": state.current, "value": TERMINATED_BY_PLAYER})
    if state.outcome is not None and state.outcome.reason is EndReason.TIMEOUT:
        # Only the player to act has a running clock, so it is theirs that ran out.
        actions.append({"type": GAME_OVER, "target": state.current, "value": TIMEOUT})
    options: dict[str, Any] = {"variant": variant.value}
    if config.all_or_nothing:
        options["allOrNothing"] = True
    if config.empty_clues:
        options["emptyClues"] = True
    if config.deck_plays:
        options["deckPlays"] = True
    if config.first_seat:
        options["startingPlayer"] = config.first_seat
    if not config.end_when_no_points:
        options[NO_EARLY_END] = False
    if config.timed:
        options.update(timed=True, timeBase=config.time_base, timePerTurn=config.time_per_turn)
    if advice_used:
        options[ADVICE_USED] = True
    if holders:
        options[SEAT_HOLDERS] = [{"turn": h.turn, "seat": h.seat, "name": h.name, "bot": h.bot} for h in holders]
    if bot_level is not None:
        options[BOT_LEVEL] = bot_level
    # No "seed": hanab.live would ignore this deck and shuffle its own from it (a whole-number seed it would
    # even refuse without a word).
    out: dict[str, Any] = {
        "players": names,
        "deck": [{"suitIndex": suits.index(c.suit), "rank": c.rank} for c in state.deck],
        "actions": actions,
        "options": options,
    }
    if any(any(seat_notes.values()) for seat_notes in notes):
        if len(notes) != state.players:
            raise ValueError(f"notes of {len(notes)} seats for {state.players} players")
        out["notes"] = notes_to_json(notes, len(state.deck))
    return out


def dumps(state: GameState, players: Sequence[str] | None = None, notes: Sequence[SeatNotes] = (),
          advice_used: bool = False, holders: Sequence[SeatHolder] = (), bot_level: Level | None = None,
          dealt_bots: Iterable[int] = ()) -> str:
    """The replay as JSON text, indented one space a level (as hanab.live's own files are). Text other than
    ASCII is written as it is, not escaped (as hanab.live's exports do): an escaped emoji in a note would take
    twelve characters of the protocol's limit on a replay."""
    return json.dumps(to_json(state, players, notes, advice_used, holders, bot_level, dealt_bots), indent=1,
                      ensure_ascii=False)


def _int(value: object, what: str, low: int, high: int) -> int:
    # bool is an int in Python but never a valid number in a replay.
    if not isinstance(value, int) or isinstance(value, bool):
        raise ReplayError(f"{what} must be a whole number, not {json.dumps(value)}")
    if not low <= value <= high:
        raise ReplayError(f"{what} is {value}, out of range {low}..{high}")
    return value


def _flag(options: dict[str, Any], key: str, default: bool = False) -> bool:
    value = options.get(key, default)
    if not isinstance(value, bool):
        raise ReplayError(f'options.{key} must be true or false, not {json.dumps(value)}')
    return value


def _check_options(options: dict[str, Any]) -> None:
    """Refuse the options this program does not play; check the types of those without effect on the rules."""
    for key, what in UNSUPPORTED_OPTIONS.items():
        if _flag(options, key):
            raise ReplayError(f"the option {key} ({what}) is not played here: this program cannot replay the game")
    for key, kind in _RULELESS_OPTIONS.items():
        if key in options:
            if kind is bool:
                _flag(options, key)
            else:
                _int(options[key], f"options.{key}", 0, 2**31 - 1)


def _timers(options: dict[str, Any]) -> dict[str, Any]:
    """The config's clock fields from hanab.live's ``timed``/``timeBase``/``timePerTurn`` (already type-checked)."""
    if not _flag(options, "timed"):
        return {}
    base = _int(options.get("timeBase", TIME_BASE), "options.timeBase", 1, MAX_TIME)
    return {"timed": True, "time_base": base,
            "time_per_turn": _int(options.get("timePerTurn", TIME_PER_TURN), "options.timePerTurn", 0, MAX_TIME)}


def _holders(options: dict[str, Any], seats: int) -> tuple[SeatHolder, ...]:
    """The file's ``seatHolders``, checked (none: no seat changed hands)."""
    raw = options.get(SEAT_HOLDERS, [])
    if not isinstance(raw, list):
        raise ReplayError(f"options.{SEAT_HOLDERS} must be a list of {{turn, seat, name, bot}}")
    out = []
    for i, item in enumerate(raw[:_HOLDERS_MAX]):
        what = f"options.{SEAT_HOLDERS}[{i}]"
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise ReplayError(f"{what} must be an object with turn, seat and a name")
        bot = item.get("bot", False)
        if not isinstance(bot, bool):
            raise ReplayError(f"{what}.bot must be true or false, not {json.dumps(bot)}")
        out.append(SeatHolder(_int(item.get("turn"), f"{what}.turn", 0, 2**31 - 1),
                              _int(item.get("seat"), f"{what}.seat", 0, seats - 1), item["name"], bot))
    return tuple(out)


def _bot_level(options: dict[str, Any]) -> Level | None:
    """The file's ``botLevel``, checked (None: the file does not say who the bots were)."""
    level = options.get(BOT_LEVEL)
    if level is None:
        return None
    if isinstance(level, str) and level in LEVELS:
        return known_level(level)
    known = ", ".join(f'"{name}"' for name in LEVELS)
    raise ReplayError(f"options.{BOT_LEVEL} is {json.dumps(level)}, not a convention level: it is one of {known}")


def from_json(data: object) -> Replay:
    """Build the game a replay describes, checking the deck and every action."""
    if not isinstance(data, dict):
        raise ReplayError("a replay must be a JSON object with players, deck and actions")
    for key in ("players", "deck", "actions"):
        if key not in data:
            raise ReplayError(f'the replay has no "{key}"')
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ReplayError('"players" must be a list of names')
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ReplayError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, this replay has {len(players)}")
    for seat, name in enumerate(players):
        problem = name_problem(name)
        if problem is not None:
            shown = json.dumps(name if len(name) <= 40 else name[:40] + "...")
            raise ReplayError(f"player {seat + 1}'s name {shown} {problem}: a name is 1 to {NAME_MAX} characters, "
                              "like a player's name at a table")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ReplayError('"options" must be an object')
    name = options.get("variant", Variant.NONE.value)
    if not isinstance(name, str):
        raise ReplayError(f"options.variant must be a variant's name, not {json.dumps(name)}")
    try:
        variant = Variant(name)
    except ValueError:
        known = ", ".join(f'"{v.value}"' for v in Variant)
        raise ReplayError(f"unknown variant {json.dumps(name)}: this program plays {known}") from None
    first = options.get("startingPlayer", data.get("firstPlayer", 0))
    first = _int(first, "options.startingPlayer", 0, len(players) - 1)
    _check_options(options)
    config = GameConfig(players=len(players), variant=variant, empty_clues=_flag(options, "emptyClues"),
                        all_or_nothing=_flag(options, "allOrNothing"), first_seat=first,
                        deck_plays=_flag(options, "deckPlays"),
                        end_when_no_points=_flag(options, NO_EARLY_END, default=True), **_timers(options))

    deck_data = data["deck"]
    if not isinstance(deck_data, list):
        raise ReplayError('"deck" must be a list of cards')
    deck = []
    for i, item in enumerate(deck_data):
        if not isinstance(item, dict) or "suitIndex" not in item or "rank" not in item:
            raise ReplayError(f"deck card {i} must be an object with suitIndex and rank")
        suit = _int(item["suitIndex"], f"deck card {i} suitIndex", 0, len(variant.suits) - 1)
        rank = _int(item["rank"], f"deck card {i} rank", RANKS[0], RANKS[-1])
        deck.append(Card(variant.suits[suit], rank))
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, (str, int)) or isinstance(seed, bool)):
        raise ReplayError('"seed" must be a string or a whole number')
    try:
        state = game_from_deck(config, deck, seed)
    except IllegalAction as e:
        raise ReplayError(str(e)) from None

    actions = data["actions"]
    if not isinstance(actions, list):
        raise ReplayError('"actions" must be a list')
    notes: tuple[dict[int, str], ...] = ()
    if data.get("notes") is not None:
        read = notes_from_json(data["notes"], len(players), len(deck))
        if isinstance(read, str):
            raise ReplayError(read)
        notes = read
    advised = _flag(options, ADVICE_USED)
    holders = _holders(options, len(players))
    level = _bot_level(options)
    try:
        return Replay(_play_out(state, actions, players, holders), tuple(players), notes, advised, holders, level)
    except _PlayedOn:
        # The moves go on where no more points could be scored: the server did not end games there (hanab.live
        # before mid-2020 did not always), so the game is replayed as it was played, without the early end.
        state = replace(state, config=replace(state.config, end_when_no_points=False))
        return Replay(_play_out(state, actions, players, holders), tuple(players), notes, advised, holders, level)


class _PlayedOn(Exception):
    """Actions follow an end that only the ``end_when_no_points`` option made."""


def _play_out(state: GameState, actions: list[Any], players: Sequence[str],
              holders: Sequence[SeatHolder]) -> GameState:
    for i, raw in enumerate(actions):
        if state.outcome is not None:
            if state.outcome.reason is EndReason.NO_MORE_POINTS:
                raise _PlayedOn
            raise ReplayError(f"action {i} comes after the end of the game ({state.outcome.detail})")
        try:
            action = _parse_action(raw, state, i, names_at(players, holders, state.turn))
            if isinstance(action, tuple):
                condition, detail = action
                state = time_out(state, detail) if condition == TIMEOUT else terminate(state, detail)
            else:
                state = apply(state, action)
        except IllegalAction as e:
            raise ReplayError(f"action {i} ({json.dumps(raw)}) is illegal: {e}") from None
    return state


def _parse_action(raw: object, state: GameState, i: int, players: Sequence[str]) -> TurnAction | tuple[int, str]:
    """The turn action ``raw`` names, or for a game-over action its end condition and the sentence saying why the
    game ended."""
    if not isinstance(raw, dict):
        raise ReplayError(f"action {i} must be an object with type and target")
    if "type" not in raw or "target" not in raw:
        raise ReplayError(f"action {i} needs a type and a target")
    kind = _int(raw["type"], f"action {i} type", PLAY, GAME_OVER_BY_VOTE)
    if kind == GAME_OVER_BY_VOTE:
        _int(raw["target"], f"action {i} target (-1 for a vote)", -1, -1)
        _int(raw.get("value", TERMINATED_BY_VOTE), f"action {i} end condition of a vote", TERMINATED_BY_VOTE,
             TERMINATED_BY_VOTE)
        return TERMINATED_BY_VOTE, _END_CONDITIONS[TERMINATED_BY_VOTE]
    if kind == GAME_OVER:
        seat = _int(raw["target"], f"action {i} target (the seat that ended the game, or -1)", -1, state.players - 1)
        condition = _int(raw.get("value", 0), f"action {i} end condition", 0, TERMINATED_BY_VOTE)
        if condition not in _END_CONDITIONS:
            known = ", ".join(str(c) for c in _END_CONDITIONS if c)
            raise ReplayError(f"action {i} ends the game with condition {json.dumps(condition)}, "
                              f"which is not one of hanab.live's ({known})")
        return condition, _END_CONDITIONS[condition].format(who=players[seat] if seat >= 0 else "a player")
    fields: dict[str, object]
    if kind in (PLAY, DISCARD):
        order = _int(raw["target"], f"action {i} target (a card order)", 0, len(state.deck) - 1)
        fields = {"kind": "play" if kind == PLAY else "discard", "order": order}
    else:
        target = _int(raw["target"], f"action {i} target (a seat)", 0, state.players - 1)
        if "value" not in raw:
            raise ReplayError(f"action {i} is a clue without a value")
        if kind == COLOUR_CLUE:
            colours = state.config.variant.clue_colours
            colour = colours[_int(raw["value"], f"action {i} colour", 0, len(colours) - 1)]
            fields = {"kind": "clue", "target": target, "colour": colour.value}
        else:
            rank = _int(raw["value"], f"action {i} rank", RANKS[0], RANKS[-1])
            fields = {"kind": "clue", "target": target, "rank": rank}
    try:
        return turn_action_from_fields(fields)
    except ActionFieldError as e:
        raise ReplayError(f"action {i}: {e}") from None


def load(path: str | Path) -> Replay:
    """Read and check a replay file; every problem is a ``ReplayError`` naming what is wrong."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReplayError("no such file") from None
    except IsADirectoryError:
        raise ReplayError("that is a folder, not a replay file") from None
    except UnicodeDecodeError:
        raise ReplayError("the file is not UTF-8 text") from None
    except OSError as e:
        raise ReplayError(f"cannot read the file: {e.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReplayError(f"not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except RecursionError:
        raise ReplayError("not a replay: the JSON is nested too deeply") from None
    except ValueError:  # the only other thing json.loads refuses: an integer of thousands of digits
        raise ReplayError("not a replay: it holds a number too long to read") from None
    return from_json(data)


def summary(state: GameState) -> dict[str, Any]:
    """The figures ``hanabi-replay --json`` prints for one game."""
    outcome = state.outcome
    return {
        "score": state.score,
        "max_score": state.config.max_score,
        "strikes": state.strikes,
        "clue_tokens": state.clue_tokens,
        "fireworks": list(state.fireworks),
        "turns": state.turn,
        "end": outcome.reason.value if outcome is not None else "in_progress",
        "deck_left": state.deck_left,
        "variant": state.config.variant.value,
        "players": state.players,
        "rating": outcome.rating if outcome is not None else None,
        "detail": outcome.detail if outcome is not None else None,
    }

