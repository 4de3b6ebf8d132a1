"""The tool-call gate's edge: its I/O ports, and the gate built from ``Settings``.

The core gate (``qgs_worker.core.toolgate``) does no I/O of its own; here are the ports it is
given: ``stat_file_size`` for the file-size rule, the rate limiter (Redis when a broker is
configured, in-process otherwise), the tool registry of ``QGS_TOOLS_FILE`` and the policy of
``QGS_POLICY_FILE``. ``build_gate`` puts the six layers together::

    gate = build_gate(Settings(), ToolRegistry.from_openai(tools))
    report = gate.check(call, principal="deploy-bot", agent_id="deploy-bot-7")
"""

from __future__ import annotations

import atexit
import dataclasses
import logging
import os
import stat
import threading
from typing import TYPE_CHECKING

from qgs_worker.config.policy_file import load_pdp
from qgs_worker.config.settings_groups import GateConfig as GateConfig  # its former home
from qgs_worker.core.toolgate import (
    DEFAULT_LAYERS,
    BusinessRules,
    PermissionLayer,
    RateLimit,
    RulesLayer,
    ToolGate,
    ToolRegistry,
)
from qgs_worker.core.toolgate.base import GateSettings
from qgs_worker.core.toolgate.layer6_injection import LAYER as INJECTION
from qgs_worker.errors import ConfigurationError, InputError
from qgs_worker.limits.ratelimit import (
    CircuitBreakerLimiter,
    LocalRateLimiter,
    RedisRateLimiter,
    redis_for_broker,
)

if TYPE_CHECKING:
    from qgs_worker.core.ports import PolicyDecisionPoint, RateLimiter
    from qgs_worker.core.toolgate import Strictness

__all__ = [
    "GateConfig",
    "build_gate",
    "default_rules",
    "load_tools",
    "rate_limiter",
    "stat_file_size",
    "tool_gate_for",
]


def stat_file_size(path: str) -> int | None:
    """The size of the regular file at ``path``, in bytes (the ``FileSize`` port, ``os.stat``).

    A relative path is taken from this process's working directory; a leading ``~`` is the
    home directory, as the shell and most tools read it.

    Returns:
        The size; ``None`` when the path does not exist, is not a regular file (a directory, a
        device), cannot be examined (no permission) or is not a valid path (a NUL byte).
        Never raises.
    """
    try:
        info = os.stat(os.path.expanduser(path) if path.startswith("~") else path)
    except (OSError, ValueError):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


logger = logging.getLogger(__name__)

REDIS_TIMEOUT_S = 0.25
"""Socket timeouts of the gate's rate-limit Redis client, in seconds (a local round trip is
well under a millisecond)."""
_PROCESS_LIMITER = LocalRateLimiter()
_REDIS_LIMITERS: dict[tuple[str, float], CircuitBreakerLimiter] = {}
_LIMITERS_LOCK = threading.Lock()


def rate_limiter(settings: GateConfig) -> RateLimiter:
    """The gate's rate limiter: on the broker's Redis (shared by every process), else in-process.

    With no ``QGS_BROKER_URL`` (the embedded default) the window lives in this process only,
    one for the whole process (every client and gate in it counts against the same window).
    On Redis, a process takes ``QGS_TOOLGATE__RATE_LIMIT_LEASE`` of a limit at once (a lease,
    ``RedisRateLimiter``): one round trip per lease instead of one per call, asked for before
    the lease runs out and not waited for (``renew_ahead``). Either way the
    limiter is one per process (per broker URL and lease share): every gate built in the
    process shares its connection pool and its leases.
    """
    if not settings.broker_url:
        return _PROCESS_LIMITER  # one window per process, whatever gate or client asks
    # One limiter per broker and lease share in a process, however many gates (one per tools
    # list) are built: one Redis connection pool, one set of leases.
    key = (settings.broker_url, settings.toolgate.rate_limit_lease)
    with _LIMITERS_LOCK:
        limiter = _REDIS_LIMITERS.get(key)
        if limiter is None:
            # Short timeouts and a circuit breaker: a Redis that hangs costs one slow check per
            # cooldown, not seconds on every call of the agent's hot path.
            client = redis_for_broker(settings.broker_url, timeout_s=REDIS_TIMEOUT_S)
            leased = RedisRateLimiter(
                client, lease_fraction=settings.toolgate.rate_limit_lease, renew_ahead=True
            )
            if leased.lease_fraction:
                atexit.register(_release_quietly, leased)  # a short-lived process gives back
            limiter = _REDIS_LIMITERS[key] = CircuitBreakerLimiter(leased)
    return limiter


