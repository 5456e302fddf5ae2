"""Resume tokens kept on disk, so a client that crashed (or was closed) gets its seat back when started again.

One small JSON file in the user's state folder maps "name@host:port" to the
token the server gave. Beside it, each name@server has a lock file, held by the
client that uses that token for as long as it runs: a second terminal of the
same user with the same name finds the lock taken and neither borrows the token
(which would take the first one's seat) nor overwrites it. The operating system
drops the lock when the process ends, however it ends, so a crashed client
leaves its token free for the next run. Any problem with the files only means
starting without a token; it never stops the client.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import platformdirs
import trio
from filelock import FileLock, Timeout

APP = "hanabi"  # the folder name under the platform's state folder (the server's data folder uses the same)


def state_file() -> Path:
    """``~/.local/state/hanabi/resume.json`` on Linux (``XDG_STATE_HOME`` honoured), the platform's own elsewhere."""
    return platformdirs.user_state_path(APP, appauthor=False) / "resume.json"


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class TokenStore:
    """Load and save the resume token of one name at one server, holding it against other running clients."""

    def __init__(self, key: str, path: Path | None = None) -> None:
        self.key = key
        self.path = path or state_file()
        # The key may hold any character a name may; the lock file's name must not.
        digest = hashlib.sha256(key.encode()).hexdigest()[:16]
        self._lock = FileLock(self.path.with_name(f"resume-{digest}.lock"), timeout=0, mode=0o600)
        # The whole file is rewritten to save one entry: two clients of different names must not interleave.
        self._file_lock = FileLock(self.path.with_name(self.path.name + ".lock"), timeout=2, mode=0o600)

    def claim(self) -> bool:
        """Hold this name's token for this process, if no other running client holds it; whether we do."""
        if self._lock.is_locked:
            return True
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._lock.acquire()
        except (Timeout, OSError):
            return False
        return True

    def release(self) -> None:
        """Let another client have the token (the end of the process does the same)."""
        if self._lock.is_locked:
            self._lock.release(force=True)

    def held(self) -> bool:
        """Whether another running client holds our token (``load`` then gives None)."""
        return not self.claim()

    def for_name(self, asked: str, given: str) -> TokenStore:
        """Where the token goes when the server calls us ``given`` rather than the ``asked`` this store's key
        names (that name was taken, or the player typed another): under ``given``, which the next run is told to
        ask with (ours is let go). This store itself when the two are the same or its key names neither."""
        head, at, server = self.key.rpartition("@")
        if given == asked or not at or not head.endswith(asked):
            return self
        self.release()
        return TokenStore(f"{head.removesuffix(asked)}{given}@{server}", self.path)

    def load(self) -> str | None:
        """The saved token, unless another running client is using it."""
        if not self.claim():
            return None
        entry = _read(self.path).get(self.key)
        token = entry.get("token") if isinstance(entry, dict) else None
        return token if isinstance(token, str) and token else None

    async def wait_for(self, patience: float = 1.5, step: float = 0.1) -> str | None:
        """``load``, giving a client that holds the token a moment to finish exiting.

        Closing a terminal and starting the client again at once is common; the old process may
        still be on its way out, and taking a fresh identity then would lose the seat for good.
        """
        waited = 0.0
        while not self.claim() and waited < patience:
            await trio.sleep(step)
            waited += step
        return self.load()

    def save(self, token: str) -> None:
        """Keep ``token`` for the next run, unless another running client holds this name's token.

        That client is the first terminal of the same name; its seat must outlive this second one.
        """
        if not self.claim():
            return
        try:
            with self._file_lock:
                data = _read(self.path)
                data[self.key] = {"token": token}
                temp = self.path.with_suffix(".tmp")
                temp.write_text(json.dumps(data, indent=1), encoding="utf-8")
                temp.chmod(0o600)  # a token is a seat: keep it to ourselves
                temp.replace(self.path)
        except (Timeout, OSError):
            pass
