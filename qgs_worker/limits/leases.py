"""The leases of ``RedisRateLimiter``: units of a window spent locally, and their renewal ahead.

A ``Lease`` is units of one Redis window granted to this process at once (see
``ratelimit.RedisRateLimiter``). With ``renew_ahead``, an ``Ahead`` holds the leases asked for
before the current ones run out. Nothing runs in the background: the caller's thread writes
the request to Redis (``lease_channel``: a few microseconds of packing and one ``send``, once
per lease) and a later call picks the answer up without waiting for it; the round trip (about
100 us to a local Redis, and what the tool gate's p99 was made of when the caller made it)
happens while the caller does other work. A background thread did this before; the GIL it
needed at every step of each round trip stalled the callers instead (issue 15).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from qgs_worker.limits.lease_channel import LeaseChannel

__all__ = ["ANSWERS_PER_HIT", "BATCH_S", "POLL_S", "Ahead", "Lease", "LeaseStats"]

logger = logging.getLogger(__name__)


class Lease:
    """Units of one window taken from Redis at once, spent by this process without asking."""

    __slots__ = ("ends_at", "granted", "length_s", "limit", "member", "spent", "used", "window_s")

    def __init__(
        self,
        member: str,
        granted: int,
        used: int,
        ends_at: float,
        limit: int,
        window_s: float,
        length_s: float = 0.0,
    ) -> None:
        self.member = member
        self.granted = granted
        self.used = used  # the window's total in Redis when granted, the whole lease included
        self.ends_at = ends_at
        self.limit = limit
        self.window_s = window_s
        self.length_s = length_s  # how long its units may be spent (renewed ahead: after the
        # lease before it ends; else from the local grant time)
        self.spent = 0

    def fits(self, now: float, cost: int, limit: int, window_s: float) -> bool:
        """Whether ``cost`` units of this window may be spent from the lease now."""
        return (
            now < self.ends_at
            and self.spent + cost <= self.granted
            and (self.limit, self.window_s) == (limit, window_s)
        )

    def renewal_due(self, now: float) -> bool:
        """Whether the lease after this one should be asked for now (``renew_ahead``).

        When half its units are spent, or half its time: a key hit at least every half lease
        always finds its next lease ready. A lease renewed ahead runs its whole length after
        the lease before it ends (``RedisRateLimiter._renew_later``), so a key in steady use
        is renewed once per lease time (it was twice while a renewed lease's time ran from
        its request: due again as soon as it replaced the one before).
        """
        return 2 * self.spent >= self.granted or now >= self.ends_at - self.length_s / 2


@dataclass(frozen=True)
class LeaseStats:
    """What a ``RedisRateLimiter`` asked of Redis so far, and who waited for it."""

    caller_round_trips: int
    """Requests the calling thread sent and waited for (each hit without a lease, and each
    lease taken on the caller's path)."""
    sent_ahead: int
    """Requests written without waiting (leases renewed ahead, unspent units given back)."""
    waits: int
    """Times a caller blocked for the answer to a renewal already sent (its lease ran out
    before the answer was read)."""


class Ahead:
    """A limiter's leases renewed ahead, and the requests for them still under way.

    Requests wait in an outbox for at most ``BATCH_S`` (a quarter of a lease if shorter) and
    go to Redis together, in one write on a later hit; their answers are read a few at a
    time by the hits after that. Either way a hit pays one system call at most, and in a
    process renewing many keys (one per agent and tool) only a small share of hits pays any.

    Not thread-safe: the limiter calls it holding its lock. A forked child gets a new
    ``Ahead`` (``RedisRateLimiter._forget_leases``) and never reads the parent's answers.

    Args:
        channel: Where the requests are written (``None``: renewal ahead is off).
    """

    def __init__(self, channel: LeaseChannel | None = None) -> None:
        self.ready: dict[str, Lease] = {}  # key -> the lease to spend once the current ends
        self.asked: set[str] = set()  # keys whose renewal is queued or sent, not answered
        self.returning: dict[str, Lease] = {}  # key -> an ended lease's units to give back
        self.channel = channel
        self.waits = 0  # times a caller needed a renewal whose answer it had not read yet
        self._outbox: list[tuple[Sequence[str | int], Callable[[Any], None]]] = []
        self._send_at = math.inf
        self._poll_at = 0.0

    def renew(self, key: str, args: Sequence[str | int], lease: Lease, now: float) -> None:
        """Queue the request ``args`` for ``lease`` (granted: 0 till Redis answers) of ``key``.

        ``lease`` runs ``length_s`` after the lease it follows ends: the request goes to Redis
        within ``BATCH_S``, a quarter of its length, or half the time the one before has left,
        whichever is soonest. Redis's answer installs it in ``ready`` when a later call reads
        it; a refused or failed request is forgotten (the caller asks itself once its lease
        runs out).
        """
        self.asked.add(key)

        def answered(reply: Any) -> None:
            self.asked.discard(key)
            if isinstance(reply, BaseException):
                logger.debug("rate-limit lease not renewed ahead: %s", reply)
                return
            allowed, used, _, granted = (int(x) for x in reply)
            if allowed:
                lease.granted, lease.used = granted, used
                self.ready[key] = lease

        left_s = lease.ends_at - lease.length_s - now  # of the lease it follows
        self._queue(args, answered, now + min(BATCH_S, lease.length_s / 4, max(0.0, left_s / 2)))

    def give_back(self, args: Sequence[str | int], now: float) -> None:
        """Queue a command whose answer is not needed (a lease's unspent units going back)."""
        self._queue(args, _not_needed, now + BATCH_S)

    def _queue(self, args: Sequence[str | int], on_reply: Callable[[Any], None], by: float) -> None:
        if self.channel is None:
            on_reply(ConnectionError("renewal ahead is off"))
            return
        self._outbox.append((args, on_reply))
        self._send_at = min(self._send_at, by)

    def _send(self) -> None:
        outbox, self._outbox, self._send_at = self._outbox, [], math.inf
        if outbox and self.channel is not None:
            self.channel.send(outbox)

    def collect(self, now: float) -> None:
        """Send the requests whose time has come, or read a few answers; never blocks.

        The socket is looked at at most once per ``POLL_S`` while answers are pending.
        """
        if now >= self._send_at:
            self._send()
            self._poll_at = now + POLL_S
        elif (
            self.channel is not None
            and self.channel.pending
            and now >= self._poll_at
            and self.channel.collect(ANSWERS_PER_HIT)
        ):
            self._poll_at = now + POLL_S  # none left that has arrived: look again later

    def wait_for(self, key: str, timeout_s: float) -> None:
        """Block until the renewal of ``key`` is answered (its lease is needed now)."""
        self.waits += 1
        self._send()
        if self.channel is not None:
            self.channel.wait(lambda: key not in self.asked, timeout_s)

    def drain(self, timeout_s: float) -> bool:
        """Send what is queued, and block until every request is answered.

        Returns:
            False when one could not be (the channel failed or timed out).
        """
        self._send()
        if self.channel is None:
            return True
        return self.channel.wait(lambda: False, timeout_s) or not self.channel.pending

    def close(self) -> None:
        """Disconnect (answers not read yet are lost: their leases end on their own)."""
        outbox, self._outbox = self._outbox, []
        for _, on_reply in outbox:
            on_reply(ConnectionError("the lease channel was closed"))
        self.ready = {}
        if self.channel is not None:
            self.channel.close()


BATCH_S = 0.25
"""How long a request ahead may wait for others to go to Redis with, in seconds (at most a
quarter of its lease, and half the time the lease before it has left: a renewal is due with
half a lease left, or later when the key was not hit in between)."""

POLL_S = 0.001
"""How often a hit looks for answers while some are pending, in seconds (a loopback round
trip is 0.1-1 ms here; each look at the socket is a system call)."""

ANSWERS_PER_HIT = 2
"""Answers one hit reads at most (about 10 us each): a batch's are spread over a few hits."""


def _not_needed(reply: Any) -> None:
    if isinstance(reply, BaseException):
        logger.debug("rate-limit lease units not given back: %s", reply)
