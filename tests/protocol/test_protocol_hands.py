"""A view's cards in hands and its discard pile are read by one quick check of the usual item, and by the item by
item checks (``_card_view_from_wire``, ``_where_int``, ``card_from_wire``) when that fails: both take and refuse
the same items, with the same sentences. Every item is tried at and past each of its bounds, alone and in pairs."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from hanabi.engine import GameConfig, Variant, new_game, view_for
from hanabi.protocol import view_to_wire
from hanabi.protocol.engine_wire import (
    _card_view_from_wire,
    _hands_from_wire,
    _where_int,
    card_from_wire,
    view_from_wire,
)
from hanabi.protocol.fields import FieldError

WRONG_KINDS = [None, True, False, 1.5, "x", [], [1], {}]


def _edges(variant: Variant) -> list[list[Any]]:
    """For each of a hand's card's seven items: values at and past its bounds, and good values of another deck."""
    deck_size = len(variant.deck())
    masks = [[-1, 0, 2**30 - 1, 2**30], [-1, 0, 63, 64], [-1, 0, 31, 32], [-1, 0, 63, 64], [-1, 0, 31, 32]]
    return [[-1, 0, deck_size - 1, deck_size, 59, 60, 2**64], [None, "R1", "M1", "M5", "Q9", "R6", "r1", ""], *masks]


def _outcome(read: Callable[[], object]) -> object:
    try:
        return read()
    except FieldError as refused:
        return ("refused", str(refused))


@pytest.mark.parametrize("variant", list(Variant))
def test_a_card_in_a_hand_is_taken_or_refused_as_its_item_by_item_checks_say(variant: Variant) -> None:
    deck_size = len(variant.deck())
    edges = _edges(variant)
    good = [deck_size - 1, "B5", 2**30 - 1, 1, 16, 2, 8]

    def same(item: object) -> None:
        quick = _outcome(lambda: _hands_from_wire([[item]], "view.hands", 1, deck_size, variant))
        checked = _outcome(lambda: ((_card_view_from_wire(item, "view.hands[0][0]", deck_size, variant),),))
        assert quick == checked, item

    for value in WRONG_KINDS:
        same(value)
    for i, j in itertools.combinations_with_replacement(range(7), 2):
        for a, b in itertools.product(edges[i] + WRONG_KINDS, edges[j] + WRONG_KINDS):
            item = list(good)
            item[i], item[j] = a, b
            same(item)
            same(item[:6])
            same([*item, "a later addition"])


@pytest.mark.parametrize("variant", list(Variant))
def test_a_discarded_card_is_taken_or_refused_as_its_item_by_item_checks_say(variant: Variant) -> None:
    tree = view_to_wire(view_for(new_game(GameConfig(players=2, variant=variant), seed=3), 0))
    deck_size = len(variant.deck())
    orders, names = _edges(variant)[:2]
    for order, name in itertools.product(orders + WRONG_KINDS, names + WRONG_KINDS):
        tree["discard"] = [[order, name]]
        quick = _outcome(lambda: view_from_wire(tree).discard)
        checked = _outcome(lambda: ((_where_int(order, "view.discard[0][0]", 0, deck_size - 1),  # noqa: B023
                                     card_from_wire(name, "view.discard[0][1]", variant)),))  # noqa: B023
        assert quick == checked, (order, name)
