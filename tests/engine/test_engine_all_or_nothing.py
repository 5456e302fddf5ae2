"""All or nothing (variant 4) and the rating texts: no final round, victory, every kind of defeat."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hanabi.engine import (
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
    rating,
)
from hanabi.engine.replay import from_json, load

if TYPE_CHECKING:
    from conftest import Kit

# Every card in suit order, except that the three white 1s come last: when the deck runs out the white
# firework has not started, so finishing needs more turns than a final round gives.
LATE_WHITE = " ".join(str(c) for c in Variant.NONE.deck() if str(c) != "W1") + " W1 W1 W1"


def last_event(state: GameState) -> TurnEvent:
    event = state.events[-1]
    assert isinstance(event, TurnEvent)
    return event


def play_out(kit: Kit, state: GameState) -> tuple[GameState, int]:
    """Play with the oracle to the end; also return the turn count when the deck ran out."""
    emptied = -1
    while not state.over:
        state = apply(state, kit.oracle_move(state))
        if emptied < 0 and state.deck_left == 0:
            emptied = state.turn
        if state.config.all_or_nothing:
            assert state.final_turns_left is None
    return state, emptied


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_without_the_option_the_final_round_ends_the_game(kit: Kit, players: int) -> None:
    state, emptied = play_out(kit, kit.deal(LATE_WHITE, players=players))
    assert state.outcome is not None and state.outcome.reason is EndReason.FINAL_ROUND
    assert state.turn == emptied + players
    assert state.score < 25


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_all_or_nothing_has_no_final_round_and_plays_on_to_victory(kit: Kit, players: int) -> None:
    state, emptied = play_out(kit, kit.deal(LATE_WHITE, players=players, all_or_nothing=True))
    assert state.outcome is not None and state.outcome.reason is EndReason.PERFECT
    assert state.turn > emptied + players
    assert sum(len(h) for h in state.hands) < players * (5 if players <= 3 else 4)  # hands shrank
    assert state.outcome.victory and state.outcome.all_or_nothing
    assert state.outcome.rating == "victory"
    assert state.score == 25


@pytest.mark.parametrize("variant", list(Variant))
def test_all_or_nothing_victory_in_every_variant(kit: Kit, variant: Variant) -> None:
    letters = "RYGBW" if variant is Variant.NONE else "RYGBWM"
    state = kit.deal(" ".join(f"{s}{r}" for s in letters for r in range(1, 6)), variant=variant,
                     all_or_nothing=True)
    state, _ = play_out(kit, state)
    assert state.outcome is not None and state.outcome.victory and state.score == variant.max_score
    assert state.outcome.rating == "victory"


def test_third_strike_is_a_defeat(kit: Kit) -> None:
    state = kit.deal("R2 R3 R4 Y2 Y3", all_or_nothing=True)
    for order in (0, 1, 2):  # seat 0 misplays R2, R3, R4; seat 1 clues in between
        if order:
            state = apply(state, Clue(0, colour=Suit.RED))
        state = apply(state, Play(order))
    assert state.outcome is not None and state.outcome.reason is EndReason.STRIKEOUT
    assert state.outcome.rating == "defeat" and not state.outcome.victory and state.score == 0


def test_discarding_the_only_five_is_a_defeat_at_once(kit: Kit) -> None:
    state = kit.deal("R1 R2 R3 R4 R5", all_or_nothing=True)
    state = apply(state, Clue(1, rank=1))
    state = apply(state, Clue(0, rank=5))
    drawn_before = state.next_draw
    state = apply(state, Discard(4))
    assert state.outcome is not None and state.outcome.reason is EndReason.ALL_OR_NOTHING_DEFEAT
    assert "R5" in state.outcome.detail and "red firework can no longer be completed" in state.outcome.detail
    assert state.score == 0 and state.outcome.rating == "defeat"
    assert state.next_draw == drawn_before and last_event(state).drawn is None
    assert legal_actions(state) == []


def test_discarding_the_last_copy_of_a_two_is_a_defeat(kit: Kit) -> None:
    state = kit.deal("Y2 Y2 R1 R1 R1", all_or_nothing=True)
    state = apply(state, Clue(1, colour=Suit.RED))
    state = apply(state, Clue(0, rank=2))
    state = apply(state, Discard(0))
    assert not state.over  # one Y2 left
    state = apply(state, Clue(0, rank=2))
    state = apply(state, Discard(1))
    assert state.outcome is not None and state.outcome.reason is EndReason.ALL_OR_NOTHING_DEFEAT
    assert "Y2" in state.outcome.detail


def test_misplaying_the_last_copy_is_a_defeat(kit: Kit) -> None:
    state = kit.deal("G5", all_or_nothing=True)
    state = apply(state, Play(0))
    assert state.strikes == 1
    assert state.outcome is not None and state.outcome.reason is EndReason.ALL_OR_NOTHING_DEFEAT
    assert "G5" in state.outcome.detail


def test_discarding_a_card_no_longer_needed_is_not_a_defeat(kit: Kit) -> None:
    # The last R1 goes to the discard pile after red has started: nothing is lost.
    state = kit.deal("R1 R1 R1 Y1 Y1", all_or_nothing=True)
    state = apply(state, Play(0))
    state = apply(state, Clue(0, rank=1))
    state = apply(state, Discard(1))
    state = apply(state, Clue(0, rank=1))
    state = apply(state, Discard(2))
    assert not state.over and state.fireworks[0] == 1


def test_discarding_a_spare_copy_is_not_a_defeat(kit: Kit) -> None:
    state = kit.deal("B1 B3 B4 Y1 Y1", all_or_nothing=True)
    state = apply(state, Clue(1, rank=1))
    state = apply(state, Clue(0, rank=1))
    for order in (0, 1, 2):
        state = apply(state, Discard(order))
        assert not state.over
        state = apply(state, Clue(0, rank=1))


@pytest.mark.parametrize(("variant", "card", "lost"), [
    (Variant.SHORT_MULTICOLOR, "M1", True),  # one card of each rank: every multicolor card is the last copy
    (Variant.SIX_SUITS, "M1", False),
    (Variant.SIX_SUITS, "M5", True),
    (Variant.WILD_MULTICOLOR, "M5", True),
])
def test_last_copies_in_the_six_suit_decks(kit: Kit, variant: Variant, card: str, lost: bool) -> None:
    state = kit.deal(card, variant=variant, all_or_nothing=True)
    state = apply(state, Clue(1, rank=state.deck[state.hands[1][0]].rank))
    state = apply(state, Clue(0, rank=int(card[1])))
    state = apply(state, Discard(0))
    assert state.over is lost
    if lost:
        assert state.outcome is not None and card in state.outcome.detail


def test_without_the_option_losing_a_last_copy_does_not_end_the_game(kit: Kit) -> None:
    state = kit.deal("R1 R2 R3 R4 R5")
    state = apply(state, Clue(1, rank=1))
    state = apply(state, Clue(0, rank=5))
    state = apply(state, Discard(4))
    assert not state.over


# ---- no legal action for the seat to move ------------------------------------------------
# Reaching an empty hand by play takes a whole deck, so these start from a late position built by hand:
# the deck is spent and the hands hold what the test says.


def late(kit: Kit, hands: tuple[tuple[int, ...], ...], tokens: int, current: int, fireworks: tuple[int, ...] = (0,) * 5,
         empty_clues: bool = False) -> GameState:
    state = kit.deal("R1 R2 R3 R4 R5 Y1 Y2 Y3 Y4 Y5 G1 G2 G3 G4 G5", players=len(hands), all_or_nothing=True,
                     empty_clues=empty_clues)
    return replace(state, hands=hands, next_draw=len(state.deck), clue_tokens=tokens, current=current,
                   fireworks=fireworks)


def test_no_card_and_no_clue_token_is_a_defeat(kit: Kit) -> None:
    state = late(kit, ((), (5, 6)), tokens=0, current=1)
    state = apply(state, Play(5))  # seat 1 plays Y1; seat 0 then holds nothing and has no token
    assert state.outcome is not None and state.outcome.reason is EndReason.ALL_OR_NOTHING_DEFEAT
    assert state.outcome.detail == "seat 0 has no legal action"
    assert state.outcome.rating == "defeat" and state.score == 0


def test_no_card_but_a_token_and_someone_to_clue_goes_on(kit: Kit) -> None:
    state = late(kit, ((), (5, 6)), tokens=1, current=1)
    state = apply(state, Play(5))
    assert not state.over
    assert legal_actions(state) == [Clue(1, colour=Suit.YELLOW), Clue(1, rank=2)]
    with pytest.raises(IllegalAction, match="not in your hand"):
        apply(state, Play(6))


def test_a_five_played_just_in_time_gives_the_token_that_saves_the_next_seat(kit: Kit) -> None:
    state = late(kit, ((), (4, 6)), tokens=0, current=1, fireworks=(4, 0, 0, 0, 0))
    state = apply(state, Play(4))  # R5 completes red: the token lets seat 0 clue
    assert state.clue_tokens == 1 and not state.over


@pytest.mark.parametrize("empty_clues", [False, True])
def test_nothing_left_to_clue_is_a_defeat(kit: Kit, empty_clues: bool) -> None:
    # Even where empty clues are allowed, a table where no one holds a card is lost at once:
    # empty clues could only burn tokens until the same end.
    state = late(kit, ((), (5,), ()), tokens=5, current=1, fireworks=(0,) * 5, empty_clues=empty_clues)
    state = apply(state, Play(5))  # seat 1 plays its last card; seat 2 has tokens but no one holds a card
    assert state.outcome is not None and state.outcome.reason is EndReason.ALL_OR_NOTHING_DEFEAT
    assert state.outcome.detail == "no one holds a card any more: the fireworks can no longer be completed"


def test_empty_clues_keep_a_seat_with_no_card_in_the_game_while_others_hold_cards(kit: Kit) -> None:
    state = late(kit, ((), (5, 6), ()), tokens=5, current=1, empty_clues=True)
    state = apply(state, Play(5))  # seat 2 holds nothing but may clue seat 0 (empty) or seat 1
    assert not state.over
    assert Clue(0, rank=3) in legal_actions(state)


# ---- ratings -------------------------------------------------------------------------------


@pytest.mark.parametrize(("score", "text"), [
    (0, "horrible, booed by the crowd"), (5, "horrible, booed by the crowd"),
    (6, "mediocre, scattered applause"), (10, "mediocre, scattered applause"),
    (11, "honourable, but soon forgotten"), (15, "honourable, but soon forgotten"),
    (16, "excellent, crowd pleasing"), (20, "excellent, crowd pleasing"),
    (21, "amazing, talked about for weeks"), (24, "amazing, talked about for weeks"),
    (25, "legendary"), (29, "legendary"), (30, "divine"),
])
def test_rating_texts(score: int, text: str) -> None:
    assert rating(score) == text


def test_a_finished_game_carries_its_rating(kit: Kit) -> None:
    # Red and yellow are built, then nothing more is played: the final round ends it at 10.
    state = kit.deal("R1 R2 R3 R4 R5 Y1 Y2 Y3 Y4 Y5 G1")
    for order in (0, 5, 1, 6, 2, 7, 3, 8, 4, 9):
        state = apply(state, Play(order))
    while not state.over:
        hand = state.hands[state.current]
        state = apply(state, kit.some_clue(state) if state.clue_tokens == 8 else Discard(hand[-1]))
    assert state.outcome is not None and state.outcome.reason is EndReason.FINAL_ROUND
    assert state.score == state.outcome.score == 10
    assert state.outcome.rating == "mediocre, scattered applause"
    assert not state.outcome.all_or_nothing


def test_a_played_game_that_ends_with_no_legal_action() -> None:
    # A real three-player game (seed 357, a cautious player that clues a lot), kept as a replay file:
    # the deck runs out, hands shrink, and seat 1 is left with no card and no clue token.
    path = Path(__file__).parent / "replays" / "played" / "all_or_nothing_stuck.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["options"]["allOrNothing"] is True and len(data["actions"]) == 86
    state = load(path).state
    assert state.outcome is not None and state.outcome.reason is EndReason.ALL_OR_NOTHING_DEFEAT
    assert state.outcome.detail == f"seat {state.current} has no legal action"
    assert state.hands[state.current] == () and state.clue_tokens == 0 and state.deck_left == 0
    assert legal_actions(replace(state, outcome=None)) == []
    assert state.score == 0 and sum(state.fireworks) > 0 and state.final_turns_left is None
    drawn = [e.turn for e in state.events if isinstance(e, TurnEvent) and e.drawn == len(state.deck) - 1]
    assert drawn and state.turn > drawn[0] + 1 + state.players  # well past where a final round would end
    # One action earlier the game was running, and the seat to move could still act.
    before = from_json({**data, "actions": data["actions"][:-1]}).state
    assert not before.over and legal_actions(before)
