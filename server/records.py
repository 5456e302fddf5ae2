"""The store's own text form of actions and game configs: small JSON objects, independent of the wire protocol
so that either can change alone. Reading one back raises ValueError, KeyError or TypeError when it is malformed
(the store then gives up that table only)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
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
from hanabi.engine.bots import Level, table_level


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
class TableOptions:
    """A table's options as its creator chose them: the bots' level (None: ``table_level`` picks), the seed text
    of its deals (None: random), hanab.live's two rule options, a timed table's clock (base, bonus; None: untimed)."""

    level: Level | None = None
    seed: str | None = None
    end_when_no_points: bool = False
    deck_plays: bool = False
    timer: tuple[int, int] | None = None

    @property
    def timed(self) -> bool:
        return self.timer is not None

    @property
    def time_base(self) -> int:
        return self.timer[0] if self.timer is not None else TIME_BASE

    @property
    def time_per_turn(self) -> int:
        return self.timer[1] if self.timer is not None else TIME_PER_TURN


def options_to_text(options: TableOptions) -> str:
    return json.dumps(asdict(options))


def options_from_text(text: str) -> TableOptions:
    d = json.loads(text)
    level = d.get("level")
    seed = d.get("seed")
    if seed is not None and not isinstance(seed, str):
        raise TypeError(f"a stored seed must be text, not {seed!r}")
    timer = d.get("timer")  # absent from options stored before the clock joined them
    return TableOptions(level=None if level is None else table_level(level, 2, None), seed=seed,
                        end_when_no_points=bool(d.get("end_when_no_points", False)),
                        deck_plays=bool(d.get("deck_plays", False)),
                        timer=None if timer is None else (int(timer[0]), int(timer[1])))
