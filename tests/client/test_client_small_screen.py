"""A terminal smaller than 80x24 (60x15 here) still shows everything: the new-table form scrolls to the field
being filled in, and PgUp/PgDn scroll a help page taller than the screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hanabi.client.app import HELP_KEYS, HELP_LAST_KEYS
from hanabi.client.form import FIELDS, LABELS
from hanabi.client.screens import HELP_PAGES
from hanabi.client.snapshot import screen_text
from hanabi.engine import GameConfig, Variant, new_game
from hanabi.protocol.messages import GameStarted, Joined, Watchers, Welcome
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input

DOWN, PGDN, PGUP = "\x1b[B", "\x1b[6~", "\x1b[5~"


@pytest.fixture
def small(tmp_path: Path, kit) -> Iterator[object]:
    with create_pipe_input() as pipe:
        yield kit.Terminal(pipe, tmp_path, columns=60, rows=15)


def test_the_form_scrolls_to_its_last_fields_on_a_short_screen(small) -> None:
    small.feed(Welcome(1, "server", "dave", "tok", ""))
    small.type("n")
    first = small.screen()
    assert "New table" in first and LABELS[FIELDS[-1]] not in first  # 15 rows: the last fields are below
    small.type(DOWN * (len(FIELDS) - 1))
    last = small.screen()
    assert f"▶ {LABELS[FIELDS[-1]]}" in last  # the field being filled in is on screen, marked
    small.type(DOWN)  # round to the name again
    assert f"▶ {LABELS[FIELDS[0]]}" in small.screen()


def test_the_forms_long_values_are_cut_with_an_ellipsis_and_the_typed_one_shows_its_end(small) -> None:
    small.feed(Welcome(1, "server", "dave", "tok", ""))
    small.type("n")
    every = []
    for _ in FIELDS:  # each field in turn on screen (15 rows scroll the form)
        every += small.screen().splitlines()
        small.type(DOWN)
    fields = [line for line in every if line[2:].startswith(tuple(LABELS.values()))]
    assert fields and all(len(line) <= 59 for line in fields), fields
    assert any(line.endswith("…") for line in fields), fields  # a value that did not fit says so
    small.type(DOWN * FIELDS.index("seed") + "the seed of friday night, typed at length to the end")
    seed = next(line for line in small.screen().splitlines() if line.startswith(f"▶ {LABELS['seed']}"))
    assert seed.startswith(f"▶ {LABELS['seed']:<18}…") and seed.endswith("to the end▏") and len(seed) <= 59, seed


def test_pgdn_and_pgup_scroll_a_help_page_taller_than_the_screen(small, kit) -> None:
    small.feed(Welcome(1, "server", "alice", "tok", ""), Joined(kit.table(running=True), 0), GameStarted(1, 1),
               kit.view_message(kit.game(), 0))
    small.type("?")
    top = small.screen()
    first = HELP_PAGES[0][0]
    assert first in top and "other keys close this help" not in top  # the page's own last line is out of sight,
    assert top.splitlines()[-2] == " " + HELP_KEYS  # so the status line says how to scroll it
    for _ in range(10):
        small.type(PGDN)
    bottom = small.screen()
    assert "keys close this help." in bottom and first not in bottom, bottom  # its last line, words whole
    assert small.app.ui.help_page == 1  # PgDn scrolls, it does not close the help
    for _ in range(10):
        small.type(PGUP)
    assert first in small.screen()
    for _ in range(10):
        small.type(PGDN)
    # Scrolled to the end of the page, then the terminal widened: fewer lines, drawn from where they still reach.
    small.app.application.output.size = Size(rows=24, columns=100)
    wide = screen_text(small.app.application, 100, 24)
    small.app.application.output.size = Size(rows=15, columns=60)
    assert "keys close this help." in wide, wide
    small.type("?")  # the last page: ? goes back to the first, and the status line says so
    assert small.app.ui.prompt == HELP_LAST_KEYS and "other keys close the" in small.screen()


@pytest.mark.parametrize("players", [3, 6])
def test_a_play_or_discard_that_asks_first_is_asked_whole_at_60x15(kit, tmp_path: Path, players: int) -> None:
    state = kit.clue_something(kit.game(players, first_seat=players - 1))  # the last seat clued our slot 1
    names = ("alice", "bob", "cathy", "dave", "emma", "fred")[:players]
    touched = {o for o in state.hands[0] if state.knowledge[o].clued}
    clued = next(slot for slot, card in enumerate(state.hands[0], 1) if card in touched)
    bare = next(slot for slot, card in enumerate(state.hands[0], 1) if card not in touched)
    for keys, asked in ((f"p{bare}", "play it anyway? y = yes, other keys = no"),
                        (f"d{clued}", "discard it? y = yes, other keys = no")):
        with create_pipe_input() as pipe:
            small = kit.Terminal(pipe, tmp_path, columns=60, rows=15)
            small.feed(Welcome(1, "server", "alice", "tok", ""), Joined(kit.table(names, running=True), 0),
                       GameStarted(1, 1), kit.view_message(state, 0))
            assert state.current == 0
            small.type(keys)
            assert asked in small.screen(), small.screen()


@pytest.mark.parametrize("players", [2, 3, 4, 5])  # six hands and their header leave 15 rows no line for a log
def test_the_last_move_shows_at_60x15_with_a_spectator_and_every_hand(kit, tmp_path: Path, players: int) -> None:
    state = kit.clue_something(kit.game(players))  # alice clues bob
    names = ("alice", "bob", "cathy", "dave", "emma", "fred")[:players]
    with create_pipe_input() as pipe:
        small = kit.Terminal(pipe, tmp_path, columns=60, rows=15)
        small.feed(Welcome(1, "server", "bob", "tok", ""), Joined(kit.table(names, running=True), 1),
                   GameStarted(1, 1), Watchers(1, ("eve",)), kit.view_message(state, 1))
        screen = small.screen()
        assert "1 alice clues bob" in screen, screen  # the log keeps its line: what your cards can be gives way
        assert all(name in screen for name in names[2:]), screen  # and no hand does


def test_a_spectator_watching_every_hand_at_60x15_is_not_told_of_can_be_rows(kit, tmp_path: Path) -> None:
    names = ("alice", "bob", "cathy", "dave", "emma")
    with create_pipe_input() as pipe:
        small = kit.Terminal(pipe, tmp_path, columns=60, rows=15)
        small.feed(Welcome(1, "server", "eve", "tok", ""), Joined(kit.table(names, running=True), None),
                   GameStarted(1, 1), kit.view_message(kit.game(5), None))
        screen = small.screen()
        assert "alice" in screen and "can be" not in screen, screen  # no hand of her own: nothing left out


def test_at_60_columns_a_cards_last_letters_are_never_cut(kit, tmp_path: Path) -> None:
    # Six suits, five cards: "RYGBWM" under the fifth card ran past the screen's edge and lost its M, which
    # told a player the card could not be multicolour. The names' column gives way instead.
    state = new_game(GameConfig(players=2, variant=Variant.WILD_MULTICOLOR), 7)
    with create_pipe_input() as pipe:
        small = kit.Terminal(pipe, tmp_path, columns=60, rows=15)
        small.feed(Welcome(1, "server", "bob", "tok", ""), Joined(kit.table(("alice", "bob"), running=True), 1),
                   GameStarted(1, 1), kit.view_message(state, 1))
        small.type("k")  # what alice knows too
        rows = [line for line in small.screen().splitlines() if line.startswith(("    knows", "    can be"))]
        assert len(rows) == 2 and all(row.split()[-5:] == ["RYGBWM"] * 5 for row in rows), small.screen()


def test_the_status_line_does_not_repeat_the_help_pages_last_line_when_it_shows(small, kit) -> None:
    small.feed(Welcome(1, "server", "alice", "tok", ""), Joined(kit.table(running=True), 0), GameStarted(1, 1),
               kit.view_message(kit.game(), 0))
    small.type("??")  # the last page, taller than 60x15: its last line out of sight, the status says its keys
    top = small.screen()
    assert "other keys close the" in top and "close this help." not in top, top
    for _ in range(10):
        small.type(PGDN)
    bottom = small.screen()
    assert "other keys close this" in bottom  # the page's last line, in sight
    assert bottom.count("PgUp/PgDn scroll") == 1, bottom  # said once, by the page itself
