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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

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
    from .app import ClientApp

Handler = Callable[[KeyPressEvent], None]
Action = Callable[[], None]

# While rewinding or reviewing: where each of these keys goes in the game's history.
ARROWS: dict[str, Move] = {"left": Place.back, "right": Place.on, "home": Place.start, "end": Place.end}


def guarded(app: ClientApp, handler: Handler) -> Handler:
    """A key handler that cannot take the app down: a bug becomes a line in the status bar."""

    def run(event: KeyPressEvent) -> None:
        try:
            handler(event)
        except Exception as e:  # a bug must not leave the player with a dead terminal
            app.cancel()
            app.note(f"Something went wrong in the client ({type(e).__name__}: {e}); the game goes on.", True)

    return run


def printable(event: KeyPressEvent) -> str | None:
    """The character a key typed, or None for a key that types none (an arrow, F1, Ctrl-A)."""
    data = event.data
    return data if len(data) == 1 and data.isprintable() else None


@dataclass(frozen=True, slots=True)
class Shown:
    """A key as the key line shows it: its label, what it does, and when it shows (given the model drawn)."""

    label: str
    what: str
    when: Callable[[ClientModel], bool] | None = None


class ScreenKeys:
    """One screen's keys: its bindings, active while the screen is up, and its key line in the order it shows.

    ``add`` binds keys with what they do on the line; ``show`` puts on the line a key bound for every screen
    (Enter, Esc, PgUp, Ctrl-C, and the keys of ``Everywhere``) with what it does here.
    """

    def __init__(self, app: ClientApp, active: Filter, free: Filter) -> None:
        self.app = app
        self.active = active
        self.free = free  # nothing under way takes printable keys
        # The help covers the screen: the screen's other keys (arrows...) must not act on what is under it.
        self.uncovered = Condition(lambda: not app.ui.help_page)
        self.bindings = KeyBindings()
        self.line: list[Shown] = []

    def add(self, *keys: str | Keys, what: str | None = None, label: str | None = None,
            when: Callable[[ClientModel], bool] | None = None) -> Callable[[Action], Action]:
        """Bind each of ``keys`` (each one key) to the decorated action; ``what``: its words on the key line."""
        def register(action: Action) -> Action:
            for key in keys:
                typed = isinstance(key, str) and len(key) == 1
                self.bindings.add(key, filter=self.active & (self.free if typed else self.uncovered))(
                    guarded(self.app, lambda event: action()))
            if what is not None:
                self.show(label or str(keys[0]), what, when)
            return action
        return register

    def show(self, label: str, what: str, when: Callable[[ClientModel], bool] | None = None) -> None:
        self.line.append(Shown(label, what, when))

    def others(self, action: Callable[[str], None]) -> None:
        """Every other printable key of this screen goes to ``action``."""
        def run(event: KeyPressEvent) -> None:
            key = printable(event)
            if key is not None:
                action(key)
        self.bindings.add(Keys.Any, filter=self.active & self.free)(guarded(self.app, run))


class Keymap:
    """Every key of one app: the modal keys, the keys for every screen, and each screen's own."""

    def __init__(self, app: ClientApp) -> None:
        self.app = app
        self.typing = Condition(lambda: app.application.layout.has_focus(app.command))
        self.outside = ~self.typing
        self.modal = self.outside & Condition(lambda: modal_state(app) is not None)
        self.free = self.outside & ~self.modal
        self.screens: dict[str, ScreenKeys] = {}
        self.everywhere = KeyBindings()  # Ctrl-C, Enter, Esc, PgUp/PgDn, and the keys of every screen (: t ? H)

    def screen(self, name: str, active: Filter | None = None) -> ScreenKeys:
        app = self.app
        when = active if active is not None else Condition(lambda: app.mode() == name)
        keys = ScreenKeys(app, self.outside & when, self.free)
        self.screens[name] = keys
        return keys

    def line(self, model: ClientModel) -> list[tuple[str, str]]:
        """The key line of the screen up now: its keys that show for ``model`` (the model drawn)."""
        name = self.app.mode()
        if name == "game" and model.seat is None:
            name = "watch"
        return [(s.label, s.what) for s in self.screens[name].line if s.when is None or s.when(model)]

    def bindings(self) -> KeyBindingsBase:
        # Everything else first: for the same key, the last binding added among the active ones wins.
        return merge_key_bindings([self.everywhere, *(s.bindings for s in self.screens.values())])


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


