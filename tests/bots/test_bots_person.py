"""Beside a person who reads clues literally: what a bot makes of that person's rank clues.

A rank clue says little of what its giver meant (a 1 clue meant for one card may also touch a 1 already
played), so a bot plays a card a person touched by rank only when counting proves it playable, unless
that person has shown they give rank clues to get cards played; and never while it may be a copy of a
card already played. And a clued card a bot cannot prove playable does not wait for ever.
"""

from __future__ import annotations

import dataclasses

from hanabi.engine import Card, Clue, GameConfig, GameState, Play, Suit, apply, game_from_deck, new_game, view_for
from hanabi.engine.bots import Decision, decide, explained, make_bot
from hanabi.engine.bots.hgroup import ConventionBot, Turn
from hanabi.engine.bots.memory import Table
from people import Beginner  # bench/ is on the tests' path (pyproject): its scripts are not a package

BOT = frozenset({1})  # 2 players: seat 0 is the person, seat 1 the house bot (beginner level)


def deal(cards: str, first_seat: int = 0, players: int = 2) -> GameState:
    """``cards``: seat 0's hand (slot 5 first: orders 0-4), seat 1's (orders 5-9), and so on, then the cards drawn
    next; ``first_seat`` moves first."""
    config = GameConfig(players=players, first_seat=first_seat)
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


def test_a_clued_playable_card_is_not_held_for_the_rest_of_the_game() -> None:
    # 5 players, the beginner in seat 0, dealt from seed 40: seat 4's 1 clue touches G1, W1 and B1. The person
    # later plays an R1 and a G1 a bot clued them (literally: nobody checked those against seat 4's 1s), so
    # seat 4 cannot rule out that its B1 is a copy of one of them. Its teammates must see that it cannot, and
    # clue blue: it waited on the board from the first round to the end of the game.
    config = GameConfig(players=5)
    bots = frozenset({1, 2, 3, 4})
    seats = {s: make_bot(bot_seats=bots) for s in bots}
    person = Beginner(400)
    state = new_game(config, 40)
    waiting: dict[int, tuple[int, str]] = {}  # a clued card of a bot's, playable: since when, and which
    turn = 0
    while state.outcome is None:
        seat = state.current
        view = view_for(state, seat)
        if seat in bots:
            for cv in view_for(state, (seat + 1) % 5).hands[seat]:
                card = cv.card
                assert card is not None
                if cv.knowledge.clued and state.fireworks[card.suit.index] == card.rank - 1:
                    waiting.setdefault(cv.order, (turn, f"seat {seat + 1}'s {card}"))
                else:
                    waiting.pop(cv.order, None)
        action = seats[seat].choose(view) if seat in bots else person.choose(view)
        state = apply(state, action, seat=seat)
        turn += 1
    in_hands = {cv.order for hand in view_for(state, 0).hands for cv in hand}
    held = [f"{card} from turn {since}" for order, (since, card) in waiting.items() if order in in_hands and since < 20]
    assert not held, f"played by the end of the game: {held}"


def test_a_decision_is_explained_with_seats_and_cards_as_players_see_them() -> None:
    state = deal("R1 Y2 B2 G2 W2  Y3 G4 B4 W4 R2  Y4")
    view = view_for(state, 0)
    clue = Decision(Clue(1, rank=2), "cluing seat 2 2: their R2 (slot 1) will be playable", frozenset({1}))
    assert explained(clue, view) == "clue seat 2: 2 - cluing seat 2 2: their R2 (slot 1) will be playable"
    assert explained(clue, view, ("Ann", "Bot Bea")) == ("clue Bot Bea: 2 - cluing Bot Bea 2: their R2 (slot 1) "
                                                        "will be playable")
    play = Decision(Play(0), "the clues and the cards I see say my slot 5 is R1: playable", frozenset({0}))
    assert explained(play, view, ("Ann", "Bot Bea")) == ("play my slot 5 - the clues and the cards I see say my "
                                                        "slot 5 is R1: playable")
    # A real decision of the house bot, named the same way.
    line = explained(decide(view_for(apply(state, Clue(1, rank=2)), 1), bot_seats=BOT), view_for(
        apply(state, Clue(1, rank=2)), 1), ("Ann", "Bot Bea"))
    assert "#" not in line and "seat" not in line, line


# 4 players, the person in seat 0: every red card but the R1s is in sight of the person and of bot seat 3.
FOUR_SEATS = "R1 G3 B3 W3  R2 R2 R3 R3  R4 R4 R5 G4  B4 W4 G2 B2"


