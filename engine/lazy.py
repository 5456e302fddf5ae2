"""A package whose names load when first asked for (PEP 562), so that a command needing little (``--help``,
``--version``) starts without importing the rest.

Each package of the program lists where its public names live and takes its module ``__getattr__`` from
``loader``; for mypy the same names are imported under ``TYPE_CHECKING``, with their types.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def loader(package: str, exports: Mapping[str, tuple[str, ...]], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: a name of ``exports`` (module -> names) is imported from its module the
    first time it is asked for, then kept in ``namespace`` (the package's globals), so it is asked once."""
    home = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name: str) -> Any:
        if name not in home:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{home[name]}", package), name)
        namespace[name] = value
        return value

    return __getattr__
