"""The game board drawn from one ``PlayerView``: pure functions from a view to styled text.

The layout follows a real table: the other players in turn order after you,
then your own hand as what you know about it. Each player is numbered by their
seat at the table, the one number everywhere: the lobby's seats, the key that
picks a player for a clue, ``clue 3 red``, ``bot 3``; it is the same on every
player's screen, so "clue 3" said aloud means one person. Nothing here reads the network or the keyboard; the
app wraps these functions in windows whose text is recomputed on every redraw.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from types import MappingProxyType

from hanabi.engine import CLUE_TOKENS, MAX_STRIKES, Card, CardView, PlayerView, Suit, Variant, Worth
from prompt_toolkit.formatted_text import StyleAndTextTuples

from .cardtext import (
    can_be_ranks,
    can_be_suits,
    card_fragments,
    clue_marks,
    fragments_width,
    in_hand,
    pad,
    suit_style,
)
from .knowledge import Insight, can_be_cells, worth_mark
from .wrapping import columns, cut

NAME_WIDTH = 18
CELL = 9
# Up to this many hands, what a card can be takes two rows (suits above ranks); with more (six players, holding
# 3 cards each), one row of "suits ranks" per hand, so that six hands and their knowledge fit in 24 lines.
TWO_ROW_HANDS = 5


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"seat {seat + 1}"


def clock_text(seconds: float) -> str:
    """``125.4`` as "2:06": minutes and seconds, rounded up, so "0:00" means the bank is empty."""
    whole = int(-(-seconds // 1))
    return f"{whole // 60}:{whole % 60:02d}"


def bank_parts(names: Sequence[str], seat: int, seconds: float) -> tuple[str, str]:
    """A player's bank wherever one is written, in its one order: their name, then the time."""
    return seat_name(names, seat), clock_text(seconds)


def bank_words(names: Sequence[str], seat: int, seconds: float) -> str:
    """A player's bank in a sentence: "bob 1:58"."""
    return " ".join(bank_parts(names, seat, seconds))


def opening(text: str, names: Iterable[str]) -> str:
    """``text`` as the start of a sentence: its first letter capitalised, unless it starts with one of ``names``.
    A name is the player's own and keeps its case ("bob ran out of time" stays so); a line may start with it."""
    for name in names:
        if name and text.startswith(name) and not text[len(name):len(name) + 1].isalnum():
            return text
    return text[:1].upper() + text[1:]


def others_in_turn_order(view: PlayerView) -> list[int]:
    """The seats other than the viewer's, starting with the next one to play after the viewer."""
    n = view.players
    if view.seat is None:
        return list(range(n))
    return [(view.seat + k) % n for k in range(1, n)]


def whose_turn(view: PlayerView, names: Sequence[str], yours: bool = True) -> str:
    """Whose turn it is; ``yours=False`` names the viewer too (a replay seen from a seat is nobody's "your")."""
    if view.outcome is not None:
        return "game over"
    if yours and view.seat is not None and view.current == view.seat:
        return "your turn"
    return f"{seat_name(names, view.current)}'s turn"


def fireworks_fragments(view: PlayerView) -> StyleAndTextTuples:
    out: StyleAndTextTuples = [("class:label", "Fireworks ")]
    for suit, height in zip(view.config.variant.suits, view.fireworks, strict=True):
        out.append((suit_style(suit), f"{suit.letter}{height}"))
        out.append(("", " "))
    return out


def tokens_fragments(view: PlayerView, dots: bool = True) -> StyleAndTextTuples:
    """Clue tokens (as a count, and as dots when there is room), strikes, the deck, the final round."""
    clues = view.clue_tokens
    strikes = view.strikes
    out: StyleAndTextTuples = [("class:label", " Clues "), ("class:clues", f"{clues}/{CLUE_TOKENS}")]
    if dots:
        out += [("class:clues", " " + "●" * clues), ("class:clues.spent", "○" * (CLUE_TOKENS - clues))]
    out += [
        ("class:label", "  Strikes "),
        ("class:strikes", "✖" * strikes),
        ("class:strikes.none", "·" * (MAX_STRIKES - strikes)),
        ("class:label", "  Deck "),
        ("class:deck", str(view.deck_left)),
    ]
    if view.final_turns_left is not None and view.outcome is None:
        left = view.final_turns_left
        out.append(("class:final", f"  FINAL ROUND: {left} turn{'s' if left != 1 else ''} left"))
    return out


def score_text(view: PlayerView) -> str:
    """The score now; once the game is over, the outcome's (0 after the third strike, fireworks or not)."""
    score = view.outcome.score if view.outcome is not None else sum(view.fireworks)
    return f"score {score}/{view.config.max_score}"


