"""Resume tokens on disk: kept between runs, never borrowed from a client that is still running."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import trio
from hanabi.client.tokens import TokenStore, state_file

KEY = "alice@host:7777"

# Another client: holds KEY's token for the given number of seconds, then exits.
OTHER_CLIENT = """
import sys, time
from pathlib import Path
from hanabi.client.tokens import TokenStore
store = TokenStore(sys.argv[1], Path(sys.argv[2]))
assert store.claim()
print("held", flush=True)
time.sleep(float(sys.argv[3]))
"""


@contextmanager
def other_client(path: Path, seconds: float, key: str = KEY) -> Iterator[subprocess.Popen[str]]:
    """A second client process that holds ``key``'s token from the moment this yields."""
    proc = subprocess.Popen([sys.executable, "-c", OTHER_CLIENT, key, str(path), str(seconds)],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "held\n"
        yield proc
    finally:
        proc.kill()
        proc.wait()


def saved(path: Path, token: str, key: str = KEY) -> None:
    """``token`` saved for ``key`` by a client that has since exited."""
    store = TokenStore(key, path)
    store.save(token)
    store.release()


def test_a_saved_token_comes_back(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    saved(path, "tok-1")
    assert TokenStore(KEY, path).load() == "tok-1"
    assert TokenStore("bob@host:7777", path).load() is None
    assert oct(path.stat().st_mode & 0o777) == "0o600"


def test_a_token_in_use_by_a_running_client_is_not_borrowed(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    saved(path, "tok")
    with other_client(path, 30):
        second = TokenStore(KEY, path)
        assert second.held() and second.load() is None
        # A second terminal gets a fresh identity; saving it must not overwrite the first one's seat.
        second.save("second")
        assert json.loads(path.read_text())[KEY]["token"] == "tok"
        # Another name at the same server is not held up by it.
        assert TokenStore("bob@host:7777", path).claim()
    assert TokenStore(KEY, path).load() == "tok"


def test_a_client_killed_outright_leaves_its_token_free(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    saved(path, "tok")
    with other_client(path, 30) as other:
        other.kill()  # SIGKILL: no clean-up runs, the operating system drops the lock
        other.wait()
        assert TokenStore(KEY, path).load() == "tok"


def test_a_broken_file_means_no_token(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    path.write_text("{not json")
    store = TokenStore(KEY, path)
    assert store.load() is None
    store.save("fresh")
    assert json.loads(path.read_text())[KEY]["token"] == "fresh"


def test_state_file_follows_xdg(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert state_file() == tmp_path / "hanabi" / "resume.json"


async def test_a_client_still_exiting_is_given_a_moment(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    saved(path, "tok")
    with other_client(path, 0.4):
        store = TokenStore(KEY, path)
        assert store.held()
        # The previous run exits within the patience: its token is ours, not a fresh identity.
        with trio.fail_after(10):
            assert await store.wait_for(patience=5.0, step=0.05) == "tok"
        assert not store.held()


async def test_a_client_that_stays_keeps_its_token(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    saved(path, "tok")
    with other_client(path, 30):
        assert await TokenStore(KEY, path).wait_for(patience=0.2, step=0.05) is None
