"""The transport (docs/protocol.md, sections 1 and 2): frames over TCP, by default to port 7777, each a 4-byte
big-endian length and then its body, at most 64 KiB by default.

Alone in its module, free of msgpack, so that a command can state these in its ``--help`` without loading the
protocol.
"""

from __future__ import annotations

import struct

DEFAULT_PORT = 7777  # the reference server's TCP port when none is given
DEFAULT_MAX_FRAME = 64 * 1024
HEADER = struct.Struct(">I")
