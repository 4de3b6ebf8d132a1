"""What the client returns: task and submission handles, decision and approval views.

``DecisionView`` and ``ApprovalView`` live in ``qgs_worker.core.views`` (the client, the CLI and
the report share them); they are re-exported here, their first home. ``decision_view`` is the
adapter that reads one from the store.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from qgs_worker.core.models import (
    Classification,
    Complexity,
    TaskType,
)
from qgs_worker.core.views import ApprovalView, DecisionView
from qgs_worker.store import (
    DecisionRow,
    Repository,
    RoundRow,
    approval_view,
)

__all__ = [
    "APPROVAL_NOTE_MAX_CHARS",
    "APPROVER_MAX_CHARS",
    "ApprovalView",
    "DecisionView",
    "SubmissionHandle",
    "TaskHandle",
    "approval_view",
    "decision_view",
]


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


def decision_view(repo: Repository, row: RoundRow, decision: DecisionRow) -> DecisionView:
    """Combine a stored decision with its round's review and approval into a DecisionView.

    Only gathers the core values: what they amount to (whether the approval counts, the
    outcome) is ``DecisionView.of``'s.
    """
    assert row.id is not None
    review = repo.get_review(row.id)
    task = repo.get_task(row.task_id)
    approval = repo.get_approval(row.id)
    return DecisionView.of(
        repo.decision_model(decision),
        task_id=row.task_id,
        submission_id=row.submission_id,
        round_number=row.number,
        complexity=task.complexity,
        score=review.score if review else None,
        verdict=review.verdict if review else None,
        approval=approval_view(approval, row.number) if approval else None,
    )