def _modal_keys(app: ClientApp, keymap: Keymap) -> None:
    """What is under way takes each printable key: the help turns its page (?) or closes; the form takes its text;
    a question takes its answer; a shortcut its next key."""
    takers: dict[str, Callable[[str], None]] = {
        "help": app.help_key,
        "form": app.form_key,
        "quit?": app.answer_quit,
        "leave?": app.answer_confirm,
        "shortcut": app.shortcut_key,
        "pointing": app.review.point_key,
        "what if": app.review.what_if_key,
    }
    for state, take in takers.items():
        def run(event: KeyPressEvent, take: Callable[[str], None] = take) -> None:
            key = printable(event)
            if key is not None:
                take(key)
        keymap.everywhere.add(Keys.Any, filter=keymap.outside & Condition(
            lambda state=state: modal_state(app) == state))(guarded(app, run))  # type: ignore[misc]


def _everywhere(app: ClientApp, keymap: Keymap) -> None:
    """The keys every screen has; each screen's line says where they show."""
    kb, outside, free = keymap.everywhere, keymap.outside, keymap.free

    def add(key: str | Keys, filter: Filter | bool = True, eager: bool = False) -> Callable[[Action], Action]:
        def register(action: Action) -> Action:
            kb.add(key, filter=filter, eager=eager)(guarded(app, lambda event: action()))
            return action
        return register

    add("c-c")(app.ask_to_quit)
    add(":", free)(app.open_command)
    add("/", free)(app.open_command)
    add("t", free)(app.open_chat)
    add("?", free)(app.open_help)
    add(handing.KEY, free)(app.start_handing)
    # Eager: Esc acts at once. Otherwise prompt_toolkit waits up to a second for an Alt key (Esc then a letter),
    # and a key typed in that second after Esc is taken with it (Esc c capitalises a word) instead of as itself.
    add("escape", outside, eager=True)(app.escape)
    add("escape", keymap.typing, eager=True)(app.leave_command)
    add("c-u", keymap.typing)(app.clear_line)
    add("enter", outside)(app.enter)
    at_note_prompt = Condition(lambda: len(app.ui.note_keys) == 3)
    add("backspace", outside & at_note_prompt)(app.delete_note)
    add("delete", outside & at_note_prompt)(app.delete_note)
    add("pageup", outside)(lambda: app.scroll(5))
    add("pagedown", outside)(lambda: app.scroll(-5))


def _command_and_form(app: ClientApp, keymap: Keymap) -> None:
    # The command line's own keys are prompt_toolkit's. On the name line (the server refused our name) there is
    # nothing to complete and nothing to go back to: Esc only clears what was typed, and Ctrl-C quits.
    commands = keymap.screen("command")
    naming: Callable[[ClientModel], bool] = lambda _: app.ui.naming  # noqa: E731
    commanding: Callable[[ClientModel], bool] = lambda _: not app.ui.naming  # noqa: E731
    commands.show("Enter", "send", commanding)
    commands.show("Enter", "choose the name", naming)
    commands.show("Tab", "complete", commanding)
    commands.show("Esc", "cancel", commanding)
    commands.show("Esc", "clear", naming)
    form = keymap.screen("form")
    form.show("Enter", "create")
    form.show("Esc", "cancel")

    def change(step: int) -> Action:
        return lambda: app.ui.form.change(step) if app.ui.form is not None else None

    form.add("up")(lambda: app.ui.form.move(-1) if app.ui.form is not None else None)
    form.add("down", "tab")(lambda: app.ui.form.move(1) if app.ui.form is not None else None)
    form.add("left")(change(-1))
    form.add("right")(change(1))
    form.add("backspace")(lambda: app.ui.form.backspace() if app.ui.form is not None else None)
    form.add("c-u")(lambda: app.ui.form.clear() if app.ui.form is not None else None)
    form.add("enter")(app.lobby.submit_form)


