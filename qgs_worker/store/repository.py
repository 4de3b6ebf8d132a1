"""The results store: idempotent writes and plain reads over the SQLModel tables.

Every write that a job makes is an insert that ignores a conflict on the table's unique key,
followed by a read of the row that is there: a redelivered job finds its own earlier row and
changes nothing. SQLite (WAL, busy timeout) is the embedded default; PostgreSQL by URL.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import delete, event, func, inspect, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Engine
from sqlalchemy.exc import (
    ArgumentError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    ProgrammingError,
    SQLAlchemyError,
)
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, SQLModel, col, create_engine, select

from qgs_worker.core.models import (
    Classification,
    Decision,
    DimensionScore,
    Finding,
    Review,
    RoundPlan,
    Severity,
    Verdict,
)
from qgs_worker.errors import (
    ApprovalConflictError,
    RoundNumberTakenError,
    StoreError,
    StoreUnavailableError,
    TaskNotFoundError,
)
from qgs_worker.store.recovery import RecoveryStore
from qgs_worker.store.tables import (
    ApprovalRow,
    AuditErrorRow,
    AuditRunRow,
    DecisionRow,
    DimensionScoreRow,
    FindingRow,
    ReviewRow,
    RoundRow,
    TaskRow,
    ToolCallCheckRow,
    utcnow,
)

SQLITE_BUSY_TIMEOUT_MS = 30_000
"""How long a SQLite writer waits for the lock, in milliseconds (workers write concurrently)."""


def _dumps(items: Iterable[Any]) -> str:
    return json.dumps(list(items), ensure_ascii=False)


def loads_list(text: str | None) -> list[Any]:
    """Decode a JSON list column (``[]`` for NULL)."""
    return list(json.loads(text)) if text else []


def as_utc(moment: datetime) -> datetime:
    """A stored timestamp as timezone-aware UTC (SQLite hands back naive UTC datetimes)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


APPROVAL_DECISIONS = ("awaiting_approval",)
"""Decision kinds that always wait for a person (``qgs approve``)."""


def needs_approval(decision_kind: str, complexity: str) -> bool:
    """Whether a decision waits for a person before the task is released.

    ``awaiting_approval`` always does; so does ``force_deliver`` on a REFLECT task (the gate's
    reason says "a person must still confirm"). Every other decision settles the round alone.

    Args:
        decision_kind: The stored ``DecisionRow.kind``.
        complexity: The task's complexity (``TaskRow.complexity``).
    """
    return decision_kind in APPROVAL_DECISIONS or (
        decision_kind == "force_deliver" and complexity == "REFLECT"
    )


def make_engine(url: str) -> Engine:
    """Create an engine for ``url``; SQLite files get WAL and a busy timeout.

    ``sqlite://`` (in memory) uses one shared connection (StaticPool) so tests see one database.
    """
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
        if not path or path == ":memory:":
            kwargs["poolclass"] = StaticPool
        engine = create_engine(url, **kwargs)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return create_engine(url, pool_pre_ping=True)


_SCHEMA_TRIES = 5
_SCHEMA_RACE = re.compile(
    r"already exists|duplicate column|pg_type_typname_nsp_index|DuplicateTable|DuplicateColumn",
    re.IGNORECASE,
)

