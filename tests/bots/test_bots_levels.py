"""Convention levels: bots read a person's clues for what they say, never expect a person to answer a
convention, and say why they do what they do."""

from __future__ import annotations

import pytest
from hanabi.engine import (
    Card,
    Clue,
    Discard,
    GameConfig,
    GameState,
    Play,
    Suit,
    apply,
    game_from_deck,
    new_game,
    view_for,
)
from hanabi.engine.bots import LEVELS, Decision, choose_action, decide, make_bot


def deal(players: int, hands: str) -> GameState:
    """``hands`` ("R3 Y4 ...", seat 0's cards first, slot 5 first): seat s holds orders s*size..; seat 0 starts."""
    config = GameConfig(players=players, first_seat=0)
    rest = config.variant.deck()
    top = [Card.parse(name) for name in hands.split()]
    for card in top:
        rest.remove(card)
    return game_from_deck(config, top + rest)


# A sweep over whole or random games: untraced (docs/developing.md); the other tests reach every branch it does.
@pytest.mark.no_cover
def test_every_decision_comes_with_a_reason_and_matches_choose_action() -> None:
    for level in LEVELS:
        state = new_game(GameConfig(players=3), seed=4)
        bots = frozenset({1, 2})
        for _ in range(30):
            if state.over:
                break
            view = view_for(state, state.current)
            decision = decide(view, level=level, bot_seats=bots)
            assert decision.action in view.legal_actions()
            assert decision.reason and "\n" not in decision.reason
            assert choose_action(view, level=level, bot_seats=bots) == decision.action
            state = apply(state, decision.action)


def test_without_arguments_the_bot_plays_its_strongest_level_with_bots_everywhere() -> None:
    state = new_game(GameConfig(players=4), seed=9)
    for _ in range(25):
        view = view_for(state, state.current)
        assert choose_action(view) == decide(view, level="h-group", bot_seats=frozenset(range(4))).action
        state = apply(state, choose_action(view))


def test_an_unknown_level_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="there is no convention level 'expert': choose one of beginner, basic"):
        make_bot(level="expert")


def test_a_persons_red_clue_on_one_card_is_not_read_as_red_one() -> None:
    # Seat 0 (a person) clues red to seat 1, touching only its R3 (slot 1): red has not started.
    state = deal(3, "Y3 G3 B3 W3 Y4  G4 B4 W4 Y4 R3  G4 B4 W4 G3 B3")
    state = apply(state, Clue(1, colour=Suit.RED))
    view = view_for(state, 1)
    decision = decide(view, bot_seats=frozenset({1, 2}))  # a person at the table: beginner level
    assert decision.action != Play(9)
    assert not decision.reason.startswith("the clues")
    # From a house bot the same clue is a play clue, by the conventions: R1.
    assert decide(view, level="h-group", bot_seats=frozenset({0, 1, 2})).action == Play(9)


def test_two_copies_touched_by_one_clue_are_not_both_played() -> None:
    # Seat 0 (a person) clues 1 to seat 1, touching both of its W1s (slots 4 and 5: orders 5 and 6).
    state = deal(2, "Y3 G3 B3 W3 Y4  W1 W1 G4 B4 W4")
    bots = frozenset({1})
    state = apply(state, Clue(1, rank=1))
    first = decide(view_for(state, 1), bot_seats=bots)
    assert isinstance(first.action, Play) and first.action.order in (5, 6)
    assert "playable" in first.reason
    state = apply(state, first.action)
    state = apply(state, Clue(1, colour=Suit.GREEN))  # the person passes the turn
    other = 11 - first.action.order
    assert decide(view_for(state, 1), bot_seats=bots).action != Play(other)


def test_no_finesse_through_a_person() -> None:
    """Bot seat 0 sees W2 on bot seat 2 and W1 on the finesse position of a person between them."""
    state = deal(3, "Y3 G3 B3 W3 Y4  G4 B4 W4 Y4 W1  G4 B4 G3 B3 W2")
    for level in ("beginner", "basic"):
        action = decide(view_for(state, 0), level=level, bot_seats=frozenset({0, 2})).action
        touches_w2 = isinstance(action, Clue) and action.target == 2 and (action.rank == 2
                                                                          or action.colour is Suit.WHITE)
        assert not touches_w2, f"{level}: {action} asks the person to blind-play W1"
    # Among bots only, the same position is a finesse worth giving.
    action = decide(view_for(state, 0), bot_seats=frozenset({0, 1, 2})).action
    assert isinstance(action, Clue) and action.target == 2 and (action.rank == 2 or action.colour is Suit.WHITE)


def test_bots_give_a_person_clues_that_prove_a_card_playable() -> None:
    # Seat 1 (a person) holds R1 alone among 1s; a 1 clue proves it playable at the start.
    state = deal(2, "Y3 G3 B3 W3 Y4  G4 B4 W4 R1 Y4")
    decision = decide(view_for(state, 0), bot_seats=frozenset({0}))
    assert decision.action in (Clue(1, rank=1), Clue(1, colour=Suit.RED))
    assert "R1" in decision.reason and "seat 2" in decision.reason


