"""Every replay this program writes is a file hanab.live's JSON loader takes and replays as it was played.

``hanablive_loader.problems`` is a checker written from FORMAT.md (hanab.live's Go decoder, ``isJSONValid``,
then every action through hanab.live's rules); the checker is first shown to pass hanab.live's own files
and to catch what this program's exports used to get wrong (a ``seed``, a game-over value of 0).
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hanabi.engine import (
    GameConfig,
    GameState,
    Play,
    TurnAction,
    TurnEvent,
    Variant,
    apply,
    legal_actions,
    new_game,
    terminate,
)
from hanabi.engine.replay import from_json, to_json

from .hanablive_loader import problems
from .hanablive_reference import engine_names, result
from .test_engine_hanablive_games import GAMES

# Known defects of the derived files (SOURCES.md): the starting player and the characters were dropped.
_DAMAGED = {"hc_nv_6p_01.json", "hc_nv_6p_05.json", "hc_nv_6p_07.json", "hc_nv_3p_19.json"}


def _real_games() -> list[Path]:
    if not GAMES.is_dir():
        return []
    return [p for p in sorted(GAMES.glob("*.json")) if "unsupported" not in p.name and p.name not in _DAMAGED]


@pytest.mark.skipif(not GAMES.is_dir(), reason="no hanab.live games folder")
@pytest.mark.parametrize("path", _real_games(), ids=lambda p: p.name)
def test_the_checker_takes_hanablives_own_files(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("seed", None)  # hanab.live's own seed gives its own deck back; ours would not
    assert problems(data) == []


def _old_export() -> dict[str, Any]:
    """What this program wrote before: the seed, and a stopped game's end condition as 0."""
    state = terminate(apply(new_game(GameConfig(first_seat=0), "42"), Play(0)))
    data = to_json(state)
    data["seed"] = "42"
    data["actions"][-1]["value"] = 0
    return data


def test_the_checker_catches_what_exports_used_to_get_wrong() -> None:
    data = _old_export()
    found = problems(data)
    assert any("seed" in p for p in found) and any("end condition 0" in p for p in found)
    data["seed"] = 42
    assert problems(data) == ["seed is not a string"]  # Go drops the whole file
    assert problems({**to_json(new_game(GameConfig(first_seat=0), 1)), "actions": []}) == [
        "there is no action: hanab.live needs at least one"]
    broken = to_json(apply(new_game(GameConfig(first_seat=0), 1), Play(0)))
    broken["deck"][0]["rank"] = 1.0
    assert problems(broken) == ["deck[0].rank is not a whole number"]
    illegal = to_json(apply(new_game(GameConfig(first_seat=0), 1), Play(0)))
    illegal["actions"].append({"type": 0, "target": 0})  # card 0 has already been played
    assert problems(illegal) and "not valid" in problems(illegal)[0]


def _playable(state: GameState, order: int) -> bool:
    card = state.deck[order]
    return state.fireworks[state.config.variant.suits.index(card.suit)] == card.rank - 1


def _random_game(seed: int, players: int | None = None) -> GameState:
    """A game with random options and random legal moves (plays favoured), sometimes stopped midway; ``players``
    random from 2 to 5 unless given."""
    rng = random.Random(seed)
    players = rng.randint(2, 5) if players is None else players
    config = GameConfig(players=players, variant=rng.choice(list(Variant)), empty_clues=rng.random() < 0.3,
                        all_or_nothing=rng.random() < 0.2, first_seat=rng.randrange(players),
                        deck_plays=rng.random() < 0.5, end_when_no_points=rng.random() < 0.5)
    state = new_game(config, seed)
    stop = rng.randint(1, 120) if rng.random() < 0.2 else None
    while not state.over:
        if stop is not None and state.turn >= stop:
            return terminate(state, "a player stopped the game")
        actions = legal_actions(state)
        # Mostly a careful player who peeks (plays what plays, else clues or discards), sometimes a wild one.
        good = [a for a in actions if isinstance(a, Play) and _playable(state, a.order)]
        calm = [a for a in actions if not isinstance(a, Play)]
        if Play(len(state.deck) - 1) in actions and rng.random() < 0.5:
            choice: list[TurnAction] = [Play(len(state.deck) - 1)]  # the deck's last card, blind (deck_plays)
        elif rng.random() < 0.05 or not (good or calm):
            choice = actions
        else:
            choice = good if good and rng.random() < 0.7 else calm or good
        state = apply(state, rng.choice(choice))
    return state


# A sweep over whole or random games: untraced (docs/developing.md); the other tests reach every branch it does.
@pytest.mark.no_cover
@pytest.mark.parametrize(("seed", "players"), [(seed, None) for seed in range(60)] + [(seed, 6) for seed in range(12)])
def test_every_export_loads_in_hanablive_and_replays_as_it_was_played(seed: int, players: int | None) -> None:
    state = _random_game(seed, players)
    data = json.loads(json.dumps(to_json(state)))
    assert problems(data) == []
    # hanab.live ends early whatever the file says; a table without the option may have played on, and
    # hanab.live's loader plays on with it: compare with the reference playing on too.
    there = result(copy.deepcopy(data), early_end=state.config.end_when_no_points)
    outcome = state.outcome
    assert outcome is not None
    assert outcome.reason.value in engine_names(there["why"], there["score"], outcome.max_score), (there, outcome)
    assert (there["score"], there["turn"], there["strikes"]) == (outcome.score, state.turn, state.strikes)
    back = from_json(data).state  # and it reads back here as the same game (a stop's wording aside)
    assert back.outcome is not None and back.outcome.reason is outcome.reason
    assert replace(back, seed=state.seed, outcome=outcome) == state


def test_a_game_with_a_deck_play_exports_for_hanablive() -> None:
    for seed in range(400):
        state = _random_game(seed)
        last = len(state.deck) - 1
        turns = [e for e in state.events if isinstance(e, TurnEvent)]
        # The deck's last card was played but never drawn into a hand: played blind from the deck.
        if any(e.action == Play(last) for e in turns) and all(e.drawn != last for e in turns):
            break
    else:
        pytest.fail("no random game played the deck's last card blind")
    data = to_json(state)
    assert data["options"]["deckPlays"] is True and problems(data) == []
