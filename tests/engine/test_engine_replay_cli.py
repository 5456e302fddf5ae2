"""``hanabi-replay`` and the replay reader: readable and JSON summaries, and every kind of bad file.

A bad file must get one clear error naming the file, must not stop the other files, and must never show a
traceback; the exit code is then 2.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hanabi.engine import GameConfig, apply, legal_actions, new_game
from hanabi.engine.cli import main
from hanabi.engine.replay import ReplayError, dumps, from_json, load, to_json

REPLAYS = Path(__file__).parent / "replays"
PERFECT = REPLAYS / "no_variant_perfect.json"
STRIKEOUT = REPLAYS / "no_variant_strikeout.json"


def good_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PERFECT.read_text(encoding="utf-8"))
    return data


def write(tmp_path: Path, name: str, content: object) -> Path:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


def test_readable_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(PERFECT), str(STRIKEOUT)]) == 0
    out = capsys.readouterr().out
    assert f"{PERFECT}: no variant, 2 players (Alice, Bob)" in out  # the variant as the client names it
    assert "score 25/25 — legendary; every firework complete" in out
    assert "fireworks 5 5 5 5 5; strikes 0; clue tokens 8; 25 turns; 16 cards left in the deck" in out
    assert f"{STRIKEOUT}: no variant, 3 players (Alice, Bob, Cathy)" in out
    assert "; lost (the third strike: the fireworks exploded)" in out  # said once, not twice
    assert out.index(str(PERFECT)) < out.index(str(STRIKEOUT))


def test_json_is_one_object_per_line_in_file_order(capsys: pytest.CaptureFixture[str]) -> None:
    files = [STRIKEOUT, PERFECT, STRIKEOUT]
    assert main(["--json", *map(str, files)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    objects = [json.loads(line) for line in lines]
    assert [o["file"] for o in objects] == [str(f) for f in files]
    for o in objects:
        assert {"score", "max_score", "strikes", "clue_tokens", "fireworks", "turns", "end", "deck_left"} <= set(o)
    assert objects[1]["end"] == "perfect" and objects[0]["end"] == "strikeout"


def bad_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Each bad file, with a piece of the error it must get."""
    short = good_data()
    short["deck"] = short["deck"][:-1]
    extra = good_data()
    extra["deck"].append({"suitIndex": 5, "rank": 1})
    illegal = good_data()
    illegal["actions"][3] = {"type": 1, "target": 6}  # a discard with all 8 tokens
    not_held = good_data()
    not_held["actions"][0] = {"type": 0, "target": 7}  # seat 0 plays seat 1's card
    rainbow = json.loads((REPLAYS / "rainbow_clues.json").read_text(encoding="utf-8"))
    rainbow["actions"][0]["value"] = 5  # multicolor cannot be named in Rainbow
    variant = good_data()
    variant["options"]["variant"] = "Purple (7 Suits)"
    lonely = good_data()
    lonely["players"] = ["Alice"]
    after = good_data()
    after["actions"].append({"type": 0, "target": 30})
    return {
        "missing": (tmp_path / "nowhere.json", "no such file"),
        "not json": (write(tmp_path, "broken.json", '{"players": ['), "not valid JSON"),
        "not an object": (write(tmp_path, "list.json", [1, 2]), "must be a JSON object"),
        "deep": (write(tmp_path, "deep.json", "[" * 100_000), "nested too deeply"),
        "short deck": (write(tmp_path, "short.json", short), "it has 49: missing W4"),
        "wrong cards": (write(tmp_path, "extra.json", extra), "deck card 50 suitIndex is 5, out of range 0..4"),
        "illegal action": (write(tmp_path, "illegal.json", illegal),
                           'action 3 ({"type": 1, "target": 6}) is illegal: cannot discard with all 8 clue tokens'),
        "card not held": (write(tmp_path, "notheld.json", not_held), "action 0 ("),
        "wild colour": (write(tmp_path, "rainbow.json", rainbow), "action 0 colour is 5, out of range 0..4"),
        "variant": (write(tmp_path, "variant.json", variant), 'unknown variant "Purple (7 Suits)"'),
        "players": (write(tmp_path, "lonely.json", lonely), "2 to 6 players"),
        "after the end": (write(tmp_path, "after.json", after), "action 25 comes after the end of the game"),
        "folder": (tmp_path, "a folder"),
    }


@pytest.mark.parametrize("kind", [
    "missing", "not json", "not an object", "deep", "short deck", "wrong cards", "illegal action",
    "card not held", "wild colour", "variant", "players", "after the end", "folder",
])
def test_a_bad_file_gets_a_clear_error_and_the_others_still_run(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str) -> None:
    bad, words = bad_files(tmp_path)[kind]
    files = [str(PERFECT), str(bad), str(STRIKEOUT)]

    assert main(["--json", *files]) == 2
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert [line["file"] for line in lines] == files
    assert lines[0]["score"] == 25 and lines[2]["end"] == "strikeout"
    assert set(lines[1]) == {"file", "error"} and words in lines[1]["error"]
    assert "Traceback" not in captured.out + captured.err

    assert main(files) == 2
    captured = capsys.readouterr()
    assert f"hanabi-replay: {bad}: " in captured.err and words in captured.err
    assert str(PERFECT) in captured.out and str(STRIKEOUT) in captured.out
    assert "Traceback" not in captured.out + captured.err


