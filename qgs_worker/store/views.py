"""What the client and the CLI read back: decisions and approvals as core views, never rows.

``ViewStore`` (a part of ``Repository``) answers in ``core.views`` values: the decision on a
submission or on a task's latest decided round, a task's approvals, what an approval would be
recorded against (``approval_target``), and where a submission stands (``submission_facts``).
"""

from __future__ import annotations

from sqlmodel import Session, col, select

from qgs_worker.core.gate import rejection_reason
from qgs_worker.core.models import Complexity, ReviewStatus, RoundStatus
from qgs_worker.core.views import ApprovalView, DecisionView
from qgs_worker.service.records import ApprovalTarget, SubmissionFacts
from qgs_worker.store.approvals import ApprovalStore, approval_view
from qgs_worker.store.audit_log import AuditLogStore
from qgs_worker.store.base import as_utc
from qgs_worker.store.recovery import RecoveryStore, round_state
from qgs_worker.store.reviews import ReviewStore
from qgs_worker.store.rounds import RoundStore
from qgs_worker.store.tables import DeadLetterRow, DecisionRow, OutboxRow, RoundRow

__all__ = ["ViewStore"]


class ViewStore(RoundStore, ReviewStore, ApprovalStore, AuditLogStore, RecoveryStore):
    """Decision and approval views for the client and the CLI (a part of ``Repository``)."""

    def decision_view(self, submission_id: str) -> DecisionView | None:
        """The decision on a submission's round as a view, or None while it is not made."""
        row = self.find_round_by_submission(submission_id)
        if row is None or row.id is None:
            return None
        stored = self.get_decision(row.id)
        return self._view(row, stored) if stored is not None else None

    def latest_decision_view(self, task_id: str) -> DecisionView | None:
        """The decision on the task's latest decided round, or None.

        Raises:
            TaskNotFoundError: no such task.
        """
        self.get_task(task_id)
        latest = self.latest_decision(task_id)
        return self._view(*latest) if latest else None

    def _view(self, row: RoundRow, decision: DecisionRow) -> DecisionView:
        assert row.id is not None
        review = self.get_review(row.id)
        task = self.get_task(row.task_id)
        approval = self.get_approval(row.id)
        return DecisionView.of(
            self.decision_model(decision),
            task_id=row.task_id,
            submission_id=row.submission_id,
            round_number=row.number,
            complexity=task.complexity,
            score=review.score if review else None,
            verdict=review.verdict if review else None,
            approval=approval_view(approval, row.number) if approval else None,
        )

    def approval_views(self, task_id: str) -> list[ApprovalView]:
        """Every approval and rejection of the task's rounds, oldest first.

        Raises:
            TaskNotFoundError: no such task.
        """
        self.get_task(task_id)
        numbers = {r.id: r.number for r in self.list_rounds(task_id)}
        return [approval_view(a, numbers[a.round_id]) for a in self.list_approvals(task_id)]

    def approval_target(self, task_id: str) -> ApprovalTarget | None:
        """The task's latest decided round and its decision, or None when none is decided.

        Raises:
            TaskNotFoundError: no such task.
        """
        task = self.get_task(task_id)
        latest = self.latest_decision(task.id)
        if latest is None:
            return None
        row, decision = latest
        assert row.id is not None
        later = next(
            (
                (r.number, RoundStatus(r.status))
                for r in self.list_rounds(task.id)
                if r.number > row.number and r.status != RoundStatus.DECIDED
            ),
            None,
        )
        numbers = {r.id: r.number for r in self.list_rounds(task.id)}
        rejection = next(
            (
                rejection_reason(a.by, numbers.get(a.round_id, 0), a.note)
                for a in self.list_approvals(task.id)
                if not a.approved and a.round_id != row.id
            ),
            None,
        )
        return ApprovalTarget(
            task_id=task.id,
            complexity=Complexity(task.complexity),
            round_id=row.id,
            round_number=row.number,
            decision_kind=decision.kind,
            later=later,
            rejection=rejection,
            best_round=decision.best_round,
        )

    def record_approval(
        self, target: ApprovalTarget, *, approved: bool, by: str, note: str
    ) -> ApprovalView:
        """Store a person's decision on ``target``'s round (``save_approval``) as a view.

        Raises:
            ApprovalConflictError: a person already decided that round the other way.
        """
        stored = self.save_approval(
            target.task_id,
            target.round_id,
            decision=target.decision_kind,
            approved=approved,
            by=by,
            note=note,
        )
        return approval_view(stored, target.round_number)

    def submission_facts(self, submission_id: str) -> SubmissionFacts:
        """Where a submission stands: its round, else its dead letter, outbox row, intake error."""
        row = self.find_round_by_submission(submission_id)
        if row is not None and row.id is not None:
            review = self.get_review(row.id)
            return SubmissionFacts(
                submission_id=submission_id,
                round=round_state(row),
                judge_retries=row.judge_retries or 0,
                error=row.error,
                review_status=ReviewStatus(review.status) if review is not None else None,
                review_error=review.error if review is not None else None,
            )
        with Session(self.engine) as session:
            refused = session.exec(
                select(DeadLetterRow.reason)
                .where(col(DeadLetterRow.submission_id) == submission_id)
                .order_by(col(DeadLetterRow.id).desc())
            ).first()
            sent = session.get(OutboxRow, submission_id)
        if refused is not None or sent is None:
            return SubmissionFacts(submission_id=submission_id, refused=refused)
        return SubmissionFacts(
            submission_id=submission_id,
            in_outbox=True,
            published=sent.published,
            sent_at=as_utc(sent.created_at),
            given_up=sent.given_up,
            taken=sent.taken_at is not None,
            intake_error=self.audit_error_of(f"submission:{submission_id}")
            if sent.taken_at is not None
            else None,
        )
