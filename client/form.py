"""The "new table" form: name, variant, seats, options and password, all from the keyboard.

A small state machine the lobby drives key by key: ↑/↓ (or Tab) moves between
fields, ←/→ (or space) changes a choice, typing edits a text field. It holds
only what the player chose; the app turns a finished form into a request.
"""

from __future__ import annotations

from dataclasses import dataclass

from hanabi.engine import MAX_PLAYERS, MIN_PLAYERS, TIME_BASE, TIME_PER_TURN, ChatPolicy, Variant
from hanabi.engine.bots import LEVELS, Level
from hanabi.protocol import NAME_MAX, PASSWORD_MAX, SEED_TEXT_MAX
from prompt_toolkit.formatted_text import StyleAndTextTuples

from .board import clock_text
from .wrapping import columns, cut, wrap_words

# The table options (the bots' level, a seed, hanab.live's rule options) are together, at the end.
FIELDS = ("name", "variant", "seats", "empty_clues", "all_or_nothing", "chat", "password", "clock",
          "level", "seed", "end_when_no_points", "deck_plays", "advice")
LABELS = {
    "name": "Name", "variant": "Variant", "seats": "Seats", "empty_clues": "Empty clues",
    "all_or_nothing": "All or nothing", "chat": "Chat", "password": "Password", "clock": "Clock",
    "level": "Bots' level", "seed": "Seed", "end_when_no_points": "End at no points", "deck_plays": "Deck plays",
    "advice": "Advice",
}
TEXT_FIELDS = {"name": NAME_MAX, "password": PASSWORD_MAX, "seed": SEED_TEXT_MAX}
TOGGLES = ("empty_clues", "all_or_nothing", "end_when_no_points", "deck_plays", "advice")
# hanab.live's rule options are not in the printed game: the form says what each does.
# Each says both sides, so "off: ..." never reads as the option itself.
EXPLAINED = {"end_when_no_points": ("the game ends once no more points can be scored",
                                    "the game ends as usual, even with no points left"),
             "deck_plays": ("the deck's last card may be played blind", "the deck's last card cannot be played blind"),
             "advice": ("players may ask the coach (a), games marked", "no coach at this table")}
VARIANTS = tuple(Variant)
CHATS = tuple(ChatPolicy)
LEVEL_CHOICES: tuple[Level | None, ...] = (None, *LEVELS)  # None: the server's default (beginner beside people)
# The clocks a table may have: off, then (seconds to start with, seconds added after each move) from the shortest
# to the longest, so that → always gives more time (hanab.live's default, 2:00 + 0:20, is one of them).
TIMERS: tuple[tuple[int, int] | None, ...] = (None, (30, 5), (60, 10), (TIME_BASE, TIME_PER_TURN), (300, 30))


def timer_text(base: int, per_turn: int) -> str:
    """A table's clock for people: "2:00 + 0:20 a move"."""
    return f"{clock_text(base)} + {clock_text(per_turn)} a move"  # the banks' own form


