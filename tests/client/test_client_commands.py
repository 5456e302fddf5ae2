"""Typed commands, one-key shortcuts and the engine's judgement of an action before it is sent."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hanabi.client import keys
from hanabi.client.commands import CommandCompleter, CommandError, LobbyIntent, Local, Say, parse
from hanabi.client.judge import refusal
from hanabi.engine import CLUE_TOKENS, Clue, Discard, GameConfig, Play, Rearrange, Suit, apply, game_from_deck, view_for
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document


@pytest.fixture
def view(kit):
    """Alice's view (seat 0) at the start of a 3-player game where she acts first."""
    return view_for(kit.game(), 0)


def test_play_and_discard_name_cards_by_slot(kit, view) -> None:
    hand = view.hands[0]
    assert parse("play 2", view, kit.NAMES) == Play(hand[1].order)
    assert parse("discard 5", view, kit.NAMES) == Discard(hand[4].order)
    assert parse("p 1", view, kit.NAMES) == Play(hand[0].order)


def test_clue_by_name_prefix_or_number(kit, view) -> None:
    assert parse("clue bob red", view, kit.NAMES) == Clue(1, colour=Suit.RED)
    assert parse("clue Cat 5", view, kit.NAMES) == Clue(2, rank=5)
    assert parse("c 3 b", view, kit.NAMES) == Clue(2, colour=Suit.BLUE)  # cathy sits in seat 3 (0-based 2)


def test_clue_a_name_with_spaces(kit) -> None:
    view = view_for(kit.game(), 0)
    names = ("alice", "Bot Ada", "Bot Basil")
    assert parse("clue bot ada 3", view, names) == Clue(1, rank=3)
    with pytest.raises(CommandError, match="could be 2 Bot Ada, 3 Bot Basil"):
        parse("clue bot 3", view, names)


BOTS = ("Alice", "Bot Ada", "Bot Basil")


@pytest.mark.parametrize(("typed", "seat"), [
    ("ada", 1), ("ADA", 1), ("Ad", 1), ("bas", 2), ("bot a", 1), ("Bot Basil", 2), ("  bot   ada ", 1), ("3", 2),
])
def test_clue_finds_a_player_by_any_word_of_the_name(kit, typed: str, seat: int) -> None:
    view = view_for(kit.game(), 0)
    assert parse(f"clue {typed} 3", view, BOTS) == Clue(seat, rank=3)


def test_an_ambiguous_name_lists_the_players_it_could_be(kit) -> None:
    view = view_for(kit.game(), 0)
    with pytest.raises(CommandError, match="'b' could be 2 Bot Ada, 3 Bot Basil: type more of the name, or the num"):
        parse("clue b 3", view, BOTS)
    # Two players with the same name: only their numbers tell them apart.
    with pytest.raises(CommandError, match="could be 2 bob, 3 Bob"):
        parse("clue bob 3", view, ("alice", "bob", "Bob"))


def test_a_whole_word_beats_a_longer_name_it_begins(kit) -> None:
    view = view_for(kit.game(), 0)
    assert parse("clue ada 3", view, ("me", "Adam", "Bot Ada")) == Clue(2, rank=3)
    assert parse("clue adam 3", view, ("me", "Adam", "Bot Ada")) == Clue(1, rank=3)


def test_naming_yourself_says_you_cannot_clue_yourself(kit) -> None:
    view = view_for(kit.game(), 0)
    with pytest.raises(CommandError, match="cannot clue yourself"):
        parse("clue ali 3", view, BOTS)


def test_completion_of_names_with_spaces(kit) -> None:
    view = view_for(kit.game(), 0)
    completer = CommandCompleter(lambda: view, lambda: BOTS)

    def complete(text: str) -> list[tuple[str, int]]:
        return [(c.text, c.start_position) for c in completer.get_completions(Document(text), CompleteEvent())]

    assert complete("clue ad") == [("Bot Ada", -2)]
    assert complete("clue bot a") == [("Bot Ada", -5)]
    assert complete("clue ") == [("Bot Ada", 0), ("Bot Basil", 0)]
    assert ("red", 0) in complete("clue bot ada ") and all(t != "Bot Ada" for t, _ in complete("clue bot ada "))


