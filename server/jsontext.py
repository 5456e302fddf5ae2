"""JSON text exactly as ``json.dumps(value, indent=1)`` writes it, several times faster.

Every finished game sends its players the replay file (``engine.replay.dumps``,
indented JSON that people open and diff). The standard library writes
indented JSON with its pure-Python encoder only (its C encoder does not
indent), and at game end that took 5 to 7% of the server's time under the
load test. This writer walks the same trees (dicts, lists, strings, ints,
booleans, None) with one plain function call per value and the C string
escaper, and gives byte for byte the same text; anything else (a float, an
enum, a key that is not a string) goes to ``json.dumps`` itself.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring_ascii  # the C escaper when the interpreter has it
from typing import Any

from hanabi.engine import GameState, replay


def replay_text(state: GameState, players: tuple[str, ...]) -> str:
    """``engine.replay.dumps(state, players)``, the same text."""
    return dumps_indented(replay.to_json(state, players))


class _NotPlain(Exception):
    """``_write`` met something it does not write (``dumps_indented`` leaves the whole value to ``json``)."""


def dumps_indented(value: Any) -> str:
    """``json.dumps(value, indent=1)``."""
    out: list[str] = []
    try:
        _write(value, out, "\n")
    except (_NotPlain, RecursionError):  # json says what it makes of it (a circular or too deep value)
        return json.dumps(value, indent=1)
    return "".join(out)


def _write(value: Any, out: list[str], newline: str) -> None:
    """Append ``value`` to ``out``; ``newline`` is a newline and the indentation of the line ``value`` is on."""
    kind = type(value)
    if kind is dict:
        if not value:
            out.append("{}")
            return
        inner = newline + " "
        separator = "{" + inner
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            # Scalars are written here rather than by a call per value: a replay is mostly small dicts of ints.
            scalar = _scalar(item)
            if scalar is None:
                out.append(f"{separator}{encode_basestring_ascii(key)}: ")
                _write(item, out, inner)
            else:
                out.append(f"{separator}{encode_basestring_ascii(key)}: {scalar}")
            separator = "," + inner
        out.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = newline + " "
        separator = "[" + inner
        for item in value:
            scalar = _scalar(item)
            if scalar is None:
                out.append(separator)
                _write(item, out, inner)
            else:
                out.append(separator + scalar)
            separator = "," + inner
        out.append(newline + "]")
    else:
        scalar = _scalar(value)
        if scalar is None:  # a float, a str or int subclass (an enum): exactly how json writes it is json's business
            raise _NotPlain
        out.append(scalar)


def _scalar(value: Any) -> str | None:
    """The JSON text of a string, int, boolean or None; None for anything else."""
    kind = type(value)
    if kind is int:
        return int.__repr__(value)
    if kind is str:
        return encode_basestring_ascii(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    return None
