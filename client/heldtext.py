"""A text control that lays its text out again only when the text itself changes.

prompt_toolkit's ``FormattedTextControl`` splits its text into lines and hashes
every fragment each time a redraw asks for its content (its height, then its
lines: several times a redraw). The screen's parts are made once per model and
setting (``ScreenLayout.once``, the replay viewer's own), so the same text comes
back as the same object until something it shows changes: ``HeldText`` keeps the
content laid out for that object, the width and the cursor, and makes it again
when any of them changes. The rows each of its lines takes (wrapped at the
window's width) are counted once for that content, not again at every redraw.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from prompt_toolkit.data_structures import Point
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import FormattedTextControl, UIContent
from prompt_toolkit.layout.controls import GetLinePrefixCallable


class HeldContent(UIContent):
    """Content laid out once: the rows each line takes at a width are counted once too.

    prompt_toolkit counts them again at every redraw (its count is kept per frame), measuring each character of
    every line of a window that wraps; the lines of held content stay the same, so what was counted stays true.
    A line prefix (a callable, which may say something else at each redraw) is counted as prompt_toolkit does."""

    def __init__(self, content: UIContent) -> None:
        super().__init__(content.get_line, content.line_count, content.cursor_position, content.menu_position,
                         content.show_cursor)
        self._rows: dict[Hashable, int] = {}

    def get_height_for_line(self, lineno: int, width: int, get_line_prefix: GetLinePrefixCallable | None,
                            slice_stop: int | None = None) -> int:
        if get_line_prefix is not None:
            return super().get_height_for_line(lineno, width, get_line_prefix, slice_stop)
        key = (lineno, width, slice_stop)
        rows = self._rows.get(key)
        if rows is None:
            rows = self._rows[key] = super().get_height_for_line(lineno, width, None, slice_stop)
        return rows


class HeldText(FormattedTextControl):
    """A ``FormattedTextControl`` of ``text()``, which must return the same object for as long as it is the same
    text (a part made once per model): a new object is laid out afresh, the same one reuses its lines."""

    def __init__(self, text: Callable[[], StyleAndTextTuples],
                 get_cursor_position: Callable[[], Point | None] | None = None) -> None:
        super().__init__(text, get_cursor_position=get_cursor_position)
        self._made_from: Callable[[], StyleAndTextTuples] = text
        self._held: tuple[StyleAndTextTuples, int, Point | None, UIContent] | None = None

    def create_content(self, width: int, height: int | None) -> UIContent:
        text = self._made_from()
        cursor = self.get_cursor_position() if self.get_cursor_position is not None else None
        held = self._held
        if held is not None and held[0] is text and held[1] == width and held[2] == cursor:
            return held[3]
        content = HeldContent(super().create_content(width, height))
        self._held = (text, width, cursor, content)  # the text held too: its id is not reused while held
        return content
