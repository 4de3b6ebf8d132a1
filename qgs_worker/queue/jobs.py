"""Thin Celery jobs: (de)serialize, load by id, call ``qgs_worker.queue.pipeline``, dispatch the next.

Job names are ``qgs.<area>.<verb>`` (``qgs.review.*``, ``qgs.toolgate.log``) so Flower stays
readable. Only this module maps errors to retries: a transient judge or store error is retried
with exponential backoff and jitter (honouring Retry-After); anything else fails the one round
it concerns, with its reason stored, and the task's next round goes on.

Nothing is dropped (``qgs_worker.queue.sweeper``): a store that cannot be reached is retried, never
acknowledged as done, and once the retries run out the outbox and the round's state still hold
the work; a retry longer than ``QGS_WORKER__RETRY_HOLD_MAX_S`` is parked in the store (the job
is acknowledged, nothing is held unacknowledged in a worker) and the sweeper brings it back; a
review attempt holds a lease in the store, so a copy redelivered while the first still runs
does not call the judge again; a message that does not validate goes to the dead letters, and
its round (when it can be identified) gets a ``revise`` decision with the reason.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from celery import Task, shared_task
from celery.exceptions import Ignore, Retry
from pydantic import ValidationError

from qgs_worker import telemetry
from qgs_worker.config.settings import LEASE_MARGIN_S, REVIEW_CALLS, Settings  # noqa: F401  (jobs.X)
from qgs_worker.core.discriminator import role_failed
from qgs_worker.errors import (
    InputError,
    TaskNotFoundError,
)
from qgs_worker.queue.audit_chunk import AUDIT_CHUNK_JOB, audit_chunk
from qgs_worker.queue.broker import CRITIC_QUEUE
from qgs_worker.queue.deadletters import connect_misfit_calls, message_text, refuse_submission
from qgs_worker.queue.dispatch import dispatch, job_chain, send  # noqa: F401  (jobs.X)
from qgs_worker.queue.sweeper import SWEEPER_LEASE  # noqa: F401  (connects the hook starting the sweeper)
from qgs_worker.queue.toolcheck import TOOL_LOG_JOB, ToolCheckRecord
from qgs_worker.queue.worker_runtime import (  # noqa: F401  (tests and benches name them jobs.X)
    RATE_LIMIT_WAITS_MAX,
    STORE_ERRORS,
    Runtime,
    _audit_lock,
    backoff_s,
    policies_for,
    retry_hold_s,
    review_lease_s,
    review_limits,
    runtime,
)
from qgs_worker.service import (
    Dispatch,
    audit_round,
    short_error,
)
from qgs_worker.service.submission import validate_message
from qgs_worker.telemetry.worker import connect_metrics_server

log = logging.getLogger(__name__)

_chunk_lock = threading.Lock()
"""Held while a ``qgs.audit.chunk`` job reviews in memory (one chunk at a time per process)."""


class QGSJob(Task):  # type: ignore[misc]
    """The base of every QGS job: acknowledged late, and a store that cannot be reached retried.

    ``store_errors_retried()`` turns a store error into a retry with backoff, capped below the
    visibility timeout (``retry_hold_s``); once the retries run out, the error itself (the job
    fails loudly, and the sweeper still has the work). Never acknowledged as done.
    """

    acks_late = True
    max_retries = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run the job in its telemetry span (``telemetry.job_span``: a no-op when tracing is off)."""
        with telemetry.job_span(self.name, self.request, args):
            return super().__call__(*args, **kwargs)

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
    # A round ready with a review due is reviewed here when this job came on the critic queue
    # (``_review_here``): intake stores it holding this holder's review lease.
    holder = uuid.uuid4().hex[:16] if _delivered_from(self) == CRITIC_QUEUE else None
    try:
        redelivered = bool((self.request.delivery_info or {}).get("redelivered"))
        with self.store_errors_retried(rt.settings):
            ready = rt.service.intake(sub, redelivered=redelivered, review_holder=holder)
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
        from qgs_worker.queue.pipeline import placeholder_round

        round_id = placeholder_round(rt.repo, sub, error)
        if round_id is not None:
            _fail_and_go_on(rt, round_id, error)
        return
    if ready is None:
        return
    if ready.plan.critic and holder is not None:
        _review_here(rt, ready, holder)
    else:
        send(ready)


