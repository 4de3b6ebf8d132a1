"""Sliding-window rate limits: in one process, or shared through Redis by every worker.

The window is exact (a sorted set of hits with their times, not fixed buckets): within any
``window_s`` seconds at most ``limit`` units pass, whichever process sends them. Redis does the
check-and-count atomically in one Lua script, using the Redis server's clock, so processes on
machines with skewed clocks still share one window.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import deque
from typing import Any

from qgs_worker.core.models import RateDecision
from qgs_worker.errors import InputError

KEY_PREFIX = "qgs:ratelimit:"
"""Every rate-limit key in Redis starts with this."""

# KEYS[1] = window key; ARGV = window_ms, limit, cost, member
# Members are "<unique id>:<cost>", scored by the time of the hit in milliseconds.
_SLIDING_WINDOW_LUA = """
local now_parts = redis.call('TIME')
local now_ms = tonumber(now_parts[1]) * 1000 + math.floor(tonumber(now_parts[2]) / 1000)
local window_ms = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms - window_ms)
local used = 0
local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
for i = 1, #entries, 2 do
  local member = entries[i]
  used = used + tonumber(string.match(member, ':(%d+)$'))
end
if used + cost <= limit then
  redis.call('ZADD', KEYS[1], now_ms, ARGV[4] .. ':' .. ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window_ms)
  return {1, used + cost, 0}
end
-- Refused: wait until enough of the oldest hits leave the window.
local need = used + cost - limit
local freed = 0
for i = 1, #entries, 2 do
  freed = freed + tonumber(string.match(entries[i], ':(%d+)$'))
  if freed >= need then
    return {0, used, tonumber(entries[i + 1]) + window_ms - now_ms}
  end
end
return {0, used, window_ms}
"""


def _check(limit: int, window_s: float, cost: int) -> None:
    if limit < 1:
        raise InputError(f"'limit' must be at least 1 (got {limit})")
    if window_s <= 0:
        raise InputError(f"'window_s' must be above 0 seconds (got {window_s})")
    if cost < 1:
        raise InputError(f"'cost' must be at least 1 (got {cost})")


class LocalRateLimiter:
    """A sliding window kept in this process (when no Redis is configured); thread-safe."""

    def __init__(self, clock: Any = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._hits: dict[str, deque[tuple[float, int]]] = {}
        self._used: dict[str, int] = {}  # running total of each window: O(1) per hit

    def hit(self, key: str, *, limit: int, window_s: float, cost: int = 1) -> RateDecision:
        """See ``qgs_worker.core.ports.RateLimiter.hit``.

        Raises:
            InputError: ``limit`` or ``cost`` below 1, or ``window_s`` not above 0.
        """
        _check(limit, window_s, cost)
        with self._lock:
            now = self._clock()
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


class RedisRateLimiter:
    """A sliding window in Redis, shared by every process and machine on the same Redis.

    Args:
        client: A ``redis.Redis`` client (any db); keys are ``qgs:ratelimit:<key>``.
    """

    def __init__(self, client: Any) -> None:
        self._client = client
        self._script = client.register_script(_SLIDING_WINDOW_LUA)

    def hit(self, key: str, *, limit: int, window_s: float, cost: int = 1) -> RateDecision:
        """See ``qgs_worker.core.ports.RateLimiter.hit``.

        Raises:
            InputError: ``limit`` or ``cost`` below 1, or ``window_s`` not above 0.
            redis.RedisError: Redis could not be reached.
        """
        _check(limit, window_s, cost)
        allowed, used, retry_ms = self._script(
            keys=[KEY_PREFIX + key],
            args=[int(window_s * 1000), limit, cost, uuid.uuid4().hex],
        )
        return RateDecision(
            allowed=bool(allowed),
            used=int(used),
            limit=limit,
            retry_after_s=max(0, int(retry_ms)) / 1000,
        )


def redis_for_broker(broker_url: str, *, timeout_s: float | None = None) -> Any:
    """A ``redis.Redis`` client on the broker's Redis (``redis://``, ``rediss://``, ``redis+socket://``).

    Args:
        broker_url: The broker URL.
        timeout_s: Socket connect and read timeout, in seconds; None waits as long as it takes.
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


class JudgeRateLimit:
    """The shared rate limit in front of the judge endpoint: requests/min and tokens/min.

    Tokens are estimated before the call (prompt characters / 4 + the answer's token budget),
    since the exact count is known only afterwards. A limit of 0 means no limit.

    Args:
        limiter: Where the windows live (``RedisRateLimiter`` so every worker shares them).
        endpoint: The judge endpoint's name, part of the key.
        requests_per_minute: At most this many judge calls a minute (0: no limit).
        tokens_per_minute: At most this many estimated tokens a minute (0: no limit).
        answer_tokens: The answer's token budget, added to each estimate.
    """

    CHARS_PER_TOKEN = 4
    """A common rule of thumb for English text with OpenAI tokenizers."""

    def __init__(
        self,
        limiter: Any,
        endpoint: str,
        *,
        requests_per_minute: int = 0,
        tokens_per_minute: int = 0,
        answer_tokens: int = 800,
    ) -> None:
        self.limiter = limiter
        self.endpoint = endpoint
        self.requests_per_minute = requests_per_minute
        self.tokens_per_minute = tokens_per_minute
        self.answer_tokens = answer_tokens

    def admit(self, prompt_chars: int) -> float:
        """Count one call of ``prompt_chars`` characters; 0.0 if it may go now, else seconds to wait."""
        if self.requests_per_minute:
            got = self.limiter.hit(
                f"judge:{self.endpoint}:requests", limit=self.requests_per_minute, window_s=60
            )
            if not got.allowed:
                return max(float(got.retry_after_s), 0.05)
        if self.tokens_per_minute:
            cost = min(
                self.tokens_per_minute, prompt_chars // self.CHARS_PER_TOKEN + self.answer_tokens
            )
            got = self.limiter.hit(
                f"judge:{self.endpoint}:tokens",
                limit=self.tokens_per_minute,
                window_s=60,
                cost=cost,
            )
            if not got.allowed:
                return max(float(got.retry_after_s), 0.05)
        return 0.0
