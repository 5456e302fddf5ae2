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
NAME_LIMIT = 60  # bytes of a server's name: a DNS label holds 63, and a clash renames "name" to "name-2"


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


def hosted_name(owner: str) -> str:
    """The name a server is announced under unless told otherwise: "<owner>'s Hanabi server", cut to fit."""
    return f"{owner}'s Hanabi server".encode()[:NAME_LIMIT].decode(errors="ignore")


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a server's name on the LAN, or None."""
    if not name.strip():
        return "the name is empty: give a few words players will recognise"
    if not name.isprintable():
        return "the name has a control character: use letters, digits, spaces and punctuation"
    if len(name.encode()) > NAME_LIMIT:
        return f"the name is {len(name.encode())} bytes long; the most a LAN name can be is {NAME_LIMIT}"
    return None


def read_txt(properties: dict[bytes, bytes | None]) -> ServerTxt:
    """A TXT record as received (keys and values are bytes, a key may come without a value)."""

    def text(key: str) -> str:
        value = properties.get(key.encode())
        return value.decode("utf-8", "replace") if value is not None else ""

    def number(key: str) -> int | None:
        value = text(key)
        return int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else None

    return ServerTxt(number("protocol"), text("program")[:64], number("tables"), number("players"))