def test_a_person_seen_to_play_what_only_counting_proves_is_taken_to_count() -> None:
    # A bot clues the person's R1 red; playing it shows they count what they see, and from then on seat 3 takes
    # a red card of theirs, with every other red in sight, to be one they know is R1.
    dealt = deal(FOUR_SEATS, first_seat=1, players=4)
    red = dealt.config.variant.colour_mask(Suit.RED)

    def red_card_known(plays_first: bool) -> bool:
        state = play_out(dealt, Clue(0, colour=Suit.RED), Clue(1, rank=2),
                         Clue(1, rank=3), Play(0) if plays_first else Clue(2, rank=5), Clue(2, rank=4),
                         Clue(1, colour=Suit.RED))
        bot = ConventionBot(bot_seats=frozenset({1, 2, 3}))
        view = view_for(state, 3)
        bot.decide(view)
        assert bot._table is not None
        return Turn(bot._table, view).literal_knows(0, red) == 1 << Card.parse("R1").identity

    assert red_card_known(plays_first=True)
    assert not red_card_known(plays_first=False)


def test_a_person_is_taken_to_count_until_seen_not_to() -> None:
    # The same table: a bot clues the person's R1 red, with every other red card in sight of the person. Before
    # the person has moved, seat 3 takes them to count (the red card is one they know is R1); once they hold
    # it and clue instead of playing it, they are seen not to count, and the red card is any red card to them.
    dealt = deal(FOUR_SEATS, first_seat=1, players=4)
    red = dealt.config.variant.colour_mask(Suit.RED)
    r1 = 1 << Card.parse("R1").identity

    def red_card_for_seat_3(*actions: Clue | Play) -> int:
        state = play_out(dealt, Clue(0, colour=Suit.RED), Clue(1, rank=2), Clue(1, rank=3), *actions)
        table = Table(dealt.config, 3, "beginner", frozenset({1, 2, 3}))
        view = view_for(state, 3)
        table.catch_up(view)
        return Turn(table, view).literal_knows(0, red)

    assert red_card_for_seat_3() == r1  # seat 0 to move: nothing seen yet
    assert red_card_for_seat_3(Clue(2, rank=5), Clue(2, rank=4), Clue(1, colour=Suit.RED)) == red


def test_beside_a_person_a_clue_that_gets_nothing_played_at_once_waits_for_three_tokens() -> None:
    # 3 players, the person in seat 0, bots in seats 1 and 2; seat 2 moves after 5 or 7 clues. A clue worth
    # less than a play (one that brings a card halfway to proven) beats a discard with 3 tokens; with the
    # last token it does not (the next save or play needs it more), while a clue that gets a card played does.
    hands = "R1 G3 B3 W3 Y4  R2 R2 R3 R3 R4  R4 R5 G4 B4 W4"

    def seat_2_to_move(clues: int) -> Turn:
        state = deal(hands, first_seat=(2 - clues) % 3, players=3)
        for _ in range(clues):
            seat = state.current
            state = apply(state, Clue((seat + 1) % 3, rank=(3, 4, 3)[seat]))
        bot = ConventionBot(bot_seats=frozenset({1, 2}))
        view = view_for(state, 2)
        bot.decide(view)
        assert bot._table is not None and view.clue_tokens == 8 - clues
        return Turn(bot._table, view)

    halfway = (0.7, Clue(0, colour=Suit.RED))
    assert seat_2_to_move(5).clue_worth_giving(halfway) is not None
    assert seat_2_to_move(7).clue_worth_giving(halfway) is None
    assert seat_2_to_move(7).clue_worth_giving((1.0, Clue(0, colour=Suit.RED))) is not None


def test_a_stall_beside_a_person_leaves_their_last_unclued_card_alone() -> None:
    # The person holds R5 R4 Y5 Y4, clued, and the G1 already played, unclued: they throw the G1 next. A
    # clue on the G1 would touch one card and mislead nobody, but then every card of theirs is clued and
    # they throw their oldest, the R5: the bot's stall touches other cards instead. (With 20 cards left: earlier,
    # a 5 is not worth keeping for a literal reader.)
    state = deal("R5 Y5 R4 Y4 G1  B3 W3 B4 W4 G1")
    state = play_out(dataclasses.replace(state, next_draw=len(state.deck) - 20),
                     Clue(1, rank=1), Clue(0, colour=Suit.RED), Clue(1, rank=3), Play(9),
                     Clue(1, rank=4), Clue(0, colour=Suit.YELLOW), Clue(1, colour=Suit.WHITE))
    bot = ConventionBot(bot_seats=BOT)
    view = view_for(state, 1)
    bot.decide(view)
    assert bot._table is not None
    stall = Turn(bot._table, view).harmless_clue()
    assert stall is not None and stall.target == 0
    assert stall.colour is not Suit.GREEN and stall.rank != 1, stall


