"""What the jobs of one worker process share: the ``Runtime`` (settings, store, judge, service).

Built on a worker's first job (``runtime(app)``) and cached on the Celery app; the settings
helpers here (``policies_for``, ``review_limits``, the retry and lease bounds) are the one place
settings become the service's policies and limits.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from celery import Celery
from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from qgs_worker import telemetry
from qgs_worker.config.policy_file import load_pdp
from qgs_worker.config.settings import LEASE_MARGIN_S, Settings
from qgs_worker.config.toolgate_io import load_tools
from qgs_worker.core.models import Classification
from qgs_worker.core.ports import Judge
from qgs_worker.core.spotcheck import Shadow
from qgs_worker.errors import StoreUnavailableError
from qgs_worker.judges import audit_sessions_for, llm_classifier_for, make_judge
from qgs_worker.limits.ratelimit import JudgeRateLimit, RedisRateLimiter, redis_for_broker
from qgs_worker.queue.notify import DecisionPublisher
from qgs_worker.roles import load_roles
from qgs_worker.service import Audit, Policies, ReviewLimits, ReviewService
from qgs_worker.store import Repository
from qgs_worker.store.shadow_changes import ShadowReader
from qgs_worker.store.sql_review import SqlReviewStore

if TYPE_CHECKING:
    from qgs_worker.telemetry._observer import TelemetryObserver


@dataclass
class Runtime:
    """What the jobs of one worker process share: settings, the store, the judge, the service."""

    settings: Settings
    repo: Repository
    judge: Judge
    policies: Policies
    llm_classifier: Callable[[str], Classification] | None = None
    judge_limit: JudgeRateLimit | None = None
    audit: Audit = field(default_factory=lambda: Audit(roles=()))
    # Called as listener(task_id, round_id) once a round's decision is stored (at least once).
    decided_listeners: list[Callable[[str, int], None]] = field(default_factory=list)
    # Told each review, finding, decision and judge call (telemetry); None when telemetry is off.
    observer: TelemetryObserver | None = None
    # Also one of decided_listeners: the batch path announces a chunk's decisions through it.
    decision_publisher: DecisionPublisher | None = None
    # The rules and judges held in shadow now (recorded, not deciding): a cached store read.
    shadow: Callable[[], Shadow] | None = None
    store: SqlReviewStore = field(init=False)
    service: ReviewService = field(init=False)

    def __post_init__(self) -> None:
        self.store = SqlReviewStore(self.repo.engine)
        self.service = ReviewService(
            self.store,
            self.policies,
            judge=self.judge,
            limits=review_limits(self.settings),
            llm=self.llm_classifier,
            admit=self.judge_limit.admit if self.judge_limit else None,
            on_decided=self._decided,
            observer=self.observer,
            shadow=self.shadow,
        )

    def _decided(self, task_id: str, round_id: int) -> None:
        for listener in self.decided_listeners:
            listener(task_id, round_id)


_runtime_lock = threading.Lock()
_audit_lock = threading.Lock()


def runtime(app: Celery) -> Runtime:
    """The worker process's Runtime, built on first use and cached on the app.

    A lock keeps the first jobs of a thread pool from each building one (and racing on
    ``create_all`` against a fresh database).
    """
    existing: Runtime | None = getattr(app, "qgs_runtime", None)
    if existing is not None:
        return existing
    with _runtime_lock:
        built: Runtime | None = getattr(app, "qgs_runtime", None)
        return built if built is not None else _build_runtime(app)


def _build_runtime(app: Celery) -> Runtime:
    settings: Settings = getattr(app, "qgs_settings", None) or Settings()
    judge_cfg = settings.judge
    # One judge budget: every HTTP call to the endpoint (reviews, repairs, panel members, audit
    # passes, the classifier) goes through the shared limit.
    limit = _judge_limit(settings)
    gate = limit.before_call if limit is not None else None
    judge = make_judge(
        judge_cfg.kind,
        base_url=judge_cfg.base_url,
        api_key=judge_cfg.api_key.get_secret_value(),
        model=judge_cfg.model,
        timeout_s=judge_cfg.timeout_s,
        panel_models=judge_cfg.panel_models,
        panel_mode=judge_cfg.panel_mode,
        call_gate=gate,
    )
    repo = Repository(settings.resolved_database_url)
    spot = settings.spotcheck
    rt = Runtime(
        settings=settings,
        repo=repo,
        judge=judge,
        policies=policies_for(settings),
        llm_classifier=llm_classifier_for(settings.judge, call_gate=gate),
        judge_limit=limit,
        audit=_audit(settings, judge),
        observer=telemetry.observer_for(settings),
        shadow=ShadowReader(repo, spot.shadow_policy(), spot.shadow_refresh_s),
    )
    # Spot-checks: a decided round the settings sample is queued for a person (deterministic
    # by its submission id, idempotent by the queue's unique key: at least once is enough).
    sample = spot.sample_policy()
    if not sample.off:

        def spot_check(_task_id: str, round_id: int) -> None:
            rt.repo.sample_decided(round_id, sample)

        rt.decided_listeners.append(spot_check)
    if settings.broker_url:
        # Waiters (the HTTP API's long-poll, Client.wait) are woken by this notice, not by
        # reading the store in a loop (qgs_worker.queue.notify).
        rt.decision_publisher = DecisionPublisher(
            redis_for_broker(settings.broker_url, timeout_s=settings.broker_timeout_s / 2),
            rt.repo.round_submission_id,
            in_background=True,  # a job does not wait on Redis for a best-effort notice
        )
        rt.decided_listeners.append(rt.decision_publisher)
    # Pushed decisions: a decided round with a callback URL gets its delivery stored and queued.
    from qgs_worker.queue.webhook_starts import decided_listener, publish_delivery

    # In the background: the read finding no callback URL leaves the review's path (the sweeper
    # starts a delivery whose start was lost with the process).
    rt.decided_listeners.append(
        decided_listener(rt.repo, lambda rid: publish_delivery(app, rid), in_background=True)
    )
    app.qgs_runtime = rt
    return rt


def _audit(settings: Settings, judge: Judge) -> Audit:
    """The discriminator's roles and judge sessions, from ``QGS_DISCRIMINATOR__*``."""
    cfg = settings.discriminator
    low_memory = settings.worker.low_memory
    options = {name: dict(opts) for name, opts in cfg.role_options.items()}
    if not cfg.llm_pass:
        for name in ("security_auditor", "reality_checker"):
            options.setdefault(name, {}).setdefault("llm_pass", False)
    roles = load_roles(cfg.roles, options)
    # The roles run one after another inside one job: their budgets must fit its time limit.
    budget_s = settings.worker.soft_time_limit_s * 0.9 / max(1, len(roles))
    return Audit(
        roles=roles,
        sessions=audit_sessions_for(judge, low_memory=low_memory) if cfg.llm_pass else None,
        role_timeout_s=min(cfg.role_timeout_s, budget_s),
        low_memory=low_memory,
    )


