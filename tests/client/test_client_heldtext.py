"""A held text is laid out again whenever what it shows can differ: a new text, another width, another cursor."""

from __future__ import annotations

from hanabi.client.heldtext import HeldText
from hanabi.client.snapshot import SizedOutput, screen_text
from prompt_toolkit.application import Application
from prompt_toolkit.application.current import set_app
from prompt_toolkit.data_structures import Point
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import DummyInput
from prompt_toolkit.layout import Layout, UIContent, Window

APP: Application[None] = Application(input=DummyInput(), output=SizedOutput())


def made(control: HeldText, width: int) -> UIContent:
    """The control's content in a new frame, as a redraw asks for it (the text is read afresh in each frame)."""
    APP.render_counter += 1
    with set_app(APP):
        return control.create_content(width, None)


def lines(content: UIContent) -> list[str]:
    return ["".join(text for _, text, *_ in content.get_line(i)) for i in range(content.line_count)]


def test_the_same_text_keeps_its_lines_and_another_shows_its_own() -> None:
    shown: list[StyleAndTextTuples] = [[("", "one\ntwo")]]
    control = HeldText(lambda: shown[0])
    first = made(control, 20)
    assert made(control, 20) is first and lines(first) == ["one", "two"]
    shown[0] = [("class:x", "three")]
    assert lines(made(control, 20)) == ["three"]


def test_another_width_or_cursor_is_laid_out_afresh() -> None:
    text: StyleAndTextTuples = [("", "a\nb\nc")]
    cursor = [Point(0, 0)]
    control = HeldText(lambda: text, get_cursor_position=lambda: cursor[0])
    first = made(control, 20)
    assert made(control, 30) is not first
    cursor[0] = Point(1, 2)
    moved = made(control, 30)
    assert moved.cursor_position == Point(1, 2)
    assert made(control, 30) is moved


def test_a_window_of_a_held_text_shows_each_new_text_and_width() -> None:
    shown: list[StyleAndTextTuples] = [[("", "before")]]
    output = SizedOutput(20, 3)
    app: Application[None] = Application(layout=Layout(Window(HeldText(lambda: shown[0]), wrap_lines=True)),
                                         input=DummyInput(), output=output)
    assert screen_text(app, 20, 3).splitlines()[0] == "before"
    shown[0] = [("", "after, and long enough to wrap")]
    assert screen_text(app, 20, 3).splitlines()[:2] == ["after, and long enou", "gh to wrap"]
    assert screen_text(app, 10, 3).splitlines()[:3] == ["after, and", " long enou", "gh to wrap"]