Marks = Mapping[int, StyleAndTextTuples]  # card order -> what follows the card's cell (a note's mark)
NO_MARKS: Marks = MappingProxyType({})
Label = tuple[str, str, str]  # the name column: (style, text, a mark kept whole when the text is cut)
Row = tuple[Label, list[StyleAndTextTuples]]  # the name column, then one cell per card
AWAY = " (away)"


def _slot_header(size: int, corner: str = "") -> Row:
    return ("class:label", corner, ""), [[("", " "), ("class:slot", f"{i + 1}")] for i in range(size)]


def _name_cell(label: str, style: str, mark: str = "") -> Label:
    return style, label, mark


def _fit(label: Label, column: int) -> StyleAndTextTuples:
    """The name column's text padded to ``column``; cut with "…" when it does not fit, its mark kept whole."""
    style, text, mark = label
    text = cut(text, max(0, column - 1 - columns(mark))) + mark
    return [(style, text), ("", " " * (column - columns(text)))]


def _marked(cv: CardView, cell: StyleAndTextTuples, insight: Insight | None) -> StyleAndTextTuples:
    """A card's cell with what counting adds: the last clue's cards highlighted, then the card's worth marks."""
    if insight is None:
        return cell
    if cv.order in insight.last_clue:
        cell = [(f"{style} class:clue.last", text) for style, text, *_ in cell]
    marks = worth_mark(insight.worth.get(cv.order, Worth.NONE))
    if marks and cell and cell[-1][1] == " ":
        cell = cell[:-1]  # an unclued card's closing gap: the mark takes its place, next to the card (" R1+")
    return [*cell, *marks]


def _other_hand(view: PlayerView, names: Sequence[str], seat: int, show_knowledge: bool,
                away: bool = False, marks: Marks = NO_MARKS, insight: Insight | None = None,
                one_row: bool = False) -> list[Row]:
    acting = view.current == seat and view.outcome is None
    marker = "▶" if acting else " "
    style = "class:name.current" if acting else "class:name"
    name = seat_name(names, seat)
    if away:
        style = "class:name.away"
    hand = view.hands[seat]
    rows: list[Row] = [(_name_cell(f"{marker}{seat + 1} {name}", style, AWAY if away else ""),
                        [_marked(cv, in_hand(card_fragments(cv.card, clued=cv.knowledge.clued), cv.knowledge.clued),
                                 insight) + marks.get(cv.order, [])
                         for cv in hand])]
    if show_knowledge:
        # Written as your own hand's "can be" is, suits above ranks: one way to read knowledge on the board.
        rows += _can_be_rows("    knows", hand, view.config.variant, insight, one_row)
    return rows


def _can_be_rows(label: str, cards: Sequence[CardView | None], variant: Variant,
                 insight: Insight | None = None, one_row: bool = False) -> list[Row]:
    """Two rows under a hand: the suits each card can still be, then its ranks (blank: ``None``, a known card);
    ``one_row``: one row, each card's suits then its ranks.

    With ``insight``, what counting rules out shows apart from what clues alone say (see ``knowledge.py``).
    """
    if insight is not None:
        suits, ranks = can_be_cells(cards, insight, variant)
    else:
        suits = [can_be_suits(cv.knowledge, variant) if cv is not None else [] for cv in cards]
        ranks = [can_be_ranks(cv.knowledge) if cv is not None else [] for cv in cards]
    if one_row:
        both = [[*s, ("", " "), *r] if s and r else [*s, *r] for s, r in zip(suits, ranks, strict=True)]
        return [(_name_cell(label, "class:label"), [in_hand(cell, False) for cell in both])]
    return [
        (_name_cell(label, "class:label"), [in_hand(cell, False) for cell in suits]),
        (_name_cell("", ""), [in_hand(cell, False) for cell in ranks]),
    ]


def _own_cell(cv: CardView) -> StyleAndTextTuples:
    known = cv.knowledge.known
    if known is not None:
        return in_hand(card_fragments(known, clued=True), True)
    if cv.knowledge.clued:
        return in_hand(clue_marks(cv.knowledge), True)
    return in_hand([("class:knowledge.none", "·")], False)


