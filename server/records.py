"""A table's settings, and the store's own text form of them, of actions and of game configs: small JSON objects,
independent of the wire protocol so that either can change alone. Reading one back raises ValueError, KeyError or
TypeError when it is malformed (the store then gives up that table only)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from hanabi.engine import (
    TIME_BASE,
    TIME_PER_TURN,
    Action,
    ChatPolicy,
    Clue,
    Discard,
    GameConfig,
    Play,
    Rearrange,
    Suit,
    Variant,
)
from hanabi.engine.bots import Level, known_level
from hanabi.protocol import CreateTable


def action_to_text(action: Action) -> str:
    """The stored JSON text of ``action``: a small dict, compact."""
    if isinstance(action, Play):
        data: dict[str, Any] = {"k": "play", "o": action.order}
    elif isinstance(action, Discard):
        data = {"k": "discard", "o": action.order}
    elif isinstance(action, Clue):
        data = {"k": "clue", "t": action.target}
        if action.colour is not None:
            data["c"] = action.colour.value
        else:
            data["r"] = action.rank
    else:
        data = {"k": "rearrange", "s": action.seat, "h": list(action.hand)}
    return json.dumps(data, separators=(",", ":"))


_SUIT_BY_NAME = {s.value: s for s in Suit}


def action_from_text(text: str) -> Action:
    data = json.loads(text)
    kind = data["k"]
    if kind == "play":
        return Play(int(data["o"]))
    if kind == "discard":
        return Discard(int(data["o"]))
    if kind == "clue":
        if "c" in data:
            return Clue(int(data["t"]), colour=_SUIT_BY_NAME[data["c"]])
        return Clue(int(data["t"]), rank=int(data["r"]))
    if kind == "rearrange":
        return Rearrange(int(data["s"]), tuple(int(o) for o in data["h"]))
    raise ValueError(f"unknown stored action kind {kind!r}")


def config_to_text(config: GameConfig) -> str:
    return json.dumps({**asdict(config), "variant": config.variant.value, "chat": config.chat.value})


def config_from_text(text: str) -> GameConfig:
    d = json.loads(text)  # a key a game stored before its option existed is absent: the option's default
    return GameConfig(**{**d, "variant": Variant(d["variant"]), "chat": ChatPolicy(d["chat"])})


@dataclass(frozen=True, slots=True)
class TableSettings:
    """A table as its creator set it up: the config of every game it deals (``players``: its seats), the bots'
    level (None: ``table_level`` picks) and the seed text of its deals (None: random)."""

    game: GameConfig = field(default_factory=GameConfig)
    level: Level | None = None
    seed: str | None = None


# The choices a table, its ``TableInfo`` and the ``CreateTable`` that opened it share with the games it deals.
GAME_CHOICES = ("variant", "empty_clues", "all_or_nothing", "chat", "end_when_no_points", "deck_plays", "timed",
                "time_base", "time_per_turn")


def settings_of(request: CreateTable) -> TableSettings:
    """What a ``create_table`` asks for; an untimed table's clock is the default one, whatever the request said."""
    game = GameConfig(players=request.seats, **{k: getattr(request, k) for k in GAME_CHOICES})
    if not game.timed:
        game = replace(game, time_base=TIME_BASE, time_per_turn=TIME_PER_TURN)
    return TableSettings(game, request.level, request.seed)


# The columns of the store's ``tables`` row, then the JSON text of its ``table_choices`` row (``choices_text``).
COLUMNS = "variant, empty_clues, all_or_nothing, chat, seats"


def columns(settings: TableSettings) -> tuple[str, bool, bool, str, int]:
    game = settings.game
    return game.variant.value, game.empty_clues, game.all_or_nothing, game.chat.value, game.players


def choices_text(settings: TableSettings) -> str:
    game = settings.game
    return json.dumps({"level": settings.level, "seed": settings.seed, "end_when_no_points": game.end_when_no_points,
                       "deck_plays": game.deck_plays,
                       "timer": [game.time_base, game.time_per_turn] if game.timed else None})


PLAIN_CHOICES = choices_text(TableSettings())  # a table with none of them chosen keeps no ``table_choices`` row


def settings_from_row(variant: str, empty_clues: int, all_or_nothing: int, chat: str, seats: int,
                      choices: str | None) -> TableSettings:
    d = json.loads(choices) if choices is not None else {}  # a key stored before its option existed is absent
    level = d.get("level")
    seed = d.get("seed")
    if seed is not None and not isinstance(seed, str):
        raise TypeError(f"a stored seed must be text, not {seed!r}")
    timer = d.get("timer")
    game = GameConfig(players=seats, variant=Variant(variant), empty_clues=bool(empty_clues),
                      all_or_nothing=bool(all_or_nothing), chat=ChatPolicy(chat),
                      end_when_no_points=bool(d.get("end_when_no_points", False)),
                      deck_plays=bool(d.get("deck_plays", False)), timed=timer is not None,
                      time_base=TIME_BASE if timer is None else int(timer[0]),
                      time_per_turn=TIME_PER_TURN if timer is None else int(timer[1]))
    return TableSettings(game, None if level is None else known_level(level), seed)
