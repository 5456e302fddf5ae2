"""Finding servers on this network: browse the ``_hanabi._tcp`` DNS-SD services that servers announce over mDNS.

``Browser`` keeps a live list of the servers found. zeroconf does the work in
threads of its own (its ServiceBrowser calls us back on its thread, where
asking a server's details may block); the list is kept under a lock and
``servers()`` hands out a snapshot, so a screen simply reads it when it
redraws and Trio never has to wait on zeroconf. Nothing here may break the
client: when the network cannot be searched (no interface, no multicast, a
firewall) ``start`` returns one sentence saying so, and playing by address
works as before.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hanabi.protocol.lan import SERVICE_TYPE, read_txt
from hanabi.protocol.version import PROTOCOL_VERSION, version_mismatch

from .session import Address

if TYPE_CHECKING:
    from zeroconf import ServiceBrowser, Zeroconf

_ASK_FOR = 1500  # milliseconds to wait for a server's details once it is seen
NOTHING_FOUND = "no server found on this network; connect to one by address: hanabi-client HOST[:PORT]"


@dataclass(frozen=True)
class Found:
    """One server seen on the network, as its announcement describes it."""

    name: str
    host: str
    port: int
    protocol: int | None
    program: str
    tables: int | None
    players: int | None

    @property
    def address(self) -> Address:
        return Address(self.host, self.port)

    @property
    def where(self) -> str:
        return f"{self.host}:{self.port}"

    def mismatch(self) -> str | None:
        """The sentence saying who should upgrade when its protocol is not ours, or None."""
        if self.protocol is None:
            return f"{self.name} does not say which protocol it speaks: it may not be a hanabi server"
        return version_mismatch(PROTOCOL_VERSION, self.protocol, their_program=self.program, we_are="client")

    def line(self) -> str:
        """One line of ``hanabi-client --list``."""
        mark = "" if self.mismatch() is None else "  (cannot join: another protocol version)"
        return (f"{self.name}  {self.where}  players {_count(self.players)}  tables {_count(self.tables)}  "
                f"protocol {_count(self.protocol)}{mark}")

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "host": self.host, "port": self.port, "players": self.players,
                "tables": self.tables, "protocol": self.protocol, "program": self.program,
                "compatible": self.mismatch() is None}


def _count(value: int | None) -> str:
    return "?" if value is None else str(value)


def instance_name(full: str) -> str:
    """``Alice's server._hanabi._tcp.local.`` -> ``Alice's server``."""
    return full[: -len(SERVICE_TYPE) - 1] if full.endswith("." + SERVICE_TYPE) else full


def ordered(servers: list[Found]) -> list[Found]:
    """Servers we can join first, then by name and address, so the list does not jump about."""
    return sorted(servers, key=lambda f: (f.mismatch() is not None, f.name.lower(), f.where))


class Browser:
    """The servers announcing themselves on this network, kept current until ``close``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._found: dict[str, Found] = {}  # by full service name
        self._zeroconf: Zeroconf | None = None
        self._browser: ServiceBrowser | None = None
        self.changes = 0  # counts every change of the list, for a screen to know when to redraw

    def start(self) -> str | None:
        """Start looking (returns at once); the sentence saying why we cannot, or None."""
        try:
            from zeroconf import DNSQuestionType, IPVersion, ServiceBrowser, Zeroconf

            # Called where no asyncio loop runs (a plain thread or before the app's loop), zeroconf starts
            # a thread and loop of its own, so its blocking calls never stall ours.
            self._zeroconf = Zeroconf(ip_version=IPVersion.V4Only)
            # Multicast answers only (QM): an answer sent by unicast to port 5353 reaches just one of the
            # sockets sharing it on a machine, so a server on this same machine could go unheard.
            self._browser = ServiceBrowser(self._zeroconf, SERVICE_TYPE, handlers=[self._changed],
                                           question_type=DNSQuestionType.QM)
        except Exception as e:  # OSError, or RuntimeError("No interfaces to listen on"), or zeroconf's own
            self.close()
            reason = (e.strerror if isinstance(e, OSError) and e.strerror else str(e)) or type(e).__name__
            return (f"cannot look for servers on this network ({reason}); "
                    "connect to one by address: hanabi-client HOST[:PORT]")
        return None

    def servers(self) -> list[Found]:
        with self._lock:
            return ordered(list(self._found.values()))

    def wait(self, seconds: float) -> list[Found]:
        """The servers found after listening for ``seconds`` (blocking: for ``--list``)."""
        time.sleep(seconds)
        return self.servers()

    def close(self) -> None:
        browser, self._browser = self._browser, None
        zeroconf, self._zeroconf = self._zeroconf, None
        if browser is not None:
            browser.cancel()
        if zeroconf is not None:
            zeroconf.close()

    def _changed(self, zeroconf: Zeroconf, service_type: str, name: str, state_change: object) -> None:
        """zeroconf's callback, on its browser thread: a server appeared, changed or said goodbye."""
        from zeroconf import DNSQuestionType, IPVersion, ServiceStateChange

        if state_change is ServiceStateChange.Removed:
            self._store(name, None)
            return
        try:
            info = zeroconf.get_service_info(service_type, name, timeout=_ASK_FOR, question_type=DNSQuestionType.QM)
        except Exception:  # a malformed answer from some device must not stop the browsing
            info = None
        if info is None or info.port is None:
            return  # it did not answer in time: the next announcement or query brings it back
        addresses = info.parsed_addresses(IPVersion.V4Only)
        if not addresses:
            return
        txt = read_txt(info.properties)
        self._store(name, Found(instance_name(name), addresses[0], info.port, txt.protocol, txt.program,
                                txt.tables, txt.players))

    def _store(self, name: str, found: Found | None) -> None:
        with self._lock:
            if found is None:
                if self._found.pop(name, None) is not None:
                    self.changes += 1
            elif self._found.get(name) != found:
                self._found[name] = found
                self.changes += 1
