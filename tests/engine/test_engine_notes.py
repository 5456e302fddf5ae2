"""Notes on cards in the engine: their rules, the card a note names, and hanab.live's ``notes`` field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hanabi.engine import (
    NOTE_MAX,
    Card,
    CardKnowledge,
    Clue,
    GameConfig,
    Suit,
    Variant,
    apply,
    contradicted,
    likely_identity,
    named_cards,
    new_game,
    note_problem,
    note_target_problem,
    view_for,
)
from hanabi.engine.notes import notes_from_json, notes_to_json
from hanabi.engine.replay import ReplayError, dumps, from_json, load, to_json
from hypothesis import given
from hypothesis import strategies as st

from .hanablive_loader import problems

GAMES = Path(__file__).parent / "hanablive" / "games"


def test_a_note_is_one_line_of_at_most_note_max_characters() -> None:
    assert note_problem("f") is None
    assert note_problem("") is None  # no note: deletes one
    assert note_problem("x" * NOTE_MAX) is None
    assert "at most 100 characters" in (note_problem("x" * (NOTE_MAX + 1)) or "")
    assert "U+000A" in (note_problem("two\nlines") or "")


def test_a_note_goes_on_a_drawn_card_only() -> None:
    # 50 cards, 40 left: orders 0..9 have been dealt.
    assert note_target_problem(50, 40, 0) is None
    assert note_target_problem(50, 40, 9) is None
    assert "still in the deck" in (note_target_problem(50, 40, 10) or "")
    assert "no card 50" in (note_target_problem(50, 40, 50) or "")
    assert "no card -1" in (note_target_problem(50, 40, -1) or "")


@pytest.mark.parametrize(("text", "cards"), [
    ("r1", ["R1"]), ("R1", ["R1"]), ("red 1", ["R1"]), ("b5", ["B5"]), ("Red1 or b2", ["R1", "B2"]),
    ("p2", ["W2"]),  # hanab.live's purple is our white
    ("f", []), ("cm", []), ("T25 I think red to Bob is better", []), ("turn 18", []), ("kt", []),
    ("turn 3: r1,b1 | turn 5: b1", ["B1"]),  # only the last part counts
    ("m3", []),  # no multicolor suit in No Variant
])
def test_the_cards_a_note_names(text: str, cards: list[str]) -> None:
    assert [str(c) for c in named_cards(text, Variant.NONE)] == cards


def test_a_sixth_suit_is_named_in_a_variant_that_has_one() -> None:
    assert named_cards("m3", Variant.SIX_SUITS) == [Card(Suit.MULTICOLOR, 3)]
    assert likely_identity("teal 4", Variant.WILD_MULTICOLOR) == Card(Suit.MULTICOLOR, 4)
    assert likely_identity("r1 b1", Variant.NONE) is None  # two cards: a guess, not an identity


def test_a_clue_that_rules_out_the_noted_card_contradicts_the_note() -> None:
    state = new_game(GameConfig(players=2), "notes")
    hand = view_for(state, 0).hands[0]
    unknown = hand[0].knowledge
    assert not contradicted("r1", Variant.NONE, unknown)
    # Seat 1 clues seat 0 with the rank of seat 0's first card: that card can no longer be any other rank.
    first = state.deck[hand[0].order]
    clued = apply(state, Clue(0, rank=first.rank), seat=1) if state.current == 1 else \
        apply(apply(state, Clue(1, rank=state.deck[view_for(state, 1).hands[1][0].order].rank)),
              Clue(0, rank=first.rank))
    knowledge = next(cv.knowledge for cv in view_for(clued, 0).hands[0] if cv.order == hand[0].order)
    other_rank = 1 if first.rank != 1 else 2
    assert contradicted(f"r{other_rank}", Variant.NONE, knowledge)
    assert not contradicted(f"r{first.rank}", Variant.NONE, knowledge)
    assert not contradicted("f", Variant.NONE, knowledge)  # names no card: nothing to contradict
    assert not contradicted(f"r{other_rank} r{first.rank}", Variant.NONE, knowledge)  # one of them may be


def test_a_card_known_from_clues_can_be_only_itself() -> None:
    knowledge = CardKnowledge(possible=1 << Card(Suit.BLUE, 5).identity)
    assert contradicted("r1", Variant.NONE, knowledge)
    assert not contradicted("b5", Variant.NONE, knowledge)


def test_notes_go_into_the_replay_and_come_back() -> None:
    state = new_game(GameConfig(players=3), "exported")
    state = apply(state, Clue((state.current + 1) % 3, rank=state.deck[state.hands[(state.current + 1) % 3][0]].rank))
    notes = ({0: "f", 7: "r1"}, {}, {14: "cm | b5"})
    data = json.loads(dumps(state, ["Ann", "Ben", "Cy"], notes))
    assert data["notes"] == [["f", "", "", "", "", "", "", "r1"], [], [""] * 14 + ["cm | b5"]]
    assert problems(data) == []  # hanab.live's loader takes the field as written
    back = from_json(data)
    assert back.notes == notes


def test_a_replay_without_notes_has_no_notes_field() -> None:
    state = new_game(GameConfig(players=2), "plain")
    assert "notes" not in to_json(state, None, ({}, {}))
    assert from_json(to_json(state)).notes == ()


def test_notes_of_the_wrong_number_of_seats_are_a_bug() -> None:
    with pytest.raises(ValueError, match="notes of 1 seats for 2 players"):
        to_json(new_game(GameConfig(players=2), "x"), None, ({0: "f"},))


@pytest.mark.parametrize(("notes", "message"), [
    ("f", '"notes" must be a list'),
    ([["f"], ["f"], ["f"]], '"notes" has 3 lists of notes for 2 players'),
    ([[1]], "player 1's note on card 0 must be text"),
])
def test_a_bad_notes_field_is_refused_with_a_sentence(notes: object, message: str) -> None:
    data = to_json(new_game(GameConfig(players=2), "bad"))
    data["notes"] = notes
    with pytest.raises(ReplayError, match=message):
        from_json(data)


def test_a_real_hanab_live_file_s_notes_are_read() -> None:
    replay = load(GAMES / "hl_no_variant_149251.json")
    assert len(replay.notes) == 5
    assert replay.notes[0][9] == "DOES HE STILL HAVE THIS?"
    assert replay.notes[1][0] == "r3, r4"
    # Notes on the stack bases (past the deck) are left out; a note's control characters become spaces.
    data = json.loads((GAMES / "hl_no_variant_149251.json").read_text())
    data["notes"][0] = ["a\tb"] + [""] * 55
    assert from_json(data).notes[0] == {0: "a b"}


# Drawn from the characters a note may hold (CONTROL's are Cc, U+2028 Zl and U+2029 Zp) rather than filtered after:
# the same texts, without generating and throwing away many of them (half the CPU of this property).
_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Zl", "Zp")), min_size=1, max_size=NOTE_MAX
                ).filter(lambda t: t.strip() != "" and note_problem(t) is None)


# A sweep over whole or random games: untraced (docs/developing.md); the other tests reach every branch it does.
@pytest.mark.no_cover
@given(st.lists(st.dictionaries(st.integers(0, 59), _TEXT, max_size=20), min_size=2, max_size=5))
def test_any_notes_come_back_from_hanab_live_s_field_as_they_were(notes: list[dict[int, str]]) -> None:
    data = json.loads(json.dumps(notes_to_json(notes, 60)))
    assert notes_from_json(data, len(notes), 60) == tuple(notes)
