"""Card counting, the game at a glance, a card's clue history and the rewind, on the 80x24 screen, keys
typed through a pipe."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from hanabi.client.app import ClientApp
from hanabi.client.glance import glance_fragments
from hanabi.client.knowledge import Insight
from hanabi.client.runner import ModelStore
from hanabi.client.snapshot import SizedOutput, screen_text
from hanabi.engine import (
    Card,
    ChatPolicy,
    Clue,
    GameConfig,
    GameState,
    Play,
    Suit,
    Variant,
    apply,
    game_from_deck,
    legal_actions,
    new_game,
    view_for,
)
from hanabi.protocol.messages import (
    CardNote,
    CardNotes,
    GameStarted,
    Joined,
    Message,
    SeatInfo,
    TableInfo,
    ViewUpdate,
    Welcome,
)
from prompt_toolkit.input import PipeInput, create_pipe_input

LEFT, RIGHT, HOME, END, ESC = "\x1b[D", "\x1b[C", "\x1b[H", "\x1b[F", "\x1b"


@dataclass
class Seated:
    """A client app seated at a running game, keys typed through ``pipe``."""

    app: ClientApp
    store: ModelStore
    pipe: PipeInput
    sent: list[Message]

    def show(self, state: GameState, seat: int | None = 0) -> None:
        self.store.dispatch(ViewUpdate(1, view_for(state, seat)))

    def keys(self, keys: str) -> str:
        """Type ``keys``, then Ctrl-C to stop the app; the 80x24 screen it leaves."""
        self.pipe.send_text(keys + "\x03")
        self.app.application.run()
        return self.screen()

    def screen(self) -> str:
        return screen_text(self.app.application, 80, 24)


def seat_at(pipe: PipeInput, tmp_path: Path, state: GameState, seat: int | None = 0,
            names: tuple[str, ...] = ("alice", "bob", "cathy", "donald", "emily")) -> Seated:
    store = ModelStore()
    sent: list[Message] = []
    app = ClientApp(store.get, store.dispatch, sent.append, input=pipe, output=SizedOutput(80, 24),
                    replay_dir=tmp_path)
    store.listeners.append(app.on_model)
    config = state.config
    seats = tuple(SeatInfo(n, False, True) for n in names[:config.players])
    info = TableInfo(1, "t", config.variant, False, False, ChatPolicy.ALWAYS, config.players, seats, False, True, 0, 0)
    me = names[seat] if seat is not None else "eve"
    for message in (Welcome(1, "s", me, "tok", ""), Joined(info, seat), GameStarted(1, 1)):
        store.dispatch(message)
    seated = Seated(app, store, pipe, sent)
    seated.show(state, seat)
    return seated


@pytest.fixture
def pipe() -> Iterator[PipeInput]:
    with create_pipe_input() as p:
        yield p


def stacked(top: str, players: int, first_seat: int) -> GameState:
    deck = Variant.NONE.deck()
    cards = [Card.parse(n) for n in top.split()]
    for card in cards:
        deck.remove(card)
    return game_from_deck(GameConfig(players=players, first_seat=first_seat), cards + deck)


def line_of(screen: str, start: str) -> int:
    """The row that starts with ``start``; a hand's row ("2 bob") whatever marks the player to act before it."""
    return next(i for i, line in enumerate(screen.splitlines()) if line.startswith(start) or line[1:].startswith(start))


def test_your_hand_shows_what_counting_rules_out_apart_from_the_clues(pipe: PipeInput, tmp_path: Path) -> None:
    # alice (seat 0) holds R3 in slot 5; bob holds both R4s and a G1. Bob clues alice red.
    state = apply(stacked("R3 Y1 Y2 Y3 B2  R4 R4 G1 G2 G3", 2, 1), Clue(0, colour=Suit.RED))
    screen = seat_at(pipe, tmp_path, state).screen()
    lines = screen.splitlines()
    row = line_of(screen, "    can be ")
    assert lines[row].split()[-1] == "R"
    assert lines[row + 1].split()[-1] == "123⁴5"  # red by the clue; R4 out by counting: both are in bob's hand
    bob = lines[line_of(screen, "2 bob")]
    assert "G1+" in bob  # certainly playable, from what alice sees
    assert "R4+" not in bob and "R4!" not in bob  # neither playable nor the last copy


