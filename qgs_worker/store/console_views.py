"""What the operator console reads: task lines (filtered, newest first), tool calls, health.

``ConsoleViewStore`` (a part of ``Repository``) answers in ``service.console_model`` values. A
task line is one statement whatever the number of tasks: the task LEFT JOIN its latest decided
round (with that round's decision, review and approval), its round count and its worst finding
(two grouped subqueries). A live update reads the lines of the few tasks just decided, with
the subqueries restricted to them.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import and_, func, or_, select

from qgs_worker.core.models import Complexity, DecisionKind
from qgs_worker.core.webhooks import APPROVAL_EVENT, DECISION_EVENT, WebhookStatus
from qgs_worker.service.console_model import LineFilter, StoreHealth, TaskLine
from qgs_worker.store.base import as_utc
from qgs_worker.store.console_sessions import ConsoleSessionStore
from qgs_worker.store.recovery import RecoveryStore
from qgs_worker.store.row_values import APPROVAL as _a
from qgs_worker.store.row_values import DECISION as _d
from qgs_worker.store.row_values import FINDING as _f
from qgs_worker.store.row_values import REVIEW as _rv
from qgs_worker.store.row_values import ROUND as _r
from qgs_worker.store.row_values import TASK as _t
from qgs_worker.store.tables import DeadLetterRow
from qgs_worker.store.webhook_rows import TABLES

__all__ = ["LINES_MAX", "OUTCOMES", "REQUEST_PREVIEW_CHARS", "ConsoleViewStore"]

LINES_MAX = 500
"""The most task lines one read returns."""
REQUEST_PREVIEW_CHARS = 200
"""A line's request is cut to this many characters."""
OUTCOMES = ("awaiting_approval", "approved", "rejected", "undecided")
"""The ``LineFilter.decision`` values that are an outcome, not a decision's kind."""
_RECENT = 10

_dl = DeadLetterRow.__table__  # type: ignore[attr-defined]


def _needs_person(kind: Any, complexity: Any) -> Any:
    """SQL for ``core.gate.needs_approval(kind, complexity)``."""
    return or_(
        kind == DecisionKind.AWAITING_APPROVAL.value,
        and_(kind == DecisionKind.FORCE_DELIVER.value, complexity == Complexity.REFLECT.value),
    )


def _lines_query(where: LineFilter) -> Any:
    """The statement of ``task_lines`` (see ``ConsoleViewStore.task_lines``)."""
    ids = list(where.task_ids) if where.task_ids is not None else None
    latest = select(_r.c.task_id, func.max(_r.c.number).label("n")).join(
        _d, _d.c.round_id == _r.c.id
    )
    counted = select(_r.c.task_id, func.count().label("rounds"))
    worst = select(_r.c.task_id, func.min(_f.c.severity).label("worst")).join(
        _r, _r.c.id == _f.c.round_id
    )
    if ids is not None:
        latest, counted, worst = (q.where(_r.c.task_id.in_(ids)) for q in (latest, counted, worst))
    latest_q = latest.group_by(_r.c.task_id).subquery("latest")
    counted_q = counted.group_by(_r.c.task_id).subquery("counted")
    worst_q = worst.group_by(_r.c.task_id).subquery("worst")
    lr = _r.alias("lr")
    awaiting = and_(_needs_person(_d.c.kind, _t.c.complexity), _a.c.id.is_(None))
    query = (
        select(
            _t.c.id,
            _t.c.principal,
            _t.c.agent,
            _t.c.task_type,
            _t.c.complexity,
            _t.c.created_at,
            func.substr(_t.c.request, 1, REQUEST_PREVIEW_CHARS).label("request"),
            counted_q.c.rounds,
            lr.c.number,
            _d.c.kind,
            _d.c.created_at.label("decided_at"),
            _rv.c.score,
            _a.c.approved,
            awaiting.label("awaiting"),
            worst_q.c.worst,
        )
        .select_from(
            _t.outerjoin(latest_q, latest_q.c.task_id == _t.c.id)
            .outerjoin(lr, and_(lr.c.task_id == _t.c.id, lr.c.number == latest_q.c.n))
            .outerjoin(_d, _d.c.round_id == lr.c.id)
            .outerjoin(_rv, _rv.c.round_id == lr.c.id)
            .outerjoin(_a, _a.c.round_id == lr.c.id)
            .outerjoin(counted_q, counted_q.c.task_id == _t.c.id)
            .outerjoin(worst_q, worst_q.c.task_id == _t.c.id)
        )
        .order_by(func.coalesce(_d.c.created_at, _t.c.created_at).desc(), _t.c.id)
    )
    if ids is not None:
        query = query.where(_t.c.id.in_(ids))
    if where.principals is not None:
        query = query.where(_t.c.principal.in_(list(where.principals)))
    if where.task_type:
        query = query.where(_t.c.task_type == where.task_type)
    if where.agent:
        query = query.where(_t.c.agent == where.agent)
    if where.severity:
        query = query.where(worst_q.c.worst <= where.severity)
    return _by_decision(query, where.decision, awaiting)


