"""Who a request acts for: API keys checked (with a short cache), re-checked, rate limited.

``Access`` is what every transport's ``Operations`` authenticates with: ``authenticate(key)``
returns the key's ``Principal`` and counts the request against the key's window
(``QGS_API__RATE_LIMIT_REQUESTS`` per ``QGS_API__RATE_LIMIT_WINDOW_S``, in the broker's Redis;
in this process when that Redis fails or there is none). A verified key is trusted
``QGS_API__KEY_CACHE_S`` seconds; ``recheck(principal)`` reads the store again, bypassing the
cache: what a request that waited (a long-poll) does before it answers, so a key revoked while
it waited gets no answer.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from qgs_worker.config.settings import Settings
from qgs_worker.errors import AuthenticationError, PermissionDeniedError, RateLimitedError
from qgs_worker.store.keys import (
    ALL_PRINCIPALS,
    SCOPE_VIEW,
    VerifiedKey,
    key_is_live,
    live_key,
    verify_key,
)

__all__ = ["OPERATOR_PATHS", "Access", "Principal", "operator_path"]

OPERATOR_PATHS = ("/v1/spot-checks", "/v1/agreement", "/v1/shadow")
"""The ``/v1`` routes an operator key (a person's) may use, with its scopes and ``sees``: the
spot-check queue and labels, the agreement figures and the shadow states (and ``POST
/v1/shadow`` with ``--sees all``). Every other ``/v1`` route is the agents' (403 for a person)."""


def operator_path(path: str) -> bool:
    """Whether ``path`` is one of ``OPERATOR_PATHS`` (or under ``/v1/spot-checks/``)."""
    return any(path == p or path.startswith(p + "/") for p in OPERATOR_PATHS)


log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Principal:
    """Who a request acts for: the API key's principal, its scopes, the key's id.

    ``scopes`` holds the rights beyond the default ones (``approve``; an operator's ``view``,
    ``approve``, ``spot-check``); ``key_id`` names the key (the rate limit's subject), never its
    secret. ``operator`` marks a person's key (the console's, ``qgs keys create --operator``):
    ``name`` is then the person and ``sees`` the principals whose tasks they may see
    (``ALL_PRINCIPALS``: every task, those of no principal included).
    """

    name: str
    scopes: frozenset[str] = frozenset()
    key_id: str | None = None
    operator: bool = False
    sees: frozenset[str] = frozenset()

    def has(self, scope: str) -> bool:
        """Whether the key was given ``scope``."""
        return scope in self.scopes

    def may_see(self, owner: str | None) -> bool:
        """Whether a task of principal ``owner`` (None: started in-process) is visible to it.

        An agent's key sees its own principal's tasks only; an operator's, those of the
        principals it ``sees`` (with ``view``).
        """
        if not self.operator:
            return owner is not None and owner == self.name
        if SCOPE_VIEW not in self.scopes:
            return False
        return ALL_PRINCIPALS in self.sees or (owner is not None and owner in self.sees)

    @property
    def sees_all(self) -> bool:
        """Whether it sees every task (an operator's ``*``)."""
        return self.operator and SCOPE_VIEW in self.scopes and ALL_PRINCIPALS in self.sees

    def visible_principals(self) -> list[str] | None:
        """The principals whose tasks it sees (None: every task, of no principal too)."""
        if self.sees_all:
            return None
        if not self.operator:
            return [self.name]
        return sorted(self.sees) if SCOPE_VIEW in self.scopes else []

    @classmethod
    def of(cls, key: VerifiedKey) -> Principal:
        """The principal of a verified key."""
        return cls(key.principal, key.scopes, key.key_id, key.operator, key.sees)


@dataclass
class _CachedKey:
    principal: Principal
    until: float


@dataclass
class _KeyCache:
    """Verified keys kept ``ttl_s`` seconds, so a hot path reads the key table once a second."""

    ttl_s: float
    entries: dict[str, _CachedKey] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Access:
    """API keys and their rate limit, for one process (thread-safe).

    Args:
        settings: QGS settings (``QGS_API__*``, the broker for the shared rate limit).
        store: The ``Repository`` (or engine) holding the keys.
        rate_limiter: Anything with ``hit(key, limit=, window_s=)`` (``ratelimit``'s limiters);
            None: the broker's Redis when set, else one in this process.
    """

    def __init__(self, settings: Settings, store: Any, *, rate_limiter: Any = None) -> None:
        self.settings = settings
        self.store = store
        self._limiter = rate_limiter
        self._limit_degraded = False  # the shared limit's Redis failed: limited per process
        self._fallback_limiter: Any = None
        self._lock = threading.Lock()
        self._cache = _KeyCache(ttl_s=settings.api.key_cache_s)

    def authenticate(self, key: str | None, *, operator_ok: bool = False) -> Principal:
        """The principal of an API key, counted against the key's rate limit.

        Args:
            key: The key as sent (``qgs_<id>_<secret>``), without ``Bearer``.
            operator_ok: Admit an operator key (a person's) too: the spot-check routes
                (``OPERATOR_PATHS``) do; every other route and MCP take agents' keys only.

        Raises:
            AuthenticationError: no key, or one that is malformed, unknown or revoked (one
                message for all: a caller learns nothing about which).
            PermissionDeniedError: an operator key, unless ``operator_ok``; the message names
                the routes it may use.
            RateLimitedError: the key sent more than ``QGS_API__RATE_LIMIT_REQUESTS`` requests
                in the last ``QGS_API__RATE_LIMIT_WINDOW_S`` seconds.
        """
        if not key:
            raise AuthenticationError(
                "no API key: send 'Authorization: Bearer <key>' (make one with "
                "`qgs keys create --principal NAME`)"
            )
        principal = self._principal_of(key)
        if principal.operator and not operator_ok:
            raise PermissionDeniedError(
                f"key {principal.key_id} is an operator's (a person's): of the API it may use "
                f"only the spot-check routes ({', '.join(OPERATOR_PATHS)}), and it signs in to "
                "the console at /ui; agents use keys made with `qgs keys create --principal NAME`"
            )
        self._admit(principal)
        return principal

    def authenticate_person(self, key: str | None) -> Principal:
        """The principal of a key signing in to the console: an operator's or an agent's.

        Counted against the key's rate limit like ``authenticate``.

        Raises:
            AuthenticationError: no key, or one that is malformed, unknown or revoked.
            RateLimitedError: as ``authenticate``.
        """
        if not key:
            raise AuthenticationError(
                "no key: paste an operator key (`qgs keys create --operator NAME --scope view "
                "--sees PRINCIPAL`) or an agent's key"
            )
        principal = self._principal_of(key.strip())
        self._admit(principal)
        return principal

    def session_principal(self, key_id: str) -> Principal:
        """The principal of a signed-in console session's key, read again from the store.

        Raises:
            AuthenticationError: the key was revoked (or deleted) since the session began.
        """
        found = live_key(self.store, key_id)
        if found is None:
            raise AuthenticationError(
                f"the key {key_id} of this session was revoked: sign in again with a live key"
            )
        return Principal.of(found)

    def _principal_of(self, key: str) -> Principal:
        now = time.monotonic()
        cache = self._cache
        if cache.ttl_s > 0:
            with cache.lock:
                hit = cache.entries.get(key)
            if hit is not None and hit.until > now:
                return hit.principal
        found = verify_key(self.store, key)
        if found is None:
            raise AuthenticationError(
                "the API key is invalid or revoked: send a live key as 'Authorization: Bearer "
                "<key>' (`qgs keys list` shows the keys)"
            )
        principal = Principal.of(found)
        if cache.ttl_s > 0:
            with cache.lock:
                if len(cache.entries) > 10_000:
                    cache.entries.clear()
                cache.entries[key] = _CachedKey(principal, now + cache.ttl_s)
        return principal

    def recheck(self, principal: Principal) -> None:
        """Read the principal's key again from the store (no cache, not counted).

        Raises:
            AuthenticationError: the key was revoked since it was checked.
        """
        if principal.key_id is None or key_is_live(self.store, principal.key_id):
            return
        with self._cache.lock:
            for key, hit in list(self._cache.entries.items()):
                if hit.principal.key_id == principal.key_id:
                    del self._cache.entries[key]
        raise AuthenticationError(
            f"the API key {principal.key_id} was revoked while the request waited: send a "
            "live key as 'Authorization: Bearer <key>' (`qgs keys list` shows the keys)"
        )

    def _admit(self, principal: Principal) -> None:
        cfg = self.settings.api
        if not cfg.rate_limit_requests:
            return
        key = f"api:{principal.key_id or principal.name}"
        try:
            decision = self._rate_limiter().hit(
                key, limit=cfg.rate_limit_requests, window_s=cfg.rate_limit_window_s
            )
        except Exception as exc:  # a Redis that fails must not lock every agent out
            if not self._limit_degraded:  # once per outage, not once per request
                self._limit_degraded = True
                log.warning(
                    "the API rate limit's Redis failed (%s): each key is now limited in this "
                    "process only (%d requests per %g s per server process, not shared) until "
                    "Redis answers again",
                    exc,
                    cfg.rate_limit_requests,
                    cfg.rate_limit_window_s,
                )
            decision = self._local_limiter().hit(
                key, limit=cfg.rate_limit_requests, window_s=cfg.rate_limit_window_s
            )
        else:
            if self._limit_degraded:
                self._limit_degraded = False
                log.warning("the API rate limit's Redis answers again: the limit is shared")
        if not decision.allowed:
            raise RateLimitedError(
                f"key {principal.key_id} sent more than {cfg.rate_limit_requests} requests in "
                f"{cfg.rate_limit_window_s:g} s: retry after {decision.retry_after_s:.1f} s",
                retry_after_s=decision.retry_after_s,
            )

    def _rate_limiter(self) -> Any:
        if self._limiter is None:
            with self._lock:
                if self._limiter is None:
                    from qgs_worker.limits.ratelimit import (
                        CircuitBreakerLimiter,
                        RedisRateLimiter,
                        redis_for_broker,
                    )

                    url = self.settings.broker_url
                    self._limiter = (
                        CircuitBreakerLimiter(RedisRateLimiter(redis_for_broker(url)))
                        if url
                        else self._local_limiter()
                    )
        return self._limiter

    def _local_limiter(self) -> Any:
        if self._fallback_limiter is None:
            from qgs_worker.limits.ratelimit import LocalRateLimiter

            self._fallback_limiter = LocalRateLimiter()
        return self._fallback_limiter