def _lobby(app: ClientApp, keymap: Keymap) -> None:
    lobby = keymap.screen("lobby")
    lobby.add("up", what="choose", label="↑↓")(lambda: app.lobby.move(-1))
    lobby.add("down")(lambda: app.lobby.move(1))
    # At a table the players talk and type commands (hand, host...) while they wait: chat and the command line
    # come early, before the keys for the other tables, which a narrow line lets go first.
    lobby.show("t", "chat", lambda model: at_table(model) and chat_open(model))
    lobby.show(":", "cmd", at_table)
    lobby.add("j", what="join")(lambda: app.lobby.enter_chosen("j"))
    lobby.add("s", what="watch")(lambda: app.lobby.enter_chosen("s"))
    lobby.add("n", what="new")(app.lobby.open_form)
    lobby.add("h", what="history")(app.history.open)
    lobby.add("r", what="refresh")(app.lobby.refresh)
    lobby.show("t", "chat", lambda model: not at_table(model) and chat_open(model))
    lobby.show(":", "cmd", lambda model: not at_table(model))
    lobby.show("?", "help")
    lobby.add("q", what="quit")(app.ask_to_quit)
    lobby.add("b")(app.lobby.add_bot)
    lobby.add("x")(app.lobby.remove_bot)
    lobby.add("g")(lambda: app.lobby.act(LobbyIntent("start")))
    lobby.add("l")(lambda: app.act(LobbyIntent("leave")))


def at_table(model: ClientModel) -> bool:
    return model.table is not None


def paused(model: ClientModel) -> bool:
    """The game stands still, paused by hand: z resumes it (a game that paused itself for an absent player goes on
    once they are back, not on z)."""
    return model.clock is not None and model.clock.paused and model.clock.paused_by is not None


def running(model: ClientModel) -> bool:
    return model.clock is None or not model.clock.paused


def chat_open(model: ClientModel) -> bool:
    return chat_closed(model) is None


def advice_allowed(model: ClientModel) -> bool:
    """``a`` shows where the host allowed advice (the coach answers on our turn)."""
    return model.table is not None and model.table.advice


def hand_shown(model: ClientModel) -> bool:
    """``H`` shows when we host and someone is away: the one key that lets the game go on without them."""
    return model.table is not None and model.is_host and someone_away(model.table)


def _board(app: ClientApp, screen: ScreenKeys, *, running: bool) -> None:
    """The board's keys, in the game and at its end: what each player knows, notes, the last bot's reason; while
    the game runs, pausing and the queued move."""
    screen.add("k")(app.toggle_knowledge)
    screen.add("n")(app.start_note)
    screen.add("N")(app.toggle_notes)
    screen.add("w")(app.why)
    if running:
        screen.add("z")(lambda: app.lobby.act(LobbyIntent("pause")))
        screen.add("u")(lambda: app.lobby.act(LobbyIntent("unqueue")))
        screen.add("r")(app.open_rewind)
        screen.add("i")(app.start_card_history)
        for key in shortcuts.STARTERS:
            screen.add(key)(lambda key=key: app.start_shortcut(key))  # type: ignore[misc]
        # One stray key must not walk out of a game; say how to, and what it costs.
        screen.add("q")(lambda: app.note(
            "q does not quit during a game: Ctrl-C quits (a solo game ends with it)" if app.solo else
            "q does not quit during a game: Ctrl-C quits (your seat waits for you to come back)"))
    screen.add("up")(lambda: app.scroll(1))
    screen.add("down")(lambda: app.scroll(-1))


