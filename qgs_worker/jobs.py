"""Thin Celery jobs: (de)serialize, load by id, call ``qgs_worker.pipeline``, dispatch the next.

Job names are ``qgs.<area>.<verb>`` (``qgs.review.*``, ``qgs.toolgate.log``) so Flower stays
readable. Only this module maps errors to
retries: a transient judge or database error is retried with exponential backoff and jitter
(honouring Retry-After); anything else fails the one round it concerns, with its reason stored,
and the task's next round goes on.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from celery import Celery, Task, chain, shared_task
from pydantic import ValidationError
from sqlalchemy.exc import OperationalError

from qgs_worker import pipeline
from qgs_worker.core.discriminator import role_failed
from qgs_worker.core.models import Classification, TaskType
from qgs_worker.core.ports import Judge
from qgs_worker.errors import JudgeUnavailableError
from qgs_worker.judges import audit_sessions_for, llm_classifier_for, make_judge
from qgs_worker.policy_file import load_pdp
from qgs_worker.ratelimit import JudgeRateLimit, RedisRateLimiter, redis_for_broker
from qgs_worker.roles import load_roles
from qgs_worker.settings import Settings
from qgs_worker.store import Repository
from qgs_worker.submission import Submission
from qgs_worker.toolcheck import TOOL_LOG_JOB, ToolCheckRecord
from qgs_worker.toolgate_io import load_tools

log = logging.getLogger(__name__)


@dataclass
class Runtime:
    """What the jobs of one worker process share: settings, the store and the judge."""

    settings: Settings
    repo: Repository
    judge: Judge
    policies: pipeline.Policies
    llm_classifier: Callable[[str], Classification] | None = None
    judge_limit: JudgeRateLimit | None = None
    audit: pipeline.Audit = field(default_factory=lambda: pipeline.Audit(roles=()))


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
    rt = Runtime(
        settings=settings,
        repo=Repository(settings.resolved_database_url),
        judge=make_judge(
            judge_cfg.kind,
            base_url=judge_cfg.base_url,
            api_key=judge_cfg.api_key.get_secret_value(),
            model=judge_cfg.model,
            timeout_s=judge_cfg.timeout_s,
            panel_models=judge_cfg.panel_models,
            panel_mode=judge_cfg.panel_mode,
            call_gate=gate,
        ),
        policies=pipeline.Policies(
            gate=settings.gate_policy(),
            cadence=settings.cadence_policy(),
            pdp=load_pdp(settings),
            tools=load_tools(settings),
        ),
        llm_classifier=llm_classifier_for(settings.judge, call_gate=gate),
        judge_limit=limit,
    )
    rt.audit = _audit(settings, rt.judge)
    app.qgs_runtime = rt
    return rt


def _audit(settings: Settings, judge: Judge) -> pipeline.Audit:
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
    return pipeline.Audit(
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


def backoff_s(retries: int, retry_after_s: float | None, cap_s: float) -> float:
    """Seconds to wait before retry number ``retries + 1``: 2**retries with +-50% jitter, capped.

    A server's Retry-After wins when it asks for longer.
    """
    delay = min(cap_s, float(2**retries)) * random.uniform(0.5, 1.5)
    return max(delay, retry_after_s or 0.0)


def dispatch(round_id: int, repo: Repository) -> None:
    """Enqueue the round's due steps as one chain: critic?, discriminate?, then decide."""
    row = repo.get_round(round_id)
    steps = []
    if row.plan_critic:
        steps.append(critic_job.si(round_id))
    if row.plan_discriminate:
        steps.append(discriminate_job.si(round_id))
    steps.append(decide_job.si(round_id))
    chain(*steps).apply_async()


def _fail_and_go_on(rt: Runtime, round_id: int, error: str) -> None:
    log.error("round %s failed: %s", round_id, error)
    ready = pipeline.fail_round(rt.repo, round_id, error, rt.policies)
    if ready is not None:
        dispatch(ready, rt.repo)


@shared_task(name="qgs.review.intake", bind=True, acks_late=True)
def intake_job(self: Task, submission: dict[str, Any]) -> None:
    """Store a submitted round, run the detectors, plan it, and dispatch it when its turn comes."""
    rt = runtime(self.app)
    try:
        sub = Submission.model_validate(submission)
    except ValidationError as exc:
        where = str(submission.get("submission_id", "?")) if isinstance(submission, dict) else "?"
        rt.repo.save_audit_error(f"submission:{where}", 0, f"invalid submission: {exc}")
        return
    try:
        redelivered = bool((self.request.delivery_info or {}).get("redelivered"))
        ready = pipeline.intake(
            rt.repo, sub, rt.policies, redelivered=redelivered, llm=rt.llm_classifier
        )
    except OperationalError as exc:
        raise self.retry(
            exc=exc, countdown=backoff_s(self.request.retries, None, 30.0), max_retries=5
        ) from exc
    except Exception as exc:
        error = pipeline.short_error(f"intake failed: {type(exc).__name__}: {exc}")
        source = (sub.task.source_file if sub.task else None) or f"submission:{sub.submission_id}"
        rt.repo.save_audit_error(source, (sub.task.source_line if sub.task else None) or 0, error)
        round_id = pipeline.placeholder_round(rt.repo, sub, error)
        if round_id is not None:
            _fail_and_go_on(rt, round_id, error)
        return
    if ready is not None:
        dispatch(ready, rt.repo)


RATE_LIMIT_WAITS_MAX = 1000
"""How many times one critic job may wait for the shared rate limit before it is a failure."""


