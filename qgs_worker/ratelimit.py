"""Sliding-window rate limits: in one process, or shared through Redis by every worker.

The window is exact (a sorted set of hits with their times, not fixed buckets): within any
``window_s`` seconds at most ``limit`` units pass, whichever process sends them. Redis does the
check-and-count atomically in one Lua script, using the Redis server's clock, so processes on
machines with skewed clocks still share one window.
"""

from __future__ import annotations

import math
import os
import threading
import time
import uuid
import weakref
from collections import deque
from typing import Any

from qgs_worker.core.models import RateDecision
from qgs_worker.errors import InputError
from qgs_worker.judge_limit import JudgeRateLimit as JudgeRateLimit  # its old home
from qgs_worker.leases import Ahead, Lease

KEY_PREFIX = "qgs:ratelimit:"
"""Every rate-limit key in Redis starts with this."""

USED_PREFIX = "qgs:ratelimit-used:"
"""The running total of each window lives beside it, under this prefix."""

# KEYS[1] = window (sorted set), KEYS[2] = its running total.
# ARGV = window_ms, limit, need, member, want, lease_ms, returned member, its replacement.
# Members are "<unique id>:<units>", scored by the time of the hit in milliseconds; a lease's
# score is the *end* of its lease, so it counts in every window its units may be spent in.
# The running total makes a check O(hits leaving the window), not O(hits in it): with a limit
# of thousands a minute, summing the whole window on every call cost milliseconds. The total is
# rebuilt from the set whenever the two disagree on emptiness (a key deleted by hand, or
# written by an older QGS).
_SLIDING_WINDOW_LUA = """
local now_parts = redis.call('TIME')
local now_ms = tonumber(now_parts[1]) * 1000 + math.floor(tonumber(now_parts[2]) / 1000)
local window_ms = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local need = tonumber(ARGV[3])
local want = tonumber(ARGV[5])
local lease_ms = tonumber(ARGV[6])
local cutoff = now_ms - window_ms
local used = redis.call('GET', KEYS[2])
if used and redis.call('EXISTS', KEYS[1]) == 1 then
  used = tonumber(used)
  local leaving = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', cutoff)
  for i = 1, #leaving do
    used = used - tonumber(string.match(leaving[i], ':(%d+)$'))
  end
  if #leaving > 0 then
    redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', cutoff)
  end
else
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', cutoff)
  used = 0
  local members = redis.call('ZRANGE', KEYS[1], 0, -1)
  for i = 1, #members do
    used = used + tonumber(string.match(members[i], ':(%d+)$'))
  end
end
-- A lease's units that were never spent go back: the lease shrinks to what was spent.
if ARGV[7] ~= '' then
  local score = redis.call('ZSCORE', KEYS[1], ARGV[7])
  if score then
    redis.call('ZREM', KEYS[1], ARGV[7])
    used = used - tonumber(string.match(ARGV[7], ':(%d+)$'))
    if ARGV[8] ~= '' then
      redis.call('ZADD', KEYS[1], score, ARGV[8])
      used = used + tonumber(string.match(ARGV[8], ':(%d+)$'))
    end
  end
end
if used + need <= limit then
  local granted = math.min(want, limit - used)
  redis.call('ZADD', KEYS[1], now_ms + lease_ms, ARGV[4] .. ':' .. granted)
  local keep = math.max(redis.call('PTTL', KEYS[1]), window_ms + lease_ms)
  redis.call('PEXPIRE', KEYS[1], keep)
  redis.call('SET', KEYS[2], used + granted, 'PX', keep)
  return {1, used + granted, 0, granted}
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then
  redis.call('SET', KEYS[2], used, 'PX', ttl)
end
-- Refused: wait until enough of the oldest hits leave the window (read a page at a time).
local short = used + need - limit
local freed = 0
local start = 0
while true do
  local page = redis.call('ZRANGE', KEYS[1], start, start + 99, 'WITHSCORES')
  if #page == 0 then
    return {0, used, window_ms, 0}
  end
  for i = 1, #page, 2 do
    freed = freed + tonumber(string.match(page[i], ':(%d+)$'))
    if freed >= short then
      return {0, used, tonumber(page[i + 1]) + window_ms - now_ms, 0}
    end
  end
  start = start + 100
end
"""


# KEYS as above; ARGV = a lease's member, its replacement ('' when nothing of it was spent).
_GIVE_BACK_LUA = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then
  return 0
end
redis.call('ZREM', KEYS[1], ARGV[1])
local back = tonumber(string.match(ARGV[1], ':(%d+)$'))
if ARGV[2] ~= '' then
  redis.call('ZADD', KEYS[1], score, ARGV[2])
  back = back - tonumber(string.match(ARGV[2], ':(%d+)$'))
