"""Views and hand order: what each seat, a spectator and everyone at the end may see; rearranging a hand."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import pytest
from hanabi.engine import (
    Card,
    Clue,
    Discard,
    GameConfig,
    IllegalAction,
    Play,
    PlayerView,
    Rearrange,
    RearrangeEvent,
    Suit,
    Variant,
    apply,
    legal_actions,
    new_game,
    reveal,
    spectator_view,
    view_for,
)

if TYPE_CHECKING:
    from conftest import Kit

TABLE = "R1 R2 R3 R4 R5 R1 Y1 R2 B3 W5 G1 G2 G3 G4 G5"


def test_own_cards_are_hidden_and_the_others_shown(kit: Kit) -> None:
    state = apply(kit.deal(TABLE, players=3), Clue(1, colour=Suit.RED))
    view = view_for(state, 1)
    assert view.seat == 1 and view.players == 3
    assert [cv.order for cv in view.hands[1]] == list(state.hands[1])
    assert all(cv.card is None for cv in view.my_hand)
    # What seat 1 knows of its own cards comes with the view.
    assert [cv.knowledge for cv in view.my_hand] == [state.knowledge[o] for o in state.hands[1]]
    for seat in (0, 2):
        assert [cv.card for cv in view.hands[seat]] == [state.deck[o] for o in state.hands[seat]]


def test_public_parts_of_the_view(kit: Kit) -> None:
    state = kit.deal(TABLE)
    state = apply(state, Play(0))  # R1 scores
    state = apply(state, Play(5))  # the other R1 misplays
    state = apply(state, Clue(1, colour=Suit.RED))
    state = apply(state, Discard(6))  # Y1, for the token back
    view = view_for(state, 0)
    assert view.fireworks == state.fireworks == (1, 0, 0, 0, 0)
    assert view.discard == ((5, Card(Suit.RED, 1)), (6, Card(Suit.YELLOW, 1)))
    assert view.strikes == 1 and view.clue_tokens == 8
    assert view.deck_left == state.deck_left == 37 and view.deck_size == 50
    assert view.turn == 4 and view.current == 0 and view.final_turns_left is None and view.outcome is None
    assert view.events == state.events
    visible = view.visible_cards()
    assert Card(Suit.RED, 1) in visible and visible.count(Card(Suit.RED, 1)) == 2  # the firework and the discard


def test_a_view_has_no_deck_and_no_seed() -> None:
    names = {f.name for f in dataclasses.fields(PlayerView)}
    assert not names & {"deck", "seed", "next_draw", "knowledge"}
    state = new_game(GameConfig(players=2), seed="a secret seed")
    view = view_for(state, 0)
    assert "a secret seed" not in repr(view)


def test_the_spectator_sees_every_hand(kit: Kit) -> None:
    state = kit.deal(TABLE, players=3)
    for view in (view_for(state, None), spectator_view(state)):
        assert view.seat is None
        for seat, hand in enumerate(view.hands):
            assert [cv.card for cv in hand] == [state.deck[o] for o in state.hands[seat]]
        with pytest.raises(ValueError, match="spectator has no hand"):
            view.my_hand  # noqa: B018


def test_own_cards_show_once_the_game_is_over(kit: Kit) -> None:
    state = kit.deal("R2 R3 R4")
    for order in (0, 1, 2):
        if order:
            state = apply(state, Clue(0, colour=Suit.RED))
        state = apply(state, Play(order))
    assert state.over
    for seat in (0, 1):
        view = view_for(state, seat)
        assert [cv.card for cv in view.my_hand] == [state.deck[o] for o in state.hands[seat]]
        assert view.legal_actions() == []


def test_reveal_only_at_the_end(kit: Kit) -> None:
    state = new_game(GameConfig(players=2), seed="s")
    with pytest.raises(IllegalAction, match="only once the game is over"):
        reveal(state)
    while not state.over:
        state = apply(state, legal_actions(state)[0])
    shown = reveal(state)
    assert shown.deck == state.deck and shown.seed == "s" and shown.outcome == state.outcome
    assert shown.hands == state.hands


@pytest.mark.parametrize("seat", [-1, 3])
def test_view_for_a_seat_that_does_not_exist(kit: Kit, seat: int) -> None:
    with pytest.raises(ValueError, match=f"there is no seat {seat}"):
        view_for(kit.deal(players=3), seat)


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("empty_clues", [False, True])
def test_the_view_knows_the_same_legal_actions_as_the_engine(variant: Variant, empty_clues: bool) -> None:
    state = new_game(GameConfig(players=3, variant=variant, empty_clues=empty_clues), seed=11)
    for turn in range(30):
        expected = legal_actions(state)
        assert view_for(state, state.current).legal_actions() == expected
        assert view_for(state, None).legal_actions() == expected
        others = [s for s in range(3) if s != state.current]
        assert all(view_for(state, s).legal_actions() == [] for s in others)
        state = apply(state, expected[(turn * 7) % len(expected)])
        if state.over:
            break


# ---- rearranging a hand ------------------------------------------------------------------


def test_rearranging_is_not_a_turn_and_everyone_sees_it(kit: Kit) -> None:
    state = apply(kit.deal(TABLE), Clue(1, colour=Suit.RED))
    new = apply(state, Rearrange(1, (5, 7, 9, 8, 6)), seat=1)
    assert new.hands[1] == (5, 7, 9, 8, 6)
    assert new.turn == state.turn and new.current == state.current and new.clue_tokens == state.clue_tokens
    assert new.events[-1] == RearrangeEvent(1, (5, 7, 9, 8, 6))
    assert [cv.order for cv in view_for(new, 0).hands[1]] == [5, 7, 9, 8, 6]
    # Knowledge follows the cards, not the slots.
    assert new.knowledge == state.knowledge
    assert view_for(new, 1).my_hand[0].knowledge.clued


def test_anyone_may_rearrange_at_any_time_but_only_their_own_hand(kit: Kit) -> None:
    state = kit.deal(TABLE)
    assert state.current == 0
    state = apply(state, Rearrange(1, (9, 8, 7, 5, 6)), seat=1)  # not seat 1's turn: still fine
    assert state.hands[1] == (9, 8, 7, 5, 6)
    with pytest.raises(IllegalAction, match="only rearrange your own hand"):
        apply(state, Rearrange(1, (5, 6, 7, 8, 9)), seat=0)


@pytest.mark.parametrize("hand", [
    (4, 3, 2, 1),  # a card left out
    (4, 3, 2, 1, 0, 0),  # a card twice
    (4, 3, 2, 1, 1),  # a duplicate instead of a card
    (4, 3, 2, 1, 5),  # someone else's card
    (4, 3, 2, 1, 0, 10),  # an undrawn card
])
def test_a_rearrangement_must_be_a_permutation(kit: Kit, hand: tuple[int, ...]) -> None:
    with pytest.raises(IllegalAction, match=r"list the cards of the hand exactly once: \[4, 3, 2, 1, 0\]"):
        apply(kit.deal(TABLE), Rearrange(0, hand), seat=0)


def test_rearranging_a_seat_that_does_not_exist(kit: Kit) -> None:
    with pytest.raises(IllegalAction, match="there is no seat 2"):
        apply(kit.deal(TABLE), Rearrange(2, ()))


def test_no_rearranging_after_the_end(kit: Kit) -> None:
    state = kit.deal("R2 R3 R4")
    for order in (0, 1, 2):
        if order:
            state = apply(state, Clue(0, colour=Suit.RED))
        state = apply(state, Play(order))
    with pytest.raises(IllegalAction, match="the game is over"):
        apply(state, Rearrange(1, tuple(reversed(state.hands[1]))), seat=1)


def test_a_drawn_card_still_goes_to_slot_one_after_rearranging(kit: Kit) -> None:
    state = apply(kit.deal(TABLE), Rearrange(0, (0, 1, 2, 3, 4)), seat=0)
    state = apply(state, Play(0))
    assert state.hands[0] == (10, 1, 2, 3, 4)
