"""The lobby's requests: tables, seats, bots, starting and leaving, and the new-table form.

LobbyIntent intents (typed commands or one-key shortcuts) are checked here against
the table as the lobby shows it, in its 1-based seat numbers, so a slip is
answered at once; what passes is sent, and the server has the last word.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from hanabi.engine import TIME_BASE, TIME_PER_TURN
from hanabi.protocol import NAME_MAX, ErrorCode, TableInfo
from hanabi.protocol import table_rules as rules
from hanabi.protocol.messages import (
    AddBot,
    Chat,
    CreateTable,
    HandSeat,
    Join,
    Leave,
    ListOnline,
    ListTables,
    Message,
    PauseRequest,
    QueueMove,
    RemoveBot,
    Spectate,
    Start,
)
from hanabi.protocol.messages import GiveHost as GiveHostMessage

from .board import opening
from .commands import HAND_USAGE, LobbyIntent
from .form import CHATS, TIMERS, VARIANTS, TableForm
from .model import ClientModel, LeftTable, Link, offline_problem
from .screens import chat_closed

if TYPE_CHECKING:
    from .app import ClientApp


def only_the_host(model: ClientModel, verb: str) -> str:
    """What a guest who asked to start (or play again) is told: ask the host, in words that work at this table."""
    what = "starts the game" if verb == "start" else "starts another game"
    if chat_closed(model) is None:
        return f"only the host {what}: ask them (t, then type your message)"
    table = model.table
    host = None
    if table is not None and table.host is not None and 0 <= table.host < len(table.players):
        host = table.players[table.host]
    who = host.name if host is not None else "the host"
    return f"only the host {what}: chat is closed here, so wait for {who} (or ask them in person)"


def table_now(model: ClientModel) -> TableInfo | None:
    """Our table as the lobby shows it, running or not as our view says (the view comes first)."""
    table, view = model.table, model.view
    if table is None or view is None:
        return table
    return replace(table, running=view.outcome is None)


def seat_problem(model: ClientModel, verb: str, number: int) -> str | None:
    """What is wrong with ``bot``/``unbot``/``host`` for seat ``number`` (1-based, as the lobby shows seats).

    Checked before anything is sent with the table rules the server applies (``hanabi.protocol.table_rules``),
    so the answer comes at once and in the server's words.
    """
    table = table_now(model)
    if table is None:
        return "join or create a table first"
    check = {"bot": rules.add_bot_refusal, "unbot": rules.remove_bot_refusal, "host": rules.give_host_refusal}[verb]
    refusal = check(table, model.seat, number - 1)
    return refusal.message if refusal is not None else None


class LobbyActions:
    """What one ``ClientApp`` does with lobby intents and keys."""

    def __init__(self, app: ClientApp) -> None:
        self.app = app

    def act(self, intent: LobbyIntent) -> None:
        """Carry out a lobby intent typed or keyed: check what the lobby can, then send the request."""
        model = self.app.get_model()
        verb, number = intent.verb, intent.number
        if verb in ("join", "spectate") and number is not None:
            seat = int(intent.text) - 1 if verb == "join" and intent.text else None
            known = next((t for t in model.tables if t.id == number), None)
            refusal = rules.seat_taken(known, seat) if seat is not None and known is not None else None
            if refusal is not None:  # checked before sending, with the server's rule, so a slip is answered at once
                self.app.note(f"table {number}: {refusal.message}", True)
                return
            self.enter_table(verb, number, seat)
        elif verb == "leave":
            view = model.view
            if model.seat is not None and view is not None and view.outcome is None and self.app.ui.confirm is None:
                # The server ends the game for everyone when a seated player leaves it: ask first.
                self.app.ui.confirm = intent
                self.app.ui.prompt = ("Leaving ends this game for everyone at the table (score 0). Leave anyway? "
                                  "y = yes, any other key = no")
                return
            self.app.ui.confirm = None
            if self.app.solo:
                self.app.ask_to_quit()  # quits, unless the game's replay would be lost unsaved: then it asks
            elif self.app.send(Leave()):
                self.app.dispatch(LeftTable())
        elif verb in ("start", "again"):
            table = table_now(model)
            refusal = rules.start_refusal(table, model.seat) if table is not None else None
            if refusal is not None and refusal.code != ErrorCode.NOT_HOST:
                self.app.note(refusal.message, True)
            elif refusal is None and table is not None:
                self.app.send(Start())
            elif verb == "again" and model.seat is not None and chat_closed(model) is None:
                # What the end screen promises a guest: the host hears the wish at the table.
                if self.app.send(Chat("would like another game (host: press a)")):
                    self.app.note("You asked the host for another game.")
            else:
                self.app.note(only_the_host(model, verb), True)
        elif verb == "refresh":
            self.refresh()
        elif verb == "pause":
            self.pause(model)
        elif verb == "unqueue":
            if model.premove is None:
                self.app.note("no move is queued: p or d while it is not your turn queues one", True)
            else:
                self.app.send(QueueMove())
        elif verb == "new":
            self.open_form(intent.text)
        elif verb == "hand" and number is not None:
            self.hand_seat(number, intent.text or "")
        elif verb in ("bot", "unbot", "host") and number is not None:
            problem = seat_problem(model, verb, number)
            if problem is not None:
                self.app.note(problem, True)
                return
            seat = number - 1
            message: Message = AddBot(seat) if verb == "bot" else RemoveBot(seat) if verb == "unbot" \
                else GiveHostMessage(seat)
            self.app.send(message)

    def hand_seat(self, number: int, who: str) -> None:
        """``hand NUMBER bot`` or ``hand NUMBER NAME``: the host gives an away player's seat (1-based) on."""
        model = self.app.get_model()
        table = table_now(model)
        to_bot = who.casefold() == "bot"
        if table is None:
            self.app.note("join or create a table first", True)
            return
        refusal = rules.hand_seat_refusal(table, model.seat, number - 1, to_bot)
        if refusal is not None:
            self.app.note(refusal.message, True)
        elif not to_bot and len(who) > NAME_MAX:
            self.app.note(f"no name is that long (at most {NAME_MAX} characters): {HAND_USAGE}", True)
        else:
            self.app.send(HandSeat(number - 1, None if to_bot else who))

    def refresh(self) -> None:
        """The tables, and who is online, asked again."""
        if self.app.send(ListTables()):
            self.app.send(ListOnline())

    def _enter(self, model: ClientModel, key: str, table: int) -> None:
        """``j`` or ``s`` on a table of the list; a spectator may still take a free seat (j) at the table watched."""
        refusal = rules.seated_refusal(model.table, model.seat, "join" if key == "j" else "watch", table)
        if refusal is not None:
            self.app.note(refusal.message, True)
        elif key == "s" and model.table is not None and model.table.id == table:
            self.app.note("you are already watching it", True)
        else:
            self.enter_table("join" if key == "j" else "spectate", table)

    def enter_table(self, verb: str, table: int, seat: int | None = None, password: str | None = None) -> None:
        """Join (or watch) a table; one with a password asks for it first, on the command line."""
        known = next((t for t in self.app.get_model().tables if t.id == table), None)
        if password is None and known is not None and known.has_password:
            self.app.ui.secret = (verb, table, seat)
            self.app.open_command()
            self.app.ui.prompt = f"Table {known.name!r} has a password: type it and press Enter (Esc cancels)"
            return
        self.app.send(Join(table, seat, password) if verb == "join" else Spectate(table, password))

    def open_form(self, name: str | None = None) -> None:
        model = self.app.get_model()
        if model.link in (Link.CONNECTING, Link.OFFLINE):
            # No server has answered yet, so none said it has no tables: the form would be filled in for nothing.
            # (While reconnecting it opens, and is kept until it can be sent.)
            self.app.note(offline_problem(model) or "", True)
            return
        refusal = rules.seated_refusal(model.table, model.seat, "create")
        if refusal is not None:  # said before the form is filled in, not after
            self.app.note(f"{refusal.message} (l leaves)", True)
            return
        if not name:
            # A name no table in the lobby has: two "alice's table" side by side could not be told apart.
            base = f"{model.player}'s table" if model.player else "my table"
            taken = {t.name for t in model.tables}
            name = next(n for n in (base, *(f"{base} {i}" for i in range(2, len(taken) + 3))) if n not in taken)
        self.app.ui.form = TableForm(name=name)
        self.app.drop_news()  # the form is newer than what the status said before it

    def submit_form(self) -> None:
        form = self.app.ui.form
        if form is None:
            return
        if not form.name.strip():
            self.app.hint("the table needs a name", True)
            return
        timer = TIMERS[form.clock]
        if self.app.send(CreateTable(form.name.strip(), VARIANTS[form.variant], form.seats, form.empty_clues,
                                     form.all_or_nothing, CHATS[form.chat], form.password or None,
                                     timed=timer is not None, time_base=timer[0] if timer else TIME_BASE,
                                     time_per_turn=timer[1] if timer else TIME_PER_TURN,
                                     level=form.level_choice(), seed=form.seed_text(),
                                     end_when_no_points=form.end_when_no_points, deck_plays=form.deck_plays,
                                     advice=form.advice)):
            self.app.ui.form = None  # kept while offline, so what was filled in is not lost

    def pause(self, model: ClientModel) -> None:
        """Pause the game, or let it go on when a player paused it (the server says who and why to everyone)."""
        view, clock = model.view, model.clock
        if model.seat is None or view is None or view.outcome is not None:
            paused = clock is not None and clock.paused and view is not None and view.outcome is None
            self.app.note(f"only a seated player can {'resume' if paused else 'pause'} a running game", True)
        elif clock is not None and clock.paused and clock.paused_by is None:
            self.app.note(f"{opening(clock.note, model.names)}: it goes on once they are back", True)
        else:
            self.app.send(PauseRequest(clock is None or not clock.paused))

    def add_bot(self) -> None:
        """Seat a bot in the first free seat of our table."""
        table = self.app.get_model().table
        if table is None:
            self.app.note("join or create a table first", True)
            return
        free = [i for i, p in enumerate(table.players) if p is None]
        if not free:
            self.app.note("every seat is taken", True)
            return
        self.app.send(AddBot(free[0]))

    def remove_bot(self) -> None:
        table = self.app.get_model().table
        bots = [] if table is None else [i for i, p in enumerate(table.players) if p is not None and p.bot]
        if not bots:
            self.app.note("there is no bot at your table", True)
            return
        self.app.send(RemoveBot(bots[-1]))

    def enter_chosen(self, key: str) -> None:
        """``j`` joins the highlighted table, ``s`` watches it."""
        model = self.app.get_model()
        tables = model.tables
        chosen = tables[self.app.ui.selected] if 0 <= self.app.ui.selected < len(tables) else None
        if chosen is None:
            self.app.note(offline_problem(model) or "there is no table yet: press n to create one", True)
        else:
            self._enter(model, key, chosen.id)

    def move(self, step: int) -> None:
        """↑/↓: the highlighted table."""
        count = len(self.app.get_model().tables)
        if count:
            self.app.ui.selected = (self.app.ui.selected + step) % count
