"""The load test runs end to end on a small load and reports sane figures (a smoke test: no speed asserted);
its clients read the protocol's frames as the messages' trees, however the bytes arrive.

Two runs feed every check of a run: the command as printed, with a plain server, and one with a server diagnosed
every way at once (each diagnosis writes its own file and keeps to names of its own)."""

from __future__ import annotations

import contextlib
import gc
import io
import json
import random
import socket
from typing import Any

import msgpack
import pytest
from hanabi.engine import GameConfig, apply, legal_actions, new_game, view_for
from hanabi.protocol import HEADER, Decoder, Encoder, GameEvent, Ping, Pong, ViewUpdate, encode
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.loadtest import LoadClient, Stats, _answer_pings, _young, main, run


@pytest.fixture(scope="module")
def printed() -> tuple[str, bool]:
    """One plain run of the load test's command (a real server), as printed, and whether the run left this
    process's collector settings as they were."""
    # Players think a little: a closed loop over so few tables would outrun the rate limit (20 requests a second).
    threshold = gc.get_threshold()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["--tables", "3", "--players", "3", "--seconds", "1", "--warmup", "0.3", "--think", "0.03",
                     "--json"]) == 0
    return out.getvalue(), gc.get_threshold() == threshold


@pytest.fixture(scope="module")
def diagnosed() -> dict[str, Any]:
    """One run with a server diagnosed every way at once (its collections, its counts, its moves' paths)."""
    return run(tables=2, players=2, seconds=1.0, warmup=0.2, think=0.03, gc_log=True, count=True, trace=True)


def test_a_small_load_plays_and_reports_without_errors(printed: tuple[str, bool]) -> None:
    out, threshold_kept = printed
    result = json.loads(out.splitlines()[-1])
    assert threshold_kept  # its collector settings while it plays do not outlive it
    assert result["connections"] == 9 and result["errors"] == 0, result["first_error"]
    assert result["actions"] > 0 and result["actions_per_second"] > 0
    assert 0 < result["p50_ms"] <= result["p99_ms"]
    assert result["cpu_us_per_action"] > 0 and result["clients_cpu_us_per_action"] > 0
    # Split by thread: the event loop's, and the store's commits' in their worker thread.
    assert result["loop_thread_us_per_action"] > 0 and result["other_threads_us_per_action"] > 0
    # A plain run: no diagnosis's figures.
    assert not {"gc", "per_action", "path_ms"} & set(result)


def test_thinking_players_and_the_printed_report(printed: tuple[str, bool]) -> None:
    out, _ = printed
    figures = json.loads(out.splitlines()[-1])
    assert figures["actions_per_second"] > 0 and 0 < figures["p50_ms"] <= figures["p99_ms"]
    assert figures["cpu_us_per_action"] > 0 and figures["rss_mib"] > 0
    assert "3 tables x 3 players = 9 connections" in out and "think time 0.03 s" in out
    assert "actions/s" in out and "µs per action" in out and "KiB playing" in out
    assert "errors from the server" not in out


def test_the_gc_log_sums_up_the_servers_collections(diagnosed: dict[str, Any]) -> None:
    result = diagnosed
    assert result["errors"] == 0, result["first_error"]
    assert set(result["gc"]) == {"0", "1", "2"}
    for figures in result["gc"].values():
        assert figures["count"] >= 0 and figures["total_ms"] >= figures["max_ms"] >= 0
        assert (figures["max_objects"] > 0) == (figures["count"] > 0)
    # A census of the oldest generation by type, taken at its first collection while measured, if there was one.
    census = result["oldest_generation"]
    assert (len(census) > 0) == (result["gc"]["2"]["count"] > 0)
    assert all(n > 0 for n in census.values())
    # And one of the young generations at each collection of generation 1, if there was one.
    assert (len(result["young"]) > 0) == (result["gc"]["1"]["count"] > 0)


def test_the_young_census_gives_the_medians_of_the_collections_of_generation_1() -> None:
    censuses = [[{"cell": 3, "(all)": 5}, {"cell": 1, "tuple": 4, "(all)": 9}],
                [{"(all)": 0}, {"tuple": 2, "(all)": 2}],
                [{"cell": 10, "(all)": 11}, {"tuple": 6, "(all)": 8}]]
    young = _young(censuses)
    assert (young["generation 0"], young["generation 1"], young["together"]) == (5, 8, 14)
    # A kind missing from a census counts 0 there: cell 4, 0, 10; tuple 4, 2, 6.
    assert young["by kind"] == {"cell": 4, "tuple": 4}
    assert _young([]) == {}


