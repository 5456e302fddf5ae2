"""The text of each screen: lobby, game, end of game, help; pure functions of the model and UI state.

Each function returns styled fragments for one window; the app's layout
factories wrap them in windows whose text is a callable, so every redraw reads
the live model. ``width`` is the terminal's width, for the parts that use more
room when there is more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hanabi.engine import Event, PlayerView, Variant
from hanabi.engine.bots import reason_words
from hanabi.protocol import table_rules as rules
from hanabi.protocol.messages import Stats, TableInfo
from prompt_toolkit.formatted_text import StyleAndTextTuples, to_plain_text

from .board import (
    deck_reveal_fragments,
    discard_fragments,
    fireworks_fragments,
    hands_fragments,
    opening,
    score_text,
    seat_name,
    tokens_fragments,
    whose_turn,
)
from .form import timer_text
from .handing import KEY as HAND_KEY
from .handing import someone_away
from .knowledge import Insight
from .model import ClientModel, Link, LogLine, last_bot_move, seats_taken
from .notes import card_marks
from .wrapping import columns, cut, pad, wrap_words

POINTER = "◀"  # beside the card a review's leader points at
WIDE = 110  # from this width on, the chat gets its own column beside the log


def link_fragments(model: ClientModel) -> StyleAndTextTuples:
    link = model.link
    style = "class:link.online" if link in (Link.ONLINE, Link.REPLAY) else "class:link.offline"
    text = {
        Link.ONLINE: "● online",
        Link.CONNECTING: "… connecting",
        Link.RECONNECTING: "… reconnecting",
        Link.OFFLINE: "○ offline",
        Link.CLOSED: "✖ disconnected",
        Link.REPLAY: "▶ replay",
    }[link]
    return [(style, text)]


def title_fragments(model: ClientModel, width: int, live: ClientModel | None = None,
                    looking: str | None = None) -> StyleAndTextTuples:
    """The top bar, one shape on every screen: "Hanabi · table · variant · where we are", then who we are and
    the connection. Where we are: "lobby"; at a table between games, "waiting"; in a game, its turn and whose
    it is (and "paused"); a step looked back at says how first ("rewind", "review"). ``model`` is the model
    drawn (a step's, when ``looking``); ``live``, the live one: our table and our connection, which a step
    looked back at does not change.

    Our own name and whose turn it is always show; when the bar is too narrow, the word "Hanabi" goes first,
    then the server's address, then the variant's long title gives way to its telling part ("short
    multicolor"), then the table's name is shortened, marked with "…" (it is whole in the lobby).
    """
    live = live if live is not None else model
    view = model.view
    # A game from the history looked at alone need not be our table's.
    table = live.table.name if live.table is not None and looking != "history" else None
    variant = view.config.variant if view is not None else live.table.variant if live.table is not None else None
    game: list[str] = []
    if view is not None:
        # Once over, the turns taken (the engine's count, as hanabi-replay gives it), not a turn to come.
        turn = f"{view.turn} turn{'s' if view.turn != 1 else ''}" if view.outcome is not None \
            else f"turn {view.turn + 1}"
        yours = looking is None and model.link is not Link.REPLAY and model.watching_as is None
        game = [*([looking] if looking else []), turn, whose_turn(view, model.names, yours=yours)]
        if model.clock is not None and model.clock.paused and view.outcome is None:
            game.append("paused")  # the turn is someone's, but no one may move
    else:
        game = ["lobby"] if table is None else ["waiting"]
    right_style, right_text = link_fragments(live)[0][:2]
    named = f" {model.player} " if model.player else " "

    def bar(hanabi: bool, table_name: str | None, variant_text: str | None) -> str:
        parts = (["Hanabi"] if hanabi else []) + [p for p in (table_name, variant_text) if p] + game
        return " " + " · ".join(parts) + " "

    title = variant.title if variant is not None else None
    label = variant_label(variant, VARIANT_COLUMN) if variant is not None else None
    address = f" {model.player}@{model.address} " if model.player else f" {model.address} "
    # Dropped on purpose, least useful first: the word "Hanabi" names the program the player is already in; the
    # server's address is what a friend needs to join, so it stays longer.
    tries = [(bar(True, table, title), address),
             (bar(False, table, title), address) if model.address else (bar(True, table, title), named),
             (bar(False, table, title), named), (bar(False, table, label), named)]
    room = width - columns(right_text) - 1
    if table is not None:
        # The table's name cut to what is left, marked as cut, as a last resort before anything else goes.
        spare = room - columns(named) - columns(bar(False, None, label)) - len(" · ")  # columns left for the name
        if spare >= 4:
            tries.append((bar(False, cut(table, spare), label), named))
        tries.append((bar(False, None, label), named))
    tries.append((bar(False, None, None), named))  # last, the variant: where we are and whose turn stay whole
    left, who = next(((lt, w) for lt, w in tries if columns(lt) + columns(w) <= room), tries[-1])
    if columns(who) > room // 2:
        who = " " + cut(who.strip(), max(1, room // 2 - 2)) + " "  # a name too long for any bar: cut, not the bar
    if columns(left) + columns(who) > room:
        left = cut(left, max(0, room - columns(who) - 1)) + " "
    gap = max(0, room - columns(left) - columns(who))
    return [("class:title", left + " " * gap + who), ("class:title " + right_style, right_text), ("class:title", " ")]


def tokens_line(view: PlayerView, width: int = 80) -> StyleAndTextTuples:
    """Fireworks, score, clue tokens, strikes, deck and the final-round countdown, shortened to fit ``width``."""
    fireworks = fireworks_fragments(view)
    score: StyleAndTextTuples = [("class:label", f"({score_text(view)})")]
    for line in ([*fireworks, *score, *tokens_fragments(view)],
                 [*fireworks, *score, *tokens_fragments(view, dots=False)],
                 [*fireworks, *tokens_fragments(view, dots=False)],
                 [*fireworks[1:], *tokens_fragments(view, dots=False)]):
        if sum(len(f[1]) for f in line) <= width:
            return line
    return line


def board(model: ClientModel, show_knowledge: bool, width: int = 80, corner: str = "",
          can_be: bool = True) -> StyleAndTextTuples:
    view = model.view
    if view is None:
        return []
    table = model.table
    away = [] if table is None else [i for i, p in enumerate(table.players) if p is not None and not p.connected]
    marks = card_marks(model)
    pointed = model.review.pointer if model.review is not None else None
    if pointed is not None:  # the review's leader points at this card: an arrow beside it, on every screen
        marks[pointed] = [*marks.get(pointed, []), ("class:status.prompt", POINTER)]
    return hands_fragments(view, model.names, show_knowledge, away, width, marks, Insight.of(view),
                           yours=model.watching_as is None, corner=corner, can_be=can_be)


KNOWS_CUT = "k: more rows"  # the board's corner when what each seat knows (k) has no room on the screen
CAN_BE_CUT = "can be: no room"  # the corner when even what your own cards can be has none


def board_within(model: ClientModel, show_knowledge: bool, width: int, rows: int) -> StyleAndTextTuples:
    """The hands in at most ``rows`` lines if they can: what each seat knows (k) only when it fits with them,
    else left out, the board's corner saying so; on a screen shorter still, what your own cards can be left out
    too (their clues still show in the hand's row), so that the log keeps a line (a screen too short for every
    line is not a reason to show none)."""
    if show_knowledge:
        hands = board(model, True, width)
        if to_plain_text(hands).count("\n") + 1 <= rows:
            return hands
    hands = board(model, False, width, KNOWS_CUT if show_knowledge else "")
    if to_plain_text(hands).count("\n") + 1 <= rows or model.view is None or model.view.seat is None:
        return hands  # (a spectator watching every hand has no "can be" rows to leave out)
    return board(model, False, width, KNOWS_CUT if show_knowledge else CAN_BE_CUT, can_be=False)


def discards(model: ClientModel, width: int = 80) -> StyleAndTextTuples:
    if model.view is None:
        return []
    line = wrap_words(table_line(model), width)  # broken at spaces: never "play" on one line, "able" on the next
    return discard_fragments(model.view, width) + ([("", "\n"), *line] if line else [])


def why_text(model: ClientModel, events: Sequence[Event] | None = None) -> str:
    """The reason of the last bot move (key w) up to ``events`` (a review's step; None: the game as it stands), or
    why it cannot be shown yet."""
    last = last_bot_move(model, events)
    if last is None:
        return "no bot has moved in this game yet" if events is None else "no bot had moved yet at this step"
    turn, seat = last
    who = seat_name(model.names, seat)
    holder = model.table.players[seat] if model.table is not None else None
    if holder is not None and holder.network_bot:
        # A hanabi-bot decides on its own machine: the server never has its reasons to pass on.
        return f"{who} is a hanabi-bot: its reasons show where it runs (hanabi-bot --explain)"
    reason = next((r.reason for r in model.bot_reasons if r.turn == turn), None)
    if reason is None:
        return f"{who}'s reason for turn {turn + 1} names your own cards: it shows when the game ends"
    # Seats by who held them then, as the board names them ("cluing cathy red", not the server's "seat 3").
    return f"{who}, turn {turn + 1}: {reason_words(reason, model.names_at(turn))}"


def seed_fragments(model: ClientModel) -> StyleAndTextTuples:
    """At the end of a seeded game: who else played this deal, and how they scored (the server's games list)."""
    over, table = model.game_over, model.table
    if over is None or table is None or not table.seeded:
        return []
    others = [g for g in model.games if g.seed == over.seed and g.id != model.game and g.variant is table.variant
              and len(g.players) == table.seats]
    if not others:
        return [("class:label", f" Seed {over.seed!r}: no one else has played this deal here yet.\n")]
    played = " · ".join(f"{', '.join(g.players)}: {g.score}" for g in others[:5])
    more = f" (and {len(others) - 5} more)" if len(others) > 5 else ""
    return [("class:label", f" Seed {over.seed!r} was also played by {played}{more}.\n")]


def watchers_fragments(model: ClientModel, width: int = 80) -> StyleAndTextTuples:
    """Who watches the table, on one line."""
    return [("class:label", _cut(f"Watching ({len(model.watchers)}): {', '.join(model.watchers)}", max(20, width - 1)))]


def online_fragments(model: ClientModel, width: int = 80) -> StyleAndTextTuples:
    """Who is connected to the server, on one line (the lobby's)."""
    if not model.online:
        return []
    count = model.online_total or len(model.online)
    return [("class:label", _cut(f"Online ({count}): {', '.join(model.online)}", max(20, width - 1))), ("", "\n")]


def log_lines(model: ClientModel, with_chat: bool) -> list[LogLine]:
    return [line for line in model.log if with_chat or line.kind != "chat"]


def join_lines(lines: list[LogLine]) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out += line.fragments
    return out


def chat_line(sender: str, text: str) -> StyleAndTextTuples:
    return [("class:chat.sender", f"<{sender}> "), ("class:chat", text)]


def chat_fragments(model: ClientModel) -> StyleAndTextTuples:
    if not model.chat:
        return [("class:label", "No chat yet. Type t to talk.")]
    out: StyleAndTextTuples = []
    for i, (sender, text) in enumerate(model.chat):
        if i:
            out.append(("", "\n"))
        out += chat_line(sender, text)
    return out


def end_fragments(model: ClientModel, solo: bool = False) -> StyleAndTextTuples:
    """The end of the game: score, rating, reason, the cards left in the deck, and what to do next.

    In ``--solo`` there is no lobby to go back to: ``l`` quits, so only ``q`` is offered.
    """
    view = model.view
    over = model.game_over
    outcome = over.outcome if over is not None else (view.outcome if view is not None else None)
    if outcome is None:
        return []
    style = "class:end.victory" if outcome.victory or outcome.score >= 21 else "class:end"
    if outcome.score == 0 and not outcome.victory:
        style = "class:end.defeat"
    out: StyleAndTextTuples = [
        (style, f" Game over: {outcome.score}/{outcome.max_score} — {outcome.rating}.\n"),
        # The reason on a line of its own: beside the rating it was cut mid-word at 80 columns.
        ("class:label", " " + opening(outcome.detail, model.names) + ".\n"),
    ]
    left = deck_reveal_fragments(over.deck, view.deck_size - view.deck_left) if over and view else []
    if left:
        out += [*left, ("", "\n")]
    if view is not None:
        out += best_fragments(model.stats, view.config.players, view.config.variant)
    out += seed_fragments(model)
    if model.is_host:
        again = "a play again"
    elif model.seat is not None and chat_closed(model) is None:
        again = "a ask the host for another game"
    else:
        again = "the host may start another game"  # chat closed (or watching): nothing to ask with
    out.append(("class:keys", " s save the replay · " + again + ("" if solo else " · l leave") + " · q quit "))
    return out


def best_fragments(stats: Stats | None, players: int, variant: Variant) -> StyleAndTextTuples:
    """Our best score at this player count and variant, from our record (nothing before it comes, or without
    a finished game of that kind)."""
    line = next((x for x in stats.lines if x.players == players and x.variant is variant), None) if stats else None
    if line is None:
        return []
    kind = f"{players}-player" + ("" if variant is Variant.NONE else f" {variant.title}")
    return [("class:label", f" Your best {kind} score: {line.best} ({line.games} game{'s' if line.games > 1 else ''}, "
                            f"mean {line.mean:.1f}).\n")]


def _table_players(table: TableInfo) -> str:
    names = [p.name + ("*" if p.plays_as_bot else "") + ("" if p.connected else "?") if p is not None else "·"
             for p in table.players]
    return ", ".join(names)


def _options(table: TableInfo) -> str:
    opts = [table.variant.title]  # whole here, whatever the width of the list's column
    if table.empty_clues:
        opts.append("empty clues")
    if table.all_or_nothing:
        opts.append("all-or-nothing")
    opts.append(f"chat {table.chat.value}")
    if table.timed:
        opts.append(f"clock {timer_text(table.time_base, table.time_per_turn)}")
    if table.has_password:
        opts.append("password needed")
    return ", ".join(opts + rule_options(table))


def rule_options(table: TableInfo) -> list[str]:
    """The table options, in words: the bots' level, a seeded deal, hanab.live's rule options, advice."""
    opts = [f"bots play {table.level}"]
    if table.seeded:
        opts.append("seeded deal")
    if table.end_when_no_points:
        opts.append("ends when no points are left")
    if table.deck_plays:
        opts.append("deck's last card playable blind")
    if table.advice:
        opts.append("advice on your turn (a)")
    return opts


def table_line(model: ClientModel) -> StyleAndTextTuples:
    """Under the discards during a game: the table's options that change what happens, when any does (bots, a
    seeded deal, a rule option), so a player never has to leave the game to learn them."""
    table = model.table
    if table is None:
        return []
    opts = rule_options(table)
    if not any(p is not None and p.plays_as_bot for p in table.players):
        opts = opts[1:]
    return [("class:label", "Table: " + " · ".join(opts))] if opts else []


def _cut(text: str, room: int) -> str:
    """``text`` in ``room`` columns, its end replaced by "…" when cut, so a cut never reads as a whole word."""
    return cut(text, room)


VARIANT_COLUMN = 16  # at 80 columns: room left for the players' names
VARIANT_COLUMN_WIDE = max(len(v.title) for v in Variant)


def variant_label(variant: Variant, width: int) -> str:
    """The variant's title, or when it is too long its last part ("short multicolor"), which tells it apart."""
    title = variant.title
    if len(title) > width:
        title = title.rsplit(", ", 1)[-1]
    return cut(title, width)


def lobby_fragments(model: ClientModel, selected: int, width: int) -> StyleAndTextTuples:
    """The list of tables, one per line, the selected one highlighted, then our own table's seats."""
    out: StyleAndTextTuples = []
    if model.motd:
        out += [("class:label", model.motd), ("", "\n")]
    out += online_fragments(model, width)
    column = VARIANT_COLUMN_WIDE if width >= WIDE else VARIANT_COLUMN
    out.append(("class:label", f"  {'#':>3}  {'Table':<16} {'Variant':<{column}} {'Seats':<5} {'State':<7} "
                               f"{'Watch':<5} Players\n"))
    if not model.tables and model.link is Link.ONLINE:
        out.append(("class:label", "\n  No tables yet. Press n to create one.\n"))
    elif not model.tables and model.name_refused:
        # The server answered and refused our name: we are not in yet, but it is there.
        out += [("", "\n"), *wrap_words([("class:label", f"  {model.address or 'The server'} answered but did not "
                                                         "take the name: type another below to come in.")], width, 2),
                ("", "\n")]
    elif not model.tables:
        # Not connected (yet): the server's tables are unknown, and n could not create one.
        out += [("", "\n"), *wrap_words([("class:label", f"  Not connected to {model.address or 'the server'} yet: "
                                                         "its tables show here once it answers.")], width, 2),
                ("", "\n")]
    for i, table in enumerate(model.tables):
        state = "playing" if table.running else "waiting"
        # A locked table keeps a visible mark even when its name is cut to fit.
        name = (_cut(table.name, 12) + " [p]") if table.has_password else _cut(table.name, 16)
        watch = str(table.spectators) if table.spectators else "-"
        variant = variant_label(table.variant, column)
        line = (f"{'▶' if i == selected else ' '} {table.id:>3}  {pad(name, 16)} {variant:<{column}} "
                f"{seats_taken(table)}/{table.seats:<3} {state:<7} {watch:<5} {_table_players(table)}")
        style = "class:selected" if i == selected else ""
        out.append((style, _cut(line, max(20, width - 1))))
        out.append(("", "\n"))
        if i == selected:
            # What the row had to cut is whole here: the table's name, then its players.
            details = f"{table.name}: {_options(table)}" if table.name != name.removesuffix(" [p]") \
                else _options(table)
            if columns(line) > width - 1:
                details += f"; players: {_table_players(table)}"
            out += wrap_words([("class:label", "        " + details)], max(20, width - 1), 8)
            out.append(("", "\n"))
    mine = model.table
    if mine is not None:
        out.append(("", "\n"))
        where = f"seat {model.seat + 1}" if model.seat is not None else "spectating"
        host = ", you are the host" if model.is_host else ""
        out.append(("class:name.me", f" Your table: {mine.name} (#{mine.id}), {where}{host}\n"))
        for s, p in enumerate(mine.players):
            # A network bot (hanabi-bot) is a bot to its teammates, though the host cannot remove or replace it.
            kind = " [bot]" if p is not None and p.bot else " [network bot]" if p is not None and p.network_bot else ""
            who = "(free)" if p is None else p.name + kind + (
                "" if p.connected else " [disconnected]")
            hostmark = " (host)" if mine.host == s else ""
            out.append(("", f"   seat {s + 1}: {who}{hostmark}\n"))
        if model.watchers:
            out += [("", "   "), *watchers_fragments(model, width - 3), ("", "\n")]
        for sender, text in model.chat[-5:]:
            out += [("", "   "), *chat_line(sender, text), ("", "\n")]
        if model.is_host and someone_away(mine):
            out.append(("class:keys", f" {HAND_KEY} hand on an away player's seat · b add a bot · g start · l leave "))
        elif model.is_host:
            out.append(("class:keys", " b add a bot · x remove a bot · g start the game · l leave "))
        elif model.seat is not None:
            out.append(("class:keys", " waiting for the host to start · l leave "))
        else:
            out.append(("class:keys", " l stop watching "))
        out.append(("", "\n"))
    return out


# The help, in pages that each fit an 80x24 screen whole (at most 22 lines: the title bar and the keys bar stay).
# ``?`` turns the page; the last line of each says so.
HELP_PAGES: tuple[tuple[str, ...], ...] = (
    (
        "Keys during a game (help page 1 of 2)",
        "  p N    play the card in slot N (slot 1 = newest)      d N    discard slot N",
        "  c P V  clue player P (the seat number on the board) with a colour or a rank",
        "  m A B  move a card from slot A to slot B (any time) · PgUp/PgDn scroll the log",
        "  p/d N out of turn: queue it for your next turn (u cancels) · z pause/resume",
        "  k show or hide what each player knows · t talk · : command · N notes",
        "  n P S  note on P's card in slot S (yours too): f finessed, cm chop moved…",
        "  r      rewind (← → [ ] Home End; r returns)   i S N  clues on seat S's slot N",
        "  w why the last bot moved · b blind-play the deck's last card (a table option)",
        "  a advice: what the house bot would do in your seat (if the host allows it)",
        "Reading the board",
        "  [R3] a card that got a clue, R3 one that got none · ▶ the player to act",
        "  Your hand: [R] [3] the clues each card got; can be: what it may still be",
        "  * a card with a note · R1? your note says R1 · R1≠ a clue says it cannot be",
        "  y ⁴ small: ruled out by counting · + playable  ! last copy  x trash, for sure",
        "",
        "? next page (lobby, commands) · PgUp/PgDn scroll · other keys close this help.",
    ),
    (
        "Keys in the lobby (help page 2 of 2)",
        "  ↑↓ choose a table · Enter/j join · s spectate · n new · r refresh · h history",
        "  at your table: b add a bot · x remove a bot · g start · l leave",
        "  watching: v sees the game as the next player does (own cards hidden), then all",
        "Commands (type : first; Tab completes)",
        "  play N · discard N · clue PLAYER COLOUR|RANK · move FROM TO · say TEXT · help",
        "  pause · unqueue · join TABLE [SEAT] · watch TABLE · leave · new · start · save",
        "  bot SEAT · unbot SEAT · host SEAT · knowledge · note [PLAYER] SLOT [TEXT]",
        "  review after a game: ←→ step · f follow the leader · o P N point · lead NAME",
        "  m / M the next / previous moment that mattered (the house bot would differ)",
        "  h what if: p d c a move · b the bot's · ← back · r reveal drawn · h/Esc leaves",
        "  deckplay (the deck's last card, blind) · why (the last bot move's reason)",
        '  PLAYER: the seat number on the board, or a name ("ada", "bot a": Bot Ada)',
        "  [p] beside a table in the lobby: it asks for a password",
        "Host: H hands an away player's seat to a bot or a player · hand SEAT bot|NAME",
        "Esc cancels keys · Ctrl-C quits at any time.",
        "? back to page 1 · PgUp/PgDn scroll · other keys close this help.",
    ),
)


def help_fragments(page: int = 1) -> StyleAndTextTuples:
    """Help page ``page`` (from 1): every key and command over the pages, and how to read the board."""
    return [("", "\n".join(HELP_PAGES[page - 1]))]


def chat_closed(model: ClientModel) -> str | None:
    """Why chat is closed to us now, from the table's chat option as the lobby shows it; None when open.

    Only a hint, so the key can say so before a message is typed: the server decides.
    """
    table, view = model.table, model.view
    if table is None:
        return "chat is per table: join or watch one first"
    playing = view is not None and view.outcome is None  # what the view says comes before the lobby's list
    refusal = rules.chat_refusal(replace(table, running=playing), seated=model.seat is not None)
    return refusal.message if refusal is not None else None


# Kept on the key line whatever else must go: the help, which lists every key, and the host's H, shown only while
# a seat waits for it.
KEPT_KEYS = ("?", HAND_KEY)


def keys_line(items: list[tuple[str, str]], width: int) -> StyleAndTextTuples:
    """The (key, what it does) ``items``, most useful first, as many as fit ``width``: what does not fit goes from
    the end, but the last (quit, or back) and the ``KEPT_KEYS`` always stay."""
    items = list(items)
    while sum(len(k) + len(w) + 3 for k, w in items) > width:
        droppable = [i for i, (key, _) in enumerate(items[:-1]) if key not in KEPT_KEYS]
        if len(droppable) <= 1:
            break
        del items[droppable[-1]]
    out: StyleAndTextTuples = []
    for key, what in items:
        out += [("class:keys.key", f" {key}"), ("class:keys", f" {what} ")]
    return out


def names_line(model: ClientModel) -> str:
    view = model.view
    if view is None:
        return ""
    return ", ".join(seat_name(model.names, s) for s in range(view.players))