def test_critical_and_trash_marks_follow_the_discard_pile(pipe: PipeInput, tmp_path: Path) -> None:
    # bob misplays one B2 (order 9): his other B2 (order 8) is the last one; alice played R1, so his R1 is trash.
    state = stacked("R1 Y1 Y2 Y3 W3  R1 G2 G3 B2 B2", 2, 0)
    state = apply(state, Play(0))  # alice plays R1
    state = apply(state, Clue(0, rank=2))  # bob clues alice (a wasted clue; makes room to discard)
    state = apply(state, Clue(1, rank=3))
    state = apply(state, Play(9))  # bob misplays a B2: one copy gone
    bob = seat_at(pipe, tmp_path, state).screen()
    row = bob.splitlines()[line_of(bob, "2 bob")]
    assert "B2!" in row and "R1x" in row


def test_k_shows_what_a_teammate_counts_from_the_cards_both_see(pipe: PipeInput, tmp_path: Path) -> None:
    # alice clues bob red on his R3 (order 5); cathy holds both R4s, which alice and bob both see.
    state = apply(stacked("Y1 Y2 Y3 B1 B2  R3 G1 G2 G3 W1  R4 R4 W2 W3 W4", 3, 0), Clue(1, colour=Suit.RED))
    seated = seat_at(pipe, tmp_path, state)
    screen = seated.keys("k")
    lines = screen.splitlines()
    row = next(i for i in range(line_of(screen, "2 bob"), len(lines)) if lines[i].startswith("    knows"))
    assert lines[row + 1].split()[-1] == "123⁴5"  # bob's last slot, order 5
    assert lines[row].split()[-1] == "R"
    screen = seated.keys("k")
    assert "    knows" not in screen


def test_the_glance_line_says_the_maximum_pace_and_efficiency(pipe: PipeInput, tmp_path: Path) -> None:
    state = stacked("R1 Y1 Y2 Y3 W3  Y5 G2 G3 B2 B2", 2, 0)
    state = apply(state, Clue(1, rank=5))  # alice: a clue on the Y5
    state = apply(state, Clue(0, rank=1))  # bob: a clue on R1 and Y1
    state = apply(state, Play(2))  # alice misplays Y2: a lost clue
    screen = seat_at(pipe, tmp_path, state).screen()
    line = next(line for line in screen.splitlines() if line.startswith("Max "))
    # Gotten: Y5 and R1 clued and still needed (Y1 too) = 3 cards, for 2 clues and a misplay.
    assert line.startswith("Max 25  Pace ") and "Eff 1.00 need " in line


def test_the_glance_line_names_the_card_that_lowered_the_maximum(pipe: PipeInput, tmp_path: Path) -> None:
    state = stacked("R1 Y1 Y2 Y3 W3  Y5 G2 G3 B2 B2", 2, 1)
    state = apply(state, Play(9))  # bob misplays a B2
    state = apply(state, Clue(1, rank=2))
    state = apply(state, Play(8))  # and the other
    screen = seat_at(pipe, tmp_path, state).screen()
    line = next(line for line in screen.splitlines() if line.startswith("Max "))
    assert line.startswith("Max 21 (B2 gone)")


def test_i_tells_a_cards_clue_history(pipe: PipeInput, tmp_path: Path) -> None:
    state = stacked("R3 Y1 Y2 Y3 B2  R4 R4 G1 G2 G3", 2, 1)
    state = apply(state, Clue(0, colour=Suit.RED))  # touches alice's R3, in slot 5
    state = apply(state, Clue(1, rank=4))
    state = apply(state, Clue(0, rank=2))  # passes it by
    seated = seat_at(pipe, tmp_path, state)
    screen = seated.keys("i15")
    text = " ".join(screen.split())
    assert "Your slot 5: turn 1 bob: red · turn 3 bob: not 2 · can be R1 R3 R5" in text
    screen = seated.keys("i25")  # bob's slot 5 (order 5, an R4): touched by alice's 4
    assert "bob's slot 5 (R4): turn 2 alice: 4" in " ".join(screen.split())
    screen = seated.keys("i9")
    assert "no seat '9'" in screen
    screen = seated.keys("i1" + ESC + "p")  # Esc drops the question; p starts a play as usual
    assert "Play which slot?" in screen


