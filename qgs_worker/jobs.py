"""Thin Celery jobs: (de)serialize, load by id, call ``qgs_worker.pipeline``, dispatch the next.

Job names are ``qgs.<area>.<verb>`` (``qgs.review.*``, ``qgs.toolgate.log``) so Flower stays
readable. Only this module maps errors to retries: a transient judge or store error is retried
with exponential backoff and jitter (honouring Retry-After); anything else fails the one round
it concerns, with its reason stored, and the task's next round goes on.

Nothing is dropped (``qgs_worker.sweeper``): a store that cannot be reached is retried, never
acknowledged as done, and once the retries run out the outbox and the round's state still hold
the work; a retry longer than ``QGS_WORKER__RETRY_HOLD_MAX_S`` is parked in the store (the job
is acknowledged, nothing is held unacknowledged in a worker) and the sweeper brings it back; a
review attempt holds a lease in the store, so a copy redelivered while the first still runs
does not call the judge again; a message that does not validate goes to the dead letters, and
its round (when it can be identified) gets a ``revise`` decision with the reason.
"""

from __future__ import annotations

import logging
import random
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from celery import Celery, Task, chain, shared_task
from celery.exceptions import Ignore, Retry
from pydantic import ValidationError
from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from qgs_worker.core.discriminator import role_failed
from qgs_worker.core.models import Classification, RoundPlan, TaskType
from qgs_worker.core.ports import Judge
from qgs_worker.deadletters import connect_misfit_calls, message_text, refuse_submission
from qgs_worker.errors import (
    InputError,
    StoreUnavailableError,
    TaskNotFoundError,
)
from qgs_worker.judges import audit_sessions_for, llm_classifier_for, make_judge
from qgs_worker.policy_file import load_pdp
from qgs_worker.ratelimit import JudgeRateLimit, RedisRateLimiter, redis_for_broker
from qgs_worker.roles import load_roles
from qgs_worker.service import (
    Audit,
    Dispatch,
    Policies,
    ReviewLimits,
    ReviewService,
    audit_round,
    short_error,
)
from qgs_worker.settings import Settings
from qgs_worker.store import Repository
from qgs_worker.store.sql_review import SqlReviewStore
from qgs_worker.submission import validate_message
from qgs_worker.sweeper import SWEEPER_LEASE  # noqa: F401  (connects the hook starting the sweeper)
from qgs_worker.toolcheck import TOOL_LOG_JOB, ToolCheckRecord
from qgs_worker.toolgate_io import load_tools

log = logging.getLogger(__name__)


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
    rt = Runtime(
        settings=settings,
        repo=Repository(settings.resolved_database_url),
        judge=judge,
        policies=policies_for(settings),
        llm_classifier=llm_classifier_for(settings.judge, call_gate=gate),
        judge_limit=limit,
        audit=_audit(settings, judge),
    )
    # Pushed decisions: a decided round with a callback URL gets its delivery stored and queued.
    from qgs_worker.webhooks.delivery import decided_listener, publish_delivery

    rt.decided_listeners.append(decided_listener(rt.repo, lambda rid: publish_delivery(app, rid)))
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

REVIEW_CALLS = 3
"""Judge calls one review attempt may make: the call, one in JSON mode, one repair
(``judges.endpoint``); the review lease covers that many judge timeouts."""

LEASE_MARGIN_S = 2.0
"""Seconds a review lease adds to the judge's worst case (store round trips, scheduling)."""


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
    """How long one review attempt holds its lease: the judge's worst case, in seconds."""
    j = settings.judge
    models = max(1, len(j.panel_models)) if j.kind == "panel" else 1
    return j.timeout_s * REVIEW_CALLS * models + LEASE_MARGIN_S


