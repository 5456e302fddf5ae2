"""Set-up rules: the four decks, hand sizes, dealing order, first seat, determinism, table options."""

from __future__ import annotations

from collections import Counter

import pytest
from hanabi.engine import (
    CLUE_TOKENS,
    Card,
    ChatPolicy,
    GameConfig,
    IllegalAction,
    Play,
    Suit,
    Variant,
    apply,
    game_from_deck,
    new_game,
)

FULL_SUIT = {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}
BASE = (Suit.RED, Suit.YELLOW, Suit.GREEN, Suit.BLUE, Suit.WHITE)


def expected_counts(variant: Variant) -> Counter[Card]:
    counts: Counter[Card] = Counter()
    for suit in BASE:
        for rank, n in FULL_SUIT.items():
            counts[Card(suit, rank)] = n
    if variant is not Variant.NONE:
        for rank, n in FULL_SUIT.items():
            counts[Card(Suit.MULTICOLOR, rank)] = 1 if variant is Variant.SHORT_MULTICOLOR else n
    return counts


@pytest.mark.parametrize(("variant", "size", "max_score", "suits"), [
    (Variant.NONE, 50, 25, 5),
    (Variant.SIX_SUITS, 60, 30, 6),
    (Variant.SHORT_MULTICOLOR, 55, 30, 6),
    (Variant.WILD_MULTICOLOR, 60, 30, 6),
])
def test_deck_composition(variant: Variant, size: int, max_score: int, suits: int) -> None:
    assert len(variant.deck()) == size
    assert Counter(variant.deck()) == expected_counts(variant)
    assert variant.max_score == max_score
    assert len(variant.suits) == suits
    assert variant.suits[:5] == BASE
    for seed in (0, 1, "x"):
        state = new_game(GameConfig(players=3, variant=variant), seed)
        assert Counter(state.deck) == expected_counts(variant)
        assert state.fireworks == (0,) * suits
        assert state.config.max_score == max_score


def test_multicolor_is_the_sixth_suit() -> None:
    assert Variant.SIX_SUITS.suits.index(Suit.MULTICOLOR) == 5
    assert Suit.MULTICOLOR not in Variant.NONE.suits


@pytest.mark.parametrize(("variant", "colours"), [
    (Variant.NONE, BASE),
    (Variant.SIX_SUITS, (*BASE, Suit.MULTICOLOR)),
    (Variant.SHORT_MULTICOLOR, (*BASE, Suit.MULTICOLOR)),
    (Variant.WILD_MULTICOLOR, BASE),
])
def test_clue_colours_per_variant(variant: Variant, colours: tuple[Suit, ...]) -> None:
    assert variant.clue_colours == colours


@pytest.mark.parametrize(("players", "hand_size"), [(2, 5), (3, 5), (4, 4), (5, 4), (6, 3)])
def test_hand_sizes_and_starting_tokens(players: int, hand_size: int) -> None:
    state = new_game(GameConfig(players=players), seed=5)
    assert [len(h) for h in state.hands] == [hand_size] * players
    assert state.next_draw == players * hand_size
    assert state.deck_left == 50 - players * hand_size
    assert state.clue_tokens == CLUE_TOKENS == 8
    assert state.strikes == 0
    assert state.discard == () and state.played == ()
    assert state.turn == 0 and not state.over and state.final_turns_left is None


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_player_zero_is_dealt_first_and_slot_one_is_newest(players: int) -> None:
    state = game_from_deck(GameConfig(players=players), Variant.NONE.deck())
    size = {2: 5, 3: 5, 4: 4, 5: 4, 6: 3}[players]
    for seat, hand in enumerate(state.hands):
        # Seat s holds orders s*size .. s*size+size-1, the last one dealt in slot 1.
        assert hand == tuple(range(seat * size + size - 1, seat * size - 1, -1))


def test_draws_come_from_the_front_into_slot_one() -> None:
    state = game_from_deck(GameConfig(players=2), Variant.NONE.deck())
    state = apply(state, Play(2))  # seat 0 plays order 2 (an R1 in the sorted deck)
    assert state.hands[0] == (10, 4, 3, 1, 0)
    assert state.events[-1].drawn == 10  # type: ignore[union-attr]
    assert state.next_draw == 11 and state.deck_left == 39
    state = apply(state, Play(9))  # seat 1 plays order 9 (R5: a misplay)
    assert state.hands[1] == (11, 8, 7, 6, 5)
    state = apply(state, Play(3))  # seat 0 plays order 3 (R2)
    assert state.hands[0] == (12, 10, 4, 1, 0)
    assert state.played == (2, 3) and state.discard == (9,)


def test_first_seat_from_the_table() -> None:
    state = new_game(GameConfig(players=4, first_seat=2), seed=1)
    assert state.current == 2
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(state, Play(state.hands[0][0]), seat=0)
    state = apply(state, Play(state.hands[2][0]), seat=2)
    assert state.current == 3
    state = apply(state, Play(state.hands[3][0]))
    assert state.current == 0


