"""A person's approval or rejection of a round's decision: once per round, never changed."""

from __future__ import annotations

from sqlmodel import Session, col, select

from qgs_worker.core.views import ApprovalView, approval_outcome
from qgs_worker.errors import ApprovalConflictError, TaskNotFoundError
from qgs_worker.store.base import StoreBase, as_utc, clean_row
from qgs_worker.store.tables import ApprovalRow, RoundRow, utcnow
from qgs_worker.store.webhooks import start_approval_webhook

__all__ = ["ApprovalStore", "approval_view"]


def approval_view(row: ApprovalRow, round_number: int) -> ApprovalView:
    """Turn a stored approval into the core's ApprovalView (``round_number`` of its round)."""
    return ApprovalView(
        task_id=row.task_id,
        round_number=round_number,
        decision=row.decision,
        approved=row.approved,
        by=row.by,
        note=row.note,
        created_at=as_utc(row.created_at),
    )


class ApprovalStore(StoreBase):
    """Approvals and rejections (``qgs approve``), a part of ``Repository``."""

    # -- approvals -------------------------------------------------------------------------

    def save_approval(
        self,
        task_id: str,
        round_id: int,
        *,
        decision: str,
        approved: bool,
        by: str,
        note: str = "",
    ) -> ApprovalRow:
        """Record a person's decision on a round, once; return the stored row.

        Idempotent: the same decision again (same ``approved``, ``by`` and ``note``) changes
        nothing and returns the row stored first (a redelivered call never writes twice).
        When the round or its task has a callback URL, the approval's webhook
        (``qgs.approval``) is stored in the same transaction (``start_approval_webhook``).

        Args:
            task_id: The task.
            round_id: The round whose decision awaited approval (``RoundRow.id``).
            decision: That decision's kind (``awaiting_approval`` or ``force_deliver``).
            approved: True releases the round, False rejects it (blocked).
            by: Who decided.
            note: Why (required by callers on a rejection).

        Raises:
            TaskNotFoundError: no such round of this task.
            ApprovalConflictError: the round already carries a different decision, or the same
                one by somebody else (who approved is kept as first recorded); the message
                names who made it and when.
        """
        row = {
            "task_id": task_id,
            "round_id": round_id,
            "decision": decision,
            "approved": approved,
            "by": by,
            "note": note,
            "created_at": utcnow(),
        }
        with Session(self.engine) as session:
            round_row = session.get(RoundRow, round_id)
            if round_row is None or round_row.task_id != task_id:
                raise TaskNotFoundError(f"task {task_id!r} has no round with id {round_id}")
            number = round_row.number
            self._insert_ignore(session, ApprovalRow, [row])
            stored = session.exec(
                select(ApprovalRow).where(
                    ApprovalRow.task_id == task_id, ApprovalRow.round_id == round_id
                )
            ).one()
            clean = clean_row(row)
            kept = (stored.approved, stored.by, stored.note)
            same = kept == (approved, clean["by"], clean["note"])
            if same and stored.id is not None:
                # In the approval's transaction: never an approval without its webhook.
                start_approval_webhook(session.connection(), stored.id)
            session.commit()
            session.refresh(stored)
        if not same:
            verb = approval_outcome(stored.approved)
            when = as_utc(stored.created_at).isoformat(timespec="seconds")
            if (stored.approved, stored.note) == (approved, clean["note"]):
                raise ApprovalConflictError(
                    f"round {number} of task {task_id!r} was already {verb} by {stored.by} at "
                    f"{when}; the same decision by {clean['by']!r} is not recorded again: an "
                    "approval keeps who decided first, and nothing else needs to be done"
                )
            why = f" ({stored.note})" if stored.note else ""
            after = (
                "submit a new round for a new decision"
                if stored.approved
                else "a rejected task is never delivered (its later rounds are decided block): "
                "start a new task for a new decision"
            )
            raise ApprovalConflictError(
                f"round {number} of task {task_id!r} was already {verb} by "
                f"{stored.by} at {when}{why}; "
                f"a recorded decision is not changed: {after}"
            )
        return stored

    def get_approval(self, round_id: int) -> ApprovalRow | None:
        """The approval (or rejection) of a round, or None."""
        with Session(self.engine) as session:
            return session.exec(select(ApprovalRow).where(ApprovalRow.round_id == round_id)).first()

    def list_approvals(self, task_id: str) -> list[ApprovalRow]:
        """Every approval and rejection of the task's rounds, oldest first."""
        with Session(self.engine) as session:
            return list(
                session.exec(
                    select(ApprovalRow)
                    .where(ApprovalRow.task_id == task_id)
                    .order_by(col(ApprovalRow.created_at), col(ApprovalRow.id))
                )
            )

    def latest_approval(self, task_id: str) -> ApprovalRow | None:
        """The task's most recent approval or rejection, or None."""
        approvals = self.list_approvals(task_id)
        return approvals[-1] if approvals else None