def test_move_rearranges_the_hand(kit, view) -> None:
    orders = [cv.order for cv in view.hands[0]]
    moved = parse("move 5 1", view, kit.NAMES)
    assert moved == Rearrange(0, (orders[4], *orders[:4]))


@pytest.mark.parametrize(("line", "words"), [
    ("play 9", "no slot 9"),
    ("play x", "not a slot"),
    ("clue zed red", "no player called 'zed'"),
    ("clue bob purple", "neither a colour nor a rank"),
    ("clue bob 7", "no rank 7"),
    ("dance", "unknown command"),
    ("say", "say what"),
    ("move 1", "move FROM TO"),
    ("move 2 2", "already in slot 2"),
    ("join", "join TABLE"),
])
def test_bad_commands_say_what_to_type(kit, view, line: str, words: str) -> None:
    with pytest.raises(CommandError, match=words):
        parse(line, view, kit.NAMES)


def test_game_commands_need_a_game_and_a_seat(kit) -> None:
    with pytest.raises(CommandError, match="game in progress"):
        parse("play 1", None, kit.NAMES)
    with pytest.raises(CommandError, match="spectators"):
        parse("play 1", view_for(kit.game(), None), kit.NAMES)


def test_chat_lobby_and_local_commands(kit, view) -> None:
    assert parse("say  hello there ", view, kit.NAMES) == Say("hello there")
    assert parse("join 3 2", None, ()) == LobbyIntent("join", 3, "2")
    assert parse("spectate 4", None, ()) == LobbyIntent("spectate", 4)
    assert parse("bot 2", None, ()) == LobbyIntent("bot", 2)
    assert parse("help", None, ()) == Local("help")
    assert parse("?", None, ()) == Local("help")


def test_completion_offers_verbs_players_and_values(kit, view) -> None:
    completer = CommandCompleter(lambda: view, lambda: kit.NAMES)

    def complete(text: str) -> list[str]:
        return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]

    assert "play" in complete("pl")
    assert complete("clue c") == ["cathy"]
    assert complete("clue C") == ["cathy"]
    assert "red" in complete("clue bob ")
    assert complete("play ") == ["1", "2", "3", "4", "5"]


def test_tab_after_hand_seat_completes_the_names_of_those_who_could_take_it(kit, view) -> None:
    completer = CommandCompleter(lambda: view, lambda: kit.NAMES, lambda seat: ("bot", "Bob 2", "🦊 Zoë"))

    def complete(text: str) -> list[str]:
        return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]

    assert complete("hand 2 ") == ["bot", "Bob 2", "🦊 Zoë"]
    assert complete("hand 2 b") == ["bot", "Bob 2"]
    assert complete("hand 2 bob") == ["Bob 2"]
    assert complete("hand 2 🦊") == ["🦊 Zoë"]
    # Tab straight after the seat's number, no space typed yet: the same names, the seat kept.
    assert complete("hand 2") == ["2 bot", "2 Bob 2", "2 🦊 Zoë"]
    assert complete("hand x") == []


def test_tab_after_hand_seat_offers_no_bot_for_a_seat_a_bot_holds(term, kit) -> None:
    from hanabi.protocol.messages import Joined, Online, Welcome

    table = kit.table(("alice", "Bot Ada", "cathy", "Robo"), running=True, bots=(1,))
    seats = list(table.players)
    seats[2] = replace(seats[2], connected=False)  # cathy is away; Robo, a network bot, is here
    seats[3] = replace(seats[3], network_bot=True)
    table = replace(table, players=tuple(seats))
    term.feed(Welcome(1, "server", "alice", "tok", ""), Joined(table, 0), Online(("alice", "dave", "Robo")))

    def complete(text: str) -> list[str]:
        completer = term.app.command.completer
        assert completer is not None
        return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]

    assert complete("hand 2 ") == ["dave"]  # Bot Ada's seat: a person may take it, a house bot may not
    assert complete("hand 2") == ["2 dave"]
    assert complete("hand 3 ") == ["bot", "dave"]  # cathy's, who is away: a house bot too
    # A seat whose player is here (alice's own, Robo's) is theirs to keep: no one to offer, as the server refuses.
    assert complete("hand 1 ") == [] and complete("hand 4 ") == [] and complete("hand 4") == []


