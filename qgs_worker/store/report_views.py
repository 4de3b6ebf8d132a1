"""What the reports read: tasks with their rounds, and the store's totals, as plain values.

``ReportViewStore`` (a part of ``Repository``) answers in ``qgs_worker.service.report_model`` values,
never rows. Tasks are read in batches of ``REPORT_BATCH_TASKS``, five statements a batch
whatever the number of rounds: the rounds LEFT JOIN their review and decision, then the
batch's findings, audit runs, approvals and dead letters (one statement each), so a report's
statement count grows with the number of batches, not of rounds.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select

from qgs_worker.core.models import Decision, DecisionKind, DimensionScore, TerminationReason
from qgs_worker.core.views import ApprovalView
from qgs_worker.errors import TaskNotFoundError
from qgs_worker.service.report_model import (
    AuditErrorFacts,
    AuditRunFacts,
    DeadLetterFacts,
    RejectedCheck,
    ReportTotals,
    ReviewFacts,
    RoundFacts,
    TaskFacts,
    ToolCallFacts,
)
from qgs_worker.store.audit_log import AuditLogStore
from qgs_worker.store.base import as_utc, loads_list
from qgs_worker.store.recovery import RecoveryStore
from qgs_worker.store.reviews import finding_model, replan_model
from qgs_worker.store.row_values import APPROVAL as _a
from qgs_worker.store.row_values import AUDIT_RUN as _run
from qgs_worker.store.row_values import DECISION as _d
from qgs_worker.store.row_values import DIMENSION as _dim
from qgs_worker.store.row_values import FINDING as _f
from qgs_worker.store.row_values import REVIEW as _rv
from qgs_worker.store.row_values import ROUND as _r
from qgs_worker.store.row_values import TASK as _t
from qgs_worker.store.schema import redact
from qgs_worker.store.tables import DeadLetterRow
from qgs_worker.store.webhooks import WebhookStore, deliveries_of_tasks

__all__ = ["REPORT_BATCH_TASKS", "TASK_DEAD_LETTERS", "ReportViewStore"]

REPORT_BATCH_TASKS = 200
"""Tasks read per batch (each batch binds its task ids once per statement: 200 parameters)."""
TASK_DEAD_LETTERS = 100
"""At most this many of a task's dead letters (its newest) are read."""

_dl = DeadLetterRow.__table__  # type: ignore[attr-defined]

_TASK_COLUMNS = (
    _t.c.id,
    _t.c.request,
    _t.c.task_type,
    _t.c.complexity,
    _t.c.classification_source,
    _t.c.created_at,
    _t.c.agent,
    _t.c.agent_model,
    _t.c.escalated,
    _t.c.escalation_reason,
    _t.c.source_file,
    _t.c.source_line,
    _t.c.transcript_id,
)

_ROUNDS = (
    select(
        _r.c.id,
        _r.c.task_id,
        _r.c.number,
        _r.c.submission_id,
        _r.c.status,
        _r.c.final,
        _r.c.turn,
        _r.c.error,
        _r.c.content_hash,
        _r.c.content,
        _r.c.status_at,
        _r.c.retry_at,
        _r.c.lease_until,
        _r.c.sweeps,
        _r.c.judge_retries,
        _rv.c.id.label("rv_id"),
        _rv.c.status.label("rv_status"),
        _rv.c.score.label("rv_score"),
        _rv.c.verdict.label("rv_verdict"),
        _rv.c.error.label("rv_error"),
        _rv.c.judge.label("rv_judge"),
        _rv.c.warnings.label("rv_warnings"),
        _rv.c.reused_from.label("rv_reused_from"),
        _rv.c.prompt_tokens.label("rv_prompt_tokens"),
        _rv.c.completion_tokens.label("rv_completion_tokens"),
        _rv.c.latency_ms.label("rv_latency_ms"),
        _rv.c.summary.label("rv_summary"),
        _rv.c.must_fix.label("rv_must_fix"),
        _d.c.id.label("d_id"),
        _d.c.kind.label("d_kind"),
        _d.c.reason.label("d_reason"),
        _d.c.termination.label("d_termination"),
        _d.c.best_round.label("d_best_round"),
        _d.c.must_fix.label("d_must_fix"),
        _d.c.suggestions.label("d_suggestions"),
        _d.c.risk.label("d_risk"),
        _d.c.replan.label("d_replan"),
    )
    .select_from(
        _r.outerjoin(_rv, _rv.c.round_id == _r.c.id).outerjoin(_d, _d.c.round_id == _r.c.id)
    )
    .order_by(_r.c.task_id, _r.c.number)
)


