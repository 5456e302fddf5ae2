"""Resume tokens on disk: kept between runs, never borrowed from a client that is still running."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import trio
from hanabi.client.tokens import TokenStore, state_file


def test_a_saved_token_comes_back(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    TokenStore("alice@host:7777", path).save("tok-1")
    # The saving process is this one; a later run (another pid) would find it. Pretend to be that run:
    data = json.loads(path.read_text())
    data["alice@host:7777"]["pid"] = dead_pid()
    path.write_text(json.dumps(data))
    assert TokenStore("alice@host:7777", path).load() == "tok-1"
    assert TokenStore("bob@host:7777", path).load() is None
    assert oct(path.stat().st_mode & 0o777) == "0o600"


def test_a_token_in_use_by_a_running_client_is_not_borrowed(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        path.write_text(json.dumps({"alice@host:7777": {"token": "tok", "pid": other.pid}}))
        assert TokenStore("alice@host:7777", path).load() is None
        # A second terminal gets a fresh identity; saving it must not overwrite the first one's seat.
        TokenStore("alice@host:7777", path).save("second")
    finally:
        other.kill()
        other.wait()
    assert TokenStore("alice@host:7777", path).load() == "tok"


def test_a_broken_file_means_no_token(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    path.write_text("{not json")
    assert TokenStore("alice@host:7777", path).load() is None
    TokenStore("alice@host:7777", path).save("fresh")
    assert json.loads(path.read_text())["alice@host:7777"]["token"] == "fresh"


def test_state_file_follows_xdg(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert state_file() == tmp_path / "hanabi" / "resume.json"


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    assert proc.pid != os.getpid()
    return proc.pid


async def test_a_client_still_exiting_is_given_a_moment(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.4)"])
    try:
        path.write_text(json.dumps({"alice@host:7777": {"token": "tok", "pid": other.pid}}))
        store = TokenStore("alice@host:7777", path)
        assert store.held()
        async with trio.open_nursery() as nursery:
            # Reap the child when it exits, as its shell would (a zombie still counts as running).
            nursery.start_soon(trio.to_thread.run_sync, other.wait)
            # The previous run exits within the patience: its token is ours, not a fresh identity.
            with trio.fail_after(10):
                assert await store.wait_for(patience=5.0, step=0.05) == "tok"
        assert not store.held()
    finally:
        other.kill()
        other.wait()


async def test_a_client_that_stays_keeps_its_token(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        path.write_text(json.dumps({"alice@host:7777": {"token": "tok", "pid": other.pid}}))
        assert await TokenStore("alice@host:7777", path).wait_for(patience=0.2, step=0.05) is None
    finally:
        other.kill()
        other.wait()
