"""The table rules, as pure functions of a table as everyone sees it: what the server enforces and the client
checks before sending, in the same words."""

from __future__ import annotations

from hanabi.engine import ChatPolicy, Variant
from hanabi.protocol import ErrorCode, SeatInfo, TableInfo
from hanabi.protocol import table_rules as rules

ANN = SeatInfo(name="Ann", bot=False, connected=True)
BEN = SeatInfo(name="Ben", bot=False, connected=True)
BOT = SeatInfo(name="Bot Ada", bot=True, connected=True)


def table(*players: SeatInfo | None, host: int | None = 0, running: bool = False,
          chat: ChatPolicy = ChatPolicy.ALWAYS) -> TableInfo:
    return TableInfo(id=1, name="Friday", variant=Variant.NONE, empty_clues=False, all_or_nothing=False, chat=chat,
                     seats=len(players), players=players, has_password=False, running=running, spectators=0,
                     host=host)


def code(refusal: rules.Refusal | None) -> str | None:
    return None if refusal is None else refusal.code


def test_joining_takes_a_free_seat_and_names_who_holds_a_taken_one() -> None:
    t = table(ANN, None, BOT)
    assert rules.join_refusal(t, None) is None and rules.free_seat(t) == 1
    assert rules.join_refusal(t, 0) == rules.Refusal(ErrorCode.SEAT_TAKEN, "seat 1 is taken by Ann")
    assert code(rules.join_refusal(t, 3)) == ErrorCode.BAD_FIELD
    assert code(rules.join_refusal(table(ANN, BEN), None)) == ErrorCode.TABLE_FULL


def test_only_the_host_starts_unless_the_host_is_away_and_never_during_a_game() -> None:
    full = table(ANN, BEN)
    assert rules.start_refusal(full, 0) is None
    assert rules.start_refusal(full, 1) == rules.Refusal(ErrorCode.NOT_HOST,
                                                         "only the host can start a game; the host is Ann")
    assert code(rules.start_refusal(full, None)) == ErrorCode.NOT_SEATED
    away = table(SeatInfo(name="Ann", bot=False, connected=False), BEN)
    assert rules.start_refusal(away, 1) is None and rules.takes_over_host(away, 1)
    assert not rules.takes_over_host(full, 1) and not rules.takes_over_host(away, 0)
    robo = SeatInfo(name="Robo", bot=False, connected=True, network_bot=True)
    assert rules.takes_over_host(table(robo, BEN), 1)  # a hanabi-bot host (a stored table of old) gives way
    # Said about a running game, whoever asks: there is nothing to start.
    assert code(rules.start_refusal(table(ANN, BEN, running=True), 1)) == ErrorCode.GAME_RUNNING
    assert rules.start_refusal(table(ANN, None), 0) == rules.Refusal(
        ErrorCode.NOT_READY, "seat 2 is empty: wait for a player or add a bot")


def test_bots_go_into_empty_seats_and_only_bots_come_out() -> None:
    t = table(ANN, None, BOT)
    assert rules.add_bot_refusal(t, 0, 1) is None
    assert code(rules.add_bot_refusal(t, 0, 2)) == ErrorCode.SEAT_TAKEN
    assert code(rules.add_bot_refusal(table(ANN, None, running=True), 0, 1)) == ErrorCode.GAME_RUNNING
    assert rules.remove_bot_refusal(t, 0, 2) is None
    assert rules.remove_bot_refusal(t, 0, 0) == rules.Refusal(ErrorCode.BAD_FIELD,
                                                              "Ann is not a bot: only bots can be removed")
    assert code(rules.remove_bot_refusal(t, 0, 1)) == ErrorCode.BAD_FIELD


def test_the_host_role_goes_to_a_seated_human() -> None:
    t = table(ANN, BEN, BOT, None)
    assert rules.give_host_refusal(t, 0, 1) is None
    assert code(rules.give_host_refusal(t, 1, 0)) == ErrorCode.NOT_HOST
    assert "is a bot" in rules.give_host_refusal(t, 0, 2).message  # type: ignore[union-attr]
    assert "is empty" in rules.give_host_refusal(t, 0, 3).message  # type: ignore[union-attr]


def test_chat_follows_the_table_option_and_spectators_wait_for_the_end_of_a_game() -> None:
    assert rules.chat_refusal(table(ANN, BEN, running=True), seated=True) is None
    assert code(rules.chat_refusal(table(ANN, BEN, running=True), seated=False)) == ErrorCode.CHAT_DISABLED
    assert rules.chat_refusal(table(ANN, BEN), seated=False) is None
    between = table(ANN, BEN, running=True, chat=ChatPolicy.BETWEEN_GAMES)
    assert code(rules.chat_refusal(between, seated=True)) == ErrorCode.CHAT_DISABLED
    assert code(rules.chat_refusal(table(ANN, BEN, chat=ChatPolicy.OFF), seated=True)) == ErrorCode.CHAT_DISABLED