def _review(row: Any, dimensions: Sequence[Any] = ()) -> ReviewFacts | None:
    if row.rv_id is None:
        return None
    return ReviewFacts(
        status=row.rv_status,
        score=row.rv_score,
        verdict=row.rv_verdict,
        error=row.rv_error,
        judge=row.rv_judge,
        warnings=tuple(loads_list(row.rv_warnings)),
        reused_from=row.rv_reused_from,
        prompt_tokens=row.rv_prompt_tokens,
        completion_tokens=row.rv_completion_tokens,
        latency_ms=row.rv_latency_ms,
        summary=row.rv_summary or "",
        must_fix=tuple(str(m) for m in loads_list(row.rv_must_fix)),
        dimensions=tuple(
            DimensionScore(name=d.name, score=d.score, issues=tuple(loads_list(d.issues)))
            for d in dimensions
        ),
    )


def _decision(row: Any) -> Decision | None:
    """The round's decision as the core's Decision (as ``ReviewStore.decision_model`` reads it)."""
    if row.d_id is None:
        return None
    return Decision(
        kind=DecisionKind(row.d_kind),
        reason=row.d_reason,
        termination=TerminationReason(row.d_termination) if row.d_termination else None,
        best_round=row.d_best_round,
        must_fix=tuple(loads_list(row.d_must_fix)),
        suggestions=tuple(loads_list(row.d_suggestions)),
        risk=row.d_risk,
        replan=replan_model(row.d_replan),
    )


def _utc(moment: datetime | None) -> datetime | None:
    return as_utc(moment) if moment is not None else None


def _dead_letter(row: Any) -> DeadLetterFacts:
    return DeadLetterFacts(
        job=row.job,
        reason=row.reason,
        received_at=as_utc(row.received_at),
        raw_head=row.raw_head,
        submission_id=row.submission_id,
        task_id=row.task_id,
        message_id=row.message_id,
    )


def _report_order(task: Any) -> tuple[Any, ...]:
    """Transcripts in file and line order, then live tasks in the order they started."""
    return (
        task.source_file is None,
        task.source_file or "",
        task.source_line or 0,
        task.created_at,
        task.id,
    )


