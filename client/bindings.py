"""The client's keys: which key does what on which screen, as prompt_toolkit bindings filtered by the screen.

Each screen (``ClientApp.mode``: the lobby, a game seated or watched, its
end, a rewind, the table's review, a game looked at alone, the history, the
form, the command line) has its keys together below, each bound with what
it does on the key line at the bottom of the screen, so the line shows what
is bound there and nothing else. Something under way (the help, a
shortcut's next key, a question waiting for "y", the form) takes every
printable key before any screen does: those are the modal keys. The keys
that are not letters (Enter, Esc, arrows, PgUp/PgDn) and Ctrl-C, which
always quits, are bound once for every screen unless a screen gives them a
meaning of its own. Every handler runs guarded: a bug costs a status line,
not the terminal.

The keys are the same for every app, so they are bound once (``keymap()``):
each handler, filter and key line's condition is given, or asks for, the
``ClientApp`` it acts on (the one whose prompt_toolkit application runs it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, cast

from prompt_toolkit.application.current import get_app
from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings, KeyBindingsBase, KeyPressEvent, merge_key_bindings
from prompt_toolkit.keys import Keys

from . import handing
from . import keys as shortcuts
from .commands import LobbyIntent
from .handing import someone_away
from .model import ClientModel
from .rewind import STEP_KEYS
from .screens import chat_closed
from .stepping import Move, Place

if TYPE_CHECKING:
    from prompt_toolkit.application import Application

    from .app import ClientApp, ClientApplication

Handler = Callable[["ClientApp", KeyPressEvent], None]
Action = Callable[["ClientApp"], None]
When = Callable[["ClientApp", ClientModel], bool]  # whether a key shows on the line, for the app and model drawn

# While rewinding or reviewing: where each of these keys goes in the game's history.
ARROWS: dict[str, Move] = {"left": Place.back, "right": Place.on, "home": Place.start, "end": Place.end}


def client_of(application: Application[object]) -> ClientApp:
    """The ``ClientApp`` a prompt_toolkit application belongs to."""
    return cast("ClientApplication", application).client


def current() -> ClientApp:
    """The ``ClientApp`` whose application runs now: the one a key's filter is asked about."""
    return client_of(get_app())


def guarded(handler: Handler) -> Callable[[KeyPressEvent], None]:
    """A key handler, given its app, that cannot take the app down: a bug becomes a line in the status bar."""

    def run(event: KeyPressEvent) -> None:
        app = client_of(event.app)
        try:
            handler(app, event)
        except Exception as e:  # a bug must not leave the player with a dead terminal
            app.cancel()
            app.note(f"Something went wrong in the client ({type(e).__name__}: {e}); the game goes on.", True)

    return run


def acting(action: Action) -> Callable[[KeyPressEvent], None]:
    """The guarded handler of a key that does ``action`` to its app, whatever the key."""
    return guarded(lambda app, event: action(app))


def printable(event: KeyPressEvent) -> str | None:
    """The character a key typed, or None for a key that types none (an arrow, F1, Ctrl-A)."""
    data = event.data
    return data if len(data) == 1 and data.isprintable() else None


@dataclass(frozen=True, slots=True)
class Shown:
    """A key as the key line shows it: its label, what it does, and when it shows (given the app and model drawn)."""

    label: str
    what: str
    when: When | None = None


