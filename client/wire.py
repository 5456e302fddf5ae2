"""One stream to a server in the protocol's terms: messages out as frames, frames in as messages.

The app's self-healing connection (``session.Session``) and the network bot
(``bot.py``) both talk to a server through a ``Wire``: it owns the stream's
``Decoder``, so a message that arrives in the same read as another (a welcome
and what follows it) simply waits in the decoder for the next ``receive``.
What to do with a message, and when to reconnect, is the caller's.
"""

from __future__ import annotations

import trio
from hanabi.protocol.framing import Decoder, encode
from hanabi.protocol.messages import Message

SEND_TIMEOUT = 10.0  # seconds for one frame to leave: a server that reads nothing for that long is gone


class Wire:
    """A stream and its decoder. ``receive`` until it returns None (the server closed the stream)."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.decoder = Decoder(peer="server")
        self.heard_at = trio.current_time()  # when the server last sent a byte (a silent link is a dead one)

    async def send(self, message: Message) -> None:
        """Send ``message``; raises trio.TooSlowError after ``SEND_TIMEOUT`` and ProtocolError for a message the
        protocol cannot carry."""
        with trio.fail_after(SEND_TIMEOUT):
            await self.stream.send_all(encode(message))

    async def receive(self) -> Message | None:
        """The next message from the server, or None once it has closed the stream.

        A frame that cannot be read raises ProtocolError: after a non-fatal one the wire goes on with the next
        frame; after a fatal one (``exc.fatal``) nothing more can be read from it.
        """
        while True:
            message = self.decoder.next_message()
            if message is not None:
                return message
            data = await self.stream.receive_some()
            if not data:
                return None
            self.heard_at = trio.current_time()
            self.decoder.receive(bytes(data))