def test_only_an_away_players_seat_or_a_bots_is_handed_on() -> None:
    away = SeatInfo(name="Ben", bot=False, connected=False)
    t = table(ANN, away, BOT, None, running=True)
    assert rules.hand_seat_refusal(t, 0, 1, to_bot=True) is None
    assert rules.hand_seat_refusal(t, 0, 1, to_bot=False) is None
    assert rules.hand_seat_refusal(t, 0, 2, to_bot=False) is None  # a bot's seat back to a person
    assert "bot already" in rules.hand_seat_refusal(t, 0, 2, to_bot=True).message  # type: ignore[union-attr]
    assert rules.hand_seat_refusal(t, 1, 0, to_bot=True) == rules.Refusal(
        ErrorCode.NOT_HOST, "only the host can hand a seat on; the host is Ann")
    assert code(rules.hand_seat_refusal(t, None, 1, to_bot=True)) == ErrorCode.NOT_SEATED
    here = table(ANN, BEN)
    assert rules.hand_seat_refusal(here, 0, 1, to_bot=True) == rules.Refusal(
        ErrorCode.SEAT_TAKEN, "Ben is here: only the seat of a player who is away (or of a house bot) can be handed on")
    assert code(rules.hand_seat_refusal(t, 0, 3, to_bot=True)) == ErrorCode.BAD_FIELD  # empty
    assert code(rules.hand_seat_refusal(t, 0, 7, to_bot=True)) == ErrorCode.BAD_FIELD  # no such seat


def test_the_review_goes_on_with_its_leader_or_the_host_while_the_leader_is_away() -> None:
    away_ben = SeatInfo(name="Ben", bot=False, connected=False)
    t = table(ANN, BEN, BOT)  # Ann hosts
    assert rules.is_here(t, (), "Ben") and rules.is_here(t, ("Eve",), "Eve")
    assert not rules.is_here(t, (), "Eve") and not rules.is_here(t, (), "Bot Ada")  # a bot is nobody's leader
    assert not rules.is_here(table(ANN, away_ben), (), "Ben")
    assert rules.leads_review(t, (), "Ben", "Ben", 1) and rules.leads_review(t, (), "Eve", "Eve", None)
    assert not rules.leads_review(t, (), "Ben", "Ann", 0)  # the host, while Ben is here
    assert rules.leads_review(table(ANN, away_ben), (), "Ben", "Ann", 0)  # the host takes over from Ben away
    assert rules.leads_review(t, (), "Eve", "Ann", 0) and not rules.leads_review(t, ("Eve",), "Eve", "Ann", 0)
    assert not rules.leads_review(table(ANN, away_ben), (), "Ben", "Cy", None)  # a spectator never takes over


def test_the_host_opens_a_game_to_review_between_games_and_the_leader_or_host_hands_on_the_lead() -> None:
    t = table(ANN, BEN)  # Ann hosts
    assert rules.open_review_refusal(t, 0) is None
    assert code(rules.open_review_refusal(t, 1)) == code(rules.open_review_refusal(t, None)) == ErrorCode.NOT_HOST
    assert code(rules.open_review_refusal(table(ANN, BEN, running=True), 0)) == ErrorCode.GAME_RUNNING
    assert rules.review_lead_refusal(t, (), "Ben", "Ben", 1, "Ann") is None
    assert rules.review_lead_refusal(t, ("Eve",), "Ben", "Ann", 0, "Eve") is None  # the host may, to a spectator
    assert code(rules.review_lead_refusal(t, ("Eve",), "Ben", "Eve", None, "Ann")) == ErrorCode.NOT_LEADER
    assert code(rules.review_lead_refusal(t, (), "Ben", "Ben", 1, "Eve")) == ErrorCode.NOT_SEATED  # Eve is not here


def test_one_sits_at_one_table_at_a_time() -> None:
    t = table(ANN, BEN)
    assert rules.seated_refusal(None, None, "create") is None  # in the lobby
    assert rules.seated_refusal(t, None, "join", 7) is None  # watching: free to go
    assert rules.seated_refusal(t, 1, "join", 1) == rules.Refusal(
        ErrorCode.ALREADY_SEATED, "you already sit at this table, in seat 2: leave it first")
    assert rules.seated_refusal(t, 1, "join", 7) == rules.Refusal(
        ErrorCode.ALREADY_SEATED, "you already sit at table 'Friday', in seat 2: leave it first")
    assert rules.seated_refusal(t, 0, "watch", 7) == rules.Refusal(
        ErrorCode.ALREADY_SEATED, "you sit at table 'Friday', in seat 1: leave it before watching")
    assert code(rules.seated_refusal(t, 0, "create")) == ErrorCode.ALREADY_SEATED