class ScreenKeys:
    """One screen's keys: its bindings, active while the screen is up, and its key line in the order it shows.

    ``add`` binds keys with what they do on the line; ``show`` puts on the line a key bound for every screen
    (Enter, Esc, PgUp, Ctrl-C, and the keys of ``Everywhere``) with what it does here.
    """

    def __init__(self, active: Filter, free: Filter) -> None:
        self.active = active
        self.free = free  # nothing under way takes printable keys
        # The help covers the screen: the screen's other keys (arrows...) must not act on what is under it.
        self.uncovered = Condition(lambda: not current().ui.help_page)
        self.bindings = KeyBindings()
        self.line: list[Shown] = []

    def add(self, *keys: str | Keys, what: str | None = None, label: str | None = None,
            when: When | None = None) -> Callable[[Action], Action]:
        """Bind each of ``keys`` (each one key) to the decorated action; ``what``: its words on the key line."""
        def register(action: Action) -> Action:
            for key in keys:
                typed = isinstance(key, str) and len(key) == 1
                self.bindings.add(key, filter=self.active & (self.free if typed else self.uncovered))(acting(action))
            if what is not None:
                self.show(label or str(keys[0]), what, when)
            return action
        return register

    def show(self, label: str, what: str, when: When | None = None) -> None:
        self.line.append(Shown(label, what, when))

    def others(self, action: Callable[[ClientApp, str], None]) -> None:
        """Every other printable key of this screen goes to ``action``."""
        def run(app: ClientApp, event: KeyPressEvent) -> None:
            key = printable(event)
            if key is not None:
                action(app, key)
        self.bindings.add(Keys.Any, filter=self.active & self.free)(guarded(run))


class Keymap:
    """Every key: the modal keys, the keys for every screen, and each screen's own."""

    def __init__(self) -> None:
        self.typing = Condition(lambda: typing(current()))
        self.outside = ~self.typing
        self.modal = self.outside & Condition(lambda: modal_state(current()) is not None)
        self.free = self.outside & ~self.modal
        self.screens: dict[str, ScreenKeys] = {}
        self.everywhere = KeyBindings()  # Ctrl-C, Enter, Esc, PgUp/PgDn, and the keys of every screen (: t ? H)

    def screen(self, name: str, active: Filter | None = None) -> ScreenKeys:
        when = active if active is not None else Condition(lambda: current().mode() == name)
        keys = ScreenKeys(self.outside & when, self.free)
        self.screens[name] = keys
        return keys

    def line(self, app: ClientApp, model: ClientModel) -> list[tuple[str, str]]:
        """The key line of ``app``'s screen up now: its keys that show for ``model`` (the model drawn)."""
        name = app.mode()
        if name == "game" and model.seat is None:
            name = "watch"
        return [(s.label, s.what) for s in self.screens[name].line if s.when is None or s.when(app, model)]

    def bindings(self) -> KeyBindingsBase:
        # Everything else first: for the same key, the last binding added among the active ones wins.
        return merge_key_bindings([self.everywhere, *(s.bindings for s in self.screens.values())])


def typing(app: ClientApp) -> bool:
    """Whether the command line has the keys."""
    return app.application.layout.has_focus(app.command)


def modal_state(app: ClientApp) -> str | None:
    """What takes every printable key now, or None: the help, the form, a question waiting for "y", the next key
    of a shortcut, or of pointing at a card in the review."""
    ui = app.ui
    if ui.help_page:
        return "help"
    if ui.form is not None:
        return "form"
    if ui.confirm_quit:
        return "quit?"
    if ui.confirm is not None:
        return "leave?"
    if ui.pending or ui.note_keys:
        return "shortcut"
    if app.review.ui.pointing and app.mode() in ("review", "alone"):
        return "pointing"
    if app.review.ui.what_if_keys and app.mode() == "whatif":
        return "what if"
    return None


def _modal_keys(keymap: Keymap) -> None:
    """What is under way takes each printable key: the help turns its page (?) or closes; the form takes its text;
    a question takes its answer; a shortcut its next key."""
    takers: dict[str, Callable[[ClientApp, str], None]] = {
        "help": lambda app, key: app.help_key(key),
        "form": lambda app, key: app.form_key(key),
        "quit?": lambda app, key: app.answer_quit(key),
        "leave?": lambda app, key: app.answer_confirm(key),
        "shortcut": lambda app, key: app.shortcut_key(key),
        "pointing": lambda app, key: app.review.point_key(key),
        "what if": lambda app, key: app.review.what_if_key(key),
    }
    for state, take in takers.items():
        def run(app: ClientApp, event: KeyPressEvent, take: Callable[[ClientApp, str], None] = take) -> None:
            key = printable(event)
            if key is not None:
                take(app, key)
        keymap.everywhere.add(Keys.Any, filter=keymap.outside & Condition(
            lambda state=state: modal_state(current()) == state))(guarded(run))  # type: ignore[misc]