def test_r_rewinds_through_the_game_as_this_seat_saw_it(pipe: PipeInput, tmp_path: Path) -> None:
    state = stacked("R1 Y1 Y2 Y3 W3  Y5 G2 G3 B2 B2", 2, 0)
    state = apply(state, Play(0))  # turn 1: alice plays R1
    state = apply(state, Clue(0, rank=1))  # turn 2: bob clues alice's 1s
    seated = seat_at(pipe, tmp_path, state)
    screen = seated.keys("r")
    assert "REWIND: after turn 1, step 1 of 2" in screen and "IT IS YOUR TURN in the live game" in screen
    assert "turn 2 · bob's turn" in screen.splitlines()[0]  # the title and the status line tell the same step
    assert "Clues 8/8" in screen and "R1" in screen.splitlines()[1]
    assert "bob clues" not in screen  # the log stops at that step too
    screen = seated.keys(LEFT)
    assert "REWIND: the deal, step 0 of 2" in screen and "R0" in screen.splitlines()[1]
    screen = seated.keys(END)
    assert "step 2 of 2" in screen and "bob clues alice: 1" in screen
    screen = seated.keys(HOME + RIGHT)
    assert "step 1 of 2" in screen
    screen = seated.keys(",")
    assert "step 0 of 2" in screen
    screen = seated.keys("]")  # a round: two players, two steps
    assert "step 2 of 2" in screen
    screen = seated.keys("[")
    assert "step 0 of 2" in screen
    screen = seated.keys(".")
    assert "step 1 of 2" in screen
    screen = seated.keys("p")
    assert "r returns to the game first" in screen and seated.sent == []
    screen = seated.keys("r")
    assert "REWIND" not in screen and "your turn" in screen.splitlines()[0]


def test_the_live_game_goes_on_under_a_rewind(pipe: PipeInput, tmp_path: Path) -> None:
    state = stacked("R1 Y1 Y2 Y3 W3  Y5 G2 G3 B2 B2", 2, 1)
    state = apply(state, Clue(0, rank=1))
    seated = seat_at(pipe, tmp_path, state, seat=1)
    screen = seated.keys("r" + ESC)  # Esc returns too
    assert "REWIND" not in screen
    screen = seated.keys("r")
    assert "live: alice to act" in screen
    state = apply(state, Play(0))
    seated.show(state, 1)
    screen = seated.screen()
    assert "REWIND: the deal, step 0 of 2" in screen and "IT IS YOUR TURN in the live game" in screen
    screen = seated.keys(END)
    assert "alice plays R1" in screen


def test_rewind_says_when_there_is_nothing_to_rewind(pipe: PipeInput, tmp_path: Path) -> None:
    seated = seat_at(pipe, tmp_path, new_game(GameConfig(players=2, first_seat=0), 1))
    screen = seated.keys("r")
    assert "nothing to rewind yet" in screen and "REWIND" not in screen


def test_a_spectator_rewinds_too(pipe: PipeInput, tmp_path: Path) -> None:
    state = stacked("R1 Y1 Y2 Y3 W3  Y5 G2 G3 B2 B2", 2, 0)
    state = apply(state, Play(0))
    seated = seat_at(pipe, tmp_path, state, seat=None)
    screen = seated.keys("r")
    assert "REWIND: the deal" in screen and "live: bob to act" in screen
    assert "R1" in screen.splitlines()[line_of(screen, "1 alice")]  # a spectator saw every hand
    screen = seated.keys("r" + "i25")  # back to the game, then the clues on bob's slot 5
    assert "bob's slot 5 (Y5): no clue yet · can be any of 25 cards" in " ".join(screen.split())


