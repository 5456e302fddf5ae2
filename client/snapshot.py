"""The screen as plain text: what a terminal of a given size would show, without a terminal.

Used by the tests (is this on screen? does it fit 80x24?) and to capture the
docs' pictures of a game. It lays the application's containers out on a
prompt_toolkit ``Screen`` exactly as a redraw would, then reads the characters.
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import set_app
from prompt_toolkit.data_structures import Size
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition
from prompt_toolkit.output import DummyOutput


class SizedOutput(DummyOutput):
    """An output that draws nothing but claims a terminal size, so layouts that depend on width can be seen."""

    def __init__(self, columns: int = 80, rows: int = 24) -> None:
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        return self.size


def screen_text(application: Application[Any], columns: int = 80, rows: int = 24) -> str:
    """The characters of the whole screen, one line per row, trailing spaces removed."""
    screen = Screen(default_char=None, initial_width=columns, initial_height=rows)
    # A new frame, as a redraw would count it: controls cache their text per frame.
    application.render_counter += 1
    with set_app(application):
        container = application.layout.container
        container.write_to_screen(screen, MouseHandlers(), WritePosition(0, 0, columns, rows), "", False, None)
        screen.draw_all_floats()
    lines = []
    for y in range(rows):
        row = screen.data_buffer[y]
        chars = []
        x = 0
        while x < columns:
            char = row[x]
            chars.append(char.char)
            x += max(1, char.width)
        lines.append("".join(chars).rstrip())
    return "\n".join(lines)
