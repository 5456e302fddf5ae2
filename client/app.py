"""The full-screen terminal app: the path from a key to a request, and what waits for the server's answer.

The screen's containers are in ``layout.py``, the keys' bindings in
``bindings.py``, the lobby's requests in ``lobby.py``; this module ties them
to one model. A printable key becomes an intent; ``ClientApp.act`` checks a
game action with the engine (refusing it with the engine's reason) and hands
the protocol message to ``send``, which says so when we are not connected.
Nothing here touches the network: the session (or a test) supplies
``get_model``, ``dispatch`` and ``send``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from hanabi.engine import Clue, Discard, Play, Rearrange, Variant
from hanabi.protocol.messages import (
    ActionRequest,
    Chat,
    GetAdvice,
    GetReplay,
    GetStats,
    ListGames,
    ListOnline,
    Message,
    OpenReview,
    PreMoveKind,
    QueueMove,
    RearrangeRequest,
    ReviewLead,
    WatchSeat,
    WriteNote,
)
from hanabi.protocol.table_rules import advice_refusal, hand_seat_refusal
from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.layout import FormattedTextControl, Layout, Window
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.processors import BeforeInput, ConditionalProcessor, PasswordProcessor
from prompt_toolkit.output import Output

from . import handing, notes
from . import keys as shortcuts
from .arguments import name_problem
from .bindings import keymap
from .clockface import REDRAW_EVERY
from .commands import (
    ALIASES,
    CommandCompleter,
    CommandError,
    Intent,
    LineKept,
    LobbyIntent,
    Local,
    NoteIntent,
    Say,
    parse,
    verbs_on,
)
from .form import TableForm
from .history_list import HistoryActions
from .judge import NO_GAME, SPECTATORS_CANNOT_ACT, refusal
from .layout import ScreenLayout
from .lobby import LobbyActions
from .model import ClientModel, Incoming, NameChosen, Newer, Note, offline_problem
from .review import ReviewActions
from .rewind import Rewind, history_prompt, history_step
from .saving import home_as_tilde, replay_folder, replay_stem, save_new_file
from .screens import HELP_PAGES, chat_closed, why_text
from .stepping import Move
from .style import STYLE
from .wrapping import wrap_words

Send = Callable[[Message], None]
REVIEW_SAVES = ("review", "alone")  # the screens where ``save`` saves the game reviewed (review.py), not the table's
HELP_KEYS = "? next page · PgUp/PgDn scroll · other keys close the help"
HELP_LAST_KEYS = "? back to page 1 · PgUp/PgDn scroll · other keys close the help"  # on the help's last page


@dataclass
class UiState:
    """What only this screen knows: shortcuts in progress, toggles, scrolling, the form."""

    pending: list[str] = field(default_factory=list)  # keys of a shortcut in progress
    pending_turn: int | None = None  # the turn the shortcut's question was asked on
    pending_hand: tuple[int, ...] = ()  # our hand (cards by order) when it was asked: its slots mean those cards
    pending_early: bool = False  # it was asked while it was not our turn: it is for our next turn (a pre-move)
    line_head: str = ""  # the start the command line was opened with (say, note 3): Ctrl-U leaves it
    prompt: str = ""
    show_knowledge: bool = False
    log_back: int = 0  # lines scrolled back from the newest
    selected: int = 0  # the highlighted table in the lobby
    form: TableForm | None = None
    help_page: int = 0  # the help page shown (1, 2…); 0 while no help shows
    save_wanted: int | None = None  # a game whose replay we asked for, to save when it comes
    secret: tuple[str, int, int | None] | None = None  # (join|spectate, table, seat) waiting for a password
    naming: bool = False  # the command line waits for another name (the server refused ours)
    saved: dict[int, str] = field(default_factory=dict)
    confirm: LobbyIntent | None = None  # a request that waits for "y" (leaving a game in progress)
    confirm_quit: bool = False  # quitting waits for "y": the client hosts the server (--serve), or a solo replay
    # would be lost
    help_from: int = 0  # the help page's first line shown (PgUp/PgDn scroll a page taller than the screen)
    hint: str = ""  # a status line true only while something lasts (a screen, a mistake): cleared when it ends
    note_keys: list[str] = field(default_factory=list)  # keys of a note in progress (n, seat, slot)
    show_notes: bool = False  # the notes panel in place of the log
    notes_from: int = 0  # notes of the panel scrolled past (PgDn)
    rewind: Rewind | None = None  # looking back through the game in progress (rewind.py)
    typing_on: handing.TypeOn | None = None  # the line the H key opened for a player's name, while it is open


class ClientApplication(Application[None]):
    """prompt_toolkit's application of a ``ClientApp``, which its keys (bound once for every app, bindings.py) act
    on."""

    def __init__(self, client: ClientApp, **options: Any) -> None:
        super().__init__(**options)
        self.client = client


class ClientApp:
    """The prompt_toolkit application of one client, bound to a model source and a message sink."""

    def __init__(self, get_model: Callable[[], ClientModel], dispatch: Callable[[Incoming], None], send: Send,
                 *, input: Input | None = None, output: Output | None = None,
                 replay_dir: Path | None = None, bell: bool = True, solo: bool = False,
                 hosting: bool = False, rename: Callable[[str], None] | None = None) -> None:
        self.get_model = get_model
        self.rename = rename  # hands the session another name to say hello with (None: there is no session)
        # --solo: the table is the whole private server, so leaving it means quitting, not its empty lobby.
        self.solo = solo
        self.hosting = hosting  # this client runs the server others play on (--serve): quitting stops it
        self.bell = bell
        self._rung: tuple[int | None, int] | None = None  # the (game, turn) the bell last called us to
        self._selected_table: int | None = None  # our table when the lobby's highlight last followed it
        self._seed_asked: int | None = None  # the seeded game whose other plays were asked for (once per game)
        self._record_asked: int | None = None  # the game at whose end our record was asked for (once per game)
        self.dispatch = dispatch
        self._send = send
        self.ui = UiState()
        self.lobby = LobbyActions(self)
        self.review = ReviewActions(self)
        self.history = HistoryActions(self)
        self.screen = ScreenLayout(self)
        self.replay_dir = replay_dir or replay_folder()
        self.clock: Callable[[], datetime] = datetime.now  # the local time a saved replay is named after
        self._line_problem = ""  # what the status says of the command line as typed (too long), while it holds
        self._online_asked = False  # who is online was asked for since the command line opened
        self.command = Buffer(
            multiline=False,
            completer=CommandCompleter(lambda: self.get_model().view, lambda: self.get_model().names,
                                       self._takers, self._verbs_offered),
            complete_while_typing=False,
            accept_handler=self._accept,
            on_text_changed=self._typed,
        )
        asking = Condition(lambda: self.ui.secret is not None)
        # Masking first, then the label: a processor sees what the ones before it produced, so the other
        # order masked the label too ("**********" before a key was typed, and no Backspace took it away).
        self.command_window = Window(BufferControl(self.command, input_processors=[
            ConditionalProcessor(PasswordProcessor(), asking),
            BeforeInput(lambda: "password: " if self.ui.secret is not None else "name: " if self.ui.naming else ": "),
        ]), height=1)
        self.status_window = Window(FormattedTextControl(self._status_text, focusable=True, show_cursor=False),
                                    height=Dimension(min=1, max=2), dont_extend_height=True, wrap_lines=True,
                                    style="class:status")
        self.application = ClientApplication(
            self,
            layout=Layout(self.screen.root(), focused_element=self.status_window),
            key_bindings=keymap()[1],
            style=STYLE,
            full_screen=True,
            input=input,
            output=output,
            refresh_interval=REDRAW_EVERY,  # a running clock counts down on screen between the server's messages
        )
        self.application.ttimeoutlen = 0.05  # Esc answers at once instead of waiting for a longer sequence

    # -- what the screen shows ---------------------------------------------------------------------

    def key_line(self, model: ClientModel) -> list[tuple[str, str]]:
        """The keys the line at the bottom shows for the screen up now and ``model`` (the model drawn)."""
        return keymap()[0].line(self, model)

    @property
    def width(self) -> int:
        return self.application.output.get_size().columns

    def mode(self) -> str:
        if self.application.layout.has_focus(self.command):
            return "command"
        return self.screen_mode()

    def screen_mode(self) -> str:
        """The screen up (as ``mode`` names it), whether or not the command line is open over it."""
        model = self.get_model()
        if self.ui.form is not None:
            return "form"
        looking_back = self.looking_back()
        if looking_back is not None:
            return looking_back
        if model.view is not None:
            if model.view.outcome is not None:
                return "end"
            return "rewind" if self.ui.rewind is not None else "game"
        return "lobby"

    def looking_back(self) -> str | None:
        """The screens of past games, when one is up: "whatif" (a what if played on from a step of either review),
        "alone" (a game from the history looked at alone), "history" (the list of finished games) or "review"
        (the table's review); else None."""
        review = self.review.current()
        if review is not None and review.what_if is not None and (self.review.ui.private is not None
                                                                   or self.history.ui is None):
            return "whatif"
        if self.review.ui.private is not None and review is not None:
            return "alone"
        if self.history.ui is not None:
            return "history"
        if review is not None:
            return "review"
        return None

    def shown_model(self) -> ClientModel:
        """The model the screen draws: a review's step on the review screen, else the live model."""
        return self.review.model() if self.looking_back() in ("review", "alone", "whatif") else self.get_model()

    def _status_text(self) -> StyleAndTextTuples:
        if self.ui.help_page and self.ui.prompt in (HELP_KEYS, HELP_LAST_KEYS) and self.screen.help_end_in_sight():
            return []  # the page's own last line, right above, says its keys
        if self.ui.prompt:
            return wrap_words([("class:status.prompt", " " + self.ui.prompt)], self.width, 1)
        model = self.get_model()
        if self.ui.rewind is not None and self.mode() == "rewind":
            return wrap_words([("class:status.prompt", " " + self.ui.rewind.status(model))], self.width, 1)
        return wrap_words([("class:status.error" if model.status_error else "class:status", " " + model.status)],
                          self.width, 1)

    # -- from keys to intents ----------------------------------------------------------------------

    def send(self, message: Message) -> bool:
        """Hand ``message`` to the session if we are connected; otherwise say why not. Whether it went."""
        problem = offline_problem(self.get_model())
        if problem is not None:
            self.note(problem, True)
            return False
        self._send(message)
        self.drop_news()  # a request sent is newer than a mistake said before it (an earlier try, refused)
        return True

    def _verbs_offered(self) -> tuple[str, ...]:
        """The verbs the command line's completion offers: those that act on the screen under it."""
        model = self.get_model()
        offered = verbs_on(self.screen_mode(), model.seat is not None and model.watching_as is None,
                           model.view.config if model.view is not None else None)
        # ``save``: a review's own game, or the game just ended, not one still running nor none at all.
        saves = self.screen_mode() in REVIEW_SAVES or replay_refusal(model) is None
        return tuple(verb for verb in offered if verb != "save" or saves)

    def _takers(self, seat: int) -> tuple[str, ...]:
        """Who could take seat ``seat`` (counted from 1) if we handed it on, by the table's own rule
        (``protocol.table_rules``): ``bot`` (a house bot) where one may take it, then who is online and not seated
        at our table (nor us); no one for a seat its player, here, keeps."""
        model, table = self.get_model(), self.get_model().table
        if table is None or not 1 <= seat <= table.seats \
                or hand_seat_refusal(table, model.seat, seat - 1, to_bot=False) is not None:
            return ()
        seated = {p.name for p in table.players if p is not None}
        people = tuple(name for name in model.online if name not in seated and name != model.player)
        bot_may = hand_seat_refusal(table, model.seat, seat - 1, to_bot=True) is None
        return ("bot",) + people if bot_may and not self._naming_a_person() else people

    def _naming_a_person(self) -> bool:
        """Whether the command line is the one ``H SEAT p`` opened, which asks for a player's name (not a bot)."""
        typing_on = self.ui.typing_on
        return typing_on is not None and self.application.layout.has_focus(self.command) \
            and self.command.text.startswith(typing_on.text)

    def _ask_who_is_online(self) -> None:
        """Ask the server who is connected, for the names ``hand SEAT`` offers: at a table the lobby's news of who
        comes and goes does not reach us, so the list we hold may be from when we sat down."""
        if not self._online_asked and offline_problem(self.get_model()) is None:
            self._online_asked = True
            self._send(ListOnline())

    def note(self, text: str, error: bool = False) -> None:
        self.dispatch(Note(text, error))

    def hint(self, text: str, error: bool = False) -> None:
        """A status line that holds only while something lasts (a screen looked at, a field left empty): said
        now, and taken away by ``drop_hint`` when that ends, unless something else has been said since."""
        self.ui.hint = text
        self.note(text, error)

    def drop_news(self) -> None:
        """Something newer happens on this screen (a form opened, a request sent): news or a mistake on the status
        line is no longer what is true now, and goes."""
        if self.get_model().status_news:
            self.dispatch(Newer())  # on our turn, the status says so again

    def drop_hint(self) -> None:
        if self.ui.hint and self.get_model().status == self.ui.hint:
            self.note("")
        self.ui.hint = ""

    def act(self, intent: Intent) -> None:
        """Carry out one intent: check it, then send the request (or do the local thing)."""
        model = self.get_model()
        view = model.view
        if isinstance(intent, (Play, Discard, Clue, Rearrange)):
            if view is None:
                self.note(NO_GAME, True)
                return
            if model.watching_as is not None:  # the view has a seat, but it is not ours
                self.note(SPECTATORS_CANNOT_ACT, True)
                return
            if isinstance(intent, (Play, Discard)) and view.seat is not None and view.outcome is None \
                    and view.current != view.seat:
                # Not our turn: the play or discard is queued for our next turn (a pre-move), the server says so.
                kind = PreMoveKind.PLAY if isinstance(intent, Play) else PreMoveKind.DISCARD
                self.send(QueueMove(kind, intent.order))
                return
            reason = refusal(view, intent, model.names)
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
            if self.send(Chat(intent.text)):
                self.drop_news()  # what the status said of an earlier line (too long, chat closed) no longer holds
            return
        if isinstance(intent, Local):
            self._local(intent.verb)
            return
        if isinstance(intent, NoteIntent):
            if self.send(WriteNote(order=intent.order, text=intent.text)):
                self.note("Note deleted." if not intent.text else f"Note written: {notes.explained(intent.text)}")
            return
        if intent.verb in ("lead", "history", "review"):
            self._review_intent(intent)
            return
        self.lobby.act(intent)

    def _review_intent(self, intent: LobbyIntent) -> None:
        """``lead NAME``, ``history``, ``review GAME``: typed commands of the review and the history."""
        if intent.verb == "history":
            self.history.open()
        elif intent.verb == "review" and intent.number is not None:
            game = next((g for g in self.get_model().games if g.id == intent.number), None)
            if game is None:
                self.send(OpenReview(intent.number))  # the server knows its games: it says if there is none
            else:
                self.history.review_with_table(game)
        elif intent.verb == "lead" and intent.text:
            model = self.get_model()
            if model.review is None:
                self.note("there is no review at your table to lead", True)
            elif intent.text.casefold() == model.review.leader.casefold():
                self.note(f"{model.review.leader} already leads the review")
            else:
                self.send(ReviewLead(intent.text))

    def _local(self, verb: str) -> None:
        if verb == "help":
            self.ui.help_page = 1
        elif verb == "quit":
            self.ask_to_quit()
        elif verb == "knowledge":
            self.ui.show_knowledge = not self.ui.show_knowledge
        elif verb == "save":
            if self.mode() in REVIEW_SAVES:
                self.review.save()
            else:
                self.save_replay()
        elif verb == "why":
            shown = self.review.current()
            # In the table's review, the reason of the step on screen, not the game's last one.
            events = shown.state.events if shown is not None and self.review.ui.private is None else None
            # In the log too: the status line holds two lines, and a bot's reason may be longer.
            self.dispatch(Note(why_text(self.get_model(), events), log=True))

    def save_replay(self) -> None:
        model = self.get_model()
        refused = replay_refusal(model)
        if refused is not None:
            self.note(refused, True)
            return
        assert model.game is not None  # what ``replay_refusal`` found
        if model.replay is not None and model.replay[0] == model.game:
            self.write_replay(model.game, model.replay[1])
            return
        if self.send(GetReplay(model.game)):
            self.ui.save_wanted = model.game
            self.note("Asking the server for the replay…")

    def on_model(self) -> None:
        """Called after every change of the model: finish what waited for the server, then redraw."""
        model = self.get_model()
        if self.ui.save_wanted is not None and model.replay is not None and model.replay[0] == self.ui.save_wanted:
            self.ui.save_wanted = None
            self.write_replay(model.replay[0], model.replay[1])
        if self.ui.rewind is not None and (model.view is None or model.view.outcome is not None):
            self.ui.rewind = None  # the rewind belongs to a game in progress; its end shows at once
        self.review.on_model(model)
        self._drop_stale_question(model)
        self._ask_for_a_name(model)
        self._call_to_play(model)
        self._select_our_table(model)
        self._ask_who_else_played(model)
        self._ask_for_our_record(model)
        self.application.invalidate()

    def _drop_stale_question(self, model: ClientModel) -> None:
        """A shortcut's question ("No clue on slot 4: play it anyway?") was asked of the table as it stood. Once
        someone has moved, the same keys are asked again of the table as it is now: a question that still holds
        stays (a pre-move's "play it anyway?" is still there when our turn comes, and the answer then plays); one
        that no longer does goes, and the player is told why."""
        view = model.view
        if not self.ui.pending or self.ui.pending_turn is None or (view is not None
                                                                   and view.turn == self.ui.pending_turn):
            return
        why = self._question_gone(model)
        if why is not None:
            self.cancel()
            self.note(why)

    def _question_gone(self, model: ClientModel) -> str | None:
        """Why the shortcut under way cannot go on now that the table has moved (None: it goes on, asked again)."""
        view, keys = model.view, self.ui.pending
        if view is None or view.seat is None or keys[0] not in shortcuts.STARTERS or not self.ui.pending_early:
            # Asked on our turn, now gone by: what was to be done now must not turn into a pre-move unasked.
            return "The table moved on while you were choosing: start the move again."
        if len(keys) > 1 and tuple(card.order for card in view.hands[view.seat]) != self.ui.pending_hand:
            return "Your hand changed while you were choosing: start the move again."
        now = shortcuts.replay(keys, view, model.names)
        if isinstance(now, shortcuts.Prompt):
            ours = view.current == view.seat and view.outcome is None
            self.ui.prompt = ("Your turn now. " if ours else "") + now.text
            self.ui.pending_turn = view.turn
            self.ui.pending_early = not ours
            return None
        slot = f"slot {keys[1]}" if len(keys) > 1 else "the card"
        if isinstance(now, shortcuts.KeyRefused):
            return f"The move you were choosing was not made: {now.text}."
        if not isinstance(now.intent, Discard):  # a play asked about (no clue on its card) that needs no asking now
            return f"Not played: a clue touched {slot} while you were asked: choose again."
        reason = refusal(view, now.intent, model.names)
        if reason is not None:
            return f"Not discarded: {reason}."
        return f"Not discarded yet: counting now shows {slot} can never be played, so d {keys[-1]} discards it at once."

    def _ask_for_a_name(self, model: ClientModel) -> None:
        """The server refused our name: the command line opens for another, the status line saying why."""
        if model.name_refused and not self.ui.naming and self.rename is not None:
            self.ui.naming = True
            self.open_command()

    def _choose_name(self, line: str) -> bool:
        """Enter on the name line: hand a name the server could take to the session; whether the line stays."""
        name = line.strip()
        problem = _name_problem(name)
        if problem is not None:
            self.note(f"{problem}: type another name", True)
            return True
        self.ui.naming = False
        self.dispatch(NameChosen(name))
        if self.rename is not None:
            self.rename(name)
        return False

    def _ask_for_our_record(self, model: ClientModel) -> None:
        """At the end of a game we played, ask once for our record: the end screen says our best at its count."""
        over = model.game_over
        if over is None or model.seat is None or self._record_asked == over.game:
            return
        self._record_asked = over.game
        if offline_problem(model) is None:
            self._send(GetStats())

    def _ask_who_else_played(self, model: ClientModel) -> None:
        """At the end of a seeded game, ask once for the other games of its seed: the end screen lists them."""
        over, table = model.game_over, model.table
        if over is None or table is None or not table.seeded or self._seed_asked == over.game:
            return
        self._seed_asked = over.game
        if offline_problem(model) is None:
            self._send(ListGames(seed=over.seed))

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
        if not self.bell or view is None or view.outcome is not None or view.seat != view.current \
                or model.seat is None:  # a spectator watching as the player to act: not our turn
            return
        turn = (model.game, view.turn)
        if turn != self._rung:
            self._rung = turn
            self.application.output.bell()

    def write_replay(self, game: int, text: str, variant: Variant | None = None) -> None:
        """Save ``text``, the replay of ``game``, in the replay folder (once per game)."""
        if game in self.ui.saved:
            self.note(f"This game's replay is already saved in {self.ui.saved[game]}")
            return
        model = self.get_model()
        listed = next((g.variant for g in model.games if g.id == game), None)
        view = model.view
        variant = variant or listed or (view.config.variant if view is not None else Variant.NONE)
        try:
            path = save_new_file(self.replay_dir, replay_stem(self.clock(), variant), text)
        except OSError as e:
            self.note(f"could not save the replay in {self.replay_dir}: {e.strerror or e}", True)
            return
        self.ui.saved[game] = str(path)
        # The whole path, which is also what --replay takes (the file is in the data folder, not where the client
        # was started, so its bare name would not open it); with a hint it passed the status bar's two lines, and
        # the home folder as "~", as a shell takes it, so that a long one does not either.
        self.note(f"Replay saved to {home_as_tilde(path)}")

    def run_command(self, line: str) -> bool:
        """Carry out one typed line; whether it stays on the command line to be mended (a text the server would
        refuse, so that nothing typed is lost)."""
        model = self.get_model()
        try:
            intent = parse(line, model.view, model.names)
        except CommandError as e:
            if isinstance(e, LineKept):
                self.hint(str(e), True)  # about the line kept: Esc, closing it, takes this away too
                return True
            self.note(str(e), True)
            return False
        # The command line is deliberate, so a play needs no confirmation here, unlike the one-key shortcut.
        self.act(intent)
        # Text typed while the server is away stays to be sent once back, as a line too long stays to be mended.
        return isinstance(intent, (Say, NoteIntent)) and offline_problem(self.get_model()) is not None

    def _accept(self, buffer: Buffer) -> bool:
        line = buffer.text
        typing_on = self.ui.typing_on if self._naming_a_person() else None
        self.application.layout.focus(self.status_window)
        secret, self.ui.secret = self.ui.secret, None
        self.ui.prompt = ""
        if self.ui.naming:
            if self._choose_name(line):
                self.application.layout.focus(self.command)
                return True
            return False
        if secret is not None:
            verb, table, seat = secret
            self.lobby.enter_table(verb, table, seat, line)
        elif typing_on is not None and line.strip() == typing_on.text.strip():
            # Enter with no name typed: say what the line wants, not the command's usage, and keep it open.
            self.hint("Type the name of a player in the lobby (Tab lists them), then Enter; Esc cancels", True)
            self.application.layout.focus(self.command)
            return True
        elif line.strip() and self.run_command(line):
            self.application.layout.focus(self.command)
            return True  # keeps the line
        return False  # clears the buffer

    def _typed(self, buffer: Buffer) -> None:
        """A chat line, note or name the server would refuse (too long, a character it does not take) is said while
        it is typed, not only on Enter; once mended, what was said goes."""
        words = buffer.text.split(None, 1)
        verb = ALIASES.get(words[0].lower(), words[0].lower()) if words else ""
        problem = None
        if self.ui.naming:  # the line is a name, whatever its first word
            # An empty line is only one not typed yet: said on Enter.
            problem = _name_problem(buffer.text.strip()) if buffer.text.strip() else None
        elif verb == "hand":
            self._ask_who_is_online()
        elif verb in ("say", "note"):
            model = self.get_model()
            try:
                parse(buffer.text, model.view, model.names)
            except LineKept as e:
                problem = str(e)
            except CommandError:
                pass  # a line still being typed ("note bo"): said on Enter if it stays so
        if problem is not None:
            self.hint(problem, True)
            self._line_problem = problem
        elif self._line_problem:
            if self.ui.hint == self._line_problem:
                self.drop_hint()
            self._line_problem = ""
        elif self.application.layout.has_focus(self.command):
            # Typed by the player (not the line opened on a start): a refusal or news on the status line was about
            # what came before, a line sent or a key pressed, and goes as a news line does once something is newer.
            self.drop_news()

    def open_command(self, text: str = "", head: str = "") -> None:
        """Open the command line on ``text``; ``head``, the start of it the program typed (``say ``, ``note 3 ``),
        is what Ctrl-U leaves (``clear_line``)."""
        # The window keeps its sideways scroll while hidden. Left scrolled by a line longer than the screen, it
        # would scroll back only as far as the cursor (prompt_toolkit keeps no margin on the left), so a new line
        # opened with its label and every letter before the cursor out of sight, and stayed so: it starts afresh.
        self.command_window.reset()
        self.ui.line_head = head
        self.ui.typing_on = None
        self._online_asked = False
        self.command.set_document(self.command.document.__class__(text, len(text)))
        self.application.layout.focus(self.command)

    def clear_line(self) -> None:
        """Ctrl-U on the command line: what was typed before the cursor goes, but not the start the line was
        opened with (``say ``, ``note 3 ``), which the player did not type; Ctrl-U again clears that too."""
        before = self.command.document.text_before_cursor
        head = self.ui.line_head
        keep = len(head) if head and before.startswith(head) and len(before) > len(head) else 0
        self.command.delete_before_cursor(len(before) - keep)

    def quit(self) -> None:
        if self.application.is_running:
            self.application.exit()

    def answer_quit(self, key: str) -> None:
        self.ui.confirm_quit = False
        self.ui.prompt = ""
        if key.lower() == "y":
            self.quit()
        elif self.hosting:
            self.note("You stay; the server goes on.")
        elif key == "s":
            self.save_replay()  # the game's replay, kept in the replay folder: asked for, it is what was wanted
        else:
            self.note("You stay: s saves the replay, Ctrl-C quits.")

    def ask_to_quit(self) -> None:
        """What a quit key does: quit, except that a hosting client first says it stops the server for everyone,
        and a solo game's end (its review) that its replay, not saved yet, goes with it (asked again while asking,
        as a second Ctrl-C, means yes)."""
        unsaved = self._solo_replay_unsaved()
        if not (self.hosting or unsaved) or self.ui.confirm_quit:
            self.quit()
            return
        self.cancel()
        self.ui.confirm_quit = True
        self.ui.prompt = (
            "Quitting stops the server you host, for everyone on it. Quit? y quits, any other key stays"
            if self.hosting else
            "This solo game's replay is not saved (solo games are not kept). Quit? y quits, s saves it, any "
            "other key stays")

    def _solo_replay_unsaved(self) -> bool:
        """A solo game is over and its replay is not saved: quitting loses it (the solo server keeps nothing)."""
        model = self.get_model()
        view = model.view
        return self.solo and view is not None and view.outcome is not None and model.game is not None \
            and model.game not in self.ui.saved

    # -- what the keys do (bindings.py binds them, screen by screen) ---------------------------------

    def help_key(self, key: str) -> None:
        """A printable key while the help shows: ? turns the page (the last page back to the first); any other
        key closes the help, and does nothing else."""
        self.ui.help_page = self.ui.help_page % len(HELP_PAGES) + 1 if key == "?" else 0
        self.ui.help_from = 0
        last = self.ui.help_page == len(HELP_PAGES)
        self.ui.prompt = "" if not self.ui.help_page else HELP_LAST_KEYS if last else HELP_KEYS

    def open_help(self) -> None:
        self.ui.help_page, self.ui.help_from = 1, 0
        # Said on the status line too: a page taller than a small screen has its own last line out of sight.
        self.ui.prompt = HELP_KEYS

    def open_chat(self) -> None:
        """``t``: the command line opens on ``say``."""
        self.open_command("say ", head="say ")
        closed = chat_closed(self.get_model())
        if closed is not None:
            # Said before a word is typed; the line still opens, so the letters typed next are not
            # taken for one-key shortcuts (j, s, l…).
            self.ui.prompt = f"{closed} (Esc closes this line)"

    def leave_command(self) -> None:
        """Esc on the command line: close it, forgetting what was typed (not the name line: without a name there is
        nothing else to do, and the status line says Ctrl-C quits). With the completions menu open, Esc closes the
        menu only: the line as it reads stays."""
        if self.command.complete_state is not None:
            self.command.complete_state = None
            return
        if self.ui.naming:
            self.command.reset()
            self._typed(self.command)  # a reset is no typing: what was said of the name typed goes by hand
            return
        self.ui.secret = None
        self.ui.prompt = ""
        self.command.reset()
        self.application.layout.focus(self.status_window)
        self.drop_hint()  # what was said of the line closed (too long) no longer holds

    def start_handing(self) -> None:
        """``H``: the host hands an away player's seat on (handing.py)."""
        self._follow([handing.KEY], handing.start(self.get_model()))

    def start_shortcut(self, key: str) -> None:
        """p, d, c, m, b: the first key of a shortcut (keys.py)."""
        model = self.get_model()
        if model.watching_as is not None:  # watching as a player: their view, not their seat
            self.note(SPECTATORS_CANNOT_ACT, True)
            return
        self._follow([key], shortcuts.start(key, model.view, model.names))

    def start_card_history(self) -> None:
        """``i``: the clue history of a card, once its seat and slot are pressed."""
        model = self.get_model()
        if model.view is not None:
            self._follow(["i"], history_prompt(model.view, model.names))

    def start_note(self) -> None:
        """``n``: a note on a card, once its seat and slot are pressed (notes.py)."""
        self._note_step(notes.start(self.get_model()), ["n"])

    def toggle_knowledge(self) -> None:
        self.ui.show_knowledge = not self.ui.show_knowledge

    def watch_next_seat(self) -> None:
        """``v`` while watching: see the game as the next player sees it (their own cards hidden), after the last
        one every hand again."""
        model = self.get_model()
        if model.table is None or model.seat is not None:
            self.note("v is a spectator's key: a seated player sees the game from their own seat", True)
            return
        seat = model.watching_as
        following = 0 if seat is None else seat + 1
        self.send(WatchSeat(following if following < model.table.seats else None))

    def toggle_notes(self) -> None:
        """``N``: the notes panel in place of the log, or the log again."""
        self.ui.show_notes = not self.ui.show_notes

    def why(self) -> None:
        """``w``: the last bot move's reason."""
        self._local("why")

    def ask_advice(self) -> None:
        """``a``: ask the coach what the house bot would do in our seat now (the answer goes to the log). The
        table's rule, and whose turn it is, are checked here first, so a slip is answered at once."""
        model = self.get_model()
        view = model.view
        if model.table is None or view is None:
            self.note(NO_GAME, True)
            return
        refused = advice_refusal(model.table, model.seat)
        if refused is not None:
            self.note(refused.message, True)
        elif view.current != model.seat:
            self.note("advice is for your own turn: ask again when it is yours", True)
        elif self.send(GetAdvice()):
            self.note("Asking the coach…")

    def answer_confirm(self, key: str) -> None:
        intent = self.ui.confirm
        assert intent is not None
        self.ui.prompt = ""
        if key.lower() == "y":
            self.act(intent)
        else:
            self.ui.confirm = None
            self.note("You stay at the table; the game goes on.")

    def open_rewind(self) -> None:
        view = self.get_model().view
        if view is None:
            return
        opened = Rewind.open(view)
        if isinstance(opened, str):
            self.note(opened, True)
        else:
            self.ui.rewind = opened

    def close_rewind(self) -> None:
        self.ui.rewind = None

    def rewind_key(self, key: str) -> None:
        """A printable key while rewinding: ``[`` ``]`` ``,`` ``.`` step; any other is refused on the status line."""
        view = self.get_model().view
        if self.ui.rewind is not None and view is not None:
            self.ui.rewind.key(view, key)

    def rewind_move(self, move: Move) -> None:
        """←/→, Home/End while rewinding."""
        view = self.get_model().view
        if self.ui.rewind is not None and view is not None:
            self.ui.rewind.move(view, move)

    def shortcut_key(self, key: str) -> None:
        """The next key of a shortcut, a note or a clue history under way."""
        model = self.get_model()
        if self.ui.note_keys:  # a note in progress (pending is empty then)
            self._note_step(notes.step(self.ui.note_keys, key, model), [*self.ui.note_keys, key])
            return
        if self.ui.pending[0] == handing.KEY:
            self._follow([*self.ui.pending, key], handing.step(self.ui.pending, key, model))
            return
        view = model.view
        if view is not None and self.ui.pending[0] == "i":
            told = history_step(self.ui.pending, key, view, model.names)
            if isinstance(told, str):
                self.cancel()
                self.dispatch(Note(told, log=True))
            else:
                self._follow([*self.ui.pending, key], told)
            return
        if view is None or view.seat is None:
            self.cancel()
            return
        asked = shortcuts.asks_yes_or_no(self.ui.pending)
        step = shortcuts.step(self.ui.pending, key, view, model.names)
        self._follow([*self.ui.pending, key], step)
        if asked and key in shortcuts.STARTERS:  # p, d, c... answers no, and begins the move it names
            self.start_shortcut(key)

    def _follow(self, keys: list[str], step: shortcuts.Step | handing.Step) -> None:
        if isinstance(step, shortcuts.Prompt):
            if not self.ui.pending:
                self.drop_news()  # a shortcut begun is newer: its end (Esc) must not bring back an older mistake
            self.ui.pending = keys
            self.ui.prompt = step.text
            view = self.get_model().view
            self.ui.pending_turn = view.turn if view is not None else None
            seat = view.seat if view is not None else None
            self.ui.pending_hand = tuple(c.order for c in view.hands[seat]) if view is not None and seat is not None \
                else ()
            if len(keys) == 1:
                self.ui.pending_early = view is not None and view.current != seat
            return
        self.ui.pending = []
        self.ui.prompt = ""
        if isinstance(step, shortcuts.KeyRefused):
            self.note(step.text, True)
        elif isinstance(step, handing.TypeOn):
            self.open_command(step.text, head=step.text)
            self.ui.prompt = step.prompt
            self.ui.typing_on = step
        else:
            self.act(step.intent)

    def _note_step(self, step: notes.NoteStep, keys: list[str]) -> None:
        """Follow the ``n`` key's sequence (client/notes.py): prompt, send the note, or open the command line."""
        self.ui.note_keys = keys if isinstance(step, shortcuts.Prompt) else []
        self.ui.prompt = step.text if isinstance(step, shortcuts.Prompt) else ""
        if isinstance(step, shortcuts.KeyRefused):
            self.note(step.text, True)
        elif isinstance(step, NoteIntent):
            self.act(step)
        elif isinstance(step, notes.EditNote):
            self.open_command(step.line, head=step.head)

    def delete_note(self) -> None:
        """Backspace or Delete at the note's prompt: the note goes."""
        self._note_step(notes.step(self.ui.note_keys, notes.DELETE_KEY, self.get_model()), [])

    def enter(self) -> None:
        """Enter outside the command line (the form and the history have their own): a note's text, the lobby's
        join, or a command."""
        if self.ui.help_page:  # the help covers the screen: Enter closes it, as any other key, and does no more
            self.help_key("\n")
        elif len(self.ui.note_keys) == 3:  # the note's prompt waits: its text goes on the command line
            self._note_step(notes.step(self.ui.note_keys, notes.EDIT_KEY, self.get_model()), [])
        elif self.mode() == "lobby" and self.get_model().table is None:
            self.lobby.enter_chosen("j")
        else:
            self.open_command()

    def escape(self) -> None:
        """Esc: the form closes, or what is under way is cancelled; with nothing under way, back out of a game
        looked at alone, then out of the history."""
        if self.ui.form is not None:
            self.ui.form = None
            self.drop_hint()
        elif self.ui.show_notes and not self.ui.prompt:
            self.ui.show_notes = False  # the notes panel closes as N does, the log again in its place
        elif not self.ui.prompt:
            self.back()
        self.cancel()

    def back(self) -> None:
        if self.mode() == "whatif":
            self.review.leave_what_if()
        elif self.review.ui.private is not None:
            self.review.close()
            self.drop_hint()  # the game looked at alone, whose keys it named
        elif self.history.ui is not None:
            self.history.close()

    def cancel(self) -> None:
        self.ui.note_keys = []
        self.ui.rewind = None
        self.review.cancel()
        self.ui.pending, self.ui.pending_turn, self.ui.pending_hand, self.ui.pending_early = [], None, (), False
        self.ui.confirm = None
        self.ui.confirm_quit = False
        self.ui.prompt = ""
        self.ui.help_page = 0

    def form_key(self, key: str) -> None:
        """A printable key in the table's form: its text, or Space changing the choice."""
        form = self.ui.form
        limit = form.full() if form is not None else None
        if form is not None and limit is not None:  # said, not cut without a word
            self.note(f"the {form.current} is at most {limit} characters: Backspace or Ctrl-U to change it", True)
        elif form is not None and form.type_text(key):
            self.drop_hint()  # "the table needs a name", once one is typed
        elif form is not None and key == " ":
            form.change(1)

    def scroll(self, lines: int) -> None:
        """Scroll the log back (positive) or forward (negative); the notes panel, when shown, up or down; the help,
        when it shows, up or down as far as its page goes."""
        if self.ui.help_page:
            self.ui.help_from = max(0, min(self.screen.help_bottom(), self.ui.help_from - lines))
            return
        if self.ui.show_notes:
            self.ui.notes_from = max(0, min(len(self.get_model().card_notes) - 1, self.ui.notes_from - lines))
            return
        total = len(self.get_model().log)
        self.ui.log_back = max(0, min(total - 1, self.ui.log_back + lines))


def replay_refusal(model: ClientModel) -> str | None:
    """Why the game's replay cannot be saved now, or None: only once its game is over."""
    if model.game is None or model.view is None or model.view.outcome is None:
        return "a replay can be saved once the game is over"
    return None


def _name_problem(name: str) -> str | None:
    """Why the name line's ``name`` cannot be a player's name ("the name must be 1 to 32 characters, not 40")."""
    problem = name_problem(name)
    return None if problem is None else f"the name {problem.removeprefix('--name ')}"
