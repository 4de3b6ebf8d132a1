"""The review path's rows as insert values, and the Core tables they go to.

One place for what both stores of the review port write (``sql_review.SqlReviewStore``, one
transaction a step; ``chunk_store.ChunkReviewStore``, kept in memory and written by
``chunk_flush.write_chunk``): the ``round`` row of a submitted round, its plan columns, an audit
role's ``audit_run`` row, the statement that takes a submission's outbox row, and the tables as
SQLAlchemy Core ``Table`` objects (statements built once at import are cached compiled).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, update

from qgs_worker.core.models import RoundPlan, RoundStatus
from qgs_worker.service.ports import NewRound
from qgs_worker.store.base import clean_row
from qgs_worker.store.tables import (
    ApprovalRow,
    AuditRunRow,
    DecisionRow,
    DimensionScoreRow,
    FindingRow,
    OutboxRow,
    ReviewRow,
    RoundRow,
    TaskRow,
    utcnow,
)

__all__ = [
    "APPROVAL",
    "AUDIT_RUN",
    "DECISION",
    "DIMENSION",
    "FINDING",
    "OUTBOX",
    "REVIEW",
    "ROUND",
    "TAKE_OUTBOX",
    "TASK",
    "plan_values",
    "role_run_values",
    "round_values",
]

TASK = TaskRow.__table__  # type: ignore[attr-defined]
ROUND = RoundRow.__table__  # type: ignore[attr-defined]
REVIEW = ReviewRow.__table__  # type: ignore[attr-defined]
DIMENSION = DimensionScoreRow.__table__  # type: ignore[attr-defined]
DECISION = DecisionRow.__table__  # type: ignore[attr-defined]
APPROVAL = ApprovalRow.__table__  # type: ignore[attr-defined]
FINDING = FindingRow.__table__  # type: ignore[attr-defined]
AUDIT_RUN = AuditRunRow.__table__  # type: ignore[attr-defined]
OUTBOX = OutboxRow.__table__  # type: ignore[attr-defined]

TAKE_OUTBOX = (
    update(OUTBOX)
    .where(OUTBOX.c.submission_id == bindparam("sid"), OUTBOX.c.taken_at.is_(None))
    .values(taken_at=bindparam("now"))
)
"""Marks a submission's outbox row taken (``sid``, ``now``): its round is stored."""


def round_values(new: NewRound, now: datetime) -> dict[str, Any]:
    """The ``round`` row of a submitted round as insert values (cleaned: ``clean_row``).

    Stored dispatched with its plan when ``new.prepared`` (decided when nothing is due on it),
    else queued behind an earlier round; with ``new.lease``, holding its review lease from
    ``now``, its first attempt counted (as ``begin_review`` would).
    """
    prepared = new.prepared
    status = RoundStatus.QUEUED
    if prepared is not None:
        status = RoundStatus.DECIDED if prepared.decision else RoundStatus.DISPATCHED
    lease = new.lease
    return clean_row(
        {
            "submission_id": new.submission_id,
            "task_id": new.task_id,
            "number": new.number,
            "final": new.final,
            "content": new.content,
            "tool_calls": new.tool_calls_json,
            "tool_results": new.tool_results_json,
            "turn": new.turn,
            "content_hash": new.content_hash,
            "review_key": new.review_key,
            "callback_url": new.callback_url,
            "status": status.value,
            "status_at": now,
            "created_at": now,
            "attempts": 0 if lease is None else 1,
            "lease_holder": None if lease is None else lease.holder,
            "lease_until": None if lease is None else now + timedelta(seconds=lease.lease_s),
            **plan_values(prepared.plan if prepared else None),
        }
    )


def role_run_values(
    round_id: int, role: str, findings: int, *, error: str | None, duration_ms: float
) -> dict[str, Any]:
    """The ``audit_run`` row of one audit role's run on a round, as insert values."""
    return {
        "round_id": round_id,
        "role": role,
        "status": "failed" if error else "ok",
        "error": error,
        "findings": findings,
        "duration_ms": duration_ms,
        "created_at": utcnow(),
    }


def plan_values(plan: RoundPlan | None) -> dict[str, Any]:
    """A round's plan columns (nothing due when ``plan`` is None: a queued round)."""
    if plan is None:
        return {"plan_critic": False, "plan_discriminate": False, "plan_reason": ""}
    return {
        "plan_critic": plan.critic,
        "plan_discriminate": plan.discriminate,
        "plan_reason": plan.reason,
    }
