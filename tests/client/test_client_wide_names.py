"""Names of wide characters (emoji, CJK: two columns each) keep every line within the screen and every column in
its place: widths are counted in terminal columns wherever a name is padded or cut."""

from __future__ import annotations

import re

from hanabi.client.wrapping import columns, cut, pad
from hanabi.protocol.messages import GameStarted, Joined, Welcome
from prompt_toolkit.utils import get_cwidth

WIDE = "🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉bob"  # 23 columns in 13 characters


def test_cut_and_pad_count_columns_not_characters() -> None:
    assert columns(WIDE) == 23
    assert columns(cut(WIDE, 10)) <= 10 and cut(WIDE, 10).endswith("…")
    assert cut("bob", 10) == "bob"
    assert columns(pad("🎉x", 6)) == 6 and pad("🎉x", 6) == "🎉x   "


def test_a_wide_name_keeps_the_title_and_the_board_in_their_columns(term, kit) -> None:
    state = kit.game()
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(kit.table(("alice", WIDE, "cathy"), running=True), 0),
              GameStarted(1, 1), kit.view_message(state, 0))
    lines = term.screen().splitlines()
    assert all(get_cwidth(line) <= 80 for line in lines)
    assert lines[0].endswith("● online"), lines[0]  # the title's right end is still on screen
    # The first card of each other hand starts in the same column: the name column is padded by width.
    starts = []
    for name, seat in (("🎉", 1), ("cathy", 2)):
        row = next(line for line in lines if name in line and re.match(r"^[ ▶]\d ", line))
        card = state.deck[state.hands[seat][0]]
        at = re.search(rf"\[?{card.suit.letter}{card.rank}", row)
        assert at is not None, row
        starts.append(get_cwidth(row[:at.start()]))
    assert starts[0] == starts[1], lines


def test_a_wide_table_name_keeps_the_lobby_s_columns(term, kit) -> None:
    from dataclasses import replace

    from hanabi.protocol.messages import Tables

    wide = replace(kit.table(id=1), name="🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉")
    plain = replace(kit.table(id=2), name="friday")
    term.feed(Welcome(1, "server", "alice", "tok", ""), Tables((wide, plain)))
    lines = term.screen().splitlines()
    rows = [line for line in lines if re.match(r"^[ ▶]\s+[12]  ", line)]
    assert len(rows) == 2, lines
    assert all(get_cwidth(line) <= 80 for line in lines)
    # The variant column starts at the same place on both rows.
    assert len({get_cwidth(row[:row.index("no variant")]) for row in rows}) == 1, rows


def test_a_wide_name_of_ours_keeps_the_title_within_the_screen(term, kit) -> None:
    state = kit.game()
    term.feed(Welcome(1, "server", WIDE, "tok", ""), Joined(kit.table(("alice", WIDE, "cathy"), running=True), 1),
              GameStarted(1, 1), kit.view_message(state, 1))
    title = term.screen().splitlines()[0]
    assert get_cwidth(title) <= 80 and title.endswith("● online"), title
    assert "🎉" in title and "alice's turn" in title
