"""Would hanab.live's JSON replay loader take this file and replay it as it was played? Written from FORMAT.md.

hanab.live decodes the pasted object into its Go ``GameJSON`` (a wrong JSON type drops the whole command
without a word; unknown fields are ignored), checks it with ``isJSONValid``, then plays every action
through its live game code, stopping at the first one that is not valid. ``problems(data)`` lists, one
sentence each, everything in ``data`` that would go wrong on that path, plus a ``seed``: hanab.live would
ignore the file's deck and shuffle its own from it, so the actions would replay against another deal.
An empty list means the file loads and replays as written. Standard library only, nothing of ``hanabi``.
"""

from __future__ import annotations

from typing import Any

from .hanablive_reference import Unplayable, result

VARIANT_DECKS = {"No Variant": (5, 5, 50), "6 Suits": (6, 6, 60), "Black (6 Suits)": (6, 6, 55),
                 "Rainbow (6 Suits)": (6, 5, 60)}  # suits, clue colours, cards
OPTION_TYPES = {"startingPlayer": int, "variant": str, "timed": bool, "timeBase": int, "timePerTurn": int,
                "speedrun": bool, "cardCycle": bool, "deckPlays": bool, "emptyClues": bool, "oneExtraCard": bool,
                "oneLessCard": bool, "allOrNothing": bool, "detrimentalCharacters": bool}
END_GAME_VALUES = (3, 4, 6, 8, 10)  # what commandActionEndGame accepts


def _go_int(value: object) -> bool:
    # Go decodes a JSON number into an int only if it is a whole number written without a fraction.
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


def _go_type(value: object, kind: type) -> bool:
    if kind is int:
        return _go_int(value)
    return value is None or (isinstance(value, kind) and not (kind is not bool and isinstance(value, bool)))


def _decode_problems(data: Any) -> list[str]:
    """What Go's decoder into ``GameJSON`` refuses: a field of the wrong JSON type (null is allowed)."""
    if not isinstance(data, dict):
        return ["the file is not a JSON object"]
    out = []
    players = data.get("players")
    if players is not None and not (isinstance(players, list) and all(isinstance(p, str) for p in players)):
        out.append("players is not a list of strings")
    for name, fields in (("deck", ("suitIndex", "rank")), ("actions", ("type", "target", "value"))):
        items = data.get(name)
        if items is None:
            continue
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            out.append(f"{name} is not a list of objects")
            continue
        for i, item in enumerate(items):
            for f in fields:
                if not _go_int(item.get(f)):
                    out.append(f"{name}[{i}].{f} is not a whole number")
    options = data.get("options")
    if options is not None:
        if not isinstance(options, dict):
            out.append("options is not an object")
        else:
            out += [f"options.{k} is not a {t.__name__}" for k, t in OPTION_TYPES.items()
                    if k in options and not _go_type(options[k], t)]
    notes = data.get("notes")
    if notes is not None and not (isinstance(notes, list) and all(
            isinstance(n, list) and all(isinstance(s, str) for s in n) for n in notes)):
        out.append("notes is not a list of lists of strings")
    if "id" in data and not _go_int(data["id"]):
        out.append("id is not a whole number")
    if "seed" in data and not _go_type(data["seed"], str):
        out.append("seed is not a string")
    return out


def _valid_problems(data: dict[str, Any]) -> list[str]:  # noqa: C901 - one check per rule of the loader
    """``isJSONValid``, and the seed that would replace the deck."""
    out = []
    players = data.get("players") or []
    options = data.get("options") or {}
    variant = options.get("variant") or "No Variant"
    if variant not in VARIANT_DECKS:
        return [f"variant {variant!r} is not one of the four this checker knows"]
    suits, colours, cards = VARIANT_DECKS[variant]
    if not 2 <= len(players) <= 6:
        out.append(f"{len(players)} players: hanab.live takes 2 to 6")
    deck = data.get("deck") or []
    if len(deck) != cards:
        out.append(f"the deck has {len(deck)} cards, not {cards}")
    for i, card in enumerate(deck):
        if not (0 <= (card.get("suitIndex") or 0) < suits and 1 <= (card.get("rank") or 0) <= 5):
            out.append(f"deck[{i}] is not a card of {variant}")
    actions = data.get("actions") or []
    if not actions:
        out.append("there is no action: hanab.live needs at least one")
    for i, a in enumerate(actions):
        kind, target, value = a.get("type") or 0, a.get("target") or 0, a.get("value") or 0
        if kind in (0, 1):
            if not 0 <= target < len(deck) or value != 0:
                out.append(f"action {i}: a play or discard names a card order and has value 0")
        elif kind in (2, 3):
            if not 0 <= target < len(players):
                out.append(f"action {i}: a clue's target is not a seat")
            if kind == 2 and not 0 <= value < colours:
                out.append(f"action {i}: colour {value} is not one of {variant}'s {colours} clue colours")
            if kind == 3 and not 1 <= value <= 5:
                out.append(f"action {i}: rank {value} is not 1 to 5")
        elif kind == 4:
            if not 0 <= target < len(players):
                out.append(f"action {i}: a game-over action's target is not a seat")
            if value not in END_GAME_VALUES:
                out.append(f"action {i}: end condition {value} is not one hanab.live accepts {END_GAME_VALUES}")
        elif kind == 5:
            if target != -1 or value != 10:
                out.append(f"action {i}: a vote to end has target -1 and value 10")
        else:
            out.append(f"action {i}: type {kind} is not an action")
    notes = data.get("notes")
    if notes is not None:
        if len(notes) != len(players):
            out.append(f"{len(notes)} lists of notes for {len(players)} players")
        if any(len(n) > cards + suits for n in notes):
            out.append(f"more notes than the {cards} cards and {suits} stack bases")
    if options.get("detrimentalCharacters") and len(data.get("characters") or []) != len(players):
        out.append("detrimental characters without one character per player")
    if data.get("seed"):
        out.append("a seed: hanab.live would ignore this deck and shuffle its own from the seed")
    return out


def problems(data: Any) -> list[str]:
    """Everything that stops hanab.live's JSON loader from taking ``data`` and replaying it as written."""
    found = _decode_problems(data)
    if found:
        return found
    for key in ("players", "deck", "actions"):
        if data.get(key) is None:
            found.append(f"no {key}")
    if found:
        return found
    found = _valid_problems(data)
    if found:
        return found
    try:
        result(data)  # every action through hanab.live's rules, as its loader's emulation does
    except Unplayable as e:
        return [f"an action is not valid in hanab.live: {e}"]
    return []
