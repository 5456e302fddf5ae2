"""``hanabi-client --replay FILE.json``: step through a saved game, forward and back, offline.

The engine rebuilds the game from the file (``hanabi.engine.replay``), then
every prefix of it, one state per turn; each step is shown through
``view_for`` as any seat sees it, or as a spectator, with the same board
and log as a live game. No server, no network.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from hanabi.engine import GameState, action_of, game_from_deck, replay_steps, view_for
from hanabi.engine.replay import Replay
from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples, to_plain_text
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import (
    ConditionalKeyBindings,
    KeyBindings,
    KeyBindingsBase,
    KeyPressEvent,
    merge_key_bindings,
)
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import (
    ConditionalContainer,
    Dimension,
    DynamicContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    Window,
)
from prompt_toolkit.output import Output

from .board import seat_name
from .heldtext import HeldText
from .model import ClientModel, Link, LogLine, log_new_events
from .moments import Found, MomentsOf, jump, moment_at, moment_lines
from .notes import panel_fragments
from .screens import board_within, discards, end_fragments, join_lines, keys_line, title_fragments, tokens_line
from .stepping import Move, Place
from .style import STYLE
from .wrapping import wrap_words


def game_steps(replay: Replay) -> list[GameState]:
    """The game before any action, then after each action, ending with the game as the file left it."""
    final = replay.state
    state = game_from_deck(final.config, final.deck, final.seed)
    states = [state, *replay_steps(state, map(action_of, final.events))]
    if final.outcome is not None and states[-1].outcome is None:
        states.append(final)  # ended from outside ("terminated"): no action to replay
    return states


def file_notes(replay: Replay, state: GameState, seat: int | None) -> tuple[tuple[int, int, str], ...]:
    """The notes of the file (``ClientModel.card_notes``) on the cards drawn by ``state``: every player's as a
    spectator, one seat's own seen from that seat (as that player saw them while playing)."""
    drawn = len(state.deck) - state.deck_left
    return tuple((writer, order, text) for writer, notes in enumerate(replay.notes) if seat in (None, writer)
                 for order, text in sorted(notes.items()) if order < drawn)


def replay_help_fragments() -> StyleAndTextTuples:
    """Every key of the replay viewer, and how to read the board; short enough for an 80x24 screen."""
    lines = [
        "Keys in a replay",
        "  → n Space    next step                ← p Backspace   previous step",
        "  ↓ PgDn       10 steps on              ↑ PgUp          10 steps back",
        "  Home         the deal                 End             the end of the game",
        "  v            whose eyes: a spectator (sees every hand), then each seat",
        "  k            show or hide what each player knows about their cards",
        "  N            the players' notes on cards (from the file), in place of the log",
        "  m M          the next / previous moment that mattered (a person's move)",
        "  ?            this help                q Ctrl-C        quit",
        "Reading the board",
        "  [R3] a card that got a clue, R3 one that got none · ▶ the player to act",
        "  Seen from a seat, that player's own hand shows as they know it: the clues",
        "  each card got, and what it can still be.",
        "",
        "Press any key to close this help.",
    ]
    return [("", "\n".join(lines))]


@dataclass
class Position:
    step: int = 0
    seat: int | None = None  # None: as a spectator, who sees every hand
    show_knowledge: bool = False
    show_notes: bool = False  # the notes panel (N) in place of the log


