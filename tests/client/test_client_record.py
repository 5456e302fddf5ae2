"""Our own record (``get_stats``/``stats``): asked for at the end of a game we played, whose screen then says our
best score at its player count, and with the history, which shows it above the finished games."""

from __future__ import annotations

from hanabi.client.history_list import HistoryUi, history_fragments
from hanabi.engine import Discard, EndReason, Variant, apply, legal_actions
from hanabi.protocol.messages import (
    GameOver,
    Games,
    GameStarted,
    GameSummary,
    GetStats,
    Joined,
    ListGames,
    Stats,
    StatsLine,
    Welcome,
)
from prompt_toolkit.formatted_text import to_plain_text

from .conftest import Terminal

RECORD = Stats("alice", (StatsLine(2, Variant.SIX_SUITS, 1, 30, 30, 1, 0, 1),
                         StatsLine(3, Variant.NONE, 4, 79, 21, 0, 1, 3, with_advice=1)))


def test_the_end_of_a_game_asks_for_our_record_once_and_says_our_best_at_its_count(term: Terminal, kit) -> None:
    state = kit.game()  # three players, no variant
    while not state.over:
        actions = legal_actions(state)
        state = apply(state, next((a for a in actions if isinstance(a, Discard)), actions[-1]))
    assert state.outcome is not None
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(kit.table(running=True), 0), GameStarted(1, 1),
              kit.view_message(state, 0), RECORD)  # a record from before this game: not this game's
    term.sent.clear()
    term.feed(GameOver(1, state.outcome, state.deck, "7"))
    assert term.sent == [GetStats()]
    assert "Your best" not in term.screen()
    term.feed(RECORD)
    lines = term.screen().splitlines()
    assert any(line.startswith(" Your best 3-player score: 21 (4 games, mean 19.8).") for line in lines), lines
    assert all(len(line) <= 80 for line in lines)
    term.feed(GameOver(1, state.outcome, state.deck, "7"))
    assert term.sent == [GetStats()]  # asked once per game


def test_a_spectator_is_not_told_a_best_score(term: Terminal, kit) -> None:
    state = kit.game()
    while not state.over:
        state = apply(state, legal_actions(state)[-1])
    assert state.outcome is not None
    term.feed(Welcome(1, "server", "dave", "tok", ""), Joined(kit.table(running=True), None), GameStarted(1, 1),
              kit.view_message(state, None))
    term.sent.clear()
    term.feed(GameOver(1, state.outcome, state.deck, "7"))
    assert term.sent == []


def test_the_history_shows_our_record_above_the_games(term: Terminal, kit) -> None:
    term.feed(Welcome(3, "server", "alice", "tok", ""))
    assert term.type("h") == [ListGames(), GetStats()]
    term.feed(Games((GameSummary(8, 2, ("alice", "bob"), Variant.NONE, 17, EndReason.FINAL_ROUND, 1_790_000_000,
                                 True),)), RECORD)
    lines = term.screen().splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith("Your record"))
    assert lines[top] == "Your record (alice): 5 games, 4 with bots, 1 with advice", lines
    assert lines[top + 1].startswith("  2p six suits") and lines[top + 2].startswith("  3p no variant")
    assert lines[top + 1].split()[3:] == ["1", "game", "mean", "30.0", "best", "30", "perfect", "1", "struck", "out",
                                          "0"]
    assert lines[top + 2].split()[3:] == ["4", "games", "mean", "19.8", "best", "21", "perfect", "0", "struck", "out",
                                          "1"]
    assert any(line.startswith("Finished games on this server") for line in lines)
    assert all(len(line) <= 80 for line in lines)
    # At 60 columns the players' names are cut, never the mark of a game played with advice.
    term.feed(Games((GameSummary(8, 2, ("alice", "bob"), Variant.NONE, 17, EndReason.FINAL_ROUND, 1_790_000_000,
                                 True, advice=True),)))
    narrow = to_plain_text(history_fragments(term.store.model, HistoryUi(), 60)).splitlines()
    game = next(line for line in narrow if "  8  " in line)
    assert "(advice)" in game and len(game) < 60, game
    # Names that do not fit end in "…", so a cut list never reads as the whole table.
    term.feed(Games((GameSummary(9, 2, ("alice", "bob", "carol", "Robo"), Variant.NONE, 17, EndReason.FINAL_ROUND,
                                 1_790_000_000, True, advice=True),)))
    narrow = to_plain_text(history_fragments(term.store.model, HistoryUi(), 70)).splitlines()
    game = next(line for line in narrow if "  9  " in line)
    assert game.endswith("…") and "(advice) alice" in game and len(game) <= 69, game
    term.feed(Stats("alice", ()))
    assert "Your record (alice): no finished game yet" in term.screen()
