"""The client as a person typing sees it: keys pressed one at a time and the screen redrawn between them, within
one run of the app (``Terminal.type`` runs the app afresh, which puts its windows back as new).

What these tests catch is what lingers on screen from one key to the next: the command line's label after a long
line, a message about a line already closed, the notes panel."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hanabi.client.model import Link, LinkChanged, Note
from hanabi.protocol import CHAT_MAX
from hanabi.protocol.messages import Chat, GameStarted, Joined, Welcome
from prompt_toolkit.application.current import set_app
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding.key_processor import _Flush

ESC = "\x1b"


def press(term: Any, keys: str) -> str:
    """Press ``keys`` one by one, each taken alone (as a terminal's timeout takes a lone Esc), then draw the
    screen as a redraw would; the screen."""
    application = term.app.application
    processor = application.key_processor
    with set_app(application):
        for key in keys:
            parser = Vt100Parser(processor.feed)
            parser.feed(key)
            parser.flush()
            processor.feed(_Flush)  # no key follows: a key that may begin a longer sequence is taken as it is
            processor.process_keys()
        return term.screen()


def story(steps: Callable[[], None]) -> None:
    """Run ``steps`` in an event loop, as the app's keys run: focusing the command line starts a task (its
    history's loading), which needs one."""

    async def run() -> None:
        steps()

    asyncio.run(run())


def at_game(term: Any, kit: Any) -> None:
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(kit.table(running=True), 0), GameStarted(1, 1),
              kit.view_message(kit.game(), 0))


def command_row(screen: str) -> str:
    """The screen's command line: the row just above the status line and the key line."""
    return screen.splitlines()[-3]


def test_the_command_line_keeps_its_label_after_a_line_longer_than_the_screen(kit, tmp_path: Path) -> None:
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path)
        at_game(term, kit)

        def steps() -> None:
            long_line = press(term, "t" + "y" * 120)
            assert command_row(long_line).endswith("yyy")  # the end of the long line is in sight
            assert command_row(press(term, ESC + "t")) == ": say"
            assert command_row(press(term, "ab")) == ": say ab"
            assert command_row(press(term, ESC + ":")) == ":"
            press(term, "say " + "z" * 120 + "\r")  # a long line sent clears the line too
            assert command_row(press(term, "t")) == ": say"

        story(steps)


def test_esc_takes_away_what_was_said_of_the_line_it_closed(kit, tmp_path: Path) -> None:
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path)
        at_game(term, kit)

        def steps() -> None:
            press(term, "t" + "x" * (CHAT_MAX + 100) + "\r")
            assert f"at most {CHAT_MAX} characters" in term.store.model.status  # the line stays to be shortened
            assert f"at most {CHAT_MAX}" not in press(term, ESC)
            assert term.store.model.status == ""

        story(steps)


def test_esc_leaves_a_newer_message_alone(kit, tmp_path: Path) -> None:
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path)
        at_game(term, kit)

        def steps() -> None:
            press(term, "t" + "x" * (CHAT_MAX + 1) + "\r")
            term.feed(Note("bob joined"))  # said since: not about the line
            press(term, ESC)
            assert term.store.model.status == "bob joined"

        story(steps)


def test_chat_typed_while_the_server_is_away_stays_on_the_line(kit, tmp_path: Path) -> None:
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path)
        at_game(term, kit)
        term.feed(LinkChanged(Link.RECONNECTING, "server:7777", "Lost the connection to server:7777; reconnecting…"))
        assert term.type("thello all\r") == []
        assert term.store.model.status == "not connected — reconnecting; try again once back"
        assert term.app.command.text == "say hello all"
        assert command_row(term.screen()) == ": say hello all"
        term.feed(Welcome(1, "server", "alice", "tok", ""))  # back: Enter sends the same line
        assert term.type("\r") == [Chat("hello all")]
        assert term.app.command.text == ""


def test_esc_closes_the_notes_panel(kit, tmp_path: Path) -> None:
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path)
        at_game(term, kit)
        term.type("N")
        assert "Notes: none yet" in term.screen()
        term.type(ESC)
        assert "Notes: none yet" not in term.screen() and "a new game starts" in term.screen()