class Repository(RecoveryStore):
    """Reads and idempotent writes of tasks, rounds, reviews, findings and decisions.

    The outbox, leases, parked retries and dead letters are ``RecoveryStore``'s methods.

    Args:
        url: A SQLAlchemy database URL (``sqlite:///path.db``, ``postgresql://...``).

    Raises:
        StoreError: when the database cannot be reached or the schema cannot be created.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            self.engine = make_engine(url)
        except (ArgumentError, ImportError) as exc:
            raise StoreError(
                f"QGS_DATABASE_URL {_redact(url)!r} is not a usable store URL ({exc}); use "
                "sqlite:///path/qgs.db or postgresql://user:password@host:5432/db"
            ) from exc
        try:
            self._create_schema()
        except (OperationalError, InterfaceError) as exc:
            raise StoreUnavailableError(
                f"cannot reach the store QGS_DATABASE_URL={_redact(url)}: "
                f"{str(exc).splitlines()[0]}"
            ) from exc
        except SQLAlchemyError as exc:
            raise StoreError(f"cannot open the store at {_redact(url)}: {exc}") from exc

    def _create_schema(self) -> None:
        """Create the tables and add missing columns; a race lost to another process is retried.

        Workers started together on a fresh store each run ``CREATE TABLE``: the loser gets
        "table ... already exists" (SQLite), a unique violation on ``pg_type`` or a duplicate
        table (PostgreSQL), or "duplicate column" from a concurrent ``ADD COLUMN``. The winner's
        tables are there on the next try, which ``create_all`` then skips.
        """
        for attempt in range(_SCHEMA_TRIES):
            try:
                SQLModel.metadata.create_all(self.engine)
                self._add_missing_columns()
                return
            except (OperationalError, IntegrityError, ProgrammingError) as exc:
                if attempt + 1 == _SCHEMA_TRIES or not _SCHEMA_RACE.search(str(exc)):
                    raise
                time.sleep(0.05 * (attempt + 1))

    def _add_missing_columns(self) -> None:
        """Add the nullable columns a newer QGS added to a store an older one created."""
        inspector = inspect(self.engine)
        with self.engine.begin() as conn:
            for table in SQLModel.metadata.sorted_tables:
                have = {c["name"] for c in inspector.get_columns(table.name)}
                for column in table.columns:
                    if column.name not in have and column.nullable:
                        kind = column.type.compile(dialect=self.engine.dialect)
                        conn.execute(
                            text(f'ALTER TABLE "{table.name}" ADD COLUMN "{column.name}" {kind}')
                        )

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    # -- idempotent insert ---------------------------------------------------------------

    def _insert_ignore(
        self, session: Session, table: type[SQLModel], rows: Sequence[dict[str, Any]]
    ) -> None:
        if not rows:
            return
        insert = pg_insert if self.engine.dialect.name == "postgresql" else sqlite_insert
        # Rows as parameters (not .values()): the statement compiles once and is cached.
        session.execute(insert(table).on_conflict_do_nothing(), [_clean_row(r) for r in rows])

    # -- tasks -----------------------------------------------------------------------------

    def add_task(self, task: TaskRow) -> TaskRow:
        """Insert a task unless one with the same id exists; return the stored one."""
        with Session(self.engine) as session:
            self._insert_ignore(session, TaskRow, [task.model_dump()])
            session.commit()
        return self.get_task(task.id)

    def get_task(self, task_id: str) -> TaskRow:
        """The task with this id.

        Raises:
            TaskNotFoundError: no such task.
        """
        with Session(self.engine) as session:
            row = session.get(TaskRow, task_id)
        if row is None:
            raise TaskNotFoundError(
                f"no task with id {task_id!r} in the store ({_redact(self.url)}); "
                "`qgs report` lists the tasks there"
            )
        return row

    def find_task(self, task_id: str) -> TaskRow | None:
        """The task with this id, or None."""
        with Session(self.engine) as session:
            return session.get(TaskRow, task_id)

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

    def claim_round(self, round_id: int) -> bool:
        """Move a round from ``queued`` to ``dispatched``; True only for the one caller that did it.

        The update is conditional, so of two jobs that both see the round ready (intake of this
        round, decide of the previous one) exactly one dispatches its pipeline.
        """
        with Session(self.engine) as session:
            result = session.execute(
                update(RoundRow)
                .where(col(RoundRow.id) == round_id, col(RoundRow.status) == "queued")
                .values(status="dispatched", status_at=utcnow(), retry_at=None)
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
            if row.status in ("decided", "failed"):
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
        """Queue a task again from its first round whose judge or processing failed.

        That round and every later one lose their review (failed ones only are replaced: a
        round with a good review keeps it), their decision and any approval of that decision,
        and go back to ``queued``; the rounds themselves, their findings and the earlier
        decisions stay.

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
                        ReviewRow.status == "failed",
                    )
                )
            }
            first = next(
                (r for r in rounds if r.status == "failed" or r.id in failed_reviews), None
            )
            if first is None:
                return None
            reopened = [r for r in rounds if r.number >= first.number]
            ids = [r.id for r in reopened]
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
                r.status, r.error, r.attempts = "queued", None, 0
                r.status_at, r.retry_at, r.judge_retries, r.rate_waits, r.sweeps = (
                    utcnow(), None, None, None, None
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
                .values(**_clean_row(values))
                .execution_options(synchronize_session=False)
            )
            if not result.rowcount:  # type: ignore[attr-defined]
                raise TaskNotFoundError(f"no round with id {round_id}")
            session.commit()

    # -- reviews ---------------------------------------------------------------------------

    def save_review(
        self,
        round_id: int,
        review: Review,
        *,
        review_key: str | None = None,
        reused_from: int | None = None,
    ) -> ReviewRow:
        """Store the critic's review of a round, once; return the stored one.

        ``review_key`` identifies what was judged (see ``pipeline.review_key``), so an identical
        round later reuses this review; ``reused_from`` names the round whose review this copies.
        """
        row = {
            "round_id": round_id,
            "status": "ok",
            "review_key": review_key,
            "reused_from": reused_from,
            "verdict": review.verdict.value,
            "score": review.score,
            "summary": review.summary,
            "judge": review.judge,
            "must_fix": _dumps(review.must_fix),
            "warnings": _dumps(review.warnings),
            "latency_ms": review.latency_ms,
            "prompt_tokens": review.prompt_tokens,
            "completion_tokens": review.completion_tokens,
            "raw": None,
            "error": None,
        }
        # Not expired on commit: the row read after the insert is the one returned, without a
        # second SELECT to refresh it (nothing else writes it inside this transaction).
        with Session(self.engine, expire_on_commit=False) as session:
            self._insert_ignore(session, ReviewRow, [row])
            stored = session.exec(select(ReviewRow).where(ReviewRow.round_id == round_id)).one()
            assert stored.id is not None
            self._insert_ignore(
                session,
                DimensionScoreRow,
                [
                    {
                        "review_id": stored.id,
                        "name": d.name,
                        "score": d.score,
                        "issues": _dumps(d.issues),
                    }
                    for d in review.dimensions
                ],
            )
            session.commit()
            return stored

    def save_review_failure(
        self, round_id: int, *, judge: str, error: str, raw: str | None = None
    ) -> ReviewRow:
        """Record that the judge could not review a round (never a PASS); return the stored row."""
        row = {
            "round_id": round_id,
            "status": "failed",
            "judge": judge,
            "error": error,
            "raw": raw,
            "summary": "",
            "must_fix": "[]",
            "warnings": "[]",
        }
        with Session(self.engine) as session:
            self._insert_ignore(session, ReviewRow, [row])
            session.commit()
            return session.exec(select(ReviewRow).where(ReviewRow.round_id == round_id)).one()

    def find_review_by_key(self, review_key: str) -> ReviewRow | None:
        """An earlier good review of the same thing (same review key), or None."""
        with Session(self.engine) as session:
            return session.exec(
                select(ReviewRow)
                .where(ReviewRow.review_key == review_key, ReviewRow.status == "ok")
                .order_by(col(ReviewRow.id))
            ).first()

    def get_review(self, round_id: int) -> ReviewRow | None:
        """The stored review (or failure) of a round, or None."""
        with Session(self.engine) as session:
            return session.exec(select(ReviewRow).where(ReviewRow.round_id == round_id)).first()

    def review_model(self, row: ReviewRow) -> Review:
        """Turn a stored ok review back into the core's Review."""
        with Session(self.engine) as session:
            dims = session.exec(
                select(DimensionScoreRow)
                .where(DimensionScoreRow.review_id == row.id)
                .order_by(col(DimensionScoreRow.id))
            ).all()
        return Review(
            verdict=Verdict(row.verdict or Verdict.FAIL),
            score=row.score or 0,
            dimensions=tuple(
                DimensionScore(name=d.name, score=d.score, issues=tuple(loads_list(d.issues)))
                for d in dims
            ),
            must_fix=tuple(loads_list(row.must_fix)),
            summary=row.summary,
            judge=row.judge,
            warnings=tuple(loads_list(row.warnings)),
            latency_ms=row.latency_ms,
            prompt_tokens=row.prompt_tokens,
            completion_tokens=row.completion_tokens,
        )

    def task_reviews(self, task_id: str) -> list[tuple[RoundRow, ReviewRow]]:
        """Every round of the task that has a review (or failure), by round number."""
        with Session(self.engine) as session:
            pairs = session.exec(
                select(RoundRow, ReviewRow)
                .join(ReviewRow, col(ReviewRow.round_id) == col(RoundRow.id))
                .where(RoundRow.task_id == task_id)
                .order_by(col(RoundRow.number))
            ).all()
        return [(r, v) for r, v in pairs]

    def dimension_scores(self, review_id: int) -> list[DimensionScoreRow]:
        """The per-dimension scores of a review."""
        with Session(self.engine) as session:
            return list(
                session.exec(
                    select(DimensionScoreRow).where(DimensionScoreRow.review_id == review_id)
                )
            )

    # -- findings --------------------------------------------------------------------------

    def save_findings(self, round_id: int, findings: Sequence[Finding]) -> None:
        """Store a round's findings; one already stored (same fingerprint) is left alone."""
        rows = [
            {
                "round_id": round_id,
                "fingerprint": f.fingerprint,
                "role": f.role,
                "category": f.category,
                "severity": f.severity.value,
                "title": f.title,
                "evidence": f.evidence,
                "location": f.location,
                "rule": f.rule,
            }
            for f in findings
        ]
        with Session(self.engine) as session:
            self._insert_ignore(session, FindingRow, rows)
            session.commit()

    def list_findings(self, round_id: int) -> list[FindingRow]:
        """A round's findings, most severe first."""
        with Session(self.engine) as session:
            rows = list(session.exec(select(FindingRow).where(FindingRow.round_id == round_id)))
        return sorted(rows, key=lambda r: (r.severity, r.id or 0))

    def findings_model(self, round_id: int) -> list[Finding]:
        """A round's findings as the core's Finding values."""
        return [
            Finding(
                role=r.role,
                category=r.category,
                severity=Severity(r.severity),
                title=r.title,
                evidence=r.evidence,
                location=r.location,
                rule=r.rule or "",
            )
            for r in self.list_findings(round_id)
        ]

    # -- decisions -------------------------------------------------------------------------

    def save_decision(self, round_id: int, task_id: str, decision: Decision) -> DecisionRow:
        """Store the gate's decision on a round, once; return the stored one."""
        row = {
            "round_id": round_id,
            "task_id": task_id,
            "kind": decision.kind.value,
            "reason": decision.reason,
            "termination": decision.termination.value if decision.termination else None,
            "best_round": decision.best_round,
            "must_fix": _dumps(decision.must_fix),
            "suggestions": _dumps(decision.suggestions),
            "risk": decision.risk,
        }
        with Session(self.engine) as session:
            self._insert_ignore(session, DecisionRow, [row])
            session.commit()
            return session.exec(select(DecisionRow).where(DecisionRow.round_id == round_id)).one()

    def get_decision(self, round_id: int) -> DecisionRow | None:
        """The decision on a round, or None while it is not made."""
        with Session(self.engine) as session:
            return session.exec(select(DecisionRow).where(DecisionRow.round_id == round_id)).first()

    def latest_decision(self, task_id: str) -> tuple[RoundRow, DecisionRow] | None:
        """The decision on the task's highest-numbered decided round, or None."""
        with Session(self.engine) as session:
            pair = session.exec(
                select(RoundRow, DecisionRow)
                .join(DecisionRow, col(DecisionRow.round_id) == col(RoundRow.id))
                .where(RoundRow.task_id == task_id)
                .order_by(col(RoundRow.number).desc())
            ).first()
        return (pair[0], pair[1]) if pair else None

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

        Args:
            task_id: The task.
            round_id: The round whose decision awaited approval (``RoundRow.id``).
            decision: That decision's kind (``awaiting_approval`` or ``force_deliver``).
            approved: True releases the round, False rejects it (blocked).
            by: Who decided.
            note: Why (required by callers on a rejection).

        Raises:
            TaskNotFoundError: no such round of this task.
            ApprovalConflictError: the round already carries a different decision; the message
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
            session.commit()
            stored = session.exec(
                select(ApprovalRow).where(
                    ApprovalRow.task_id == task_id, ApprovalRow.round_id == round_id
                )
            ).one()
        clean = _clean_row(row)
        if (stored.approved, stored.by, stored.note) != (approved, clean["by"], clean["note"]):
            verb = "approved" if stored.approved else "rejected"
            why = f" ({stored.note})" if stored.note else ""
            after = (
                "submit a new round for a new decision"
                if stored.approved
                else "a rejected task is never delivered (its later rounds are decided block): "
                "start a new task for a new decision"
            )
            raise ApprovalConflictError(
                f"round {number} of task {task_id!r} was already {verb} by "
                f"{stored.by} at {as_utc(stored.created_at).isoformat(timespec='seconds')}{why}; "
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

    def count_rows(self, table: type[SQLModel]) -> int:
        """How many rows a table holds (for tests and reports)."""
        with Session(self.engine) as session:
            return int(session.exec(select(func.count()).select_from(table)).one())

    # -- audit errors ----------------------------------------------------------------------

    def save_audit_error(self, source_file: str, line: int, message: str) -> None:
        """Record an input that could not become a task, once per (file, line, message)."""
        import hashlib

        fingerprint = hashlib.sha256(message.encode()).hexdigest()[:32]
        with Session(self.engine) as session:
            self._insert_ignore(
                session,
                AuditErrorRow,
                [
                    {
                        "source_file": source_file,
                        "line": line,
                        "fingerprint": fingerprint,
                        "message": message,
                    }
                ],
            )
            session.commit()

    def clear_audit_errors(self, source_file: str) -> None:
        """Forget the input errors recorded for a file (before it is read again)."""
        with Session(self.engine) as session:
            session.execute(
                delete(AuditErrorRow).where(col(AuditErrorRow.source_file) == source_file)
            )
            session.commit()

    def list_audit_errors(self) -> list[AuditErrorRow]:
        """Every recorded input error, by file and line."""
        with Session(self.engine) as session:
            return list(
                session.exec(
                    select(AuditErrorRow).order_by(
                        col(AuditErrorRow.source_file), col(AuditErrorRow.line)
                    )
                )
            )

    def save_audit_run(
        self,
        round_id: int,
        role: str,
        *,
        error: str | None,
        findings: int,
        duration_ms: float,
    ) -> None:
        """Record that ``role`` audited the round (once: a second record is ignored)."""
        row = {
            "round_id": round_id,
            "role": role,
            "status": "failed" if error else "ok",
            "error": error,
            "findings": findings,
            "duration_ms": duration_ms,
        }
        with Session(self.engine) as session:
            self._insert_ignore(session, AuditRunRow, [row])
            session.commit()

    def list_audit_runs(self, round_id: int) -> list[AuditRunRow]:
        """The audit roles that ran on a round, in the order they ran."""
        with Session(self.engine) as session:
            query = select(AuditRunRow).where(AuditRunRow.round_id == round_id)
            return sorted(session.exec(query), key=lambda r: r.id or 0)

    # -- tool-call checks ------------------------------------------------------------------

    def save_tool_call_check(
        self,
        *,
        check_id: str,
        created_at: datetime,
        shape: str,
        allowed: bool,
        latency_us: float,
        principal: str | None = None,
        agent: str | None = None,
        tool: str | None = None,
        call_id: str | None = None,
        stopped_at: int | None = None,
        stopped_layer: str | None = None,
        errors: Sequence[str] = (),
        warnings: Sequence[str] = (),
        layers: Sequence[Sequence[Any]] = (),
        suggestion: str | None = None,
    ) -> bool:
        """Record one gate check, once per ``check_id`` (a redelivered log job writes nothing).

        Args:
            check_id: The client's id of the check (32 hex digits).
            created_at: When the check ran (stored as UTC).
            shape: ``openai``, ``anthropic``, ``mcp`` or ``unknown``.
            allowed: Whether the call may run.
            latency_us: The check's wall time, in microseconds.
            principal: Who the call acted for.
            agent: Which agent made it.
            tool: The called tool's name, as sent.
            call_id: The call's id, as sent (MCP's integer ids as text).
            stopped_at: The number of the layer that rejected the call (None when allowed).
            stopped_layer: That layer's name.
            errors: The failing layer's errors.
            warnings: Every layer's warnings.
            layers: ``(number, name, status)`` of each configured layer.
            suggestion: The failing layer's suggestion.

        Returns:
            True when this call stored the row, False when the check was already stored.
        """
        row = _clean_row(
            {
                "check_id": check_id,
                "created_at": as_utc(created_at),
                "principal": principal,
                "agent": agent,
                "tool": tool,
                "shape": shape,
                "call_id": call_id,
                "allowed": allowed,
                "stopped_at": stopped_at,
                "stopped_layer": stopped_layer,
                "errors": _dumps(errors),
                "warnings": _dumps(warnings),
                "layers": _dumps(list(layer) for layer in layers),
                "suggestion": suggestion,
                "latency_us": latency_us,
            }
        )
        insert = pg_insert if self.engine.dialect.name == "postgresql" else sqlite_insert
        with Session(self.engine) as session:
            # Core, not ORM, execution: its result says whether a row went in.
            result = session.connection().execute(
                insert(ToolCallCheckRow).on_conflict_do_nothing(), row
            )
            session.commit()
        return bool(result.rowcount)

    def list_tool_call_checks(
        self, limit: int = 100, *, rejected_only: bool = False
    ) -> list[ToolCallCheckRow]:
        """The most recent tool-call checks, newest first.

        Args:
            limit: At most this many rows.
            rejected_only: Only the checks that rejected their call.
        """
        query = select(ToolCallCheckRow)
        if rejected_only:
            query = query.where(col(ToolCallCheckRow.allowed).is_(False))
        query = query.order_by(
            col(ToolCallCheckRow.created_at).desc(), col(ToolCallCheckRow.id).desc()
        ).limit(limit)
        with Session(self.engine) as session:
            return list(session.exec(query))

    def tool_call_check_counts(self) -> tuple[int, int]:
        """How many checks are stored, and how many of them allowed their call."""
        with Session(self.engine) as session:
            total, allowed = session.execute(
                select(
                    func.count(),
                    func.count().filter(col(ToolCallCheckRow.allowed).is_(True)),
                ).select_from(ToolCallCheckRow)
            ).one()
        return int(total), int(allowed)

    def rejected_by_layer(self) -> dict[int, int]:
        """Rejected checks counted by the number of the layer that stopped them (1-6)."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(col(ToolCallCheckRow.stopped_at), func.count())
                .where(col(ToolCallCheckRow.allowed).is_(False))
                .group_by(col(ToolCallCheckRow.stopped_at))
            ).all()
        return {int(layer or 0): int(count) for layer, count in rows}


def _clean_row(row: dict[str, Any]) -> dict[str, Any]:
    """Text as every store can keep it: PostgreSQL refuses NUL characters, so they become U+FFFD."""
    return {k: v.replace("\x00", "\ufffd") if isinstance(v, str) else v for k, v in row.items()}


def _redact(url: str) -> str:
    """The URL without its password, for messages."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        user = creds.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}"
    return url