def _release_quietly(limiter: RedisRateLimiter) -> None:
    try:
        limiter.release()
    except Exception as error:  # exiting: the units come back on their own when leases end
        logger.debug("could not give rate-limit leases back: %s", error)


def default_rules(settings: GateConfig) -> BusinessRules:
    """The registry-wide business rules of ``QGS_TOOLGATE__*`` (0 or empty: no default)."""
    t = settings.toolgate
    return BusinessRules(
        rate_limit=RateLimit(t.rate_limit_calls, t.rate_limit_window_s)
        if t.rate_limit_calls
        else None,
        max_file_bytes=t.max_file_bytes or None,
        allowed_domains=tuple(t.allowed_domains) or None,
    )


def load_tools(settings: GateConfig) -> ToolRegistry | None:
    """The tools of ``QGS_TOOLS_FILE`` (``ToolRegistry.from_file``), ``None`` when it is unset.

    Raises:
        ConfigurationError: The file cannot be read, holds an unusable definition, or holds
            none.
    """
    if settings.tools_file is None:
        return None
    path = settings.tools_file
    try:
        registry = ToolRegistry.from_file(path)
    except InputError as error:  # ToolDefinitionError: unreadable, not JSON, a bad tool
        raise ConfigurationError(
            f"QGS_TOOLS_FILE={path}: {error}; it must hold OpenAI tools, Anthropic tools or an "
            "MCP tools/list result"
        ) from error
    if not len(registry):
        raise ConfigurationError(
            f"QGS_TOOLS_FILE={path} holds no tool definitions: every call would be refused; "
            "give OpenAI tools, Anthropic tools or an MCP tools/list result, or unset it"
        )
    return registry


def build_gate(
    settings: GateConfig,
    registry: ToolRegistry | None = None,
    *,
    limiter: RateLimiter | None = None,
    pdp: PolicyDecisionPoint | None = None,
) -> ToolGate:
    """The tool-call gate with its six layers, their ports taken from ``settings``.

    Args:
        settings: ``QGS_TOOLGATE__*``, ``QGS_BROKER_URL``, ``QGS_POLICY_FILE``, ``QGS_TOOLS_FILE``.
        registry: The tools; ``None`` loads ``QGS_TOOLS_FILE``.
        limiter: The rate limiter; ``None`` builds one (``rate_limiter``).
        pdp: The policy; ``None`` loads ``QGS_POLICY_FILE`` (unset: no policy, a warning).

    Raises:
        ConfigurationError: No registry given and no ``QGS_TOOLS_FILE``, or a file is invalid.
    """
    if registry is None:
        registry = load_tools(settings)
        if registry is None:
            raise ConfigurationError(
                "the tool-call gate needs the tools: pass a ToolRegistry or set QGS_TOOLS_FILE"
            )
    rules = RulesLayer(
        limiter if limiter is not None else rate_limiter(settings),
        defaults=default_rules(settings),
        file_size=stat_file_size,
        fail_open=settings.toolgate.fail_open,
    )
    permission = PermissionLayer(pdp if pdp is not None else load_pdp(settings))
    gate_settings = GateSettings(strictness=settings.toolgate.strictness)
    return ToolGate(
        registry, layers=(*DEFAULT_LAYERS, rules, permission, INJECTION), settings=gate_settings
    )


def tool_gate_for(
    registry: ToolRegistry, settings: GateConfig, *, strictness: Strictness | None = None
) -> ToolGate:
    """The gate the client and ``qgs check-tool`` check calls with: the six layers from settings.

    The layers are ``build_gate``'s (business rules from ``QGS_TOOLGATE__*``, the
    policy of ``QGS_POLICY_FILE``).

    Args:
        registry: The tools the agent may call.
        settings: QGS settings (the edge builds the gate; the core never sees them).
        strictness: How the parameter layer reads schemas; the gate's default (lenient) when
            None.

    Raises:
        ConfigurationError: The gate's layers cannot be built from the settings (e.g. an
            invalid policy file).
    """
    gate = build_gate(settings, registry)
    if strictness is None or strictness is gate.settings.strictness:
        return gate
    return ToolGate(
        registry, gate.layers, dataclasses.replace(gate.settings, strictness=strictness)
    )