def test_at_basic_a_persons_clue_has_a_focus_but_is_never_a_finesse() -> None:
    # Seat 0 (a person) clues red to seat 1, touching only its R1 in slot 1: not the chop, so a play clue.
    state = deal(3, "Y3 G3 B3 W3 Y4  G4 B4 W4 Y4 R1  G4 B4 W4 G3 B3")
    state = apply(state, Clue(1, colour=Suit.RED))
    bots = frozenset({1, 2})
    assert decide(view_for(state, 1), level="basic", bot_seats=bots).action == Play(9)
    assert decide(view_for(state, 1), level="beginner", bot_seats=bots).action != Play(9)
    # The person clues red on seat 2's R2 while bot seat 1, between them, holds R1 in slot 1: at h-group
    # that is a finesse and seat 1 blind-plays slot 1; at basic a person gives no finesse, so it does not.
    state = deal(3, "Y3 G3 B3 W3 Y4  G4 B4 W4 Y4 R1  G4 B4 W4 G3 R2")
    state = apply(state, Clue(2, colour=Suit.RED))
    assert decide(view_for(state, 1), level="h-group", bot_seats=bots).action == Play(9)
    assert decide(view_for(state, 1), level="basic", bot_seats=bots).action != Play(9)


def persons_red_clue(*, filler: bool) -> GameState:
    """2 players: seat 0 a person holding every red card but R1s and R5, seat 1 a bot whose newest card is R1.

    The person clues red on that R1 alone: as the first clue of the game (all 8 tokens: it may be a
    filler, since they could not discard) or after two other clues (a clue is given to be played).
    """
    state = deal(2, "R2 R2 R3 R3 R4  Y3 G3 B3 W3 R1")
    if not filler:
        state = apply(state, Clue(1, rank=3))  # touches no card the clue could mean playable: nothing noted
        state = apply(state, Clue(0, colour=Suit.RED))
    return apply(state, Clue(1, colour=Suit.RED))


def test_a_persons_clue_is_read_for_what_a_clue_is_usually_for() -> None:
    # Counting alone: the red card is R1 (3 copies unseen) or R4 or R5 (one each): 60 %, too little to play
    # on. A person clues a card to get it played: read so, R1 is far likelier, and the bot plays it.
    state = persons_red_clue(filler=False)
    decision = decide(view_for(state, 1), bot_seats=frozenset({1}))
    assert decision.action == Play(9)
    assert "usually" in decision.reason


def test_a_person_whose_hand_a_save_would_fill_is_given_a_card_to_play_instead() -> None:
    # 2 players: bot seat 0, person seat 1 (B5 G5 Y5 W4 R1, slot 5 first). The bot has clued the 5s and red,
    # and thrown its own W4: the person's unclued W4 is their last card a clue has not touched, and critical.
    # Saving it would leave every card of theirs clued, none provably playable: they would throw their
    # oldest, B5. A 1 clue proves R1 playable instead: they play it and keep both.
    state = deal(2, "W4 R2 R3 R4 Y2  B5 G5 Y5 W4 R1")
    for action in (Clue(1, rank=5), Clue(0, colour=Suit.RED), Discard(0), Clue(0, colour=Suit.RED),
                   Clue(1, colour=Suit.RED), Clue(0, colour=Suit.RED)):
        state = apply(state, action)
    decision = decide(view_for(state, 0), bot_seats=frozenset({0}))
    assert decision.action == Clue(1, rank=1)
    assert "W4" in decision.reason and "play" in decision.reason


def test_a_persons_clue_that_tells_nothing_new_is_not_read_for_intent() -> None:
    # The person's first red clue on the bot's R1 is a filler (8 tokens: read by the count alone, 60 %).
    # After a clue of the bot's, they give the very same clue: it tells nothing new, so it was not given
    # to get the card played (the careless beginner's random clues look like this), and the bot does not
    # play on it. A new clue in its place (red, touching a card not yet known red) would have been read so.
    state = deal(2, "R2 R2 R3 R3 R4  Y3 G3 B3 W3 R1")
    state = apply(state, Clue(1, colour=Suit.RED))
    state = apply(state, Clue(0, rank=3))
    repeated = apply(state, Clue(1, colour=Suit.RED))
    assert decide(view_for(repeated, 1), bot_seats=frozenset({1})).action != Play(9)
    fresh = apply(deal(2, "R2 R2 R3 R3 R4  Y3 G3 B3 W3 R1"), Clue(1, rank=3))
    fresh = apply(apply(fresh, Clue(0, rank=3)), Clue(1, colour=Suit.RED))
    assert decide(view_for(fresh, 1), bot_seats=frozenset({1})).action == Play(9)


def test_a_clue_a_person_had_to_give_with_every_token_is_not_read_for_intent() -> None:
    state = persons_red_clue(filler=True)
    decision = decide(view_for(state, 1), bot_seats=frozenset({1}))
    assert decision.action != Play(9)


def test_a_person_seen_to_clue_a_card_that_was_not_playable_is_read_by_the_count_alone() -> None:
    # 3 players: seat 0 a person, seats 1 and 2 bots. The person's first real clue touches only seat 2's R3
    # (red not started), which seat 1 sees: that clue did not mean "play this". Their next red clue, on
    # seat 1's R1, is then weighed by counting alone (75 %: R1 or R5), and seat 1 does not play it.
    def game(persons_first_clue: Clue) -> Decision:
        state = deal(3, "R2 R2 R3 R4 R4  Y3 G3 B3 W3 R1  Y4 G4 B4 W4 R3  Y2 G2")
        for action in (Clue(1, rank=3), Clue(0, rank=4), Clue(0, rank=2), persons_first_clue,
                       Discard(5), Discard(10), Clue(1, colour=Suit.RED)):
            state = apply(state, action)
        return decide(view_for(state, 1), bot_seats=frozenset({1, 2}))

    assert game(Clue(2, colour=Suit.RED)).action != Play(9)
    # With a first clue that misled nobody, the same red clue is played.
    assert game(Clue(2, rank=4)).action == Play(9)
