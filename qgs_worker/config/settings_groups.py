"""The nested groups of ``Settings``: judge, worker, discriminator, tool gate, API.

``GateConfig`` is the part of the settings the tool gate is built from (``toolgate_io``, the
policy file), which ``Settings`` and a short command's ``DefaultSettings`` both satisfy.

Each is a pydantic model read from ``QGS_<GROUP>__<FIELD>`` environment variables through
``Settings`` (``qgs_worker.config.settings``), which re-exports them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field, SecretStr, field_validator

from qgs_worker.core.models import Strictness


class JudgeSettings(BaseModel, defer_build=True):
    """Which judge reviews rounds: ``rules`` (offline, deterministic) or ``openai`` (any compatible endpoint)."""

    kind: Literal["rules", "openai", "panel"] = "rules"
    base_url: str | None = Field(
        default=None, description="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1"
    )
    api_key: SecretStr = SecretStr("")
    model: str = "gpt-4o-mini"
    timeout_s: float = Field(default=30.0, gt=0, description="one judge HTTP call, in seconds")
    panel_models: tuple[str, ...] = Field(
        default=(), description="kind=panel: the models that vote, on base_url (JSON list)"
    )
    panel_mode: Literal["escalate", "all"] = "escalate"
    classifier_llm: bool = Field(
        default=False,
        description="ask the judge endpoint when the classifier's rules cannot settle a request",
    )
    requests_per_minute: int = Field(
        default=0, ge=0, description="judge calls a minute across all workers (0: no limit)"
    )
    tokens_per_minute: int = Field(
        default=0,
        ge=0,
        description="estimated judge tokens a minute across all workers (0: no limit)",
    )
    rate_window_s: float = Field(
        default=60.0,
        gt=0,
        description="the window requests_per_minute and tokens_per_minute count in, in seconds "
        "(60: a minute; a test may shorten it)",
    )
    rate_max_wait_s: float = Field(
        default=30.0,
        ge=0,
        description="how long the shared rate limit may hold one judge call (a repair, an audit "
        "pass, the classifier) before the call fails as transient and its job retries, in seconds",
    )
    halo_spread_points: int = Field(
        default=10,
        ge=0,
        le=100,
        description="all dimension scores within this many points -> a halo-effect warning",
    )


class WorkerSettings(BaseModel, defer_build=True):
    """Worker pools, concurrency, time limits and retries.

    Time limits must fit inside the broker's visibility timeout, or Redis redelivers a job that
    is still running; :meth:`Settings.check` enforces it at start-up.
    """

    pool: Literal["threads", "prefork", "solo"] = "threads"
    critic_concurrency: int = Field(default=8, ge=1)
    discriminator_concurrency: int = Field(default=1, ge=1)
    default_concurrency: int = Field(default=4, ge=1)
    low_memory: bool = False
    max_memory_per_child_kb: int = Field(default=250_000, ge=10_000)
    soft_time_limit_s: float = Field(default=240.0, gt=0)
    time_limit_s: float = Field(default=300.0, gt=0)
    visibility_timeout_s: float = Field(default=3600.0, gt=0)
    restore_interval_s: float = Field(
        default=10.0,
        gt=0,
        description="how often workers look for jobs a lost worker left unacknowledged",
    )
    judge_max_retries: int = Field(default=5, ge=0)
    retry_backoff_max_s: float = Field(default=60.0, gt=0)
    max_attempts: int = Field(
        default=3, ge=1, description="deliveries of one critic job before it is stored as failed"
    )
    # -- nothing lost (qgs_worker.queue.sweeper): the bound is visibility_timeout_s ----------------
    sweep_interval_s: float = Field(
        default=30.0,
        gt=0,
        description="how often a worker's sweeper looks for lost submissions and rounds, in "
        "seconds (one sweeper at a time, through a lease in the store)",
    )
    sweep_max_redispatches: int = Field(
        default=5,
        ge=1,
        description="re-dispatches of one round (or re-publishes of one submission) before "
        "it fails with its reason",
    )
    retry_hold_max_s: float = Field(
        default=10.0,
        ge=0,
        description="retry delays up to this many seconds are held in the worker; longer ones "
        "are parked in the store (the job is acknowledged) and the sweeper brings them back",
    )
    store_max_retries: int = Field(
        default=5, ge=0, description="retries of a job whose store is unreachable"
    )
    # -- telemetry (qgs_worker.telemetry) ----------------------------------------------------
    metrics_port: int | None = Field(
        default=None,
        ge=0,
        le=65535,
        description="serve Prometheus metrics at http://METRICS_ADDRESS:PORT/metrics (off when "
        "unset; 0 picks a free port)",
    )
    metrics_address: str = Field(
        default="127.0.0.1",
        description="the address the metrics endpoint listens on (0.0.0.0 in a container)",
    )

    def retry_hold_s(self) -> float:
        """The longest retry delay a worker holds (a countdown), in seconds.

        ``retry_hold_max_s``, and always below half the visibility timeout: Redis redelivers a
        held job past it, and held jobs do not count against prefetch (NOTES.md).
        """
        return min(self.retry_hold_max_s, self.visibility_timeout_s / 2)


class DiscriminatorSettings(BaseModel, defer_build=True):
    """The audit roles (issue 4): which run, their time budget, and the LLM pass."""

    roles: tuple[str, ...] = Field(
        default=(),
        description="roles to run, in order (JSON list); empty: every role registered in the "
        "'qgs.roles' entry-point group",
        examples=[["security_auditor"]],
    )
    role_timeout_s: float = Field(
        default=60.0, gt=0, description="each role's time budget, in seconds"
    )
    llm_pass: bool = Field(
        default=True, description="roles also ask the judge (when it is an LLM, not 'rules')"
    )
    role_options: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description='keyword arguments per role, e.g. {"reality_checker": {"memory_mb": 256}}',
        examples=[{"reality_checker": {"memory_mb": 256}}],
    )


class AuditSettings(BaseModel, defer_build=True):
    """``qgs audit``'s batch path (``qgs_worker.queue.audit_chunk``): transcripts a job, and threads."""

    chunk_size: int = Field(
        default=100,
        ge=0,
        le=10_000,
        description="transcripts sent in one qgs.audit.chunk job, reviewed in memory and "
        "stored in one transaction (0: every round its own intake job, the per-round path)",
    )
    chunk_threads: int = Field(
        default=0,
        ge=0,
        le=64,
        description="transcripts of a chunk reviewed at once (0: 1 with the rules judge, which "
        "waits on nothing, else 8); the judge's rate limit still holds every call",
    )

    def threads_for(self, judge_kind: str) -> int:
        """The chunk's threads for a judge kind (``chunk_threads``, or its default)."""
        if self.chunk_threads:
            return self.chunk_threads
        return 1 if judge_kind == "rules" else 8


