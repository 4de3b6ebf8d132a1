"""Where a submission stands, in the store's own words: for ``wait``, ``qgs submit --wait``.

A wait that times out says the real cause (the submission still in the outbox, a refused
message, a round waiting for an earlier one, judge retries so far, a parked retry, the store
in use) instead of guessing "is a worker running?".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from qgs_worker.core.models import ReviewStatus, RoundStatus
from qgs_worker.errors import SubmissionRefusedError
from qgs_worker.queue.sweeper import overdue
from qgs_worker.store import Repository, utcnow
from qgs_worker.store.schema import redact

TAKE_PATIENCE_S = 30.0
"""Seconds a sent submission may wait for a worker before a wait asks whether one runs.

Workers that the waiting command starts itself (``qgs submit --wait`` on the default setup)
take a few seconds to come up: until then "no worker took it yet" is no news, and a line that
said it stayed on the terminal after the decision came (issue 31)."""


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


def progress_of(
    repo: Repository,
    submission_id: str,
    bound_s: float = 3600.0,
    *,
    now: datetime | None = None,
    patience_s: float = TAKE_PATIENCE_S,
) -> WaitProgress:
    """Where ``submission_id`` stands in ``repo``.

    Args:
        repo: The store.
        submission_id: From ``submit``.
        bound_s: The visibility timeout, past which a state is called overdue.
        now: The time to judge waits by (UTC; the clock's when None).
        patience_s: A submission sent less than this many seconds ago and not taken yet is
            "waiting for a worker", not a question about whether one runs (0: always ask, as
            a wait that timed out does).
    """
    facts = repo.submission_facts(submission_id)
    now = now or utcnow()
    store = redact(repo.url)
    r = facts.round
    if r is None:
        if facts.refused is not None:
            return WaitProgress(
                submission_id, "refused", detail=f"the worker refused it: {facts.refused}"
            )
        if not facts.in_outbox:
            return WaitProgress(
                submission_id,
                "unknown",
                detail=f"the store {store} has no submission {submission_id!r}: an unknown id, "
                "or the worker uses another store (QGS_DATABASE_URL, QGS_DATA_DIR)",
            )
        if facts.given_up:
            return WaitProgress(submission_id, "refused", detail=facts.given_up)
        if facts.taken:
            # A worker took it and its intake failed before a round could be stored (its
            # number taken by another submission, say): the reason is an input error.
            why = facts.intake_error or "no reason was stored"
            return WaitProgress(
                submission_id, "refused", detail=f"the worker could not store it: {why}"
            )
        sent_at = facts.sent_at.isoformat(timespec="seconds") if facts.sent_at else "?"
        if _waited_s(facts.sent_at, now) < patience_s:
            return WaitProgress(
                submission_id, "sent", detail=f"sent at {sent_at}; waiting for a worker to take it"
            )
        return WaitProgress(
            submission_id,
            "sent",
            detail=f"sent {facts.published} time(s) since {sent_at}; no worker took it yet: "
            f"is a worker consuming qgs.critic (where intake runs) on this broker, with the store {store}?",
        )
    retries = facts.judge_retries
    retry_at = r.retry_at.isoformat(timespec="seconds") if r.retry_at else None
    parts = [f"round {r.number} is {r.status}"]
    if r.status_at is not None:
        parts[0] += f" since {r.status_at.isoformat(timespec='seconds')}"
    if r.status == RoundStatus.QUEUED and r.number > 1:
        parts.append("it waits until the task's earlier rounds are decided")
    if facts.review_status == ReviewStatus.FAILED:
        parts.append(f"the judge failed: {facts.review_error}")
    if retries:
        parts.append(f"judge retries so far: {retries} (last: {r.retry_reason})")
    if retry_at:
        parts.append(f"next judge try at {retry_at}")
    if facts.error:
        parts.append(f"error: {facts.error}")
    late = overdue(r, bound_s)
    if late:
        parts.append(f"overdue ({late}): the sweeper sends it again")
    return WaitProgress(
        submission_id,
        r.status,
        round_number=r.number,
        judge_retries=retries,
        last_retry=r.retry_reason,
        retry_at=retry_at,
        detail="; ".join(parts),
    )


def _waited_s(since: datetime | None, now: datetime) -> float:
    """Seconds from ``since`` to ``now`` (infinite when ``since`` is unknown)."""
    return float("inf") if since is None else (now - since).total_seconds()


def settled_progress(repo: Repository, submission_id: str, bound_s: float = 3600.0) -> WaitProgress:
    """``progress_of``, read once more when it says ``refused`` (a final state).

    The round and the outbox row are read one after the other, so an intake committing between
    the two reads (it writes both in one transaction) looks like "taken, no round" once; the
    second read, begun after the row was seen taken, finds the round if there is one.
    """
    where = progress_of(repo, submission_id, bound_s)
    return progress_of(repo, submission_id, bound_s) if where.state == "refused" else where


def refusal_of(where: WaitProgress) -> SubmissionRefusedError | None:
    """The error a wait raises for a submission that will never be decided, else None.

    ``where`` comes from ``settled_progress``: its ``refused`` state is final (a dead letter, a
    submission given up, or one a worker took and could not store).
    """
    if where.state != "refused":
        return None
    return SubmissionRefusedError(
        f"submission {where.submission_id!r} will not be decided: {where.detail}; submit the "
        "round again (without round_number to take the next free one)"
    )