def test_the_end_of_the_game_ends_a_rewind(pipe: PipeInput, tmp_path: Path) -> None:
    rng = random.Random(2)
    state = new_game(GameConfig(players=2, first_seat=0), 4)
    state = apply(state, rng.choice(legal_actions(state)))
    seated = seat_at(pipe, tmp_path, state)
    seated.keys("r")
    assert seated.app.ui.rewind is not None
    while not state.over:
        state = apply(state, next(a for a in legal_actions(state) if isinstance(a, Play)))
    seated.show(state)
    assert seated.app.ui.rewind is None and "Game over" in seated.screen()


# Notes as players write them: tags, a card's name (its identity mark widens the cell), and one as long as a note
# may be, which the panel must break between words.
NOTE_TEXTS = ("f", "cm", "r1", "b5 maybe", "kt", "Bob said at turn 3 this is the last copy of its suit; keep it "
              "until the five is down, then let it go")


def written_notes(state: GameState, seat: int | None, rng: random.Random) -> list[CardNotes]:
    """The notes a seat was sent: its own, on cards of its hand and of others'; a spectator gets every seat's."""
    writers = range(state.players) if seat is None else (seat,)
    sent = []
    for writer in writers:
        cards = [order for hand in state.hands for order in hand]
        chosen = rng.sample(cards, min(len(cards), rng.randrange(3, 7)))
        if seat is not None:  # at least one of its own cards and one of another's
            chosen = [state.hands[seat][0], state.hands[(seat + 1) % state.players][-1], *chosen]
        texts = {order: rng.choice(NOTE_TEXTS) for order in chosen}
        texts[chosen[0]] = NOTE_TEXTS[-1]
        sent.append(CardNotes(1, writer, tuple(CardNote(o, t) for o, t in sorted(texts.items()))))
    return sent


def assert_fits(screen: str, players: int, seat: int | None) -> None:
    """24 rows of at most 80 columns, the glance line and the keys bar whole, every hand's row on screen."""
    lines = screen.splitlines()
    assert len(lines) == 24 and all(len(line) <= 80 for line in lines), screen
    assert sum(1 for line in lines if line.startswith("Max ")) == 1, screen
    assert lines[-1].rstrip().endswith("quit"), screen
    names = ("alice", "bob", "cathy", "donald", "emily")
    for other in range(players):
        who = f"You ({names[other]})" if other == seat else names[other]
        assert any(who in line for line in lines[2:3 + 3 * players]), screen


def assert_panel_unbroken(screen: str) -> None:
    """The notes panel in the log's place: each row but its title starts indented (a note too long for a row
    goes on under it, broken at a space; a row cut at the edge would go on at the next row's first column)."""
    lines = screen.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith("Notes (N closes"))
    for line in lines[top + 1:]:
        if line.startswith(" ") and line[1:2] not in ("", " "):  # the status lines under the panel (" The game…")
            break
        assert line == "" or line.startswith("  "), screen


# Many random games, every seat and screen: untraced by coverage (docs/developing.md); focused tests reach their lines.
@pytest.mark.no_cover
@pytest.mark.parametrize("variant", list(Variant), ids=lambda v: v.name)
def test_every_size_with_notes_counting_and_stats_fits_80x24_and_in_rewind(variant: Variant, tmp_path: Path) -> None:
    """Random games of every size, every seat and a spectator, notes written on cards of one's own hand and of
    others', knowledge shown or not, live, with the notes panel and rewound: 24 rows of at most 80 columns, every
    hand on screen, the glance line and the keys bar whole, no note broken in the middle of a word."""
    rng = random.Random(variant.value + "glance")
    for players in range(2, 6):
        state = new_game(GameConfig(players=players, variant=variant), rng.randrange(1000))
        for _ in range(rng.randrange(10, 60)):
            if state.over:
                break
            actions = legal_actions(state)
            calm = [a for a in actions if not isinstance(a, Play)]
            state = apply(state, rng.choice(calm if calm and rng.random() < 0.8 else actions))
        for seat in [*range(players), None]:
            with create_pipe_input() as p:
                seated = seat_at(p, tmp_path, state, seat)
                for message in written_notes(state, seat, rng):
                    seated.store.dispatch(message)
                # The screens a seat reaches by k, N, then N and r, reached by what those keys do: a sweep of
                # layouts, not of keys (test_client_notes.py types N, test_r_rewinds_... types r), so no app runs.
                seated.app.ui.show_knowledge = rng.random() < 0.5
                screen = seated.screen()
                assert_fits(screen, players, seat)
                assert screen.count("*") >= 2 or seat is None, screen  # marks show (own cards may show a name)
                seated.app.toggle_notes()
                screen = seated.screen()
                assert_fits(screen, players, seat)
                assert_panel_unbroken(screen)
                if state.events and not state.over:
                    seated.app.toggle_notes()
                    seated.app.open_rewind()
                    screen = seated.screen()
                    assert_fits(screen, players, seat)
                    assert "REWIND" in screen, screen