end
local total = redis.call('GET', KEYS[2])
if total then
  redis.call('SET', KEYS[2], tonumber(total) - back, 'KEEPTTL')
end
return back
"""


def _check(limit: int, window_s: float, cost: int) -> None:
    if limit < 1:
        raise InputError(f"'limit' must be at least 1 (got {limit})")
    if window_s <= 0:
        raise InputError(f"'window_s' must be above 0 seconds (got {window_s})")
    if cost < 1:
        raise InputError(f"'cost' must be at least 1 (got {cost})")


_PRUNE_FLOOR = 1024
"""The in-process limiter looks for idle keys once it holds this many (then twice as many)."""


class LocalRateLimiter:
    """A sliding window kept in this process (when no Redis is configured); thread-safe."""

    def __init__(self, clock: Any = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._hits: dict[str, deque[tuple[float, int]]] = {}
        self._used: dict[str, int] = {}  # running total of each window: O(1) per hit
        self._windows: dict[str, float] = {}  # each key's last window, to forget idle keys
        self._prune_at = _PRUNE_FLOOR

    def hit(self, key: str, *, limit: int, window_s: float, cost: int = 1) -> RateDecision:
        """See ``qgs_worker.core.ports.RateLimiter.hit``.

        Raises:
            InputError: ``limit`` or ``cost`` below 1, or ``window_s`` not above 0.
        """
        _check(limit, window_s, cost)
        with self._lock:
            now = self._clock()
            if len(self._hits) >= self._prune_at:
                self._forget_idle(now)
            self._windows[key] = window_s
            hits = self._hits.setdefault(key, deque())
            used = self._used.get(key, 0)
            while hits and hits[0][0] <= now - window_s:
                used -= hits.popleft()[1]
            self._used[key] = used
            if used + cost <= limit:
                hits.append((now, cost))
                self._used[key] = used + cost
                return RateDecision(allowed=True, used=used + cost, limit=limit)
            need, freed = used + cost - limit, 0
            for at, c in hits:
                freed += c
                if freed >= need:
                    return RateDecision(
                        allowed=False, used=used, limit=limit, retry_after_s=at + window_s - now
                    )
            return RateDecision(allowed=False, used=used, limit=limit, retry_after_s=window_s)

    def _forget_idle(self, now: float) -> None:
        """Drop the keys whose window is empty (agents gone quiet); amortized O(1) per hit."""
        for key in list(self._hits):
            window_s = self._windows[key]
            hits = self._hits[key]
            if not hits or hits[-1][0] <= now - window_s:
                del self._hits[key], self._used[key], self._windows[key]
        self._prune_at = max(_PRUNE_FLOOR, 2 * len(self._hits))

    @property
    def keys_held(self) -> int:
        """How many keys the limiter holds now (idle ones are dropped as it grows)."""
        return len(self._hits)


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

    With ``renew_ahead`` (what the tool gate uses), the next lease is asked for by a background
    thread once half of the current one is spent or half its time is past, so a caller that
    keeps hitting finds it waiting and never waits for Redis itself (the renewal round trip
    was what the gate's p99 was made of). The caller still asks Redis itself when no lease
    ahead is ready (the first hit, a key idle for a while, a window near its limit). The
    guarantee is the same (every lease counts in Redis), at the price of holding up to two
    leases per key at once; a lease that ends with units unspent gives them back from the
    thread.

    Args:
        client: A ``redis.Redis`` client (any db); each window is the sorted set
            ``qgs:ratelimit:<key>`` with its running total in ``qgs:ratelimit-used:<key>``.
        lease_fraction: The share of a window's limit one lease may take, 0 to 1 (0: no
            leases, every hit asks Redis).
        lease_s: How long a lease's units may be spent, in seconds; at most a tenth of the
            window is used.
        clock: Monotonic seconds (tests pass their own).
        renew_ahead: Renew leases from a background thread before they run out.

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
        self._script = client.register_script(_SLIDING_WINDOW_LUA)
        self._give_back = client.register_script(_GIVE_BACK_LUA)
        self.lease_fraction = lease_fraction
        self.lease_s = lease_s
        self._clock = clock
        self._lock = threading.Lock()
        self._leases: dict[str, Lease] = {}
        self.renew_ahead = renew_ahead
        self._ahead = Ahead()
        _LEASING.add(self)

    def _forget_leases(self) -> None:
        """In a forked child: the parent's leases are the parent's to spend, not a copy's."""
        self._lock = threading.Lock()  # another thread may have held it at the fork
        self._leases = {}
        self._ahead = Ahead()  # the parent's renewal thread is not in the child

    def hit(self, key: str, *, limit: int, window_s: float, cost: int = 1) -> RateDecision:
        """See ``qgs_worker.core.ports.RateLimiter.hit``.

        With leasing, ``used`` is the window's total in Redis when the current lease was
        granted, that whole lease included (at least what was really spent).

        Raises:
            InputError: ``limit`` or ``cost`` below 1, or ``window_s`` not above 0.
            redis.RedisError: Redis could not be reached.
        """
        _check(limit, window_s, cost)
        units = int(limit * self.lease_fraction)
        if units < 2:
            allowed, used, retry_ms, _ = self._ask(key, uuid.uuid4().hex, limit, window_s, cost)
            return _decision(allowed, used, limit, retry_ms)
        with self._lock:  # one renewal at a time: leases are rare, a round trip each
            lease = self._leases.get(key)
            now = self._clock()
            if lease is not None and lease.fits(now, cost, limit, window_s):
                lease.spent += cost
                if self.renew_ahead and lease.renewal_due(now):
                    self._renew_later(key, lease, units)
                return RateDecision(allowed=True, used=lease.used, limit=limit)
            ahead = self._ahead.ready.pop(key, None)
            if ahead is not None and ahead.fits(now, cost, limit, window_s):
                self._leases[key] = ahead  # renewed ahead: no round trip on the caller's path
                ended = lease if lease is not None and lease.spent < lease.granted else None
                ahead.spent += cost
                if ahead.renewal_due(now):  # usual: its time started when it was asked for
                    self._renew_later(key, ahead, units, returning=ended)
                elif ended is not None:
                    self._ahead.submit(self, ("give_back", key, ended))
                return RateDecision(allowed=True, used=ahead.used, limit=limit)
            if ahead is not None and ahead.spent < ahead.granted:
                self._ahead.submit(self, ("give_back", key, ahead))  # ended, or another limit
            if lease is not None:
                del self._leases[key]  # whatever Redis answers, this lease is over
            lease_s = min(self.lease_s, window_s / 10)
            member = uuid.uuid4().hex
            allowed, used, retry_ms, granted = self._ask(
                key, member, limit, window_s, cost, want=max(units, cost), lease_s=lease_s,
                returning=lease,
            )  # fmt: skip
            if not allowed:
                return _decision(allowed, used, limit, retry_ms)
            fresh = Lease(member, granted, used, now + lease_s, limit, window_s, lease_s)
            fresh.spent = cost
            if len(self._leases) >= _MAX_LEASES:  # many agents: forget the leases that ended
                self._leases = {k: v for k, v in self._leases.items() if v.ends_at > now}
                ready = self._ahead.ready
                self._ahead.ready = {k: v for k, v in ready.items() if v.ends_at > now}
                if len(self._leases) >= _MAX_LEASES:
                    self._leases.clear()  # safe: their units still count in Redis till they end
            self._leases[key] = fresh
            if self.renew_ahead and fresh.renewal_due(now):
                self._renew_later(key, fresh, units)
            return RateDecision(allowed=True, used=fresh.used, limit=limit)

    def _renew_later(
        self, key: str, lease: Lease, units: int, *, returning: Lease | None = None
    ) -> None:
        """Have the renewal thread ask for the lease after this one (called holding the lock).

        ``returning``: an ended lease whose unspent units go back in the same round trip.
        """
        ahead = self._ahead
        if key in ahead.asked or key in ahead.ready:
            if returning is not None:
                ahead.submit(self, ("give_back", key, returning))
            return
        ahead.asked.add(key)
        ahead.submit(
            self, ("renew", key, lease.limit, lease.window_s, lease.length_s, units, returning)
        )

    def _run_job(self, ahead: Ahead, job: tuple[Any, ...]) -> None:
        """One job of the renewal thread: ask Redis for a lease ahead, or give units back."""
        if job[0] == "give_back":
            _, key, lease = job
            spent = f"{lease.member}r:{lease.spent}" if lease.spent else ""
            self._give_back(
                keys=[KEY_PREFIX + key, USED_PREFIX + key],
                args=[f"{lease.member}:{lease.granted}", spent],
            )
            return
        _, key, limit, window_s, lease_s, units, returning = job
        try:
            now = self._clock()  # before the request, as on the caller's path
            member = uuid.uuid4().hex
            allowed, used, _, granted = self._ask(
                key, member, limit, window_s, 1, want=units, lease_s=lease_s, returning=returning
            )
            fresh = Lease(member, granted, used, now + lease_s, limit, window_s, lease_s)
            with self._lock:
                current = ahead is self._ahead and not ahead.closed
                if allowed and current:
                    ahead.ready[key] = fresh
        finally:
            with self._lock:
                ahead.asked.discard(key)
        if allowed and not current:  # released (or forked) meanwhile: give it all back
            self._run_job(ahead, ("give_back", key, fresh))

    def flush_renewals(self, timeout_s: float = 5.0) -> bool:
        """Wait until the renewal thread has done every job asked of it so far.

        Returns:
            True when it did within ``timeout_s`` seconds (or has nothing to do).
        """
        return self._ahead.flush(timeout_s)

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
            leases, self._leases = list(self._leases.items()), {}
            ahead, self._ahead = self._ahead, Ahead()
            leases += ahead.ready.items()  # leases renewed ahead go back whole
            ahead.close()  # a renewal under way gives its lease back itself
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
        returned = replacement = ""
        if returning is not None and returning.spent < returning.granted:
            returned = f"{returning.member}:{returning.granted}"
            if returning.spent:
                replacement = f"{returning.member}r:{returning.spent}"
        allowed, used, retry_ms, granted = self._script(
            keys=[KEY_PREFIX + key, USED_PREFIX + key],
            args=[
                int(window_s * 1000),
                limit,
                need,
                member,
                want or need,
                # the lease ends 1 ms after the local one: Redis's clock reads whole milliseconds
                math.ceil(lease_s * 1000) + 1 if lease_s else 0,
                returned,
                replacement,
            ],
        )
        return int(allowed), int(used), int(retry_ms), int(granted)


