"""Turns and endings: tokens, strikes, plays, discards, the three endings, and the checks on every action."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from hanabi.engine import (
    Card,
    Clue,
    Discard,
    EndReason,
    GameState,
    IllegalAction,
    Play,
    Suit,
    TurnEvent,
    Variant,
    apply,
    legal_actions,
)

if TYPE_CHECKING:
    from conftest import Kit  # the fixture's type; pytest itself injects the instance


def last_event(state: GameState) -> TurnEvent:
    event = state.events[-1]
    assert isinstance(event, TurnEvent)
    return event


# ---- tokens ----------------------------------------------------------------


def test_discard_is_refused_with_all_eight_tokens(kit: Kit) -> None:
    state = kit.deal()
    assert not any(isinstance(a, Discard) for a in legal_actions(state))
    with pytest.raises(IllegalAction, match="cannot discard with all 8 clue tokens"):
        apply(state, Discard(state.hands[0][0]))


def test_clue_costs_a_token_and_discard_regains_one(kit: Kit) -> None:
    state = kit.deal("R1 R2 R3 R4 R5 Y1 Y2 Y3 Y4 Y5")
    state = apply(state, Clue(1, colour=Suit.YELLOW))
    assert state.clue_tokens == 7
    state = apply(state, Discard(9))
    assert state.clue_tokens == 8
    event = last_event(state)
    assert event.card == Card(Suit.YELLOW, 5) and event.clue_gained and not event.success
    assert state.discard == (9,) and state.strikes == 0 and state.fireworks == (0,) * 5
    assert state.hands[1] == (10, 8, 7, 6, 5)


def test_no_clue_without_tokens(kit: Kit) -> None:
    state = kit.deal()
    for _ in range(8):
        state = apply(state, kit.some_clue(state))
    assert state.clue_tokens == 0
    assert not any(isinstance(a, Clue) for a in legal_actions(state))
    assert any(isinstance(a, Discard) for a in legal_actions(state))
    target = 1 - state.current
    with pytest.raises(IllegalAction, match="no clue tokens"):
        apply(state, Clue(target, rank=state.deck[state.hands[target][0]].rank))


def test_playing_a_five_regains_a_token(kit: Kit) -> None:
    state = kit.deal("R1 R2 R3 R4 R5 Y1 Y2 Y3 Y4 Y5")
    for order in (0, 1, 2, 3):
        state = apply(state, Play(order))
        assert last_event(state).success and not last_event(state).clue_gained
        state = apply(state, Clue(0, rank=5))  # seat 1 spends a token each time
    assert state.clue_tokens == 4
    state = apply(state, Play(4))
    event = last_event(state)
    assert event.success and event.card == Card(Suit.RED, 5) and event.clue_gained
    assert state.clue_tokens == 5
    assert state.fireworks == (5, 0, 0, 0, 0)


def test_playing_a_five_at_eight_tokens_loses_the_bonus(kit: Kit) -> None:
    state = kit.deal("R1 R2 R3 R4 R5 Y1 Y2 Y3 Y4 Y5")
    for order in (0, 1, 2, 3):
        state = apply(state, Play(order))
        state = apply(state, Play(order + 5))  # seat 1 builds yellow meanwhile
    state = apply(state, Play(4))
    event = last_event(state)
    assert event.success and not event.clue_gained
    assert state.clue_tokens == 8
    assert state.fireworks == (5, 4, 0, 0, 0)


def test_a_misplayed_five_gives_no_token(kit: Kit) -> None:
    state = kit.deal("R5 R2 R3 R4 R1")
    state = apply(state, Clue(1, rank=1))
    state = apply(state, Clue(0, rank=1))
    state = apply(state, Play(0))
    assert state.clue_tokens == 6 and state.strikes == 1
    assert not last_event(state).clue_gained and not last_event(state).success


# ---- plays and strikes ---------------------------------------------------------


def test_misplay_is_a_strike_and_goes_to_the_discard_pile(kit: Kit) -> None:
    state = kit.deal("R2 Y1")
    state = apply(state, Play(0))
    event = last_event(state)
    assert not event.success and event.card == Card(Suit.RED, 2)
    assert state.strikes == 1 and state.discard == (0,) and state.played == ()
    assert state.fireworks == (0,) * 5 and state.clue_tokens == 8
    assert event.drawn == 10 and state.hands[0][0] == 10


def test_a_one_starts_a_firework_and_the_next_rank_adds_to_it(kit: Kit) -> None:
    state = kit.deal("B1 B2 B2 W1 W3")
    state = apply(state, Play(0))
    state = apply(state, kit.some_clue(state))
    state = apply(state, Play(1))
    assert state.fireworks == (0, 0, 0, 2, 0) and state.played == (0, 1)
    state = apply(state, kit.some_clue(state))
    state = apply(state, Play(2))  # a second B2: the firework is already at 2
    assert state.strikes == 1 and state.fireworks == (0, 0, 0, 2, 0)


def test_third_strike_ends_at_once_with_score_zero_and_no_draw(kit: Kit) -> None:
    # Seat 0 holds R2 R3 R4 (orders 0-2); seat 1 holds R1 (order 5).
    state = kit.deal("R2 R3 R4 Y2 Y3 R1")
    state = apply(state, Play(0))
    state = apply(state, Play(5))
    state = apply(state, Play(1))  # red is at 1: R3 misplays
    state = apply(state, Clue(0, rank=4))
    assert state.strikes == 2 and not state.over
    drawn_before, hand_before = state.next_draw, state.hands[0]
    state = apply(state, Play(2))
    assert state.over and state.outcome is not None
    assert state.outcome.reason is EndReason.STRIKEOUT
    assert state.outcome.score == 0 and state.score == 0
    assert state.strikes == 3
    assert state.fireworks == (1, 0, 0, 0, 0)  # still shown
    assert state.next_draw == drawn_before and last_event(state).drawn is None
    assert state.hands[0] == tuple(o for o in hand_before if o != 2)
    assert state.outcome.rating == "horrible, booed by the crowd"
    assert legal_actions(state) == []


# ---- all fireworks complete ----------------------------------------------------------

FIREWORK_ORDER = {
    Variant.NONE: "RYGBW",
    Variant.SIX_SUITS: "RYGBWM",
    Variant.SHORT_MULTICOLOR: "RYGBWM",
    Variant.WILD_MULTICOLOR: "RYGBWM",
}


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_completing_every_firework_ends_at_once_with_the_maximum(kit: Kit, variant: Variant, players: int) -> None:
    # The cards of every firework, in playing order, on top: someone always holds the next one.
    top = " ".join(f"{s}{r}" for s in FIREWORK_ORDER[variant] for r in range(1, 6))
    state = kit.deal(top, players=players, variant=variant)
    while not state.over:
        mine = [o for o in state.hands[state.current] if kit.playable(state, o)]
        action = Play(mine[0]) if mine else kit.some_clue(state)
        before = state.next_draw
        state = apply(state, action)
    assert state.outcome is not None
    assert state.outcome.reason is EndReason.PERFECT
    assert state.score == state.outcome.score == variant.max_score
    assert state.fireworks == (5,) * len(variant.suits)
    assert last_event(state).success and last_event(state).drawn is None
    assert state.next_draw == before  # the last firework card is not replaced
    assert state.deck_left > 0
    assert state.outcome.victory
    expected = "legendary" if variant is Variant.NONE else "divine"
    assert state.outcome.rating == expected


def test_perfect_two_player_game_by_hand(kit: Kit) -> None:
    # Traced by hand: seats alternate, each playing its one playable card, 25 turns, 24 draws.
    state = kit.deal("R1 R2 R3 R4 R5 Y1 Y2 Y3 Y4 Y5 G1 G2 G3 G4 G5 B1 B2 B3 B4 B5 W1 W2 W3 W4 W5")
    script = [0, 5, 1, 6, 2, 7, 3, 8, 4, 9,  # R and Y from the deal, G and B being drawn
              10, 11, 12, 13, 14,  # G1-G5 alternate seats 0, 1, 0, 1, 0
              15, 16, 17, 18, 19,  # B1 (seat 1) .. B5 (seat 1)
              20, 21, 22, 23, 24]  # W1 (seat 0) .. W5 (seat 0)
    for turn, order in enumerate(script):
        assert state.current == turn % 2
        state = apply(state, Play(order))
        assert last_event(state).success, f"turn {turn}"
    assert state.outcome is not None and state.outcome.reason is EndReason.PERFECT
    assert state.turn == 25 and state.next_draw == 34 and state.deck_left == 16
    assert state.clue_tokens == 8


# ---- the final round -------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_after_the_last_draw_everyone_takes_exactly_one_more_turn(kit: Kit, players: int) -> None:
    state = kit.deal("R1", players=players)
    state = apply(state, Play(0))  # seat 0 scores a point first
    # Clue at 8 tokens, otherwise throw away the oldest card: the deck runs out.
    while state.deck_left > 0:
        assert state.final_turns_left is None
        hand = state.hands[state.current]
        state = apply(state, kit.some_clue(state) if state.clue_tokens == 8 else Discard(hand[-1]))
    drawer = last_event(state).seat
    assert last_event(state).drawn == len(state.deck) - 1
    assert state.final_turns_left == players and not state.over
    last_turn = state.turn - 1
    seats = []
    for k in range(1, players + 1):
        assert not state.over
        hand = state.hands[state.current]
        size = len(hand)
        state = apply(state, kit.some_clue(state) if state.clue_tokens == 8 else Discard(hand[-1]))
        seats.append(last_event(state).seat)
        assert last_event(state).drawn is None  # no more draws
        assert state.next_draw == len(state.deck)
        if isinstance(last_event(state).action, Discard):
            assert len(state.hands[seats[-1]]) == size - 1
        if k < players:
            assert state.final_turns_left == players - k
    assert seats == [(drawer + k) % players for k in range(1, players + 1)]
    assert seats[-1] == drawer
    assert state.over and state.outcome is not None
    assert state.outcome.reason is EndReason.FINAL_ROUND
    assert state.turn == last_turn + 1 + players
    assert state.score == state.outcome.score == 1
    assert state.outcome.rating == "horrible, booed by the crowd"
    with pytest.raises(IllegalAction, match="game is over"):
        apply(state, Clue((state.current + 1) % players, rank=1))


def test_a_perfect_finish_in_the_final_round_ends_the_game_at_once(kit: Kit) -> None:
    # Duplicates on top, then every firework card in playing order: W5 is the very last card of the deck,
    # so the fireworks can only be completed after the last draw, during the final round.
    top = "R1 R1 R2 R3 R4 Y1 Y1 Y2 Y3 Y4 G1 G1 G2 G3 G4 B1 B1 B2 B3 B4 W1 W1 W2 W3 W4"
    state = kit.deal(top)
    assert state.deck[-1] == Card(Suit.WHITE, 5)
    while not state.over:
        state = apply(state, kit.oracle_move(state))
    assert state.outcome is not None and state.outcome.reason is EndReason.PERFECT
    assert state.score == 25
    assert state.final_turns_left is not None and state.final_turns_left > 0
    assert last_event(state).card == Card(Suit.WHITE, 5) and last_event(state).success


# ---- what every action is checked for ----------------------------------------------------


def test_acting_out_of_turn_is_refused(kit: Kit) -> None:
    state = kit.deal()
    with pytest.raises(IllegalAction, match="not your turn: seat 0 is to act"):
        apply(state, Play(5), seat=1)
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(state, Clue(0, rank=1), seat=1)
    assert apply(state, Play(4), seat=0).turn == 1


def test_a_card_not_in_your_hand_is_refused(kit: Kit) -> None:
    state = kit.deal()
    with pytest.raises(IllegalAction, match=r"card #5 is not in your hand \(it is in another player's hand\)"):
        apply(state, Play(5))
    with pytest.raises(IllegalAction, match=r"card #30 is not in your hand \(it is in no one's hand\)"):
        apply(state, Play(30))
    state = apply(state, kit.some_clue(state))
    with pytest.raises(IllegalAction, match="card #0 is not in your hand"):
        apply(state, Discard(0))
    state = apply(state, Discard(state.hands[1][-1]))
    gone = state.discard[-1]
    state = apply(state, kit.some_clue(state))
    with pytest.raises(IllegalAction, match=f"card #{gone} is not in your hand"):
        apply(state, Discard(gone))


def test_nothing_is_legal_once_the_game_is_over(kit: Kit) -> None:
    state = kit.deal("R2 R3 R4 Y2 Y3 R2 R3 R4")
    for order in (0, 5, 1):
        state = apply(state, Play(order))
    assert state.over
    assert legal_actions(state) == []
    for action in (Play(6), Discard(6), Clue(0, rank=2)):
        with pytest.raises(IllegalAction, match="the game is over"):
            apply(state, action)


def test_something_that_is_not_an_action_is_refused(kit: Kit) -> None:
    with pytest.raises(IllegalAction, match="is not an action"):
        apply(kit.deal(), "play slot 1")  # type: ignore[arg-type]


def test_apply_never_changes_the_state_it_was_given(kit: Kit) -> None:
    state = kit.deal("R1")
    copy = kit.deal("R1")
    apply(state, Play(0))
    apply(state, Clue(1, colour=Suit.RED))
    assert state == copy


def test_turn_counter_and_seat_advance(kit: Kit) -> None:
    state = kit.deal(players=3)
    for turn in range(6):
        assert state.turn == turn and state.current == turn % 3
        state = apply(state, kit.some_clue(state))
        assert last_event(state).turn == turn and last_event(state).seat == turn % 3
