"""Where a submission stands, in the store's own words: for ``wait``, ``qgs submit --wait``.

A wait that times out says the real cause (the submission still in the outbox, a refused
message, a round waiting for an earlier one, judge retries so far, a parked retry, the store
in use) instead of guessing "is a worker running?".
"""

from __future__ import annotations

from dataclasses import dataclass

from qgs_worker.core.models import ReviewStatus, RoundStatus
from qgs_worker.store import Repository, as_utc
from qgs_worker.store.schema import redact
from qgs_worker.sweeper import overdue


@dataclass(frozen=True)
class WaitProgress:
    """One look at a submission on its way.

    Attributes:
        submission_id: The submission.
        state: ``unknown`` (not in this store), ``sent`` (in the outbox, no intake took it yet),
            ``refused`` (a dead letter), or the round's status (``queued``, ``dispatched``,
            ``decided``, ``failed``).
        round_number: The round's number once it is stored.
        judge_retries: Transient judge failures so far.
        last_retry: The last of them.
        retry_at: When a parked retry is due (ISO 8601, UTC), or None.
        detail: One sentence saying where it stands.
    """

    submission_id: str
    state: str
    round_number: int | None = None
    judge_retries: int = 0
    last_retry: str | None = None
    retry_at: str | None = None
    detail: str = ""

    @property
    def key(self) -> tuple[object, ...]:
        """What changes when there is progress to show."""
        return (self.state, self.round_number, self.judge_retries, self.retry_at)


def progress_of(repo: Repository, submission_id: str, bound_s: float = 3600.0) -> WaitProgress:
    """Where ``submission_id`` stands in ``repo``.

    Args:
        repo: The store.
        submission_id: From ``submit``.
        bound_s: The visibility timeout, past which a state is called overdue.
    """
    row = repo.find_round_by_submission(submission_id)
    store = redact(repo.url)
    if row is None:
        letters = [d for d in repo.list_dead_letters(limit=200) if d.submission_id == submission_id]
        if letters:
            return WaitProgress(
                submission_id, "refused", detail=f"the worker refused it: {letters[0].reason}"
            )
        sent = repo.get_outbox(submission_id)
        if sent is None:
            return WaitProgress(
                submission_id,
                "unknown",
                detail=f"the store {store} has no submission {submission_id!r}: an unknown id, "
                "or the worker uses another store (QGS_DATABASE_URL, QGS_DATA_DIR)",
            )
        if sent.given_up:
            return WaitProgress(submission_id, "refused", detail=sent.given_up)
        if sent.taken_at is not None:
            # A worker took it and its intake failed before a round could be stored (its
            # number taken by another submission, say): the reason is an input error.
            why = repo.audit_error_of(f"submission:{submission_id}") or "no reason was stored"
            return WaitProgress(
                submission_id, "refused", detail=f"the worker could not store it: {why}"
            )
        return WaitProgress(
            submission_id,
            "sent",
            detail=f"sent {sent.published} time(s) since "
            f"{as_utc(sent.created_at).isoformat(timespec='seconds')}; no worker took it yet: "
            f"is a worker consuming qgs.default on this broker, with the store {store}?",
        )
    retries = row.judge_retries or 0
    retry_at = as_utc(row.retry_at).isoformat(timespec="seconds") if row.retry_at else None
    parts = [f"round {row.number} is {row.status}"]
    if row.status_at is not None:
        parts[0] += f" since {as_utc(row.status_at).isoformat(timespec='seconds')}"
    if row.status == RoundStatus.QUEUED and row.number > 1:
        parts.append("it waits until the task's earlier rounds are decided")
    review = repo.get_review(row.id) if row.id is not None else None
    if review is not None and review.status == ReviewStatus.FAILED:
        parts.append(f"the judge failed: {review.error}")
    if retries:
        parts.append(f"judge retries so far: {retries} (last: {row.retry_reason})")
    if retry_at:
        parts.append(f"next judge try at {retry_at}")
    if row.error:
        parts.append(f"error: {row.error}")
    late = overdue(row, bound_s)
    if late:
        parts.append(f"overdue ({late}): the sweeper sends it again")
    return WaitProgress(
        submission_id,
        row.status,
        round_number=row.number,
        judge_retries=retries,
        last_retry=row.retry_reason,
        retry_at=retry_at,
        detail="; ".join(parts),
    )