_LEASING: weakref.WeakSet[RedisRateLimiter] = weakref.WeakSet()
"""Every live ``RedisRateLimiter``: a forked child (Celery's prefork pool, gunicorn
``--preload``, ``multiprocessing``) must not spend the leases it inherited, or parent and
children would each spend the same units."""


def _forget_leases_after_fork() -> None:
    for limiter in list(_LEASING):
        limiter._forget_leases()


if hasattr(os, "register_at_fork"):  # POSIX only
    os.register_at_fork(after_in_child=_forget_leases_after_fork)


def _decision(allowed: int, used: int, limit: int, retry_ms: int) -> RateDecision:
    return RateDecision(
        allowed=bool(allowed),
        used=used,
        limit=limit,
        retry_after_s=max(0, retry_ms) / 1000,
    )


REDIS_TIMEOUT_S = 2.5
"""Default connect and read timeout of a Redis client QGS makes, in seconds: half the default
``QGS_BROKER_TIMEOUT_S``. A Redis that accepts connections but never answers (a stopped
process, a half-open connection) raises ``redis.TimeoutError`` instead of hanging."""


def redis_for_broker(broker_url: str, *, timeout_s: float | None = REDIS_TIMEOUT_S) -> Any:
    """A ``redis.Redis`` client on the broker's Redis (``redis://``, ``rediss://``, ``redis+socket://``).

    Args:
        broker_url: The broker URL.
        timeout_s: Socket connect and read timeout, in seconds (``REDIS_TIMEOUT_S`` by
            default); None waits as long as it takes.
    """
    import redis

    if broker_url.startswith(("redis+socket://", "unix://")):
        path = broker_url.split("://", 1)[1]
        return redis.Redis(
            unix_socket_path=path, socket_timeout=timeout_s, socket_connect_timeout=timeout_s
        )
    return redis.Redis.from_url(
        broker_url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s
    )


