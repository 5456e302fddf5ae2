"""The review, the history and who is here, on the client: every new key through a pipe, the screen at 80x24."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest
from hanabi.client.model import ClientModel, reduce
from hanabi.client.replayer import game_steps
from hanabi.engine import Discard, GameState, TurnEvent, Variant, apply, legal_actions
from hanabi.engine.replay import SeatHolder, dumps, from_json
from hanabi.protocol.messages import (
    BotReason,
    EndReason,
    GameOver,
    Games,
    GameStarted,
    GameSummary,
    GetReplay,
    GetStats,
    Joined,
    ListGames,
    Online,
    OpenReview,
    ReplayFile,
    Review,
    ReviewLead,
    ReviewPoint,
    ReviewStep,
    Watchers,
    Welcome,
)
from prompt_toolkit.input import create_pipe_input

RIGHT, LEFT, UP, DOWN, HOME, END, ESC = "\x1b[C", "\x1b[D", "\x1b[A", "\x1b[B", "\x1b[H", "\x1b[F", "\x1b"


@cache
def finished(kit) -> GameState:
    """A 3-player game played to its end by discarding whenever allowed (else a clue): it runs out the deck.
    Played once for every test that reviews it (a state is immutable)."""
    state = kit.game()
    while not state.over:
        actions = legal_actions(state)
        state = apply(state, next((a for a in actions if isinstance(a, Discard)), actions[-1]))
    return state


@cache
def last_of(text: str) -> int:
    """The last step of the game a replay file holds (worked out once per file's text)."""
    return len(game_steps(from_json(json.loads(text)))) - 1


def in_review(term, kit, me: int = 1, leader: str = "alice", step: int = 3, pointer: int | None = None,
              game: int = 1) -> tuple[GameState, int]:
    """``me`` (a seat) at table 1 whose game ``game`` is over and reviewed, ``leader`` showing ``step``."""
    state = finished(kit)
    text = dumps(state, kit.NAMES, bot_level="beginner")  # no bot at the table, as its file says
    last = last_of(text)
    term.feed(Welcome(3, "server", kit.NAMES[me], "tok", ""), Joined(kit.table(), me), GameStarted(1, game),
              kit.view_message(state, me, game), GameOver(game, state.outcome, state.deck, "7"),
              ReplayFile(game, text), Review(1, game, leader, step, last, pointer))
    term.sent.clear()  # the record asked for at the game's end: the review's tests look at what follows
    return state, last


def test_everyone_sees_the_leaders_step_and_the_end_of_the_game(term, kit) -> None:
    _, last = in_review(term, kit, step=last_of(dumps(finished(kit), kit.NAMES)))
    screen = term.screen()
    assert f"step {last}/{last} · following alice" in screen and "Game over:" in screen
    detail = finished(kit).outcome.detail  # why it ended, not only the score (a 0 on the clock reads as a bug)
    assert detail[:1].upper() + detail[1:] in " ".join(line.strip() for line in screen.splitlines()), screen
    term.feed(Review(1, 1, "alice", 2, last))
    screen = term.screen()
    assert f"step 2/{last} · following alice" in screen and "Game over" not in screen
    assert "turn 3" in screen.splitlines()[0]  # the title tells the step's turn, as a game does
    assert len(screen.splitlines()) <= 24 and "←→ step" in screen.splitlines()[-1]


def test_a_follower_steps_alone_and_f_follows_the_leader_again(term, kit) -> None:
    _, last = in_review(term, kit, step=3)
    assert term.type(RIGHT + RIGHT + LEFT) == []  # nothing goes to the server: one's own steps
    assert f"step 4/{last} · on your own (f follows alice again)" in term.screen()
    term.feed(Review(1, 1, "alice", 6, last))  # the leader moves meanwhile: we stay where we are
    assert f"step 4/{last}" in term.screen()
    term.type(HOME)
    assert f"step 0/{last}" in term.screen()
    term.type(END)
    assert f"step {last}/{last}" in term.screen()
    term.type(UP)
    assert f"step {last - 10}/{last}" in term.screen()
    term.type("f")
    assert f"step 6/{last} · following alice" in term.screen()


def test_the_leaders_keys_step_for_everyone(term, kit) -> None:
    _, last = in_review(term, kit, me=0, step=3)
    assert "you lead" in term.screen()
    assert term.type(RIGHT) == [ReviewStep(4)]
    term.sent.clear()
    assert term.type(HOME) == [ReviewStep(0)]
    term.sent.clear()
    assert term.type(END) == [ReviewStep(last)]
    term.sent.clear()
    term.feed(Review(1, 1, "alice", last, last))
    assert term.type(UP) == [ReviewStep(last - 10)]


def test_the_host_takes_the_lead_back_when_the_leader_is_not_here(term, kit) -> None:
    in_review(term, kit, me=0, leader="dave", step=3)  # dave watched, and has gone
    assert term.type(LEFT) == [ReviewStep(2)]


def test_the_leader_points_at_a_card_and_everyone_reads_where_it_is(term, kit) -> None:
    state, last = in_review(term, kit, me=0, step=0)
    order = kit.game().hands[1][2]
    assert term.type("o23") == [ReviewPoint(order)]  # bob's slot 3, at the deal
    term.sent.clear()
    assert term.type("o0") == [ReviewPoint(None)]
    term.sent.clear()
    assert term.type("o9") == [] and "not a seat" in term.screen()
    term.feed(Review(1, 1, "alice", 0, last, order))
    card = str(state.deck[order])
    assert f"➜ alice points at bob's slot 3 ({card})" in term.screen()
    bob = next(line for line in term.screen().splitlines() if "2 bob" in line)
    assert re.search(rf"{card}\]? ?◀", bob), bob  # the arrow beside the card itself
    bob = next(line for line in term.screen().splitlines() if line[1:].startswith("2 bob"))
    assert bob.count("◀") == 1 and re.search(rf"{card}\S* ?◀", bob), bob  # on the card itself too
    term.type(RIGHT + "f")  # one's own step hides the arrow, following shows it again
    assert "points at" in term.screen() and "◀" in term.screen()
    term.feed(Review(1, 1, "alice", 1, last, None))  # the step the server shows everyone: no arrow
    assert "points at" not in term.screen() and "◀" not in term.screen()


def test_only_the_leader_points(term, kit) -> None:
    in_review(term, kit, me=1, step=0)
    assert term.type("o2") == []
    assert "only the review's leader points" in term.screen()


def test_the_lead_is_handed_on_by_command(term, kit) -> None:
    in_review(term, kit, me=0)
    assert term.type(":lead bob\r") == [ReviewLead("bob")]
    term.sent.clear()
    # Handing the lead to whoever has it already sends nothing and says so.
    assert term.type(":lead Alice\r") == [] and "alice already leads the review" in term.screen()


def test_handed_the_lead_while_stepping_alone_one_leads(term, kit) -> None:
    _, last = in_review(term, kit, me=1, step=2)  # bob follows alice
    term.type(RIGHT)  # bob steps on his own
    assert "on your own (f follows alice again)" in term.screen()
    term.feed(Review(1, 1, "bob", 2, last, None))  # alice hands bob the lead
    screen = term.screen()
    assert "you lead: everyone sees your steps" in screen and "on your own" not in screen, screen


def test_s_saves_the_reviewed_game(term, kit, tmp_path: Path) -> None:
    in_review(term, kit)
    assert term.type("s") == []
    [saved] = tmp_path.glob("hanabi-*.json")
    assert json.loads(saved.read_text())["players"] == list(kit.NAMES)


def summary(game: int, yours: bool, score: int = 17) -> GameSummary:
    return GameSummary(game, 2, ("alice", "bob"), Variant.SIX_SUITS, score, EndReason.FINAL_ROUND, 1_790_000_000,
                       yours)


def test_the_history_lists_games_and_opens_one_alone(term, kit) -> None:
    term.feed(Welcome(3, "server", "alice", "tok", ""))
    assert term.type("h") == [ListGames(), GetStats()]
    term.feed(Games((summary(8, True), summary(5, False, 12))))
    screen = term.screen()
    assert "★   8" in screen and "six suits" in screen and "alice, bob" in screen
    term.sent.clear()
    assert term.type(DOWN + "o") == [GetReplay(5)]
    state = finished(kit)
    text = dumps(state, kit.NAMES)
    term.feed(ReplayFile(5, text))
    screen = term.screen()
    assert f"Review of game 5 · step 0/{last_of(text)} · on your own" in screen
    term.type(RIGHT + RIGHT)
    assert f"step 2/{last_of(text)}" in term.screen()
    assert "Game 5, alone: ←→ step" in term.screen()
    term.type("q")  # back to the list
    assert "Finished games" in term.screen() and "Game 5, alone" not in term.screen()  # its hint went with it
    term.type(ESC)  # back to the lobby
    assert "No tables yet" in term.screen() and "Game 5, alone" not in term.screen()


def test_enter_opens_the_chosen_game_and_s_saves_one_from_the_history(term, kit, tmp_path: Path) -> None:
    term.feed(Welcome(3, "server", "alice", "tok", ""))
    term.type("h")
    term.feed(Games((summary(8, True),)))
    term.sent.clear()
    assert term.type("\r") == [GetReplay(8)]
    term.type(ESC)  # the replay has not come: the list again
    term.sent.clear()
    assert term.type("s") == [GetReplay(8)]
    term.feed(ReplayFile(8, dumps(finished(kit), kit.NAMES)))
    [saved] = tmp_path.glob("hanabi-*-six-suits.json")  # named after the listed game's variant
    assert json.loads(saved.read_text())["players"] == list(kit.NAMES)


def test_w_has_the_table_review_a_game_only_from_its_host(term, kit) -> None:
    term.feed(Welcome(3, "server", "bob", "tok", ""))
    term.type("h")
    term.feed(Games((summary(8, False),)))
    term.sent.clear()
    assert term.type("w") == []
    assert "sit at a table first" in term.screen()
    term.feed(Joined(kit.table(), 1))
    assert term.type("w") == [] and "only the host opens a game" in term.screen()
    term.feed(Joined(kit.table(), 0))  # now the host
    assert term.type("w") == [OpenReview(8)]
    assert "Finished games" not in term.screen()  # back at the table, whose review comes


def test_the_lobby_shows_who_is_online_and_the_table_who_watches(term, kit) -> None:
    term.feed(Welcome(3, "server", "alice", "tok", ""), Online(("alice", "bob", "carol")))
    assert "Online (3): alice, bob, carol" in term.screen()
    term.feed(Joined(kit.table(running=True), 0), GameStarted(1, 1), kit.view_message(kit.game(), 0),
              Watchers(1, ("dave", "erin")))
    screen = term.screen()
    assert "Watching (2): dave, erin" in screen and len(screen.splitlines()) <= 24
    term.feed(Watchers(2, ("zed",)))  # another table's: not ours
    assert "zed" not in term.screen()


def test_the_model_keeps_only_our_tables_review_and_a_new_game_ends_it(kit) -> None:
    model = reduce(ClientModel(), Joined(kit.table(), 0))
    assert reduce(model, Review(9, 1, "alice", 0, 5)).review is None
    reviewed = reduce(model, Review(1, 1, "alice", 0, 5))
    assert reviewed.review is not None and "alice leads a review of game 1" in str(reviewed.log[-1].fragments)
    assert reduce(reviewed, GameStarted(1, 2)).review is None



def test_the_tables_chat_stays_under_the_reviews_log(term, kit) -> None:
    from hanabi.protocol.messages import Chat

    in_review(term, kit, step=4)
    term.feed(Chat("look at turn 3!", table=1, sender="alice"))
    assert "<alice> look at turn 3!" in term.screen()


def test_only_what_was_said_since_the_game_ended_stays_under_the_reviews_log(term, kit) -> None:
    from hanabi.protocol.messages import Chat

    state = finished(kit)
    text = dumps(state, kit.NAMES, bot_level="beginner")
    last = last_of(text)
    term.feed(Welcome(3, "server", "bob", "tok", ""), Joined(kit.table(), 1), GameStarted(1, 1),
              Chat("good luck, everyone", table=1, sender="cathy"), kit.view_message(state, 1),
              GameOver(1, state.outcome, state.deck, "7"), Chat("well played", table=1, sender="alice"),
              ReplayFile(1, text), Review(1, 1, "alice", 3, last))
    screen = term.screen()
    assert "<alice> well played" in screen and "good luck" not in screen, screen


def test_a_five_player_review_with_a_pointer_and_watchers_fits_80x24(term, kit) -> None:
    names = ("alice", "bob", "cathy", "dave", "erin")
    state = kit.game(players=5)
    while not state.over:
        actions = legal_actions(state)
        state = apply(state, next((a for a in actions if isinstance(a, Discard)), actions[-1]))
    text = dumps(state, names)
    last = last_of(text)
    term.feed(Welcome(3, "server", "bob", "tok", ""), Joined(kit.table(names), 1), GameStarted(1, 1),
              kit.view_message(state, 1), ReplayFile(1, text), Watchers(1, ("zoe",)),
              Review(1, 1, "alice", last, last, state.hands[4][3]))
    lines = term.screen().splitlines()
    assert len(lines) <= 24
    screen = "\n".join(lines)
    assert all(f"{i + 1} {name}" in screen for i, name in enumerate(names))  # every hand
    assert "Game over:" in screen and f"step {last}/{last} · following alice" in screen
    assert "➜ alice points at erin's slot 4" in screen and "Watching (1): zoe" in screen
    assert all(len(line) <= 80 for line in lines) and "◀" in next(line for line in lines if "5 erin" in line)
    assert "←→ step" in lines[-1]


def test_everyones_notes_from_the_file_show_in_the_review(term, kit) -> None:
    state = finished(kit)
    order = kit.game().hands[2][0]  # cathy's first card at the deal
    text = dumps(state, kit.NAMES, [{order: "chop moved"}, {}, {order: "finessed? r1"}])
    term.feed(Welcome(3, "server", "bob", "tok", ""), Joined(kit.table(), 1), GameStarted(1, 1),
              kit.view_message(state, 1), ReplayFile(1, text), Review(1, 1, "alice", 0, last_of(text)))
    cathy = next(line for line in term.screen().splitlines() if "3 cathy" in line)
    assert "*" in cathy  # the board marks a card with notes, for everyone
    term.type("N")
    screen = term.screen()
    assert "alice: " in screen and "chop moved" in screen and "cathy: " in screen and "finessed? r1" in screen


def test_the_review_shows_the_notes_its_replay_file_carries(term, kit) -> None:
    """Once a game is over everyone reads everyone's notes: the review marks the noted cards and N lists them."""
    state = finished(kit)
    notes = [{state.hands[1][0]: "f"}, {}, {state.hands[1][2]: "r4 maybe"}]  # both on bob's cards at the end
    text = dumps(state, kit.NAMES, notes)
    last = last_of(text)
    term.feed(Welcome(3, "server", "bob", "tok", ""), Joined(kit.table(), 1), GameStarted(1, 1),
              kit.view_message(state, 1), GameOver(1, state.outcome, state.deck, "7"), ReplayFile(1, text),
              Review(1, 1, "alice", last, last, None))
    bob = next(line for line in term.screen().splitlines() if line[1:].startswith("2 bob"))
    assert bob.count("*") == 2
    term.type("N")
    shown = " ".join(term.screen().split())
    assert "f (finessed)" in shown and "r4 maybe" in shown


def test_an_empty_history_says_so_and_its_keys_line_is_whole_at_80_columns(term, kit) -> None:
    term.feed(Welcome(3, "server", "alice", "tok", ""))
    term.type("h")
    assert "The list is on its way." in term.screen()
    term.feed(Games(()))
    lines = term.screen().splitlines()
    assert "  No finished game on this server yet: a game shows here once it ends." in lines
    keys = next(line for line in lines if line.startswith(" Enter/o "))
    assert keys.rstrip().endswith("Esc back") and len(keys) <= 80


def test_w_in_the_review_tells_the_bots_reason_of_the_step_on_screen(term, kit) -> None:
    state = finished(kit)
    text = dumps(state, kit.NAMES)
    last = last_of(text)
    turns = [e for e in state.events if isinstance(e, TurnEvent) and e.seat == 2]  # cathy is a house bot here
    term.feed(Welcome(3, "server", "bob", "tok", ""), Joined(kit.table(bots=(2,)), 1), GameStarted(1, 1),
              kit.view_message(state, 1), GameOver(1, state.outcome, state.deck, "7"),
              *(BotReason(1, e.turn, 2, f"the reason of turn {e.turn + 1}") for e in turns),
              ReplayFile(1, text), Review(1, 1, "alice", last, last, None))
    term.type("w")
    assert f"cathy, turn {turns[-1].turn + 1}: the reason of turn {turns[-1].turn + 1}" in term.store.model.status
    term.feed(Review(1, 1, "alice", 4, last, None))  # step 4 shows turns 1-4: cathy's last is turn 3
    term.type("w")
    assert "cathy, turn 3: the reason of turn 3" in term.store.model.status
    term.feed(Review(1, 1, "alice", 1, last, None))  # alice's first turn only
    term.type("w")
    assert "no bot had moved yet at this step" in term.store.model.status


@pytest.mark.moments
def test_m_and_big_m_step_to_the_moments_that_mattered_found_in_the_background(term, kit) -> None:
    _, last = in_review(term, kit, step=0)
    assert term.app.review.found() is None  # asking starts the search; the screen does not wait for it
    found = term.app.review.moments.wait(60)
    assert found is not None and found.moments, "no moment found within 60 s in a game of blind discards"
    steps = [m.step for m in found.moments]
    assert term.type("m") == []  # one's own steps: nothing goes to the server
    screen = term.screen()
    assert f"step {steps[0]}/{last} · on your own" in screen
    assert f"Moment 1 of {len(steps)}, judged at beginner level · Turn {found.moments[0].turn}: " in screen
    assert "The house bot would " in screen
    words = set(screen.split())  # wrapped at word boundaries: every word of the moment shows whole
    assert all(word in words for line in found.moments[0].lines() for word in line.split())
    term.type("M")
    assert "no moment before this step" in term.store.model.status
    if len(steps) > 1:
        term.type("m")
        assert f"step {steps[1]}/{last}" in term.screen()
        term.type("M")
        assert f"step {steps[0]}/{last}" in term.screen()
    term.type(END + "m")
    assert "no moment after this step" in term.store.model.status
    term.type("M")  # back to the last moment: the sentence about the last step is no longer true
    assert f"step {steps[-1]}/{last}" in term.screen()
    assert "no moment after this step" not in term.store.model.status
    term.type(END + "m")
    term.type("h")  # nor inside a what if
    assert "What if" in term.screen()
    assert "no moment after this step" not in term.store.model.status


@pytest.mark.moments
def test_at_60x15_a_moment_keeps_its_lines_and_the_log_gives_way(kit, tmp_path: Path) -> None:
    with create_pipe_input() as pipe:
        small = kit.Terminal(pipe, tmp_path, columns=60, rows=15)
        in_review(small, kit, step=0)
        small.app.review.found()
        found = small.app.review.moments.wait(60)
        assert found is not None and found.moments, "no moment found within 60 s in a game of blind discards"
        small.type("m")
        screen = small.screen()
        assert "Window too small" not in screen
        assert f"step {found.moments[0].step}/" in screen and "on your own" in screen
        said = f"Moment 1 of {len(found.moments)}, judged at beginner level · Turn {found.moments[0].turn}: "
        assert said in " ".join(screen.split())
        assert "The house bot would " in screen  # the moment's point, with the log out of the way
        words = set(screen.split())  # every word of the moment shows whole: the lines above give way to it
        assert all(word in words for line in found.moments[0].lines() for word in line.split()), screen
        # The key that follows the leader again is left to the keys line when narrow: the head is one line.
        assert any(line.rstrip().endswith("· on your own") for line in screen.splitlines()), screen


def test_what_the_review_shows_follows_every_value_it_is_worked_out_from(term, kit) -> None:
    in_review(term, kit, step=3)
    review = term.app.review
    assert review.current() is review.current()  # worked out once for the same model and screen state
    assert (review.current().step, review.current().leader) == (3, "alice")
    review.ui.alone, review.ui.step = True, 5
    assert (review.current().step, review.current().alone) == (5, True)
    review.ui.private = 1  # the same game, looked at alone from the history: nobody leads it
    assert review.current().leader is None
    review.ui.private, review.ui.alone = None, False
    term.feed(Review(1, 1, "alice", 7, review.current().last, None))  # a new model: the leader's new step
    assert review.current().step == 7


def test_the_reviews_log_names_who_held_a_handed_seat_at_each_move(term, kit) -> None:
    """The file's ``seatHolders``: from turn 4 on a bot played the third seat, so its moves from then are the bot's."""
    state = finished(kit)
    text = dumps(state, kit.NAMES, holders=[SeatHolder(0, 2, kit.NAMES[2]), SeatHolder(4, 2, "Bot Basil", True)])
    last = last_of(text)
    term.feed(Welcome(3, "server", "alice", "tok", ""), Joined(kit.table(), 0), GameStarted(1, 1),
              kit.view_message(state, 0), GameOver(1, state.outcome, state.deck, "7"), ReplayFile(1, text),
              Review(1, 1, "alice", 6, last, None))
    logged = [re.match(r"^ +(\d+) (.+?) (plays|discards|clues) ", line) for line in term.screen().splitlines()]
    moves = {m[1]: m[2] for m in logged if m is not None}  # the log's lines: the turn, then who moved
    assert (moves["3"], moves["4"], moves["6"]) == (kit.NAMES[2], kit.NAMES[0], "Bot Basil")


def test_everyone_is_told_who_leads_the_review_when_the_lead_changes(term, kit) -> None:
    _, last = in_review(term, kit, me=1, leader="alice")
    term.type("f")  # "Following alice again."
    term.feed(Review(1, 1, kit.NAMES[1], 3, last))  # alice left: the host, us, leads now
    screen = " ".join(term.screen().split())
    assert "You lead the review now" in screen and "you lead: everyone sees your steps" in screen
    assert "Following alice" not in screen
    term.feed(Review(1, 1, kit.NAMES[2], 3, last))
    assert f"{kit.NAMES[2]} leads the review now" in " ".join(term.screen().split())


def test_the_reviews_key_line_says_l_goes_back_to_the_lobby_at_80_and_60_columns(kit, tmp_path: Path) -> None:
    for columns in (80, 60):
        with create_pipe_input() as pipe:
            term = kit.Terminal(pipe, tmp_path, columns=columns, rows=24)
            in_review(term, kit)
            keys = term.screen().splitlines()[-1]
            assert " l lobby " in keys and keys.rstrip().endswith("q quit") and len(keys) <= columns, keys
            assert " f follow " in keys and " m/M moments " in keys, keys  # less needed keys go first


def test_a_solo_review_says_l_quits_and_no_one_follows_or_is_led(kit, tmp_path: Path) -> None:
    with create_pipe_input() as pipe:
        term = kit.Terminal(pipe, tmp_path)
        term.app.solo = True  # hanabi-client --solo: the table is the whole private server
        in_review(term, kit, me=0, leader="alice")
        screen = term.screen()
        keys = screen.splitlines()[-1]
        assert " l quit " in keys and " l lobby " not in keys and " f follow " not in keys, keys
        assert keys.count("quit") == 1, keys
        assert "you lead" not in screen and "everyone sees" not in screen
        assert "on your own" in screen


def test_a_reviews_discards_show_where_the_screen_has_room(term, kit) -> None:
    # The discards give their rows to the review's bar on a short screen; at 80x24 there is room for them.
    in_review(term, kit, step=12)
    screen = term.screen()
    assert "Discards " in screen and "Review of game 1" in screen, screen
