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


def test_the_rows_of_a_held_line_are_counted_once_and_again_for_another_width_or_text(monkeypatch) -> None:
    counted: list[tuple[int, int]] = []
    count = UIContent.get_height_for_line

    def counting(self: UIContent, lineno: int, width: int, *rest: object) -> int:
        counted.append((lineno, width))
        return count(self, lineno, width, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(UIContent, "get_height_for_line", counting)
    shown: list[StyleAndTextTuples] = [[("", "x" * 25)]]
    control = HeldText(lambda: shown[0])
    assert made(control, 10).get_height_for_line(0, 10, None) == 3
    assert made(control, 10).get_height_for_line(0, 10, None) == 3  # a later frame: the same count, not again
    assert counted == [(0, 10)]
    assert made(control, 30).get_height_for_line(0, 30, None) == 1  # another width: counted for it
    shown[0] = [("", "x" * 45)]
    assert made(control, 30).get_height_for_line(0, 30, None) == 2  # another text: its own count
    assert counted == [(0, 10), (0, 30), (0, 30)]


def test_a_line_prefix_is_asked_again_in_each_frame() -> None:
    prefix = ["> "]
    content = made(HeldText(lambda: [("", "x" * 18)]), 10)

    def rows() -> int:
        APP.render_counter += 1  # a new frame
        with set_app(APP):
            return content.get_height_for_line(0, 10, lambda line, wrapped: prefix[0])

    assert rows() == 3
    prefix[0] = ""
    assert rows() == 2