class ToolGateSettings(BaseModel, defer_build=True):
    """The tool-call gate's registry-wide business rules and the parameter layer's strictness.

    A tool's own ``x-qgs`` rules win over these defaults (layer 4).
    """

    rate_limit_calls: int = Field(
        default=0, ge=0, description="calls per agent and tool in the window (0: no default limit)"
    )
    rate_limit_window_s: float = Field(
        default=60.0, gt=0, description="the rate limit's sliding window, in seconds"
    )
    max_file_bytes: int = Field(
        default=0, ge=0, description="largest file a path argument may name (0: no default limit)"
    )
    allowed_domains: tuple[str, ...] = Field(
        default=(), description="hosts URL arguments may name, with subdomains (empty: any)"
    )
    fail_open: bool = Field(
        default=True,
        description="pass calls (with a warning) when the rate limiter's Redis is down",
    )
    rate_limit_lease: float = Field(
        default=0.01,
        ge=0,
        le=1,
        description="share of a rate limit one process takes from Redis at once and spends "
        "without a round trip (0: ask Redis on every call; shares under 2 calls always ask)",
    )

    @field_validator("allowed_domains")
    @classmethod
    def _hosts_only(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for entry in value:
            if entry != "*" and not re.fullmatch(
                r"[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?", entry
            ):
                raise ValueError(
                    f"{entry!r} is not a host name: list hosts such as example.com (no scheme, "
                    "no path) in QGS_TOOLGATE__ALLOWED_DOMAINS"
                )
        return value

    strictness: Strictness = Field(
        default=Strictness.LENIENT,
        description="how the parameter layer reads schemas: lenient (what the tool's schema "
        "documents: defaults, enum spellings) or strict JSON Schema",
    )


class ApiSettings(BaseModel, defer_build=True):
    """``qgs serve``: the HTTP API's address, request limits and long-poll (``QGS_API__*``)."""

    host: str = Field(default="127.0.0.1", description="the address `qgs serve` listens on")
    port: int = Field(default=8080, ge=1, le=65535, description="the port `qgs serve` listens on")
    max_body_bytes: int = Field(
        default=2_000_000,
        ge=1_000,
        description="the largest request body, in bytes, refused with 413 before it is parsed "
        "(a deliverable is also held to QGS_MAX_DELIVERABLE_BYTES)",
    )
    rate_limit_requests: int = Field(
        default=1200, ge=0, description="requests one API key may send per window (0: no limit)"
    )
    rate_limit_window_s: float = Field(
        default=60.0, gt=0, description="the API rate limit's sliding window, in seconds"
    )
    key_cache_s: float = Field(
        default=1.0,
        ge=0,
        le=60,
        description="how long a verified key is trusted without reading the store again, in "
        "seconds: a revoked key is refused within this time (0: read on every request)",
    )
    recheck_s: float = Field(
        default=5.0,
        gt=0,
        description="a long-poll's safety re-read of the store when no notification came, in "
        "seconds",
    )
    ready_timeout_s: float = Field(
        default=1.0, gt=0, le=30, description="how long /readyz waits for each dependency"
    )
    idempotency_ttl_s: float = Field(
        default=86_400.0,
        gt=0,
        description="how long an Idempotency-Key is kept, in seconds: within it, the same key "
        "with the same request gets the first answer, with another a 409",
    )


class GateConfig(Protocol):
    """The settings the gate is built from.

    ``Settings``, or ``settings_defaults.DefaultSettings`` in a short command that sets none.
    """

    @property
    def broker_url(self) -> str | None:
        """``QGS_BROKER_URL``: the rate limit's Redis (None: in-process)."""

    @property
    def toolgate(self) -> ToolGateSettings:
        """``QGS_TOOLGATE__*``."""

    @property
    def policy_file(self) -> Path | None:
        """``QGS_POLICY_FILE``."""

    @property
    def tools_file(self) -> Path | None:
        """``QGS_TOOLS_FILE``."""
