"""A text control that lays its text out again only when the text itself changes.

prompt_toolkit's ``FormattedTextControl`` splits its text into lines and hashes
every fragment each time a redraw asks for its content (its height, then its
lines: several times a redraw). The screen's parts are made once per model and
setting (``ScreenLayout.once``, the replay viewer's own), so the same text comes
back as the same object until something it shows changes: ``HeldText`` keeps the
content laid out for that object, the width and the cursor, and makes it again
when any of them changes.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.data_structures import Point
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import FormattedTextControl, UIContent


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
        content = super().create_content(width, height)
        self._held = (text, width, cursor, content)  # the text held too: its id is not reused while held
        return content
