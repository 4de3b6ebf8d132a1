"""The webhook tables and what is read and written with them outside ``WebhookStore``.

Two events, the same columns: ``webhook_delivery`` / ``webhook_attempt`` hold the decisions'
webhooks (``qgs.decision``, one per decided round and per submission), ``approval_webhook`` /
``approval_webhook_attempt`` the approvals' (``qgs.approval``, one per approved or rejected
round, stored in the approval's transaction with the exact body it sends). Each attempt table
keeps every POST (``(delivery_id, number)`` unique): its HTTP status or error, its latency, when.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, Text, UniqueConstraint, literal, select, union_all
from sqlmodel import Field, SQLModel

from qgs_worker.core.gate import needs_approval
from qgs_worker.core.webhooks import (
    APPROVAL_EVENT,
    DECISION_EVENT,
    WebhookAttemptView,
    WebhookStatus,
    WebhookView,
    approval_body,
    approval_idempotency_key,
    webhook_body,
)
from qgs_worker.store.base import as_utc, dialect_insert, loads_list
from qgs_worker.store.reviews import replan_model
from qgs_worker.store.tables import ApprovalRow, DecisionRow, ReviewRow, RoundRow, TaskRow, utcnow

__all__ = [
    "TABLES",
    "ApprovalWebhookAttemptRow",
    "ApprovalWebhookRow",
    "WebhookAttemptRow",
    "WebhookDeliveryRow",
    "WebhookWork",
    "decision_work",
    "start_approval_webhook",
    "webhook_views_where",
]

_PENDING = WebhookStatus.PENDING.value


class _DeliveryColumns(SQLModel):
    """What every webhook delivery keeps: where to, where it stands, the attempt running now.

    ``status`` is pending, delivered or failed; ``attempts`` the POSTs so far; ``error`` the
    last one's error (or why it failed for good); ``touched_at`` when it was last enqueued or
    tried (the sweeper enqueues a pending one untouched past its bound); ``next_at`` when a
    retry is due; ``lease_holder`` / ``lease_until`` the attempt running now and ``lease_at``
    when it started (left set by an attempt whose worker died mid-POST, until the next one
    claims it; NULL in rows an older QGS stored); ``sweeps`` how often the sweeper enqueued it
    again. Times are UTC.
    """

    task_id: str = Field(foreign_key="task.id", index=True, max_length=64)
    url: str = Field(sa_type=Text)
    idempotency_key: str = Field(max_length=64)
    status: str = Field(default=WebhookStatus.PENDING.value, max_length=16, index=True)
    attempts: int = 0
    error: str | None = Field(default=None, sa_type=Text)
    created_at: datetime = Field(default_factory=utcnow, sa_type=DateTime(timezone=True))
    touched_at: datetime = Field(default_factory=utcnow, sa_type=DateTime(timezone=True))
    next_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    delivered_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    lease_holder: str | None = Field(default=None, max_length=64)
    lease_until: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    lease_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    sweeps: int = 0


class WebhookDeliveryRow(_DeliveryColumns, table=True):
    """A decided round's webhook (``qgs.decision``): one per round and per submission."""

    __tablename__ = "webhook_delivery"

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="round.id", unique=True)
    submission_id: str = Field(unique=True, max_length=128)


class ApprovalWebhookRow(_DeliveryColumns, table=True):
    """A person's approval or rejection of a round's decision, pushed (``qgs.approval``).

    Stored with the approval, in its transaction, when the round or its task has a callback
    URL; ``body`` is the exact JSON sent on every attempt (``core.webhooks.approval_body``).
    One per round (a round is approved or rejected once).
    """

    __tablename__ = "approval_webhook"

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="round.id", unique=True)
    approval_id: int = Field(foreign_key="approval.id", unique=True)
    submission_id: str = Field(max_length=128)
    body: str = Field(sa_type=Text)


class _AttemptColumns(SQLModel):
    """One POST of a webhook: HTTP status (None: no answer) or error, latency in ms, when (UTC)."""

    number: int
    status_code: int | None = None
    error: str | None = Field(default=None, sa_type=Text)
    latency_ms: float = 0.0
    at: datetime = Field(default_factory=utcnow, sa_type=DateTime(timezone=True))


