"""The "servers on this network" screen: what ``hanabi-client`` shows when it is given no address.

A small full-screen app of its own, run before the game's app: the servers
a ``discovery.Browser`` finds, redrawn twice a second as they come and go,
the highlighted one joined with Enter; ``a`` types an address by hand (the
old way), ``q`` or Ctrl-C quits. A server speaking another protocol version
is marked, and the sentence saying who should upgrade is shown when it is
highlighted (it cannot be joined). ``run`` returns the chosen address, or
None when the player quit.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import ConditionalContainer, FormattedTextControl, HSplit, Layout, Window
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.layout.processors import BeforeInput
from prompt_toolkit.output import Output

from .arguments import LIST_WAIT
from .discovery import Found
from .session import Address, parse_address
from .style import STYLE
from .wrapping import cut, pad

REDRAW_EVERY = 0.5  # seconds: the list is read again on each redraw


class ServerFinder:
    """The screen, reading the servers from ``servers`` (a live source) each time it draws."""

    def __init__(self, servers: Callable[[], list[Found]], problem: str | None = None, *,
                 input: Input | None = None, output: Output | None = None) -> None:
        self.servers = servers
        self.problem = problem
        self.selected = 0
        self.note = ""
        self.note_is_error = False
        self.chosen: Address | None = None
        self.since = time.monotonic()
        self.typed = Buffer(multiline=False, accept_handler=self._typed)
        typing = Condition(lambda: self.application.layout.has_focus(self.typed))
        self.list_window = Window(FormattedTextControl(self._list_text, focusable=True, show_cursor=False))
        self.application: Application[None] = Application(
            layout=Layout(HSplit([
                Window(FormattedTextControl(lambda: [("class:title", " Hanabi — servers on this network ")]),
                       height=1, style="class:title"),
                self.list_window,
                Window(FormattedTextControl(self._status_text), height=3, wrap_lines=True),
                ConditionalContainer(Window(BufferControl(self.typed, input_processors=[
                    BeforeInput("address (HOST or HOST:PORT): ")]), height=1), typing),
                Window(FormattedTextControl(self._keys_text), height=1, style="class:keys"),
            ]), focused_element=self.list_window),
            key_bindings=self._bindings(typing),
            style=STYLE,
            full_screen=True,
            input=input,
            output=output,
            refresh_interval=REDRAW_EVERY,
        )

    def run(self) -> Address | None:
        self.application.run()
        return self.chosen

    # -- what the screen shows ---------------------------------------------------------------------

    def _shown(self) -> list[Found]:
        found = self.servers()
        if found:
            self.selected = min(self.selected, len(found) - 1)
        return found

    def _list_text(self) -> StyleAndTextTuples:
        found = self._shown()
        lines: StyleAndTextTuples = [("", "\n")]
        if not found:
            if self.problem is not None:
                text = "  Cannot look for servers here."
            elif time.monotonic() - self.since < LIST_WAIT:
                text = "  Looking for servers…"
            else:
                # Said after a while: with multicast blocked (a firewall, some Wi-Fi) nothing will ever come.
                text = "  No server found on this network (yet): the list fills in as servers appear."
            return [*lines, ("class:label", text + "\n\n  Press a to type a server's address (HOST or HOST:PORT).\n")]
        lines.append(("class:label", f"  {'name':<32} {'address':<21} {'players':>7} {'tables':>6}\n"))
        for i, server in enumerate(found):
            mark = "!" if server.mismatch() is not None else " "
            players = "?" if server.players is None else str(server.players)
            tables = "?" if server.tables is None else str(server.tables)
            row = f"{'>' if i == self.selected else ' '}{mark}{pad(cut(server.name, 32), 32)} {server.where:<21} " \
                  f"{players:>7} {tables:>6}"
            lines.append(("class:selected" if i == self.selected else "", row))
            lines.append(("", "\n"))
        if any(s.mismatch() is not None for s in found):
            lines.append(("class:label", "\n  ! speaks another protocol version: cannot be joined\n"))
        return lines

    def _status_text(self) -> StyleAndTextTuples:
        if self.note:
            return [("class:status.error" if self.note_is_error else "class:status", " " + self.note)]
        if self.problem is not None:
            return [("class:status.error", " " + self.problem)]
        found = self._shown()
        if found:
            why = found[self.selected].mismatch()
            if why is not None:
                return [("class:status.error", " " + why)]
        return [("class:status", f" {len(found)} found; the list follows the network as servers come and go")]

    def _keys_text(self) -> StyleAndTextTuples:
        if self.application.layout.has_focus(self.typed):
            return [("class:keys.key", " Enter"), ("class:keys", " connect "), ("class:keys.key", " Esc"),
                    ("class:keys", " back to the list ")]
        return [("class:keys.key", " ↑↓"), ("class:keys", " choose "), ("class:keys.key", " Enter"),
                ("class:keys", " join "), ("class:keys.key", " a"), ("class:keys", " type an address "),
                ("class:keys.key", " q"), ("class:keys", " quit ")]

    # -- keys --------------------------------------------------------------------------------------

    def _bindings(self, typing: Condition) -> KeyBindings:
        kb = KeyBindings()
        listing = ~typing

        @kb.add("c-c")
        def _quit(event: KeyPressEvent) -> None:
            self.application.exit()

        @kb.add("q", filter=listing)
        def _q(event: KeyPressEvent) -> None:
            self.application.exit()

        @kb.add("up", filter=listing)
        def _up(event: KeyPressEvent) -> None:
            self._move(-1)

        @kb.add("down", filter=listing)
        def _down(event: KeyPressEvent) -> None:
            self._move(1)

        @kb.add("enter", filter=listing)
        def _join(event: KeyPressEvent) -> None:
            self.join()

        @kb.add("a", filter=listing)
        def _type(event: KeyPressEvent) -> None:
            self.note = ""
            self.application.layout.focus(self.typed)

        @kb.add("escape", filter=typing, eager=True)  # at once: a key typed just after Esc is not an Alt key
        def _back(event: KeyPressEvent) -> None:
            self.typed.reset()
            self.application.layout.focus(self.list_window)

        return kb

    def _move(self, step: int) -> None:
        found = self._shown()
        if found:
            self.selected = (self.selected + step) % len(found)
            self.note = ""

    def join(self) -> None:
        """Enter: join the highlighted server, unless it speaks another protocol."""
        found = self._shown()
        if not found:
            self._say("no server to join yet: wait for one to appear, or press a to type an address", True)
            return
        server = found[self.selected]
        why = server.mismatch()
        if why is not None:
            self._say(f"cannot join {server.name}: {why}", True)
            return
        self.chosen = server.address
        self.application.exit()

    def _typed(self, buffer: Buffer) -> bool:
        try:
            address = parse_address(buffer.text)
        except ValueError as e:
            self._say(str(e), True)
            return True  # keep the text, to be corrected
        self.chosen = address
        self.application.exit()
        return False

    def _say(self, text: str, error: bool = False) -> None:
        self.note, self.note_is_error = text, error