@shared_task(name="qgs.review.critic", bind=True, acks_late=True)
def critic_job(self: Task, round_id: int, rate_waits: int = 0) -> None:
    """Have the judge review one round; transient judge errors are retried with backoff.

    ``rate_waits`` counts the retries spent waiting for the shared rate limit, which do not
    use up the judge's retry budget.
    """
    rt = runtime(self.app)
    w = rt.settings.worker
    judge_tries = self.request.retries - rate_waits
    attempts = rt.repo.bump_attempts(round_id) - rate_waits
    if attempts > w.max_attempts + w.judge_max_retries:
        pipeline.record_judge_failure(
            rt.repo,
            rt.judge.name,
            round_id,
            f"delivered {attempts} times without finishing (worker lost?)",
        )
        return
    try:
        wait_s = pipeline.critic(
            rt.repo,
            rt.judge,
            round_id,
            halo_spread_points=rt.settings.judge.halo_spread_points,
            admit=rt.judge_limit.admit if rt.judge_limit else None,
        )
    except JudgeUnavailableError as exc:
        if judge_tries >= w.judge_max_retries:
            pipeline.record_judge_failure(
                rt.repo,
                rt.judge.name,
                round_id,
                f"judge unavailable after {judge_tries + 1} tries: {exc}",
            )
            return
        delay = backoff_s(judge_tries, exc.retry_after_s, w.retry_backoff_max_s)
        raise self.retry(
            exc=exc,
            countdown=delay,
            kwargs={"rate_waits": rate_waits},
            max_retries=w.judge_max_retries + rate_waits,
        ) from exc
    except OperationalError as exc:
        raise self.retry(
            exc=exc,
            countdown=backoff_s(self.request.retries, None, 30.0),
            kwargs={"rate_waits": rate_waits},
            max_retries=5 + self.request.retries,
        ) from exc
    except Exception as exc:
        # Never a silent PASS: an unexpected error is a stored judge failure, and the gate holds.
        pipeline.record_judge_failure(
            rt.repo, rt.judge.name, round_id, pipeline.short_error(f"{type(exc).__name__}: {exc}")
        )
        return
    if wait_s > 0:
        if rate_waits >= RATE_LIMIT_WAITS_MAX:
            pipeline.record_judge_failure(
                rt.repo,
                rt.judge.name,
                round_id,
                f"the judge's rate limit held it {rate_waits} times",
            )
            return
        raise self.retry(
            countdown=wait_s * random.uniform(1.0, 1.2),
            kwargs={"rate_waits": rate_waits + 1},
            max_retries=self.request.retries + 1,
        )


@shared_task(name="qgs.review.discriminate", bind=True, acks_late=True)
def discriminate_job(self: Task, round_id: int) -> None:
    """Run the audit roles on one round, one after another (``pipeline.discriminate``)."""
    rt = runtime(self.app)
    try:
        # One audit at a time per worker process, whatever the pool's concurrency: roles run
        # one after another and audits do not stack up their memory (DESIGN.md, "Discriminator").
        with _audit_lock:
            pipeline.discriminate(rt.repo, round_id, rt.audit)
    except OperationalError as exc:
        raise self.retry(
            exc=exc, countdown=backoff_s(self.request.retries, None, 30.0), max_retries=5
        ) from exc
    except Exception as exc:  # the audit as a whole failed: never treated as a clean one
        task_type = TaskType(rt.repo.get_task(rt.repo.get_round(round_id).task_id).task_type)
        reason = f"{type(exc).__name__}: {exc}"
        rt.repo.save_findings(round_id, [role_failed("discriminator", reason, task_type)])


@shared_task(name="qgs.review.decide", bind=True, acks_late=True)
def decide_job(self: Task, round_id: int) -> None:
    """Make the gate's decision on one round, then dispatch the task's next round."""
    rt = runtime(self.app)
    try:
        ready = pipeline.decide(rt.repo, round_id, rt.policies)
    except OperationalError as exc:
        raise self.retry(
            exc=exc, countdown=backoff_s(self.request.retries, None, 30.0), max_retries=5
        ) from exc
    except Exception as exc:
        _fail_and_go_on(rt, round_id, f"decide failed: {type(exc).__name__}: {exc}")
        return
    if ready is not None:
        dispatch(ready, rt.repo)


@shared_task(name=TOOL_LOG_JOB, bind=True, acks_late=True)
def toolgate_log_job(self: Task, check: dict[str, Any]) -> None:
    """Store one tool-call check (``ToolCheckRecord`` as JSON), once per ``check_id``.

    A record that does not validate is logged and dropped (a retry would not fix it); a
    database that is briefly unreachable is retried with backoff.
    """
    rt = runtime(self.app)
    try:
        record = ToolCheckRecord.model_validate(check)
    except ValidationError as exc:
        where = check.get("check_id", "?") if isinstance(check, dict) else "?"
        log.error("tool-call check %s not stored: invalid record: %s", where, exc)
        return
    try:
        rt.repo.save_tool_call_check(
            check_id=record.check_id,
            created_at=record.checked_at,
            principal=record.principal,
            agent=record.agent,
            tool=record.tool,
            shape=record.shape,
            call_id=record.call_id,
            allowed=record.allowed,
            stopped_at=record.stopped_at,
            stopped_layer=record.stopped_layer,
            errors=record.errors,
            warnings=record.warnings,
            layers=record.layers,
            suggestion=record.suggestion,
            latency_us=record.latency_us,
        )
    except OperationalError as exc:
        raise self.retry(
            exc=exc, countdown=backoff_s(self.request.retries, None, 30.0), max_retries=5
        ) from exc
