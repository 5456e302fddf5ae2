"""The hanabi server: Trio, one task per table, every action in SQLite before anyone sees it.

``serve(host, port, db)`` runs a server inside a Trio nursery and hands back
a ``Server`` (with the bound ``port``) through ``nursery.start``; the
``hanabi-server`` command (``cli.py``) wraps it with signals and logging.
"""

from __future__ import annotations

from .app import Server, serve
from .config import ServerConfig
from .store import Store, StoreError

__all__ = ["Server", "ServerConfig", "Store", "StoreError", "serve"]