def _own_hand(view: PlayerView, names: Sequence[str], seat: int, marks: Marks = NO_MARKS,
              insight: Insight | None = None, one_row: bool = False, yours: bool = True) -> list[Row]:
    acting = view.current == seat and view.outcome is None
    marker = "▶" if acting else " "
    style = "class:name.current" if acting else "class:name.me"
    hand: tuple[CardView, ...] = view.hands[seat]
    variant = view.config.variant
    who = f"You ({seat_name(names, seat)})" if yours else f"{seat_name(names, seat)} (watched)"
    name = _name_cell(f"{marker}{seat + 1} {who}", style)
    if view.outcome is not None:
        # The game is over: the view shows our own cards too.
        return [(name, [_marked(cv, in_hand(card_fragments(cv.card, clued=cv.knowledge.clued), cv.knowledge.clued),
                                insight) + marks.get(cv.order, [])
                        for cv in hand])]
    # A card whose identity the clues pinned down shows it above, in the hand's own row.
    unknown = [cv if cv.knowledge.known is None else None for cv in hand]
    return [(name, [_marked(cv, _own_cell(cv), insight) + marks.get(cv.order, []) for cv in hand]),
            *_can_be_rows("    can be", unknown, variant, insight, one_row)]


def hands_fragments(view: PlayerView, names: Sequence[str], show_knowledge: bool = False,
                    away: Collection[int] = (), width: int = 80, marks: Marks = NO_MARKS,
                    insight: Insight | None = None, yours: bool = True, corner: str = "",
                    can_be: bool = True) -> StyleAndTextTuples:
    """Every hand: the others in turn order, then the viewer's own, each by seat number; ``away`` seats are marked.

    Cells are ``CELL`` columns wide, or wider when a cell's text needs it, so every card of a slot stays in one
    column whatever the rows hold. The names' column is ``NAME_WIDTH`` wide, or as wide as the longest name
    needs when ``width`` leaves the room (a 32-character name fits beside four or five cards at 80 columns);
    only a name that still does not fit is cut, with "…". ``marks`` (card order -> text) follow a card's cell:
    the notes' marks (client/notes.py). ``insight`` adds card
    counting and the marks of ``knowledge.py``. ``yours=False``: the view's seat is not the reader's (a
    spectator watching as that player), so its hand is named, not "You". ``corner``: a word in the name column
    of the slots' row (which is otherwise blank). ``can_be=False``: without the rows of what your own cards can
    be (a screen too short for them).
    """
    size = max((len(h) for h in view.hands), default=0)
    one_row = len(view.hands) > TWO_ROW_HANDS
    rows = [_slot_header(size, corner)]
    for seat in others_in_turn_order(view):
        rows += _other_hand(view, names, seat, show_knowledge, seat in away, marks, insight, one_row)
    if view.seat is not None:
        rows += _own_hand(view, names, view.seat, marks, insight, one_row, yours)[:None if can_be else 1]
    widest = max([0, *(fragments_width(c) for _, cells in rows for c in cells)])
    cell = max(CELL, widest + 1)
    longest = max(columns(text) + columns(mark) + 1 for (_, text, mark), _ in rows)
    # The names get what the cards leave (the last card needs no gap after it): on a narrow screen a name is cut,
    # never a card's cell, whose last letters may be what a player must know ("M": it can be multicolour).
    column = max(1, min(max(NAME_WIDTH, longest), width - (size - 1) * cell - widest))
    out: StyleAndTextTuples = []
    for i, (name, cells) in enumerate(rows):
        if i:
            out.append(("", "\n"))
        out += _fit(name, column)
        for k, c in enumerate(cells):
            out += pad(c, cell) if k < len(cells) - 1 else c
    return out


def discard_fragments(view: PlayerView, width: int = 80) -> StyleAndTextTuples:
    """The discard pile grouped by suit, ranks in order, so a glance says what is gone.

    A suit's group is never split across lines: one that would pass ``width``
    starts the next line, under the first group.
    """
    label = "Discards "
    out: StyleAndTextTuples = [("class:label", label)]
    by_suit: dict[Suit, list[int]] = {s: [] for s in view.config.variant.suits}
    for _, card in view.discard:
        by_suit.setdefault(card.suit, []).append(card.rank)
    if not view.discard:
        out.append(("class:knowledge.none", "none"))
        return out
    column = len(label)
    for suit, ranks in by_suit.items():
        if not ranks:
            continue
        # Commas: "R:1,3" cannot be read as thirteen, as "R:13" could.
        group = suit.letter + ":" + ",".join(str(r) for r in sorted(ranks))
        if column > len(label) and column + len(group) > width - 1:
            out.append(("", "\n" + " " * len(label)))
            column = len(label)
        out.append((suit_style(suit), group))
        out.append(("", " "))
        column += len(group) + 1
    return out


def deck_reveal_fragments(deck: Sequence[Card], drawn: int) -> StyleAndTextTuples:
    """The cards nobody drew, shown after the game; nothing when every card was drawn."""
    rest = list(deck[drawn:])
    if not rest:
        return []
    out: StyleAndTextTuples = [("class:label", f"Left in the deck ({len(rest)}): ")]
    for card in rest:
        out += card_fragments(card)
        out.append(("", " "))
    return out