def _by_decision(query: Any, decision: str | None, awaiting: Any) -> Any:
    if not decision:
        return query
    if decision == "awaiting_approval":
        return query.where(awaiting)
    if decision in ("approved", "rejected"):
        return query.where(_a.c.approved.is_(decision == "approved"))
    if decision == "undecided":
        return query.where(_d.c.id.is_(None))
    return query.where(_d.c.kind == decision)


def _line(row: Any) -> TaskLine:
    return TaskLine(
        id=row.id,
        principal=row.principal,
        agent=row.agent,
        task_type=row.task_type,
        complexity=row.complexity,
        created_at=as_utc(row.created_at),
        request=row.request or "",
        rounds=row.rounds or 0,
        round_number=row.number,
        decision=row.kind,
        score=row.score,
        decided_at=as_utc(row.decided_at) if row.decided_at is not None else None,
        approved=row.approved,
        awaiting=bool(row.awaiting) and row.approved is None,
        worst=row.worst,
    )


class ConsoleViewStore(ConsoleSessionStore, RecoveryStore):
    """Task lines, a round's tool calls and the store's health, for the operator console."""

    def task_lines(self, where: LineFilter, *, limit: int = 100) -> list[TaskLine]:
        """The tasks ``where`` selects, the most recently decided (or started) first.

        Args:
            where: The filter (``LineFilter``: principals, decision or outcome, task type,
                severity, agent, task ids).
            limit: At most this many lines (1 to ``LINES_MAX``).
        """
        if where.principals == () or where.task_ids == ():
            return []
        query = _lines_query(where).limit(max(1, min(limit, LINES_MAX)))
        with self.engine.connect() as conn:
            return [_line(row) for row in conn.execute(query)]

    def awaiting_lines(self, principals: tuple[str, ...] | None) -> list[TaskLine]:
        """The tasks whose latest decision waits for a person, the longest waiting first."""
        lines = self.task_lines(
            LineFilter(principals=principals, decision="awaiting_approval"), limit=LINES_MAX
        )
        return sorted(lines, key=lambda line: (line.decided_at or line.created_at, line.id))

    def round_tool_calls(self, round_ids: list[int]) -> dict[int, list[Any]]:
        """Each round's tool calls as submitted (parsed JSON), by round id."""
        if not round_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(_r.c.id, _r.c.tool_calls).where(_r.c.id.in_(round_ids))
            ).all()
        found: dict[int, list[Any]] = {}
        for round_id, text in rows:
            try:
                value = json.loads(text or "[]")
            except ValueError:
                value = [text]
            found[round_id] = value if isinstance(value, list) else [value]
        return found

    def store_health(self) -> StoreHealth:
        """Dead letters, failing webhooks and the outbox, counted, with the newest few.

        The rounds' lateness is the caller's (``queue.sweeper.overdue`` over
        ``unfinished_rounds``): the store does not import the queue.
        """
        failing = retrying = 0
        failures: list[tuple[Any, str, str, str]] = []
        with self.engine.connect() as conn:
            letters = conn.execute(select(func.count()).select_from(_dl)).scalar_one()
            recent = conn.execute(
                select(_dl.c.received_at, _dl.c.job, _dl.c.reason, _dl.c.task_id)
                .order_by(_dl.c.id.desc())
                .limit(_RECENT)
            ).all()
            for event in (DECISION_EVENT, APPROVAL_EVENT):
                table = TABLES[event][0]
                failing += conn.execute(
                    select(func.count())
                    .select_from(table)
                    .where(table.c.status == WebhookStatus.FAILED.value)
                ).scalar_one()
                retrying += conn.execute(
                    select(func.count())
                    .select_from(table)
                    .where(table.c.status == WebhookStatus.PENDING.value, table.c.attempts > 0)
                ).scalar_one()
                failures.extend(
                    (row.touched_at, row.task_id, event, row.error or "")
                    for row in conn.execute(
                        select(table.c.touched_at, table.c.task_id, table.c.error)
                        .where(table.c.status == WebhookStatus.FAILED.value)
                        .order_by(table.c.touched_at.desc())
                        .limit(_RECENT)
                    )
                )
        failures.sort(key=lambda f: as_utc(f[0]), reverse=True)
        return StoreHealth(
            outbox_waiting=self.count_untaken_outbox(),
            dead_letters=int(letters),
            recent_dead_letters=tuple(
                (as_utc(r.received_at), r.job, r.reason, r.task_id) for r in recent
            ),
            webhooks_failing=int(failing),
            webhooks_retrying=int(retrying),
            recent_webhook_failures=tuple((t, e, err) for _, t, e, err in failures[:_RECENT]),
        )
