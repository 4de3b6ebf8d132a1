"""The review steps for a caller that holds a ``Repository``: the service, one call each.

The review logic lives in ``qgs_worker.service`` (``ReviewService`` over the store port); this
module builds the service over a repository's engine so the sweeper, the dead-letter path, the
benches and the tests call a step in one line. The Celery jobs (``qgs_worker.queue.jobs``) keep one
service per worker instead.
"""

from __future__ import annotations

from collections.abc import Callable

from qgs_worker.core.discriminator import RoleRun
from qgs_worker.core.models import Classification, TaskHistory
from qgs_worker.core.ports import Judge
from qgs_worker.core.review_checks import HALO_SPREAD_POINTS
from qgs_worker.core.spotcheck import Shadow
from qgs_worker.service import (
    DETECTOR_ROLE,
    Audit,
    Policies,
    ReviewLimits,
    ReviewService,
    audit_round,
    classify,
    deciding,
    short_error,
)
from qgs_worker.service.observer import ReviewObserver
from qgs_worker.service.records import TaskRecord
from qgs_worker.service.requests import (  # tests name these pipeline.X
    new_round,
    review_key,
    review_request_of,
    user_words,
)
from qgs_worker.service.submission import Submission
from qgs_worker.store import Repository
from qgs_worker.store.sql_review import SqlReviewStore

__all__ = [
    "DETECTOR_ROLE",
    "Audit",
    "Policies",
    "claim_next",
    "classify",
    "constraints",
    "critic",
    "decide",
    "discriminate",
    "ensure_task",
    "fail_round",
    "intake",
    "placeholder_for",
    "placeholder_round",
    "review_key",
    "review_request_of",
    "service_for",
    "short_error",
    "store_round",
    "task_history",
    "user_words",
]


def service_for(
    repo: Repository,
    policies: Policies | None = None,
    *,
    judge: Judge | None = None,
    limits: ReviewLimits | None = None,
    llm: Callable[[str], Classification] | None = None,
    admit: Callable[[int], float] | None = None,
    on_decided: Callable[[str, int], None] | None = None,
    observer: ReviewObserver | None = None,
    shadow: Callable[[], Shadow] | None = None,
) -> ReviewService:
    """A ``ReviewService`` over ``repo``'s engine (default gate and cadence policies if None)."""
    if policies is None:
        from qgs_worker.core.models import CadencePolicy, GatePolicy

        policies = Policies(gate=GatePolicy(), cadence=CadencePolicy())
    return ReviewService(
        SqlReviewStore(repo.engine),
        policies,
        judge=judge,
        limits=limits,
        llm=llm,
        admit=admit,
        on_decided=on_decided,
        observer=observer,
        shadow=shadow,
    )


def intake(
    repo: Repository,
    submission: Submission,
    policies: Policies,
    *,
    redelivered: bool = False,
    llm: Callable[[str], Classification] | None = None,
) -> int | None:
    """``ReviewService.intake``: the id of the round to dispatch now, or None."""
    ready = service_for(repo, policies, llm=llm).intake(submission, redelivered=redelivered)
    return ready.round_id if ready else None


def claim_next(
    repo: Repository, task_id: str, policies: Policies, *, redelivered: bool = False
) -> int | None:
    """``ReviewService.advance``: claim the task's next round if its turn came; its id or None."""
    ready = service_for(repo, policies).advance(task_id, redelivered=redelivered)
    return ready.round_id if ready else None


def critic(
    repo: Repository,
    judge: Judge,
    round_id: int,
    *,
    halo_spread_points: int = HALO_SPREAD_POINTS,
    admit: Callable[[int], float] | None = None,
) -> float:
    """``ReviewService.review`` without the decision: 0.0, or the seconds a retry waits."""
    limits = ReviewLimits(halo_spread_points=halo_spread_points)
    outcome = service_for(repo, judge=judge, limits=limits, admit=admit).review(round_id)
    return outcome.retry_in_s or 0.0


def discriminate(repo: Repository, round_id: int, audit: Audit) -> list[RoleRun]:
    """``service.audit_round``: the runs of the audit roles that ran now."""
    return audit_round(SqlReviewStore(repo.engine), round_id, audit)


def decide(repo: Repository, round_id: int, policies: Policies) -> int | None:
    """``ReviewService.decide``: the id of the task's next round to dispatch, or None."""
    ready = service_for(repo, policies).decide(round_id)
    return ready.round_id if ready else None


def fail_round(repo: Repository, round_id: int, error: str, policies: Policies) -> int | None:
    """``ReviewService.fail``: the id of the task's next round to dispatch, or None."""
    ready = service_for(repo, policies).fail(round_id, error)
    return ready.round_id if ready else None


def constraints(repo: Repository, task_id: str) -> str:
    """``ReviewService.constraints``: the text for the agent's next prompt."""
    return service_for(repo).constraints(task_id)


def task_history(repo: Repository, task_id: str, number: int) -> TaskHistory:
    """What the gate knows of the task's rounds before round ``number`` (``TaskHistory``)."""
    store = SqlReviewStore(repo.engine)
    context = store.load_task(task_id)
    return deciding.task_history(
        context, number, deciding.earlier_p0_findings(store, context, number)
    )


def ensure_task(repo: Repository, submission: Submission) -> TaskRecord:
    """The submission's task, stored (and classified) from ``submission.task`` when new.

    Raises:
        TaskNotFoundError: the task is not stored and the submission does not describe it.
    """
    store = SqlReviewStore(repo.engine)
    if submission.task is not None:
        new = submission.task
        store.add_task(submission.task_id, classify(new.request, new.task_type), new)
    return store.load_task(submission.task_id).task


def store_round(repo: Repository, submission: Submission) -> int:
    """Store a submission's round queued, claimed by nobody (what a lost dispatch leaves)."""
    store = SqlReviewStore(repo.engine)
    number = submission.round_number or store.load_task(submission.task_id).next_number()
    round_id, _ = store.insert_round(new_round(submission, submission.task_id, number))
    return round_id


def placeholder_round(repo: Repository, submission: Submission, error: str) -> int | None:
    """The round of a submission whose intake failed, stored empty if need be; None if impossible.

    A failed round still takes its number, so the task's later rounds are not held behind a gap.
    """
    return placeholder_for(
        repo,
        submission.submission_id,
        submission.task_id,
        submission.round_number,
        error,
        final=submission.final,
    )


def placeholder_for(
    repo: Repository,
    submission_id: str,
    task_id: str,
    round_number: int | None,
    error: str,
    *,
    final: bool = False,
) -> int | None:
    """``placeholder_round`` from the ids alone (a message that did not validate).

    Returns:
        The id of the submission's round (stored now, empty, with ``error``, when it was not),
        or None when the task is not stored or the round number is unknown or taken.
    """
    return repo.store_placeholder_round(
        submission_id, task_id, round_number, short_error(error), final=final
    )
