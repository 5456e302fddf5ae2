"""A bot's reason may name cards in other seats' hands; ``Decision.names_cards_of`` says whose, so that a seat
is never shown a reason that names its own cards while the game runs."""

from __future__ import annotations

import re

import pytest
from hanabi.engine import Clue, GameConfig, GameState, Play, Suit, apply, new_game, view_for
from hanabi.engine.bots import decide, make_bot

from .test_bots_levels import deal

CARD_NAME = re.compile(r"\b([RYGBWM][1-5])\b")


def named_cards(reason: str) -> set[str]:
    return set(CARD_NAME.findall(reason))


def holders(state: GameState, card: str) -> set[int]:
    """The seats that hold a card of this name."""
    return {seat for seat, hand in enumerate(state.hands) for order in hand if str(state.deck[order]) == card}


def public_cards(state: GameState) -> set[str]:
    """Cards anyone may name: discarded, or on the fireworks."""
    out = {str(state.deck[order]) for order in state.discard}
    for suit, height in zip(state.config.variant.suits, state.fireworks, strict=False):
        out.update(f"{suit.letter}{rank}" for rank in range(1, height + 1))
    return out


# Thirty whole bot games: untraced by coverage (docs/developing.md), the focused tests below reach their lines.
@pytest.mark.no_cover
@pytest.mark.parametrize(("players", "people"), [(2, frozenset()), (3, frozenset()), (4, frozenset({2})),
                                                  (5, frozenset()), (3, frozenset({0}))])
def test_every_card_a_reason_names_is_held_by_a_seat_it_declares(players: int, people: frozenset[int]) -> None:
    bot_seats = frozenset(range(players)) - people
    checked = 0
    for seed in range(6):
        state = new_game(GameConfig(players=players), seed)
        bots = {seat: make_bot(bot_seats=bot_seats) for seat in range(players)}  # people played by bots too
        while not state.over:
            seat = state.current
            decision = bots[seat].decide(view_for(state, seat))
            if not isinstance(decision.action, Clue):
                # A play or a discard: the reason speaks of the bot's own cards (what they may be).
                assert decision.names_cards_of == frozenset({seat})
            else:
                assert decision.action.target in decision.names_cards_of
                assert seat not in decision.names_cards_of
                for card in named_cards(decision.reason) - public_cards(state):
                    # A card a clue's reason names is in the hand of a seat it declares.
                    assert holders(state, card) & decision.names_cards_of, (decision, card)
                    checked += 1
            state = apply(state, decision.action)
    assert checked > 50  # the games did name cards


def test_a_save_reason_names_the_chop_holder_and_not_the_giver() -> None:
    # 2 players; seat 1's chop (slot 5, dealt first) is B5: seat 0 saves it and says so.
    state = deal(2, "Y3 G3 W3 Y4 G4  B5 R4 W4 G2 R3")
    decision = decide(view_for(state, 0))
    assert decision.action == Clue(1, rank=5) or decision.action == Clue(1, colour=Suit.BLUE)
    assert "B5" in decision.reason
    assert decision.names_cards_of == frozenset({1})


def test_a_play_reason_speaks_of_the_players_own_cards_only() -> None:
    state = new_game(GameConfig(players=2), 3)
    state = apply(state, Clue(1 - state.current, rank=1))
    decision = decide(view_for(state, state.current))
    if isinstance(decision.action, Play):
        assert decision.names_cards_of == frozenset({state.current})
    else:
        assert decision.names_cards_of


def test_the_simple_bot_declares_the_seat_its_clue_reason_names() -> None:
    state = new_game(GameConfig(players=3), 5)
    bot = make_bot("simple")
    clues = 0
    while not state.over:
        decision = bot.decide(view_for(state, state.current))
        if isinstance(decision.action, Clue) and named_cards(decision.reason):
            assert decision.names_cards_of == frozenset({decision.action.target})
            clues += 1
        state = apply(state, decision.action)
    assert clues