def _game(app: ClientApp, keymap: Keymap) -> None:
    """A game in progress: a seat's keys, and a spectator's (the same board, and l to stop watching)."""
    in_game = Condition(lambda: app.mode() == "game")
    seated = Condition(lambda: app.get_model().seat is not None)
    game = keymap.screen("game", in_game & seated)
    for key, what in (("p", "play"), ("d", "discard"), ("c", "clue")):
        game.show(key, what)
    # Early in the line: where advice is allowed, it is what a newcomer looks for (at 80 columns pause gives way).
    game.add("a", what="advice", when=advice_allowed)(app.ask_advice)
    for key, what in (("m", "move"), ("k", "knows"), ("n", "note")):
        game.show(key, what)
    game.show(handing.KEY, "hand seat", hand_shown)
    game.show("t", "chat", chat_open)
    game.show("z", "pause", running)
    game.show("z", "resume", paused)
    for key, what in ((":", "cmd"), ("?", "help"), ("r", "rewind"), ("N", "notes"), ("w", "why"), ("PgUp", "log"),
                      ("^C", "quit")):
        game.show(key, what)
    _board(app, game, running=True)

    watch = keymap.screen("watch", in_game & ~seated)
    watch.add("v", what="as a player")(app.watch_next_seat)
    watch.show("k", "knows")
    watch.show("N", "notes")
    watch.show("t", "chat", chat_open)
    watch.add("l", what="stop watching")(lambda: app.act(LobbyIntent("leave")))  # a spectator leaving ends nothing
    for key, what in ((":", "cmd"), ("?", "help"), ("PgUp", "log"), ("^C", "quit")):
        watch.show(key, what)
    _board(app, watch, running=True)


def _end(app: ClientApp, keymap: Keymap) -> None:
    """The end of a game: its replay, another game, leaving; and the board's keys."""
    end = keymap.screen("end")
    end.add("s", what="save replay")(app.save_replay)
    _end_keys(app, end, solo_leaves=True)
    end.show("N", "notes")
    end.show(handing.KEY, "hand seat", hand_shown)
    end.show("t", "chat", chat_open)
    end.show(":", "cmd")
    end.show("q", "quit")
    _board(app, end, running=False)


def _end_keys(app: ClientApp, screen: ScreenKeys, *, solo_leaves: bool = False, shown: bool = True) -> None:
    """Another game, and leaving (at a game's end in --solo, l quits as q does, and the line leaves it out);
    ``shown=False``: bound only, the screen saying them in its own order."""
    screen.add("a", what="again" if shown else None)(lambda: app.act(LobbyIntent("again")))
    screen.add("l", what="leave" if shown else None, when=(lambda model: not app.solo) if solo_leaves else None)(
        lambda: app.act(LobbyIntent("leave")))
    screen.add("q")(app.ask_to_quit)


def _rewind(app: ClientApp, keymap: Keymap) -> None:
    """Rewinding a game in progress: steps and rounds; any other key of the game says to return first."""
    rewind = keymap.screen("rewind")

    def move(move: Move) -> Action:
        return lambda: app.rewind_move(move)

    rewind.add("left", what="step", label="←→")(move(ARROWS["left"]))
    rewind.add("right")(move(ARROWS["right"]))
    for key in STEP_KEYS:
        rewind.add(key, what="round" if key == "[" else None, label="[]")(
            lambda key=key: app.rewind_key(key))  # type: ignore[misc]
    rewind.add("home", what="deal/now", label="Home/End")(move(ARROWS["home"]))
    rewind.add("end")(move(ARROWS["end"]))
    rewind.add("r", what="back to the game")(app.close_rewind)
    rewind.show("t", "chat", chat_open)
    rewind.show("?", "help")
    rewind.show("^C", "quit")
    rewind.add("up")(lambda: app.scroll(1))
    rewind.add("down")(lambda: app.scroll(-1))
    rewind.others(app.rewind_key)  # refused, said on the status line


