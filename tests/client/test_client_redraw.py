"""A redraw works out what a view implies once per view: the board and the glance line are made once however
often the screen is drawn, and the log is cut to what can show without changing what shows."""

from __future__ import annotations

from hanabi.client import layout
from hanabi.engine import Discard, apply
from prompt_toolkit.data_structures import Size
from prompt_toolkit.formatted_text import to_plain_text

from .conftest import Terminal


def long_game(kit):
    state = kit.game()
    for _ in range(60):
        state = kit.clue_something(state) if state.clue_tokens else apply(
            state, Discard(state.hands[state.current][-1]))
    return state


def seated(term: Terminal, kit, state) -> None:
    from hanabi.protocol.messages import GameStarted, Joined, Welcome
    term.feed(Welcome(1, "server", kit.NAMES[0], "tok", ""), Joined(kit.table(running=True), 0), GameStarted(1, 1),
              kit.view_message(state, 0))


def test_the_board_and_the_glance_are_made_once_per_view(term: Terminal, kit, monkeypatch) -> None:
    made: list[str] = []
    board, glance = layout.board_within, layout.glance_fragments
    monkeypatch.setattr(layout, "board_within", lambda *a: made.append("board") or board(*a))
    monkeypatch.setattr(layout, "glance_fragments", lambda *a: made.append("glance") or glance(*a))
    state = kit.game()
    seated(term, kit, state)
    first = term.screen()
    assert term.screen() == first and term.screen() == first
    assert made == ["board", "glance"]
    term.feed(kit.view_message(kit.clue_something(state), 0))  # a new view: made again, once
    assert term.screen() != first
    assert made == ["board", "glance", "board", "glance"]


def test_a_redraw_makes_no_throwaway_buffer_while_the_command_line_is_closed(term: Terminal, kit, monkeypatch) -> None:
    from prompt_toolkit.buffer import Buffer

    made: list[Buffer] = []
    init = Buffer.__init__
    monkeypatch.setattr(Buffer, "__init__", lambda self, *a, **k: made.append(self) or init(self, *a, **k))
    seated(term, kit, kit.game())
    term.screen()
    assert made == []  # the completions menu asks for the focused buffer only while the command line is open


def test_the_discards_lines_are_counted_again_for_each_view_and_width(term: Terminal, kit) -> None:
    from hanabi.client.screens import discards

    def counted() -> tuple[int, int]:
        model, width = term.app.screen.model(), term.app.width
        return term.app.screen._discards_rows(), to_plain_text(discards(model, width)).count("\n") + 1

    term.app.application.output.size = Size(rows=24, columns=40)
    seated(term, kit, kit.game())
    term.screen()
    first, truth = counted()
    assert first == truth
    seated(term, kit, long_game(kit))  # a new view, with a discard pile
    term.screen()
    again, truth = counted()
    assert again == truth and again > first
    term.app.application.output.size = Size(rows=24, columns=80)  # wider: the pile takes fewer lines
    wide, truth = counted()
    assert wide == truth and wide < again


def test_the_log_shows_its_newest_lines_and_scrolls_back_through_the_whole_game(term: Terminal, kit) -> None:
    state = long_game(kit)
    seated(term, kit, state)
    log = [to_plain_text(line.fragments).rstrip() for line in term.store.model.log if line.kind == "event"]
    assert len(log) > 50
    assert log[-1] in term.screen()
    for _ in range(8):  # PgUp, 5 lines a time, 40 lines back: to lines the cut first log never held
        term.type("\x1b[5~")
    screen = term.screen()
    assert "40 newer lines below: PgDn" in screen
    assert log[-41] in screen and log[-40] not in screen and log[-1] not in screen


def test_each_rewind_step_tells_the_log_of_that_step(term: Terminal, kit) -> None:
    from dataclasses import replace

    from hanabi.client.model import Link, log_new_events
    from hanabi.engine import seat_history

    state = long_game(kit)
    seated(term, kit, state)
    live = term.store.model
    assert live.view is not None
    term.app.open_rewind()
    rewind = term.app.ui.rewind
    assert rewind is not None
    for step, past in enumerate(seat_history(live.view)):
        rewind.step = step
        told_afresh = log_new_events(replace(live, link=Link.REPLAY, view=past, log=(), logged_events=0, hands=()),
                                     past)
        shown = rewind.shown(live)
        assert shown.log == told_afresh.log and shown.view == past and len(shown.log) == step


def test_the_help_page_is_wrapped_once_per_page_and_width(term: Terminal, kit, monkeypatch) -> None:
    made: list[int] = []
    page = layout.help_fragments
    monkeypatch.setattr(layout, "help_fragments", lambda number: made.append(number) or page(number))
    seated(term, kit, kit.game())
    term.app.open_help()
    first = term.screen()
    assert "help" in first.lower()
    assert term.screen() == first
    assert made == [1]  # the text, its cursor and its scroll all read the one wrapping
    term.app.help_key("?")  # the next page: wrapped anew, once
    term.screen()
    assert made == [1, 2]
