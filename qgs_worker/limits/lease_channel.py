"""A Redis connection the leased rate limit writes to without waiting for the answers.

``RedisRateLimiter(renew_ahead=True)`` asks for a key's next lease before the current one runs
out. It used to hand that request to a background thread, which made the round trip; but a
Python thread that wakes, packs a command, sends, reads and parses a reply needs the GIL at
each step, and a caller busy checking tool calls then gives the GIL up to it (after the
interpreter's switch interval, 5 ms) and waits for the thread's share of work and for the
operating system to run each of them again: a few of those pauses per renewal made the tail
of the tool gate's latency (issue 15). Here nothing runs in the background:

- ``send`` writes commands to a connection of its own, in one write (the requests are on
  their way to Redis when the call returns; nothing waits for the answers);
- ``collect`` reads answers that have arrived, without blocking (a non-blocking poll of the
  socket; callers poll at most once a millisecond while answers are pending);
- ``wait`` blocks until the answers asked for are in: only for a request already sent whose
  answer is needed now (a lease that ran out before its successor arrived), and on release.

Answers come back in the order the commands were sent (Redis answers one connection in
order), so each is handed to the callback given with its command. The connection is
opened only by ``open``, which the limiter calls where its caller already waits for Redis
(its own lease request): a renewal never connects on the caller's path. A connection that
fails is closed and every pending callback gets the error; the limiter's caller then asks
Redis itself when it needs a lease, as it would without renewals.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["LeaseChannel", "pack"]

logger = logging.getLogger(__name__)

Reply = Any
"""An answer as redis-py parses it (a list, an int, bytes), or the exception that replaced it."""


def pack(args: Sequence[str | int], encoding: str = "utf-8") -> bytes:
    """One Redis command in the RESP protocol (what ``Connection.pack_command`` writes).

    About a third of redis-py's packer's time for the rate limit's commands (4.5 against
    11 us here): strings and integers only.
    """
    out = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = arg.encode(encoding) if isinstance(arg, str) else b"%d" % arg
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


class LeaseChannel:
    """Commands written to Redis now, their answers read later (not thread-safe: callers lock).

    Args:
        connect: Makes an unconnected redis-py ``Connection`` (``pool.make_connection``).
        scripts: SHA1 -> source of the Lua scripts sent by ``EVALSHA``: loaded again (one
            ``SCRIPT LOAD`` each, not waited for) when Redis answers ``NOSCRIPT``.
    """

    def __init__(self, connect: Callable[[], Any], scripts: Mapping[str, str]) -> None:
        self._connect = connect
        self._scripts = dict(scripts)
        self._conn: Any = None
        self._encoding = "utf-8"
        self._pending: deque[Callable[[Reply], None]] = deque()
        self.sent = 0
        """Commands written so far."""

    @property
    def pending(self) -> int:
        """Commands sent whose answers are not read yet."""
        return len(self._pending)

    @property
    def is_open(self) -> bool:
        """Whether a connection is open (``open`` succeeded and nothing failed since)."""
        return self._conn is not None

    def open(self) -> None:
        """Connect (blocking: one handshake), unless connected.

        Raises:
            redis.RedisError: Redis could not be reached.
        """
        if self._conn is None:
            conn = self._connect()
            conn.connect()
            self._encoding = conn.encoder.encoding
            self._conn = conn

    def send(self, commands: Sequence[tuple[Sequence[str | int], Callable[[Reply], None]]]) -> None:
        """Write commands in one go; each callback gets its command's answer when it is read.

        When the channel is not open or the write fails (the channel is then closed), every
        callback gets the error at once.
        """
        if self._conn is None:
            error = ConnectionError("the lease channel is not open")
            for _, on_reply in commands:
                on_reply(error)
            return
        data = b"".join(pack(args, self._encoding) for args, _ in commands)
        self._pending.extend(on_reply for _, on_reply in commands)
        try:
            self._conn.send_packed_command([data], check_health=False)
        except Exception as error:  # redis-py raises its own errors and OSError subclasses
            self._fail(error)
            return
        self.sent += len(commands)

    def collect(self, most: int) -> bool:
        """Read up to ``most`` answers that have arrived, without waiting for the others.

        Returns:
            True when it stopped for want of an answer that has arrived (not at ``most``).
        """
        try:
            for _ in range(most):
                if not self._pending or not self._conn.can_read(0):
                    return True
                self._read_one()
        except Exception as error:
            self._fail(error)
            return True
        return False

    def wait(self, done: Callable[[], bool], timeout_s: float) -> bool:
        """Read answers, blocking, until ``done()`` is true or none is pending.

        Args:
            done: Checked before each answer is read.
            timeout_s: The longest wait for one answer, in seconds (the channel is closed
                after it: an answer that late may never come).

        Returns:
            ``done()`` at the end.
        """
        try:
            while self._pending and not done():
                if not self._conn.can_read(timeout_s):
                    raise TimeoutError(f"no answer from Redis within {timeout_s:g} s")
                self._read_one()
        except Exception as error:
            self._fail(error)
        return done()

    def close(self) -> None:
        """Disconnect; pending callbacks get a ``ConnectionError`` (their answers are lost)."""
        self._fail(ConnectionError("the lease channel was closed"))

    def _read_one(self) -> None:
        import redis  # imported by the limiter's client already: a dictionary lookup

        on_reply = self._pending.popleft()
        try:
            reply = self._conn.read_response()
        except redis.ResponseError as error:  # Redis refused this command: the link is fine
            reply = error
            if isinstance(error, redis.exceptions.NoScriptError):  # restarted, or SCRIPT FLUSH
                self.send(
                    [(("SCRIPT", "LOAD", source), _ignore) for source in self._scripts.values()]
                )
        except Exception as error:
            on_reply(error)
            raise
        on_reply(reply)

    def _fail(self, error: BaseException) -> None:
        conn, self._conn = self._conn, None
        pending, self._pending = self._pending, deque()
        if conn is not None:
            logger.debug("rate-limit lease channel closed: %s", error)
            try:
                conn.disconnect()
            except Exception as closing:  # closing a broken socket: nothing more to do
                logger.debug("closing the lease channel: %s", closing)
        for on_reply in pending:
            on_reply(error)


def _ignore(reply: Reply) -> None:
    """The answer to a command sent for its effect alone (a give-back, a script load)."""