class WebhookAttemptRow(_AttemptColumns, table=True):
    """One POST of a decision's webhook."""

    __tablename__ = "webhook_attempt"
    __table_args__ = (UniqueConstraint("delivery_id", "number", name="uq_webhook_attempt_number"),)

    id: int | None = Field(default=None, primary_key=True)
    delivery_id: int = Field(foreign_key="webhook_delivery.id", index=True)


class ApprovalWebhookAttemptRow(_AttemptColumns, table=True):
    """One POST of an approval's webhook."""

    __tablename__ = "approval_webhook_attempt"
    __table_args__ = (
        UniqueConstraint("delivery_id", "number", name="uq_approval_webhook_attempt_number"),
    )

    id: int | None = Field(default=None, primary_key=True)
    delivery_id: int = Field(foreign_key="approval_webhook.id", index=True)


@dataclass(frozen=True, slots=True)
class WebhookWork:
    """What one attempt needs: the delivery, the exact body to send, the attempts so far."""

    delivery_id: int
    round_id: int
    task_id: str
    submission_id: str
    round_number: int
    url: str
    idempotency_key: str
    attempts: int
    body: bytes
    event: str = DECISION_EVENT


_d = WebhookDeliveryRow.__table__  # type: ignore[attr-defined]
_at = WebhookAttemptRow.__table__  # type: ignore[attr-defined]
_ad = ApprovalWebhookRow.__table__  # type: ignore[attr-defined]
_aat = ApprovalWebhookAttemptRow.__table__  # type: ignore[attr-defined]
TABLES = {DECISION_EVENT: (_d, _at), APPROVAL_EVENT: (_ad, _aat)}
"""Each event's deliveries and attempts (the same columns, and the same code over them)."""
_r = RoundRow.__table__  # type: ignore[attr-defined]
_t = TaskRow.__table__  # type: ignore[attr-defined]
_dec = DecisionRow.__table__  # type: ignore[attr-defined]
_rv = ReviewRow.__table__  # type: ignore[attr-defined]
_ap = ApprovalRow.__table__  # type: ignore[attr-defined]


def decision_work(conn: Any, round_id: int) -> tuple[Any, bytes]:
    """The decision delivery's row and its body (built from the stored decision, as sent)."""
    row = conn.execute(
        select(
            _d.c.id,
            _d.c.task_id,
            _d.c.submission_id,
            _d.c.url,
            _d.c.idempotency_key,
            _d.c.attempts,
            _r.c.number,
            _t.c.complexity,
            _dec.c.kind,
            _dec.c.must_fix,
            _dec.c.reason,
            _dec.c.termination,
            _dec.c.best_round,
            _dec.c.replan,
            _dec.c.created_at,
            _rv.c.score,
        )
        .join(_r, _r.c.id == _d.c.round_id)
        .join(_t, _t.c.id == _d.c.task_id)
        .join(_dec, _dec.c.round_id == _d.c.round_id)
        .outerjoin(_rv, _rv.c.round_id == _d.c.round_id)
        .where(_d.c.round_id == round_id)
    ).one()
    body = webhook_body(
        task_id=row.task_id,
        submission_id=row.submission_id,
        round_number=row.number,
        decision=row.kind,
        score=row.score,
        must_fix=[str(m) for m in loads_list(row.must_fix)],
        reason=row.reason,
        termination=row.termination,
        decided_at=as_utc(row.created_at),
        approval_required=needs_approval(row.kind, row.complexity),
        best_round=row.best_round,
        replan=replan_model(row.replan),
    )
    return row, body


_VIEW_COLUMNS = (
    "id",
    "task_id",
    "submission_id",
    "url",
    "status",
    "idempotency_key",
    "error",
    "created_at",
    "delivered_at",
    "next_at",
    "lease_at",
    "lease_until",
)
_ATTEMPT_COLUMNS = ("delivery_id", "number", "status_code", "error", "latency_ms", "at")


