"""The full-screen terminal app: layout factories, key bindings, and the path from a key to a request.

The screen is built from small factory functions returning containers whose
text is a callable reading the live model, so a redraw always shows the
latest state. Key bindings only turn keys into intents; ``ClientApp.act``
checks a game action with the engine (refusing it with the engine's reason)
and hands the protocol message to ``send``. Nothing here touches the
network: the session (or a test) supplies ``get_model``, ``dispatch`` and
``send``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hanabi.engine import Clue, Discard, Play, Rearrange
from hanabi.protocol.messages import (
    ActionRequest,
    AddBot,
    Chat,
    CreateTable,
    GetReplay,
    Join,
    Leave,
    ListTables,
    Message,
    RearrangeRequest,
    RemoveBot,
    Spectate,
    Start,
)
from hanabi.protocol.messages import GiveHost as GiveHostMessage
from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.formatted_text import StyleAndTextTuples, to_plain_text
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import (
    ConditionalContainer,
    DynamicContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.containers import AnyContainer
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput, ConditionalProcessor, PasswordProcessor
from prompt_toolkit.output import Output

from . import keys as shortcuts
from .board import seat_name
from .commands import CommandCompleter, CommandError, Intent, Lobby, Local, Say, parse
from .form import CHATS, VARIANTS, TableForm
from .judge import refusal
from .model import ClientModel, Incoming, LeftTable, Link, Note
from .screens import (
    WIDE,
    board,
    chat_closed,
    chat_fragments,
    discards,
    end_fragments,
    help_fragments,
    join_lines,
    keys_fragments,
    lobby_fragments,
    log_lines,
    title_fragments,
    tokens_line,
)
from .style import STYLE

Send = Callable[[Message], None]
Handler = Callable[[KeyPressEvent], None]


@dataclass
class UiState:
    """What only this screen knows: shortcuts in progress, toggles, scrolling, the form."""

    pending: list[str] = field(default_factory=list)  # keys of a shortcut in progress
    prompt: str = ""
    show_knowledge: bool = False
    log_back: int = 0  # lines scrolled back from the newest
    selected: int = 0  # the highlighted table in the lobby
    form: TableForm | None = None
    show_help: bool = False
    save_wanted: int | None = None  # a game whose replay we asked for, to save when it comes
    secret: tuple[str, int, int | None] | None = None  # (join|spectate, table, seat) waiting for a password
    saved: dict[int, str] = field(default_factory=dict)
    confirm: Lobby | None = None  # a request that waits for "y" (leaving a game in progress)


def _end_of(fragments: StyleAndTextTuples) -> Point:
    """The end of the text: a window scrolls to keep its cursor in sight, so the newest line shows."""
    lines = to_plain_text(fragments).split("\n")
    return Point(len(lines[-1]), len(lines) - 1)


def save_new_file(folder: Path, stem: str, text: str) -> Path:
    """Write ``text`` to ``stem.json`` in ``folder``, or ``stem-2.json``, ``stem-3.json``… : never over a file.

    Game numbers restart with every server (every ``--solo`` game is game 1), so the number alone is
    not a unique name; opening with "x" makes taking a name and writing it one step, even with two
    clients saving into the same folder at once.
    """
    for n in range(1, 10_000):
        path = folder / (f"{stem}.json" if n == 1 else f"{stem}-{n}.json")
        try:
            with path.open("x", encoding="utf-8") as file:
                file.write(text)
        except FileExistsError:
            continue
        return path.resolve()
    raise FileExistsError(0, f"{stem}.json to {stem}-9999.json all exist: tidy the folder")


def offline_problem(model: ClientModel) -> str | None:
    """Why a request cannot go to the server now, or None when it can.

    Said on the key press: a request typed while the link is down would otherwise vanish without a word
    (the session drops what was queued for a connection that broke, since it may no longer make sense).
    """
    link = model.link
    if link is Link.RECONNECTING:
        return "not connected — reconnecting; try again once back"
    if link in (Link.CONNECTING, Link.OFFLINE):
        return "not connected yet — still trying to reach the server; try again once connected"
    if link is Link.CLOSED:
        return "not connected — this connection is over: Ctrl-C quits, then start hanabi-client again"
    return None


def only_the_host(model: ClientModel, verb: str) -> str:
    """What a guest who asked to start (or play again) is told: ask the host, in words that work at this table."""
    what = "starts the game" if verb == "start" else "starts another game"
    if chat_closed(model) is None:
        return f"only the host {what}: ask them (t, then type your message)"
    host = model.table.players[model.table.host] if model.table is not None and model.table.host is not None \
        and 0 <= model.table.host < len(model.table.players) else None
    who = host.name if host is not None else "the host"
    return f"only the host {what}: chat is closed here, so wait for {who} (or ask them in person)"


def seat_problem(model: ClientModel, verb: str, number: int) -> str | None:
    """What is wrong with ``bot``/``unbot``/``host`` for seat ``number`` (1-based, as the lobby shows seats).

    Checked before anything is sent, in the lobby's numbering, so the answer comes at once; what the server
    refuses anyway is shown as the server words it.
    """
    table = model.table
    if table is None:
        return "join or create a table first"
    if not 1 <= number <= len(table.players):
        return f"there is no seat {number}: this table has seats 1 to {len(table.players)}"
    player = table.players[number - 1]
    if verb == "bot" and player is not None:
        return f"seat {number} is taken by {player.name}"
    if verb == "unbot" and (player is None or not player.bot):
        return f"seat {number} holds no bot"
    if verb == "host" and (player is None or player.bot):
        return f"seat {number} holds no human player to be host"
    return None


class ClientApp:
    """The prompt_toolkit application of one client, bound to a model source and a message sink."""

    def __init__(self, get_model: Callable[[], ClientModel], dispatch: Callable[[Incoming], None], send: Send,
                 *, input: Input | None = None, output: Output | None = None,
                 replay_dir: Path | None = None, bell: bool = True) -> None:
        self.get_model = get_model
        self.bell = bell
        self._rung: tuple[int | None, int] | None = None  # the (game, turn) the bell last called us to
        self._selected_table: int | None = None  # our table when the lobby's highlight last followed it
        self.dispatch = dispatch
        self._send = send
        self.ui = UiState()
        self._board_cache: tuple[ClientModel, bool, StyleAndTextTuples] | None = None
        self._screens: dict[str, AnyContainer] = {}
        self.replay_dir = replay_dir or Path.cwd()
        self.command = Buffer(
            multiline=False,
            completer=CommandCompleter(lambda: self.get_model().view, lambda: self.get_model().names),
            complete_while_typing=False,
            accept_handler=self._accept,
        )
        asking = Condition(lambda: self.ui.secret is not None)
        self.command_window = Window(BufferControl(self.command, input_processors=[
            BeforeInput(lambda: "password: " if self.ui.secret is not None else ": "),
            ConditionalProcessor(PasswordProcessor(), asking),
        ]), height=1)
        self.status_window = Window(FormattedTextControl(self._status_text, focusable=True, show_cursor=False),
                                    height=Dimension(min=1, max=2), dont_extend_height=True, wrap_lines=True,
                                    style="class:status")
        self.application: Application[None] = Application(
            layout=Layout(self._root(), focused_element=self.status_window),
            key_bindings=self._bindings(),
            style=STYLE,
            full_screen=True,
            input=input,
            output=output,
        )
        self.application.ttimeoutlen = 0.05  # Esc answers at once instead of waiting for a longer sequence

    # -- what the screen shows ---------------------------------------------------------------------

    @property
    def width(self) -> int:
        return self.application.output.get_size().columns

    def mode(self) -> str:
        model = self.get_model()
        if self.application.layout.has_focus(self.command):
            return "command"
        if self.ui.form is not None:
            return "form"
        if model.view is not None:
            return "end" if model.view.outcome is not None else "game"
        return "lobby"

    def _status_text(self) -> StyleAndTextTuples:
        if self.ui.prompt:
            return [("class:status.prompt", " " + self.ui.prompt)]
        model = self.get_model()
        return [("class:status.error" if model.status_error else "class:status", " " + model.status)]

    def _root(self) -> AnyContainer:
        # The completions of the command line float over the screen just above what is typed.
        return FloatContainer(self._panes(), floats=[
            Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=8, scroll_offset=1))])

    def _panes(self) -> AnyContainer:
        return HSplit([
            Window(FormattedTextControl(lambda: title_fragments(self.get_model(), self.width)), height=1),
            DynamicContainer(self._screen),
            ConditionalContainer(self.command_window, Condition(lambda: self.application.layout.has_focus(
                self.command))),
            self.status_window,
            Window(FormattedTextControl(lambda: keys_fragments(self.get_model(), self.mode(), self.width)), height=1,
                   style="class:keys"),
        ])

    def _screen(self) -> AnyContainer:
        """The middle of the screen; each kind is built once and reused, its text read live on every redraw."""
        if self.ui.show_help:
            kind = "help"
        elif self.ui.form is not None:
            kind = "form"
        elif self.get_model().view is not None:
            kind = "game-wide" if self.width >= WIDE else "game"
        else:
            kind = "lobby"
        if kind not in self._screens:
            self._screens[kind] = self._build(kind)
        return self._screens[kind]

    def _build(self, kind: str) -> AnyContainer:
        if kind == "help":
            return Window(FormattedTextControl(help_fragments), wrap_lines=True)
        if kind == "form":
            return Window(FormattedTextControl(lambda: self.ui.form.fragments() if self.ui.form else []))
        if kind.startswith("game"):
            return self._game_screen(wide=kind == "game-wide")
        return Window(FormattedTextControl(
            lambda: lobby_fragments(self.get_model(), self.ui.selected, self.width)), wrap_lines=False)

    def _game_screen(self, wide: bool) -> AnyContainer:
        def tokens() -> StyleAndTextTuples:
            view = self.get_model().view
            return tokens_line(view, self.width) if view is not None else []

        log_window = self._log_window(with_chat=not wide)
        middle: AnyContainer = log_window
        if wide:
            chat = FormattedTextControl(lambda: chat_fragments(self.get_model()),
                                        get_cursor_position=lambda: _end_of(chat_fragments(self.get_model())))
            middle = VSplit([log_window, Window(width=1, char="│", style="class:rule"),
                             Window(chat, width=lambda: max(30, self.width // 3), wrap_lines=True)])
        return HSplit([
            Window(FormattedTextControl(tokens), height=1),
            Window(FormattedTextControl(self._board), height=self._board_height),
            Window(FormattedTextControl(lambda: discards(self.get_model(), self.width)), dont_extend_height=True,
                   wrap_lines=True),
            Window(height=1, char="─", style="class:rule"),
            middle,
            ConditionalContainer(
                Window(FormattedTextControl(lambda: end_fragments(self.get_model())), dont_extend_height=True,
                       wrap_lines=True),
                Condition(self._game_over)),
        ])

    def _game_over(self) -> bool:
        view = self.get_model().view
        return view is not None and view.outcome is not None

    def _board(self) -> StyleAndTextTuples:
        """The hands, computed once per model and toggle (a redraw asks for them twice: text and height)."""
        key = (self.get_model(), self.ui.show_knowledge)
        if self._board_cache is None or self._board_cache[0] is not key[0] or self._board_cache[1] != key[1]:
            self._board_cache = (key[0], key[1], board(key[0], key[1]))
        return self._board_cache[2]

    def _board_height(self) -> Dimension:
        """Exactly the hands' lines: the board never gives up a row to the log, the log takes what is left."""
        return Dimension.exact(to_plain_text(self._board()).count("\n") + 1)

    def _log_window(self, with_chat: bool) -> Window:
        """The log, newest at the bottom; PgUp/PgDn move the bottom line back and forth through history."""

        def shown() -> StyleAndTextTuples:
            lines = log_lines(self.get_model(), with_chat)
            if not lines:
                return [("class:label", "The log of the game shows here.")]
            back = min(self.ui.log_back, len(lines) - 1)
            out = join_lines(lines[: len(lines) - back])
            if back:
                out.append(("class:status.prompt", f"\n  ({back} newer line{'s' if back != 1 else ''} below: PgDn)"))
            return out

        # Long lines (chat, the last card's notice) wrap rather than being cut at the edge.
        return Window(FormattedTextControl(shown, get_cursor_position=lambda: _end_of(shown())), wrap_lines=True)

    # -- from keys to intents ----------------------------------------------------------------------

    def send(self, message: Message) -> bool:
        """Hand ``message`` to the session if we are connected; otherwise say why not. Whether it went."""
        problem = offline_problem(self.get_model())
        if problem is not None:
            self.note(problem, True)
            return False
        self._send(message)
        return True

    def note(self, text: str, error: bool = False) -> None:
        self.dispatch(Note(text, error))

    def act(self, intent: Intent) -> None:
        """Carry out one intent: check it, then send the request (or do the local thing)."""
        model = self.get_model()
        view = model.view
        if isinstance(intent, (Play, Discard, Clue, Rearrange)):
            if view is None:
                self.note("there is no game in progress", True)
                return
            reason = refusal(view, intent)
            if reason is not None and not isinstance(intent, Rearrange) and view.seat not in (None, view.current):
                # The engine numbers seats from 0; a player wants to know who is to act.
                reason = f"it is not your turn: {seat_name(model.names, view.current)} is to act"
            if reason is not None:
                self.note(f"Not allowed: {reason}", True)
                return
            sent = self.send(RearrangeRequest(intent.hand) if isinstance(intent, Rearrange) else ActionRequest(intent))
            if sent:
                self.note("")
            return
        if isinstance(intent, Say):
            closed = chat_closed(model)
            if closed is not None:
                self.note(f"Not sent: {closed}", True)
                return
            self.send(Chat(intent.text))
            return
        if isinstance(intent, Local):
            self._local(intent.verb)
            return
        self._lobby(intent)

    def _local(self, verb: str) -> None:
        if verb == "help":
            self.ui.show_help = True
        elif verb == "quit":
            self.quit()
        elif verb == "knowledge":
            self.ui.show_knowledge = not self.ui.show_knowledge
        elif verb == "save":
            self.save_replay()

    def _lobby(self, intent: Lobby) -> None:
        model = self.get_model()
        verb, number = intent.verb, intent.number
        if verb in ("join", "spectate") and number is not None:
            seat = int(intent.text) - 1 if verb == "join" and intent.text else None
            known = next((t for t in model.tables if t.id == number), None)
            if seat is not None and known is not None:
                # Checked before sending, in the lobby's numbering, so a slip is answered at once.
                if not 0 <= seat < len(known.players):
                    self.note(f"there is no seat {seat + 1}: table {number} has seats 1 to {len(known.players)}", True)
                    return
                taken = known.players[seat]
                if taken is not None:
                    self.note(f"seat {seat + 1} of table {number} is taken by {taken.name}", True)
                    return
            self.enter_table(verb, number, seat)
        elif verb == "leave":
            view = model.view
            if model.seat is not None and view is not None and view.outcome is None and self.ui.confirm is None:
                # The server ends the game for everyone when a seated player leaves it: ask first.
                self.ui.confirm = intent
                self.ui.prompt = ("Leaving ends this game for everyone at the table (score 0). Leave anyway? "
                                  "y = yes, any other key = no")
                return
            self.ui.confirm = None
            if self.send(Leave()):
                self.dispatch(LeftTable())
        elif verb in ("start", "again"):
            empty = [] if model.table is None else [i for i, p in enumerate(model.table.players) if p is None]
            if model.is_host and empty and verb == "start":
                self.note(f"seat {empty[0] + 1} is empty: wait for a player, or press b to seat a bot", True)
            elif model.is_host:
                self.send(Start())
            elif verb == "again" and model.seat is not None and chat_closed(model) is None:
                # What the end screen promises a guest: the host hears the wish at the table.
                if self.send(Chat("would like another game (host: press a)")):
                    self.note("You asked the host for another game.")
            else:
                self.note(only_the_host(model, verb), True)
        elif verb == "refresh":
            self.send(ListTables())
        elif verb == "new":
            self.open_form(intent.text)
        elif verb in ("bot", "unbot", "host") and number is not None:
            problem = seat_problem(model, verb, number)
            if problem is not None:
                self.note(problem, True)
                return
            seat = number - 1
            message: Message = AddBot(seat) if verb == "bot" else RemoveBot(seat) if verb == "unbot" \
                else GiveHostMessage(seat)
            self.send(message)

    def enter_table(self, verb: str, table: int, seat: int | None = None, password: str | None = None) -> None:
        """Join (or watch) a table; one with a password asks for it first, on the command line."""
        known = next((t for t in self.get_model().tables if t.id == table), None)
        if password is None and known is not None and known.has_password:
            self.ui.secret = (verb, table, seat)
            self.open_command()
            self.ui.prompt = f"Table {known.name!r} has a password: type it and press Enter (Esc cancels)"
            return
        self.send(Join(table, seat, password) if verb == "join" else Spectate(table, password))

    def open_form(self, name: str | None = None) -> None:
        model = self.get_model()
        if model.table is not None and model.seat is not None:
            # Said before the form is filled in, not after: one sits at one table at a time.
            self.note(f"you sit at table {model.table.name!r}: leave it (l) before creating another", True)
            return
        self.ui.form = TableForm(name=name or (f"{model.player}'s table" if model.player else "my table"))

    def submit_form(self) -> None:
        form = self.ui.form
        if form is None:
            return
        if not form.name.strip():
            self.note("the table needs a name", True)
            return
        if self.send(CreateTable(form.name.strip(), VARIANTS[form.variant], form.seats, form.empty_clues,
                                 form.all_or_nothing, CHATS[form.chat], form.password or None)):
            self.ui.form = None  # kept while offline, so what was filled in is not lost

    def add_bot(self) -> None:
        """Seat a bot in the first free seat of our table."""
        table = self.get_model().table
        if table is None:
            self.note("join or create a table first", True)
            return
        free = [i for i, p in enumerate(table.players) if p is None]
        if not free:
            self.note("every seat is taken", True)
            return
        self.send(AddBot(free[0]))

    def remove_bot(self) -> None:
        table = self.get_model().table
        bots = [] if table is None else [i for i, p in enumerate(table.players) if p is not None and p.bot]
        if not bots:
            self.note("there is no bot at your table", True)
            return
        self.send(RemoveBot(bots[-1]))

    def save_replay(self) -> None:
        model = self.get_model()
        if model.game is None or model.view is None or model.view.outcome is None:
            self.note("a replay can be saved once the game is over", True)
            return
        if model.replay is not None and model.replay[0] == model.game:
            self._write_replay(model.game, model.replay[1])
            return
        if self.send(GetReplay(model.game)):
            self.ui.save_wanted = model.game
            self.note("Asking the server for the replay…")

    def on_model(self) -> None:
        """Called after every change of the model: finish what waited for the server, then redraw."""
        model = self.get_model()
        if self.ui.save_wanted is not None and model.replay is not None and model.replay[0] == self.ui.save_wanted:
            self.ui.save_wanted = None
            self._write_replay(model.replay[0], model.replay[1])
        self._call_to_play(model)
        self._select_our_table(model)
        self.application.invalidate()

    def _select_our_table(self, model: ClientModel) -> None:
        """On arriving at a table, the lobby's highlight moves to it, so its options and keys are the ones shown."""
        table = model.table
        if table is not None and table.id != self._selected_table:
            ids = [t.id for t in model.tables]
            if table.id in ids:
                self.ui.selected = ids.index(table.id)
        self._selected_table = table.id if table is not None else None

    def _call_to_play(self, model: ClientModel) -> None:
        """Ring the terminal's bell once when our turn comes, for a player looking at another window.

        tmux and most terminals turn the bell into a flag on the window or tab; ``--no-bell`` silences it.
        """
        view = model.view
        if not self.bell or view is None or view.outcome is not None or view.seat != view.current:
            return
        turn = (model.game, view.turn)
        if turn != self._rung:
            self._rung = turn
            self.application.output.bell()

    def _write_replay(self, game: int, text: str) -> None:
        if game in self.ui.saved:
            self.note(f"This game's replay is already saved in {self.ui.saved[game]}")
            return
        try:
            path = save_new_file(self.replay_dir, f"hanabi-game-{game}", text)
        except OSError as e:
            self.note(f"could not save the replay in {self.replay_dir}: {e.strerror or e}", True)
            return
        self.ui.saved[game] = str(path)
        self.note(f"Replay saved to {path} (open it with hanabi-client --replay {path.name})")

    def run_command(self, line: str) -> None:
        model = self.get_model()
        try:
            intent = parse(line, model.view, model.names)
        except CommandError as e:
            self.note(str(e), True)
            return
        # The command line is deliberate, so a play needs no confirmation here, unlike the one-key shortcut.
        self.act(intent)

    def _accept(self, buffer: Buffer) -> bool:
        line = buffer.text
        self.application.layout.focus(self.status_window)
        secret, self.ui.secret = self.ui.secret, None
        self.ui.prompt = ""
        if secret is not None:
            verb, table, seat = secret
            self.enter_table(verb, table, seat, line)
        elif line.strip():
            self.run_command(line)
        return False  # clears the buffer

    def open_command(self, text: str = "") -> None:
        self.command.set_document(self.command.document.__class__(text, len(text)))
        self.application.layout.focus(self.command)

    def quit(self) -> None:
        if self.application.is_running:
            self.application.exit()

    def key(self, key: str) -> None:
        """A printable key pressed outside the command line."""
        ui = self.ui
        model = self.get_model()
        if ui.show_help:
            ui.show_help = False
            return
        if ui.form is not None:
            self._form_key(key)
            return
        if ui.confirm is not None:
            intent = ui.confirm
            ui.prompt = ""
            if key.lower() == "y":
                self.act(intent)
            else:
                ui.confirm = None
                self.note("You stay at the table; the game goes on.")
            return
        if ui.pending:
            self._shortcut(key)
            return
        mode = self.mode()
        if key in (":", "/"):
            self.open_command()
        elif key == "t":
            self.open_command("say ")
            closed = chat_closed(model)
            if closed is not None:
                # Said before a word is typed; the line still opens, so the letters typed next are not
                # taken for one-key shortcuts (j, s, l…).
                self.ui.prompt = f"{closed} (Esc closes this line)"
        elif key == "?":
            ui.show_help = True
        elif mode == "game" and key == "l" and model.seat is None:
            self.act(Lobby("leave"))  # a spectator leaving ends nothing
        elif mode == "game" and key in shortcuts.STARTERS:
            step = shortcuts.start(key, model.view, model.names)
            self._follow([key], step)
        elif mode == "game" and key == "k":
            ui.show_knowledge = not ui.show_knowledge
        elif mode == "end" and key == "s":
            self.save_replay()
        elif mode == "end" and key == "a":
            self.act(Lobby("again"))
        elif mode in ("end", "lobby") and key == "l":
            self.act(Lobby("leave"))
        elif mode in ("end", "lobby") and key == "q":
            self.quit()
        elif mode == "game" and key == "q":
            # One stray key must not walk out of a game; say how to, and what it costs.
            self.note("q does not quit during a game: Ctrl-C quits (your seat waits for you to come back)")
        elif mode == "lobby":
            self._lobby_key(key)

    def _lobby_key(self, key: str) -> None:
        model = self.get_model()
        tables = model.tables
        chosen = tables[self.ui.selected] if 0 <= self.ui.selected < len(tables) else None
        if key == "n":
            self.open_form()
        elif key == "r":
            self.send(ListTables())
        elif key in ("j", "s") and chosen is None:
            self.note("there is no table yet: press n to create one", True)
        elif key in ("j", "s") and model.table is not None and chosen is not None \
                and chosen.id == model.table.id and (model.seat is not None or key == "s"):
            # A spectator may still take a free seat (j) at the table being watched.
            self.note("you already sit at this table" if model.seat is not None else "you are already watching it",
                      True)
        elif key == "j" and chosen is not None:
            self.enter_table("join", chosen.id)
        elif key == "s" and chosen is not None:
            self.enter_table("spectate", chosen.id)
        elif key == "b":
            self.add_bot()
        elif key == "x":
            self.remove_bot()
        elif key == "g":
            self.act(Lobby("start"))

    def _shortcut(self, key: str) -> None:
        model = self.get_model()
        view = model.view
        if view is None or view.seat is None:
            self.cancel()
            return
        step = shortcuts.step(self.ui.pending, key, view, model.names)
        self._follow([*self.ui.pending, key], step)

    def _follow(self, keys: list[str], step: shortcuts.Step) -> None:
        if isinstance(step, shortcuts.Prompt):
            self.ui.pending = keys
            self.ui.prompt = step.text
            return
        self.ui.pending = []
        self.ui.prompt = ""
        if isinstance(step, shortcuts.Refused):
            self.note(step.text, True)
            return
        self.act(step.intent)

    def cancel(self) -> None:
        self.ui.pending = []
        self.ui.confirm = None
        self.ui.prompt = ""
        self.ui.show_help = False

    def _form_key(self, key: str) -> None:
        form = self.ui.form
        assert form is not None
        if not form.type_text(key) and key == " ":
            form.change(1)

    def move(self, step: int) -> None:
        """↑/↓: the form's field, or the lobby's selected table."""
        if self.ui.form is not None:
            self.ui.form.move(step)
        elif self.mode() == "lobby":
            count = len(self.get_model().tables)
            if count:
                self.ui.selected = (self.ui.selected + step) % count
        elif self.mode() in ("game", "end"):
            self.scroll(-step)

    def scroll(self, lines: int) -> None:
        """Scroll the log back (positive) or forward (negative)."""
        total = len(self.get_model().log)
        self.ui.log_back = max(0, min(total - 1, self.ui.log_back + lines))

    def _guarded(self, handler: Handler) -> Handler:
        """A key handler that cannot take the app down: a bug becomes a line in the status bar."""

        def run(event: KeyPressEvent) -> None:
            try:
                handler(event)
            except Exception as e:  # a bug must not leave the player with a dead terminal
                self.cancel()
                self.note(f"Something went wrong in the client ({type(e).__name__}: {e}); the game goes on.", True)

        return run

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()

        def add(*keys: str | Keys, filter: Filter | bool = True) -> Callable[[Handler], Handler]:
            def register(handler: Handler) -> Handler:
                kb.add(*keys, filter=filter)(self._guarded(handler))
                return handler
            return register
        typing = Condition(lambda: self.application.layout.has_focus(self.command))
        outside = ~typing
        in_form = Condition(lambda: self.ui.form is not None) & outside

        @add("c-c")
        def _quit(event: KeyPressEvent) -> None:
            self.quit()

        @add(Keys.Any, filter=outside)
        def _any(event: KeyPressEvent) -> None:
            data = event.data
            if len(data) == 1 and data.isprintable():
                self.key(data)

        @add("escape", filter=outside)
        def _escape(event: KeyPressEvent) -> None:
            if self.ui.form is not None:
                self.ui.form = None
            self.cancel()

        @add("escape", filter=typing)
        def _leave_command(event: KeyPressEvent) -> None:
            self.ui.secret = None
            self.ui.prompt = ""
            self.command.reset()
            self.application.layout.focus(self.status_window)

        @add("enter", filter=outside)
        def _enter(event: KeyPressEvent) -> None:
            if self.ui.form is not None:
                self.submit_form()
            elif self.mode() == "lobby" and self.get_model().table is None:
                self.key("j")
            else:
                self.open_command()

        @add("up", filter=outside)
        def _up(event: KeyPressEvent) -> None:
            self.move(-1)

        @add("down", filter=outside)
        def _down(event: KeyPressEvent) -> None:
            self.move(1)

        @add("tab", filter=in_form)
        def _tab(event: KeyPressEvent) -> None:
            self.move(1)

        @add("left", filter=in_form)
        def _left(event: KeyPressEvent) -> None:
            assert self.ui.form is not None
            self.ui.form.change(-1)

        @add("right", filter=in_form)
        def _right(event: KeyPressEvent) -> None:
            assert self.ui.form is not None
            self.ui.form.change(1)

        @add("backspace", filter=in_form)
        def _backspace(event: KeyPressEvent) -> None:
            assert self.ui.form is not None
            self.ui.form.backspace()

        @add("pageup", filter=outside)
        def _page_up(event: KeyPressEvent) -> None:
            self.scroll(5)

        @add("pagedown", filter=outside)
        def _page_down(event: KeyPressEvent) -> None:
            self.scroll(-5)

        return kb
