"""Clues and what they teach: whole-set touching, empty clues, who may be clued, multicolor in each variant,
and the positive and negative knowledge every card keeps."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from hanabi.engine import (
    Card,
    CardKnowledge,
    Clue,
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
    from conftest import Kit

R, Y, G, B, W, M = Suit.RED, Suit.YELLOW, Suit.GREEN, Suit.BLUE, Suit.WHITE, Suit.MULTICOLOR
# Seat 0 holds orders 0-4; seat 1 holds R1 Y1 R2 B3 W5 as orders 5-9 (hand order 9, 8, 7, 6, 5).
TABLE = "R1 R2 R3 R4 R5 R1 Y1 R2 B3 W5"


def touched(state: GameState) -> tuple[int, ...]:
    event = state.events[-1]
    assert isinstance(event, TurnEvent)
    return event.touched


def names(knowledge: CardKnowledge) -> set[str]:
    return {str(c) for c in knowledge.candidates()}


def suit_cards(*suits: Suit) -> set[str]:
    return {f"{s.letter}{r}" for s in suits for r in range(1, 6)}


def test_a_colour_clue_touches_every_card_of_that_colour(kit: Kit) -> None:
    state = apply(kit.deal(TABLE), Clue(1, colour=R))
    assert touched(state) == (7, 5)
    event = state.events[-1]
    assert isinstance(event, TurnEvent)
    assert event.card is None and event.drawn is None and not event.clue_gained and not event.success
    assert state.clue_tokens == 7 and state.current == 1 and state.hands == kit.deal(TABLE).hands


def test_a_rank_clue_touches_every_card_of_that_rank_across_suits(kit: Kit) -> None:
    assert touched(apply(kit.deal(TABLE), Clue(1, rank=1))) == (6, 5)
    assert touched(apply(kit.deal(TABLE), Clue(1, rank=5))) == (9,)


def test_legal_clues_are_exactly_those_that_touch(kit: Kit) -> None:
    clues = {a for a in legal_actions(kit.deal(TABLE)) if isinstance(a, Clue)}
    expected = {Clue(1, colour=c) for c in (R, Y, B, W)} | {Clue(1, rank=r) for r in (1, 2, 3, 5)}
    assert clues == expected


def test_empty_clues_are_refused_by_default(kit: Kit) -> None:
    state = kit.deal(TABLE)
    with pytest.raises(IllegalAction, match="touches none of their cards: this table does not allow empty clues"):
        apply(state, Clue(1, colour=G))
    with pytest.raises(IllegalAction, match="does not allow empty clues"):
        apply(state, Clue(1, rank=4))


def test_empty_clues_when_the_table_allows_them(kit: Kit) -> None:
    state = kit.deal(TABLE, empty_clues=True)
    clues = {a for a in legal_actions(state) if isinstance(a, Clue)}
    assert clues == {Clue(1, colour=c) for c in (R, Y, G, B, W)} | {Clue(1, rank=r) for r in range(1, 6)}
    state = apply(state, Clue(1, colour=G))
    assert touched(state) == () and state.clue_tokens == 7
    for order in state.hands[1]:
        assert state.knowledge[order].not_colours == 1 << G.index
        assert not any(c.suit is G for c in state.knowledge[order].candidates())


def test_no_clue_to_yourself(kit: Kit) -> None:
    state = kit.deal(TABLE, players=3)
    assert all(a.target != 0 for a in legal_actions(state) if isinstance(a, Clue))
    with pytest.raises(IllegalAction, match="cannot clue yourself"):
        apply(state, Clue(0, rank=1))
    state = apply(state, Clue(2, rank=state.deck[state.hands[2][0]].rank))
    assert all(a.target != 1 for a in legal_actions(state) if isinstance(a, Clue))
    with pytest.raises(IllegalAction, match="cannot clue yourself"):
        apply(state, Clue(1, rank=1))


@pytest.mark.parametrize("target", [2, 5, -1])
def test_clue_target_out_of_range(kit: Kit, target: int) -> None:
    with pytest.raises(IllegalAction, match=f"there is no seat {target} at a 2-player table"):
        apply(kit.deal(TABLE), Clue(target, rank=1))


def test_a_clue_names_one_colour_or_one_rank() -> None:
    with pytest.raises(ValueError, match="exactly one colour or one rank"):
        Clue(1)
    with pytest.raises(ValueError, match="exactly one colour or one rank"):
        Clue(1, colour=R, rank=1)
    with pytest.raises(ValueError, match="no rank 6"):
        Clue(1, rank=6)


# ---- multicolor in each variant ---------------------------------------------------------------

MULTI_TABLE = "R1 R2 R3 R4 R5 M1 R2 B2 M3 G4"  # seat 1: M1 R2 B2 M3 G4 as orders 5-9


def test_no_multicolor_clue_without_the_sixth_suit(kit: Kit) -> None:
    with pytest.raises(IllegalAction, match="there is no multicolor in this game"):
        apply(kit.deal(TABLE), Clue(1, colour=M))


@pytest.mark.parametrize("variant", [Variant.SIX_SUITS, Variant.SHORT_MULTICOLOR])
def test_multicolor_is_its_own_colour_in_six_suits(kit: Kit, variant: Variant) -> None:
    state = kit.deal(MULTI_TABLE, variant=variant)
    assert Clue(1, colour=M) in legal_actions(state)
    assert touched(apply(state, Clue(1, colour=M))) == (8, 5)
    assert touched(apply(state, Clue(1, colour=R))) == (6,)  # red does not touch multicolor here
    after = apply(state, Clue(1, colour=M))
    assert names(after.knowledge[5]) == suit_cards(M)
    assert names(after.knowledge[6]) == suit_cards(R, Y, G, B, W)


def test_multicolor_cannot_be_named_in_the_wild_variant(kit: Kit) -> None:
    state = kit.deal(MULTI_TABLE, variant=Variant.WILD_MULTICOLOR)
    assert all(a.colour is not M for a in legal_actions(state) if isinstance(a, Clue))
    with pytest.raises(IllegalAction, match="multicolor cannot be named"):
        apply(state, Clue(1, colour=M))


def test_every_colour_clue_touches_multicolor_in_the_wild_variant(kit: Kit) -> None:
    state = kit.deal(MULTI_TABLE, variant=Variant.WILD_MULTICOLOR)
    assert touched(apply(state, Clue(1, colour=R))) == (8, 6, 5)
    assert touched(apply(state, Clue(1, colour=Y))) == (8, 5)  # no yellow card, yet not empty
    # Every colour touches the multicolor cards, so every colour clue is legal even without empty clues.
    clues = {a for a in legal_actions(state) if isinstance(a, Clue)}
    assert {Clue(1, colour=c) for c in (R, Y, G, B, W)} <= clues


def test_wild_knowledge(kit: Kit) -> None:
    state = apply(kit.deal(MULTI_TABLE, variant=Variant.WILD_MULTICOLOR), Clue(1, colour=R))
    assert names(state.knowledge[6]) == suit_cards(R, M)  # the touched R2: red or multicolor
    assert names(state.knowledge[7]) == suit_cards(Y, G, B, W)  # untouched: neither red nor multicolor
    state = apply(state, kit.some_clue(state))
    state = apply(state, Clue(1, colour=B))
    assert names(state.knowledge[5]) == suit_cards(M)  # touched by red and by blue: multicolor
    assert names(state.knowledge[6]) == suit_cards(R)  # red, not blue
    assert names(state.knowledge[7]) == suit_cards(B)  # B2: blue, not red
    state = apply(state, kit.some_clue(state))
    state = apply(state, Clue(1, rank=1))
    assert state.knowledge[5].known == Card(M, 1)


# ---- knowledge -----------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "count"), [(Variant.NONE, 25), (Variant.SIX_SUITS, 30),
                                                 (Variant.SHORT_MULTICOLOR, 30), (Variant.WILD_MULTICOLOR, 30)])
def test_an_unclued_card_may_be_anything_in_the_deck(kit: Kit, variant: Variant, count: int) -> None:
    state = kit.deal(variant=variant)
    for order in state.hands[0]:
        k = state.knowledge[order]
        assert len(k.candidates()) == count and k.possible == variant.all_identities
        assert not k.clued and k.known is None
        assert k.colours == k.ranks == k.not_colours == k.not_ranks == 0


def test_positive_and_negative_information(kit: Kit) -> None:
    state = apply(kit.deal(TABLE), Clue(1, colour=R))
    k5, k6 = state.knowledge[5], state.knowledge[6]
    assert k5.clued and k5.colours == 1 << R.index and k5.clued_colours() == ["red"]
    assert names(k5) == suit_cards(R)
    assert not k6.clued and k6.not_colours == 1 << R.index
    assert names(k6) == suit_cards(Y, G, B, W)
    state = apply(state, kit.some_clue(state))
    state = apply(state, Clue(1, rank=1))
    k5, k6, k7, k8 = (state.knowledge[o] for o in (5, 6, 7, 8))
    assert k5.known == Card(R, 1) and k5.clued_ranks() == [1]
    assert names(k6) == {"Y1", "G1", "B1", "W1"} and k6.clued and k6.known is None
    assert names(k7) == {"R2", "R3", "R4", "R5"} and k7.not_ranks == 1
    assert names(k8) == {f"{s}{r}" for s in "YGBW" for r in range(2, 6)}
    assert k8.not_colours == 1 << R.index and k8.not_ranks == 1
    assert k8.can_be(Card(B, 3)) and not k8.can_be(Card(R, 3))
    # Seat 1's clue in between was red to seat 0 (R1-R5): that, and only that, is what seat 0 learnt.
    assert all(names(state.knowledge[o]) == suit_cards(R) for o in state.hands[0])
    assert all(state.knowledge[o].not_ranks == 0 for o in state.hands[0])


def test_a_drawn_card_starts_with_no_knowledge(kit: Kit) -> None:
    state = apply(kit.deal(TABLE), Clue(1, rank=5))
    state = apply(state, Play(9))  # seat 1 plays the clued W5 (too early: a strike)
    new = state.hands[1][0]
    assert new == 10 and not state.knowledge[new].clued
    assert state.knowledge[new].possible == Variant.NONE.all_identities
