"""A table's settings, and the store's own text form of them, of actions and of game configs: small JSON objects,
independent of the wire protocol so that either can change alone. Reading one back raises ValueError, KeyError or
TypeError when it is malformed (the store then gives up that table only)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace

from hanabi.engine import (
    TIME_BASE,
    TIME_PER_TURN,
    Action,
    ChatPolicy,
    GameConfig,
    Variant,
)
from hanabi.engine.action_fields import ALL_KINDS, action_fields, action_from_fields
from hanabi.engine.bots import Level, known_level
from hanabi.protocol import CreateTable

# The store's keys for an action's fields (``hanabi.engine.action_fields``), one letter each, as every record on
# disk has them; a field an action does not use is left out.
_STORED_KEY = {"kind": "k", "order": "o", "target": "t", "colour": "c", "rank": "r", "seat": "s", "hand": "h"}
_FIELD_OF = {key: name for name, key in _STORED_KEY.items()}


def action_to_text(action: Action) -> str:
    """The stored JSON text of ``action``: its fields under the store's keys, compact."""
    data = {_STORED_KEY[name]: value for name, value in action_fields(action).items() if value is not None}
    return json.dumps(data, separators=(",", ":"))


def action_from_text(text: str) -> Action:
    """The action of a stored text; raises ValueError (``ActionFieldError``) when it names none."""
    data = json.loads(text)
    if type(data) is not dict:
        raise ValueError(f"a stored action is a JSON object, not {text[:40]!r}")
    return action_from_fields({_FIELD_OF[key]: value for key, value in data.items() if key in _FIELD_OF}, ALL_KINDS)


def config_to_text(config: GameConfig) -> str:
    return json.dumps({**asdict(config), "variant": config.variant.value, "chat": config.chat.value})


def config_from_text(text: str) -> GameConfig:
    d = json.loads(text)  # a key a game stored before its option existed is absent: the option's default
    return GameConfig(**{**d, "variant": Variant(d["variant"]), "chat": ChatPolicy(d["chat"])})


@dataclass(frozen=True, slots=True)
class TableSettings:
    """A table as its creator set it up: the config of every game it deals (``players``: its seats), the bots'
    level (None: ``table_level`` picks), the seed text of its deals (None: random) and whether its players may
    ask the coach for advice."""

    game: GameConfig = field(default_factory=GameConfig)
    level: Level | None = None
    seed: str | None = None
    advice: bool = False


# The choices a table, its ``TableInfo`` and the ``CreateTable`` that opened it share with the games it deals.
GAME_CHOICES = ("variant", "empty_clues", "all_or_nothing", "chat", "end_when_no_points", "deck_plays", "timed",
                "time_base", "time_per_turn")


def settings_of(request: CreateTable) -> TableSettings:
    """What a ``create_table`` asks for; an untimed table's clock is the default one, whatever the request said."""
    game = GameConfig(players=request.seats, **{k: getattr(request, k) for k in GAME_CHOICES})
    if not game.timed:
        game = replace(game, time_base=TIME_BASE, time_per_turn=TIME_PER_TURN)
    return TableSettings(game, request.level, request.seed, request.advice)


# The columns of the store's ``tables`` row, then the JSON text of its ``table_choices`` row (``choices_text``).
COLUMNS = "variant, empty_clues, all_or_nothing, chat, seats"


def columns(settings: TableSettings) -> tuple[str, bool, bool, str, int]:
    game = settings.game
    return game.variant.value, game.empty_clues, game.all_or_nothing, game.chat.value, game.players


def choices_text(settings: TableSettings) -> str:
    game = settings.game
    return json.dumps({"level": settings.level, "seed": settings.seed, "end_when_no_points": game.end_when_no_points,
                       "deck_plays": game.deck_plays,
                       "timer": [game.time_base, game.time_per_turn] if game.timed else None,
                       "advice": settings.advice})


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
    return TableSettings(game, None if level is None else known_level(level), seed, bool(d.get("advice", False)))