def _everywhere(keymap: Keymap) -> None:
    """The keys every screen has; each screen's line says where they show."""
    kb, outside, free = keymap.everywhere, keymap.outside, keymap.free

    def add(key: str | Keys, filter: Filter | bool = True, eager: bool = False) -> Callable[[Action], Action]:
        def register(action: Action) -> Action:
            kb.add(key, filter=filter, eager=eager)(acting(action))
            return action
        return register

    add("c-c")(lambda app: app.ask_to_quit())
    add(":", free)(lambda app: app.open_command())
    add("/", free)(lambda app: app.open_command())
    add("t", free)(lambda app: app.open_chat())
    add("?", free)(lambda app: app.open_help())
    add(handing.KEY, free)(lambda app: app.start_handing())
    # Eager: Esc acts at once. Otherwise prompt_toolkit waits up to a second for an Alt key (Esc then a letter),
    # and a key typed in that second after Esc is taken with it (Esc c capitalises a word) instead of as itself.
    add("escape", outside, eager=True)(lambda app: app.escape())
    add("escape", keymap.typing, eager=True)(lambda app: app.leave_command())
    add("c-u", keymap.typing)(lambda app: app.clear_line())
    add("enter", outside)(lambda app: app.enter())
    at_note_prompt = Condition(lambda: len(current().ui.note_keys) == 3)
    add("backspace", outside & at_note_prompt)(lambda app: app.delete_note())
    add("delete", outside & at_note_prompt)(lambda app: app.delete_note())
    add("pageup", outside)(lambda app: app.scroll(5))
    add("pagedown", outside)(lambda app: app.scroll(-5))


def _command_and_form(keymap: Keymap) -> None:
    # The command line's own keys are prompt_toolkit's. On the name line (the server refused our name) there is
    # nothing to complete and nothing to go back to: Esc only clears what was typed, and Ctrl-C quits.
    commands = keymap.screen("command")
    naming: When = lambda app, _: app.ui.naming  # noqa: E731
    commanding: When = lambda app, _: not app.ui.naming  # noqa: E731
    commands.show("Enter", "send", commanding)
    commands.show("Enter", "choose the name", naming)
    commands.show("Tab", "complete", commanding)
    commands.show("Esc", "cancel", commanding)
    commands.show("Esc", "clear", naming)
    form = keymap.screen("form")
    form.show("Enter", "create")
    form.show("Esc", "cancel")

    def change(step: int) -> Action:
        return lambda app: app.ui.form.change(step) if app.ui.form is not None else None

    form.add("up")(lambda app: app.ui.form.move(-1) if app.ui.form is not None else None)
    form.add("down", "tab")(lambda app: app.ui.form.move(1) if app.ui.form is not None else None)
    form.add("left")(change(-1))
    form.add("right")(change(1))
    form.add("backspace")(lambda app: app.ui.form.backspace() if app.ui.form is not None else None)
    form.add("c-u")(lambda app: app.ui.form.clear() if app.ui.form is not None else None)
    form.add("enter")(lambda app: app.lobby.submit_form())


