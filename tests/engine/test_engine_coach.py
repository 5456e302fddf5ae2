"""The coach: advice from a seat's view only, and the moments of a finished game."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hanabi.engine import (
    Clue,
    Discard,
    GameConfig,
    GameState,
    Play,
    TurnEvent,
    apply,
    legal_actions,
    new_game,
    view_for,
)
from hanabi.engine.bots import make_bot
from hanabi.engine.coach import (
    CLUE_MISPLAYED,
    CRITICAL_DISCARD,
    MISPLAY,
    MISSED_PLAY,
    MISSED_SAVE,
    advice_for,
    convention_of,
    find_moments,
    game_steps,
)
from hanabi.engine.replay import ReplayError, dumps, from_json
from hanabi.engine.stats import Prospects
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

DOCS = Path(__file__).resolve().parents[2] / "docs"


def careless_game(seed: int, players: int = 2, people: frozenset[int] = frozenset({0}), play_often: float = 0.3,
                  ) -> GameState:
    """A game where the house bot sits in every seat but ``people``, who play like the bot except that now
    and then they play or discard their newest card on a whim."""
    rng = random.Random(seed)
    state = new_game(GameConfig(players=players), seed)
    bot_seats = frozenset(range(players)) - people
    bots = {seat: make_bot(bot_seats=bot_seats) for seat in range(players)}
    while not state.over:
        seat = state.current
        action = bots[seat].choose(view_for(state, seat))
        if seat in people and rng.random() < play_often:
            newest = state.hands[seat][0]
            action = Play(newest) if rng.random() < 0.6 or state.clue_tokens == 8 else Discard(newest)
        state = apply(state, action)
    return state


def swapped_hidden_cards(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """The same game with the seat's own cards and the undrawn deck dealt otherwise, each own card still one
    its clues allow: every seat but ``seat`` may see something new, ``seat`` sees the same. None when the
    draw left no card some own card's clues allow."""
    deck = list(state.deck)
    pool = list(state.hands[seat]) + list(range(state.next_draw, len(deck)))
    cards = [state.deck[o] for o in pool]
    rng.shuffle(cards)
    own = state.hands[seat]
    for order in sorted(own, key=lambda o: state.knowledge[o].possible.bit_count()):  # the most clued first
        fits = [c for c in cards if state.knowledge[order].can_be(c)]
        if not fits:
            return None
        deck[order] = rng.choice(fits)
        cards.remove(deck[order])
    for order in pool[len(own):]:
        deck[order] = cards.pop()
    return GameState(state.config, state.seed, tuple(deck), state.hands, state.knowledge, state.next_draw,
                     state.fireworks, state.clue_tokens, state.strikes, state.discard, state.played, state.current,
                     state.turn, state.final_turns_left, state.outcome, state.events)


@pytest.mark.no_cover  # a random game per example: untraced; the focused tests below reach the coach's branches
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 40), players=st.integers(2, 5), shuffle=st.randoms())
def test_advice_is_the_same_for_two_games_the_seat_sees_alike(seed: int, turns: int, players: int,
                                                                shuffle: random.Random) -> None:
    state = new_game(GameConfig(players=players), seed)
    bots = [make_bot() for _ in range(players)]
    for _ in range(turns):
        if state.over:
            break
        state = apply(state, bots[state.current].choose(view_for(state, state.current)))
    assume(not state.over)
    seat = state.current
    other = swapped_hidden_cards(state, seat, shuffle)
    assume(other is not None)
    assert other is not None
    assert view_for(other, seat) == view_for(state, seat)
    level_and_seats = {"level": "beginner", "bot_seats": frozenset(range(players)) - {seat}}
    assert advice_for(other, seat, **level_and_seats) == advice_for(state, seat, **level_and_seats)  # type: ignore[arg-type]


def test_advice_names_a_move_a_reason_and_a_section_of_the_bots_page() -> None:
    state = new_game(GameConfig(players=3), 7)
    advice = advice_for(state, state.current, names=("Ada", "Bob", "Cy"))
    first, second = advice.lines()
    assert advice.action in state_legal(state)
    assert first.startswith(f"The house bot would {advice.move}: ")
    assert advice.reason and "seat " not in advice.reason  # seats by name
    assert f'"{advice.section}"' in second and "docs/bots.md" in second


def state_legal(state: GameState) -> list[object]:
    return list(legal_actions(state))