class RateLimiterUnavailableError(RuntimeError):
    """Raised by :class:`CircuitBreakerLimiter` while its backend is considered down."""


class CircuitBreakerLimiter:
    """A rate limiter that stops asking a failing backend for a while (a circuit breaker).

    After the backend raises, every hit raises :class:`RateLimiterUnavailableError` at once for
    ``cooldown_s`` seconds, then the backend is tried again. On the tool gate's hot path this
    turns a Redis that hangs (each call waiting for its socket timeout) into one slow call per
    cooldown; the gate's business-rules layer then fails open (a warning) or closed, as set.

    Args:
        inner: The real limiter (``RedisRateLimiter``).
        cooldown_s: How long to stop asking after a failure, in seconds.
        clock: Monotonic seconds (tests pass their own).
    """

    def __init__(self, inner: Any, *, cooldown_s: float = 5.0, clock: Any = time.monotonic) -> None:
        self._inner = inner
        self._cooldown_s = cooldown_s
        self._clock = clock
        self._open_until = 0.0
        self._last_error = ""

    def hit(self, key: str, *, limit: int, window_s: float, cost: int = 1) -> RateDecision:
        """``inner.hit``, or :class:`RateLimiterUnavailableError` while the circuit is open."""
        now = self._clock()
        if now < self._open_until:
            raise RateLimiterUnavailableError(
                f"the rate limiter's backend failed {self._last_error}; not asked again for "
                f"{self._open_until - now:.1f} s"
            )
        try:
            return self._inner.hit(key, limit=limit, window_s=window_s, cost=cost)  # type: ignore[no-any-return]
        except Exception as exc:
            self._open_until = now + self._cooldown_s
            self._last_error = f"({type(exc).__name__}: {exc})"
            raise