def test_the_engine_refuses_with_its_own_reason(kit, view) -> None:
    # All 8 clue tokens: discarding is not allowed, and the engine says why.
    assert view.clue_tokens == CLUE_TOKENS
    reason = refusal(view, Discard(view.hands[0][0].order))
    assert reason is not None and "8 clue tokens" in reason
    assert refusal(view, Play(view.hands[0][0].order)) is None
    bob = view_for(kit.game(), 1)
    assert refusal(bob, Play(bob.hands[1][0].order)) == "it is not your turn: seat 1 is to act"
    assert refusal(bob, Play(bob.hands[1][0].order), kit.NAMES) == "it is not your turn: alice is to act"
    assert "spectators" in (refusal(view_for(kit.game(), None), Play(0)) or "")


def test_a_clue_that_touches_nothing_is_refused(kit, view) -> None:
    present = {cv.card.rank for cv in view.hands[1] if cv.card is not None}
    missing = next(r for r in range(1, 6) if r not in present)
    assert "touches none of their cards" in (refusal(view, Clue(1, rank=missing)) or "")
    assert refusal(view, Clue(1, rank=next(iter(present)))) is None


def test_shortcut_play_asks_before_a_blind_play(kit, view) -> None:
    step = keys.start("p", view, kit.NAMES)
    assert isinstance(step, keys.Prompt) and "which slot" in step.text
    step = keys.step(["p"], "3", view, kit.NAMES)
    assert isinstance(step, keys.Prompt) and "No clue on slot 3: play it anyway?" in step.text
    assert keys.step(["p", "3"], "y", view, kit.NAMES) == keys.Done(Play(view.hands[0][2].order))
    assert isinstance(keys.step(["p", "3"], "n", view, kit.NAMES), keys.KeyRefused)


def test_shortcut_clue_and_move(kit, view) -> None:
    step = keys.step(["c"], "3", view, kit.NAMES)  # seat numbers, as the board shows them: cathy sits in seat 3
    assert isinstance(step, keys.Prompt) and "Clue cathy" in step.text
    assert keys.step(["c", "3"], "g", view, kit.NAMES) == keys.Done(Clue(2, colour=Suit.GREEN))
    assert keys.step(["c", "2"], "4", view, kit.NAMES) == keys.Done(Clue(1, rank=4))
    assert isinstance(keys.step(["c"], "7", view, kit.NAMES), keys.KeyRefused)
    own = keys.step(["c"], "1", view, kit.NAMES)  # alice's own seat
    assert isinstance(own, keys.KeyRefused) and "cannot clue yourself" in own.text
    orders = [cv.order for cv in view.hands[0]]
    assert keys.step(["m", "2"], "1", view, kit.NAMES) == keys.Done(Rearrange(0, (orders[1], orders[0], *orders[2:])))


def test_shortcuts_refuse_spectators(kit) -> None:
    assert isinstance(keys.start("p", view_for(kit.game(), None), kit.NAMES), keys.KeyRefused)
    assert isinstance(keys.start("d", None, kit.NAMES), keys.KeyRefused)


def test_move_shortcut_to_the_same_slot_moves_nothing(kit, view) -> None:
    step = keys.step(["m", "3"], "3", view, kit.NAMES)
    assert isinstance(step, keys.KeyRefused) and "already in slot 3" in step.text