def _lobby(keymap: Keymap) -> None:
    lobby = keymap.screen("lobby")
    lobby.add("up", what="choose", label="↑↓")(lambda app: app.lobby.move(-1))
    lobby.add("down")(lambda app: app.lobby.move(1))
    # At a table the players talk and type commands (hand, host...) while they wait: chat and the command line
    # come early, before the keys for the other tables, which a narrow line lets go first.
    lobby.show("t", "chat", lambda app, model: at_table(app, model) and chat_open(app, model))
    lobby.show(":", "cmd", at_table)
    lobby.add("j", what="join")(lambda app: app.lobby.enter_chosen("j"))
    lobby.add("s", what="watch")(lambda app: app.lobby.enter_chosen("s"))
    lobby.add("n", what="new")(lambda app: app.lobby.open_form())
    lobby.add("h", what="history")(lambda app: app.history.open())
    lobby.add("r", what="refresh")(lambda app: app.lobby.refresh())
    lobby.show("t", "chat", lambda app, model: not at_table(app, model) and chat_open(app, model))
    lobby.show(":", "cmd", lambda app, model: not at_table(app, model))
    lobby.show("?", "help")
    lobby.add("q", what="quit")(lambda app: app.ask_to_quit())
    lobby.add("b")(lambda app: app.lobby.add_bot())
    lobby.add("x")(lambda app: app.lobby.remove_bot())
    lobby.add("g")(lambda app: app.lobby.act(LobbyIntent("start")))
    lobby.add("l")(lambda app: app.act(LobbyIntent("leave")))


def at_table(app: ClientApp, model: ClientModel) -> bool:
    return model.table is not None


def paused(app: ClientApp, model: ClientModel) -> bool:
    """The game stands still, paused by hand: z resumes it (a game that paused itself for an absent player goes on
    once they are back, not on z)."""
    return model.clock is not None and model.clock.paused and model.clock.paused_by is not None


def running(app: ClientApp, model: ClientModel) -> bool:
    return model.clock is None or not model.clock.paused


def chat_open(app: ClientApp, model: ClientModel) -> bool:
    return chat_closed(model) is None


def advice_allowed(app: ClientApp, model: ClientModel) -> bool:
    """``a`` shows where the host allowed advice (the coach answers on our turn)."""
    return model.table is not None and model.table.advice


def hand_shown(app: ClientApp, model: ClientModel) -> bool:
    """``H`` shows when we host and someone is away: the one key that lets the game go on without them."""
    return model.table is not None and model.is_host and someone_away(model.table)


def not_solo(app: ClientApp, model: ClientModel) -> bool:
    return not app.solo


def solo(app: ClientApp, model: ClientModel) -> bool:
    return app.solo


def _board(screen: ScreenKeys, *, running: bool) -> None:
    """The board's keys, in the game and at its end: what each player knows, notes, the last bot's reason; while
    the game runs, pausing and the queued move."""
    screen.add("k")(lambda app: app.toggle_knowledge())
    screen.add("n")(lambda app: app.start_note())
    screen.add("N")(lambda app: app.toggle_notes())
    screen.add("w")(lambda app: app.why())
    if running:
        screen.add("z")(lambda app: app.lobby.act(LobbyIntent("pause")))
        screen.add("u")(lambda app: app.lobby.act(LobbyIntent("unqueue")))
        screen.add("r")(lambda app: app.open_rewind())
        screen.add("i")(lambda app: app.start_card_history())
        for key in shortcuts.STARTERS:
            screen.add(key)(lambda app, key=key: app.start_shortcut(key))  # type: ignore[misc]
        # One stray key must not walk out of a game; say how to, and what it costs.
        screen.add("q")(lambda app: app.note(
            "q does not quit during a game: Ctrl-C quits (a solo game ends with it)" if app.solo else
            "q does not quit during a game: Ctrl-C quits (your seat waits for you to come back)"))
    screen.add("up")(lambda app: app.scroll(1))
    screen.add("down")(lambda app: app.scroll(-1))


