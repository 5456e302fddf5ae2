"""Resume tokens kept on disk, so a client that crashed (or was closed) gets its seat back when started again.

One small JSON file in the user's state folder maps "name@host:port" to the
token the server gave, and the process id of the client using it. A token
held by another running client is not borrowed: two terminals of the same
user with the same name would otherwise take each other's seat. Any problem
with the file only means starting without a token; it never stops the client.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import trio


def state_file() -> Path:
    base = os.environ.get("XDG_STATE_HOME")
    if base:
        root = Path(base)
    elif sys.platform == "win32":
        root = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    else:
        root = Path.home() / ".local" / "state"
    return root / "hanabi" / "resume.json"


def _alive(pid: object) -> bool:
    if not isinstance(pid, int) or pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # it exists, it is just not ours to signal
    return True


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class TokenStore:
    """Load and save the resume token of one name at one server."""

    def __init__(self, key: str, path: Path | None = None) -> None:
        self.key = key
        self.path = path or state_file()

    def load(self) -> str | None:
        """The saved token, unless another running client is using it."""
        entry = _read(self.path).get(self.key)
        if not isinstance(entry, dict):
            return None
        token = entry.get("token")
        if not isinstance(token, str) or not token or _alive(entry.get("pid")):
            return None
        return token

    def held(self) -> bool:
        """Whether another running client holds our saved token (``load`` then gives None)."""
        entry = _read(self.path).get(self.key)
        return isinstance(entry, dict) and _alive(entry.get("pid"))

    async def wait_for(self, patience: float = 1.5, step: float = 0.1) -> str | None:
        """``load``, giving a client that holds the token a moment to finish exiting.

        Closing a terminal and starting the client again at once is common; the old process may
        still be on its way out, and taking a fresh identity then would lose the seat for good.
        """
        waited = 0.0
        while True:
            token = self.load()
            if token is not None or not self.held() or waited >= patience:
                return token
            await trio.sleep(step)
            waited += step

    def save(self, token: str) -> None:
        """Keep ``token`` for the next run, unless another running client holds the entry.

        That client is the first terminal of the same name; its seat must outlive this second one.
        """
        data = _read(self.path)
        entry = data.get(self.key)
        if isinstance(entry, dict) and entry.get("token") != token and _alive(entry.get("pid")):
            return
        data[self.key] = {"token": token, "pid": os.getpid()}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temp = self.path.with_suffix(".tmp")
            temp.write_text(json.dumps(data, indent=1), encoding="utf-8")
            temp.chmod(0o600)  # a token is a seat: keep it to ourselves
            temp.replace(self.path)
        except OSError:
            pass
