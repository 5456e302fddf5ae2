"""Notes on cards in the client: the ``n`` key, ``:note``, the marks on the board and the notes panel (``N``).

A note is written on a card: ``n``, then the seat number of whoever holds it
(your own included), then its slot; the prompt then shows the card's note in
full; the first key typed starts the note on the command line (the short
notes f finessed, cm chop moved, kt known trash, b bluffed are offered),
Enter edits the note there is and Backspace or Delete deletes it. Typed
there, ``note SLOT TEXT`` (your own hand) and ``note NAME SLOT TEXT``
(another player's) do the same. The server keeps the notes (``write_note``) and sends
back the writer's whole set (``notes``): the model holds what it said, and
this module draws from it. A card with a note is marked ``*``; on your own
hand a note naming a card ("r1", "red 1") shows as that card, ``R1?``, or
``R1≠`` when a clue says the card cannot be it (the engine's knowledge
judges; ``≠``, since the board's ``!`` means a last copy). Like ``keys.py``,
the key sequence is plain state, tested directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hanabi.engine import (
    Card,
    CardView,
    Discard,
    Play,
    PlayerView,
    TurnEvent,
    contradicted,
    likely_identity,
    note_problem,
    note_target_problem,
)
from prompt_toolkit.formatted_text import StyleAndTextTuples

from .board import seat_name
from .cardtext import card_fragments, clue_marks
from .commands import CommandError, LineKept, NoteIntent, find_player
from .judge import NO_GAME
from .keys import KeyRefused, Prompt
from .model import ClientModel

# What the short notes hanab.live players use mean (the note's prompt offers them to type).
MEANINGS = {"f": "finessed", "cm": "chop moved", "kt": "known trash", "b": "bluffed"}
# The note's prompt: a printable key starts typing the note with it (a newcomer types straight away), Enter
# edits the note there is, Backspace or Delete deletes it (passed on as this key, which no one types).
DELETE_KEY = "\x7f"
EDIT_KEY = "\r"
PANEL_ROWS = 8  # notes the panel surely shows at 80x24 with five players (more: it says PgDn scrolls)
PROMPT_ROOM = 2 * 80 - 2  # the status bar's two lines at 80 columns, less its margin
MARK = "*"
# After the card a note names on our own card: likely it, or a clue says it cannot be it. Not "!", which after a
# card means the last copy (knowledge.py), and both can follow the same card.
LIKELY, CONTRADICTED = "?", "≠"


@dataclass(frozen=True, slots=True)
class EditNote:
    """Open the command line with ``line`` typed, so the player writes the note's text; ``head`` is the part of
    it that names the card (``note 3 ``), which Ctrl-U leaves."""

    line: str
    head: str = ""


# A step of the n key: the same prompt and refusal as the other keys' (keys.py), or what ends it.
NoteStep = Prompt | NoteIntent | KeyRefused | EditNote


# -- what the model holds ------------------------------------------------------------------------------


def seat_notes(model: ClientModel, seat: int) -> dict[int, str]:
    """The notes ``seat`` wrote in the current game, as far as we were told: card order -> text."""
    return {order: text for s, order, text in model.card_notes if s == seat}


def my_notes(model: ClientModel) -> dict[int, str]:
    return seat_notes(model, model.seat) if model.seat is not None else {}


def explained(text: str) -> str:
    """A note with its short tag spelled out: "cm (chop moved)"."""
    meaning = MEANINGS.get(text.strip().lower())
    return f"{text} ({meaning})" if meaning else text


# -- the marks on the board ----------------------------------------------------------------------------


def card_marks(model: ClientModel) -> dict[int, StyleAndTextTuples]:
    """Card order -> what the board adds after that card's cell: ``*`` for a note, and on our own hand (while
    the game runs) the card a note names, ``R1?``, or ``R1≠`` when its clues say it cannot be that card."""
    view = model.view
    if view is None:
        return {}
    noted = {order for _, order, _ in model.card_notes}
    marks: dict[int, StyleAndTextTuples] = {order: [("class:note.mark", MARK)] for order in noted}
    if view.seat is not None and view.outcome is None:
        mine = my_notes(model)
        for cv in view.hands[view.seat]:
            if cv.order in mine:
                marks[cv.order] = _identity_mark(view, cv, mine[cv.order]) or marks[cv.order]
    return marks


def _identity(view: PlayerView, cv: CardView, text: str) -> tuple[Card, bool] | None:
    """The card our note on our own card ``cv`` names, and whether its clues say it cannot be that card."""
    card = likely_identity(text, view.config.variant)
    return None if card is None else (card, contradicted(text, view.config.variant, cv.knowledge))


def _identity_mark(view: PlayerView, cv: CardView, text: str) -> StyleAndTextTuples:
    named = _identity(view, cv, text)
    if named is None:
        return []
    card, contradicted_ = named
    if contradicted_:
        return [("class:note.contradicted", f"{card}{CONTRADICTED}")]
    return [("class:note.identity", f"{card}{LIKELY}")]


# -- the notes panel -----------------------------------------------------------------------------------


def _where(view: PlayerView, names: Sequence[str], order: int) -> tuple[int, str]:
    """Where the card of ``order`` is now, for sorting and for people: in a hand (with its slot) or gone."""
    for seat, hand in enumerate(view.hands):
        for slot, cv in enumerate(hand):
            if cv.order == order:
                who = "your" if seat == view.seat else f"{seat + 1} {seat_name(names, seat)}'s"
                return seat * 10 + slot, f"{who} slot {slot + 1}"
    if any(o == order for o, _ in view.discard):
        return 100, "discarded"
    return 101, "played"


def _card_of(view: PlayerView, order: int) -> StyleAndTextTuples:
    for hand in view.hands:
        for cv in hand:
            if cv.order == order:
                # Our own card, unseen: what the clues said of it, as on the board (the card, once they pin it).
                known = cv.card if cv.card is not None else cv.knowledge.known
                return card_fragments(known) if known is not None else clue_marks(cv.knowledge)
    for event in view.events:  # gone from the hands: played or discarded, the event says which card it was
        if isinstance(event, TurnEvent) and isinstance(event.action, (Play, Discard)) and event.action.order == order:
            return card_fragments(event.card)
    return [("class:knowledge.none", "??")]


def panel_fragments(model: ClientModel, skip: int = 0, writing: bool = True) -> StyleAndTextTuples:
    """Every note we may see, one a line: whose note when there are several writers, where the card is, the
    card, the note in full; the cards in hands first, in seat and slot order. ``skip`` notes are scrolled
    past (PgDn), when there are more than the screen holds. ``writing``: notes can be written here (not in a
    replay file's viewer)."""
    view = model.view
    if view is None:
        return [("class:label", NO_GAME)]
    names = model.names
    writers = sorted({seat for seat, _, _ in model.card_notes})
    if not writers:
        if not writing:
            return [("class:label", "Notes: none in this file. N closes this panel.")]
        hint = "spectators read every player's notes here" if model.seat is None else "n writes a note on a card"
        return [("class:label", f"Notes: none yet ({hint}). N closes this panel.")]
    rows = []
    for seat, order, text in model.card_notes:
        rank, where = _where(view, names, order)
        rows.append((rank, order, seat, where, text))
    skip = max(0, min(skip, len(rows) - 1))
    more = f" · PgUp/PgDn scroll · {skip} above" if skip else " · PgDn scrolls" if len(rows) > PANEL_ROWS else ""
    out: StyleAndTextTuples = [("class:label", f"Notes (N closes this panel{more})")]
    for _, order, seat, where, text in sorted(rows)[skip:]:
        out.append(("", "\n  "))
        if writers != [view.seat]:
            out.append(("class:name", f"{seat_name(names, seat)}: "))
        out += [("class:label", f"{where} "), *_card_of(view, order), ("", " "), ("class:note", explained(text))]
        out += _identity_said(view, seat, order, text)
    return out


def _identity_said(view: PlayerView, seat: int, order: int, text: str) -> StyleAndTextTuples:
    """After our own note on a card of our hand while the game runs: the card it names, in words."""
    if view.seat != seat or view.outcome is not None:
        return []
    cv = next((cv for cv in view.hands[seat] if cv.order == order), None)
    named = _identity(view, cv, text) if cv is not None else None
    if named is None:
        return []
    card, contradicted_ = named
    return [("class:label", f"  ({'but a clue says it cannot be' if contradicted_ else 'likely'} {card})")]


# -- the n key -----------------------------------------------------------------------------------------


def start(model: ClientModel) -> NoteStep:
    """The first key, ``n``."""
    view = model.view
    if view is None:
        return KeyRefused(NO_GAME)
    if model.seat is None:  # watching, also as one player (whose view then has a seat)
        return KeyRefused("spectators read every player's notes (N) but do not write any")
    if view.outcome is not None:
        return KeyRefused("the game is over: notes are written while it runs (N shows them all)")
    seats = "  ".join(f"{s + 1} {'you' if s == view.seat else seat_name(model.names, s)}"
                      for s in range(view.players))
    return Prompt(f"Note on whose card? {seats} · Esc cancels")


def step(keys: Sequence[str], key: str, model: ClientModel) -> NoteStep:
    """Given the keys so far (starting with ``n``) and the next key, the next step."""
    view = model.view
    if view is None or view.seat is None or view.outcome is not None:
        return KeyRefused("no game to write notes in")
    if len(keys) == 1:
        if not key.isdigit() or not 1 <= int(key) <= view.players:
            return KeyRefused(f"no player {key!r}: press a seat number from 1 to {view.players}")
        seat = int(key) - 1
        whose = "your" if seat == view.seat else f"{seat_name(model.names, seat)}'s"
        return Prompt(f"Note on {whose} card: which slot? 1-{len(view.hands[seat])} · Esc cancels")
    seat = int(keys[1]) - 1
    hand = view.hands[seat]
    if len(keys) == 2:
        if not key.isdigit() or not 1 <= int(key) <= len(hand):
            return KeyRefused(f"no slot {key!r}: press a number from 1 to {len(hand)}")
        return Prompt(_choice_prompt(model, seat, int(key)))
    order = hand[int(keys[2]) - 1].order
    if key == DELETE_KEY:
        return NoteIntent(order, "")
    if key == EDIT_KEY:
        return edit(model, seat, int(keys[2]))
    return edit(model, seat, int(keys[2]), key)  # the note's first letter: the rest is typed on the command line


def _choice_prompt(model: ClientModel, seat: int, slot: int) -> str:
    """The card's note in full and the keys that write one; the keys in short when a long note needs the room
    (the status bar has two lines of 80 columns, and a note may be 100 characters)."""
    assert model.view is not None
    whose = "your" if seat == model.view.seat else f"{seat_name(model.names, seat)}'s"
    now = my_notes(model).get(model.view.hands[seat][slot - 1].order)
    said = f'"{explained(now)}"' if now else "no note yet"
    short = ", ".join(f"{k} {v}" for k, v in MEANINGS.items())
    edits = " · Enter edits it · Backspace deletes it" if now else ""
    prompt = f"{whose} slot {slot}: {said}. Type the note ({short}){edits} · Esc"
    if len(prompt) > PROMPT_ROOM:
        prompt = f"{whose} slot {slot}: {said} · type · Enter edit · Del delete · Esc"  # only a long note is this long
    return prompt


def edit(model: ClientModel, seat: int, slot: int, start: str | None = None) -> EditNote:
    """The command line to type the note on ``seat``'s card in ``slot``: its current text already there, or
    ``start``, the first letter of a new one."""
    assert model.view is not None
    now = start if start is not None else my_notes(model).get(model.view.hands[seat][slot - 1].order, "")
    where = f"{slot}" if seat == model.view.seat else f"{seat_name(model.names, seat)} {slot}"
    return EditNote(f"note {where} {now}", f"note {where} ")


# -- :note ---------------------------------------------------------------------------------------------


def parse_note(line: str, view: PlayerView | None, names: Sequence[str]) -> NoteIntent:
    """``note SLOT TEXT`` (your own hand) or ``note NAME SLOT TEXT`` (another player's); no text deletes."""
    usage = "type: note SLOT TEXT (your card) or note NAME SLOT TEXT (another's); no TEXT deletes the note"
    if view is None:
        raise CommandError(f"{NO_GAME}: notes are written during a game")
    if view.seat is None:
        raise CommandError("spectators read every player's notes (N) but do not write any")
    words = line.split()[1:]
    if not words:
        raise CommandError(usage)
    seat, slot_at = (view.seat, 0) if words[0].isdigit() else _named(words, view, names)
    hand = view.hands[seat]
    slot = int(words[slot_at])
    if not 1 <= slot <= len(hand):
        raise CommandError(f"there is no slot {slot}: {'your' if seat == view.seat else 'that'} hand has slots "
                           f"1 to {len(hand)}")
    text = " ".join(line.split(None, slot_at + 2)[slot_at + 2:]).strip() if len(words) > slot_at + 1 else ""
    problem = note_problem(text) or note_target_problem(view.deck_size, view.deck_left, hand[slot - 1].order)
    if problem is not None:
        raise LineKept(problem)
    return NoteIntent(hand[slot - 1].order, text)


def _named(words: list[str], view: PlayerView, names: Sequence[str]) -> tuple[int, int]:
    """The seat a typed name picks and where the slot is among ``words``: the longest name that is a player's
    wins ("note Ann 2 3 f" is Ann 2's slot 3 when there is an Ann 2, else Ann's slot 2 with "3 f")."""
    problem: CommandError | None = None
    for at in range(len(words) - 1, 0, -1):
        if not words[at].isdigit():
            continue
        try:
            return find_player(view, names, " ".join(words[:at])), at
        except CommandError as e:
            if str(e).startswith("you cannot clue yourself"):  # the name is ours: a note on our own card
                assert view.seat is not None
                return view.seat, at
            problem = problem or e
    raise problem or CommandError("type: note NAME SLOT TEXT, the slot a number (e.g. note bob 3 f)")