def job_chain(plan: RoundPlan) -> list[tuple[str, dict[str, Any]]]:
    """The jobs a round's plan needs, in order, as ``(job name, keyword arguments)``.

    A review with no audit due is one job that reviews and decides (``then_decide``); with an
    audit due the critic, the discriminator and the decision are three jobs on their queues
    (the critic and discriminator queues keep slow judge calls and heavy audits apart). A round
    with nothing due needs only the decision (intake decides such a round itself; the sweeper
    may still dispatch one).
    """
    if plan.critic and not plan.discriminate:
        return [("qgs.review.critic", {"then_decide": True})]
    steps: list[tuple[str, dict[str, Any]]] = []
    if plan.critic:
        steps.append(("qgs.review.critic", {}))
    if plan.discriminate:
        steps.append(("qgs.review.discriminate", {}))
    steps.append(("qgs.review.decide", {}))
    return steps


def send(ready: Dispatch, *, app: Celery | None = None) -> None:
    """Enqueue a round's jobs as one chain (``job_chain``), on the current app or ``app``.

    A plan of one job (the common reviewed round) is sent as that job alone: a one-link chain
    costs a canvas freeze and a second serialisation for nothing.
    """
    steps = job_chain(ready.plan)
    rid = ready.round_id
    if app is None:
        sigs = [_JOBS[name].si(rid, **kw) for name, kw in steps]
    else:
        sigs = [app.signature(name, args=(rid,), kwargs=kw, immutable=True) for name, kw in steps]
    if len(sigs) == 1:
        sigs[0].apply_async()
    else:
        chain(*sigs, app=app).apply_async() if app is not None else chain(*sigs).apply_async()


def dispatch(round_id: int, repo: Repository, *, app: Celery | None = None) -> None:
    """Enqueue a stored round's jobs from the plan stored with it (the sweeper's re-dispatch).

    Args:
        round_id: The round.
        repo: The store.
        app: The app to publish with (the current app when None; the sweeper passes its own).
    """
    row = repo.get_round(round_id)
    plan = RoundPlan(critic=row.plan_critic, discriminate=row.plan_discriminate)
    send(Dispatch(round_id, plan), app=app)


class QGSJob(Task):  # type: ignore[misc]
    """The base of every QGS job: acknowledged late, and a store that cannot be reached retried.

    ``store_errors_retried()`` turns a store error into a retry with backoff, capped below the
    visibility timeout (``retry_hold_s``); once the retries run out, the error itself (the job
    fails loudly, and the sweeper still has the work). Never acknowledged as done.
    """

    acks_late = True
    max_retries = None

    def runtime(self) -> Runtime:
        """The worker's Runtime; a store that cannot be reached is retried, never acknowledged."""
        try:
            return runtime(self.app)
        except STORE_ERRORS as exc:
            raise self.store_retry(exc, getattr(self.app, "qgs_settings", None)) from exc

    @contextmanager
    def store_errors_retried(self, settings: Settings | None = None) -> Iterator[None]:
        """Inside: a store error becomes this job's retry (``store_retry``)."""
        try:
            yield
        except STORE_ERRORS as exc:
            raise self.store_retry(
                exc, settings or getattr(self.app, "qgs_settings", None)
            ) from exc

    def store_retry(self, exc: Exception, settings: Settings | None) -> Exception:
        """A retry with backoff for a store that cannot be reached (the error once out of retries)."""
        hold = retry_hold_s(settings) if settings is not None else 10.0
        retries = settings.worker.store_max_retries if settings is not None else 5
        if self.request.retries >= retries:
            log.error(
                "%s: the store is still unreachable after %d retries (%s); the job ends here, "
                "and the sweeper sends its submission or round again",
                self.name,
                retries,
                exc,
            )
            return exc
        log.warning("%s: the store is unreachable (%s); retrying", self.name, exc)
        retry: Exception = self.retry(
            exc=exc,
            countdown=backoff_s(self.request.retries, None, hold),
            max_retries=retries,
        )
        return retry


def _fail_and_go_on(rt: Runtime, round_id: int, error: str) -> None:
    log.error("round %s failed: %s", round_id, error)
    ready = rt.service.fail(round_id, error)
    if ready is not None:
        send(ready)