def test_the_real_command_exits_2_without_a_traceback(tmp_path: Path) -> None:
    broken = write(tmp_path, "broken.json", "not json at all")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run([sys.executable, "-m", "hanabi.engine.cli", str(broken), str(PERFECT)],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2
    assert f"hanabi-replay: {broken}: not valid JSON" in done.stderr
    assert "Traceback" not in done.stderr
    assert "score 25/25" in done.stdout


def test_no_file_at_all_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main([])
    assert caught.value.code == 2
    assert "FILE.json" in capsys.readouterr().err


# ---- the reader itself ----------------------------------------------------------------------


def test_plays_and_discards_need_no_value() -> None:
    data = good_data()
    assert all("value" not in a for a in data["actions"])
    assert from_json(data).state.score == 25


def test_a_clue_needs_a_value() -> None:
    data = good_data()
    data["actions"][0] = {"type": 3, "target": 1}
    with pytest.raises(ReplayError, match="action 0 is a clue without a value"):
        from_json(data)


@pytest.mark.parametrize(("field", "value", "words"), [
    ("allOrNothing", "yes", 'options.allOrNothing must be true or false, not "yes"'),
    ("emptyClues", 1, "options.emptyClues must be true or false, not 1"),
    ("startingPlayer", 2, "options.startingPlayer is 2, out of range 0..1"),
])
def test_bad_options(field: str, value: object, words: str) -> None:
    data = good_data()
    data["options"][field] = value
    with pytest.raises(ReplayError) as caught:
        from_json(data)
    assert words in str(caught.value)


def test_true_is_not_a_number_in_a_replay() -> None:
    data = good_data()
    data["actions"][0] = {"type": 0, "target": True}
    with pytest.raises(ReplayError, match="must be a whole number, not true"):
        from_json(data)


def test_a_running_game_exports_and_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = new_game(GameConfig(players=4), seed="running")
    for _ in range(7):
        state = apply(state, legal_actions(state)[0])
    path = write(tmp_path, "running.json", dumps(state))
    assert load(path).state.events == state.events
    assert main(["--json", str(path)]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["end"] == "in_progress" and line["turns"] == 7 and line["deck_left"] == state.deck_left


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    # Like ``hanabi-replay *.json | head -1``: the pipe closes while the command is still printing.
    small = str(REPLAYS / "no_variant_starting_player.json")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    with subprocess.Popen([sys.executable, "-m", "hanabi.engine.cli", "--json", *[small] * 3000],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) as child:
        assert child.stdout is not None and child.stderr is not None
        first = child.stdout.readline()
        child.stdout.close()
        err = child.stderr.read().decode()
        child.wait(timeout=60)
    assert json.loads(first)["score"] == 2
    assert "Traceback" not in err and "Error" not in err


@pytest.mark.parametrize(("name", "words"), [
    ("x" * 5000, "must be 1 to 32 characters long, not 5000"),
    ("", "must be 1 to 32 characters long, not 0"),
    (" bob", "starts or ends with white space"),
    ("bo\tb", "control character U+0009"),
])
def test_replay_names_follow_the_rule_for_players_names(name: str, words: str) -> None:
    data = to_json(new_game(GameConfig(players=2), "names"), ["Ann", "Ben"])
    data["players"][1] = name
    with pytest.raises(ReplayError) as refused:
        from_json(data)
    assert "player 2's name" in str(refused.value) and words in str(refused.value)
    assert len(str(refused.value)) < 200  # a 5,000-character name is not quoted whole


def test_a_real_game_lost_on_the_clock_is_summarised(capsys: pytest.CaptureFixture[str]) -> None:
    # A hanab.live game that ended when Emily's time ran out (a game-over action with end condition 3).
    timed_out = Path(__file__).parent / "hanablive" / "games" / "hc_nv_5p_18.json"
    assert main([str(timed_out)]) == 0
    captured = capsys.readouterr()
    assert "lost on the clock" in captured.out and "ran out of time" in captured.out
    assert captured.err == ""


def test_every_end_of_a_game_has_words() -> None:
    from hanabi.engine import EndReason
    from hanabi.engine.cli import ENDS

    assert {reason.value for reason in EndReason} | {"in_progress"} == set(ENDS)


def test_a_file_played_with_advice_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    advised = good_data()
    advised["options"] = {**advised.get("options", {}), "adviceUsed": True}
    files = [write(tmp_path, "advised.json", advised), write(tmp_path, "alone.json", good_data())]
    assert main([str(f) for f in files]) == 0
    advised_text, alone_text = capsys.readouterr().out.split("alone.json")
    assert "played with advice" in advised_text and "advice" not in alone_text
    assert main(["--json", *map(str, files)]) == 0
    objects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["advice_used"] for o in objects] == [True, False]
