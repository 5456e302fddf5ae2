"""Notes on cards: what a note may be, which card it may be written on, and the card a note names.

A player's notes are their own private reminders ("f", "cm", "r1"), one per
card, tied to the card's *order* (its place in the deck), which stays with
the card as it moves between slots, to the fireworks or to the discard pile.
This module holds the notes' rules, so the server, the protocol and the
client all say the same thing: a note's length and characters
(``note_problem``), the cards one may be written on (``note_target_problem``),
and the card a note names (``named_cards``), which a client shows as the
card's likely identity and flags when the clues say the card cannot be it
(``contradicted``, from the card's ``CardKnowledge``).

Notes go into replay files in hanab.live's ``notes`` field: one list of
strings per player, the string at index *order* being that player's note on
the card of that order (``notes_to_json``, ``notes_from_json``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from .cards import Card, Suit
from .knowledge import CardKnowledge
from .names import CONTROL
from .variants import Variant

NOTE_MAX = 100  # characters of one note: a tag, a card or two, a few words (hanab.live's are rarely longer)
# Characters of all one seat's notes in one game together: every seat's notes, in a replay file too, then fit
# in one frame of the protocol (5 seats x 2,000 characters of up to 4 bytes is 40 KB of the 64 KiB).
SEAT_NOTES_MAX = 2000

# One seat's notes: card order -> text. A seat holds at most one note per card, so at most a deck's worth.
SeatNotes = Mapping[int, str]

# The colour words and letters a note may name a card with: ours, and hanab.live's names for the same suits
# (purple is our white; teal, black and rainbow are the sixth suit of the variants that have one).
_COLOUR_WORDS: dict[str, Suit] = {
    "red": Suit.RED, "r": Suit.RED,
    "yellow": Suit.YELLOW, "y": Suit.YELLOW,
    "green": Suit.GREEN, "g": Suit.GREEN,
    "blue": Suit.BLUE, "b": Suit.BLUE,
    "white": Suit.WHITE, "w": Suit.WHITE, "purple": Suit.WHITE, "p": Suit.WHITE,
    "multicolor": Suit.MULTICOLOR, "multi": Suit.MULTICOLOR, "m": Suit.MULTICOLOR, "teal": Suit.MULTICOLOR,
    "t": Suit.MULTICOLOR, "black": Suit.MULTICOLOR, "k": Suit.MULTICOLOR, "rainbow": Suit.MULTICOLOR,
}
# A colour then a rank, as a word of its own: "r1", "R1", "red 1", "red1"; not "T25" or "turn 18".
_CARD_NAME = re.compile(r"(?<![\w])(" + "|".join(sorted(_COLOUR_WORDS, key=len, reverse=True))
                        + r") ?([1-5])(?![\w])", re.IGNORECASE)


def note_problem(text: str) -> str | None:
    """Why ``text`` cannot be a note, in words; None when it can. The empty text is no note (it deletes one)."""
    if len(text) > NOTE_MAX:
        return f"a note is at most {NOTE_MAX} characters long, this one is {len(text)}: shorten it"
    bad = CONTROL.search(text)
    if bad is not None:
        return f"a note is one line of text: it may not hold the control character U+{ord(bad.group()):04X}"
    return None


def seat_notes_problem(notes: SeatNotes, order: int, text: str) -> str | None:
    """Why a seat holding ``notes`` may not write ``text`` on the card ``order`` (it replaces the note there),
    or None: all of a seat's notes in one game hold at most ``SEAT_NOTES_MAX`` characters."""
    total = sum(len(t) for o, t in notes.items() if o != order) + len(text)
    if total > SEAT_NOTES_MAX:
        return (f"your notes in this game would hold {total} characters, over the {SEAT_NOTES_MAX} allowed: "
                "shorten or delete some")
    return None


def note_target_problem(deck_size: int, deck_left: int, order: int) -> str | None:
    """Why no note may be written on the card ``order`` now, or None: a note goes on a card someone has drawn
    (in a hand, played or discarded), never on one still in the deck, which nobody has seen."""
    if not 0 <= order < deck_size:
        return f"there is no card {order}: the deck's cards are numbered 0 to {deck_size - 1}"
    if order >= deck_size - deck_left:
        return f"card {order} is still in the deck: a note goes on a card in a hand, played or discarded"
    return None


def named_cards(text: str, variant: Variant) -> list[Card]:
    """The cards a note names, in the order written, each once; only its last part after a "|" counts
    (hanab.live's way of keeping a note's history: "turn 3: r1,b1 | turn 5: b1" names B1). Suits the
    variant does not have are left out."""
    last = text.rsplit("|", 1)[-1]
    cards: list[Card] = []
    for colour, rank in _CARD_NAME.findall(last):
        suit = _COLOUR_WORDS[colour.lower()]
        card = Card(suit, int(rank))
        if suit in variant.suits and card not in cards:
            cards.append(card)
    return cards


def likely_identity(text: str, variant: Variant) -> Card | None:
    """The one card a note names, if it names exactly one: what the note's writer believes the card is."""
    cards = named_cards(text, variant)
    return cards[0] if len(cards) == 1 else None


def contradicted(text: str, variant: Variant, knowledge: CardKnowledge) -> bool:
    """Whether the clues the card has had rule out every card the note names (a note naming none is never)."""
    cards = named_cards(text, variant)
    return bool(cards) and not any(knowledge.can_be(card) for card in cards)


def notes_to_json(notes: Sequence[SeatNotes], deck_size: int) -> list[list[str]]:
    """hanab.live's ``notes``: one list per player, index = card order, "" where there is no note; each list
    stops after its last note, as hanab.live's own exports do."""
    out = []
    for seat_notes in notes:
        kept = {order: text for order, text in seat_notes.items() if text and 0 <= order < deck_size}
        out.append([kept.get(order, "") for order in range(max(kept, default=-1) + 1)])
    return out


def notes_from_json(data: object, players: int, deck_size: int) -> tuple[dict[int, str], ...] | str:
    """The notes of a replay file's ``notes`` field, one dict per player; or a sentence saying what is wrong.

    Entries past the deck (hanab.live's notes on the stack bases) are left out; a note is kept as written,
    but on one line (a control character becomes a space)."""
    if not isinstance(data, list) or not all(isinstance(n, list) for n in data):
        return '"notes" must be a list holding one list of notes per player'
    if len(data) > players:
        return f'"notes" has {len(data)} lists of notes for {players} players'
    out: list[dict[int, str]] = []
    for seat, seat_notes in enumerate(data):
        kept: dict[int, str] = {}
        for order, text in enumerate(seat_notes[:deck_size]):
            if not isinstance(text, str):
                return f"player {seat + 1}'s note on card {order} must be text"
            if text.strip():
                kept[order] = CONTROL.sub(" ", text)
        out.append(kept)
    out += [{} for _ in range(players - len(out))]
    return tuple(out)