def webhook_views_where(conn: Any, where: Callable[[Any], Any]) -> list[WebhookView]:
    """Every event's deliveries matching ``where(table)``, with their attempts: two statements.

    Ordered by round number, a round's decision webhook before its approval's.
    """
    order = list(TABLES)
    parts = [
        select(*(d.c[name] for name in _VIEW_COLUMNS), _r.c.number, literal(event).label("event"))
        .join(_r, _r.c.id == d.c.round_id)
        .where(where(d))
        for event, (d, _at) in TABLES.items()
    ]
    rows = sorted(
        conn.execute(union_all(*parts)).all(), key=lambda r: (r.number, order.index(r.event))
    )
    ids: dict[str, list[int]] = {event: [] for event in TABLES}
    for row in rows:
        ids[row.event].append(row.id)
    tries = [
        select(*(at.c[name] for name in _ATTEMPT_COLUMNS), literal(event).label("event")).where(
            at.c.delivery_id.in_(ids[event])
        )
        for event, (_d, at) in TABLES.items()
        if ids[event]
    ]
    attempts = conn.execute(union_all(*tries)).all() if tries else []
    by_delivery: dict[tuple[str, int], list[WebhookAttemptView]] = {}
    for a in sorted(attempts, key=lambda a: a.number):
        by_delivery.setdefault((a.event, a.delivery_id), []).append(
            WebhookAttemptView(
                number=a.number,
                status_code=a.status_code,
                error=a.error,
                latency_ms=a.latency_ms,
                at=as_utc(a.at),
            )
        )
    return [
        WebhookView(
            task_id=row.task_id,
            submission_id=row.submission_id,
            round_number=row.number,
            url=row.url,
            status=WebhookStatus(row.status),
            idempotency_key=row.idempotency_key,
            error=row.error,
            created_at=as_utc(row.created_at),
            delivered_at=as_utc(row.delivered_at) if row.delivered_at else None,
            next_attempt_at=as_utc(row.next_at) if row.next_at else None,
            attempt_started_at=as_utc(row.lease_at) if row.lease_at else None,
            attempt_held_until=as_utc(row.lease_until) if row.lease_until else None,
            attempts=tuple(by_delivery.get((row.event, row.id), [])),
            event=row.event,
        )
        for row in rows
    ]


def start_approval_webhook(conn: Any, approval_id: int) -> bool:
    """Store the webhook of a just-recorded approval when its round or task has a callback URL.

    Called in the approval's own transaction (``ApprovalStore.save_approval``), so an approval
    is never stored without its webhook; the caller that gets True enqueues its job (the
    sweeper enqueues one nobody tried within its bound).

    Args:
        conn: The approval's transaction (a SQLAlchemy connection).
        approval_id: The approval row's id.

    Returns:
        True when this call stored the delivery; False: no callback URL, or stored before.
    """
    row = conn.execute(
        select(
            _ap.c.id,
            _ap.c.task_id,
            _ap.c.round_id,
            _ap.c.decision,
            _ap.c.approved,
            _ap.c.by,
            _ap.c.note,
            _ap.c.created_at,
            _r.c.submission_id,
            _r.c.number,
            _r.c.callback_url,
            _t.c.callback_url.label("task_callback_url"),
            _dec.c.best_round,
        )
        .join(_r, _r.c.id == _ap.c.round_id)
        .join(_t, _t.c.id == _ap.c.task_id)
        .outerjoin(_dec, _dec.c.round_id == _ap.c.round_id)
        .where(_ap.c.id == approval_id)
    ).first()
    url = row.callback_url or row.task_callback_url if row is not None else None
    if row is None or not url:
        return False
    body = approval_body(
        task_id=row.task_id,
        submission_id=row.submission_id,
        round_number=row.number,
        decision=row.decision,
        approved=row.approved,
        by=row.by,
        note=row.note,
        approved_at=as_utc(row.created_at),
        best_round=row.best_round,
    )
    now = utcnow()
    values = {
        "round_id": row.round_id,
        "approval_id": row.id,
        "submission_id": row.submission_id,
        "task_id": row.task_id,
        "url": url,
        "idempotency_key": approval_idempotency_key(row.submission_id),
        "body": body.decode(),
        "status": _PENDING,
        "attempts": 0,
        "created_at": now,
        "touched_at": now,
        "sweeps": 0,
    }
    dialect = conn.engine.dialect.name
    insert = dialect_insert(dialect)
    stored = conn.scalar(insert(_ad).on_conflict_do_nothing().returning(_ad.c.id), values)
    return stored is not None