def _judge_limit(settings: Settings) -> JudgeRateLimit | None:
    """The shared rate limit in front of the judge endpoint, kept in the broker's Redis."""
    cfg = settings.judge
    if cfg.kind == "rules" or not (cfg.requests_per_minute or cfg.tokens_per_minute):
        return None
    return JudgeRateLimit(
        RedisRateLimiter(
            redis_for_broker(settings.broker_url or "", timeout_s=settings.broker_timeout_s / 2)
        ),
        cfg.base_url or "default",
        requests_per_minute=cfg.requests_per_minute,
        tokens_per_minute=cfg.tokens_per_minute,
        window_s=cfg.rate_window_s,
        max_wait_s=cfg.rate_max_wait_s,
    )


STORE_ERRORS = (
    OperationalError,
    InterfaceError,
    DisconnectionError,
    PoolTimeoutError,
    StoreUnavailableError,
)
"""Store errors worth a retry: the database is unreachable, restarting or out of connections."""

RATE_LIMIT_WAITS_MAX = 1000
"""How many times one critic job may wait for the shared rate limit before it is a failure."""


def policies_for(settings: Settings) -> Policies:
    """The service's policies from settings (gate, cadence, policy file, tools file)."""
    return Policies(
        gate=settings.gate_policy(),
        cadence=settings.cadence_policy(),
        pdp=load_pdp(settings),
        tools=load_tools(settings),
    )


def review_limits(settings: Settings) -> ReviewLimits:
    """The review's retry and lease limits from ``QGS_WORKER__*`` and ``QGS_JUDGE__*``."""
    w = settings.worker
    return ReviewLimits(
        halo_spread_points=settings.judge.halo_spread_points,
        lease_s=review_lease_s(settings),
        judge_deadline_s=review_lease_s(settings) - LEASE_MARGIN_S,
        max_lost=w.max_attempts,
        judge_max_retries=w.judge_max_retries,
        backoff_max_s=w.retry_backoff_max_s,
        hold_max_s=retry_hold_s(settings),
        rate_waits_max=RATE_LIMIT_WAITS_MAX,
    )


def backoff_s(retries: int, retry_after_s: float | None, cap_s: float) -> float:
    """Seconds to wait before retry number ``retries + 1``: 2**retries with +-50% jitter, capped.

    A server's Retry-After wins when it asks for longer (the caller parks long waits in the
    store rather than holding them: ``retry_hold_s``).
    """
    delay = min(cap_s, float(2**retries)) * random.uniform(0.5, 1.5)
    return max(delay, retry_after_s or 0.0)


def retry_hold_s(settings: Settings) -> float:
    """The longest retry delay a worker holds (a countdown), in seconds.

    ``QGS_WORKER__RETRY_HOLD_MAX_S``, and always below half the visibility timeout: Redis
    redelivers a held job past it, and held jobs do not count against prefetch (NOTES.md).
    """
    return settings.worker.retry_hold_s()


def review_lease_s(settings: Settings) -> float:
    """How long one review attempt holds its lease, in seconds (``Settings.review_lease_s``).

    The judge's worst case (every call of every panel judge waiting its whole deadline and the
    rate limit's longest hold) plus ``LEASE_MARGIN_S``; the attempt's judge calls end
    ``LEASE_MARGIN_S`` before it (``ReviewLimits.judge_deadline_s``).
    """
    return settings.review_lease_s()