class ReplayViewer:
    def __init__(self, replay: Replay, name: str = "replay", *, input: Input | None = None,
                 output: Output | None = None) -> None:
        self.replay = replay
        self.name = name
        self.states = game_steps(replay)
        self.pos = Position(step=0, seat=None)
        self._shown: tuple[int, int | None, ClientModel] | None = None  # model()'s: the step, the seat, the model
        self._told: dict[int | None, tuple[LogLine, ...]] = {}  # the whole game's log, by the seat seeing it
        self._hands: tuple[tuple[object, ...], StyleAndTextTuples, int] | None = None  # _board()'s
        self._log_text: tuple[tuple[object, ...], StyleAndTextTuples, Point] | None = None  # _log()'s
        self._moment_text: tuple[tuple[object, ...], StyleAndTextTuples, int] | None = None  # _moment()'s
        self._made: dict[str, tuple[ClientModel, int, StyleAndTextTuples]] = {}  # once()'s: by part, for a width
        self.show_help = False
        self.said = ""  # why the last m or M did not move, until the next step
        # The seats people held, at the table's level, as the file says them (every seat, when it does not).
        self.moments = MomentsOf(lambda: self.application.invalidate())  # a redraw, safe from the worker thread
        game = self._game_body()
        help_window = Window(FormattedTextControl(replay_help_fragments), wrap_lines=True)
        self.application: Application[None] = Application(
            layout=Layout(HSplit([
                Window(HeldText(lambda: self.once("title", lambda model: title_fragments(model, self.width))),
                       height=1),
                DynamicContainer(lambda: help_window if self.show_help else game),
                # Every line of the moment, the log giving way on a small screen: the bot's move and why is the
                # moment's point.
                ConditionalContainer(Window(HeldText(self._moment), wrap_lines=True,
                                            height=lambda: Dimension.exact(self._moment_made()[1])),
                                     Condition(lambda: not self.show_help)),
                Window(FormattedTextControl(self._where), height=1, style="class:keys"),
                Window(FormattedTextControl(self._keys), height=1, style="class:keys"),
            ])),
            key_bindings=self._bindings(),
            style=STYLE,
            full_screen=True,
            input=input,
            output=output,
        )
        self.found()  # the search starts with the viewer, in the background

    def _game_body(self) -> HSplit:
        """The board and the log, as a live game shows them."""
        return HSplit([
            Window(HeldText(self._tokens), height=1),
            Window(HeldText(lambda: self._board()[0]), height=lambda: Dimension.exact(self._board()[1])),
            Window(HeldText(lambda: self.once("discards", lambda model: discards(model, self.width))),
                   dont_extend_height=True, wrap_lines=True),
            Window(height=1, char="─", style="class:rule"),
            Window(HeldText(self._log, get_cursor_position=self._log_end), wrap_lines=True),
            Window(HeldText(lambda: self.once("end", lambda model: end_fragments(model)[:2])),
                   dont_extend_height=True, wrap_lines=True),
        ])

    @property
    def width(self) -> int:
        return self.application.output.get_size().columns

    def model(self) -> ClientModel:
        """The step shown, through the eyes chosen; built once for each (a redraw asks for it about ten times:
        the title, the tokens, the board and its height, the log and its end)."""
        step, seat = self.pos.step, self.pos.seat
        if self._shown is None or self._shown[:2] != (step, seat):
            state = self.states[step]
            view = view_for(state, seat)
            base = ClientModel(address=self.name, link=Link.REPLAY, seat_names=self.replay.players, seat=seat,
                               card_notes=file_notes(self.replay, state, seat), view=view)
            told, events = self.told(seat), len(view.events)
            # The log of a step is the first lines of the whole game's (one line per event), unless the log keeps
            # fewer lines than the game has events: then it is told again from the deal.
            model = replace(base, log=told[:events], logged_events=events) \
                if len(told) == len(self.states[-1].events) else log_new_events(base, view)
            self._shown = (step, seat, model)
        return self._shown[2]

    def told(self, seat: int | None) -> tuple[LogLine, ...]:
        """Every event of the game as the log tells it to ``seat``, told once per seat rather than again from the
        deal at each step."""
        if seat not in self._told:
            view = view_for(self.states[-1], seat)
            blank = ClientModel(address=self.name, link=Link.REPLAY, seat_names=self.replay.players, seat=seat)
            self._told[seat] = log_new_events(replace(blank, view=view), view).log
        return self._told[seat]

    def once(self, part: str, make: Callable[[ClientModel], StyleAndTextTuples]) -> StyleAndTextTuples:
        """``make(model)`` for the model shown, made again only when the model (the step, the seat) or the width
        changes: a redraw asks for a part's text more than once (its height, its lines)."""
        model, width = self.model(), self.width
        held = self._made.get(part)
        if held is None or held[0] is not model or held[1] != width:
            held = self._made[part] = (model, width, make(model))
        return held[2]

    def _board(self) -> tuple[StyleAndTextTuples, int]:
        """The hands at the step shown, and their height in lines: made once per step, seat, toggle and width (a
        redraw asks for both)."""
        # At most the rows the others leave (title, tokens, rule, a line of log, the moment, where, keys): what
        # each seat knows (k) is left out when it does not fit.
        most = self.application.output.get_size().rows - 6 - self._moment_made()[1]
        key = (self.pos.step, self.pos.seat, self.pos.show_knowledge, self.width, most)
        if self._hands is None or self._hands[0] != key:
            hands = board_within(self.model(), self.pos.show_knowledge, self.width, most)
            self._hands = (key, hands, to_plain_text(hands).count("\n") + 1)
        return self._hands[1], self._hands[2]

    def _tokens(self) -> StyleAndTextTuples:
        return self.once("tokens", lambda model: tokens_line(model.view, self.width) if model.view is not None else [])

    def _log(self) -> StyleAndTextTuples:
        return self._log_and_end()[0]

    def _log_end(self) -> Point:
        return self._log_and_end()[1]

    def _log_and_end(self) -> tuple[StyleAndTextTuples, Point]:
        """The log up to the step shown (or the notes panel), and where its window's cursor goes: made once per
        step, seat and toggle (a redraw asks for both)."""
        rows = self.application.output.get_size().rows
        key = (self.pos.step, self.pos.seat, self.pos.show_notes, rows, self.width)
        if self._log_text is not None and self._log_text[0] == key:
            return self._log_text[1], self._log_text[2]
        if self.pos.show_notes:
            # The notes panel keeps its start in sight: the cards in hands.
            text, end = panel_fragments(self.model(), writing=False), Point(0, 0)
        else:
            # Only the lines that can show: the window keeps its end in sight (so the step just taken shows),
            # and no line takes less than a row. A long one goes on under its text, as in a game's log.
            lines = self.model().log[-rows:]
            text = wrap_words(join_lines(list(lines)), self.width, 4) if lines else \
                [("class:label", "The start of the game: no action yet.")]
            last = to_plain_text(text).split("\n")
            end = Point(len(last[-1]), len(last) - 1)
        self._log_text = (key, text, end)
        return text, end

    def _where(self) -> StyleAndTextTuples:
        """The step shown and whose eyes it is seen through, on a line of its own so every key fits below."""
        who = "a spectator" if self.pos.seat is None else seat_name(self.replay.players, self.pos.seat)
        notes = " · N the players' notes" if any(self.replay.notes) else ""  # the keys' line has no room left
        advised = " · played with advice" if self.replay.advice_used else ""  # the file's adviceUsed
        return [("class:keys", f" step {self.pos.step}/{len(self.states) - 1} · seen by {who}{notes}{advised}")]

    def _keys(self) -> StyleAndTextTuples:
        """The keys, as many as fit the width (all of them at 80 columns; quit always shows)."""
        return keys_line([("←→", "step"), ("v", "view"), ("m/M", "moments"), ("↑↓", "±10"),
                          ("k", "knows"), ("Home/End", "ends"), ("?", "help"), ("q", "quit")], self.width)

    def found(self) -> Found | None:
        """The moments that mattered in the file's game; None while they are being found."""
        return self.moments.of(self.name, self.replay)

    def jump(self, forward: bool) -> None:
        """``m`` / ``M``: the next / previous moment, or why the step stays."""
        step, self.said = jump(self.found(), self.pos.step, forward)
        if step is not None:
            self.pos.step = step

    def _moment(self) -> StyleAndTextTuples:
        return self._moment_made()[0]

    def _moment_made(self) -> tuple[StyleAndTextTuples, int]:
        """The moment whose board is the step shown (what was done, the bot's move), or why m or M stayed, and its
        height in lines: made once per step, width and what the search found (a redraw asks for both)."""
        found = self.found()
        key = (self.pos.step, self.said, self.width, found)
        if self._moment_text is not None and self._moment_text[0] == key:
            return self._moment_text[1], self._moment_text[2]
        moment = moment_at(found, self.pos.step)
        out: StyleAndTextTuples = []
        if found is not None and moment is not None:
            done, suggested = moment_lines(found, moment)
            out.append(("class:status.prompt", f" {done}\n {suggested}"))
        if self.said:  # at the last moment, m says there is none after it
            out.append(("class:status", f"\n {self.said}" if out else f" {self.said}"))
        text = wrap_words(out, self.width, 1)  # at word boundaries: the moment's sentences are long
        height = to_plain_text(text).count("\n") + 1 if text else 0
        self._moment_text = (key, text, height)
        return text, height

    def place(self) -> Place:
        return Place(self.pos.step, len(self.states) - 1, self.states[0].players)

    def move(self, move: Move) -> None:
        self.said = ""
        self.pos.step = move(self.place()).at

    def go(self, step: int) -> None:
        self.pos.step = self.place().to(step).at

    def cycle_seat(self) -> None:
        """Spectator, then seat 1, seat 2, … and back to the spectator."""
        players = self.states[0].players
        seat = self.pos.seat
        self.pos.seat = 0 if seat is None else (None if seat + 1 >= players else seat + 1)

    def _bindings(self) -> KeyBindingsBase:
        kb = KeyBindings()
        helping = Condition(lambda: self.show_help)

        @kb.add(Keys.Any, filter=helping)
        def _close_help(event: KeyPressEvent) -> None:
            self.show_help = False  # any key closes the help, and does nothing else

        @kb.add("c-c")
        def _interrupt(event: KeyPressEvent) -> None:
            event.app.exit()

        @kb.add("?", filter=~helping)
        def _help(event: KeyPressEvent) -> None:
            self.show_help = True

        return merge_key_bindings([kb, ConditionalKeyBindings(self._step_bindings(), ~helping)])

    def _step_bindings(self) -> KeyBindings:
        kb = KeyBindings()
        moves: dict[Move, tuple[str, ...]] = {
            Place.on: ("right", "n", "space"),
            Place.back: ("left", "p", "backspace"),
            Place.page_on: ("down", "pagedown"),
            Place.page_back: ("up", "pageup"),
            Place.start: ("home",),
            Place.end: ("end",),
        }
        for move, keys in moves.items():
            for key in keys:
                kb.add(key)(lambda event, move=move: self.move(move))

        @kb.add("v")
        def _viewpoint(event: KeyPressEvent) -> None:
            self.cycle_seat()

        @kb.add("m")
        def _next_moment(event: KeyPressEvent) -> None:
            self.jump(forward=True)

        @kb.add("M")
        def _previous_moment(event: KeyPressEvent) -> None:
            self.jump(forward=False)

        @kb.add("k")
        def _knowledge(event: KeyPressEvent) -> None:
            self.pos.show_knowledge = not self.pos.show_knowledge

        @kb.add("N")
        def _notes(event: KeyPressEvent) -> None:
            self.pos.show_notes = not self.pos.show_notes

        @kb.add("escape", filter=Condition(lambda: self.pos.show_notes))
        def _close_notes(event: KeyPressEvent) -> None:
            self.pos.show_notes = False

        @kb.add("q")
        def _quit(event: KeyPressEvent) -> None:
            event.app.exit()

        return kb