class ReportViewStore(AuditLogStore, RecoveryStore, WebhookStore):
    """Tasks and totals for the reports, as ``report_model`` values (a part of ``Repository``)."""

    def task_facts(self, task_id: str) -> TaskFacts:
        """One task with its rounds, approvals, dead letters and webhooks (seven statements).

        Raises:
            TaskNotFoundError: no such task.
        """
        with self.engine.connect() as conn:
            task = conn.execute(select(*_TASK_COLUMNS).where(_t.c.id == task_id)).first()
        if task is None:
            raise TaskNotFoundError(
                f"no task with id {task_id!r} in the store ({redact(self.url)}); "
                "`qgs report` lists the tasks there"
            )
        return self._with_rounds([task])[0]

    def report_tasks(
        self, task_ids: Iterable[str] | None = None, *, details: bool = False
    ) -> Iterator[TaskFacts]:
        """The tasks (every task when None; unknown ids are left out) in report order.

        Transcripts come in file and line order, then live tasks in the order they started.
        Read one statement for the tasks, then six (seven with webhooks) per ``REPORT_BATCH_TASKS`` tasks;
        ``details`` adds one a batch for the reviews' dimension scores.
        """
        query = select(*_TASK_COLUMNS)
        with self.engine.connect() as conn:
            if task_ids is None:
                tasks = list(conn.execute(query))
            else:
                wanted = sorted(set(task_ids))
                tasks = []
                for start in range(0, len(wanted), REPORT_BATCH_TASKS):
                    chunk = wanted[start : start + REPORT_BATCH_TASKS]
                    tasks.extend(conn.execute(query.where(_t.c.id.in_(chunk))))
        tasks.sort(key=_report_order)
        for start in range(0, len(tasks), REPORT_BATCH_TASKS):
            yield from self._with_rounds(tasks[start : start + REPORT_BATCH_TASKS], details)

    def _with_rounds(self, tasks: Sequence[Any], details: bool = False) -> list[TaskFacts]:
        """``tasks`` (task result rows, in the order given) with everything of their rounds.

        ``details`` also reads the reviews' dimension scores (one more statement).
        """
        ids = [t.id for t in tasks]
        in_batch = _r.c.task_id.in_(ids)
        with self.engine.connect() as conn:
            rounds = conn.execute(_ROUNDS.where(in_batch)).all()
            findings = conn.execute(
                select(_f, _r.c.task_id.label("task_id"))
                .join(_r, _r.c.id == _f.c.round_id)
                .where(in_batch)
            ).all()
            runs = conn.execute(
                select(_run).join(_r, _r.c.id == _run.c.round_id).where(in_batch)
            ).all()
            approvals = conn.execute(select(_a).where(_a.c.task_id.in_(ids))).all()
            letters = conn.execute(
                select(_dl).where(_dl.c.task_id.in_(ids)).order_by(_dl.c.id.desc())
            ).all()
            dimensions = (
                conn.execute(
                    select(_dim.c.review_id, _dim.c.name, _dim.c.score, _dim.c.issues)
                    .join(_rv, _rv.c.id == _dim.c.review_id)
                    .join(_r, _r.c.id == _rv.c.round_id)
                    .where(in_batch)
                    .order_by(_dim.c.id)
                ).all()
                if details
                else []
            )
        dimensions_of: dict[int, list[Any]] = defaultdict(list)
        for dim in dimensions:
            dimensions_of[dim.review_id].append(dim)
        webhooks_of: dict[str, list[Any]] = defaultdict(list)
        for w in self._views(deliveries_of_tasks(ids)):
            webhooks_of[w.task_id].append(w)
        by_round: dict[int, list[Any]] = defaultdict(list)
        for f in sorted(findings, key=lambda f: (f.severity, f.id)):
            by_round[f.round_id].append(f)
        runs_of: dict[int, list[Any]] = defaultdict(list)
        for run in sorted(runs, key=lambda r: r.id):
            runs_of[run.round_id].append(run)
        numbers = {r.id: r.number for r in rounds}
        approval_of: dict[int, ApprovalView] = {}
        approvals_of: dict[str, list[tuple[Any, ApprovalView]]] = defaultdict(list)
        for a in approvals:
            view = ApprovalView(
                task_id=a.task_id,
                round_number=numbers.get(a.round_id, 0),
                decision=a.decision,
                approved=a.approved,
                by=a.by,
                note=a.note,
                created_at=as_utc(a.created_at),
            )
            approval_of[a.round_id] = view
            approvals_of[a.task_id].append(((view.created_at, a.id), view))
        letters_of: dict[str, list[DeadLetterFacts]] = defaultdict(list)
        for letter in letters:
            if len(letters_of[letter.task_id]) < TASK_DEAD_LETTERS:
                letters_of[letter.task_id].append(_dead_letter(letter))
        rounds_of: dict[str, list[RoundFacts]] = defaultdict(list)
        for r in rounds:
            rounds_of[r.task_id].append(
                RoundFacts(
                    id=r.id,
                    number=r.number,
                    submission_id=r.submission_id,
                    status=r.status,
                    final=r.final,
                    turn=r.turn,
                    error=r.error,
                    content_hash=r.content_hash,
                    content=r.content,
                    length=len(r.content),
                    status_at=_utc(r.status_at),
                    retry_at=_utc(r.retry_at),
                    lease_until=_utc(r.lease_until),
                    sweeps=r.sweeps,
                    judge_retries=r.judge_retries or 0,
                    review=_review(r, dimensions_of.get(r.rv_id, ())),
                    decision=_decision(r),
                    findings=tuple(finding_model(f) for f in by_round[r.id]),
                    audit_runs=tuple(
                        AuditRunFacts(
                            role=run.role,
                            status=run.status,
                            findings=run.findings,
                            duration_ms=run.duration_ms,
                            error=run.error,
                        )
                        for run in runs_of[r.id]
                    ),
                    approval=approval_of.get(r.id),
                )
            )
        return [
            TaskFacts(
                id=t.id,
                request=t.request,
                task_type=t.task_type,
                complexity=t.complexity,
                classification_source=t.classification_source,
                created_at=as_utc(t.created_at),
                agent=t.agent,
                agent_model=t.agent_model,
                escalated=t.escalated,
                escalation_reason=t.escalation_reason,
                source_file=t.source_file,
                source_line=t.source_line,
                transcript_id=t.transcript_id,
                rounds=tuple(rounds_of[t.id]),
                approvals=tuple(v for _, v in sorted(approvals_of[t.id], key=lambda p: p[0])),
                dead_letters=tuple(letters_of[t.id]),
                webhooks=tuple(webhooks_of[t.id]),
            )
            for t in tasks
        ]

    def report_totals(self, *, dead_letters: int, rejected: int) -> ReportTotals:
        """Input errors (by file and line), the newest ``dead_letters``, the outbox, tool calls."""
        return ReportTotals(
            audit_errors=tuple(
                AuditErrorFacts(source_file=e.source_file, line=e.line, message=e.message)
                for e in self.list_audit_errors()
            ),
            dead_letters=tuple(_dead_letter(d) for d in self.list_dead_letters(limit=dead_letters)),
            outbox_waiting=self.count_untaken_outbox(),
            tool_calls=self.tool_call_facts(rejected),
        )

    def tool_call_facts(self, rejected: int) -> ToolCallFacts:
        """Every check counted (allowed, rejected by layer) and the newest ``rejected`` refusals."""
        total, allowed = self.tool_call_check_counts()
        return ToolCallFacts(
            total=total,
            allowed=allowed,
            rejected_by_layer=self.rejected_by_layer(),
            recent_rejected=tuple(
                RejectedCheck(
                    check_id=row.check_id,
                    checked_at=as_utc(row.created_at),
                    tool=row.tool,
                    call_id=row.call_id,
                    principal=row.principal,
                    agent=row.agent,
                    stopped_at=row.stopped_at,
                    stopped_layer=row.stopped_layer,
                    errors=tuple(loads_list(row.errors)),
                )
                for row in self.list_tool_call_checks(rejected, rejected_only=True)
            ),
        )
