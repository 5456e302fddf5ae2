"""Beside a person who reads clues literally: what a bot makes of that person's rank clues.

A rank clue says little of what its giver meant (a 1 clue meant for one card may also touch a 1 already
played), so a bot plays a card a person touched by rank only when counting proves it playable, unless
that person has shown they give rank clues to get cards played; and never while it may be a copy of a
card already played.
"""

from __future__ import annotations

from hanabi.engine import Card, Clue, GameConfig, GameState, Play, apply, game_from_deck, view_for
from hanabi.engine.bots import decide

BOT = frozenset({1})  # 2 players: seat 0 is the person, seat 1 the house bot (beginner level)


def deal(cards: str) -> GameState:
    """``cards``: seat 0's hand (slot 5 first: orders 0-4), seat 1's (orders 5-9), then the cards drawn next."""
    config = GameConfig(players=2, first_seat=0)
    rest = config.variant.deck()
    top = [Card.parse(name) for name in cards.split()]
    for card in top:
        rest.remove(card)
    return game_from_deck(config, top + rest)


def play_out(state: GameState, *actions: Clue | Play) -> GameState:
    for action in actions:
        state = apply(state, action)
    return state


def test_a_persons_1_clue_on_a_card_that_may_be_a_1_already_played_waits_for_proof() -> None:
    # The person clues 1 on the bot's R1 (played: their rank clues mean "play"), plays G1, then clues 1
    # again on the bot's new card alone. By the count and what a clue is usually for it is a playable 1
    # nearly always, but it may be the R1 or G1 already played: the bot does not play it.
    state = deal("G1 Y2 B2 W2 Y3  Y3 G4 B4 W4 R1  G1 Y4")
    state = play_out(state, Clue(1, rank=1), Play(9), Play(0), Clue(0, rank=3), Clue(1, rank=1))
    decision = decide(view_for(state, 1), bot_seats=BOT)
    assert decision.action != Play(10), decision.reason


def test_a_persons_rank_clue_is_played_unproven_only_once_they_showed_rank_clues_mean_play() -> None:
    # Both games end with the person's 2 clue on the bot's R2 alone, red at 1: counting and what a clue is
    # usually for make it R2 (91 %), not proven. Only the person whose 1 clue got the bot's R1 played has
    # shown that their rank clues mean "play".
    shown = deal("Y2 B2 G2 W2 Y3  Y3 G4 B4 W4 R1  R2")
    shown = play_out(shown, Clue(1, rank=1), Play(9), Clue(1, rank=2))
    decision = decide(view_for(shown, 1), bot_seats=BOT)
    assert decision.action == Play(10), decision.reason
    unknown = deal("R1 Y2 B2 G2 W2  Y3 G4 B4 W4 R2  Y4")
    unknown = play_out(unknown, Play(0), Clue(0, rank=4), Clue(1, rank=2))
    decision = decide(view_for(unknown, 1), bot_seats=BOT)
    assert decision.action != Play(9), decision.reason