def test_a_clue_that_brings_a_persons_card_halfway_to_proven_says_so() -> None:
    # The person's R1 (slot 3): red tells them its colour, a 1 clue later proves it playable. The reason says
    # that, not "marking cards worth keeping".
    state = deal("G3 B3 R1 W3 Y4  Y3 G4 B4 W4 R2")
    bot = ConventionBot(bot_seats=BOT)
    state = apply(state, Clue(1, rank=4))
    view = view_for(state, 1)
    bot.decide(view)
    assert bot._table is not None
    turn = Turn(bot._table, view)
    assert turn.why_clue(Clue(0, colour=Suit.RED)) == ("cluing seat 1 red: their R1 (slot 3) is playable: now they "
                                                       "know it is red, and a clue on its rank will prove it")
    assert turn.why_clue(Clue(0, rank=1)).startswith("cluing seat 1 1: their R1 (slot 3) can be played")


def test_with_the_deck_running_out_a_bot_clues_the_persons_cards_before_playing_its_own() -> None:
    # 2 players: the person clues the bot's R1 (a 1: playable). The person's B1 and G1 are playable too, and a
    # 1 clue proves them. With 10 cards left the bot clues first (its R1 keeps; a clue draws no card); with 30
    # it plays.
    def bot_decides(deck_left: int) -> Decision:
        state = deal("R4 W4 B1 Y3 G1  W3 B3 G3 Y2 R1")
        state = play_out(dataclasses.replace(state, next_draw=len(state.deck) - deck_left), Clue(1, rank=1))
        return decide(view_for(state, 1), bot_seats=BOT)

    early, late = bot_decides(30), bot_decides(10)
    assert early.action == Play(9), early
    assert late.action == Clue(0, rank=1), late
    assert late.reason.endswith("can be played (the deck is running out: their card first, mine after)"), late


def test_with_three_cards_left_a_bot_beside_a_lone_person_stalls_rather_than_throw_a_card_blind() -> None:
    # 2 players, nothing played: the person holds five red cards, all clued red, none playable; the bot's cards
    # are unclued but for its 2s, so there is nothing to play and no clue worth a token. With 3 cards left in
    # the deck a harmless clue keeps the deck (and the turns the person's cards need) rather than throw a card
    # the bot cannot see; with 20 it discards.
    def bot_decides(deck_left: int) -> Decision:
        state = deal("R3 R4 R4 R3 R5  W3 B3 G4 Y2 B2", first_seat=1)
        state = dataclasses.replace(state, next_draw=len(state.deck) - deck_left, clue_tokens=5)
        state = play_out(state, Clue(0, colour=Suit.RED), Clue(1, rank=2))
        return decide(view_for(state, 1), bot_seats=BOT)

    early, late = bot_decides(20), bot_decides(3)
    assert not isinstance(early.action, Clue), early
    assert isinstance(late.action, Clue) and late.action.target == 0, late
    assert late.reason.startswith("the deck is almost out: a harmless clue"), late


def test_a_bot_saves_a_5_on_a_persons_chop_only_with_20_cards_or_fewer_left() -> None:
    # The person's chop is the G5 (order 0), the last copy of a card. With 30 cards left in the deck it would
    # sit in their hand most of the game, and a hand filled with kept cards throws one of them anyway: the bot
    # does not spend a clue on it. With 20 cards left it saves it.
    def saves_the_5(deck_left: int) -> tuple[bool, Decision]:
        state = deal("G5 R3 W4 B4 Y3  W3 B3 G4 Y2 R2")
        state = play_out(dataclasses.replace(state, next_draw=len(state.deck) - deck_left), Clue(1, rank=2))
        decision = decide(view_for(state, 1), bot_seats=BOT)
        after = apply(state, decision.action).events[-1]
        return isinstance(decision.action, Clue) and 0 in after.touched, decision

    early, late = saves_the_5(30), saves_the_5(20)
    assert not early[0], early[1]
    assert late[0] and "saving the only G5 left" in late[1].reason, late[1]


def test_a_tempo_clue_says_why_a_card_with_a_clue_already_is_clued_again() -> None:
    # The person's R1 (slot 3) was clued red; a 1 clue touches only it. To a beginner a second clue on a clued
    # card looks wasted: the reason says what it adds (it tells them to play it now).
    state = play_out(deal("G3 B3 R1 W3 Y4  Y3 G4 B4 W4 R2"), Clue(1, rank=4), Clue(0, colour=Suit.RED),
                     Clue(1, rank=3))
    bot = ConventionBot(bot_seats=BOT)
    view = view_for(state, 1)
    bot.decide(view)
    assert bot._table is not None
    turn = Turn(bot._table, view)
    why = turn.why_clue(Clue(0, rank=1))
    assert "cluing seat 1 1: their R1 (slot 3) can be played" in why, why
    assert why.endswith("(a tempo clue: it had a clue already, this one says to play it now)"), why
    assert "tempo" not in turn.why_clue(Clue(0, colour=Suit.YELLOW))  # Y4: a new card, no tempo
    from hanabi.engine.coach import convention_of
    assert convention_of(why) == ("tempo clue", "Focus")  # the coach points to where docs/bots.md explains it
