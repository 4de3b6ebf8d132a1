"""The review service's store port: what the steps read and write, in core values.

``qgs_worker.store.sql_review.SqlReviewStore`` implements it over the results store; a step
loads what it needs once (``load_task`` / ``load_round``: the task and every round, one
statement) and writes its results in one transaction (``insert_round``, ``claim_round``,
``settle``, ``save_role_run``). Nothing here names a table or a row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

from qgs_worker.core.models import Classification, Decision, Finding, Review, RoundPlan, RoundStatus
from qgs_worker.service.records import ReviewAttempt, TaskContext
from qgs_worker.service.submission import NewTask

__all__ = [
    "Contents",
    "Escalation",
    "NewRound",
    "Prepared",
    "ReviewAttempt",
    "ReviewLease",
    "ReviewStore",
    "Settlement",
]

Contents = Literal["none", "focus", "all"]
"""How much of the rounds' contents a load brings: none; the focus round's text and tool calls
(and every round's tool results, which the detectors read); or everything (the audit)."""


@dataclass(frozen=True, slots=True)
class Escalation:
    """The task's new class when a round's detectors found P0/P1 work, and why."""

    to: Classification
    reason: str


@dataclass(frozen=True, slots=True)
class Prepared:
    """A round made ready to run: its detector findings, its plan, and what follows from them.

    ``decision`` is set when nothing is due on the round (no review, no audit): the round is
    decided as it is stored or claimed, with no job of its own.
    """

    plan: RoundPlan
    findings: tuple[Finding, ...] = ()
    escalation: Escalation | None = None
    decision: Decision | None = None


@dataclass(frozen=True, slots=True)
class ReviewLease:
    """The review lease a round is stored with, for a caller that reviews it at once.

    Attributes:
        holder: The review attempt's holder id.
        lease_s: How long the lease holds, in seconds from the insert (``ReviewLimits.lease_s``).
    """

    holder: str
    lease_s: float


@dataclass(frozen=True, slots=True)
class NewRound:
    """A submitted round to store: ``prepared`` when its turn has come (stored dispatched).

    With ``lease`` (only with ``prepared``, a review due), the round is stored holding its
    review lease, its first attempt counted: what ``begin_review`` would write, in the insert's
    transaction instead of one of its own.
    """

    submission_id: str
    task_id: str
    number: int
    final: bool
    content: str
    tool_calls_json: str
    tool_results_json: str
    turn: str | None
    content_hash: str
    review_key: str | None = None
    prepared: Prepared | None = None
    callback_url: str | None = None  # where the decision is pushed (wins over the task's)
    lease: ReviewLease | None = None


@dataclass(frozen=True, slots=True)
class Settlement:
    """What one step writes on a round, in one transaction (every field optional).

    ``review`` (with ``review_key`` and ``reused_from``) or ``failure`` (judge, error, raw
    answer) is stored once; ``decision`` once; ``status`` (with ``error``) moves the round on;
    ``release_lease`` ends the named holder's review attempt.
    """

    review: Review | None = None
    review_key: str | None = None
    reused_from: int | None = None
    failure: tuple[str, str, str | None] | None = None
    decision: Decision | None = None
    status: RoundStatus | None = None
    error: str | None = None
    release_lease: str | None = None


class ReviewStore(Protocol):
    """The store as the review service sees it (``SqlReviewStore`` implements it)."""

    def load_task(
        self, task_id: str, *, focus: int | None = None, contents: Contents = "none"
    ) -> TaskContext:
        """The task and its rounds. Raises ``TaskNotFoundError`` when the task is not stored."""
        ...

    def load_round(self, round_id: int, *, contents: Contents = "none") -> TaskContext:
        """The context of a round's task, the round in focus. Raises ``TaskNotFoundError``."""
        ...

    def has_queued_round(self, task_id: str) -> bool:
        """Whether a round of the task waits ``queued`` for its turn (one indexed read).

        ``ReviewService.advance`` asks it before it loads the task: with no queued round there
        is nothing to claim, and a decided round's step ends without reading the task again.
        """
        ...

    def add_task(self, task_id: str, found: Classification, new: NewTask) -> None:
        """Store a classified task unless one with this id is stored."""
        ...

    def insert_round(self, new: NewRound) -> tuple[int, bool]:
        """Store a round (and take its submission's outbox row) in one transaction.

        A round created with ``new.lease`` holds its review lease, one attempt counted.
        Returns ``(round_id, created)``: created False when its submission was stored before
        (its lease, if any, is then not taken).
        Raises ``RoundNumberTakenError`` when another submission holds the number.
        """
        ...

    def claim_round(self, round_id: int, prepared: Prepared) -> bool:
        """Move a queued round to dispatched with its plan and findings; True for one caller."""
        ...

    def begin_review(self, round_id: int, holder: str, lease_s: float) -> ReviewAttempt | None:
        """Take the review lease and count the delivery; None if held, or once reviewed."""
        ...

    def release_review(self, round_id: int, holder: str) -> None:
        """End the named holder's review attempt (a step that failed half-way)."""
        ...

    def load_review(self, review_id: int) -> tuple[int, Review]:
        """A stored good review, with the id of the round it reviewed."""
        ...

    def find_review_id(self, review_key: str) -> int | None:
        """The id of the earliest good review with this key (``requests.review_key``), or None."""
        ...

    def findings_up_to(self, task_id: str, number: int) -> list[tuple[int, Finding]]:
        """``(round_number, finding)`` of every finding on the task's rounds 1..number."""
        ...

    def settle(self, round_id: int, task_id: str, outcome: Settlement) -> None:
        """Write ``outcome`` on the round in one transaction (see ``Settlement``)."""
        ...

    def note_retry(
        self, round_id: int, holder: str, *, judge_error: str | None, parked_until: datetime | None
    ) -> None:
        """Count a judge retry (``judge_error``) or a rate-limit wait, park it, end the lease."""
        ...

    def audit_runs(self, round_id: int) -> set[str]:
        """The audit roles that already ran on the round."""
        ...

    def save_role_run(
        self,
        round_id: int,
        role: str,
        findings: Sequence[Finding],
        *,
        error: str | None,
        duration_ms: float,
    ) -> None:
        """Store one audit role's findings and its run, in one transaction (once per role)."""
        ...

    def latest_must_fix(self, task_id: str) -> list[str]:
        """The must_fix of the task's latest decision (empty when none is made)."""
        ...
