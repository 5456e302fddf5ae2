"""``python -m hanabi.client``: the same as the ``hanabi-client`` command."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main())