def test_every_convention_the_coach_names_has_its_section_in_the_bots_page() -> None:
    headings = {m.group(1).strip() for m in re.finditer(r"^#+ (.+)$", (DOCS / "bots.md").read_text(), re.M)}
    reasons = ["cluing seat 2 5: saving the only R5 left on their chop", "a clue was a finesse on me: blind-playing",
               "cluing seat 2 3: a finesse on their own hand, leading to R3", "our conventions say my slot 1 is R1",
               "the clues and the cards I see say my slot 2 is B1: playable", "nothing to play or clue: discarding my "
               "chop (slot 5)", "my slot 2 can only be a card no longer needed", "something new",
               "cluing seat 1 red: their R1 (slot 3) is playable: now they know it is red, and a clue on its rank "
               "will prove it"]
    for reason in reasons:
        section = convention_of(reason)[1]
        assert section in headings, (reason, section)
    assert convention_of(reasons[0])[0] == "save clue"
    assert convention_of(reasons[2])[0] == "self-finesse"
    assert convention_of(reasons[1])[0] == "finesse"
    assert convention_of(reasons[-1])[0] == "a clue read literally"


@pytest.mark.no_cover  # six whole games, every step judged: untraced
def test_a_persons_misplays_are_moments_and_the_bots_moves_are_never_judged() -> None:
    found = 0
    for seed in range(6):
        final = careless_game(seed)
        moments = find_moments(final, people=frozenset({0}))
        assert all(m.seat == 0 for m in moments)
        misplays = [i for i, e in enumerate(final.events)
                    if isinstance(e, TurnEvent) and isinstance(e.action, Play) and not e.success and e.seat == 0]
        flagged = [m.step for m in moments if m.kind == MISPLAY]
        assert set(flagged) <= set(misplays)
        # the bot never plays a card it does not believe playable; a careless play of the newest card is a
        # misplay the bot would not have made
        assert len(flagged) >= len(misplays) - 1
        found += len(flagged)
        for m in moments:
            assert m.turn == final.events[m.step].turn + 1
            assert m.advice.action != final.events[m.step].action
    assert found > 0


@pytest.mark.no_cover  # twelve whole games, every step judged: untraced
def test_a_critical_discard_and_a_save_not_given_are_moments() -> None:
    kinds: set[str] = set()
    for seed in range(12):
        final = careless_game(seed, players=3, people=frozenset({0, 1}), play_often=0.4)
        for m in find_moments(final, people=frozenset({0, 1})):
            kinds.add(m.kind)
            event = final.events[m.step]
            assert isinstance(event, TurnEvent)
            if m.kind == CRITICAL_DISCARD:
                assert isinstance(event.action, Discard)
                before = final.events[:m.step]
                gone = [e.card for e in before if isinstance(e, TurnEvent) and e.card is not None and not e.success]
                fireworks = _fireworks_before(final, m.step)
                assert event.card is not None
                assert Prospects.of(final.config.variant, fireworks, [c for c in gone if c]).critical(event.card)
            if m.kind == MISSED_SAVE:
                assert isinstance(m.advice.action, Clue)
    assert {MISPLAY, CRITICAL_DISCARD} <= kinds
    assert kinds <= {MISPLAY, CRITICAL_DISCARD, MISSED_SAVE, MISSED_PLAY, CLUE_MISPLAYED}


def _fireworks_before(final: GameState, step: int) -> tuple[int, ...]:
    heights = [0] * len(final.config.variant.suits)
    for event in final.events[:step]:
        if isinstance(event, TurnEvent) and event.success and event.card is not None:
            heights[final.config.variant.suits.index(event.card.suit)] += 1
    return tuple(heights)


def test_moments_come_back_the_same_from_the_replay_file_alone() -> None:
    final = careless_game(3, players=3, people=frozenset({0, 1, 2}))
    names = ("Ada", "Bob", "Cy")
    again = from_json(json.loads(dumps(final, names))).state
    moments = find_moments(final, names=names)
    assert moments
    assert find_moments(again, names=names) == moments
    assert all(line for m in moments for line in m.lines())


def test_a_replay_file_says_whether_advice_was_used() -> None:
    final = careless_game(1)
    assert from_json(json.loads(dumps(final))).advice_used is False
    marked = json.loads(dumps(final, advice_used=True))
    assert marked["options"]["adviceUsed"] is True
    assert from_json(marked).advice_used is True
    marked["options"]["adviceUsed"] = "yes"
    with pytest.raises(ReplayError, match="adviceUsed must be true or false"):
        from_json(marked)