def test_first_seat_from_the_seed_is_recorded_and_varies() -> None:
    firsts = set()
    for seed in range(40):
        state = new_game(GameConfig(players=5), seed)
        assert state.config.first_seat == state.current
        firsts.add(state.current)
    assert firsts == {0, 1, 2, 3, 4}


def test_explicit_deck_starts_with_seat_zero_by_default() -> None:
    assert game_from_deck(GameConfig(players=3), Variant.NONE.deck()).current == 0


def test_same_seed_same_deal_different_seed_different_deal() -> None:
    config = GameConfig(players=3, variant=Variant.SIX_SUITS)
    assert new_game(config, 99) == new_game(config, 99)
    assert new_game(config, "abc") == new_game(config, "abc")
    assert new_game(config, 99).deck != new_game(config, 100).deck


@pytest.mark.parametrize("players", [0, 1, 7])
def test_player_count_is_checked(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 6 players"):
        GameConfig(players=players)


def test_first_seat_is_checked() -> None:
    with pytest.raises(ValueError, match="first seat 3"):
        GameConfig(players=3, first_seat=3)
    with pytest.raises(ValueError, match="first seat -1"):
        GameConfig(players=3, first_seat=-1)


def test_table_option_defaults() -> None:
    config = GameConfig()
    assert config.empty_clues is False
    assert config.all_or_nothing is False
    assert config.variant is Variant.NONE
    assert config.chat is ChatPolicy.BETWEEN_GAMES


@pytest.mark.parametrize(("variant", "deck", "words"), [
    (Variant.NONE, Variant.NONE.deck()[1:], ["missing R1", "49"]),
    (Variant.NONE, [*Variant.NONE.deck(), Card(Suit.RED, 5)], ["unexpected R5"]),
    (Variant.NONE, Variant.SIX_SUITS.deck(), ["unexpected M1"]),
    (Variant.SHORT_MULTICOLOR, Variant.SIX_SUITS.deck(), ["unexpected M1", "55"]),
    (Variant.SIX_SUITS, Variant.SHORT_MULTICOLOR.deck(), ["missing M1"]),
])
def test_a_wrong_deck_is_refused(variant: Variant, deck: list[Card], words: list[str]) -> None:
    with pytest.raises(IllegalAction) as caught:
        game_from_deck(GameConfig(variant=variant), deck)
    for word in words:
        assert word in str(caught.value)


@pytest.mark.parametrize(("text", "variant"), [
    ("No Variant", Variant.NONE), ("none", Variant.NONE), ("6 Suits", Variant.SIX_SUITS),
    ("six-suits", Variant.SIX_SUITS), ("Black (6 Suits)", Variant.SHORT_MULTICOLOR),
    ("short", Variant.SHORT_MULTICOLOR),
    ("Rainbow (6 Suits)", Variant.WILD_MULTICOLOR), ("WILD", Variant.WILD_MULTICOLOR),
])
def test_variant_names(text: str, variant: Variant) -> None:
    assert Variant.parse(text) is variant


def test_unknown_variant_says_what_exists() -> None:
    with pytest.raises(ValueError, match="unknown variant 'purple'"):
        Variant.parse("purple")


def test_cards_and_suits_read_and_print() -> None:
    assert str(Card(Suit.RED, 3)) == "R3"
    assert Card.parse("m5") == Card(Suit.MULTICOLOR, 5)
    assert Suit.parse("multi") is Suit.MULTICOLOR
    assert Card.from_identity(Card(Suit.BLUE, 4).identity) == Card(Suit.BLUE, 4)
    assert len({Card(s, r).identity for s in Suit for r in range(1, 6)}) == 30
    with pytest.raises(ValueError, match="R6"):
        Card.parse("R6")
    with pytest.raises(ValueError, match="unknown colour"):
        Suit.parse("purple")


@pytest.mark.parametrize(("text", "variant"), [
    ("none", Variant.NONE), ("No Variant", Variant.NONE),
    ("six_suits", Variant.SIX_SUITS), ("6 Suits", Variant.SIX_SUITS),
    ("short", Variant.SHORT_MULTICOLOR), ("Black (6 Suits)", Variant.SHORT_MULTICOLOR),
    ("six suits, short multicolor", Variant.SHORT_MULTICOLOR), ("wild-multicolor", Variant.WILD_MULTICOLOR),
    ("Rainbow (6 Suits)", Variant.WILD_MULTICOLOR), ("WILD", Variant.WILD_MULTICOLOR),
])
def test_variant_names_players_may_type(text: str, variant: Variant) -> None:
    assert Variant.parse(text) is variant
    assert Variant.parse(variant.title) is variant


def test_an_unknown_variant_lists_the_choices() -> None:
    with pytest.raises(ValueError, match="unknown variant 'Nope': choose one of none, six_suits, short_multicolor"):
        Variant.parse("Nope")


def test_players_see_our_names_not_hanab_lives() -> None:
    # hanab.live calls the one-card-per-rank sixth suit "Black"; in our game it is multicolor.
    assert Variant.SHORT_MULTICOLOR.title == "six suits, short multicolor"
    assert "Black" not in " ".join(v.title for v in Variant)
