"""Sliding-window rate limits shared through Redis by every worker (and, re-exported, in one process).

The window is exact (a sorted set of hits with their times, not fixed buckets): within any
``window_s`` seconds at most ``limit`` units pass, whichever process sends them. Redis does the
check-and-count atomically in one Lua script (``ratelimit_redis``), using the Redis server's
clock, so processes on machines with skewed clocks still share one window. The in-process
window and the circuit breaker live in ``limiters``.
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
import uuid
import weakref
from typing import Any

from qgs_worker.core.models import RateDecision
from qgs_worker.errors import InputError
from qgs_worker.limits.judge_limit import JudgeRateLimit  # its old home
from qgs_worker.limits.lease_channel import LeaseChannel
from qgs_worker.limits.leases import Ahead, Lease, LeaseStats
from qgs_worker.limits.limiters import (  # their old home
    CircuitBreakerLimiter,
    LocalRateLimiter,
    RateLimiterUnavailableError,
    check_hit,
)
from qgs_worker.limits.ratelimit_redis import (
    GIVE_BACK_LUA,
    KEY_PREFIX,
    REDIS_TIMEOUT_S,
    SLIDING_WINDOW_LUA,
    USED_PREFIX,
    redis_for_broker,
)

__all__ = [
    "KEY_PREFIX",
    "REDIS_TIMEOUT_S",
    "USED_PREFIX",
    "CircuitBreakerLimiter",
    "JudgeRateLimit",
    "LeaseStats",
    "LocalRateLimiter",
    "RateLimiterUnavailableError",
    "RedisRateLimiter",
    "redis_for_broker",
]

logger = logging.getLogger(__name__)

_MAX_LEASES = 10_000
"""Leases one limiter keeps (one per agent and tool in use); ended ones are dropped beyond it."""


class RedisRateLimiter:
    """A sliding window in Redis, shared by every process and machine on the same Redis.

    By default every hit is one round trip (a Lua script: exact, the Redis server's clock).
    With ``lease_fraction`` set, a process takes up to that share of a window's limit in one
    round trip (a *lease*) and spends it locally, asking Redis again only when the lease is
    spent or ``lease_s`` has passed; on the gate's hot path this turns a loopback round trip
    (about 100 us here) into a dictionary lookup for all but one call in ``limit * fraction``.

    Leasing never lets more than ``limit`` through in any window: a lease is counted in Redis
    as a hit of all its units, scored at the *end* of its lease, so it counts in every window
    in which any of its units may be spent, and its units stop being spent locally before that
    end (the local clock starts before the request is sent). What it costs: units a process
    took and has not spent are unavailable to the others until that process's next lease gives
    them back, or until ``lease_s + window_s`` after the grant if it never asks again (a process
    that exits). So leases are only taken where a share comes to 2 units or more; below that
    (small limits) every hit asks Redis, exactly as without leasing.

    With ``renew_ahead`` (what the tool gate uses), the hit that finds half of a lease spent or
    half its time past sends the request for the next one (``leases.Ahead``: written to a
    connection of the limiter's own, not waited for) and a later hit reads the answer, so a
    caller that keeps hitting finds its next lease waiting and never waits for Redis, and no
    thread competes with it for the GIL (a renewal thread did, and its pauses made the gate's
    tail). A lease renewed ahead runs ``lease_s`` after the one before it ends (so a key in
    steady use is renewed once per ``lease_s``); a lease that ends with units unspent gives
    them back in the same way. The caller still asks Redis itself when no lease ahead is ready
    (the first hit, a key idle for a while, a window near its limit), and waits for a renewal
    already sent rather than sending another. The guarantee is the same (every lease counts
    in Redis), at the price of holding up to two leases per key at once.

    Args:
        client: A ``redis.Redis`` client (any db); each window is the sorted set
            ``qgs:ratelimit:<key>`` with its running total in ``qgs:ratelimit-used:<key>``.
        lease_fraction: The share of a window's limit one lease may take, 0 to 1 (0: no
            leases, every hit asks Redis).
        lease_s: How long a lease's units may be spent, in seconds; at most a tenth of the
            window is used.
        clock: Monotonic seconds (tests pass their own).
        renew_ahead: Ask for the next lease before the current one runs out, without waiting.

    Raises:
        InputError: ``lease_fraction`` outside 0..1, or ``lease_s`` not above 0.
    """

    def __init__(
        self,
        client: Any,
        *,
        lease_fraction: float = 0.0,
        lease_s: float = 1.0,
        clock: Any = time.monotonic,
        renew_ahead: bool = False,
    ) -> None:
        if not 0.0 <= lease_fraction <= 1.0:
            raise InputError(f"'lease_fraction' must be between 0 and 1 (got {lease_fraction})")
        if lease_s <= 0:
            raise InputError(f"'lease_s' must be above 0 seconds (got {lease_s})")
        self._client = client
        self._script = client.register_script(SLIDING_WINDOW_LUA)
        self._give_back = client.register_script(GIVE_BACK_LUA)
        self._shas = (self._script.sha, self._give_back.sha)  # what EVALSHA sends
        self.lease_fraction = lease_fraction
        self.lease_s = lease_s
        self._clock = clock
        self._lock = threading.Lock()
        self._leases: dict[str, Lease] = {}
        self.renew_ahead = renew_ahead
        self._ahead = self._new_ahead()
        self._caller_round_trips = 0
        self._timeout_s = _read_timeout_s(client)
        _LEASING.add(self)

    def _new_ahead(self) -> Ahead:
        pool = getattr(self._client, "connection_pool", None)
        if not self.renew_ahead or pool is None:  # (a cluster client: the caller asks)
            return Ahead()
        scripts = {self._shas[0]: SLIDING_WINDOW_LUA, self._shas[1]: GIVE_BACK_LUA}
        return Ahead(LeaseChannel(pool.make_connection, scripts))

    def _forget_leases(self) -> None:
        """In a forked child: the parent's leases are the parent's to spend, not a copy's."""
        self._lock = threading.Lock()  # another thread may have held it at the fork
        self._leases = {}
        self._ahead = Ahead()  # the parent's answers are the parent's to read: never this one's
        self._ahead = self._new_ahead()

    @property
    def stats(self) -> LeaseStats:
        """What this limiter asked of Redis so far (tests and the bench read it)."""
        channel = self._ahead.channel
        return LeaseStats(
            self._caller_round_trips, channel.sent if channel else 0, self._ahead.waits
        )

    def hit(self, key: str, *, limit: int, window_s: float, cost: int = 1) -> RateDecision:
        """See ``qgs_worker.core.ports.RateLimiter.hit``.

        With leasing, ``used`` is the window's total in Redis when the current lease was
        granted, that whole lease included (at least what was really spent).

        Raises:
            InputError: ``limit`` or ``cost`` below 1, or ``window_s`` not above 0.
            redis.RedisError: Redis could not be reached.
        """
        check_hit(limit, window_s, cost)
        units = int(limit * self.lease_fraction)
        if units < 2:
            allowed, used, retry_ms, _ = self._ask(key, uuid.uuid4().hex, limit, window_s, cost)
            return _decision(allowed, used, limit, retry_ms)
        with self._lock:  # leases and their renewals: one hit at a time
            now = self._clock()
            ahead = self._ahead
            ahead.collect(now)  # renewals answered since: read without waiting
            lease = self._leases.get(key)
            if lease is not None and lease.fits(now, cost, limit, window_s):
                lease.spent += cost
                if self.renew_ahead and lease.renewal_due(now):
                    self._renew_later(key, lease, units, now)
                return RateDecision(allowed=True, used=lease.used, limit=limit)
            if key in ahead.asked:  # its renewal is on the way: wait for it, not ask again
                ahead.wait_for(key, self._timeout_s)
                now = self._clock()
            ready = ahead.ready.pop(key, None)
            if ready is not None and ready.fits(now, cost, limit, window_s):
                self._leases[key] = ready  # renewed ahead: no round trip on the caller's path
                ready.spent += cost
                if lease is not None and lease.spent < lease.granted:
                    self._return_later(key, lease, now)
                if ready.renewal_due(now):
                    self._renew_later(key, ready, units, now)
                return RateDecision(allowed=True, used=ready.used, limit=limit)
            if ready is not None and ready.spent < ready.granted:
                ahead.give_back(self._give_back_args(key, ready), now)  # ended, another limit
            if lease is not None:
                del self._leases[key]  # whatever Redis answers, this lease is over
            return self._lease_now(key, lease, limit, window_s, cost, units, now)

    def _lease_now(
        self,
        key: str,
        ended: Lease | None,
        limit: int,
        window_s: float,
        cost: int,
        units: int,
        now: float,
    ) -> RateDecision:
        """Take a lease on the caller's path: one round trip, waited for (holding the lock)."""
        kept = self._ahead.returning.pop(key, None)  # an earlier lease's units: back too
        if ended is None:
            ended = kept
        elif kept is not None:
            self._ahead.give_back(self._give_back_args(key, kept), now)
        lease_s = min(self.lease_s, window_s / 10)
        member = uuid.uuid4().hex
        allowed, used, retry_ms, granted = self._ask(
            key, member, limit, window_s, cost, want=max(units, cost), lease_s=lease_s,
            returning=ended,
        )  # fmt: skip
        if not allowed:
            return _decision(allowed, used, limit, retry_ms)
        if self._ahead.channel is not None and not self._ahead.channel.is_open:
            self._open_channel()  # the caller waits for Redis here anyway: connect now
        fresh = Lease(member, granted, used, now + lease_s, limit, window_s, lease_s)
        fresh.spent = cost
        if len(self._leases) >= _MAX_LEASES:  # many agents: forget the leases that ended
            self._leases = {k: v for k, v in self._leases.items() if v.ends_at > now}
            ready = self._ahead.ready
            self._ahead.ready = {k: v for k, v in ready.items() if v.ends_at > now}
            self._ahead.returning = {}  # their units count in Redis till they end, no longer
            if len(self._leases) >= _MAX_LEASES:
                self._leases.clear()  # safe: their units still count in Redis till they end
        self._leases[key] = fresh
        if self.renew_ahead and fresh.renewal_due(now):
            self._renew_later(key, fresh, units, now)
        return RateDecision(allowed=True, used=fresh.used, limit=limit)

    def _open_channel(self) -> None:
        assert self._ahead.channel is not None
        try:
            self._ahead.channel.open()
        except Exception as error:  # no renewals ahead: the caller asks when a lease runs out
            logger.debug("rate-limit lease channel not opened: %s", error)

    def _renew_later(self, key: str, lease: Lease, units: int, now: float) -> None:
        """Queue the request for the lease after ``lease`` (called holding the lock).

        The new lease runs ``lease.length_s`` after ``lease`` ends. An ended lease of the key
        kept by ``_return_later`` gives its unspent units back in the same request.
        """
        ahead = self._ahead
        if key in ahead.asked or key in ahead.ready:
            return
        lease_s = max(0.0, lease.ends_at - now) + lease.length_s
        member = uuid.uuid4().hex
        args = self._script_args(
            key, member, lease.limit, lease.window_s, 1, want=units, lease_s=lease_s,
            returning=ahead.returning.pop(key, None),
        )  # fmt: skip
        following = Lease(member, 0, 0, now + lease_s, lease.limit, lease.window_s, lease.length_s)
        ahead.renew(key, ("EVALSHA", self._shas[0], 2, *args), following, now)

    def _return_later(self, key: str, ended: Lease, now: float) -> None:
        """Keep an ended lease's unspent units to give back with the key's next request."""
        earlier = self._ahead.returning.pop(key, None)
        if earlier is not None:
            self._ahead.give_back(self._give_back_args(key, earlier), now)
        self._ahead.returning[key] = ended

    def _give_back_args(self, key: str, lease: Lease) -> tuple[str | int, ...]:
        spent = f"{lease.member}r:{lease.spent}" if lease.spent else ""
        return (
            "EVALSHA", self._shas[1], 2, KEY_PREFIX + key, USED_PREFIX + key,
            f"{lease.member}:{lease.granted}", spent,
        )  # fmt: skip

    def flush_renewals(self, timeout_s: float = 5.0) -> bool:
        """Wait until Redis has answered every request sent ahead so far, and read the answers.

        Returns:
            True when it did, each answer waited for at most ``timeout_s`` seconds (or there
            was nothing to wait for).
        """
        with self._lock:
            return self._ahead.drain(timeout_s)

    def release(self) -> int:
        """Give back the units of every lease that were not spent, in one round trip.

        Call it before the process exits (``toolgate_io.rate_limiter`` registers it with
        ``atexit``), so a short-lived process (``qgs check-tool``) does not hold a lease's
        units until it ends.

        Returns:
            How many units went back.

        Raises:
            redis.RedisError: Redis could not be reached (the leases are forgotten anyway:
                their units count in Redis until they end, never longer).
        """
        with self._lock:
            ahead, self._ahead = self._ahead, self._new_ahead()
            ahead.drain(self._timeout_s)  # renewals under way: their leases go back too
            leases, self._leases = list(self._leases.items()), {}
            leases += ahead.ready.items()  # leases renewed ahead go back whole
            leases += ahead.returning.items()
            ahead.close()
        pipe = self._client.pipeline(transaction=False)
        asked = 0
        for key, lease in leases:
            if lease.spent < lease.granted:
                spent = f"{lease.member}r:{lease.spent}" if lease.spent else ""
                self._give_back(
                    keys=[KEY_PREFIX + key, USED_PREFIX + key],
                    args=[f"{lease.member}:{lease.granted}", spent],
                    client=pipe,
                )
                asked += 1
        return sum(int(n) for n in pipe.execute()) if asked else 0

    def _script_args(
        self,
        key: str,
        member: str,
        limit: int,
        window_s: float,
        need: int,
        *,
        want: int = 0,
        lease_s: float = 0.0,
        returning: Lease | None = None,
    ) -> tuple[str | int, ...]:
        """The sliding-window script's KEYS and ARGV, in order (``ratelimit_redis``)."""
        returned = replacement = ""
        if returning is not None and returning.spent < returning.granted:
            returned = f"{returning.member}:{returning.granted}"
            if returning.spent:
                replacement = f"{returning.member}r:{returning.spent}"
        return (
            KEY_PREFIX + key,
            USED_PREFIX + key,
            int(window_s * 1000),
            limit,
            need,
            member,
            want or need,
            # the lease ends 1 ms after the local one: Redis's clock reads whole milliseconds
            math.ceil(lease_s * 1000) + 1 if lease_s else 0,
            returned,
            replacement,
        )

    def _ask(
        self,
        key: str,
        member: str,
        limit: int,
        window_s: float,
        need: int,
        *,
        want: int = 0,
        lease_s: float = 0.0,
        returning: Lease | None = None,
    ) -> tuple[int, int, int, int]:
        """One round trip: ``(allowed, used, retry_ms, granted)``; ``want`` 0 asks for ``need``."""
        args = self._script_args(
            key, member, limit, window_s, need, want=want, lease_s=lease_s, returning=returning
        )
        self._caller_round_trips += 1
        allowed, used, retry_ms, granted = self._script(keys=args[:2], args=args[2:])
        return int(allowed), int(used), int(retry_ms), int(granted)


def _read_timeout_s(client: Any) -> float:
    """The client's socket timeout in seconds (how long a renewal's answer is waited for)."""
    kwargs = getattr(getattr(client, "connection_pool", None), "connection_kwargs", {})
    return float(kwargs.get("socket_timeout") or REDIS_TIMEOUT_S)


_LEASING: weakref.WeakSet[RedisRateLimiter] = weakref.WeakSet()
"""Every live ``RedisRateLimiter``: a forked child (Celery's prefork pool, gunicorn
``--preload``, ``multiprocessing``) must not spend the leases it inherited, or parent and
children would each spend the same units."""


def _forget_leases_after_fork() -> None:
    for limiter in list(_LEASING):
        try:
            limiter._forget_leases()
        except Exception as error:  # one limiter's failure must not leave the others' leases
            logger.warning("rate-limit leases not forgotten in a forked child: %s", error)


if hasattr(os, "register_at_fork"):  # POSIX only
    os.register_at_fork(after_in_child=_forget_leases_after_fork)


def _decision(allowed: int, used: int, limit: int, retry_ms: int) -> RateDecision:
    return RateDecision(
        allowed=bool(allowed), used=used, limit=limit, retry_after_s=max(0, retry_ms) / 1000
    )
