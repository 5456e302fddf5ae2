"""The client's keys: which key does what on which screen, as prompt_toolkit bindings.

Printable keys outside the command line go to ``ClientApp.key``, which knows
the screen of the moment; the bindings here are the keys that are not
letters (Enter, Esc, arrows, Tab, PgUp/PgDn) and Ctrl-C, which always quits.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

if TYPE_CHECKING:
    from .app import ClientApp

Handler = Callable[[KeyPressEvent], None]


def guarded(app: ClientApp, handler: Handler) -> Handler:
    """A key handler that cannot take the app down: a bug becomes a line in the status bar."""

    def run(event: KeyPressEvent) -> None:
        try:
            handler(event)
        except Exception as e:  # a bug must not leave the player with a dead terminal
            app.cancel()
            app.note(f"Something went wrong in the client ({type(e).__name__}: {e}); the game goes on.", True)

    return run

# While rewinding (rewind.py): how many steps each key moves; Home and End go as far as there is.
REWIND_STEPS = {"left": -1, "right": 1, "home": -10_000, "end": 10_000}


def _rewind_keys(app: ClientApp, kb: KeyBindings, outside: Filter) -> None:
    rewinding = Condition(lambda: app.mode() == "rewind") & outside
    for key, steps in REWIND_STEPS.items():
        def move(event: KeyPressEvent, steps: int = steps) -> None:
            app.rewind_move(steps)
        kb.add(key, filter=rewinding)(guarded(app, move))


def key_bindings(app: ClientApp) -> KeyBindings:
    """Every key of the app; each handler runs guarded, so a bug costs a status line, not the terminal."""
    kb = KeyBindings()

    def add(*keys: str | Keys, filter: Filter | bool = True) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            kb.add(*keys, filter=filter)(guarded(app, handler))
            return handler
        return register
    typing = Condition(lambda: app.application.layout.has_focus(app.command))
    outside = ~typing
    in_form = Condition(lambda: app.ui.form is not None) & outside

    @add("c-c")
    def _quit(event: KeyPressEvent) -> None:
        app.ask_to_quit()

    @add(Keys.Any, filter=outside)
    def _any(event: KeyPressEvent) -> None:
        data = event.data
        if len(data) == 1 and data.isprintable():
            app.key(data)

    @add("escape", filter=outside)
    def _escape(event: KeyPressEvent) -> None:
        app.escape()

    @add("escape", filter=typing)
    def _leave_command(event: KeyPressEvent) -> None:
        app.ui.secret = None
        app.ui.prompt = ""
        app.command.reset()
        app.application.layout.focus(app.status_window)

    @add("enter", filter=outside)
    def _enter(event: KeyPressEvent) -> None:
        app.enter()

    @add("up", filter=outside)
    def _up(event: KeyPressEvent) -> None:
        app.move(-1)

    @add("down", filter=outside)
    def _down(event: KeyPressEvent) -> None:
        app.move(1)

    @add("tab", filter=in_form)
    def _tab(event: KeyPressEvent) -> None:
        app.move(1)

    @add("left", filter=in_form)
    def _left(event: KeyPressEvent) -> None:
        assert app.ui.form is not None
        app.ui.form.change(-1)

    @add("right", filter=in_form)
    def _right(event: KeyPressEvent) -> None:
        assert app.ui.form is not None
        app.ui.form.change(1)

    @add("backspace", filter=in_form)
    def _backspace(event: KeyPressEvent) -> None:
        assert app.ui.form is not None
        app.ui.form.backspace()

    _rewind_keys(app, kb, outside)

    @add("pageup", filter=outside)
    def _page_up(event: KeyPressEvent) -> None:
        app.scroll(5)

    @add("pagedown", filter=outside)
    def _page_down(event: KeyPressEvent) -> None:
        app.scroll(-5)

    _review_keys(app, add, outside)
    return kb


def _review_keys(app: ClientApp, add: Callable[..., Callable[[Handler], Handler]], outside: Filter) -> None:
    """The review's arrows, and Enter on the history (added last: it wins over Enter's other meanings there)."""
    reviewing = Condition(lambda: app.mode() in ("review", "alone")) & outside
    arrows = {Keys.Left: "left", Keys.Right: "right", Keys.Home: "home", Keys.End: "end"}

    for key, name in arrows.items():
        def step(event: KeyPressEvent, name: str = name) -> None:
            app.review.arrow(name)
        add(key, filter=reviewing)(step)

    @add("enter", filter=Condition(lambda: app.mode() == "history") & outside)
    def _open(event: KeyPressEvent) -> None:
        app.key("o")