def test_insight_highlights_the_cards_the_last_clue_touched() -> None:
    state = apply(stacked("R3 Y1 Y2 R2 B2  R4 R4 G1 G2 G3", 2, 1), Clue(0, colour=Suit.RED))
    state = apply(state, Play(4))  # a later play does not hide it
    assert Insight.of(view_for(state, 1)).last_clue == frozenset({0, 3})
    assert Insight.of(view_for(new_game(GameConfig(players=2), 1), 0)).last_clue == frozenset()


def test_the_help_names_the_new_keys_and_marks_and_fits(pipe: PipeInput, tmp_path: Path) -> None:
    seated = seat_at(pipe, tmp_path, new_game(GameConfig(players=3, first_seat=0), 1))
    lines = seated.keys("?").splitlines()
    assert any(line.startswith("  r      rewind") and "i S N  clues on seat S's slot N" in line for line in lines)
    assert any("small: ruled out by counting" in line and "! last copy" in line for line in lines)
    assert any("other keys close this help." in line for line in lines)  # still whole at 80x24


def test_an_empty_clue_is_the_last_clue_and_highlights_nothing() -> None:
    deck = Variant.NONE.deck()
    top = [Card.parse(n) for n in ("R3", "Y1", "Y2", "R2", "B2", "R4", "R4", "G1", "G2", "G3")]
    for card in top:
        deck.remove(card)
    state = game_from_deck(GameConfig(players=2, first_seat=1, empty_clues=True), top + deck)
    state = apply(state, Clue(0, colour=Suit.RED))
    state = apply(state, Clue(1, rank=5))  # bob holds no 5: an empty clue, allowed at this table
    assert Insight.of(view_for(state, 1)).last_clue == frozenset()


def test_a_view_that_cannot_be_rebuilt_is_not_rewound(pipe: PipeInput, tmp_path: Path) -> None:
    state = apply(new_game(GameConfig(players=2, first_seat=0), 1), Play(4))
    seated = seat_at(pipe, tmp_path, state)
    view = view_for(state, 0)
    five_r1s = tuple(replace(cv, card=Card(Suit.RED, 1)) for cv in view.hands[1])  # the deck holds three
    seated.store.dispatch(ViewUpdate(1, replace(view, hands=(view.hands[0], five_r1s))))
    screen = seated.keys("r")
    assert "this game cannot be rewound" in screen and "REWIND" not in screen


def test_the_glance_line_counts_in_words_one_clue_or_card_not_one_clues() -> None:
    state = stacked("R1 Y1 Y2 Y3 W3  Y5 G2 G3 B2 B2", 2, 0)
    state = apply(state, Clue(1, rank=5))  # alice: one clue, on the Y5
    line = "".join(text for _, text in glance_fragments(view_for(state, 0), 200))
    assert line.endswith("1 card for 1 clue"), line
    state = apply(state, Clue(0, rank=1))  # bob: a clue on R1 and Y1
    line = "".join(text for _, text in glance_fragments(view_for(state, 0), 200))
    assert line.endswith("3 cards for 2 clues"), line
