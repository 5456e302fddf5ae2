"""Beside a person, a bot reads their habits from what its seat saw: do they play a card on one clue, or wait
for proof? A person who plays on one clue gets the quick clue (one that leaves a single card able to be
playable), and no clue that would have them play a card that is not; one who waits gets proving clues.
And do they save? A bot beside a person seen to let a critical chop go guards its own chop.
"""

from __future__ import annotations

from hanabi.engine import Clue, Discard, GameState, Play, Suit, apply, view_for
from hanabi.engine.bots import decide, explained
from hanabi.engine.bots.hgroup import ConventionBot, Turn
from hanabi.engine.bots.memory import Table

from .test_bots_person import deal as deal_from

BOT = frozenset({1})  # 2 players: seat 0 is the person, seat 1 the house bot (beginner level)
R2_DRAWN = 10  # the person's card drawn after they play their R1


def deal(cards: str) -> GameState:
    """As the person tests deal (seat 0's hand, seat 1's, then the cards drawn next), with the bot (seat 1) first."""
    return deal_from(cards, first_seat=1)


def last_token(first_clue: Clue) -> GameState:
    """The bot clues the person's R1 (slot 3) with ``first_clue``, the person plays it and draws the R2; six
    clues that mean no play follow, and the bot moves with one clue token left."""
    state = deal("G3 B3 R1 W3 Y4  Y3 G4 B4 W4 R3  R2")
    state = apply(state, first_clue)
    state = apply(state, Play(2))
    for _ in range(3):
        state = apply(state, Clue(0, rank=3))
        state = apply(state, Clue(1, rank=4))
    assert state.clue_tokens == 1 and state.current == 1
    return state


def table_after(state: GameState) -> Table:
    bot = ConventionBot(bot_seats=BOT)
    bot.decide(view_for(state, 1))
    assert bot._table is not None
    return bot._table


def test_a_person_who_played_on_one_clue_gets_the_quick_clue_with_the_last_token() -> None:
    # They played their R1 on "red" alone, which neither the clue nor their count proved: they play on one
    # clue. With the last token, "red" (or "2") on their new R2 gets it played: the bot gives it.
    state = last_token(Clue(0, colour=Suit.RED))
    assert table_after(state).plays_on_one_clue(0)
    decision = decide(view_for(state, 1), bot_seats=BOT)
    assert isinstance(decision.action, Clue) and decision.action.target == 0, decision.reason
    assert decision.reason.startswith("seat 1 plays on one clue, so cluing seat 1 "), decision.reason
    assert decision.reason.endswith("their R2 (slot 1) can be played"), decision.reason
    line = explained(decision, view_for(state, 1), ("Ann", "Bot Bea"))
    assert "Ann plays on one clue, so cluing Ann" in line, line


def test_a_person_seen_to_play_only_what_is_proven_is_not_given_the_quick_clue() -> None:
    # The same position, but their R1 was proven by "1": nothing says they play on one clue. "red" alone
    # would only bring the R2 halfway, not worth the last token: no clue to them.
    state = last_token(Clue(0, rank=1))
    assert not table_after(state).plays_on_one_clue(0)
    decision = decide(view_for(state, 1), bot_seats=BOT)
    assert not (isinstance(decision.action, Clue) and decision.action.target == 0), decision.reason


def test_a_person_who_waits_for_proof_is_read_so_and_told_so() -> None:
    # The bot's "red" meant their R1 (slot 3), unproven; they clue instead of playing it: they wait for proof.
    # The 1 clue that proves it says why it is given.
    state = deal("G3 B3 R1 W3 Y4  Y3 G4 B4 W4 R3  R2")
    state = apply(state, Clue(0, colour=Suit.RED))
    state = apply(state, Clue(1, rank=4))
    table = table_after(state)
    assert table.waited[0] == 1 and not table.plays_on_one_clue(0)
    turn = Turn(table, view_for(state, 1))
    assert turn.why_clue(Clue(0, rank=1)) == ("seat 1 waits for proof, so cluing seat 1 1: their R1 (slot 3) can be "
                                              "played (a tempo clue: it had a clue already, this one says to play it "
                                              "now)")


def test_no_clue_has_a_one_clue_player_play_a_card_that_is_not_playable() -> None:
    # They play on one clue (their R1, on "red" alone). Their hand is now R3 G3 B3 W3 Y4 with R1 played:
    # "red" on the R3 leaves it able to be the R2, and they would play it. Read as a waiter, the same clue
    # would be harmless (it proves nothing), so only the habit forbids it.
    state = deal("G3 B3 R1 W3 Y4  Y3 G4 B4 W4 R4  R3")
    state = apply(state, Clue(0, colour=Suit.RED))
    state = apply(state, Play(2))
    table = table_after(state)
    turn = Turn(table, view_for(state, 1))
    red = Clue(0, colour=Suit.RED)
    touched = (R2_DRAWN,)
    assert table.plays_on_one_clue(0) and turn.judge(red, touched) is None
    assert turn.harm(red)[0] == 1
    table.one_clue[0] = 0  # the same position, read as a person who waits for proof
    assert Turn(table, view_for(state, 1)).judge(red, touched) is not None


def basic_table(person_discards: bool) -> tuple[Table, GameState]:
    """2 players at the basic level, the person (seat 0) moving first: the bot's chop is the R5. The person,
    with every token but one, throws a card (or clues the R5: a save); the bot then throws its chop."""
    state = deal_from("G3 B3 R1 W3 Y4  R5 G4 B4 W4 Y3")
    state = apply(state, Clue(1, rank=4))
    state = apply(state, Clue(0, rank=3))
    state = apply(state, Discard(0) if person_discards else Clue(1, rank=5))
    state = apply(state, Discard(5) if person_discards else Clue(0, rank=3))
    state = apply(state, Clue(1, rank=4))
    bot = ConventionBot(level="basic", bot_seats=BOT)
    bot.decide(view_for(state, 1))
    assert bot._table is not None
    return bot._table, state


def test_a_person_who_let_a_critical_chop_go_is_not_counted_on_to_save_the_next() -> None:
    # At the basic level a person is expected to save; this one had a token and threw a card while the bot's
    # chop was the R5, which the bot then threw. From then on the bot guards its own chop: it throws the
    # unclued card it can least need rather than its chop, and says why.
    table, state = basic_table(person_discards=True)
    assert table.missed[0] == 1 and not table.guards(0)
    turn = Turn(table, view_for(state, 1))
    assert turn.unguarded()
    found = turn.discard(None)
    assert found is not None and found[1].startswith("seat 1 lets a critical chop go, so nothing to play or clue")
    table.missed[0] = 0  # the same position with nothing seen: the basic level's expectation holds
    assert not Turn(table, view_for(state, 1)).unguarded()


def test_a_person_who_saved_a_critical_chop_is_counted_on() -> None:
    # The same table, but the person clued the bot's R5 on its chop: a save, seen once the bot plays it.
    table, state = basic_table(person_discards=False)
    assert table.saves[0] == 0 and table.missed[0] == 0 and table.guards(0)
    state = apply(apply(state, Play(5)), Clue(1, rank=4))  # the bot plays its R5 (a misplay: it is seen)
    bot = ConventionBot(level="basic", bot_seats=BOT)
    bot.decide(view_for(state, 1))
    assert bot._table is not None and bot._table.saves[0] == 1 and bot._table.guards(0)