def test_the_clue_key_says_at_once_when_it_is_not_your_turn_and_play_discard_queue_a_premove(kit) -> None:
    bob = view_for(kit.game(), 1)  # alice is to act
    step = keys.start("c", bob, kit.NAMES)
    assert isinstance(step, keys.KeyRefused) and "not your turn: alice is to act" in step.text
    assert "p or d queues a move for your turn" in step.text  # what can be done now instead
    for key, verb in (("p", "play"), ("d", "discard")):
        step = keys.start(key, bob, kit.NAMES)
        assert isinstance(step, keys.Prompt) and f"Queue a {verb} for your next turn" in step.text
        done = keys.step([key], "2", bob, kit.NAMES)
        if isinstance(done, keys.Prompt):  # "no clue ever touched it: play anyway?"
            done = keys.step([key, "2"], "y", bob, kit.NAMES)
        assert isinstance(done, keys.Done) and done.intent.order == bob.hands[1][1].order  # type: ignore[union-attr]
    assert isinstance(keys.start("m", bob, kit.NAMES), keys.Prompt)  # rearranging is free at any time


def test_a_clued_card_asks_before_a_discard_queued_out_of_turn_as_it_does_in_turn(kit) -> None:
    state = kit.clue_something(kit.game())  # alice clues bob's first card
    in_turn = view_for(state, 1)
    state = kit.clue_something(state)  # bob clues cathy: now it is cathy's turn, and bob may queue a move
    out_of_turn = view_for(state, 1)
    assert in_turn.current == 1 and out_of_turn.current == 2 and out_of_turn.hands[1][0].knowledge.clued
    for bob in (in_turn, out_of_turn):
        asked = keys.step(["d"], "1", bob, kit.NAMES)
        assert isinstance(asked, keys.Prompt) and "Slot 1 has had a clue: discard it?" in asked.text
        assert isinstance(keys.step(["d", "1"], "n", bob, kit.NAMES), keys.KeyRefused)
        done = keys.step(["d", "1"], "y", bob, kit.NAMES)
        assert isinstance(done, keys.Done) and done.intent == Discard(bob.hands[1][0].order)


def test_a_clued_card_counting_shows_as_trash_is_discarded_without_asking(kit) -> None:
    config = GameConfig(players=3, first_seat=0)
    red_ones = [c for c in config.variant.deck() if c.suit is Suit.RED and c.rank == 1]
    rest = [c for c in config.variant.deck() if c not in red_ones]
    state = game_from_deck(config, [red_ones[0], *rest[:4], red_ones[1], *rest[4:], red_ones[2]])
    state = apply(state, Play(0))  # alice plays her R1
    state = kit.clue_something(state)  # bob clues cathy
    state = apply(apply(state, Clue(1, colour=Suit.RED)), Clue(1, rank=1))  # bob's card 5 is now a known R1
    bob = view_for(state, 1)
    slot = [cv.order for cv in bob.hands[1]].index(5) + 1
    done = keys.step(["d"], str(slot), bob, kit.NAMES)  # shown as [R1]x: the clue has done its work
    assert isinstance(done, keys.Done) and done.intent == Discard(5)
    other = next(i for i, cv in enumerate(bob.hands[1], 1) if cv.knowledge.clued and cv.order != 5)
    asked = keys.step(["d"], str(other), bob, kit.NAMES)  # a 1 that may still be played: asked as before
    assert isinstance(asked, keys.Prompt) and "has had a clue" in asked.text


def test_a_wrong_clue_key_names_the_keys_to_press(kit, view) -> None:
    step = keys.step(["c", "1"], "x", view, kit.NAMES)
    assert isinstance(step, keys.KeyRefused) and "press r y g b w, or 1-5" in step.text


def test_each_screen_offers_verbs_of_the_one_command_table() -> None:
    from hanabi.client.commands import GAME_VERBS, LOBBY_VERBS, VERBS, verbs_on

    playing, lobby = verbs_on("game", seated=True), verbs_on("lobby", seated=False)
    assert set(playing) <= set(VERBS) and set(lobby) <= set(VERBS)
    assert not set(lobby) & set(GAME_VERBS) and set(GAME_VERBS) <= set(playing)
    watching = set(verbs_on("game", seated=False))
    assert not watching & {*GAME_VERBS, "note", "pause", "unqueue", "hand"} and {"say", "leave"} <= watching
    assert {"join", "new", "start", "bot"} <= set(lobby) and not {"join", "new", "start", "bot"} & set(playing)
    assert set(LOBBY_VERBS) <= set(lobby)
