"""The store's own text form of actions and game configs: small JSON objects, independent of the wire protocol
so that either can change alone. Reading one back raises ValueError, KeyError or TypeError when it is malformed
(the store then gives up that table only)."""

from __future__ import annotations

import json
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
    return json.dumps({
        "players": config.players, "variant": config.variant.value, "empty_clues": config.empty_clues,
        "all_or_nothing": config.all_or_nothing, "first_seat": config.first_seat, "chat": config.chat.value,
        "end_when_no_points": config.end_when_no_points, "deck_plays": config.deck_plays,
        "timed": config.timed, "time_base": config.time_base, "time_per_turn": config.time_per_turn,
    })


def config_from_text(text: str) -> GameConfig:
    d = json.loads(text)
    # Games stored before hanab.live's two options (or timed tables) existed played without them.
    return GameConfig(players=d["players"], variant=Variant(d["variant"]), empty_clues=d["empty_clues"],
                      all_or_nothing=d["all_or_nothing"], first_seat=d["first_seat"], chat=ChatPolicy(d["chat"]),
                      end_when_no_points=d.get("end_when_no_points", False), deck_plays=d.get("deck_plays", False),
                      timed=d.get("timed", False), time_base=d.get("time_base", TIME_BASE),
                      time_per_turn=d.get("time_per_turn", TIME_PER_TURN))
