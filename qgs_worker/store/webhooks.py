"""Webhook deliveries and their attempts: one delivery per decided round with a callback URL.

``webhook_delivery`` is unique per round and per submission: whoever inserts it (the decide
listener, or the sweeper when the listener was lost) enqueues its job, and a redelivered job
that finds it ``delivered`` or ``failed`` does nothing. ``webhook_attempt`` keeps every POST
(``(delivery_id, number)`` unique): its HTTP status or error, its latency, when. One attempt
at a time holds the delivery's lease, so two copies of the job never POST together.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Column, DateTime, Text, UniqueConstraint, and_, exists, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import Field, SQLModel

from qgs_worker.core.webhooks import (
    WebhookAttemptView,
    WebhookStatus,
    WebhookView,
    idempotency_key,
)
from qgs_worker.store.base import StoreBase, as_utc, clean_row, loads_list
from qgs_worker.store.tables import DecisionRow, ReviewRow, RoundRow, TaskRow, utcnow

__all__ = ["WebhookAttemptRow", "WebhookDeliveryRow", "WebhookStore", "WebhookWork"]


class WebhookDeliveryRow(SQLModel, table=True):
    """A decided round's webhook: where to, where it stands, the attempt running now.

    ``status`` is pending, delivered or failed; ``attempts`` the POSTs so far; ``error`` the
    last one's error (or why it failed for good); ``touched_at`` when it was last enqueued or
    tried (the sweeper enqueues a pending one untouched past its bound); ``next_at`` when a
    retry is due; ``lease_holder`` / ``lease_until`` the attempt running now; ``sweeps`` how
    often the sweeper enqueued it again. Times are UTC.
    """

    __tablename__ = "webhook_delivery"

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="round.id", unique=True)
    submission_id: str = Field(unique=True, max_length=128)
    task_id: str = Field(foreign_key="task.id", index=True, max_length=64)
    url: str = Field(sa_column=Column(Text, nullable=False))
    idempotency_key: str = Field(max_length=64)
    status: str = Field(default=WebhookStatus.PENDING.value, max_length=16, index=True)
    attempts: int = 0
    error: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    created_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False)
    )
    touched_at: datetime = Field(
        default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False)
    )
    next_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )
    delivered_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )
    lease_holder: str | None = Field(default=None, max_length=64)
    lease_until: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )
    sweeps: int = 0


class WebhookAttemptRow(SQLModel, table=True):
    """One POST of a webhook: HTTP status (None: no answer) or error, latency in ms, when (UTC)."""

    __tablename__ = "webhook_attempt"
    __table_args__ = (UniqueConstraint("delivery_id", "number", name="uq_webhook_attempt_number"),)

    id: int | None = Field(default=None, primary_key=True)
    delivery_id: int = Field(foreign_key="webhook_delivery.id", index=True)
    number: int
    status_code: int | None = None
    error: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    latency_ms: float = 0.0
    at: datetime = Field(
        default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False)
    )


@dataclass(frozen=True, slots=True)
class WebhookWork:
    """What one attempt needs: the delivery, the decision to send, the attempts so far."""

    delivery_id: int
    task_id: str
    submission_id: str
    round_number: int
    url: str
    idempotency_key: str
    attempts: int
    decision: str
    score: int | None
    must_fix: list[str]
    reason: str
    termination: str | None
    decided_at: datetime


_d = WebhookDeliveryRow.__table__  # type: ignore[attr-defined]
_at = WebhookAttemptRow.__table__  # type: ignore[attr-defined]
_r = RoundRow.__table__  # type: ignore[attr-defined]
_t = TaskRow.__table__  # type: ignore[attr-defined]
_dec = DecisionRow.__table__  # type: ignore[attr-defined]
_rv = ReviewRow.__table__  # type: ignore[attr-defined]
_PENDING = WebhookStatus.PENDING.value
_ERROR_MAX_CHARS = 500


def deliveries_of_tasks(task_ids: list[str]) -> object:
    """The condition selecting the webhook deliveries of ``task_ids`` (for batched reads)."""
    return _d.c.task_id.in_(task_ids)


class WebhookStore(StoreBase):
    """Webhook deliveries and attempts (a part of ``Repository``)."""

    def start_webhook(self, round_id: int) -> bool:
        """Store the decided round's delivery when it has a callback URL; True when this call did.

        The submission's URL wins over the task's. The caller that gets True enqueues the
        delivery job; False: no callback, not decided, or stored before (by whoever enqueued).
        """
        with self.engine.begin() as conn:
            row = conn.execute(
                select(_r.c.submission_id, _r.c.task_id, _r.c.callback_url, _t.c.callback_url)
                .join(_t, _t.c.id == _r.c.task_id)
                .where(_r.c.id == round_id, exists().where(_dec.c.round_id == _r.c.id))
            ).first()
            if row is None or not (row[2] or row[3]):
                return False
            now = utcnow()
            insert = pg_insert if self.engine.dialect.name == "postgresql" else sqlite_insert
            values = {
                "round_id": round_id,
                "submission_id": row[0],
                "task_id": row[1],
                "url": row[2] or row[3],
                "idempotency_key": idempotency_key(row[0]),
                "status": _PENDING,
                "attempts": 0,
                "created_at": now,
                "touched_at": now,
                "sweeps": 0,
            }
            stored = conn.scalar(
                insert(_d).on_conflict_do_nothing().returning(_d.c.id), clean_row(values)
            )
        return stored is not None

    def unstarted_webhooks(self, limit: int = 500) -> list[int]:
        """Decided rounds with a callback URL (theirs or their task's) and no delivery stored."""
        query = (
            select(_r.c.id)
            .join(_t, _t.c.id == _r.c.task_id)
            .join(_dec, _dec.c.round_id == _r.c.id)
            .outerjoin(_d, _d.c.round_id == _r.c.id)
            .where(or_(_r.c.callback_url.is_not(None), _t.c.callback_url.is_not(None)))
            .where(_d.c.id.is_(None))
            .order_by(_r.c.id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [int(i) for i in conn.scalars(query)]

    def stale_webhooks(
        self, touched_before: datetime, now: datetime | None = None, limit: int = 500
    ) -> list[int]:
        """Rounds whose pending delivery nobody enqueued or tried since ``touched_before``.

        A delivery whose attempt holds its lease at ``now`` (UTC; now when None) is not stale.
        """
        now = now or utcnow()
        query = (
            select(_d.c.round_id)
            .where(_d.c.status == _PENDING, _d.c.touched_at < touched_before)
            .where(or_(_d.c.lease_until.is_(None), _d.c.lease_until < now))
            .order_by(_d.c.id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [int(i) for i in conn.scalars(query)]

    def touch_webhook(
        self, round_id: int, touched_before: datetime, now: datetime | None = None
    ) -> bool:
        """Mark a stale pending delivery enqueued again at ``now`` (counted); True for one caller."""
        with self.engine.begin() as conn:
            result = conn.execute(
                update(_d)
                .where(
                    _d.c.round_id == round_id,
                    _d.c.status == _PENDING,
                    _d.c.touched_at < touched_before,
                )
                .values(touched_at=now or utcnow(), sweeps=_d.c.sweeps + 1)
            )
        return bool(result.rowcount)

    def claim_webhook(self, round_id: int, holder: str, ttl_s: float) -> WebhookWork | None:
        """Hold the round's pending delivery for one attempt of ``ttl_s`` seconds.

        Returns:
            What the attempt sends; None when the delivery is delivered, failed, missing, or
            another attempt holds it.
        """
        now = utcnow()
        with self.engine.begin() as conn:
            taken = conn.execute(
                update(_d)
                .where(_d.c.round_id == round_id, _d.c.status == _PENDING)
                .where(
                    or_(
                        _d.c.lease_until.is_(None),
                        _d.c.lease_until < now,
                        _d.c.lease_holder == holder,
                    )
                )
                .values(lease_holder=holder, lease_until=now + timedelta(seconds=ttl_s))
            )
            if not taken.rowcount:
                return None
            row = conn.execute(
                select(
                    _d.c.id,
                    _d.c.task_id,
                    _d.c.submission_id,
                    _d.c.url,
                    _d.c.idempotency_key,
                    _d.c.attempts,
                    _r.c.number,
                    _dec.c.kind,
                    _dec.c.must_fix,
                    _dec.c.reason,
                    _dec.c.termination,
                    _dec.c.created_at,
                    _rv.c.score,
                )
                .join(_r, _r.c.id == _d.c.round_id)
                .join(_dec, _dec.c.round_id == _d.c.round_id)
                .outerjoin(_rv, _rv.c.round_id == _d.c.round_id)
                .where(_d.c.round_id == round_id)
            ).one()
        return WebhookWork(
            delivery_id=row.id,
            task_id=row.task_id,
            submission_id=row.submission_id,
            round_number=row.number,
            url=row.url,
            idempotency_key=row.idempotency_key,
            attempts=row.attempts,
            decision=row.kind,
            score=row.score,
            must_fix=[str(m) for m in loads_list(row.must_fix)],
            reason=row.reason,
            termination=row.termination,
            decided_at=as_utc(row.created_at),
        )

    def record_webhook_attempt(
        self,
        work: WebhookWork,
        holder: str,
        *,
        status_code: int | None,
        error: str | None,
        latency_ms: float,
        outcome: WebhookStatus,
        next_at: datetime | None = None,
        final_error: str | None = None,
    ) -> bool:
        """Store one attempt and move the delivery on, in one transaction; the lease ends.

        Args:
            work: The claimed delivery (``claim_webhook``).
            holder: The attempt's lease holder.
            status_code: The receiver's HTTP status, or None when it gave none.
            error: What went wrong (None for a 2xx).
            latency_ms: The POST's wall time, in milliseconds.
            outcome: ``delivered``, ``pending`` (a retry comes at ``next_at``) or ``failed``.
            next_at: When the retry is due (UTC), for ``pending``.
            final_error: Why the delivery failed for good, for ``failed`` (else ``error``).

        Returns:
            False when the attempt was stored before or the lease was lost (nothing changed).
        """
        number = work.attempts + 1
        now = utcnow()
        short = error[:_ERROR_MAX_CHARS] if error else None
        why = (final_error or short or "")[:_ERROR_MAX_CHARS] or None
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(_d)
                .where(
                    _d.c.id == work.delivery_id,
                    _d.c.status == _PENDING,
                    _d.c.attempts == work.attempts,
                    _d.c.lease_holder == holder,
                )
                .values(
                    status=outcome.value,
                    attempts=number,
                    error=why,
                    touched_at=now,
                    next_at=next_at if outcome == WebhookStatus.PENDING else None,
                    delivered_at=now if outcome == WebhookStatus.DELIVERED else None,
                    lease_holder=None,
                    lease_until=None,
                )
            )
            if not moved.rowcount:
                return False
            conn.execute(
                _at.insert(),
                clean_row(
                    {
                        "delivery_id": work.delivery_id,
                        "number": number,
                        "status_code": status_code,
                        "error": short,
                        "latency_ms": round(latency_ms, 1),
                        "at": now,
                    }
                ),
            )
        return True

    def release_webhook(self, round_id: int, holder: str) -> None:
        """End an attempt that stored nothing (its lease only)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(_d)
                .where(_d.c.round_id == round_id, _d.c.lease_holder == holder)
                .values(lease_holder=None, lease_until=None)
            )

    def webhook_views(self, task_id: str) -> list[WebhookView]:
        """Every webhook of the task's rounds, by round number (what ``qgs status`` shows)."""
        return self._views(and_(_d.c.task_id == task_id))

    def webhook_view(self, submission_id: str) -> WebhookView | None:
        """The webhook of a submission's round, or None (no callback, or not decided yet)."""
        found = self._views(and_(_d.c.submission_id == submission_id))
        return found[0] if found else None

    def _views(self, where: object) -> list[WebhookView]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(_d, _r.c.number)
                .join(_r, _r.c.id == _d.c.round_id)
                .where(where)  # type: ignore[arg-type]
                .order_by(_r.c.number)
            ).all()
            ids = [row.id for row in rows]
            attempts = (
                conn.execute(
                    select(_at).where(_at.c.delivery_id.in_(ids)).order_by(_at.c.number)
                ).all()
                if ids
                else []
            )
        by_delivery: dict[int, list[WebhookAttemptView]] = {}
        for a in attempts:
            by_delivery.setdefault(a.delivery_id, []).append(
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
                attempts=tuple(by_delivery.get(row.id, [])),
            )
            for row in rows
        ]