@shared_task(name="qgs.review.intake", bind=True, base=QGSJob)
def intake_job(self: QGSJob, submission: dict[str, Any]) -> None:
    """Store a submitted round, run the detectors, plan it, and dispatch it when its turn comes.

    The message is checked as the client checks it (``submission.validate_message``: shape,
    depth, encoding, size); one that fails goes to the dead letters and its round is decided
    ``revise`` with the reason (``refuse_submission``).
    """
    rt = self.runtime()
    try:
        sub = validate_message(submission, rt.settings.max_deliverable_bytes)
    except InputError as exc:
        with self.store_errors_retried(rt.settings):
            refuse_submission(
                rt.repo,
                rt.policies,
                submission,
                str(exc),
                job=self.name,
                message_id=self.request.id,
            )
        return
    try:
        redelivered = bool((self.request.delivery_info or {}).get("redelivered"))
        with self.store_errors_retried(rt.settings):
            ready = rt.service.intake(sub, redelivered=redelivered)
    except TaskNotFoundError as exc:
        # The client stored the task before it published this message: a worker that cannot
        # find it reads another store (a wrong QGS_DATABASE_URL). Not acknowledged as done:
        # retried, then failed loudly; the client's store keeps the submission in its outbox.
        log.error(
            "intake of submission %s: %s; is this worker's QGS_DATABASE_URL the client's?",
            sub.submission_id,
            exc,
        )
        raise self.store_retry(exc, rt.settings) from exc
    except Exception as exc:
        if isinstance(exc, STORE_ERRORS) or _is_retry(exc):
            raise
        error = short_error(f"intake failed: {type(exc).__name__}: {exc}")
        source = (sub.task.source_file if sub.task else None) or f"submission:{sub.submission_id}"
        rt.repo.save_audit_error(source, (sub.task.source_line if sub.task else None) or 0, error)
        rt.repo.take_outbox(sub.submission_id)
        from qgs_worker.pipeline import placeholder_round

        round_id = placeholder_round(rt.repo, sub, error)
        if round_id is not None:
            _fail_and_go_on(rt, round_id, error)
        return
    if ready is not None:
        send(ready)


def _is_retry(exc: BaseException) -> bool:
    return isinstance(exc, Retry)


@shared_task(name="qgs.review.critic", bind=True, base=QGSJob)
def critic_job(self: QGSJob, round_id: int, rate_waits: int = 0, then_decide: bool = False) -> None:
    """Have the judge review one round (and, with ``then_decide``, decide it): ``ReviewService.review``.

    One review attempt at a time holds the round's lease in the store: a copy of this job
    redelivered while the first still runs ends without calling the judge, and the sweeper
    dispatches the round again should the first copy never finish. A transient judge error or
    a rate-limit wait is retried: held in the worker when short, else parked in the store
    (the job is acknowledged and the chain stops; the sweeper resumes it when due). Judge
    retries and rate-limit waits are counted in the store, so a parked retry resumes its count.
    ``rate_waits`` is accepted for messages an older QGS queued.
    """
    del rate_waits
    rt = self.runtime()
    holder = uuid.uuid4().hex[:16]
    try:
        with self.store_errors_retried(rt.settings):
            try:
                outcome = rt.service.review(round_id, then_decide=then_decide, holder=holder)
            except STORE_ERRORS:
                _release_quietly(rt, round_id, holder)
                raise
    except TaskNotFoundError as exc:
        raise _not_in_this_store(self, rt, round_id, exc) from exc
    except Exception as exc:
        if isinstance(exc, STORE_ERRORS) or _is_retry(exc) or not then_decide:
            raise
        _fail_and_go_on(rt, round_id, f"decide failed: {type(exc).__name__}: {exc}")
        return
    if outcome.held_elsewhere or outcome.parked:
        raise Ignore()
    if outcome.retry_in_s is not None:
        raise self.retry(countdown=outcome.retry_in_s, max_retries=None)
    if outcome.next is not None:
        send(outcome.next)


