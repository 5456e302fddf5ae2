"""What a server's announcement on the LAN says: the DNS-SD service type and its TXT record.

A server announces itself over multicast DNS as a ``_hanabi._tcp`` service
(the server's ``announce.py`` does it, the client's ``discovery.py``
browses); the TXT record carries the keys below, all as decimal or plain text
(RFC 6763 §6). Like the rest of the protocol this module does no I/O: the
server builds the record here, the client reads it here, and docs/protocol.md
describes it for other implementations.
"""

from __future__ import annotations

from dataclasses import dataclass

from .version import PROTOCOL_VERSION, SERVER_PROGRAM

SERVICE_TYPE = "_hanabi._tcp.local."
TXT_VERSION = 1  # the layout of the TXT record (RFC 6763 §6.7), raised if a key changes meaning


@dataclass(frozen=True)
class ServerTxt:
    """The TXT record of one server; a key that is missing or not a number reads as None."""

    protocol: int | None
    program: str
    tables: int | None
    players: int | None


def txt_record(tables: int, players: int, *, protocol: int = PROTOCOL_VERSION,
               program: str = SERVER_PROGRAM) -> dict[str, str]:
    """The TXT record a server announces."""
    return {"txtvers": str(TXT_VERSION), "protocol": str(protocol), "program": program,
            "tables": str(tables), "players": str(players)}


def read_txt(properties: dict[bytes, bytes | None]) -> ServerTxt:
    """A TXT record as received (keys and values are bytes, a key may come without a value)."""

    def text(key: str) -> str:
        value = properties.get(key.encode())
        return value.decode("utf-8", "replace") if value is not None else ""

    def number(key: str) -> int | None:
        value = text(key)
        return int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else None

    return ServerTxt(number("protocol"), text("program")[:64], number("tables"), number("players"))
