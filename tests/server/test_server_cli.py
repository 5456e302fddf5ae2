"""``hanabi-server`` on the command line: listing and exporting games, and clear refusals."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import trio
from hanabi.client.session import parse_address
from hanabi.engine import ChatPolicy, GameConfig, Variant, apply, legal_actions, new_game
from hanabi.engine.replay import SeatHolder
from hanabi.server.cli import default_db, host_port, main
from hanabi.server.records import TableSettings
from hanabi.server.store import Store


async def _store_with_games(path: Path) -> None:
    """One finished game (1) and one still running (2)."""
    store = Store(str(path))
    store.open_sync()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        table = await store.create_table("t", TableSettings(GameConfig(chat=ChatPolicy.OFF)), None, 0)
        for game_id, moves in ((1, None), (2, 3)):
            config = GameConfig(players=2)
            gid = await store.start_game(table, config, f"seed{game_id}", ("Ann", "Ben"))
            assert gid == game_id
            state = new_game(config, f"seed{game_id}")
            seq = 0
            while not state.over and (moves is None or seq < moves):
                action = legal_actions(state)[-1]
                state = apply(state, action)
                await store.add_action(gid, seq, action)
                seq += 1
            if state.outcome is not None:
                await store.finish_game(gid, state.outcome.score, state.outcome.reason.value)
        nursery.cancel_scope.cancel()
    store.close_sync()


async def test_games_and_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite3"
    await _store_with_games(db)
    assert main(["games", "--db", str(db), "--json"]) == 0
    listed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [g["id"] for g in listed] == [1] and listed[0]["players"] == ["Ann", "Ben"]
    out = tmp_path / "one.json"
    assert main(["export", "1", "--db", str(db), "-o", str(out)]) == 0
    assert json.loads(out.read_text())["players"] == ["Ann", "Ben"]
    assert main(["export", "2", "--db", str(db)]) == 2
    assert "still in progress" in capsys.readouterr().err
    assert main(["export", "2", "--db", str(db), "--unfinished"]) == 0
    assert len(json.loads(capsys.readouterr().out)["actions"]) == 3
    assert main(["export", "7", "--db", str(db)]) == 2
    assert "no game 7" in capsys.readouterr().err


async def test_export_never_overwrites_a_file_unless_told(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite3"
    await _store_with_games(db)
    out = tmp_path / "mine.json"
    out.write_text("my own notes")
    assert main(["export", "1", "--db", str(db), "-o", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err and out.read_text() == "my own notes"
    assert main(["export", "1", "--db", str(db), "-o", str(out), "--force"]) == 0
    assert json.loads(out.read_text())["players"] == ["Ann", "Ben"]


async def test_the_list_names_variants_as_the_client_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite3"
    await _store_with_games(db)
    assert main(["games", "--db", str(db)]) == 0
    listed = capsys.readouterr().out
    assert Variant.NONE.title in listed and Variant.NONE.value not in listed  # "no variant", never "No Variant"


@pytest.mark.parametrize("command", ["games", "export", "stats"])
def test_a_commands_help_names_the_default_store(command: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = "".join(capsys.readouterr().out.split())  # argparse wraps long paths, even at their hyphens
    assert "asabove" not in text and f"(default{tmp_path / 'hanabi' / 'server.sqlite3'})" in text


def test_the_address_to_give_players_is_one_the_client_takes() -> None:
    assert host_port("192.168.1.20", 7777) == "192.168.1.20:7777"
    assert host_port("::1", 17782) == "[::1]:17782"
    address = parse_address(host_port("::1", 17782))
    assert (address.host, address.port) == ("::1", 17782)


def test_the_help_shows_the_commands_as_optional(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    usage = capsys.readouterr().out
    assert "[COMMAND]" in usage and " COMMAND ..." not in usage.split("\n\n")[0]


def test_refusals_are_sentences(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--db", str(tmp_path / "missing.sqlite3")]) == 2
    assert "there is no game store" in capsys.readouterr().err
    assert main(["export", "1", "--db", str(tmp_path / "missing.sqlite3")]) == 2
    assert "there is no game store" in capsys.readouterr().err
    assert main(["--port", "70000", "--db", ":memory:"]) == 2
    assert "not a TCP port: choose one from 1 to 65535 (or 0: any free one)" in capsys.readouterr().err
    # A message of the day that no welcome could carry is refused at start, not sent as an error to everyone.
    assert main(["--port", "0", "--db", ":memory:", "--motd", "x" * 2001]) == 2
    err = capsys.readouterr().err
    assert "--motd" in err and "2000" in err
    notes = tmp_path / "notes.sqlite3"
    notes.write_text("not a database " * 200)
    assert main(["--port", "0", "--db", str(notes)]) == 2
    assert "cannot be used as a game store" in capsys.readouterr().err


def test_the_default_store_is_in_the_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db() == tmp_path / "hanabi" / "server.sqlite3"


async def test_the_store_may_be_named_before_or_after_the_command(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite3"
    await _store_with_games(db)
    assert main(["--db", str(db), "games"]) == 0
    assert main(["games", "--db", str(db)]) == 0
    assert capsys.readouterr().out.count("Ann, Ben") == 2


def _run_into_closed_pipe(args: list[str]) -> subprocess.CompletedProcess[str]:
    """``hanabi-server ARGS | head`` where head has already gone: stdout is a pipe nobody reads."""
    read, write = os.pipe()
    os.close(read)  # before the process writes anything, so its first write meets a broken pipe for certain
    try:
        return subprocess.run([sys.executable, "-m", "hanabi.server", *args], stdout=write, stderr=subprocess.PIPE,
                              text=True, timeout=30, env=os.environ.copy())
    finally:
        os.close(write)


async def test_output_cut_short_by_a_pipe_stops_quietly(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    await _store_with_games(db)
    for args in (["--db", str(db), "export", "1"], ["--db", str(db), "games"]):
        done = _run_into_closed_pipe(args)
        assert done.stderr == "", f"{args}: {done.stderr}"
        assert done.returncode == 141


class _Started(Exception):
    """The server these refusals expect never to start began to listen."""


@pytest.fixture
def refused_before_listening(monkeypatch: pytest.MonkeyPatch) -> None:
    """``main`` runs in the test's process: a server that started after all would serve until stopped, so the
    moment it listens (its first words) ends the test with a failure instead."""
    import hanabi.server.cli

    def listening(*_args: object) -> None:
        raise _Started("the server started listening instead of refusing")

    monkeypatch.setattr(hanabi.server.cli, "_say_where", listening)


@pytest.mark.usefixtures("refused_before_listening")
def test_a_host_name_that_does_not_resolve_is_named_as_such(capsys: pytest.CaptureFixture[str]) -> None:
    # --no-announce: should the name ever resolve, the server started here must not announce itself on a LAN.
    assert main(["--host", "nosuchhost.invalid", "--port", "0", "--db", ":memory:", "--no-announce"]) == 2
    err = capsys.readouterr().err
    assert "nosuchhost.invalid" in err and "cannot be resolved" in err
    assert "not an address" not in err


@pytest.mark.usefixtures("refused_before_listening")
def test_an_explicit_store_in_a_missing_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no" / "such" / "dir"
    assert main(["--port", "0", "--db", str(missing / "x.sqlite3")]) == 2
    assert f"the folder {missing} does not exist" in capsys.readouterr().err
    assert not (tmp_path / "no").exists()
    assert main(["--port", "0", "--db", ":memory:", "--abandon-after", "-1"]) == 2
    assert "--abandon-after cannot be negative" in capsys.readouterr().err


@pytest.mark.parametrize("delay", ["-1", "nan", "inf"])
def test_a_bot_delay_that_is_no_span_of_time_is_one_sentence(delay: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--bot-delay", delay, "--db", ":memory:"]) == 2
    assert f"--bot-delay {float(delay)} is not a span of time" in capsys.readouterr().err


@pytest.mark.parametrize(("db", "farewell"), [(":memory:", "are gone"), ("kept.sqlite3", "every game is saved")])
def test_the_last_words_on_sigterm_say_whether_games_were_kept(tmp_path: Path, db: str, farewell: str) -> None:
    store = db if db == ":memory:" else str(tmp_path / db)
    proc = subprocess.Popen([sys.executable, "-m", "hanabi.server", "--port", "0", "--host", "127.0.0.1",
                             "--db", store, "--log-level", "warning", "--no-announce"],
                            stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        assert proc.stdout is not None
        lines = []
        while not lines or "press Ctrl-C" not in lines[-1]:
            line = proc.stdout.readline()
            assert line, f"the server exited early: {lines}"
            lines.append(line)
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    last = out.strip().splitlines()[-1]
    assert farewell in last
    assert proc.returncode == 0


async def test_games_says_who_took_over_a_seat_from_which_turn(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite3"
    await _store_with_games(db)
    store = Store(str(db))
    store.open_sync()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        await store.seat_handed(1, None, True, [SeatHolder(0, 1, "Ben"), SeatHolder(4, 1, "Bot Basil", True)])
        await store.seat_handed(1, "k", False, [SeatHolder(8, 1, "Ben 2")])
        nursery.cancel_scope.cancel()
    store.close_sync()
    assert main(["games", "--db", str(db)]) == 0
    assert "took over: seat 2: Bot Basil from turn 5, Ben 2 from turn 9" in capsys.readouterr().out
    assert main(["games", "--db", str(db), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out.splitlines()[0])
    names = ["Ben", "Bot Basil", "Ben 2"]
    assert listed["players"] == ["Ann", "Ben"] and [h["name"] for h in listed["holders"]] == names
    assert main(["export", "1", "--db", str(db)]) == 0
    assert [h["name"] for h in json.loads(capsys.readouterr().out)["options"]["seatHolders"]] == names
