"""The terminal client: a prompt_toolkit app that shows what the server says and sends what the player means.

``model.reduce`` turns server messages into the ``ClientModel`` the screen
is drawn from; ``app.ClientApp`` is the full-screen app (keys become
requests); ``session.Session`` is the Trio connection that reconnects by
itself; ``runner`` runs Trio as a guest on prompt_toolkit's asyncio loop;
``cli.main`` is the ``hanabi-client`` command (also ``--solo`` and
``--replay``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hanabi.engine.lazy import loader

if TYPE_CHECKING:
    from .app import ClientApp
    from .model import ClientModel, Link, reduce
    from .runner import ModelStore, run_with_trio
    from .session import Address, Session, parse_address

# Where each name lives. A module is loaded when one of its names is first asked for, not when the package
# is, so a command that needs little (``--help``, ``--version``) starts without loading the rest.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "app": ("ClientApp",),
    "model": ("ClientModel", "Link", "reduce"),
    "runner": ("ModelStore", "run_with_trio"),
    "session": ("Address", "Session", "parse_address"),
}
if not TYPE_CHECKING:  # for mypy every name is imported above, with its type
    __getattr__ = loader(__name__, _EXPORTS, globals())

__all__ = ["Address", "ClientApp", "ClientModel", "Link", "Session", "ModelStore", "parse_address", "reduce",
           "run_with_trio"]