def _not_in_this_store(task: QGSJob, rt: Runtime, round_id: int, exc: Exception) -> Exception:
    """A round this worker's store does not hold: another store's (a wrong QGS_DATABASE_URL).

    Retried like an unreachable store, then failed loudly, never acknowledged as done: the
    store that holds the round keeps it, and its sweeper dispatches it again.
    """
    log.error(
        "%s: round %s is not in this worker's store (%s); is QGS_DATABASE_URL the client's?",
        task.name,
        round_id,
        exc,
    )
    return task.store_retry(exc, rt.settings)


def _release_quietly(rt: Runtime, round_id: int, holder: str) -> None:
    try:
        rt.store.release_review(round_id, holder)
    except STORE_ERRORS:
        log.warning("round %s: review lease not released (it expires)", round_id)


@shared_task(name="qgs.review.discriminate", bind=True, base=QGSJob)
def discriminate_job(self: QGSJob, round_id: int) -> None:
    """Run the audit roles on one round, one after another (``service.audit_round``)."""
    rt = self.runtime()
    try:
        # One audit at a time per worker process, whatever the pool's concurrency: roles run
        # one after another and audits do not stack up their memory (DESIGN.md, "Discriminator").
        with self.store_errors_retried(rt.settings), _audit_lock:
            audit_round(rt.store, round_id, rt.audit)
    except TaskNotFoundError as exc:
        raise _not_in_this_store(self, rt, round_id, exc) from exc
    except Exception as exc:  # the audit as a whole failed: never treated as a clean one
        if isinstance(exc, STORE_ERRORS) or _is_retry(exc):
            raise
        task_type = TaskType(rt.repo.get_task(rt.repo.get_round(round_id).task_id).task_type)
        reason = f"{type(exc).__name__}: {exc}"
        rt.repo.save_findings(round_id, [role_failed("discriminator", reason, task_type)])


@shared_task(name="qgs.review.decide", bind=True, base=QGSJob)
def decide_job(self: QGSJob, round_id: int) -> None:
    """Make the gate's decision on one round, then dispatch the task's next round."""
    rt = self.runtime()
    try:
        with self.store_errors_retried(rt.settings):
            ready = rt.service.decide(round_id)
    except TaskNotFoundError as exc:
        raise _not_in_this_store(self, rt, round_id, exc) from exc
    except Exception as exc:
        if isinstance(exc, STORE_ERRORS) or _is_retry(exc):
            raise
        _fail_and_go_on(rt, round_id, f"decide failed: {type(exc).__name__}: {exc}")
        return
    if ready is not None:
        send(ready)


@shared_task(name=TOOL_LOG_JOB, bind=True, base=QGSJob)
def toolgate_log_job(self: QGSJob, check: dict[str, Any]) -> None:
    """Store one tool-call check (``ToolCheckRecord`` as JSON), once per ``check_id``.

    A record that does not validate is logged and dropped (a retry would not fix it); a
    database that is briefly unreachable is retried with backoff.
    """
    rt = self.runtime()
    try:
        record = ToolCheckRecord.model_validate(check)
    except ValidationError as exc:
        where = check.get("check_id", "?") if isinstance(check, dict) else "?"
        log.error("tool-call check %s not stored: invalid record: %s", where, exc)
        with self.store_errors_retried(rt.settings):
            rt.repo.save_dead_letter(
                TOOL_LOG_JOB,
                f"invalid record: {exc}",
                message_text(check),
                message_id=self.request.id,
            )
        return
    with self.store_errors_retried(rt.settings):
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


_JOBS: dict[str, Any] = {
    "qgs.review.critic": critic_job,
    "qgs.review.discriminate": discriminate_job,
    "qgs.review.decide": decide_job,
}


connect_misfit_calls()
