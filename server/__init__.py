"""The hanabi server: Trio, one task per table, every action in SQLite before anyone sees it.

``serve(host, port, db)`` runs a server inside a Trio nursery and hands back
a ``Server`` (with the bound ``port``) through ``nursery.start``; the
``hanabi-server`` command (``cli.py``) wraps it with signals and logging.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

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
_HOME = {name: module for module, names in _EXPORTS.items() for name in names}

if not TYPE_CHECKING:  # for mypy every name is imported above, with its type

    def __getattr__(name):
        if name not in _HOME:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
        globals()[name] = value  # asked once
        return value

__all__ = ["Server", "ServerConfig", "Store", "StoreError", "serve"]
