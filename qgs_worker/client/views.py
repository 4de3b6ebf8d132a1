"""What the client returns: task and submission handles, decision and approval views.

``DecisionView`` and ``ApprovalView`` live in ``qgs_worker.core.views`` (``Replan``, the
``replan`` of a force_deliver, with its ``UnmetCriterion`` and ``RecurringFix`` items, in
``qgs_worker.core.models``) (the client, the CLI and
the report share them); they are re-exported here, their first home. The store reads them
(``Repository.decision_view``, ``latest_decision_view``, ``approval_views``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from qgs_worker.core.models import (
    Classification,
    Complexity,
    RecurringFix,
    Replan,
    TaskType,
    UnmetCriterion,
)
from qgs_worker.core.views import ApprovalView, DecisionView
from qgs_worker.service.approvals import APPROVAL_NOTE_MAX_CHARS, APPROVER_MAX_CHARS

__all__ = [
    "APPROVAL_NOTE_MAX_CHARS",
    "APPROVER_MAX_CHARS",
    "ApprovalView",
    "DecisionView",
    "RecurringFix",
    "Replan",
    "SubmissionHandle",
    "TaskHandle",
    "UnmetCriterion",
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
