"""Read frames and show what they hold: a debugging aid for anyone implementing the protocol.

    python -m hanabi.protocol.dump [FILE ...] [--hex] [--peer client|server] [--max-frame N]

Reads raw frames (4-byte big-endian length, then a msgpack map) from the
files, or from standard input, or hex text with ``--hex`` (white space is
ignored, so a hex dump pasted from a packet capture works). Prints each
message as one line of JSON, in its wire form, or the precise error a peer
would get for it. Exits with status 1 if any frame was refused. A ``view``
that continues a history (``since`` above 0) reads only after the frames
before it on its connection: capture a connection from its first frame.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Literal

from .errors import ProtocolError
from .framing import Decoder
from .messages import to_wire
from .transport import DEFAULT_MAX_FRAME


def read_input(paths: list[str], hexed: bool) -> bytes:
    chunks = []
    if not paths:
        chunks.append(sys.stdin.buffer.read())
    for path in paths:
        with open(path, "rb") as f:
            chunks.append(f.read())
    data = b"".join(chunks)
    if hexed:
        text = "".join(data.decode("ascii", errors="replace").split())
        return bytes.fromhex(text)
    return data


def dump(data: bytes, *, peer: Literal["client", "server"] | None, max_frame: int, out: list[str]) -> bool:
    """Decode every frame of ``data`` into ``out`` lines; False if any was refused."""
    decoder = Decoder(max_frame, peer=peer)
    clean = True
    for item in decoder.take(data):
        if isinstance(item, ProtocolError):
            clean = False
            out.append(f"refused ({item.code}): {item.message}")
            if item.fatal:
                return False
        else:
            out.append(json.dumps(to_wire(item), ensure_ascii=False))
    if decoder.buffered:
        out.append(f"incomplete: {decoder.buffered} bytes at the end do not make a whole frame")
        clean = False
    return clean


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hanabi.protocol.dump", description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", help="files of raw frames (default: standard input)")
    parser.add_argument("--hex", action="store_true", help="the input is hex text, not raw bytes")
    parser.add_argument("--peer", choices=["client", "server"], default=None,
                        help="who sent the frames: refuse the other side's message types (default: accept all)")
    parser.add_argument("--max-frame", type=int, default=DEFAULT_MAX_FRAME, help="the frame cap in bytes")
    args = parser.parse_args(argv)
    if args.max_frame < 1:
        parser.error("--max-frame must be at least 1")
    try:
        data = read_input(args.files, args.hex)
    except OSError as exc:
        print(f"error: cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"error: the input is not hex text ({exc}); leave out --hex for raw bytes", file=sys.stderr)
        return 2
    lines: list[str] = []
    ok = dump(data, peer=args.peer, max_frame=args.max_frame, out=lines)
    try:
        for line in lines:
            print(line)
        sys.stdout.flush()
    except BrokenPipeError:  # a reader such as `head` left early: not an error of ours
        sys.stderr.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
