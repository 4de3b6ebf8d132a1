"""What the client returns: task and submission handles, decision and approval views."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict

from qgs_worker.core.gate import needs_approval
from qgs_worker.core.models import (
    Classification,
    Complexity,
    TaskType,
)
from qgs_worker.store import (
    ApprovalRow,
    DecisionRow,
    Repository,
    RoundRow,
    as_utc,
    loads_list,
)


class TaskHandle(BaseModel):
    """A started task: its id and classification."""

    model_config = ConfigDict(frozen=True)

    id: str
    task_type: TaskType
    complexity: Complexity
    classification: Classification


class SubmissionHandle(BaseModel):
    """A submission on its way: ``id`` is what ``decision`` and ``wait`` take."""

    model_config = ConfigDict(frozen=True)

    id: str
    task_id: str


APPROVER_MAX_CHARS = 128
"""The longest name ``approve(by=...)`` accepts, in characters."""

APPROVAL_NOTE_MAX_CHARS = 2_000
"""The longest note ``approve(note=...)`` (``qgs approve --note``) accepts, in characters."""


class ApprovalView(BaseModel):
    """A person's decision on a round that waited for one.

    ``decision`` is the gate's decision that awaited approval (``awaiting_approval``, or
    ``force_deliver`` on a REFLECT task); ``approved`` False is a rejection; ``created_at`` is
    timezone-aware UTC.
    """

    model_config = ConfigDict(frozen=True)

    task_id: str
    round_number: int
    decision: str
    approved: bool
    by: str
    note: str = ""
    created_at: datetime

    @property
    def outcome(self) -> str:
        """``approved`` or ``rejected``."""
        return "approved" if self.approved else "rejected"


def approval_view(row: ApprovalRow, round_number: int) -> ApprovalView:
    """Turn a stored approval into an ApprovalView (``round_number`` of its round)."""
    return ApprovalView(
        task_id=row.task_id,
        round_number=round_number,
        decision=row.decision,
        approved=row.approved,
        by=row.by,
        note=row.note,
        created_at=as_utc(row.created_at),
    )


class DecisionView(BaseModel):
    """A decision as the agent reads it: the gate's outcome plus the round's score.

    ``kind`` is the gate's decision, as stored. When it waits for a person
    (``approval_required``: ``awaiting_approval``, or ``force_deliver`` on a REFLECT task),
    ``approval`` holds their decision once made, and ``outcome`` / ``delivered`` follow it.
    """

    model_config = ConfigDict(frozen=True)

    task_id: str
    submission_id: str
    round_number: int
    kind: str
    reason: str
    termination: str | None = None
    best_round: int | None = None
    must_fix: tuple[str, ...] = ()
    suggestions: tuple[str, ...] = ()
    risk: int = 0
    score: int | None = None
    verdict: str | None = None
    approval_required: bool = False
    approval: ApprovalView | None = None

    @property
    def awaiting_approval(self) -> bool:
        """True while the decision waits for a person (``qgs approve``)."""
        return self.approval_required and self.approval is None

    @property
    def outcome(self) -> str:
        """The effective outcome, as a person would say it.

        ``approved`` or ``rejected`` once a person decided; ``awaiting_approval`` while one
        must (``force_deliver`` on a REFLECT task included); ``kind`` otherwise.
        """
        if self.approval is not None:
            return self.approval.outcome
        return "awaiting_approval" if self.approval_required else self.kind

    @property
    def delivered(self) -> bool:
        """True when the round (or the best round, on force_deliver) may be delivered now.

        A decision that waits for a person is delivered only once approved; a rejected one is
        blocked for good.
        """
        if self.approval_required:
            return self.approval is not None and self.approval.approved
        return self.kind in ("pass", "pass_with_suggestions", "force_deliver")


def decision_view(repo: Repository, row: RoundRow, decision: DecisionRow) -> DecisionView:
    """Combine a stored decision with its round's review and approval into a DecisionView."""
    assert row.id is not None
    review = repo.get_review(row.id)
    task = repo.get_task(row.task_id)
    required = needs_approval(decision.kind, task.complexity)
    approval = repo.get_approval(row.id) if required else None
    return DecisionView(
        task_id=row.task_id,
        submission_id=row.submission_id,
        round_number=row.number,
        kind=decision.kind,
        reason=decision.reason,
        termination=decision.termination,
        best_round=decision.best_round,
        must_fix=tuple(loads_list(decision.must_fix)),
        suggestions=tuple(loads_list(decision.suggestions)),
        risk=decision.risk,
        score=review.score if review else None,
        verdict=review.verdict if review else None,
        approval_required=required,
        approval=approval_view(approval, row.number) if approval else None,
    )
