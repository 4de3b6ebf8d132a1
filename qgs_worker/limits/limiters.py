"""Rate limiters that need no Redis: the sliding window of one process, and a circuit breaker.

``ratelimit`` re-exports both (their old home) beside the Redis limiter.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any

from qgs_worker.core.models import RateDecision
from qgs_worker.errors import InputError

__all__ = ["CircuitBreakerLimiter", "LocalRateLimiter", "RateLimiterUnavailableError", "check_hit"]


def check_hit(limit: int, window_s: float, cost: int) -> None:
    """Refuse a hit's arguments out of range (both limiters' ``hit`` call it first).

    Raises:
        InputError: ``limit`` or ``cost`` below 1, or ``window_s`` not above 0.
    """
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
        check_hit(limit, window_s, cost)
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