def test_advice_after_a_deck_play_reads_the_blind_played_card_as_in_no_hand() -> None:
    from hanabi.engine.replay import load

    games = Path(__file__).resolve().parent / "hanablive" / "games"
    final = load(games / "hc_nv_3p_20.json").state  # a real game whose deck's last card was played blind
    deck_plays = [e for e in final.events if isinstance(e, TurnEvent) and isinstance(e.action, Play)
                  and e.action.order == len(final.deck) - 1]
    assert deck_plays and final.config.deck_plays
    after = [state for step, state in game_steps(final) if step > final.events.index(deck_plays[0])]
    assert after
    for state in after:
        if not state.over:
            assert advice_for(state, state.current).action in legal_actions(state)


def test_moments_of_a_game_with_a_deck_play_name_it_so() -> None:
    from hanabi.engine.coach import _done_words
    from hanabi.engine.replay import load

    games = Path(__file__).resolve().parent / "hanablive" / "games"
    final = load(games / "hc_nv_5p_19.json").state  # its deck's last card was played blind
    find_moments(final, names=("a", "b", "c", "d", "e"))  # reads every move, the deck play among them
    blind = Play(len(final.deck) - 1)
    state = next(state for step, state in game_steps(final)
                 if isinstance(final.events[step], TurnEvent) and final.events[step].action == blind)
    assert "the deck's last card blind" in _done_words(blind, state, ())


@pytest.mark.no_cover  # four real games, every step judged: untraced
def test_a_moment_mattered_a_card_played_is_no_missed_play_and_a_missed_save_was_lost() -> None:
    from hanabi.engine.replay import load

    games = Path(__file__).resolve().parent / "hanablive" / "games"
    kinds: set[str] = set()
    for name in ("hc_nv_3p_05.json", "hc_nv_2p_01.json", "hc_nv_4p_03.json", "hc_nv_5p_02.json"):
        final = load(games / name).state
        for m in find_moments(final):
            kinds.add(m.kind)
            event = final.events[m.step]
            assert isinstance(event, TurnEvent)
            if m.kind == MISSED_PLAY:  # another card played that played is no mistake: only a throw, or a delay
                assert not (isinstance(event.action, Play) and event.success), (name, m)
                assert isinstance(m.advice.action, Play)
            if m.kind == MISSED_SAVE:  # the card the clue would have saved was thrown away later, unclued
                clue = m.advice.action
                assert isinstance(clue, Clue) and "thrown away" in m.why
                lost = [e for e in final.events[m.step + 1:] if isinstance(e, TurnEvent) and e.card is not None
                        and not e.success and e.seat == clue.target]
                assert lost, (name, m)
    assert MISPLAY in kinds


def _clue_touches(state: GameState, clue: Clue, order: int) -> bool:
    variant = state.config.variant
    mask = variant.colour_mask(clue.colour) if clue.colour is not None else variant.rank_mask(clue.rank or 0)
    return bool(mask >> state.deck[order].identity & 1)


@pytest.mark.parametrize(("seed", "players"), [(22, 2), (3, 3), (5, 2)])
def test_a_clues_reason_speaks_of_that_clue_and_does_not_say_it_twice(seed: int, players: int) -> None:
    # In these games the house bot would give a clue that proves a card it does not touch playable, by what the
    # clue says the card is not; the reason names that card, so it must say how the clue shows it.
    final = careless_game(seed, players)
    states = dict(game_steps(final))
    names = tuple(f"Bot {n}" for n in ("Ada", "Basil", "Cy")[:players])
    clue_advice = 0
    for moment in find_moments(final, people=frozenset({0}), names=names):
        advice = moment.advice
        assert not advice.reason.startswith("cluing "), advice.reason  # the move already names the clue
        if not isinstance(advice.action, Clue):
            continue
        clue_advice += 1
        state = states[moment.step]
        hand = state.hands[advice.action.target]
        for part in advice.reason.split("; "):
            for slot in re.findall(r"\(slot (\d)\)", part):
                touched = _clue_touches(state, advice.action, hand[int(slot) - 1])
                assert touched or f"not {advice.action.value}," in part, (moment.step, advice.move, advice.reason)
    assert clue_advice
