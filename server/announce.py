"""Telling the LAN that this server is here: a DNS-SD ``_hanabi._tcp`` service over multicast DNS (``zeroconf``).

The TXT record (``protocol.lan``) carries the versions and how many tables and players there are; ``announce``
updates it when they change, at most every ``every`` seconds. zeroconf's blocking calls run in
``trio.to_thread`` (where no asyncio loop runs, so it starts its own thread, even inside the client). When
announcing cannot be done (no multicast, no interface), the server logs one sentence and goes on.
"""

from __future__ import annotations

import contextlib
import getpass
import ipaddress
import logging
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import trio
from hanabi.protocol.lan import NAME_LIMIT, SERVICE_TYPE, hosted_name, txt_record

if TYPE_CHECKING:
    from zeroconf import ServiceInfo

log = logging.getLogger(__name__)

UPDATE_EVERY = 2.0  # seconds: the least time between two updates of the counts
_LOOK_EVERY = 0.5  # seconds: how often the counts are read (reading them costs nothing)
_GOODBYE_WITHIN = 2.0  # seconds given to saying goodbye when the server stops
# Seconds spent listening for the servers already on the network before taking a name: they answer a query within
# a few tenths, or a second later when they have just multicast their records (mDNS holds repeats back a second).
_CLASH_WAIT = 2.0


@dataclass(frozen=True)
class Counts:
    tables: int
    players: int


def default_name() -> str:
    """"<user>'s Hanabi server", or the machine's name when the user's is unknown."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = ""
    if user:
        return hosted_name(user)
    return (socket.gethostname() or "Hanabi server").encode()[:NAME_LIMIT].decode(errors="ignore")


def lan_address() -> str | None:
    """This machine's address on the local network, to tell players where to connect (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            address: str = s.getsockname()[0]
            return address
    except OSError:
        return None


def where(host: str | None) -> tuple[list[str] | None, str] | str:
    """For a server listening on ``host``: (the interfaces to announce on, None for all; the address to
    announce), or why it cannot be announced. One bound to an address announces on that address only."""
    if host in (None, "", "*", "0.0.0.0", "::"):
        # The address of the default route is the one players are told to type, and the one a machine with
        # other bridges (containers, VPNs) is reachable at from the LAN; with no route, only this machine is.
        return None, lan_address() or "127.0.0.1"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        try:
            address = ipaddress.ip_address(socket.gethostbyname(host))
        except (OSError, UnicodeError):
            return f"{host} cannot be resolved to an IPv4 address"
    if address.version != 4:
        return f"{host} is an IPv6 address; LAN announcements go over IPv4"
    return [str(address)], str(address)