@dataclass
class TableForm:
    name: str = ""
    variant: int = 0  # index in VARIANTS
    seats: int = 3
    empty_clues: bool = False
    all_or_nothing: bool = False
    chat: int = CHATS.index(ChatPolicy.BETWEEN_GAMES)
    password: str = ""
    clock: int = 0  # index in TIMERS
    level: int = 0  # index in LEVEL_CHOICES
    seed: str = ""
    end_when_no_points: bool = False
    deck_plays: bool = False
    advice: bool = False
    field: int = 0

    @property
    def current(self) -> str:
        return FIELDS[self.field]

    def move(self, step: int) -> None:
        self.field = (self.field + step) % len(FIELDS)

    def change(self, step: int) -> None:
        """Cycle the current choice; a text field ignores it."""
        name = self.current
        if name == "variant":
            self.variant = (self.variant + step) % len(VARIANTS)
        elif name == "seats":
            span = MAX_PLAYERS - MIN_PLAYERS + 1
            self.seats = MIN_PLAYERS + (self.seats - MIN_PLAYERS + step) % span
        elif name in TOGGLES:
            setattr(self, name, not getattr(self, name))
        elif name == "chat":
            self.chat = (self.chat + step) % len(CHATS)
        elif name == "clock":
            self.clock = (self.clock + step) % len(TIMERS)
        elif name == "level":
            self.level = (self.level + step) % len(LEVEL_CHOICES)

    def type_text(self, text: str) -> bool:
        """Type into the current text field; False when the field is a choice (the key means nothing here)."""
        name = self.current
        if name not in TEXT_FIELDS:
            return False
        value = getattr(self, name)
        setattr(self, name, (value + text)[: TEXT_FIELDS[name]])
        return True

    def backspace(self) -> None:
        name = self.current
        if name in TEXT_FIELDS:
            setattr(self, name, getattr(self, name)[:-1])

    def clear(self) -> None:
        """Ctrl-U: the current text field is emptied, as on the command line."""
        if self.current in TEXT_FIELDS:
            setattr(self, self.current, "")

    def full(self) -> int | None:
        """The most characters the current text field holds, when it holds that many already (a key typed now
        would be left out); None otherwise."""
        name = self.current
        if name in TEXT_FIELDS and len(getattr(self, name)) >= TEXT_FIELDS[name]:
            return TEXT_FIELDS[name]
        return None

    def value_text(self, name: str) -> str:
        if name == "variant":
            return VARIANTS[self.variant].title
        if name == "seats":
            return f"{self.seats} players"
        if name in TOGGLES:
            state = "on" if getattr(self, name) else "off"
            if name not in EXPLAINED:
                return state
            on, off = EXPLAINED[name]
            return f"{state}: {on if getattr(self, name) else off}"
        if name == "chat":
            return CHATS[self.chat].value
        if name == "password":
            return "*" * len(self.password) if self.password else "(none: anyone may join)"
        if name == "clock":
            timer = TIMERS[self.clock]
            return "off (untimed)" if timer is None else f"{timer_text(*timer)} a player"
        if name == "level":
            chosen = LEVEL_CHOICES[self.level]
            return chosen if chosen is not None else "as fits the table (beginner beside people)"
        if name == "seed":
            return self.seed or "(none: a random deal each game)"
        return self.name or "(type a name)"

    def fragments(self, width: int = 80) -> StyleAndTextTuples:
        """The form in ``width`` columns: a value too long for its line is cut with "…" (the one being typed
        keeps its end in sight, where the typing is)."""
        out: StyleAndTextTuples = [("class:title", " New table "), ("", "\n\n")]
        for i, name in enumerate(FIELDS):
            here = i == self.field
            head = f"{'▶ ' if here else '  '}{LABELS[name]:<18}"
            value = self.value_text(name)
            if name not in TEXT_FIELDS:
                value = f"◂ {value} ▸"
            elif here:
                value += "▏"
            room = max(2, width - 1 - columns(head))
            if here and name in TEXT_FIELDS and columns(value) > room:
                value = "…" + value[len(value) - room + 1:]
            out.append(("class:selected" if here else "", head + cut(value, room)))
            out.append(("", "\n"))
        keys = "↑↓/Tab field · ←→/space change · type to edit · Enter create · Esc cancel"
        out += [("", "\n"), *wrap_words([("class:label", keys)], width - 1), ("", "\n")]
        return out

    def variant_name(self) -> str:
        return VARIANTS[self.variant].title

    def chat_name(self) -> str:
        return CHATS[self.chat].value

    def level_choice(self) -> Level | None:
        return LEVEL_CHOICES[self.level]

    def seed_text(self) -> str | None:
        """The seed as typed, trimmed (the protocol's rule); None when there is none."""
        return self.seed.strip() or None