def _delivered_from(task: QGSJob) -> str | None:
    """The queue this job's message came from (None when run eagerly or by an old broker)."""
    return (task.request.delivery_info or {}).get("routing_key")


def _review_here(rt: Runtime, ready: Dispatch, holder: str) -> None:
    """Review a round its intake just made ready, in the intake job (it came on the critic queue).

    This saves a job a round: the round's review runs where a critic job would have run, under
    the critic queue's concurrency, and a round stored by this intake holds its review lease
    already (``ready.lease``: taken in the insert's transaction). What cannot be finished here
    goes on as the separate jobs would: an audit due as the discriminate -> decide chain, a
    judge retry or rate-limit wait as a critic job held back, and a store error (this intake's
    retry would not review again) as the round's critic job itself, which has the store retries.
    """
    then_decide = not ready.plan.discriminate
    try:
        outcome = rt.service.review(
            ready.round_id, then_decide=then_decide, holder=holder, lease=ready.lease
        )
    except (TaskNotFoundError, *STORE_ERRORS) as exc:
        log.warning(
            "round %s: reviewing at intake failed (%s); sending its critic job", ready.round_id, exc
        )
        _release_quietly(rt, ready.round_id, holder)
        send(ready)
        return
    except Exception as exc:
        if not then_decide:
            raise
        _fail_and_go_on(rt, ready.round_id, f"decide failed: {type(exc).__name__}: {exc}")
        return
    if outcome.held_elsewhere or outcome.parked:
        return
    if outcome.retry_in_s is not None:
        send(ready, countdown_s=outcome.retry_in_s)
    elif outcome.next is not None:
        send(outcome.next)
    elif not then_decide:
        send(Dispatch(ready.round_id, ready.plan.model_copy(update={"critic": False})))


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
            audit_round(rt.store, round_id, rt.audit, rt.observer)
    except TaskNotFoundError as exc:
        raise _not_in_this_store(self, rt, round_id, exc) from exc
    except Exception as exc:  # the audit as a whole failed: never treated as a clean one
        if isinstance(exc, STORE_ERRORS) or _is_retry(exc):
            raise
        task_type = rt.store.load_round(round_id).task.task_type
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


@shared_task(name=AUDIT_CHUNK_JOB, bind=True, base=QGSJob)
def audit_chunk_job(self: QGSJob, submissions: list[Any]) -> dict[str, int]:
    """Review a chunk of transcripts in memory and store it in one transaction (``audit_chunk``).

    ``submissions`` are intake messages, each transcript's in round order. What does not fit
    the batch path goes round by round as intake jobs. A store that cannot be reached is
    retried (nothing of the chunk was written); a chunk that lost a race with the per-round
    path for a task hands that task over to it.
    """
    from qgs_worker.queue.publish import publish_intake

    rt = self.runtime()
    threads = rt.settings.audit.threads_for(rt.settings.judge.kind)
    # One chunk at a time per worker process in memory: a chunk is CPU work under the GIL (its
    # LLM calls overlap in its own threads); four chunks at once in four worker threads ran at
    # 0.6x the rate of one after another (bench/README.md, audit_batch_bench). The lock is let
    # go before the chunk's transaction, so the next chunk's reviews overlap its writes.
    with self.store_errors_retried(rt.settings):
        outcome = audit_chunk(
            rt,
            submissions,
            publish=lambda m: publish_intake(self.app, m),
            threads=threads,
            in_memory=_chunk_lock,
        )
    return {
        "stored_tasks": outcome.stored_tasks,
        "stored_rounds": outcome.stored_rounds,
        "per_round": len(outcome.per_round),
        "republished": outcome.republished,
    }


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
        stored = rt.repo.save_tool_call_check(
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
    if stored and rt.observer is not None:  # counted once per check id, where it is stored
        rt.observer.tool_check_stored(record.stopped_layer, record.allowed)


connect_metrics_server()
connect_misfit_calls()