def _game(keymap: Keymap) -> None:
    """A game in progress: a seat's keys, and a spectator's (the same board, and l to stop watching)."""
    in_game = Condition(lambda: current().mode() == "game")
    seated = Condition(lambda: current().get_model().seat is not None)
    game = keymap.screen("game", in_game & seated)
    for key, what in (("p", "play"), ("d", "discard"), ("c", "clue")):
        game.show(key, what)
    # Early in the line: where advice is allowed, it is what a newcomer looks for (at 80 columns pause gives way).
    game.add("a", what="advice", when=advice_allowed)(lambda app: app.ask_advice())
    for key, what in (("m", "move"), ("k", "knows"), ("n", "note")):
        game.show(key, what)
    game.show(handing.KEY, "hand seat", hand_shown)
    game.show("t", "chat", chat_open)
    game.show("z", "pause", running)
    game.show("z", "resume", paused)
    for key, what in ((":", "cmd"), ("?", "help"), ("r", "rewind"), ("N", "notes"), ("w", "why"), ("PgUp", "log"),
                      ("^C", "quit")):
        game.show(key, what)
    _board(game, running=True)

    watch = keymap.screen("watch", in_game & ~seated)
    watch.add("v", what="as a player")(lambda app: app.watch_next_seat())
    watch.show("k", "knows")
    watch.show("N", "notes")
    watch.show("t", "chat", chat_open)
    # A spectator leaving ends nothing.
    watch.add("l", what="stop watching")(lambda app: app.act(LobbyIntent("leave")))
    for key, what in ((":", "cmd"), ("?", "help"), ("PgUp", "log"), ("^C", "quit")):
        watch.show(key, what)
    _board(watch, running=True)


def _end(keymap: Keymap) -> None:
    """The end of a game: its replay, another game, leaving; and the board's keys."""
    end = keymap.screen("end")
    end.add("s", what="save replay")(lambda app: app.save_replay())
    _end_keys(end, solo_leaves=True)
    end.show("N", "notes")
    end.show(handing.KEY, "hand seat", hand_shown)
    end.show("t", "chat", chat_open)
    end.show(":", "cmd")
    end.show("q", "quit")
    _board(end, running=False)


def _end_keys(screen: ScreenKeys, *, solo_leaves: bool = False, shown: bool = True) -> None:
    """Another game, and leaving (at a game's end in --solo, l quits as q does, and the line leaves it out);
    ``shown=False``: bound only, the screen saying them in its own order."""
    screen.add("a", what="again" if shown else None)(lambda app: app.act(LobbyIntent("again")))
    screen.add("l", what="leave" if shown else None, when=not_solo if solo_leaves else None)(
        lambda app: app.act(LobbyIntent("leave")))
    screen.add("q")(lambda app: app.ask_to_quit())


def _rewind(keymap: Keymap) -> None:
    """Rewinding a game in progress: steps and rounds; any other key of the game says to return first."""
    rewind = keymap.screen("rewind")

    def move(move: Move) -> Action:
        return lambda app: app.rewind_move(move)

    rewind.add("left", what="step", label="←→")(move(ARROWS["left"]))
    rewind.add("right")(move(ARROWS["right"]))
    for key in STEP_KEYS:
        rewind.add(key, what="round" if key == "[" else None, label="[]")(
            lambda app, key=key: app.rewind_key(key))  # type: ignore[misc]
    rewind.add("home", what="deal/now", label="Home/End")(move(ARROWS["home"]))
    rewind.add("end")(move(ARROWS["end"]))
    rewind.add("r", what="back to the game")(lambda app: app.close_rewind())
    rewind.show("t", "chat", chat_open)
    rewind.show("?", "help")
    rewind.show("^C", "quit")
    rewind.add("up")(lambda app: app.scroll(1))
    rewind.add("down")(lambda app: app.scroll(-1))
    rewind.others(lambda app, key: app.rewind_key(key))  # refused, said on the status line


