"""End to end in a real terminal: the real server and two real clients in tmux, driven by keystrokes.

Alice creates a table, Bob joins, Alice seats a bot and starts; Alice writes
a note on Bob's card (his screen never shows it), quits and starts again, and
the note comes back with her seat; then each
human plays when the screen says it is their turn (slot 1, confirming the
blind play), until the game ends. The screens are read with capture-pane.
Alice then saves the replay, which must load in the engine, and quits; the
client must exit cleanly. In the lost-laptop test, both write notes, Bob's
client is killed mid-game and he comes back from another machine (a fresh
state folder, so as "bob 2"); Alice hands him his seat with the H key, his
note comes back with the seat (hers never shows on his screen), and the
game goes on to its end; then alice leads the shared review and bob's screen
follows her steps, shows both players' notes and her arrow. Each step is a
function of its own, so a new one goes in as one more call.
Skipped when tmux is not installed.
"""

from __future__ import annotations

import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hanabi.engine.replay import load

TMUX = shutil.which("tmux")
# Started first: these tests mostly wait for real clients to draw (see tests/conftest.py).
pytestmark = [pytest.mark.skipif(TMUX is None, reason="tmux is not installed"), pytest.mark.starts_first]
DEADLINE = 120.0  # seconds for the whole game; it usually takes a few


