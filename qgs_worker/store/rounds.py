"""Tasks and rounds: stored once per id or submission, claimed by one caller, planned, settled."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, delete, func, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from qgs_worker.core.models import (
    ROLE_FAILED,
    ROUND_DONE,
    Classification,
    ReviewStatus,
    RoundPlan,
    RoundStatus,
)
from qgs_worker.errors import InputError, RoundNumberTakenError, TaskNotFoundError
from qgs_worker.service.records import TaskRecord
from qgs_worker.service.submission import NewTask
from qgs_worker.store.base import StoreBase, clean_row
from qgs_worker.store.schema import redact
from qgs_worker.store.tables import (
    ApprovalRow,
    AuditRunRow,
    DecisionRow,
    FindingRow,
    OutboxRow,
    ReviewRow,
    RoundRow,
    TaskRow,
    utcnow,
)
from qgs_worker.store.task_values import task_record, task_row

__all__ = ["RoundStore"]

log = logging.getLogger(__name__)

_ROUND = RoundRow.__table__  # type: ignore[attr-defined]
_SUBMISSION_OF_ROUND = sa_select(_ROUND.c.submission_id).where(_ROUND.c.id == bindparam("round_id"))


class RoundStore(StoreBase):
    """Reads and idempotent writes of tasks and their rounds (a part of ``Repository``)."""

    if TYPE_CHECKING:  # provided by RecoveryStore, the other part add_round works with

        def take_outbox_in(self, session: Session, submission_id: str) -> None:
            """Remove a submission's outbox row inside the caller's session."""

    # -- tasks -----------------------------------------------------------------------------

    def add_task(self, task: TaskRow) -> TaskRow:
        """Insert a task unless one with the same id exists; return the stored one."""
        with Session(self.engine) as session:
            self._insert_ignore(session, TaskRow, [task.model_dump()])
            session.commit()
        return self.get_task(task.id)

    def store_task(
        self,
        task_id: str,
        found: Classification,
        new: NewTask,
        *,
        principal: str | None = None,
        key_id: str | None = None,
    ) -> TaskRecord:
        """Store a classified task unless one with this id exists; the stored one's record.

        A task stored before keeps its own class (``start_task`` with a known id is idempotent).
        ``principal`` is the API key's principal that owns it (None: started in-process);
        ``key_id`` the key it came with (whose webhook secret signs the task's webhooks).

        Raises:
            InputError: a task with this id exists and belongs to another principal.
        """
        row = self.add_task(task_row(task_id, found, new, principal=principal, key_id=key_id))
        if principal is not None and row.principal != principal:
            raise InputError(
                f"'task_id' {task_id!r} is in use: choose another id, or leave it out for a new one"
            )
        return task_record(row, task_id=row.id)

    def task_principal(self, task_id: str) -> tuple[bool, str | None]:
        """Whether the task exists, and the principal that owns it (None: no owner)."""
        with Session(self.engine) as session:
            row = session.get(TaskRow, task_id)
        return (False, None) if row is None else (True, row.principal)

    def task_signer(self, task_id: str) -> tuple[str | None, str | None]:
        """``(principal, key_id)`` of the task: whose key signs its webhooks (None, None: none)."""
        with Session(self.engine) as session:
            row = session.get(TaskRow, task_id)
        return (None, None) if row is None else (row.principal, row.key_id)

    def round_ref(self, task_id: str, number: int) -> tuple[int, str] | None:
        """The id and submission id of a task's round by number (None: no such round)."""
        with Session(self.engine) as session:
            found = session.exec(
                select(RoundRow.id, RoundRow.submission_id).where(
                    col(RoundRow.task_id) == task_id, col(RoundRow.number) == number
                )
            ).first()
        return None if found is None or found[0] is None else (found[0], found[1])

    def round_submission_id(self, round_id: int) -> str | None:
        """The submission id of a stored round (None: no such round).

        A Core statement built once (it runs after every decision a worker stores: the
        decision notice), not an ORM session's.
        """
        with self.engine.connect() as conn:
            found: str | None = conn.scalar(_SUBMISSION_OF_ROUND, {"round_id": round_id})
        return found

    def submission_task_id(self, submission_id: str) -> str | None:
        """The task a submission belongs to (from its round, else its outbox row), or None."""
        with Session(self.engine) as session:
            task_id = session.exec(
                select(RoundRow.task_id).where(col(RoundRow.submission_id) == submission_id)
            ).first()
            if task_id is None:
                task_id = session.exec(
                    select(OutboxRow.task_id).where(col(OutboxRow.submission_id) == submission_id)
                ).first()
        return task_id

    def get_task(self, task_id: str) -> TaskRow:
        """The task with this id.

        Raises:
            TaskNotFoundError: no such task.
        """
        with Session(self.engine) as session:
            row = session.get(TaskRow, task_id)
        if row is None:
            raise TaskNotFoundError(
                f"no task with id {task_id!r} in the store ({redact(self.url)}); "
                "`qgs report` lists the tasks there"
            )
        return row

    def find_task(self, task_id: str) -> TaskRow | None:
        """The task with this id, or None."""
        with Session(self.engine) as session:
            return session.get(TaskRow, task_id)

    def check_task(self, task_id: str) -> None:
        """Raise when the task is not stored (the message names the store and ``qgs report``).

        Raises:
            TaskNotFoundError: no such task.
        """
        self.get_task(task_id)

    def round_plan(self, round_id: int) -> RoundPlan:
        """What is due on a round (critic, audit) as intake planned it.

        Raises:
            TaskNotFoundError: no such round.
        """
        row = self.get_round(round_id)
        return RoundPlan(
            critic=row.plan_critic, discriminate=row.plan_discriminate, reason=row.plan_reason
        )

    def has_task(self, task_id: str) -> bool:
        """Whether a task with this id is stored."""
        with Session(self.engine) as session:
            return session.exec(select(TaskRow.id).where(TaskRow.id == task_id)).first() is not None

    def list_tasks(self) -> list[TaskRow]:
        """All tasks, oldest first."""
        with Session(self.engine) as session:
            return list(
                session.exec(select(TaskRow).order_by(col(TaskRow.created_at), col(TaskRow.id)))
            )

    def escalate_task(self, task_id: str, classification: Classification, reason: str) -> bool:
        """Raise a task to ``classification`` (a detector found P0/P1 work); True if it changed."""
        with Session(self.engine) as session:
            row = session.get(TaskRow, task_id)
            if row is None:
                raise TaskNotFoundError(f"no task with id {task_id!r}")
            if row.escalated and row.task_type == classification.task_type:
                return False
            row.task_type = classification.task_type
            row.complexity = classification.complexity
            row.classification_source = classification.source
            row.confidence = classification.confidence
            row.escalated = True
            row.escalation_reason = reason
            session.add(row)
            session.commit()
            return True

    # -- rounds ----------------------------------------------------------------------------

    def add_round(self, round_row: RoundRow) -> RoundRow:
        """Insert a round unless its submission id is stored; return the stored one.

        Raises:
            StoreError: another submission already holds this task's round number.
        """
        with Session(self.engine) as session:
            self._insert_ignore(session, RoundRow, [round_row.model_dump(exclude={"id"})])
            # The submission is taken in the same transaction: the sweeper never re-publishes
            # a stored round's submission, and never misses one that is not stored.
            if self.find_round_by_submission_in(session, round_row.submission_id) is not None:
                self.take_outbox_in(session, round_row.submission_id)
            session.commit()
        stored = self.find_round_by_submission(round_row.submission_id)
        if stored is None:
            raise RoundNumberTakenError(
                f"round {round_row.number} of task {round_row.task_id!r} is already held by another "
                "submission; submit without a round number to get the next one"
            )
        return stored

    def store_placeholder_round(
        self,
        submission_id: str,
        task_id: str,
        round_number: int | None,
        error: str,
        *,
        final: bool = False,
    ) -> int | None:
        """The id of a submission's round, stored now empty with ``error`` when it was not.

        A submission whose intake failed still takes its round number, so the task's later
        rounds are not held behind a gap.

        Returns:
            The round's id, or None when the task is not stored, the round number is unknown,
            or the number is taken.
        """
        row = self.find_round_by_submission(submission_id)
        if row is None and round_number is not None and self.find_task(task_id):
            try:
                row = self.add_round(
                    RoundRow(
                        submission_id=submission_id,
                        task_id=task_id,
                        number=round_number,
                        final=final,
                        content="",
                        content_hash="",
                        error=error,
                    )
                )
            except Exception:
                log.exception("could not store a placeholder for submission %s", submission_id)
                return None
        return row.id if row is not None else None

    def claim_round(self, round_id: int) -> bool:
        """Move a round from ``queued`` to ``dispatched``; True only for the one caller that did it.

        The update is conditional, so of two jobs that both see the round ready (intake of this
        round, decide of the previous one) exactly one dispatches its pipeline.
        """
        with Session(self.engine) as session:
            result = session.execute(
                update(RoundRow)
                .where(col(RoundRow.id) == round_id, col(RoundRow.status) == RoundStatus.QUEUED)
                .values(status=RoundStatus.DISPATCHED, status_at=utcnow(), retry_at=None)
            )
            session.commit()
            return bool(result.rowcount)  # type: ignore[attr-defined]

    def next_ready_round(self, task_id: str) -> RoundRow | None:
        """The task's first round not yet done, if rounds 1..N-1 before it are stored and done.

        A gap (round 3 stored, round 2 not yet) means "not yet": intake jobs run in any order,
        and the gate of round 3 needs round 2's score. The caller checks the round's status.
        """
        expected = 1
        for row in self.list_rounds(task_id):
            if row.number != expected:
                return None
            if row.status in ROUND_DONE:
                expected += 1
                continue
            return row
        return None

    def next_round_number(self, task_id: str) -> int:
        """One more than the highest round number of the task (1 for a new task)."""
        with Session(self.engine) as session:
            highest = session.exec(
                select(func.max(RoundRow.number)).where(RoundRow.task_id == task_id)
            ).one()
        return int(highest or 0) + 1

    def get_round(self, round_id: int) -> RoundRow:
        """The round with this id.

        Raises:
            TaskNotFoundError: no such round.
        """
        with Session(self.engine) as session:
            row = session.get(RoundRow, round_id)
        if row is None:
            raise TaskNotFoundError(f"no round with id {round_id}")
        return row

    def find_round_by_submission(self, submission_id: str) -> RoundRow | None:
        """The round of a submission, or None while its intake job has not run."""
        with Session(self.engine) as session:
            return self.find_round_by_submission_in(session, submission_id)

    @staticmethod
    def find_round_by_submission_in(session: Session, submission_id: str) -> RoundRow | None:
        """``find_round_by_submission`` inside the caller's session."""
        return session.exec(select(RoundRow).where(RoundRow.submission_id == submission_id)).first()

    def get_round_by_submission(self, submission_id: str) -> RoundRow:
        """The round of a submission.

        Raises:
            TaskNotFoundError: no round for this submission id (yet).
        """
        row = self.find_round_by_submission(submission_id)
        if row is None:
            raise TaskNotFoundError(f"no round for submission {submission_id!r}")
        return row

    def list_rounds(self, task_id: str) -> list[RoundRow]:
        """The task's rounds, by number."""
        with Session(self.engine) as session:
            return list(
                session.exec(
                    select(RoundRow)
                    .where(RoundRow.task_id == task_id)
                    .order_by(col(RoundRow.number))
                )
            )

    def round_numbers(self, task_id: str, number: int | None = None) -> tuple[int, bool]:
        """One look before a submit: the task's next round number, and whether ``number`` is taken.

        One statement (a submit checks the task, the next free number and an explicit number).

        Returns:
            ``(next_number, taken)``: one more than the highest number stored or sent and not
            yet taken (1 for a task without rounds), and whether a round numbered ``number`` is
            stored or held by a submission sent and not yet stored (False if None).

        Raises:
            TaskNotFoundError: no such task.
        """
        highest = (
            select(func.max(RoundRow.number)).where(RoundRow.task_id == task_id).scalar_subquery()
        )
        # Rounds a client numbered and sent that no intake has stored yet (`qgs submit
        # --no-wait` from separate processes): the next one is numbered after them.
        sent = (
            select(func.max(OutboxRow.round_number))
            .where(
                OutboxRow.task_id == task_id,
                col(OutboxRow.taken_at).is_(None),
                col(OutboxRow.given_up).is_(None),
            )
            .scalar_subquery()
        )
        taken = (
            select(func.count())
            .select_from(RoundRow)
            .where(RoundRow.task_id == task_id, RoundRow.number == (number or 0))
            .scalar_subquery()
        )
        # Break test: a number held by a submission sent and not yet stored was free here; its
        # intake then failed (RoundNumberTakenError) while the submit had answered 202.
        held = (
            select(func.count())
            .select_from(OutboxRow)
            .where(
                OutboxRow.task_id == task_id,
                OutboxRow.round_number == (number or 0),
                col(OutboxRow.taken_at).is_(None),
                col(OutboxRow.given_up).is_(None),
            )
            .scalar_subquery()
        )
        with Session(self.engine) as session:
            row = session.execute(
                select(TaskRow.id, highest, taken + held, sent).where(TaskRow.id == task_id)
            ).first()
        if row is None:
            self.get_task(task_id)  # raises TaskNotFoundError with the store named
            raise TaskNotFoundError(f"no task with id {task_id!r}")
        return max(int(row[1] or 0), int(row[3] or 0)) + 1, bool(row[2])

    def find_round(self, task_id: str, number: int) -> RoundRow | None:
        """The task's round with this number, or None."""
        with Session(self.engine) as session:
            return session.exec(
                select(RoundRow).where(RoundRow.task_id == task_id, RoundRow.number == number)
            ).first()

    def set_round_plan(self, round_id: int, plan: RoundPlan) -> None:
        """Record what is due on the round (critic, discriminator) and why."""
        self._update_round(
            round_id,
            plan_critic=plan.critic,
            plan_discriminate=plan.discriminate,
            plan_reason=plan.reason,
        )

    def set_round_status(self, round_id: int, status: str, error: str | None = None) -> None:
        """Mark a round ``queued``, ``decided`` or ``failed`` (with the reason)."""
        self._update_round(round_id, status=status, error=error)

    def reopen_failed(self, task_id: str) -> int | None:
        """Queue a task again from its first round whose judge, audit or processing failed.

        That round and every later one lose their review (failed ones only are replaced: a
        round with a good review keeps it), the runs of audit roles that failed and their
        ``role_failed`` findings (so those roles run again: a CRITICAL round whose audit failed
        in a judge outage is otherwise held as "the audit failed" for good), their decision and
        any approval of that decision, and go back to ``queued``; the rounds themselves, their
        other findings and the earlier decisions stay.

        Returns:
            The number of the first reopened round, or None when nothing failed.
        """
        with Session(self.engine) as session:
            rounds = list(
                session.exec(
                    select(RoundRow)
                    .where(RoundRow.task_id == task_id)
                    .order_by(col(RoundRow.number))
                )
            )
            failed_reviews = {
                r.round_id
                for r in session.exec(
                    select(ReviewRow).where(
                        col(ReviewRow.round_id).in_([r.id for r in rounds]),
                        ReviewRow.status == ReviewStatus.FAILED,
                    )
                )
            }
            every = [r.id for r in rounds]
            failed_audits = set(
                session.exec(
                    select(AuditRunRow.round_id).where(
                        col(AuditRunRow.round_id).in_(every), AuditRunRow.status == "failed"
                    )
                )
            ) | set(
                session.exec(
                    select(FindingRow.round_id).where(
                        col(FindingRow.round_id).in_(every), FindingRow.category == ROLE_FAILED
                    )
                )
            )
            first = next(
                (
                    r
                    for r in rounds
                    if r.status == RoundStatus.FAILED
                    or r.id in failed_reviews
                    or r.id in failed_audits
                ),
                None,
            )
            if first is None:
                return None
            reopened = [r for r in rounds if r.number >= first.number]
            ids = [r.id for r in reopened]
            session.execute(
                delete(AuditRunRow).where(
                    col(AuditRunRow.round_id).in_(ids), col(AuditRunRow.status) == "failed"
                )
            )
            session.execute(
                delete(FindingRow).where(
                    col(FindingRow.round_id).in_(ids), col(FindingRow.category) == ROLE_FAILED
                )
            )
            session.execute(delete(DecisionRow).where(col(DecisionRow.round_id).in_(ids)))
            # An approval confirmed a decision that is now gone: the new one needs its own.
            session.execute(delete(ApprovalRow).where(col(ApprovalRow.round_id).in_(ids)))
            failed = [i for i in ids if i in failed_reviews]
            session.execute(
                delete(ReviewRow).where(
                    col(ReviewRow.id).in_(
                        select(ReviewRow.id).where(col(ReviewRow.round_id).in_(failed))
                    )
                )
            )
            for r in reopened:
                r.status, r.error, r.attempts = RoundStatus.QUEUED, None, 0
                r.status_at, r.retry_at, r.judge_retries, r.rate_waits, r.sweeps = (
                    utcnow(),
                    None,
                    None,
                    None,
                    None,
                )
                session.add(r)
            session.commit()
            return first.number

    def bump_attempts(self, round_id: int) -> int:
        """Count one more delivery of the round's critic job; return the new count."""
        with Session(self.engine) as session:
            row = session.get(RoundRow, round_id)
            if row is None:
                raise TaskNotFoundError(f"no round with id {round_id}")
            row.attempts += 1
            session.add(row)
            session.commit()
            return row.attempts

    def _update_round(self, round_id: int, **values: Any) -> None:
        if "status" in values:
            values["status_at"] = utcnow()
        # One UPDATE, not a load and a flush: these run twice on every round (the plan, the
        # status), and the ORM's unit of work cost more CPU than the statement itself.
        with Session(self.engine) as session:
            result = session.execute(
                update(RoundRow)
                .where(col(RoundRow.id) == round_id)
                .values(**clean_row(values))
                .execution_options(synchronize_session=False)
            )
            if not result.rowcount:  # type: ignore[attr-defined]
                raise TaskNotFoundError(f"no round with id {round_id}")
            session.commit()
