"""The layout of the client's full screen: title, the screen of the moment, command line, status, keys.

Each part is a container whose text is a callable reading the live model and
the app's UI state, so a redraw always shows the latest; each kind of middle
screen (lobby, form, help, game at two widths) is built once and reused.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar, cast

from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition, FilterOrBool, has_completions, is_done
from prompt_toolkit.formatted_text import StyleAndTextTuples, to_plain_text
from prompt_toolkit.layout import (
    ConditionalContainer,
    DynamicContainer,
    FormattedTextControl,
    HSplit,
    ScrollOffsets,
    VSplit,
    Window,
    WindowRenderInfo,
)
from prompt_toolkit.layout.containers import AnyContainer, to_container
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.margins import ScrollbarMargin
from prompt_toolkit.layout.menus import CompletionsMenuControl

from .clockface import time_fragments
from .glance import glance_fragments
from .heldtext import HeldText
from .history_list import HistoryUi, history_fragments
from .model import ClientModel
from .notes import panel_fragments
from .review import review_fragments
from .screens import (
    WIDE,
    board_within,
    chat_fragments,
    discards,
    end_fragments,
    help_fragments,
    join_lines,
    keys_line,
    lobby_fragments,
    log_lines,
    title_fragments,
    tokens_line,
    watchers_fragments,
)
from .wrapping import wrap_words

if TYPE_CHECKING:
    from .app import ClientApp


T = TypeVar("T")


def _end_of(fragments: StyleAndTextTuples) -> Point:
    """The end of the text: a window scrolls to keep its cursor in sight, so the newest line shows."""
    lines = to_plain_text(fragments).split("\n")
    return Point(len(lines[-1]), len(lines) - 1)


def _with_last_line(fragments: StyleAndTextTuples) -> tuple[StyleAndTextTuples, int]:
    """The text and the number of its last line (counted from 0)."""
    return fragments, to_plain_text(fragments).count("\n")


FORM_TOP = 2  # the form's first field is on its third line (under its title and a blank line)
MENU_ROWS = 6  # the most rows the completions' menu takes from the log (it scrolls through the rest)


class ScrollMarks(ScrollbarMargin):
    """prompt_toolkit's scrollbar, whose arrows say where the rows shown are in the whole list: ``^`` on the
    first row only while completions are above them, ``v`` on the last only while some are below (the library
    draws both whenever it draws either, so they said nothing of where the list was)."""

    def create_margin(self, window_render_info: WindowRenderInfo, width: int, height: int) -> StyleAndTextTuples:
        info = window_render_info
        above = info.vertical_scroll > 0
        below = info.vertical_scroll + len(info.displayed_lines) < info.content_height
        fragments = super().create_margin(info, width, height)
        arrows = [i for i, fragment in enumerate(fragments) if fragment[0] == "class:scrollbar.arrow"]
        for i, shown in zip(arrows, (above, below), strict=False):  # the up arrow first, then the down one
            if not shown:
                fragments[i] = ("class:scrollbar", " ")
        return fragments


def completions_menu(display_arrows: FilterOrBool) -> ConditionalContainer:
    """prompt_toolkit's ``CompletionsMenu`` at most ``MENU_ROWS`` tall, a row kept in sight on either side of the
    completion chosen, with ``ScrollMarks`` for its scrollbar."""
    return ConditionalContainer(
        Window(CompletionsMenuControl(), width=Dimension(min=8), height=Dimension(min=1, max=MENU_ROWS),
               scroll_offsets=ScrollOffsets(top=1, bottom=1), right_margins=[ScrollMarks(display_arrows)],
               dont_extend_width=True, style="class:completion-menu"),
        filter=has_completions & ~is_done)


class ScreenLayout:
    """The containers of one ``ClientApp``'s screen; ``root()`` is the whole of it."""

    def __init__(self, app: ClientApp) -> None:
        self.app = app
        self._screens: dict[str, AnyContainer] = {}
        self.help_window: Window | None = None  # the help's, once built: how far it may scroll
        # What each part of the screen made of the model last drawn: (the model, the settings, the result).
        self._made: dict[str, tuple[ClientModel, tuple[object, ...], object]] = {}

    def once(self, part: str, settings: tuple[object, ...], make: Callable[[ClientModel], T]) -> T:
        """``make(model)`` for the model drawn, made again only when that model (the same object: a new message or
        step makes a new one) or ``settings`` (the width, a toggle) change. A redraw comes with every key and
        every message, and asks for most parts more than once (a window's text, its height, its cursor), so what
        a view implies is worked out once per view, not once per ask."""
        model = self.model()
        held = self._made.get(part)
        if held is not None and held[0] is model and held[1] == settings:
            return cast(T, held[2])
        made = make(model)
        self._made[part] = (model, settings, made)
        return made

    def help_page(self) -> tuple[StyleAndTextTuples, int]:
        """The help page shown, wrapped with its words whole when narrow, and its last line's number: made once per
        page and width (a redraw asks for the text, the cursor and the scroll), not once per ask."""
        return self.once("help", (self.app.ui.help_page, self.width), lambda model: _with_last_line(
            wrap_words(help_fragments(self.app.ui.help_page), self.width, 4)))

    def help_end_in_sight(self) -> bool:
        """Whether the help page's last line (the keys that turn, scroll and close it) shows: the screen's rows
        but the title, one status line and the key line hold the page from the line scrolled to on."""
        rows = self.app.application.output.get_size().rows
        return self.app.ui.help_from + rows - 3 > self.help_page()[1]

    def help_bottom(self) -> int:
        """The farthest the help can scroll: how many of the page's lines, as last drawn, the screen cannot hold."""
        info = self.help_window.render_info if self.help_window is not None else None
        return 0 if info is None else max(0, info.content_height - info.window_height)

    def model(self) -> ClientModel:
        """The model the screen draws: the live one (or the review's step, client/review.py), or while rewinding,
        the game as it was at that step."""
        rewind = self.app.ui.rewind
        return rewind.shown(self.app.get_model()) if rewind is not None else self.app.shown_model()

    @property
    def width(self) -> int:
        return self.app.width

    def root(self) -> AnyContainer:
        return self._panes()

    @property
    def _typing(self) -> Condition:
        return Condition(lambda: self.app.application.layout.has_focus(self.app.command))

    def _panes(self) -> AnyContainer:
        return HSplit([
            Window(HeldText(self._title), height=1),
            DynamicContainer(self._screen),
            # The completions of the command line, just above what is typed: rows taken from the log, never over
            # the status and the key line under it (a menu floating at the cursor went down over them when it
            # fitted there). Asked only while the command line is open: the menu asks for the focused buffer's
            # completions, and with the focus elsewhere prompt_toolkit makes a throwaway buffer for each ask.
            # Marks at its side say that it holds more than it shows, above (^) or below (v) (Tab and the arrow keys
            # scroll).
            ConditionalContainer(HSplit([completions_menu(display_arrows=Condition(self._menu_cut))],
                                        height=self._menu_rows), self._typing),
            ConditionalContainer(self.app.command_window, self._typing),
            self.app.status_window,
            Window(FormattedTextControl(
                lambda: keys_line(self.app.key_line(self.model()), self.width)),
                height=1, style="class:keys"),
        ])

    def _title(self) -> StyleAndTextTuples:
        """The top bar of the model drawn, with our table and connection as they are live, and what a step looked
        back at is (rewind, review, what if, a game of the history)."""
        live = self.app.get_model()
        back = self.app.looking_back()
        looking = "rewind" if self.app.ui.rewind is not None else \
            {"review": "review", "whatif": "what if", "alone": "history"}.get(back or "")
        return self.once("title", (self.width, live.table, live.link, looking),
                         lambda model: title_fragments(model, self.width, live, looking))

    def _menu_rows(self) -> Dimension:
        """As many rows as the completions (at most ``MENU_ROWS``), none while there are none: the menu never
        stretches into empty rows between the log and the command line. On a short screen it has first call on
        the rows the screen above can spare (those of the log, the discards and the figures under the hands: the
        hands stay in sight), the status and the key line below staying whole."""
        wanted = self._menu_wanted()
        if not wanted:
            return Dimension.exact(0)
        width, rows = self.width, self.app.application.output.get_size().rows
        # The top bar, the command line and the key line are a row each.
        below = self.app.status_window.preferred_height(width, rows).preferred
        above = to_container(self._screen()).preferred_height(width, rows).min
        fits = max(1, min(wanted, rows - 3 - below - above))
        return Dimension(min=fits, preferred=wanted, max=wanted)

    def _menu_wanted(self) -> int:
        state = self.app.command.complete_state
        return min(MENU_ROWS, len(state.completions)) if state is not None else 0

    def menu_open(self) -> bool:
        """Whether the command line's completions show: the screen's lines under the hands give it their rows."""
        return self.app.application.layout.has_focus(self.app.command) and self._menu_wanted() > 0

    def _menu_cut(self) -> bool:
        """Whether the menu holds more completions than it has rows for."""
        state = self.app.command.complete_state
        return state is not None and len(state.completions) > self._menu_rows().min

    def _screen(self) -> AnyContainer:
        """The middle of the screen; each kind is built once and reused, its text read live on every redraw."""
        if self.app.ui.help_page:
            kind = "help"
        elif self.app.ui.form is not None:
            kind = "form"
        elif self.app.looking_back() is not None:
            kind = "history" if self.app.looking_back() == "history" else "review"
        elif self.model().view is not None:
            kind = "game-wide" if self.width >= WIDE else "game"
        else:
            kind = "lobby"
        if kind not in self._screens:
            self._screens[kind] = self._build(kind)
        return self._screens[kind]

    def _build(self, kind: str) -> AnyContainer:
        if kind == "help":
            # Scrolled by PgUp/PgDn on a screen too short for a page: the line ``help_from`` goes to the top (the
            # cursor kept there, or the window would scroll back to it), and the page's end stays at the bottom.
            wrapped = self.help_page

            def page() -> StyleAndTextTuples:
                return wrapped()[0]

            def top() -> int:
                # Scrolled on a narrow screen, then widened: the page has fewer lines now, and a cursor past its
                # last one is an error to prompt_toolkit.
                return min(self.app.ui.help_from, wrapped()[1])

            self.help_window = Window(FormattedTextControl(
                page, get_cursor_position=lambda: Point(0, top()), show_cursor=False),
                get_vertical_scroll=lambda window: top())
            return self.help_window
        if kind == "form":
            # The field being filled in is kept on screen (with the line after it): a short screen scrolls the form.
            return Window(FormattedTextControl(
                lambda: self.app.ui.form.fragments(self.width) if self.app.ui.form else [],
                get_cursor_position=lambda: Point(0, FORM_TOP + (self.app.ui.form.field if self.app.ui.form else 0)),
                show_cursor=False), scroll_offsets=ScrollOffsets(bottom=1))
        if kind.startswith("game"):
            return self._game_screen(wide=kind == "game-wide")
        if kind == "review":
            return self._game_screen(wide=False, review=True)
        if kind == "history":
            return Window(FormattedTextControl(lambda: history_fragments(
                self.app.get_model(), self.app.history.ui or HistoryUi(), self.width)), wrap_lines=False)
        return Window(FormattedTextControl(
            lambda: lobby_fragments(self.model(), self.app.ui.selected, self.width)), wrap_lines=False)

    def _game_screen(self, wide: bool, review: bool = False) -> AnyContainer:
        def tokens() -> StyleAndTextTuples:
            return self.once("tokens", (self.width,), lambda model: tokens_line(model.view, self.width)
                             if model.view is not None else [])

        def figures() -> StyleAndTextTuples:
            return self.once("figures", (self.width,), lambda model: glance_fragments(model.view, self.width)
                             if model.view is not None else [])

        log_window = self._log_window(with_chat=not wide, yielding=review)
        middle: AnyContainer = log_window
        if wide:
            def chat_text() -> StyleAndTextTuples:
                return self.once("chat", (self._chat_width(),),
                                 lambda model: wrap_words(chat_fragments(model), self._chat_width(), 2))

            chat = FormattedTextControl(chat_text, get_cursor_position=lambda: _end_of(chat_text()))
            middle = VSplit([log_window, Window(width=1, char="│", style="class:rule"),
                             Window(chat, width=self._chat_width, wrap_lines=True)])
        def clocks() -> StyleAndTextTuples:
            return wrap_words(time_fragments(self.model(), time.monotonic(), self.width), self.width, 1)

        # In a review on a short screen the discards, the glance line and the rule give their rows to the bar
        # under the log (a moment's move and why) before it is cut; with room enough every line shows.
        # (prompt_toolkit first grows every window to its preferred height, then shares out what is left: these
        # prefer none, so the bar has its rows first.)
        # Under the command line's completions they give way too, the menu taking what rows they leave.
        # (A review's discards may grow past their preferred none: dont_extend_height would hold them at it.)
        def yields() -> Dimension:
            if review:
                return Dimension(min=0, preferred=0, max=1)
            return Dimension(min=0, preferred=1, max=1) if self.menu_open() else Dimension.exact(1)

        return HSplit([
            Window(HeldText(tokens), height=1),
            ConditionalContainer(Window(FormattedTextControl(clocks), dont_extend_height=True, wrap_lines=True),
                                 Condition(lambda: bool(time_fragments(self.model(), 0.0)))),
            Window(HeldText(self._board), height=self._board_height),
            Window(HeldText(lambda: self.once("discards", (self.width,),
                                                          lambda model: discards(model, self.width))),
                   dont_extend_height=not review, wrap_lines=True, height=self._discards_height if review else None),
            Window(HeldText(figures), height=yields),
            ConditionalContainer(
                Window(FormattedTextControl(lambda: watchers_fragments(self.model(), self.width)), height=1),
                Condition(lambda: bool(self.model().watchers))),
            Window(height=yields, char="─", style="class:rule"),
            middle,
            self._review_bar() if review else ConditionalContainer(
                Window(HeldText(lambda: self.once("end", (self.width,), lambda model: wrap_words(
                    end_fragments(model, solo=self.app.solo), self.width, 1))),
                       dont_extend_height=True, wrap_lines=True),
                Condition(self._game_over)),
        ])

    def _review_bar(self) -> Window:
        """Under a review's log: the step, who leads, the card pointed at."""
        def text() -> StyleAndTextTuples:
            review = self.app.review.current()
            if review is None:
                return []
            player, found = self.app.get_model().player, self.app.review.found()
            # At word boundaries: a moment's two sentences are the longest lines of the bar.
            return self.once("review bar", (self.width, review, player, found), lambda model: wrap_words(
                review_fragments(review, player, found, narrow=self.width < 80, solo=self.app.solo), self.width, 1))

        def rows() -> Dimension:
            # Every line of the bar, the log giving way on a small screen: a moment's move and why are its point.
            shown = text()
            lines = self.once("review bar rows", (shown,),
                              lambda model: to_plain_text(shown).count("\n") + 1 if shown else 0)
            return Dimension(min=min(lines, 1), preferred=lines, max=lines)
        return Window(HeldText(text), height=rows, wrap_lines=True)

    def _discards_height(self) -> Dimension:
        """The discards' lines, none of them needed when the review's bar wants the rows."""
        return Dimension(min=0, preferred=0, max=self._discards_rows())

    def _discards_rows(self) -> int:
        """The lines of the discards (and the table's line under them), counted once per model and width: the
        board's budget asks for them several times a redraw."""
        return self.once("discards rows", (self.width,), lambda model: to_plain_text(
            self.once("discards", (self.width,), lambda model: discards(model, self.width))).count("\n") + 1)

    def _chat_width(self) -> int:
        """The chat's column on a wide screen (the log has the rest, less the rule between them)."""
        return max(30, self.width // 3)

    def _game_over(self) -> bool:
        view = self.model().view
        return view is not None and view.outcome is not None

    def _board(self) -> StyleAndTextTuples:
        """The hands (a redraw asks for them twice: text and height); what each seat knows (k) when it fits."""
        knows, most = self.app.ui.show_knowledge, self._board_most()
        return self.once("board", (knows, self.width, most),
                         lambda model: board_within(model, knows, self.width, most))

    def _board_most(self) -> int:
        """The most lines the board may take: the screen's, less one for each window under or over it that
        needs one (title, tokens, figures, rule, a line of log, status, keys; the watchers, a review's bar), and
        the lines of the clocks and, in a game, of the discards (a review's give way). The command line, when it
        opens, takes the log's line. Without the limit, k on a short screen left prompt_toolkit only its "Window
        too small", and a short screen with many hands no line of log."""
        model = self.model()
        looking_back = self.app.looking_back() is not None
        rest = 7 + bool(model.watchers) + looking_back
        if model.view is not None:
            clocks = wrap_words(time_fragments(model, time.monotonic(), self.width), self.width, 1)
            rest += to_plain_text(clocks).count("\n") + 1 if clocks else 0
            if not looking_back:
                rest += self._discards_rows()
        return self.app.application.output.get_size().rows - rest

    def _board_height(self) -> Dimension:
        """Exactly the hands' lines: the board never gives up a row to the log, the log takes what is left."""
        rows = self.once("board rows", (self.app.ui.show_knowledge, self.width, self._board_most()),
                         lambda model: to_plain_text(self._board()).count("\n") + 1)
        return Dimension.exact(rows)

    def _log_window(self, with_chat: bool, yielding: bool = False) -> Window:
        """The log, newest at the bottom; PgUp/PgDn move the bottom line back and forth through history.
        ``yielding``: the log takes only the rows the windows under it leave (the review's bar, on a short screen)."""

        def text(model: ClientModel, width: int, back: int, rows: int) -> StyleAndTextTuples:
            if self.app.ui.show_notes:  # the notes panel (N) takes the log's place; a long note goes on under it
                return wrap_words(panel_fragments(model, self.app.ui.notes_from), width, 4)
            lines = log_lines(model, with_chat)
            if not lines:
                return [("class:label", "The log of the game shows here.")]
            back = min(back, len(lines) - 1)
            # Only the lines that can show: the window keeps its bottom in sight, and no line takes less than a
            # row, so the screen's height in lines is all it can show of the log above its bottom line.
            end = len(lines) - back
            # A line too long for the log goes on under its text, clear of the turn numbers' column.
            out = wrap_words(join_lines(lines[max(0, end - rows): end]), width, 4)
            if back:
                out.append(("class:status.prompt", f"\n  ({back} newer line{'s' if back != 1 else ''} below: PgDn)"))
            return out

        def shown() -> StyleAndTextTuples:
            width = self.width if with_chat else self.width - 1 - self._chat_width()
            ui = self.app.ui
            rows = self.app.application.output.get_size().rows
            settings = (width, ui.log_back, rows, ui.show_notes, ui.notes_from)
            return self.once("log" if with_chat else "log beside chat", settings,
                             lambda model: text(model, width, ui.log_back, rows))

        def cursor() -> Point:
            # The log keeps its newest line in sight; the notes panel (N) its first, the cards in hands.
            if self.app.ui.show_notes:
                return Point(0, 0)
            text = shown()
            # Held, the text is compared first by identity (a tuple's ==): the same text answers at once.
            return self.once("log end", (text,), lambda model: _end_of(text))

        # Long lines (chat, the last card's notice) wrap rather than being cut at the edge.
        return Window(HeldText(shown, get_cursor_position=cursor), wrap_lines=True,
                      height=Dimension(min=0, preferred=0) if yielding else None)
