"""The review service's store port over the results store: one load, one transaction per step.

Statements are SQLAlchemy Core, built once at import and bound per call (the compiled form is
cached), because the ORM's unit of work cost more worker CPU per round than the statements
themselves. A load is one SELECT: the task, each of its rounds with its review's status and
score, whether it is decided, its approval, and how many findings it holds (correlated counts).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, bindparam, case, exists, func, literal, or_, select, update
from sqlalchemy.engine import Connection, Engine, Row

from qgs_worker.core.models import (
    Classification,
    Finding,
    Review,
    ReviewStatus,
    RoundPlan,
    RoundStatus,
    Severity,
)
from qgs_worker.errors import RoundNumberTakenError, TaskNotFoundError
from qgs_worker.service.ports import (
    Contents,
    NewRound,
    Prepared,
    ReviewAttempt,
    Settlement,
)
from qgs_worker.service.records import Approval, RoundRecord, TaskContext
from qgs_worker.service.submission import NewTask
from qgs_worker.store.base import clean_row, dialect_insert, loads_list
from qgs_worker.store.reviews import (
    decision_values,
    dimension_values,
    failure_values,
    finding_model,
    finding_values,
    review_of,
    review_values,
)
from qgs_worker.store.row_values import APPROVAL as _a
from qgs_worker.store.row_values import AUDIT_RUN as _run
from qgs_worker.store.row_values import DECISION as _d
from qgs_worker.store.row_values import DIMENSION as _dim
from qgs_worker.store.row_values import FINDING as _f
from qgs_worker.store.row_values import REVIEW as _rv
from qgs_worker.store.row_values import ROUND as _r
from qgs_worker.store.row_values import TAKE_OUTBOX as _TAKE_OUTBOX
from qgs_worker.store.row_values import TASK as _t
from qgs_worker.store.row_values import plan_values, role_run_values, round_values
from qgs_worker.store.tables import utcnow
from qgs_worker.store.task_values import task_record, task_row

__all__ = ["SqlReviewStore"]


def _context_select(by_round: bool, contents: Contents) -> Any:
    """The one SELECT of a load: the task LEFT JOIN its rounds with their review and decision."""
    f2 = _f.alias("f2")
    prior = _rv.alias("prior")
    focus = bindparam("focus", type_=_r.c.id.type)
    is_focus = _r.c.id == focus

    def content(column: Any) -> Any:
        if contents == "all":
            return column
        if contents == "focus":
            return case((is_focus, column), else_=None)
        return literal(None)

    task_id = (
        select(_r.c.task_id).where(_r.c.id == bindparam("round_id")).scalar_subquery()
        if by_round
        else bindparam("task_id")
    )
    columns = [
        _t.c.id.label("t_id"),
        _t.c.request,
        _t.c.task_type,
        _t.c.complexity,
        _t.c.agent,
        _t.c.agent_model,
        _t.c.requirements,
        _t.c.criteria,
        _t.c.escalated,
        _r.c.id.label("r_id"),
        _r.c.number,
        _r.c.submission_id,
        _r.c.status,
        _r.c.final,
        _r.c.turn,
        content(_r.c.content).label("content"),
        # every round's calls with its results: the call that read an output says whether
        # the user pointed at that data (core/order_flow)
        (_r.c.tool_calls if contents != "none" else literal(None)).label("tool_calls"),
        (_r.c.tool_results if contents != "none" else literal(None)).label("tool_results"),
        _r.c.content_hash,
        _r.c.plan_critic,
        _r.c.plan_discriminate,
        _r.c.plan_reason,
        _r.c.review_key,
        _r.c.attempts,
        _r.c.judge_retries,
        _r.c.rate_waits,
        _rv.c.id.label("rv_id"),
        _rv.c.status.label("rv_status"),
        _rv.c.score.label("rv_score"),
        _rv.c.error.label("rv_error"),
        select(func.min(prior.c.id))
        .where(
            prior.c.review_key == _r.c.review_key,
            prior.c.status == ReviewStatus.OK.value,
            prior.c.round_id != _r.c.id,
        )
        .scalar_subquery()
        .label("reusable"),
        _d.c.id.label("d_id"),
        _a.c.approved,
        _a.c.by,
        _a.c.note,
        select(func.count()).where(f2.c.round_id == _r.c.id).scalar_subquery().label("n_f"),
        select(func.count())
        .where(f2.c.round_id == _r.c.id, f2.c.severity == Severity.P0.value)
        .scalar_subquery()
        .label("n_p0"),
    ]
    joined = (
        _t.outerjoin(_r, _r.c.task_id == _t.c.id)
        .outerjoin(_rv, _rv.c.round_id == _r.c.id)
        .outerjoin(_d, _d.c.round_id == _r.c.id)
        .outerjoin(_a, and_(_a.c.round_id == _r.c.id, _a.c.task_id == _t.c.id))
    )
    return select(*columns).select_from(joined).where(_t.c.id == task_id).order_by(_r.c.number)


_QUEUED_ROUND = (
    select(literal(1))
    .where(_r.c.task_id == bindparam("task_id"), _r.c.status == RoundStatus.QUEUED.value)
    .limit(1)
)
_LOADS = {
    (by_round, contents): _context_select(by_round, contents)
    for by_round in (False, True)
    for contents in ("none", "focus", "all")
}

_FINDINGS = (
    select(
        _r.c.number,
        _f.c.role,
        _f.c.category,
        _f.c.severity,
        _f.c.title,
        _f.c.evidence,
        _f.c.location,
        _f.c.rule,
        _f.c.round_number,
    )
    .select_from(_f.join(_r, _r.c.id == _f.c.round_id))
    .where(_r.c.task_id == bindparam("task_id"), _r.c.number <= bindparam("number"))
    .order_by(_r.c.number, _f.c.severity, _f.c.id)
)

_BEGIN_REVIEW = (
    update(_r)
    .where(
        _r.c.id == bindparam("rid"),
        # A copy that comes once the review is stored counts no attempt and takes no lease
        # (the attempts are deliveries that tried a review: ``ReviewLimits.max_lost``).
        ~exists().where(_rv.c.round_id == bindparam("rid")),
        or_(
            _r.c.lease_until.is_(None),
            _r.c.lease_until < bindparam("now"),
            _r.c.lease_holder == bindparam("holder"),
        ),
    )
    .values(
        attempts=_r.c.attempts + 1,
        lease_holder=bindparam("holder"),
        lease_until=bindparam("until"),
    )
    .returning(_r.c.attempts, _r.c.judge_retries, _r.c.rate_waits)
)


def _settle_round(status: bool, lease: bool) -> Any:
    """The round's UPDATE of a settlement: its status (and error), the lease's end, or both."""
    values: dict[str, Any] = {}
    if status:
        values.update(
            status=bindparam("b_status"), status_at=bindparam("now"), error=bindparam("b_error")
        )
    if lease:
        mine = _r.c.lease_holder == bindparam("holder")
        values.update(
            lease_holder=case((mine, None), else_=_r.c.lease_holder),
            lease_until=case((mine, None), else_=_r.c.lease_until),
        )
    return update(_r).where(_r.c.id == bindparam("rid")).values(**values)


_SETTLE_ROUND = {
    (status, lease): _settle_round(status, lease)
    for status in (False, True)
    for lease in (False, True)
    if status or lease
}


def _round_record(row: Row[Any]) -> RoundRecord:
    return RoundRecord(
        id=row.r_id,
        number=row.number,
        submission_id=row.submission_id,
        status=RoundStatus(row.status),
        final=bool(row.final),
        turn=row.turn,
        content=row.content,
        tool_calls_json=row.tool_calls,
        tool_results_json=row.tool_results,
        content_hash=row.content_hash,
        plan=RoundPlan(
            critic=bool(row.plan_critic),
            discriminate=bool(row.plan_discriminate),
            reason=row.plan_reason or "",
        ),
        review_key=row.review_key,
        review_id=row.rv_id,
        review_status=ReviewStatus(row.rv_status) if row.rv_status else None,
        review_score=row.rv_score,
        review_error=row.rv_error,
        reusable_review=row.reusable,
        decided=row.d_id is not None,
        approval=Approval(row.approved, row.by, row.note or "") if row.by is not None else None,
        findings=row.n_f,
        p0_findings=row.n_p0,
        attempts=row.attempts or 0,
        judge_retries=row.judge_retries or 0,
        rate_waits=row.rate_waits or 0,
    )


@functools.cache
def _inserts(dialect: str) -> tuple[dict[str, Any], Any, Any, Any]:
    """The inserts of the hot path for one dialect, built once per process.

    A statement built per call costs its cache-key walk every time, which on the hot path
    (three transactions a round) cost more CPU than executing it; and the sweeper and the
    ``pipeline`` steps make a store per call, so the statements are not the instance's.

    Returns:
        ``(insert-or-ignore by table name, round insert returning its id, review insert
        returning its id, review-failure insert)``.
    """
    insert = dialect_insert(dialect)
    ignore = {t.name: insert(t).on_conflict_do_nothing() for t in (_t, _f, _d, _dim, _run)}
    return (
        ignore,
        insert(_r).on_conflict_do_nothing().returning(_r.c.id),
        insert(_rv).on_conflict_do_nothing().returning(_rv.c.id),
        insert(_rv).on_conflict_do_nothing(),
    )


class SqlReviewStore:
    """``service.ports.ReviewStore`` over the results store's engine (SQLite or PostgreSQL).

    Args:
        engine: The store's engine (``Repository.engine``).
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        inserts = _inserts(engine.dialect.name)
        self._ignore, self._insert_round, self._insert_review, self._insert_failure = inserts

    # -- loads -----------------------------------------------------------------------------

    def load_task(
        self, task_id: str, *, focus: int | None = None, contents: Contents = "none"
    ) -> TaskContext:
        """The task and its rounds. Raises ``TaskNotFoundError`` when the task is not stored."""
        with self.engine.connect() as conn:
            rows = conn.execute(_LOADS[False, contents], {"task_id": task_id, "focus": focus}).all()
        if not rows:
            raise TaskNotFoundError(f"no task with id {task_id!r} in the store")
        return _context(rows)

    def load_round(self, round_id: int, *, contents: Contents = "none") -> TaskContext:
        """The context of a round's task, the round in focus. Raises ``TaskNotFoundError``."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                _LOADS[True, contents], {"round_id": round_id, "focus": round_id}
            ).all()
        context = _context(rows) if rows else None
        if context is None or all(r.id != round_id for r in context.rounds):
            raise TaskNotFoundError(f"no round with id {round_id}")
        return context

    def has_queued_round(self, task_id: str) -> bool:
        """Whether a round of the task is stored ``queued`` (``ReviewStore.has_queued_round``)."""
        with self.engine.connect() as conn:
            return conn.scalar(_QUEUED_ROUND, {"task_id": task_id}) is not None

    def load_review(self, review_id: int) -> tuple[int, Review]:
        """A stored good review, with the id of the round it reviewed."""
        with self.engine.connect() as conn:
            row = conn.execute(select(_rv).where(_rv.c.id == review_id)).one()
            dims = conn.execute(
                select(_dim).where(_dim.c.review_id == review_id).order_by(_dim.c.id)
            ).all()
        return row.round_id, review_of(row, dims)

    def find_review_id(self, review_key: str) -> int | None:
        """The id of the earliest good review with this key (``requests.review_key``), or None."""
        with self.engine.connect() as conn:
            return conn.scalar(
                select(func.min(_rv.c.id)).where(
                    _rv.c.review_key == review_key, _rv.c.status == ReviewStatus.OK.value
                )
            )

    def findings_up_to(self, task_id: str, number: int) -> list[tuple[int, Finding]]:
        """``(round_number, finding)`` of every finding on the task's rounds 1..number."""
        with self.engine.connect() as conn:
            rows = conn.execute(_FINDINGS, {"task_id": task_id, "number": number}).all()
        return [(row.number, finding_model(row)) for row in rows]

    def audit_runs(self, round_id: int) -> set[str]:
        """The audit roles that already ran on the round."""
        with self.engine.connect() as conn:
            return set(conn.scalars(select(_run.c.role).where(_run.c.round_id == round_id)))

    def latest_must_fix(self, task_id: str) -> list[str]:
        """The must_fix of the task's latest decision (empty when none is made)."""
        with self.engine.connect() as conn:
            text = conn.scalar(
                select(_d.c.must_fix)
                .join(_r, _r.c.id == _d.c.round_id)
                .where(_r.c.task_id == task_id)
                .order_by(_r.c.number.desc())
                .limit(1)
            )
        return [str(item) for item in loads_list(text)]

    # -- writes ----------------------------------------------------------------------------

    def add_task(self, task_id: str, found: Classification, new: NewTask) -> None:
        """Store a classified task unless one with this id is stored."""
        values = task_row(task_id, found, new).model_dump()
        with self.engine.begin() as conn:
            conn.execute(self._ignore["task"], [clean_row(values)])

    def insert_round(self, new: NewRound) -> tuple[int, bool]:
        """Store a round (and take its submission's outbox row) in one transaction."""
        now = utcnow()
        prepared = new.prepared
        values = round_values(new, now)
        with self.engine.begin() as conn:
            round_id = conn.scalar(self._insert_round, values)
            if round_id is None:
                stored = conn.scalar(select(_r.c.id).where(_r.c.submission_id == new.submission_id))
                if stored is None:
                    raise RoundNumberTakenError(
                        f"round {new.number} of task {new.task_id!r} is already held by another "
                        "submission; submit without a round number to get the next one"
                    )
                return int(stored), False
            if prepared is not None:
                self._write_prepared(conn, round_id, new.task_id, prepared)
            # The submission is taken in the same transaction: the sweeper never re-publishes
            # a stored round's submission, and never misses one that is not stored.
            conn.execute(_TAKE_OUTBOX, {"sid": new.submission_id, "now": now})
        return int(round_id), True

    def claim_round(self, round_id: int, prepared: Prepared) -> bool:
        """Move a queued round to dispatched with its plan and findings; True for one caller."""
        status = RoundStatus.DECIDED if prepared.decision else RoundStatus.DISPATCHED
        with self.engine.begin() as conn:
            task_id = conn.scalar(
                update(_r)
                .where(_r.c.id == round_id, _r.c.status == RoundStatus.QUEUED.value)
                .values(
                    status=status.value,
                    status_at=utcnow(),
                    retry_at=None,
                    **plan_values(prepared.plan),
                )
                .returning(_r.c.task_id)
            )
            if task_id is None:
                return False
            self._write_prepared(conn, round_id, task_id, prepared)
        return True

    def _write_prepared(
        self, conn: Connection, round_id: int, task_id: str, prepared: Prepared
    ) -> None:
        if prepared.findings:
            conn.execute(
                self._ignore["finding"],
                [clean_row(finding_values(round_id, f)) for f in prepared.findings],
            )
        if prepared.escalation is not None:
            to = prepared.escalation.to
            conn.execute(
                update(_t)
                .where(_t.c.id == task_id)
                .values(
                    task_type=to.task_type.value,
                    complexity=to.complexity.value,
                    classification_source=to.source,
                    confidence=to.confidence,
                    escalated=True,
                    escalation_reason=prepared.escalation.reason,
                )
            )
        if prepared.decision is not None:
            conn.execute(
                self._ignore["decision"],
                [clean_row(decision_values(round_id, task_id, prepared.decision))],
            )

    def begin_review(self, round_id: int, holder: str, lease_s: float) -> ReviewAttempt | None:
        """Take the round's review lease and count the delivery; None while another holds it."""
        now = utcnow()
        params = {
            "rid": round_id,
            "now": now,
            "holder": holder,
            "until": now + timedelta(seconds=lease_s),
        }
        with self.engine.begin() as conn:
            row = conn.execute(_BEGIN_REVIEW, params).first()
        if row is None:
            return None
        return ReviewAttempt(
            attempts=row.attempts,
            judge_retries=row.judge_retries or 0,
            rate_waits=row.rate_waits or 0,
        )

    def release_review(self, round_id: int, holder: str) -> None:
        """End the named holder's review attempt (a step that failed half-way)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(_r)
                .where(_r.c.id == round_id, _r.c.lease_holder == holder)
                .values(lease_holder=None, lease_until=None)
            )

    def settle(self, round_id: int, task_id: str, outcome: Settlement) -> None:
        """Write ``outcome`` on the round in one transaction (see ``Settlement``).

        Every statement's values are made before the transaction: its first write takes the
        SQLite writer lock (``sqlite_writes``), and the lock's holder should spend it in SQLite.
        """
        review, review_row, dimension_rows, failure_rows = outcome.review, None, None, None
        if review is not None:
            review_row = clean_row(
                review_values(
                    round_id, review, review_key=outcome.review_key, reused_from=outcome.reused_from
                )
            )
            # The review's id comes from its insert; 0 stands for it until then.
            dimension_rows = [clean_row(v) for v in dimension_values(0, review)]
        elif outcome.failure is not None:
            judge, error, raw = outcome.failure
            failure_rows = [clean_row(failure_values(round_id, judge=judge, error=error, raw=raw))]
        decision_rows = None
        if outcome.decision is not None:
            decision_rows = [clean_row(decision_values(round_id, task_id, outcome.decision))]
        status, holder = outcome.status, outcome.release_lease
        round_params = None
        if status is not None or holder is not None:
            round_params = {
                "rid": round_id,
                "b_status": status.value if status else None,
                "now": utcnow(),
                "b_error": clean_row({"e": outcome.error})["e"],
                "holder": holder,
            }
        with self.engine.begin() as conn:
            if review_row is not None:
                review_id = conn.scalar(self._insert_review, review_row)
                if review_id is not None and dimension_rows:
                    for row in dimension_rows:
                        row["review_id"] = review_id
                    conn.execute(self._ignore["dimension_score"], dimension_rows)
            elif failure_rows is not None:
                conn.execute(self._insert_failure, failure_rows)
            if decision_rows is not None:
                conn.execute(self._ignore["decision"], decision_rows)
            if round_params is not None:
                conn.execute(_SETTLE_ROUND[status is not None, holder is not None], round_params)

    def note_retry(
        self, round_id: int, holder: str, *, judge_error: str | None, parked_until: datetime | None
    ) -> None:
        """Count a judge retry (``judge_error``) or a rate-limit wait, park it, end the lease."""
        mine = _r.c.lease_holder == holder
        values: dict[str, Any] = {
            "retry_at": parked_until,
            "lease_holder": case((mine, None), else_=_r.c.lease_holder),
            "lease_until": case((mine, None), else_=_r.c.lease_until),
        }
        if judge_error is not None:
            values["judge_retries"] = func.coalesce(_r.c.judge_retries, 0) + 1
            values["retry_reason"] = clean_row({"r": judge_error[:500]})["r"]
        else:
            values["rate_waits"] = func.coalesce(_r.c.rate_waits, 0) + 1
        with self.engine.begin() as conn:
            conn.execute(update(_r).where(_r.c.id == round_id).values(**values))

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
        run = role_run_values(round_id, role, len(findings), error=error, duration_ms=duration_ms)
        with self.engine.begin() as conn:
            if findings:
                conn.execute(
                    self._ignore["finding"],
                    [clean_row(finding_values(round_id, f)) for f in findings],
                )
            conn.execute(self._ignore["audit_run"], [clean_row(run)])


def _context(rows: Sequence[Row[Any]]) -> TaskContext:
    return TaskContext(
        task=task_record(rows[0], task_id=rows[0].t_id),
        rounds=tuple(_round_record(row) for row in rows if row.r_id is not None),
    )
