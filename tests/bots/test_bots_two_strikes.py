"""At two strikes the convention bot plays only what it can prove, and gives no clue that needs a blind play.

The positions are dealt with ``game_from_deck``: with two or three players a
hand holds 5 cards, seat s the orders s*5 .. s*5+4, slot 1 (the finesse
position) being the highest order. Strikes are made by scripted misplays of
seat 0's filler cards (nothing is played yet, so any 3 or 4 misplays).
"""

from __future__ import annotations

from hanabi.engine import Card, Clue, GameConfig, GameState, Play, Suit, apply, game_from_deck, view_for
from hanabi.engine.bots import choose_action

FILLER = ["Y3", "G3", "B3", "W3", "Y4", "G4", "B4", "W4", "Y3", "G3", "B3", "W3", "Y4", "G4", "B4", "W4"]


def deal(players: int, cards: dict[int, str]) -> GameState:
    """A game whose hands hold ``cards`` (order -> card) and unplayable filler elsewhere; seat 0 starts."""
    config = GameConfig(players=players, first_seat=0)
    rest = list(config.variant.deck())
    for text in cards.values():
        rest.remove(Card.parse(text))
    filler = (card for card in map(Card.parse, FILLER))
    hands: list[Card] = []
    for order in range(players * config.hand_size):
        if order in cards:
            hands.append(Card.parse(cards[order]))
            continue
        card = next(c for c in filler if c in rest)
        hands.append(card)
        rest.remove(card)
    # The first draws are 3s and 4s too, and not red: seat 0's new cards explain no clue on red.
    rest.sort(key=lambda c: c.rank not in (3, 4) or c.suit is Suit.RED)
    return game_from_deck(config, hands + rest)


def act(state: GameState, *actions: Play | Clue) -> GameState:
    for action in actions:
        state = apply(state, action, seat=state.current)
    return state


def strikes_in_two_players(state: GameState, strikes: int) -> GameState:
    """Seat 0 misplays its oldest cards while seat 1 gives harmless clues; seat 0 is to move after."""
    for _ in range(strikes):
        # A 4 clue here asks for nothing (no 4 can be one card from playable), so it sets up no finesse.
        state = act(state, Play(state.hands[0][-1]), Clue(0, rank=4))
    assert state.strikes == strikes and state.current == 0
    return state


def test_two_strikes_no_blind_play_on_a_self_finesse_reading() -> None:
    # The incident: a human's clue reads as a self-finesse, and the bot's finesse position is really G5.
    # A 2 clue on R2 with no red played asks seat 1 to blind-play slot 1 as R1; at two strikes it must not.
    state = strikes_in_two_players(deal(2, {9: "G5", 8: "R2"}), 2)
    state = act(state, Clue(1, rank=2))
    finesse_card = state.hands[1][0]
    assert str(state.deck[finesse_card]) == "G5"
    action = choose_action(view_for(state, 1))
    assert not isinstance(action, Play), f"the bot risked the third strike: {action}"


def test_one_strike_still_answers_the_same_self_finesse() -> None:
    # The control: with one strike a misplay cannot end the game, and the convention is followed.
    state = strikes_in_two_players(deal(2, {9: "G5", 8: "R2"}), 1)
    state = act(state, Clue(1, rank=2))
    assert choose_action(view_for(state, 1)) == Play(state.hands[1][0])


def test_two_strikes_no_blind_play_on_a_finesse_through_the_bot() -> None:
    # Three players: seat 0 clues red to seat 2's R2; seat 1's finesse position is read as R1.
    state = deal(3, {9: "R1", 14: "R2"})
    for _ in range(2):
        state = act(state, Play(state.hands[0][-1]), Clue(0, rank=3), Clue(0, rank=4))
    assert state.strikes == 2 and state.current == 0
    state = act(state, Clue(2, colour=Suit.RED))
    assert not isinstance(choose_action(view_for(state, 1)), Play)


def test_two_strikes_a_colour_play_clue_is_not_proof() -> None:
    # Red on slot 1 would be a play clue (R1), but red alone does not prove the rank: no play at two strikes.
    state = strikes_in_two_players(deal(2, {9: "R1"}), 2)
    state = act(state, Clue(1, colour=Suit.RED))
    assert not isinstance(choose_action(view_for(state, 1)), Play)


def test_two_strikes_a_proven_card_is_still_played() -> None:
    # A 1 clue proves a 1, and every 1 is playable while nothing is played: that card it plays.
    state = strikes_in_two_players(deal(2, {9: "R1"}), 2)
    state = act(state, Clue(1, rank=1))
    assert choose_action(view_for(state, 1)) == Play(9)


def test_two_strikes_no_finesse_is_given() -> None:
    # Seat 0 would finesse seat 1's R1 with a red clue on seat 2's R2 (see the conventions tests);
    # at two strikes seat 1 would not answer, so seat 0 gives no such clue.
    state = deal(3, {9: "R1", 14: "R2"})
    for _ in range(2):
        state = act(state, Play(state.hands[0][-1]), Clue(0, rank=3), Clue(0, rank=4))
    assert state.strikes == 2 and state.current == 0
    action = choose_action(view_for(state, 0))
    assert action != Clue(2, colour=Suit.RED) and action != Clue(2, rank=2)
