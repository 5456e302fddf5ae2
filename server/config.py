"""The server's tunables in one value: every await facing the network has one of these deadlines and every queue
one of these bounds; tests shrink them to run fast."""

from __future__ import annotations

from dataclasses import dataclass

from hanabi.protocol.transport import DEFAULT_MAX_FRAME, HEADER

MAX_INBOUND_FRAME = 4096  # the longest frame a client may send (see max_inbound_frame)


@dataclass(frozen=True, slots=True)
class ServerConfig:
    motd: str = "Welcome to hanabi! Only clues carry information; have fun."
    bot_delay: float = 0.8  # seconds a bot waits before acting, so humans can follow
    handshake_timeout: float = 3.0  # a new connection must say hello within this (a client says it at once)
    ping_interval: float = 10.0  # the server pings a quiet connection this often
    idle_timeout: float = 30.0  # nothing received for this long: the client is gone
    send_timeout: float = 10.0  # the socket takes no bytes for this long: the client is too slow
    outbound_frames: int = 256  # frames queued for one connection before it counts as too slow
    rate: float = 20.0  # messages per second a connection may send, sustained
    burst: int = 40  # ... and in a burst
    flood_limit: int = 20  # messages refused for the rate in a row before the connection is dropped
    # Every connection from one address (one machine on a LAN) draws on one budget of messages: past it, the server
    # reads that address's connections more slowly (TCP makes them wait), refusing nothing and sending nothing. So a
    # crowd of connections from a few machines cannot fill the event loop's rounds ahead of everyone else's moves.
    address_rate: float = 20.0  # messages per second from one address, sustained (a connection's own rate)
    # ... and at once: a client's login is a handful. Every address's burst can land in one round of the event loop
    # (a crowd's connections send on the same ticks), so it is kept small: 20 addresses, 200 messages at once.
    address_burst: int = 10
    max_frame: int = DEFAULT_MAX_FRAME  # what the server sends
    # What a client sends: its longest request (a chat line of 500 characters) is under 2 KiB. Decoding is the
    # work a frame costs, so bytes have a rate of their own: the reader waits once a peer sent more.
    max_inbound_frame: int = MAX_INBOUND_FRAME
    byte_rate: int = 4096  # bytes a second, sustained (a move is 60 bytes, a long chat line 2 KiB)
    byte_burst: int = HEADER.size + MAX_INBOUND_FRAME  # ... and at once: one frame at the cap
    bulk_read: int = 1024  # reads bigger than this share the server's budget of ``bulk_rate`` bytes a second
    bulk_rate: int = 131_072  # (about 30 dense 4 KiB frames: 30 ms of decoding a second; 16 KiB at once)
    shutdown_grace: float = 2.0  # seconds to deliver the goodbye when the server stops
    max_tables: int = 500
    max_empty_tables_per_address: int = 4  # tables never played with one player at most, by where they came from
    new_tables_per_second: float = 1.0  # tables opened from one address (4 at once)
    max_spectators: int = 50  # per table
    lobby_interval: float = 0.25  # table changes go to the players in the lobby in a batch this often
    # ... and at most this many frames of it a second in all: a batch goes to everyone in the lobby, so with more
    # than 100 there (at the defaults) the batches come less often, and tables churning cost a bounded news.
    lobby_news_rate: float = 400.0
    # A table none of whose seated humans has been connected for this long is closed, its running game stopped
    # and kept as finished (``terminated``): nobody is coming back to it. None: tables wait for ever.
    abandon_after: float | None = 900.0
    # Each rearrangement adds an event to the history every view carries: 3 per seat per turn keep the longest
    # possible game's history far inside the frame cap (about 2,000 events, 40 KB).
    rearranges_per_turn: int = 3
    # Each connection holds a file descriptor: past ``max_connections`` players, a new login is told
    # ``server_full`` (a resume is let in), so one client opening sockets cannot starve the store (and everyone
    # else) of descriptors. Connections that have not said hello have caps of their own (``admission.py``).
    max_connections: int = 1000  # the command line lowers it to fit the open-files limit
    max_unwelcomed: int = 64
    max_unwelcomed_per_address: int = 8
    connects_per_second: float = 10.0  # new connections from one address (twice as many at once)
    max_players_per_address: int = 64  # logged in from one address (one machine on a LAN)
    # Every hello without a resume token makes a player, in memory and in the store. One who holds no seat and
    # watches nothing is forgotten after ``forget_after`` seconds offline (their token then starts afresh);
    # past ``max_players`` known players, the longest offline of them are forgotten at once.
    forget_after: float = 86_400.0
    max_players: int = 20_000