class Tmux:
    """A private tmux server (its own socket) holding one window per client."""

    def __init__(self, socket_name: str, cwd: Path) -> None:
        self.base = [TMUX or "tmux", "-L", socket_name, "-f", os.devnull]
        self.cwd = cwd

    def run(self, *args: str) -> str:
        done = subprocess.run([*self.base, *args], capture_output=True, text=True, timeout=10, check=False)
        if done.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args[:3])} failed ({done.returncode}): {done.stderr.strip()}")
        return done.stdout

    def start(self, name: str, command: str, state_folder: str = "state") -> None:
        # Resume tokens go to the test's folder, not the user's (another folder: a machine that never played here).
        state = shlex.quote(str(self.cwd / state_folder))
        # Replays are saved in the data folder: the test's own, where it finds them.
        data = shlex.quote(str(self.cwd / "data"))
        shell = f"XDG_STATE_HOME={state} XDG_DATA_HOME={data} {command}; echo CLIENT-EXIT=$?; sleep 60"
        self.run("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", str(self.cwd), shell)

    def kill(self, name: str) -> None:
        """The client in window ``name`` dies at once (SIGKILL), as with a laptop's battery: it says no goodbye."""
        shell = int(self.run("display-message", "-p", "-t", name, "#{pane_pid}").strip())
        children = Path(f"/proc/{shell}/task/{shell}/children").read_text().split()
        assert len(children) == 1, f"the window {name} runs {children} under its shell, not one client"
        os.kill(int(children[0]), signal.SIGKILL)

    def keys(self, name: str, *keys: str) -> None:
        self.run("send-keys", "-t", name, *keys)

    def screen(self, name: str) -> str:
        return self.run("capture-pane", "-p", "-t", name)

    def wait_for(self, name: str, check: Callable[[str], bool], what: str, timeout: float = 60.0) -> str:
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
    # Port 0: the server takes a free port and says which, so no other test (or parallel worker) can take it
    # between our choosing it and the server binding it.
    proc = subprocess.Popen(
        [sys.executable, "-m", "hanabi.server", "--host", "127.0.0.1", "--port", "0", "--db", ":memory:",
         "--bot-delay", "0.05", "--log-level", "warning", "--no-announce"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        said = proc.stdout.readline() if select.select([proc.stdout], [], [], 15)[0] else ""
        listening = re.search(r"listening on port (\d+)", said)
        if listening is None:
            proc.kill()
            raise AssertionError(f"the server did not start: {said}{proc.stderr.read()}")
        yield int(listening.group(1))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    # The clients' folder has a short name: a saved replay's path should fit in the 80 columns
    # (pytest's own folders grow with the user's name, the run's number and a parallel worker's name).
    with tempfile.TemporaryDirectory(prefix="ht") as folder:
        # A socket of its own per test: tmux's kill-server returns before the old server is gone, and a new
        # server on the same socket meanwhile fails to start (seen as new-session exiting with 1).
        mux = Tmux(f"hanabi-test-{Path(folder).name}", Path(folder))
        try:
            yield mux
        finally:
            mux.close()


def turn_of(screen: str) -> int | None:
    match = re.search(r"turn (\d+) · your turn", screen.splitlines()[0] if screen else "")
    return int(match.group(1)) if match else None


# -- the steps of a game in tmux, one function each, so a test reads as its story and a new step (notes, the
# -- shared review) goes in between as a function of its own.


def client_command(port: int) -> str:
    return f"{shlex.quote(sys.executable)} -m hanabi.client 127.0.0.1:{port}"


def open_table_with_a_bot(tmux: Tmux, port: int) -> None:
    """alice opens a table, bob joins it, alice seats a bot in seat 3 and starts; both see the game."""
    tmux.start("alice", f"{client_command(port)} --name alice")
    tmux.start("bob", f"{client_command(port)} --name bob")
    tmux.wait_for("alice", lambda s: "No tables yet" in s and "online" in s, "the empty lobby")

    tmux.keys("alice", "n")
    tmux.wait_for("alice", lambda s: "New table" in s, "the new-table form")
    tmux.keys("alice", "Enter")
    tmux.wait_for("alice", lambda s: "you are the host" in s, "her own table")

    tmux.wait_for("bob", lambda s: "alice's table" in s, "alice's table in the lobby")
    tmux.keys("bob", "j")
    tmux.wait_for("bob", lambda s: "Your table: alice's table" in s and "seat 2" in s, "his seat")
    # b seats a bot in the first seat alice's screen shows free: not before it shows bob's taken.
    tmux.wait_for("alice", lambda s: "seat 2: bob" in s, "bob at her table")

    tmux.keys("alice", "b")
    tmux.wait_for("alice", lambda s: "[bot]" in s, "the bot in seat 3")
    tmux.keys("alice", "g")
    for name in ("alice", "bob"):
        tmux.wait_for(name, lambda s: "Fireworks" in s and "can be" in s, "the game")


def take_turn(tmux: Tmux, name: str, screen: str, played: dict[str, int], *, discard: bool) -> bool:
    """If the screen says it is ``name``'s turn (one not taken yet), take it; whether a move was made.

    With ``discard``, the oldest card goes to the discard pile whenever a clue token is spent (a move that can
    never strike); otherwise, and with every token in hand, slot 1 is played ("y" confirms a blind play, and
    does nothing when the card was clued)."""
    turn = turn_of(screen)
    if turn is None or played.get(name) == turn:
        return False
    played[name] = turn
    tokens = re.search(r"Clues (\d)/8", screen)
    if discard and tokens is not None and int(tokens.group(1)) < 8:
        tmux.keys(name, "d", "5", "y")  # "y" confirms discarding a clued card
    else:
        tmux.keys(name, "p", "1", "y")
    return True


def play(tmux: Tmux, names: tuple[str, ...], until: Callable[[dict[str, str]], bool], what: str,
         played: dict[str, int], *, discard: bool = False) -> dict[str, str]:
    """Each of ``names`` takes their turns until ``until`` holds of their screens; returns the last screens."""
    end = time.monotonic() + DEADLINE
    while True:
        screens = {name: tmux.screen(name) for name in names}
        if until(screens):
            return screens
        assert time.monotonic() < end, f"{what} did not come in time:\n" + "\n".join(screens.values())
        for name, screen in screens.items():
            if "Game over" not in screen:
                take_turn(tmux, name, screen, played, discard=discard)
        time.sleep(0.1)


def all_over(screens: dict[str, str]) -> bool:
    return all("Game over" in screen for screen in screens.values())


def lose_laptop(tmux: Tmux, name: str, host: str) -> None:
    """The client of ``name`` is killed; the host's board marks the seat away."""
    tmux.kill(name)
    tmux.wait_for(host, lambda s: f"{name} (away)" in s, f"{name} away")


def come_back_from_another_machine(tmux: Tmux, port: int, window: str, name: str, as_name: str) -> None:
    """``name`` starts the client again from a fresh state folder (no resume token): the server knows them as
    another player, ``as_name``, in the lobby."""
    tmux.start(window, f"{client_command(port)} --name {shlex.quote(name)}", state_folder=f"state-{window}")
    tmux.wait_for(window, lambda s: as_name in s and "online" in s, f"the lobby as {as_name}")


def hand_seat_to(tmux: Tmux, host: str, seat: int, receiver_window: str, receiver: str) -> None:
    """The host presses H, the seat, p, types the receiver's name; the receiver's screen shows the game."""
    tmux.keys(host, "H")
    tmux.wait_for(host, lambda s: "Hand which seat on?" in s, "the hand-seat prompt")
    tmux.keys(host, str(seat))
    tmux.wait_for(host, lambda s: "p a player in the lobby" in s, "the choice of bot or player")
    tmux.keys(host, "p")
    tmux.wait_for(host, lambda s: f": hand {seat}" in s, "the command line for the name")
    tmux.keys(host, receiver, "Enter")
    tmux.wait_for(receiver_window, lambda s: f"handed you seat {seat}" in s and "Fireworks" in s,
                  "the seat handed back")
    tmux.wait_for(host, lambda s: f"{receiver} " in s and "(away)" not in s, f"{receiver} in seat {seat}")


def row_of(screen: str, seat: int) -> str:
    """The board's row of ``seat`` (1-based, as the board numbers it), whoever sits there."""
    return next(line for line in screen.splitlines() if re.match(rf"^[ ▶]{seat} ", line))


def write_note(tmux: Tmux, name: str, seat: int, slot: int, text: str) -> None:
    """``name`` types the note ``text`` (f finessed, cm chop moved…) straight away at the prompt of the card in
    ``slot`` of ``seat``, then Enter."""
    tmux.keys(name, "n", str(seat))
    tmux.wait_for(name, lambda s: "which slot?" in s, "the slot prompt")
    tmux.keys(name, str(slot))
    tmux.wait_for(name, lambda s: "no note yet" in s, "the note prompt")
    tmux.keys(name, text)
    tmux.wait_for(name, lambda s: f" {slot} {text}" in s, "the note on the command line")
    tmux.keys(name, "Enter")
    tmux.wait_for(name, lambda s: "Note written" in s and "*" in row_of(s, seat), "the note's mark")


def board_of(screen: str) -> list[str]:
    """The board of a screen: from the fireworks down to the rule over the log (the title names the viewer)."""
    lines = screen.splitlines()
    return lines[1:next(i for i, line in enumerate(lines) if line.startswith("─"))]


def follow_the_leader_through_the_review(tmux: Tmux, leader: str, follower: str) -> None:
    """The game is over: ``leader`` (the host) steps through the review and ``follower``'s screen shows the same
    step, board and all; at the deal both see every player's notes on the cards; the leader points at a card and
    the follower reads the same arrow."""
    screen = tmux.wait_for(leader, lambda s: re.search(r"step (\d+)/\1 · you lead", s) is not None, "her review")
    last = int(re.search(r"step (\d+)/\1 · you lead", screen).group(1))  # type: ignore[union-attr]
    tmux.wait_for(follower, lambda s: f"step {last}/{last} · following {leader}" in s, "the review's end")

    tmux.keys(leader, "Home")
    at_deal = {name: tmux.wait_for(name, lambda s: f"step 0/{last} · " in s, "the deal")
               for name in (leader, follower)}
    assert f"following {leader}" in at_deal[follower] and "Clues 8/8" in at_deal[follower]
    assert board_of(at_deal[leader]) == board_of(at_deal[follower])
    for screen in at_deal.values():  # the game is over: alice's note and bob's, on bob's cards at the deal
        assert row_of(screen, 2).count("*") == 2, screen

    tmux.keys(leader, "Right", "Right", "Right")
    there = {name: tmux.wait_for(name, lambda s: f"step 3/{last} · " in s, "step 3") for name in (leader, follower)}
    assert board_of(there[leader]) == board_of(there[follower])
    assert "you lead" in there[leader] and f"following {leader}" in there[follower]

    tmux.keys(leader, "o", "2", "1")
    arrow = rf"➜ {leader} points at .+'s slot 1 \(\w\w\)"
    pointed = {name: tmux.wait_for(name, lambda s: re.search(arrow, s) is not None, "the arrow")
               for name in (leader, follower)}
    said = {name: re.search(arrow, screen).group(0) for name, screen in pointed.items()}  # type: ignore[union-attr]
    assert said[leader] == said[follower]
    first_card = re.findall(r"[RYGBWM][1-5]", row_of(there[follower], 2)[18:])[0]  # slot 1 of seat 2, as shown
    assert said[follower].endswith(f"({first_card})"), said
    for screen in pointed.values():  # and the card itself carries the arrow on both boards
        assert re.search(rf"{first_card}\S* ?◀", row_of(screen, 2)), screen


def quit_cleanly(tmux: Tmux, *names: str) -> None:
    for name in names:
        tmux.keys(name, "C-c")
        tmux.wait_for(name, lambda s: "CLIENT-EXIT=0" in s, "a clean exit")


def keep_a_private_note_over_a_restart(tmux: Tmux, port: int, name: str, window: str) -> None:
    """``name`` writes a note on bob's card with keys; her board marks it and her panel says it in full, bob's
    screen shows nothing of it; her client quits and starts again in ``window``, and the note is back with her
    seat."""
    write_note(tmux, name, seat=2, slot=1, text="f")
    assert "Note written: f (finessed)" in tmux.screen(name)
    tmux.keys(name, "N")
    tmux.wait_for(name, lambda s: "Notes (N closes" in s and "f (finessed)" in s, "the notes panel")
    assert "*" not in tmux.screen("bob") and "finessed" not in tmux.screen("bob")

    quit_cleanly(tmux, name)
    tmux.start(window, f"{client_command(port)} --name {name}")  # the same state folder: her token
    tmux.wait_for(window, lambda s: "Fireworks" in s and "*" in row_of(s, 2), "her seat and her note")
    assert "*" not in tmux.screen("bob")


def test_two_clients_and_a_bot_play_a_game_in_tmux(server: int, tmux: Tmux) -> None:
    """alice's note stays hers and comes back after her client restarts; the game is played to its end, its
    replay saved and loaded, and bob's screen follows alice's through the review together. One game for both
    stories: each client's start is most of a second of CPU."""
    open_table_with_a_bot(tmux, server)
    keep_a_private_note_over_a_restart(tmux, server, "alice", window="alice-again")
    play(tmux, ("alice-again", "bob"), all_over, "the end of the game", {})

    final = tmux.screen("alice-again")
    assert re.search(r"Game over: \d+/25 — ", final)
    assert "save the replay" in final
    tmux.keys("alice-again", "s")
    saved = tmux.wait_for("alice-again", lambda s: "Replay saved to" in s, "the saved replay")
    assert "hanabi-" in saved
    [path] = (tmux.cwd / "data" / "hanabi" / "replays").glob("hanabi-*-no-variant.json")
    replay = load(path)
    assert replay.state.over and replay.players[:2] == ("alice", "bob")

    # The review together: alice (the host) leads, bob's screen follows her steps; bob steps alone, f follows.
    last = re.search(r"step (\d+)/\1 · you lead", tmux.screen("alice-again"))
    assert last is not None, tmux.screen("alice-again")
    tmux.keys("alice-again", "Home")
    tmux.wait_for("bob", lambda s: f"step 0/{last.group(1)} · following alice" in s, "bob following alice")
    tmux.keys("bob", "Right")
    tmux.wait_for("bob", lambda s: f"step 1/{last.group(1)} · on your own" in s, "bob on his own")
    tmux.keys("alice-again", "Right", "Right")
    tmux.keys("bob", "f")
    tmux.wait_for("bob", lambda s: f"step 2/{last.group(1)} · following alice" in s, "bob following again")

    tmux.keys("alice-again", "q")
    tmux.wait_for("alice-again", lambda s: "CLIENT-EXIT=0" in s, "a clean exit")
    quit_cleanly(tmux, "bob")


def _bank(screen: str, name: str) -> int:
    """Seconds on ``name``'s clock as the clock line shows it (the running one is marked ▶)."""
    match = re.search(rf"[▶ ]{name} (\d+):(\d\d)", screen)
    assert match is not None, f"no clock of {name} on the screen:\n{screen}"
    return int(match.group(1)) * 60 + int(match.group(2))


def test_a_timed_solo_game_at_a_level_counts_down_pauses_and_tells_why_the_bot_moved_in_tmux(tmux: Tmux) -> None:
    """``--solo --level basic --clock 600+20``: the table line says the level; her bank counts down on screen and
    stands still while the game is paused, where a move is refused; her move adds 20 seconds; after the bot's
    move, w tells its reason (or, when the reason names her own cards, that it comes at the end); a stray q says
    what quitting costs a solo game. One game for the clock's story and the level's: each client's start is most
    of a second of CPU."""
    client = f"{shlex.quote(sys.executable)} -m hanabi.client --solo --players 2 --level basic --name Alice"
    tmux.start("alice", f"{client} --clock 600+20 --bot-delay 0.3")
    first = tmux.wait_for("alice", lambda s: "Clocks" in s and "▶Alice" in s, "her clock running")
    assert "Table: bots play basic" in first
    # The bank counts down on screen between the server's messages.
    tmux.wait_for("alice", lambda s: "▶Alice" in s and _bank(s, "Alice") < _bank(first, "Alice"),
                  "her clock counting down")

    tmux.keys("alice", "z")
    paused = tmux.wait_for("alice", lambda s: "Alice paused the game" in s, "the pause")
    assert "▶Alice" not in paused  # no bank runs while paused
    tmux.keys("alice", "p", "1", "y")
    refused = tmux.wait_for("alice", lambda s: "Refused: the game is paused" in s, "the move refused")
    assert _bank(refused, "Alice") == _bank(paused, "Alice")  # the bank stood still meanwhile

    tmux.keys("alice", "z")
    tmux.wait_for("alice", lambda s: "Alice let the game go on" in s and "▶Alice" in s, "the game going on")
    turn = turn_of(tmux.screen("alice"))
    tmux.keys("alice", "p", "1", "y")
    # The bot answers, and it is her turn again, with her move's 20 seconds in her bank.
    again = tmux.wait_for("alice", lambda s: (turn_of(s) or 0) > (turn or 0) and "▶Alice" in s, "her next turn")
    assert _bank(again, "Alice") > _bank(refused, "Alice")

    tmux.keys("alice", "w")
    shown = tmux.wait_for("alice", lambda s: "Bot Ada" in " ".join(s.splitlines()[-3:]), "the bot's reason")
    status = " ".join(shown.splitlines()[-3:])
    assert re.search(r"Bot Ada(, turn \d+: \w|'s reason for turn \d+ names your own cards)", status)
    tmux.keys("alice", "q")  # a stray q says what quitting costs a solo game
    tmux.wait_for("alice", lambda s: "Ctrl-C quits (a solo game ends with it)" in s, "what q says")
    tmux.keys("alice", "C-c")
    left = tmux.wait_for("alice", lambda s: "CLIENT-EXIT=0" in s, "a clean exit")
    assert re.search(r"solo game ended at turn \d+, \d+ points? \(solo games are not kept\)", left)


def test_a_seat_survives_a_lost_laptop_in_tmux(server: int, tmux: Tmux) -> None:
    """A lost laptop end to end: two clients and a bot play and write notes; bob's client is killed and he comes back
    from a fresh state folder, as "bob 2"; alice hands him his seat back, and his note comes with it (alice's
    never shows on his screen); the game goes on to its end, and both screens follow alice through the review."""
    open_table_with_a_bot(tmux, server)
    write_note(tmux, "alice", seat=2, slot=2, text="f")  # on bob's card: hers alone
    write_note(tmux, "bob", seat=2, slot=3, text="cm")  # on his own card: the seat's, wherever he plays it from
    assert row_of(tmux.screen("bob"), 2).count("*") == 1
    played: dict[str, int] = {}
    play(tmux, ("alice", "bob"), lambda _: "bob" in played, "bob's first move", played, discard=True)
    lose_laptop(tmux, "bob", host="alice")
    come_back_from_another_machine(tmux, server, "bob-again", "bob", as_name="bob 2")
    hand_seat_to(tmux, "alice", 2, "bob-again", "bob 2")
    back = tmux.wait_for("bob-again", lambda s: "*" in row_of(s, 2), "his note on the seat's card")
    assert row_of(back, 2).count("*") == 1  # his own note, not alice's
    screens = play(tmux, ("alice", "bob-again"), all_over, "the end of the game", played, discard=True)
    assert "bob-again" in played  # he took turns from the seat he was handed
    for screen in screens.values():
        assert re.search(r"Game over: \d+/25 — ", screen)
    follow_the_leader_through_the_review(tmux, "alice", "bob-again")
    quit_cleanly(tmux, "alice", "bob-again")


def test_a_solo_game_shows_counting_the_glance_line_and_rewinds_in_tmux(tmux: Tmux) -> None:
    """The real client against its private loopback server: the glance line and the marks show, ``i`` tells
    a card's clues, ``r`` rewinds to the deal and back while the game waits for us."""
    tmux.start("alice", f"{shlex.quote(sys.executable)} -m hanabi.client --solo --name alice --players 3 "
                        "--bot-delay 0")
    screen = tmux.wait_for("alice", lambda s: turn_of(s) is not None, "her first turn")
    # A bot may have moved first; the deal's figure is the same whatever: 3 players, 35 cards in the deck.
    glance = r"^Max \d+( \([^)]*\))?  Pace -?\d+  Eff (-|\d\.\d\d) need \d\.\d\d \(deal 1\.00\)"
    assert re.search(glance, screen, re.M), screen
    assert "127.0.0.1" not in screen  # the private server's loopback address means nothing to her
    first = turn_of(screen)
    # The rank of the next player's first card: a clue that surely touches something.
    row = next(line for line in screen.splitlines() if re.match(r"^[ ▶]2 ", line))
    rank = re.findall(r"[RYGBW]([1-5])", row[18:])[0]
    tmux.keys("alice", "c", "2", rank)
    tmux.wait_for("alice", lambda s: turn_of(s) not in (None, first), "her next turn")
    tmux.keys("alice", "i", "1", "1")
    tmux.wait_for("alice", lambda s: "Your slot 1:" in s and "can be" in s, "the clue history of her slot 1")
    tmux.keys("alice", "r")
    tmux.wait_for("alice", lambda s: "REWIND:" in s and "IT IS YOUR TURN" in s, "the rewind")
    tmux.keys("alice", "Home")
    screen = tmux.wait_for("alice", lambda s: "REWIND: the deal" in s, "the deal")
    # The top bar keeps its shape: it says "rewind" where it says where we are, and the connection stays live.
    title = screen.splitlines()[0]
    assert "Clues 8/8" in screen and "rewind · turn 1 · " in title and title.rstrip().endswith("● online"), title
    tmux.keys("alice", "r")
    screen = tmux.wait_for("alice", lambda s: "REWIND" not in s and "your turn" in s, "the live game again")
    assert "Max " in screen
    quit_cleanly(tmux, "alice")


def watch_as_each_seat(tmux: Tmux, port: int, name: str) -> None:
    """``name`` watches alice's table, then sees it as alice does (her own cards hidden), as bob does, as the bot
    does, and every hand again: ``v`` four times."""
    tmux.start(name, f"{client_command(port)} --name {name}", state_folder=f"state-{name}")
    tmux.wait_for(name, lambda s: "alice's table" in s, "alice's table in the lobby")
    tmux.keys(name, "s")
    every = tmux.wait_for(name, lambda s: "Fireworks" in s and "stop watching" in s, "the game, watched")
    assert re.search(r"[RYGBW][1-5]", row_of(every, 1)[18:]), every  # a spectator sees alice's cards
    for seat, player in ((1, "alice"), (2, "bob")):
        tmux.keys(name, "v")
        seen = tmux.wait_for(name, lambda s, player=player: f"{player} (watched)" in s,  # type: ignore[misc]
                             f"the game as {player} sees it")
        assert not re.search(r"[RYGBW][1-5]", row_of(seen, seat)[18:]), seen  # her own cards: hidden
        other = 2 if seat == 1 else 1
        assert re.search(r"[RYGBW][1-5]", row_of(seen, other)[18:]), seen
        assert "your turn" not in seen.splitlines()[0]
    tmux.keys(name, "v")
    tmux.wait_for(name, lambda s: "Bot Ada (watched)" in s, "the game as the bot in seat 3 sees it")
    tmux.keys(name, "v")
    again = tmux.wait_for(name, lambda s: "(watched)" not in s and "Watching every hand" in s, "every hand again")
    assert re.search(r"[RYGBW][1-5]", row_of(again, 1)[18:]) and re.search(r"[RYGBW][1-5]", row_of(again, 2)[18:])


def lead_a_what_if(tmux: Tmux, leader: str, follower: str) -> None:
    """In the review, ``leader`` goes back three steps and asks what if: ``follower``'s screen shows it; the house
    bot plays the seat to act there, then the leader's own move; Esc brings both back to the real game."""
    screen = tmux.wait_for(leader, lambda s: re.search(r"step (\d+)/\1 · you lead", s) is not None, "her review")
    last = int(re.search(r"step (\d+)/\1 · you lead", screen).group(1))  # type: ignore[union-attr]
    tmux.keys(leader, "Left", "Left", "Left")
    step = last - 3
    tmux.wait_for(follower, lambda s: f"step {step}/{last} · following {leader}" in s, "the leader's step")
    tmux.keys(leader, "h")
    for name in (leader, follower):
        tmux.wait_for(name, lambda s: f"What if · from step {step} · 0 moves · {leader}'s" in s, "the what if")
    tmux.keys(leader, "b")
    bot = {name: tmux.wait_for(name, lambda s: "· 1 move ·" in s, "the bot's move in the what if")
           for name in (leader, follower)}
    assert board_of(bot[leader]) == board_of(bot[follower])
    tmux.keys(leader, "Escape")
    for name in (leader, follower):
        tmux.wait_for(name, lambda s: f"step {step}/{last} · " in s and "What if" not in s, "the real game again")


def test_a_spectator_watches_as_each_player_and_a_follower_sees_the_leader_s_what_if_in_tmux(
        server: int, tmux: Tmux) -> None:
    open_table_with_a_bot(tmux, server)
    watch_as_each_seat(tmux, server, "carol")
    play(tmux, ("alice", "bob"), all_over, "the end of the game", {}, discard=True)
    lead_a_what_if(tmux, "alice", "bob")
    tmux.wait_for("carol", lambda s: "following alice" in s, "the spectator following the review")
    quit_cleanly(tmux, "alice", "bob", "carol")
