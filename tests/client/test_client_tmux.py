"""End to end in a real terminal: the real server and two real clients in tmux, driven by keystrokes.

Alice creates a table, Bob joins, Alice seats a bot and starts; then each
human plays when the screen says it is their turn (slot 1, confirming the
blind play), until the game ends. The screens are read with capture-pane.
Alice then saves the replay, which must load in the engine, and quits; the
client must exit cleanly. Skipped when tmux is not installed.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hanabi.engine.replay import load

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
DEADLINE = 120.0  # seconds for the whole game; it usually takes a few


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Tmux:
    """A private tmux server (its own socket) holding one window per client."""

    def __init__(self, socket_name: str, cwd: Path) -> None:
        self.base = [TMUX or "tmux", "-L", socket_name, "-f", os.devnull]
        self.cwd = cwd

    def run(self, *args: str) -> str:
        done = subprocess.run([*self.base, *args], capture_output=True, text=True, timeout=10, check=True)
        return done.stdout

    def start(self, name: str, command: str) -> None:
        # Resume tokens go to the test's folder, not the user's.
        state = shlex.quote(str(self.cwd / "state"))
        shell = f"XDG_STATE_HOME={state} {command}; echo CLIENT-EXIT=$?; sleep 60"
        self.run("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", str(self.cwd), shell)

    def keys(self, name: str, *keys: str) -> None:
        self.run("send-keys", "-t", name, *keys)

    def screen(self, name: str) -> str:
        return self.run("capture-pane", "-p", "-t", name)

    def wait_for(self, name: str, check: Callable[[str], bool], what: str, timeout: float = 20.0) -> str:
        end = time.monotonic() + timeout
        text = ""
        while time.monotonic() < end:
            text = self.screen(name)
            if check(text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"{name}'s screen never showed {what}; it shows:\n{text}")

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True, timeout=10, check=False)


@pytest.fixture
def server() -> Iterator[int]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "hanabi.server", "--host", "127.0.0.1", "--port", str(port), "--db", ":memory:",
         "--bot-delay", "0.05", "--log-level", "warning", "--no-announce"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        end = time.monotonic() + 15
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > end:
                    err = proc.stderr.read().decode() if proc.stderr else ""
                    raise AssertionError(f"the server did not start: {err}") from None
                time.sleep(0.1)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    mux = Tmux(f"hanabi-test-{os.getpid()}", tmp_path)
    try:
        yield mux
    finally:
        mux.close()


def turn_of(screen: str) -> int | None:
    match = re.search(r"turn (\d+) · your turn", screen.splitlines()[0] if screen else "")
    return int(match.group(1)) if match else None


def test_two_clients_and_a_bot_play_a_game_in_tmux(server: int, tmux: Tmux, tmp_path: Path) -> None:
    client = f"{shlex.quote(sys.executable)} -m hanabi.client 127.0.0.1:{server}"
    tmux.start("alice", f"{client} --name alice")
    tmux.start("bob", f"{client} --name bob")
    tmux.wait_for("alice", lambda s: "No tables yet" in s and "online" in s, "the empty lobby")

    tmux.keys("alice", "n")
    tmux.wait_for("alice", lambda s: "New table" in s, "the new-table form")
    tmux.keys("alice", "Enter")
    tmux.wait_for("alice", lambda s: "you are the host" in s, "her own table")

    tmux.wait_for("bob", lambda s: "alice's table" in s, "alice's table in the lobby")
    tmux.keys("bob", "j")
    tmux.wait_for("bob", lambda s: "Your table: alice's table" in s and "seat 2" in s, "his seat")

    tmux.keys("alice", "b")
    tmux.wait_for("alice", lambda s: "[bot]" in s, "the bot in seat 3")
    tmux.keys("alice", "g")
    for name in ("alice", "bob"):
        tmux.wait_for(name, lambda s: "Fireworks" in s and "can be" in s, "the game")

    played: dict[str, int] = {}
    end = time.monotonic() + DEADLINE
    over = {"alice": False, "bob": False}
    while not all(over.values()):
        assert time.monotonic() < end, "the game did not end in time:\n" + tmux.screen("alice")
        for name in ("alice", "bob"):
            screen = tmux.screen(name)
            if "Game over" in screen:
                over[name] = True
                continue
            turn = turn_of(screen)
            if turn is not None and played.get(name) != turn:
                played[name] = turn
                # Play slot 1; "y" confirms a blind play (and does nothing if the card was clued).
                tmux.keys(name, "p", "1", "y")
        time.sleep(0.1)

    final = tmux.screen("alice")
    assert re.search(r"Game over: \d+/25 — ", final)
    assert "save the replay" in final
    tmux.keys("alice", "s")
    saved = tmux.wait_for("alice", lambda s: "Replay saved to" in s, "the saved replay")
    assert "hanabi-" in saved
    [path] = tmp_path.glob("hanabi-*-no-variant.json")
    replay = load(path)
    assert replay.state.over and replay.players[:2] == ("alice", "bob")

    tmux.keys("alice", "q")
    tmux.wait_for("alice", lambda s: "CLIENT-EXIT=0" in s, "a clean exit")
    tmux.keys("bob", "C-c")
    tmux.wait_for("bob", lambda s: "CLIENT-EXIT=0" in s, "a clean exit")


def test_a_solo_game_at_a_level_shows_it_and_tells_why_the_bot_moved(tmux: Tmux) -> None:
    """``--solo --level basic``: the table line says the level; after the bot's first move, w tells its reason
    (or, when the reason names alice's own cards, that it comes at the end)."""
    tmux.start("alice", f"{shlex.quote(sys.executable)} -m hanabi.client --solo --players 2 --level basic "
                        "--bot-delay 0 --name alice")
    screen = tmux.wait_for("alice", lambda s: "Fireworks" in s and "can be" in s, "the game")
    assert "Table: bots play basic" in screen
    if turn_of(screen) == 1:  # alice first: her move, then the bot's
        tmux.keys("alice", "p", "1", "y")
    tmux.wait_for("alice", lambda s: (turn_of(s) or 0) >= 2, "the bot's move")
    tmux.keys("alice", "w")
    shown = tmux.wait_for("alice", lambda s: "Bot Ada" in " ".join(s.splitlines()[-3:]), "the bot's reason")
    status = " ".join(shown.splitlines()[-3:])
    assert re.search(r"Bot Ada(, turn \d+: \w|'s reason for turn \d+ names your own cards)", status)
    tmux.keys("alice", "C-c")
    tmux.wait_for("alice", lambda s: "CLIENT-EXIT=0" in s, "a clean exit")