class Announcement:
    """One registered service, driven by blocking calls (each made in a worker thread by ``announce``)."""

    def __init__(self, name: str, host: str | None, port: int, counts: Counts) -> None:
        # Imported here: a server that never announces need not load it.
        from zeroconf import IPVersion, Zeroconf

        found = where(host)
        if isinstance(found, str):
            raise OSError(found)
        interfaces, address = found
        self.counts = counts
        self.port = port
        self.address = address
        self.info = self._info(f"{name}.{SERVICE_TYPE}", None)
        self.registered = False
        self.zeroconf = (Zeroconf(ip_version=IPVersion.V4Only) if interfaces is None
                         else Zeroconf(interfaces=list(interfaces), ip_version=IPVersion.V4Only))

    def _info(self, full_name: str, server: str | None) -> ServiceInfo:
        from zeroconf import ServiceInfo

        return ServiceInfo(SERVICE_TYPE, full_name, port=self.port, parsed_addresses=[self.address], server=server,
                           properties=txt_record(self.counts.tables, self.counts.players))

    def register(self) -> None:
        """Register under the name asked for, or "name-2", "name-3"... when a server already has it."""
        try:
            self.info = self._info(self._free_name(), None)
            # allow_name_change: zeroconf's own probing settles a clash the check above could not see (two
            # servers starting at the same moment on two machines).
            self.zeroconf.register_service(self.info, allow_name_change=True)
            self.registered = True
        except BaseException:
            self.zeroconf.close()
            raise

    def _free_name(self) -> str:
        # zeroconf's probes ask for unicast answers; two servers on one machine share port 5353, where a unicast
        # answer reaches only one socket, so a clash there goes unnoticed. So we first browse, as a client does,
        # asking for multicast answers (QM), which every socket hears, and take the first name no one has.
        from zeroconf import DNSQuestionType, ServiceBrowser, ServiceStateChange

        taken: set[str] = set()

        def seen(zeroconf: object, service_type: str, name: str, state_change: ServiceStateChange) -> None:
            (taken.discard if state_change is ServiceStateChange.Removed else taken.add)(name.lower())

        browser = ServiceBrowser(self.zeroconf, SERVICE_TYPE, handlers=[seen], question_type=DNSQuestionType.QM)
        try:
            time.sleep(_CLASH_WAIT)
        finally:
            browser.cancel()  # joins its thread: ``taken`` is ours alone from here
        wanted = self.name
        name, number = wanted, 2
        while f"{name}.{SERVICE_TYPE}".lower() in taken:
            name, number = f"{wanted}-{number}", number + 1
        return f"{name}.{SERVICE_TYPE}"

    @property
    def name(self) -> str:
        """The name it was registered under (after a rename, if there was a clash)."""
        full: str = self.info.name
        return full[: -len(SERVICE_TYPE) - 1]

    def update(self, counts: Counts) -> None:
        self.counts = counts
        # A ServiceInfo's TXT record is fixed once built: the update is a new one under the registered name.
        self.info = self._info(self.info.name, self.info.server)
        self.zeroconf.update_service(self.info)

    def close(self) -> None:
        """Say goodbye (browsers drop us at once) and close the sockets; safe to call more than once."""
        try:
            if self.registered:
                self.registered = False
                self.zeroconf.unregister_service(self.info)
        finally:
            self.zeroconf.close()


async def announce(name: str, host: str | None, port: int, counts: Callable[[], Counts], *,
                   every: float = UPDATE_EVERY,
                   task_status: trio.TaskStatus[Announcement | None] = trio.TASK_STATUS_IGNORED) -> None:
    """Announce the server listening on ``host``:``port`` as ``name`` until cancelled, keeping its counts
    current; ``task_status.started`` gets the ``Announcement`` once registered, or None when it cannot be."""
    try:
        announcement = await trio.to_thread.run_sync(Announcement, name, host, port, counts())
    except Exception as e:  # zeroconf raises OSError, RuntimeError ("no interfaces") or its own errors
        _cannot(e, task_status)
        return
    try:
        try:
            # abandon_on_cancel: registering takes a few seconds, and a server stopped meanwhile must not wait
            await trio.to_thread.run_sync(announcement.register, abandon_on_cancel=True)
        except Exception as e:
            _cannot(e, task_status)
            return
        log.info("announced on the LAN as %r at %s:%d", announcement.name, announcement.address, port)
        task_status.started(announcement)
        sent_at = trio.current_time()
        while True:
            await trio.sleep(_LOOK_EVERY)
            now = counts()
            if now != announcement.counts and trio.current_time() - sent_at >= every:
                sent_at = trio.current_time()
                try:
                    await trio.to_thread.run_sync(announcement.update, now)
                except Exception as e:
                    log.warning("could not update this server's LAN announcement (%s)", _reason(e))
    finally:
        with trio.CancelScope(shield=True), trio.move_on_after(_GOODBYE_WITHIN), contextlib.suppress(Exception):
            # abandon_on_cancel: a goodbye that hangs must not hold up the server's stop past the deadline
            await trio.to_thread.run_sync(announcement.close, abandon_on_cancel=True)


def _cannot(error: BaseException, task_status: trio.TaskStatus[Announcement | None]) -> None:
    log.warning("could not announce this server on the LAN (%s); players can still connect by address",
                _reason(error))
    task_status.started(None)


def _reason(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return text if not isinstance(error, OSError) or not error.strerror else error.strerror
