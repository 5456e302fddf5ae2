"""The game at a glance, one line under the tokens: maximum score, pace and clue efficiency.

The figures are the engine's (``hanabi.engine.glance``); this module only
writes them, shortest last when the terminal is narrow. The maximum names
the cards that lowered it ("max 23: R4 B5 gone"); pace turns red at zero or
below, when any discard may cost a point; the required efficiency turns red
when it is above what the deal asked for (the team is behind).
"""

from __future__ import annotations

from hanabi.engine import Glance, PlayerView, glance
from prompt_toolkit.formatted_text import StyleAndTextTuples


def _figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def glance_fragments(view: PlayerView, width: int = 80) -> StyleAndTextTuples:
    """The glance line for ``view``, fitted to ``width``: the parts that do not fit are left out, least useful first."""
    g = glance(view)
    return _fit(_parts(g, view.config.max_score), width)


def _parts(g: Glance, variant_max: int) -> list[tuple[str, StyleAndTextTuples]]:
    """(name, fragments) of each part of the line, in the order they show."""
    lost = " ".join(str(c) for c in g.lost)
    maximum: StyleAndTextTuples = [("class:label", "Max "),
                                   ("class:glance.short" if g.max_score < variant_max else "class:glance",
                                    str(g.max_score))]
    if lost:
        maximum.append(("class:glance.short", f" ({lost} gone)"))
    pace: StyleAndTextTuples = [("class:label", "  Pace "),
                                ("class:glance.short" if g.pace is not None and g.pace <= 0 else "class:glance",
                                 "-" if g.pace is None else str(g.pace))]
    behind = g.required is not None and g.required > g.starting
    efficiency: StyleAndTextTuples = [
        ("class:label", "  Eff "), ("class:glance", _figure(g.efficiency)),
        ("class:label", " need "), ("class:glance.short" if behind else "class:glance", _figure(g.required)),
    ]
    start: StyleAndTextTuples = [("class:label", f" (deal {g.starting:.2f})")]
    gotten: StyleAndTextTuples = [
        ("class:label", f"  {plural(g.cards_gotten, 'card')} for {plural(g.clues_spent, 'clue')}")]
    return [("max", maximum), ("pace", pace), ("eff", efficiency), ("start", start), ("gotten", gotten)]


def plural(count: int, word: str) -> str:
    """ "1 clue", "3 clues"."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def _fit(parts: list[tuple[str, StyleAndTextTuples]], width: int) -> StyleAndTextTuples:
    def size(chosen: list[tuple[str, StyleAndTextTuples]]) -> int:
        return sum(len(text) for _, fragments in chosen for _, text, *_ in fragments)

    for leave_out in ("gotten", "start"):
        if size(parts) <= width:
            break
        parts = [p for p in parts if p[0] != leave_out]
    out: StyleAndTextTuples = [f for _, fragments in parts for f in fragments]
    if size(parts) > width:  # so many lost cards that even the short line is too long: cut it, marked
        text = "".join(t for _, t, *_ in out)
        return [("class:glance", text[: max(0, width - 1)] + "…")]
    return out
