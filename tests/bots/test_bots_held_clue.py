"""A card a person clued, held because it may be a copy of a card already played.

A bot never plays such a card unproven (the person's 1 clue may touch a 1 already played), so the table
resolves it: a teammate bot, and the coach in the person's seat, value the clue that proves it like any
clue that gets a card played; the holder says why it holds and which clue would help; and on its last
turn it does not throw a strike away on a card it knows may be worthless.
"""

from __future__ import annotations

from hanabi.engine import Card, Clue, Discard, GameConfig, GameState, Play, Suit, apply, game_from_deck, view_for
from hanabi.engine.bots import decide
from hanabi.engine.bots.hgroup import ConventionBot, Turn
from hanabi.engine.coach import advise
from hanabi.engine.variants import Variant

BOTS_3P = frozenset({1, 2})  # 3 players: the person in seat 0, house bots in seats 1 and 2
BOT_2P = frozenset({1})  # 2 players: the person in seat 0, the house bot in seat 1


def dealt(config: GameConfig, cards: str) -> GameState:
    """``cards``: each seat's hand in turn (slot 5 first), then the cards drawn next."""
    rest = config.variant.deck()
    top = [Card.parse(name) for name in cards.split()]
    for card in top:
        rest.remove(card)
    return game_from_deck(config, top + rest)


def play_out(state: GameState, *actions: Clue | Play | Discard) -> GameState:
    for action in actions:
        state = apply(state, action)
    return state


def solo_position() -> GameState:
    """The person plays R1, then clues 1 to seat 3, touching its G1 alone: seat 3 knows a 1, which may be the R1
    already played (one other R1 is unseen), so it holds it."""
    state = dealt(GameConfig(players=3, first_seat=0),
                  "R1 Y3 B3 W3 G4  Y4 B4 W4 R3 G3  R3 B3 G1 W3 R4  Y4 W4 B4")
    return play_out(state, Play(0), Clue(0, rank=3), Clue(0, rank=4), Clue(2, rank=1))


def test_a_teammate_proves_a_persons_1_that_its_holder_must_hold() -> None:
    state = solo_position()
    decision = decide(view_for(state, 1), bot_seats=BOTS_3P)
    assert decision.action == Clue(2, colour=Suit.GREEN), decision.reason


def test_the_coach_suggests_the_clue_that_proves_it_to_the_person() -> None:
    # The two bots pass the turn by discarding; now the person is to move, and the G1 still waits.
    state = play_out(solo_position(), Discard(5))
    held = decide(view_for(state, 2), bot_seats=BOTS_3P)
    assert held.action == Discard(10) and held.reason.endswith(
        "; my 1 in slot 3 could be R1, which is already played: a colour clue would tell me whether to play it")
    state = apply(state, held.action)
    advice = advise(view_for(state, 0), bot_seats=BOTS_3P)
    assert advice.action == Clue(2, colour=Suit.GREEN), advice.lines()


def six_suit_position() -> GameState:
    """Six suits, the person and one bot: the person plays G1 and clues 1 to the bot, touching Y1 W1 M1 R1."""
    config = GameConfig(players=2, variant=Variant.SIX_SUITS, first_seat=0)
    state = dealt(config, "G1 Y3 B3 W3 M3  B4 Y1 W1 M1 R1  G4 B5 Y4")
    return play_out(state, Play(0), Clue(0, rank=3), Clue(1, rank=1))


def test_the_holder_says_why_it_holds_and_what_would_help() -> None:
    state = six_suit_position()
    decision = decide(view_for(state, 1), bot_seats=BOT_2P)
    assert not isinstance(decision.action, Play), decision.reason
    assert "my 1s could be G1, which is already played: a colour clue would tell me which to play" in (
        decision.reason), decision.reason


def test_the_coach_suggests_a_colour_clue_for_the_bots_1s() -> None:
    state = play_out(six_suit_position(), Discard(5))
    advice = advise(view_for(state, 0), bot_seats=BOT_2P)
    assert isinstance(advice.action, Clue) and advice.action.colour is not None, advice.lines()


def to_the_bots_last_turn(state: GameState) -> GameState:
    """Both seats pass the turns until the bot's last: the person discards its oldest card, the bot its newest
    unclued card (its clued cards stay as they are); with every clue token in hand, and on the person's turns at the end
    of the deck, a rank clue on the other seat's newest card instead."""
    while not (state.current == 1 and state.final_turns_left is not None):
        seat = state.current
        hand = state.hands[seat]
        if state.clue_tokens == 8 or (seat == 0 and state.deck_left <= 2):
            state = apply(state, Clue(1 - seat, rank=state.deck[state.hands[1 - seat][0]].rank))
        else:
            unclued = [o for o in hand if not state.knowledge[o].clued]
            state = apply(state, Discard((unclued or hand)[0] if seat == 1 else hand[-1]))
    return state


def test_on_its_last_turn_the_bot_throws_no_strike_on_a_persons_1_that_may_be_a_played_copy() -> None:
    # The person plays G1 and clues 1 to the bot, touching G1 W1 B1 R1; nobody proves them. On its last turn
    # the count tells the bot its hand holds a G1, now worthless, but not which card it is: it does not
    # gamble on those 1s, each of which may be that one.
    state = dealt(GameConfig(players=2, first_seat=0), "G1 Y3 B3 W3 G3  B4 G1 W1 B1 R1")
    state = to_the_bots_last_turn(play_out(state, Play(0), Clue(0, rank=3), Clue(1, rank=1)))
    view = view_for(state, 1)
    ones = (6, 7, 8, 9)
    assert set(ones) <= {cv.order for cv in view.hands[1] if cv.knowledge.clued} and state.strikes == 0
    bot = ConventionBot(bot_seats=BOT_2P)
    bot.decide(view)
    assert bot._table is not None
    gamble = Turn(bot._table, view).hopeful_play()  # the last turn's gamble, whatever comes before it
    assert gamble is None or gamble[0] not in [Play(o) for o in ones], gamble


def test_a_card_a_person_touched_by_rank_played_once_proven_shows_their_rank_clues_mean_play() -> None:
    # The person clues 1 on the bot's R1 alone, after playing G1: it may be the G1 copy, so the bot holds it
    # until the person's red clue proves it, and plays it. Their 1 clue got a card played: their next rank
    # clue, a 2 on the bot's R2 (R2 or G2 by what a clue is usually for, 93 %), is played unproven.
    state = dealt(GameConfig(players=2, first_seat=0), "G1 Y3 B3 W3 G4  B4 Y4 W4 B3 R1  Y2 R2")
    state = play_out(state, Play(0), Clue(0, rank=3), Clue(1, rank=1), Clue(0, rank=4), Clue(1, colour=Suit.RED))
    assert decide(view_for(state, 1), bot_seats=BOT_2P).action == Play(9)
    state = play_out(state, Play(9), Clue(1, rank=2))
    decision = decide(view_for(state, 1), bot_seats=BOT_2P)
    assert decision.action == Play(11), decision.reason
