"""The hanabi server: Trio, one task per table, every action in SQLite before anyone sees it.

``serve(host, port, db)`` runs a server inside a Trio nursery and hands back
a ``Server`` (with the bound ``port``) through ``nursery.start``; the
``hanabi-server`` command (``cli.py``) wraps it with signals and logging.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hanabi.engine.lazy import loader

if TYPE_CHECKING:
    from .app import Server, serve
    from .config import ServerConfig
    from .store import Store, StoreError

# Where each name lives. A module is loaded when one of its names is first asked for, not when the package
# is, so a command that needs little (``--help``, ``--version``) starts without loading the rest.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "app": ("Server", "serve"),
    "config": ("ServerConfig",),
    "store": ("Store", "StoreError"),
}
if not TYPE_CHECKING:  # for mypy every name is imported above, with its type
    __getattr__ = loader(__name__, _EXPORTS, globals())

__all__ = ["Server", "ServerConfig", "Store", "StoreError", "serve"]