def _review(app: ClientApp, keymap: Keymap) -> None:
    """The table's review, and a game from the history looked at alone: steps, following the leader, pointing."""
    review = keymap.screen("review")
    alone = keymap.screen("alone")
    _board(app, review, running=False)  # the end's keys go on under the review (↑↓ are the review's: added after)
    for screen in (review, alone):
        for key in ARROWS:
            screen.add(key)(lambda key=key: app.review.move(ARROWS[key]))  # type: ignore[misc]
        screen.add("up")(lambda: app.review.move(Place.page_back))
        screen.add("down")(lambda: app.review.move(Place.page_on))
        screen.add("f")(app.review.follow)
        screen.add("o")(lambda: app.review.point_key("o"))
        screen.add("s")(app.review.save)
        screen.add("m")(lambda: app.review.jump(forward=True))
        screen.add("M")(lambda: app.review.jump(forward=False))
    review.show("←→", "step")
    review.show("m/M", "moments")
    # In --solo no one else is there to follow, and l quits (the table is the whole private server).
    review.show("f", "follow", lambda model: not app.solo)
    # Early on the line, which a narrow screen cuts from its end: l is the way out of the review.
    review.show("l", "lobby", lambda model: not app.solo)
    review.show("l", "quit", lambda model: app.solo)
    review.show("o", "point")
    review.show("h", "what if")
    review.show("a", "again")
    review.show("s", "save")
    _end_keys(app, review, shown=False)
    review.show("t", "chat", chat_open)
    review.show("q", "quit", lambda model: not app.solo)  # said as l, early on the line
    for screen in (review, alone):
        screen.add("h")(app.review.start_what_if)
    for key, what in (("←→", "step"), ("m/M", "moments"), ("↑↓", "10 steps"), ("Home/End", "ends"), ("s", "save"),
                      ("h", "what if")):
        alone.show(key, what)
    alone.add("q", what="back")(app.back)


def _what_if(app: ClientApp, keymap: Keymap) -> None:
    """A what if, in the table's review or alone: moves for the seat to act, the bot's, taking one back, the drawn
    cards shown or not, and leaving."""
    screen = keymap.screen("whatif")
    for key in ("p", "d", "c"):
        screen.add(key)(lambda key=key: app.review.what_if_key(key))  # type: ignore[misc]
    plays = app.review.plays_what_if  # a follower of the table's what if is offered only its other keys
    screen.show("p d c", "move", plays)
    screen.add("b", what="bot", when=plays)(app.review.what_if_bot)
    screen.add("left", "backspace", what="back", label="←", when=plays)(app.review.what_if_back)
    screen.add("r", what="reveal", when=plays)(app.review.what_if_reveal)
    screen.add("h", what="leave")(app.review.leave_what_if)
    screen.add("f", what="follow")(app.review.follow)
    screen.add("k")(app.toggle_knowledge)
    screen.show("t", "chat", chat_open)
    screen.show("?", "help")
    screen.add("q", what="quit")(app.ask_to_quit)


def _history(app: ClientApp, keymap: Keymap) -> None:
    """The list of finished games: look at one alone, review it with the table, save its replay."""
    history = keymap.screen("history")
    history.add("up", what="choose", label="↑↓")(lambda: app.history.move(-1))
    history.add("down")(lambda: app.history.move(1))
    history.add("o", "enter", what="alone")(lambda: app.history.on_chosen("o"))
    history.add("w", what="review")(lambda: app.history.on_chosen("w"))
    history.add("s", what="save")(lambda: app.history.on_chosen("s"))
    history.add("r", what="refresh")(app.history.refresh)
    history.show("Esc", "back")
    history.add("q")(app.history.close)


def key_bindings(app: ClientApp) -> tuple[Keymap, KeyBindingsBase]:
    """Every key of the app, and the keymap that says which show on each screen's key line."""
    keymap = Keymap(app)
    _everywhere(app, keymap)
    _modal_keys(app, keymap)
    _command_and_form(app, keymap)
    _lobby(app, keymap)
    _game(app, keymap)
    _end(app, keymap)
    _rewind(app, keymap)
    _review(app, keymap)
    _what_if(app, keymap)
    _history(app, keymap)
    return keymap, keymap.bindings()


__all__: Sequence[str] = ("Keymap", "key_bindings", "guarded")
