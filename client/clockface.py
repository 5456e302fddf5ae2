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
    ``width``, the pause is said in as few words as make it fit on its line."""
    clock, view = model.clock, model.view
    # Rewinding shows an earlier step (``Link.REPLAY``) with the live clocks: they go on running meanwhile.
    rewinding = model.link is Link.REPLAY
    out: StyleAndTextTuples = []
    if clock is not None and clock.remaining and view is not None and view.outcome is None:
        out.append(("class:label", "Clocks now " if rewinding else "Clocks "))
        for seat in range(len(clock.remaining)):
            left = bank_left(model, seat, now)
            style = "class:clock.low" if left < LOW else "class:clock"
            mark = "▶" if clock.running == seat else " "
            name, time = bank_parts(model.names, seat, left)
            out += [("class:label", f" {mark}{name} "), (style, time)]
        if clock.running is not None and model.link not in (Link.ONLINE, Link.REPLAY):
            out.append(("class:label", "  (stopped while not connected)"))  # bank_left stopped counting it
    if clock is not None and clock.paused and view is not None and view.outcome is None:
        # Only a seated player resumes a pause someone made (one made for an absent player ends on their return).
        resumes = " (z resumes)" if model.seat is not None and clock.paused_by is not None else ""
        # Paused for the absent player to act: said short, so the line fits beside the clocks (the log and the
        # status said the server's whole sentence when it paused).
        away = seat_name(model.names, view.current)
        said = (clock.note, f"paused by {clock.paused_by}") if clock.paused_by is not None \
            else (f"paused until {away} is back",)
        out += _pause_fragments((*said, "paused"), resumes, out, width)
    queued = model.premove
    # Not while rewinding: the slot would be counted in the hand of the step shown, not the one held now.
    if queued is not None and queued.order is not None and view is not None and view.seat is not None \
            and not rewinding:
        hand = [cv.order for cv in view.hands[view.seat]]
        slot = f"slot {hand.index(queued.order) + 1}" if queued.order in hand else f"card #{queued.order}"
        verb = "play" if queued.kind is PreMoveKind.PLAY else "discard"
        out += [("", "  " if out else ""), ("class:clock.queued", f"queued: {verb} {slot} (u cancels)")]
    return out


def _pause_fragments(sentences: tuple[str, ...], resumes: str, before: StyleAndTextTuples,
                     width: int | None) -> StyleAndTextTuples:
    """The pause, after the clocks (``before``): the first of ``sentences`` (longest first) that fits the line
    with the key that resumes it, which is never the part cut (four players' clocks fill most of 80 columns);
    on a line of its own when not even the shortest fits beside them."""
    used = sum(columns(fragment[1]) for fragment in before) + (2 if before else 0)
    for room, gap in ((None if width is None else width - used, "  " if before else ""), (width, "\n")):
        for sentence in sentences:
            said = f"⏸ {sentence}{resumes}"
            if room is None or columns(said) <= room:
                return [("", gap), ("class:clock.paused", said)]
    return [("", "\n" if before else ""), ("class:clock.paused", f"⏸ {sentences[-1]}{resumes}")]