def test_the_count_gives_the_servers_rounds_steps_and_writes_per_action(diagnosed: dict[str, Any]) -> None:
    result = diagnosed
    assert result["errors"] == 0, result["first_error"]
    counted = result["per_action"]
    assert counted["rounds"] > 0 and counted["stream writes"] > 0
    # Every move is read by a connection's reader, carried out by its table and written by the writers.
    assert counted["steps Connection._writer"] > 0 and counted["steps Table.run"] > 0


def test_the_trace_times_each_part_of_a_moves_path(diagnosed: dict[str, Any]) -> None:
    result = diagnosed
    assert result["errors"] == 0, result["first_error"]
    path = result["path_ms"]
    parts = ["read -> table", "table -> store", "to the store's thread", "in the store's thread",
             "back from the store's thread", "commit -> views", "views built and queued", "queued -> write", "write",
             "read -> written"]
    assert list(path) == [*parts, "without generation 0", "without generation 1", "without generation 2",
                          "without any generation", "slowest 1 %"]
    # The slowest 1 %: each had a collection of some generation during its path, or none did.
    tail = path["slowest 1 %"]
    assert tail["moves"] >= 1 and 0 <= tail["with none"] <= tail["moves"]
    assert all(0 <= tail[f"with generation {g}"] <= tail["moves"] - tail["with none"] for g in range(3))
    assert all(tail[name] >= 0 for name in parts[:-1])
    for name in parts:
        assert 0 <= path[name]["p50"] <= path[name]["p90"] <= path[name]["p99"]
    # The whole is the sum of its parts, move by move: its median is at least the largest part's.
    assert path["read -> written"]["p50"] >= max(path[name]["p50"] for name in parts)
    assert path["in the store's thread"]["p50"] > 0 and path["views built and queued"]["p50"] > 0
    # The moves a collection ran during, by generation: those of any generation are those of each, or more.
    held = {name: figures["moves with one"] for name, figures in path.items() if name.startswith("without ")}
    assert held["without any generation"] >= max(held["without generation 0"], held["without generation 1"],
                                                 held["without generation 2"]) >= 0

def _frames_of_a_game(players: int, seed: int) -> list[bytes]:
    """The frames one seat's connection gets in a whole game (event and view of each move)."""
    state = new_game(GameConfig(players=players), str(seed))
    encoder = Encoder()
    rng = random.Random(seed)
    out: list[bytes] = []
    while True:
        out.append(encoder.encode(ViewUpdate(game=1, view=view_for(state, 0))))
        if state.over:
            return out
        state = apply(state, rng.choice(legal_actions(state)))
        out.append(encoder.encode(GameEvent(game=1, event=state.events[-1])))


@settings(max_examples=60)
@given(st.integers(2, 5), st.integers(0, 10**6), st.lists(st.integers(1, 700), max_size=400))
def test_load_clients_read_messages_however_they_arrive(players: int, seed: int, cuts: list[int]) -> None:
    frames = _frames_of_a_game(players, seed)
    stream = b"".join(frames)
    seen: list[dict[str, object]] = []
    a, b = socket.socketpair()
    try:
        client = LoadClient(a, 0, players, Stats(), host=False)
        client.handle = lambda tree, timers, arrived=None: seen.append(tree)  # type: ignore[method-assign]
        shared = bytearray(1 << 16)  # reused for every read, as in the load test
        at = 0
        for cut in [*cuts, len(stream)]:
            piece = stream[at:at + cut]
            at += len(piece)
            shared[:len(piece)] = piece
            client.receive(shared, len(piece), [])
        assert seen == [msgpack.unpackb(frame[HEADER.size:]) for frame in frames]
        assert [tree["t"] for tree in seen[:3]] == ["view", "event", "view"]
        assert not client.buffer  # nothing left over: every frame was whole
    finally:
        a.close()
        b.close()


def test_seated_clients_answer_the_servers_pings_while_the_others_are_seated() -> None:
    a, b = socket.socketpair()
    try:
        client = LoadClient(a, 0, 2, Stats(), host=False)
        _answer_pings([client])  # nothing sent yet: nothing to read, and it does not wait
        b.sendall(encode(Ping(5)))
        _answer_pings([client])
        b.settimeout(5)
        assert Decoder(peer="client").feed(b.recv(1 << 16)) == [Pong(5)]
    finally:
        a.close()
        b.close()
