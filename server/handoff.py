"""Cheap hand-offs between tasks on the hot path: a reply one task waits for, and a table's inbox.

Every applied action crosses tasks three times: a connection's reader hands
the request to its table's task, the table waits for the store's writer,
and the reader waits for the table to be done. Trio's general tools for
this (a memory channel, an ``Event`` per request) allocate a parking lot
per event and make the sender yield once more than needed; the load test
found these hand-offs a tenth of the server's time. These two do the same
with Trio's low-level primitives: the waiting task parks itself and the
other side reschedules exactly that task, and a put into a queue that has
room never yields (the wait for the answer that always follows does).

``Reply.wait`` keeps ``Event.wait``'s semantics (a checkpoint; cancellable
unless told otherwise, and then the answer is simply not waited for);
``Inbox`` keeps a bounded memory channel's (a full inbox makes senders wait,
a closed one refuses them, items come out in order).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable
from typing import Generic, TypeVar

import trio
from trio.lowlevel import Abort, Task, current_task, reschedule, wait_task_rescheduled

T = TypeVar("T")


def _refuse_abort(_: object) -> Abort:
    return Abort.FAILED


class Reply:
    """Something one task waits for and another finishes (a request's answer, a store write)."""

    __slots__ = ("_waiter", "finished")

    def __init__(self) -> None:
        self._waiter: Task | None = None
        self.finished = False

    def wait(self, *, cancellable: bool = True) -> Awaitable[object]:
        """Until ``finish``; await it at once (``await reply.wait()``). Cancellable: gives up waiting (what it
        waits for still happens). Not cancellable: a cancellation waits for the answer and is delivered at the
        caller's next checkpoint. A plain method handing back Trio's own wait rather than a coroutine of its
        own: every resume of the waiting task goes through one frame less."""
        if self.finished:
            return trio.lowlevel.checkpoint()
        self._waiter = current_task()
        return wait_task_rescheduled(self._abort if cancellable else _refuse_abort)

    def _abort(self, _: object) -> Abort:
        self._waiter = None
        return Abort.SUCCEEDED

    def finish(self) -> None:
        """Wake the waiting task (from inside the Trio run: a task, or ``run_sync_soon``)."""
        self.finished = True
        waiter, self._waiter = self._waiter, None
        if waiter is not None:
            reschedule(waiter)


class Inbox(Generic[T]):
    """A bounded FIFO of items for one consumer task (a table's requests)."""

    def __init__(self, size: int) -> None:
        self._items: deque[T] = deque()
        self._size = size
        self._getter: Task | None = None
        self._room = trio.lowlevel.ParkingLot()  # senders waiting while it is full
        self.closed = False

    async def put(self, item: T) -> None:
        """Add ``item``; waits while the inbox is full; ``trio.ClosedResourceError`` once it is closed.
        Not a checkpoint when there is room: callers wait for the answer next, which is one."""
        while len(self._items) >= self._size and not self.closed:
            await self._room.park()
        if self.closed:
            raise trio.ClosedResourceError("the inbox is closed")
        self._items.append(item)
        getter = self._getter
        if getter is not None:
            self._getter = None
            reschedule(getter)

    async def get(self) -> T:
        """The oldest item, waiting for one; always a cancellation point."""
        if self._items:
            await trio.lowlevel.checkpoint_if_cancelled()
        while not self._items:
            self._getter = current_task()
            await wait_task_rescheduled(self._abort)
        item = self._items.popleft()
        if self._room:
            self._room.unpark()
        return item

    def _abort(self, _: object) -> Abort:
        self._getter = None
        return Abort.SUCCEEDED

    def close(self) -> list[T]:
        """Refuse every later ``put`` (and the senders waiting for room); returns the items never taken."""
        self.closed = True
        self._room.unpark_all()
        items = list(self._items)
        self._items.clear()
        return items
