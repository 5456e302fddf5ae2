"""Six players (beyond the printed rules: 3 cards each) in the client: the new-table form offers six seats, and a
six-player table drawn at 80x24 keeps every hand, every card, every name and the keys' line on the screen, with
what each card can be shown or not."""

from __future__ import annotations

import random
import re

import pytest
from hanabi.engine import (
    ChatPolicy,
    GameConfig,
    GameState,
    Play,
    Variant,
    apply,
    legal_actions,
    new_game,
    view_for,
)
from hanabi.protocol import CreateTable, Joined, SeatInfo, TableInfo, ViewUpdate, Welcome

from .conftest import Terminal

SIX = ("alice", "Bartholomew Longname", "Bot Dexter the Third", "Christina Verylongname", "Bot Ada",
       "Frederica Longername")


def _mid_game(turns: int) -> GameState:
    """A short-multicolor six-player game ``turns`` moves in: clues and discards (so the pile fills), no misplay."""
    rng = random.Random(6)
    state = new_game(GameConfig(players=6, variant=Variant.SHORT_MULTICOLOR, first_seat=0), 6)
    for _ in range(turns):
        state = apply(state, rng.choice([a for a in legal_actions(state) if not isinstance(a, Play)]))
    return state


@pytest.mark.parametrize("knows", [False, True])
@pytest.mark.parametrize("turns", [0, 24])
def test_six_hands_fit_at_80x24_with_nothing_cut(term: Terminal, knows: bool, turns: int) -> None:
    state = _mid_game(turns)
    seats = tuple(SeatInfo(n, n.startswith("Bot"), True) for n in SIX)
    info = TableInfo(1, "six at the party", Variant.SHORT_MULTICOLOR, False, False, ChatPolicy.ALWAYS, 6, seats,
                     False, True, 0, 0)
    term.feed(Welcome(1, "s", "alice", "tok", ""), Joined(info, 0), ViewUpdate(1, view_for(state, 0)))
    if knows:
        term.type("k")
    lines = term.screen().splitlines()
    shown = "\n".join(lines)
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines), shown
    assert "too small" not in shown
    assert all(len(hand) == 3 for hand in state.hands)
    for seat in range(1, 6):  # every other player whole, with their three cards in their row
        row = next((line for line in lines if re.match(rf"^[ ▶]{seat + 1} {re.escape(SIX[seat])} ", line)), None)
        assert row is not None, (SIX[seat], shown)
        cards = [f"{state.deck[o].suit.letter}{state.deck[o].rank}" for o in state.hands[seat]]
        # A clued card is in brackets, and a mark may follow it ("[B5]!").
        assert re.search(r"\s+".join(rf"\[?{card}\]?\S*" for card in cards) + "$", row.rstrip()), (cards, row)
    assert any(re.match(r"^[ ▶]1 You \(alice\)", line) for line in lines), shown
    assert sum(line.startswith("    knows") for line in lines) == (5 if knows else 0), shown
    assert sum(line.startswith("    can be") for line in lines) == 1, shown
    assert lines[1].startswith("Fireworks ") and "Discards " in shown
    assert lines[-1].lstrip().startswith("p play"), shown


def test_the_new_table_form_offers_six_seats_then_wraps_to_two(term: Terminal) -> None:
    term.feed(Welcome(1, "server", "dave", "tok", ""))
    [create] = term.type("n" + "\x7f" * 40 + "Six\t\t" + "\x1b[C" * 3 + "\r")  # seats: 3 by default, then 4, 5, 6
    assert isinstance(create, CreateTable) and create.seats == 6
    term.sent.clear()
    [create] = term.type("n" + "\x7f" * 40 + "Two\t\t" + "\x1b[C" * 4 + "\r")
    assert isinstance(create, CreateTable) and create.seats == 2
