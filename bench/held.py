"""``python bench/held.py [--connections N] [--kinds K]``: what the server keeps per idle TCP connection, in objects
tracked by Python's cycle collector, by kind.

Every full pass of the collector walks every tracked object, and a server
holding a thousand players spends most of that pass in what their
connections keep while they wait (docs/performance.md, "What the tail is
made of"). This starts a server in this process on loopback, opens N
connections from a second process (plain blocking sockets, each says hello
and reads its welcome), and prints how many more tracked objects the server
holds then than with none, per connection, and the commonest kinds (a
coroutine or a generator named by its function: which wait it is in). The
figure is a count, not a time, so a busy machine does not change it.
"""

from __future__ import annotations

import argparse
import collections
import functools
import gc
import subprocess
import sys
import types

import trio
from hanabi.server import ServerConfig, serve

# The clients' process: N connections, each logged in, kept open until stdin closes.
_CLIENTS = r"""
import socket, sys
from hanabi.protocol.framing import Decoder, encode
from hanabi.protocol.messages import Hello, Welcome
from hanabi.protocol.version import PROTOCOL_VERSION
port, n = int(sys.argv[1]), int(sys.argv[2])
held = []
for i in range(n):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(encode(Hello(protocol=PROTOCOL_VERSION, name=f"p{i}", program="held")))
    decoder, got = Decoder(peer="server"), []
    while not any(isinstance(m, Welcome) for m in got):
        got.extend(decoder.take(sock.recv(65536)))
    held.append(sock)
print("ready", flush=True)
sys.stdin.read()
"""

# No caps on connections or messages from one address: every client here comes from 127.0.0.1.
_OPEN = ServerConfig(address_rate=1e9, address_burst=10**9, rate=1e9, burst=10**9, connects_per_second=1e9,
                     max_unwelcomed=10**6, max_unwelcomed_per_address=10**6, max_players_per_address=10**6,
                     max_connections=10**6)


def kind(o: object) -> str:
    """The name of ``o``'s type; for a coroutine or a generator, also its function's."""
    code = (o.cr_code if isinstance(o, types.CoroutineType) else o.gi_code if isinstance(o, types.GeneratorType)
            else None)
    return type(o).__qualname__ + (" " + code.co_qualname if code is not None else "")


def census() -> collections.Counter[str]:
    gc.collect()
    return collections.Counter(kind(o) for o in gc.get_objects())


async def measure(connections: int) -> collections.Counter[str]:
    """What the server tracks with ``connections`` idle connections beyond what it tracks with none."""
    async with trio.open_nursery() as nursery:
        server = await nursery.start(functools.partial(serve, "127.0.0.1", 0, ":memory:", config=_OPEN))
        await trio.sleep(0.5)  # the server's own start-up work done (its first lobby news)
        before = census()
        clients = await trio.lowlevel.open_process([sys.executable, "-c", _CLIENTS, str(server.port),
                                                    str(connections)],
                                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert clients.stdout is not None
        said = b""
        while b"ready" not in said:
            said += await clients.stdout.receive_some()
        await trio.sleep(0.5)  # the welcomes' lobby news sent
        after = census()
        clients.kill()
        await clients.wait()
        nursery.cancel_scope.cancel()
    return after - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=400, help="idle connections (default 400)")
    parser.add_argument("--kinds", type=int, default=25, help="the commonest kinds to list (default 25)")
    args = parser.parse_args()
    if args.connections < 1:
        parser.error("--connections must be at least 1")
    held = trio.run(measure, args.connections)
    n = args.connections
    print(f"{sum(held.values()) / n:.1f} tracked objects per idle connection ({n} connections)")
    for name, count in held.most_common(args.kinds):
        print(f"{count / n:7.2f}  {name}")


if __name__ == "__main__":
    main()
