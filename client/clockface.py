"""The game's clocks, pause and queued move as the game screen shows them, on one line above the board.

The server sends each bank as it stood when a ``clock`` message left, and
which bank is running; between two messages the client counts the running
bank down by itself from when the message arrived (the server sends none
while a bank runs). A bank under ``LOW`` seconds is drawn as a warning.
"""

from __future__ import annotations

from hanabi.protocol import PreMoveKind
from prompt_toolkit.formatted_text import StyleAndTextTuples

from .board import bank_parts, seat_name
from .model import ClientModel, Link
from .wrapping import columns

LOW = 20.0  # seconds: a bank below this is shown as a warning
REDRAW_EVERY = 0.5  # seconds between redraws of the game screen, so a running clock is seen counting down


def bank_left(model: ClientModel, seat: int, now: float) -> float:
    """Seconds in ``seat``'s bank at ``now`` (time.monotonic), counted down locally when it runs."""
    clock = model.clock
    if clock is None or seat >= len(clock.remaining):
        return 0.0
    left = clock.remaining[seat] / 1000
    if clock.running == seat and model.clock_at is not None:
        left -= max(0.0, now - model.clock_at)
    return max(0.0, left)


def time_fragments(model: ClientModel, now: float, width: int | None = None) -> StyleAndTextTuples:
    """Each player's clock (the running one marked ▶, low ones in the warning style), the pause and our queued
    move; empty when there is nothing to say (an untimed game, going on, nothing queued). Given the screen's
    ``width``, a line ends before a clock that would pass it (a player's clock is never split), and the pause is
    said in as few words as make it fit (see ``_with_pause``)."""
    clock, view = model.clock, model.view
    # Rewinding shows an earlier step (``Link.REPLAY``) with the live clocks: they go on running meanwhile.
    rewinding = model.link is Link.REPLAY
    pieces: list[Piece] = []
    if clock is not None and clock.remaining and view is not None and view.outcome is None:
        pieces.append(("  ", [("class:label", "Clocks now " if rewinding else "Clocks ")]))  # gap: after a pause
        for seat in range(len(clock.remaining)):
            left = bank_left(model, seat, now)
            style = "class:clock.low" if left < LOW else "class:clock"
            mark = "▶" if clock.running == seat else " "
            name, time = bank_parts(model.names, seat, left)
            # No gap of its own: its first space starts a line it begins, as an indent.
            pieces.append(("", [("class:label", f" {mark}{name} "), (style, time)]))
        if clock.running is not None and model.link not in (Link.ONLINE, Link.REPLAY):
            pieces.append(("  ", [("class:label", "(stopped while not connected)")]))  # bank_left stopped it
    out = _packed(pieces, width)
    if clock is not None and clock.paused and view is not None and view.outcome is None:
        # Only a seated player resumes a pause someone made (one made for an absent player ends on their return).
        resumes = " (z resumes)" if model.seat is not None and clock.paused_by is not None else ""
        # Paused for the absent player to act: said short, so the line fits beside the clocks (the log and the
        # status said the server's whole sentence when it paused).
        away = seat_name(model.names, view.current)
        said = (clock.note, f"paused by {clock.paused_by}") if clock.paused_by is not None \
            else (f"paused until {away} is back",)
        out = _with_pause([f"⏸ {sentence}{resumes}" for sentence in (*said, "paused")], pieces, width)
    queued = model.premove
    # Not while rewinding: the slot would be counted in the hand of the step shown, not the one held now.
    if queued is not None and queued.order is not None and view is not None and view.seat is not None \
            and not rewinding:
        hand = [cv.order for cv in view.hands[view.seat]]
        slot = f"slot {hand.index(queued.order) + 1}" if queued.order in hand else f"card #{queued.order}"
        verb = "play" if queued.kind is PreMoveKind.PLAY else "discard"
        out += [("", "  " if out else ""), ("class:clock.queued", f"queued: {verb} {slot} (u cancels)")]
    return out


Piece = tuple[str, StyleAndTextTuples]  # a part of the clocks' line: the gap before it, then its fragments


def _packed(pieces: list[Piece], width: int | None) -> StyleAndTextTuples:
    """``pieces`` in a row, a new line started before one that would pass ``width`` (its gap dropped there)."""
    out: StyleAndTextTuples = []
    used = 0
    for gap, fragments in pieces:
        size = sum(columns(fragment[1]) for fragment in fragments)
        if out and width is not None and used + len(gap) + size > width:
            out.append(("", "\n"))
            used = 0
        elif out:
            out.append(("", gap))
            used += len(gap)
        out += fragments
        used += size
    return out


def _with_pause(said: list[str], clocks: list[Piece], width: int | None) -> StyleAndTextTuples:
    """The clocks with the pause, ``said`` in one of its sentences (longest first), each ending with the key that
    resumes it, which is never the part cut: at the end of the clocks' line when all of it fits on one; else
    first, so that a short screen, keeping only the first of the clocks' lines, still shows it, in the sentence
    that leaves the clocks the fewest lines."""
    def pause(text: str, gap: str) -> Piece:
        return gap, [("class:clock.paused", text)]

    if width is None:
        return _packed([*clocks, pause(said[0], "  ")], None)
    for text in said:
        line = _packed([*clocks, pause(text, "  ")], width)
        if _shape(line, width) == (False, 0):
            return line
    # No line too wide for the screen, then the fewest lines; of those, the longest sentence (``min`` keeps the first).
    return min((_packed([pause(text, ""), *clocks], width) for text in said), key=lambda laid: _shape(laid, width))


def _shape(fragments: StyleAndTextTuples, width: int) -> tuple[bool, int]:
    """Whether a line of ``fragments`` passes ``width``, and how many line breaks they hold."""
    lines = "".join(fragment[1] for fragment in fragments).split("\n")
    return any(columns(line) > width for line in lines), len(lines) - 1