def _review(keymap: Keymap) -> None:
    """The table's review, and a game from the history looked at alone: steps, following the leader, pointing."""
    review = keymap.screen("review")
    alone = keymap.screen("alone")
    _board(review, running=False)  # the end's keys go on under the review (↑↓ are the review's: added after)
    for screen in (review, alone):
        for key in ARROWS:
            screen.add(key)(lambda app, key=key: app.review.move(ARROWS[key]))  # type: ignore[misc]
        screen.add("up")(lambda app: app.review.move(Place.page_back))
        screen.add("down")(lambda app: app.review.move(Place.page_on))
        screen.add("f")(lambda app: app.review.follow())
        screen.add("o")(lambda app: app.review.point_key("o"))
        screen.add("s")(lambda app: app.review.save())
        screen.add("m")(lambda app: app.review.jump(forward=True))
        screen.add("M")(lambda app: app.review.jump(forward=False))
    review.show("←→", "step")
    review.show("m/M", "moments")
    # In --solo no one else is there to follow, and l quits (the table is the whole private server).
    review.show("f", "follow", not_solo)
    # Early on the line, which a narrow screen cuts from its end: l is the way out of the review.
    review.show("l", "lobby", not_solo)
    review.show("l", "quit", solo)
    review.show("o", "point")
    review.show("h", "what if")
    review.show("a", "again")
    review.show("s", "save")
    _end_keys(review, shown=False)
    review.show("t", "chat", chat_open)
    review.show("q", "quit", not_solo)  # said as l, early on the line
    for screen in (review, alone):
        screen.add("h")(lambda app: app.review.start_what_if())
    for key, what in (("←→", "step"), ("m/M", "moments"), ("↑↓", "10 steps"), ("Home/End", "ends"), ("s", "save"),
                      ("h", "what if")):
        alone.show(key, what)
    alone.add("q", what="back")(lambda app: app.back())


def _what_if(keymap: Keymap) -> None:
    """A what if, in the table's review or alone: moves for the seat to act, the bot's, taking one back, the drawn
    cards shown or not, and leaving."""
    screen = keymap.screen("whatif")
    for key in ("p", "d", "c"):
        screen.add(key)(lambda app, key=key: app.review.what_if_key(key))  # type: ignore[misc]

    def plays(app: ClientApp, model: ClientModel) -> bool:  # a follower of the table's what if is offered only its
        return app.review.plays_what_if(model)  # other keys

    screen.show("p d c", "move", plays)
    screen.add("b", what="bot", when=plays)(lambda app: app.review.what_if_bot())
    screen.add("left", "backspace", what="back", label="←", when=plays)(lambda app: app.review.what_if_back())
    screen.add("r", what="reveal", when=plays)(lambda app: app.review.what_if_reveal())
    screen.add("h", what="leave")(lambda app: app.review.leave_what_if())
    screen.add("f", what="follow")(lambda app: app.review.follow())
    screen.add("k")(lambda app: app.toggle_knowledge())
    screen.show("t", "chat", chat_open)
    screen.show("?", "help")
    screen.add("q", what="quit")(lambda app: app.ask_to_quit())


def _history(keymap: Keymap) -> None:
    """The list of finished games: look at one alone, review it with the table, save its replay."""
    history = keymap.screen("history")
    history.add("up", what="choose", label="↑↓")(lambda app: app.history.move(-1))
    history.add("down")(lambda app: app.history.move(1))
    history.add("o", "enter", what="alone")(lambda app: app.history.on_chosen("o"))
    history.add("w", what="review")(lambda app: app.history.on_chosen("w"))
    history.add("s", what="save")(lambda app: app.history.on_chosen("s"))
    history.add("r", what="refresh")(lambda app: app.history.refresh())
    history.show("Esc", "back")
    history.add("q")(lambda app: app.history.close())


@cache
def keymap() -> tuple[Keymap, KeyBindingsBase]:
    """Every key of the client, and the keymap that says which show on each screen's key line: the same for every
    app (what differs between apps is asked of the app at each key), so built once."""
    keymap = Keymap()
    _everywhere(keymap)
    _modal_keys(keymap)
    _command_and_form(keymap)
    _lobby(keymap)
    _game(keymap)
    _end(keymap)
    _rewind(keymap)
    _review(keymap)
    _what_if(keymap)
    _history(keymap)
    return keymap, keymap.bindings()


__all__: Sequence[str] = ("Keymap", "keymap", "guarded")
