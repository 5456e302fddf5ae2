"""``python -m hanabi.server``: the same as the ``hanabi-server`` command."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main())
