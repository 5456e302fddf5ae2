"""The game at a glance: what each card is worth, the score still reachable, pace and clue efficiency."""

from __future__ import annotations

import random

import pytest
from hanabi.engine import (
    Card,
    Clue,
    GameConfig,
    Play,
    Prospects,
    Suit,
    Variant,
    Worth,
    apply,
    clues_usable,
    game_from_deck,
    glance,
    new_game,
    pace,
    starting_efficiency,
    view_for,
)

C = Card.parse


def prospects(fireworks: str, discarded: str, variant: Variant = Variant.NONE) -> Prospects:
    heights = [int(h) for h in fireworks]
    return Prospects.of(variant, tuple(heights), [C(n) for n in discarded.split()])


def test_a_suit_stops_below_the_first_card_whose_every_copy_is_gone() -> None:
    p = prospects("20000", "R4 R4 G2")
    assert p.reach == (3, 5, 5, 5, 5)
    assert p.max_score == 23 and p.lost == (C("R4"),)
    assert p.playable(C("R3")) and not p.playable(C("R4"))
    assert p.trash(C("R1")) and p.trash(C("R4")) and p.trash(C("R5"))  # played, gone, above the gap
    assert not p.trash(C("R3")) and not p.trash(C("G2"))


def test_critical_is_the_last_copy_of_a_card_still_needed() -> None:
    p = prospects("20000", "R4 R4 G2 B1 B1")
    assert p.critical(C("G2")) and p.critical(C("B1")) and p.critical(C("W5"))
    assert not p.critical(C("G3")) and not p.critical(C("Y1"))
    assert not p.critical(C("R5"))  # the last R5, but trash: the red firework cannot reach it


def test_worth_holds_only_what_every_possibility_shares() -> None:
    p = prospects("40000", "G2")
    assert p.worth([C("R5")]) == Worth.PLAYABLE | Worth.CRITICAL
    assert p.worth([C("Y1"), C("G1")]) == Worth.PLAYABLE
    assert p.worth([C("Y1"), C("G2")]) == Worth.NONE  # one of them is critical, the other playable
    assert p.worth([C("G2")]) == Worth.CRITICAL
    assert p.worth([C("R1"), C("R3")]) == Worth.TRASH
    assert p.worth([]) == Worth.NONE


def test_a_suit_outside_the_variant_is_trash() -> None:
    p = prospects("00000", "")
    assert p.trash(C("M1")) and p.worth([C("M1")]) == Worth.TRASH


def test_pace_is_hanab_lives_formula_and_none_once_the_deck_is_empty() -> None:
    assert pace(0, 35, 3, 25) == 13
    assert pace(20, 2, 3, 23) == 2
    assert pace(20, 0, 3, 25) is None


@pytest.mark.parametrize(("players", "usable"), [
    (2, 8 + 17 + 4),  # deck 40: 8 tokens, 17 discards (the starting pace), 4 fives before the final round
    (3, 8 + 13 + 4),
    (4, 8 + 13 + 4),  # four cards a hand: deck 34
    (5, 8 + 10 + 3),  # deck 30: only 19 plays fit before the final round, three whole suits
])
def test_the_starting_efficiency_counts_tokens_discards_and_fives(players: int, usable: int) -> None:
    view = view_for(new_game(GameConfig(players=players), 1), 0)
    fresh = Prospects.of(Variant.NONE, (0,) * 5, ())
    assert clues_usable(fresh, view.deck_left, players, 8) == usable
    assert starting_efficiency(view) == pytest.approx(25 / usable)


def test_clues_usable_near_the_end_keeps_one_card_to_draw() -> None:
    # Two cards missing, three players: every remaining discard but the one that draws the last card is free.
    p = prospects("55543", "")
    assert clues_usable(p, 6, 3, 2) == 2 + 5 + 0
    assert clues_usable(p, 0, 3, 2) is None


def test_glance_counts_clues_misplays_and_clued_cards() -> None:
    # Seat 0: R1 Y1 G1 B1 W1 (orders 0-4); seat 1: R2 R3 R4 R5 Y5 (orders 5-9).
    top = "R1 Y1 G1 B1 W1  R2 R3 R4 R5 Y5"
    deck = Variant.NONE.deck()
    cards = [C(n) for n in top.split()]
    for c in cards:
        deck.remove(c)
    state = game_from_deck(GameConfig(players=2, first_seat=0), cards + deck)
    start = glance(view_for(state, 0))
    assert (start.score, start.max_score, start.pace, start.cards_gotten, start.clues_spent) == (0, 25, 17, 0, 0)
    assert start.efficiency is None and start.required == pytest.approx(25 / 29)
    state = apply(state, Clue(1, colour=Suit.RED))  # touches four red cards
    state = apply(state, Play(9))  # seat 1 misplays Y5: a lost clue
    state = apply(state, Play(0))  # R1
    g = glance(view_for(state, 1))
    assert g.clues_spent == 2 and g.cards_gotten == 1 + 4 and g.efficiency == pytest.approx(5 / 2)
    assert g.max_score == 24 and g.lost == (C("Y5"),) and g.pace == 1 + 38 + 2 - 24
    assert g == glance(view_for(state, 0))  # nothing in it is private


@pytest.mark.parametrize("variant", list(Variant), ids=lambda v: v.name)
def test_glance_stays_within_its_bounds_over_random_games(variant: Variant, kit) -> None:
    rng = random.Random(variant.value)
    for seed in range(3):
        for state in kit.random_states(GameConfig(players=2 + seed, variant=variant), seed, rng, calm=0.6):
            g = glance(view_for(state, state.current))
            assert sum(state.fireworks) <= g.max_score <= variant.max_score
            assert g.max_score + sum(5 - int(c.rank) + 1 for c in g.lost) == variant.max_score
            assert g.cards_gotten <= g.max_score
            assert g.pace is None or g.pace == sum(state.fireworks) + state.deck_left + state.players - g.max_score
