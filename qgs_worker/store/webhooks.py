"""Webhook deliveries and their attempts (``qgs_worker.store.webhook_rows`` has the tables).

A decision's delivery (``webhook_delivery``) is unique per round and per submission: whoever
inserts it (the decide listener, or the sweeper when the listener was lost) enqueues its job,
and a redelivered job that finds it ``delivered`` or ``failed`` does nothing. An approval's
(``approval_webhook``) is stored with the approval; the approving caller enqueues it. Every
POST is kept in the event's attempt table. One attempt at a time holds the delivery's lease,
so two copies of the job never POST together; the methods take the ``event`` they work on.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, exists, or_, select, update

from qgs_worker.core.webhooks import (
    APPROVAL_EVENT,
    DECISION_EVENT,
    WebhookStatus,
    WebhookView,
    idempotency_key,
)
from qgs_worker.store.base import StoreBase, clean_row, dialect_insert
from qgs_worker.store.row_values import DECISION as _dec
from qgs_worker.store.row_values import ROUND as _r
from qgs_worker.store.row_values import TASK as _t
from qgs_worker.store.tables import utcnow
from qgs_worker.store.webhook_rows import (
    TABLES,
    ApprovalWebhookAttemptRow,
    ApprovalWebhookRow,
    WebhookAttemptRow,
    WebhookDeliveryRow,
    WebhookWork,
    decision_work,
    start_approval_webhook,
    webhook_views_where,
)

__all__ = [
    "ApprovalWebhookAttemptRow",
    "ApprovalWebhookRow",
    "WebhookAttemptRow",
    "WebhookDeliveryRow",
    "WebhookStore",
    "WebhookWork",
    "start_approval_webhook",
]

_d = WebhookDeliveryRow.__table__  # type: ignore[attr-defined]
_ad = ApprovalWebhookRow.__table__  # type: ignore[attr-defined]

_DECIDED_ROUND = (
    select(_r.c.submission_id, _r.c.task_id, _r.c.callback_url, _t.c.callback_url)
    .join(_t, _t.c.id == _r.c.task_id)
    .where(_r.c.id == bindparam("round_id"), exists().where(_dec.c.round_id == _r.c.id))
)
"""A decided round's submission, task and callback URLs (its own, its task's), by ``round_id``:
built once, its compiled form cached (it runs after every decision a worker stores)."""
_PENDING = WebhookStatus.PENDING.value
_ERROR_MAX_CHARS = 500


def deliveries_of_tasks(task_ids: list[str]) -> Callable[[Any], Any]:
    """The condition selecting the webhook deliveries of ``task_ids`` (for batched reads)."""
    return lambda table: table.c.task_id.in_(task_ids)


class WebhookStore(StoreBase):
    """Webhook deliveries and attempts (a part of ``Repository``)."""

    def start_webhook(self, round_id: int) -> bool:
        """Store the decided round's delivery when it has a callback URL; True when this call did.

        The submission's URL wins over the task's. The caller that gets True enqueues the
        delivery job; False: no callback, not decided, or stored before (by whoever enqueued).
        """
        with self.engine.connect() as conn:  # most rounds have no callback: a read, no more
            row = conn.execute(_DECIDED_ROUND, {"round_id": round_id}).first()
        if row is None or not (row[2] or row[3]):
            return False
        with self.engine.begin() as conn:
            now = utcnow()
            insert = dialect_insert(self.engine.dialect.name)
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
        self,
        touched_before: datetime,
        now: datetime | None = None,
        limit: int = 500,
        *,
        event: str = DECISION_EVENT,
    ) -> list[int]:
        """Rounds whose pending delivery nobody enqueued or tried since ``touched_before``.

        A delivery whose attempt holds its lease at ``now`` (UTC; now when None) is not stale.
        ``event``: the decisions' deliveries (``qgs.decision``) or the approvals'.
        """
        d = TABLES[event][0]
        now = now or utcnow()
        query = (
            select(d.c.round_id)
            .where(d.c.status == _PENDING, d.c.touched_at < touched_before)
            .where(or_(d.c.lease_until.is_(None), d.c.lease_until < now))
            .order_by(d.c.id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [int(i) for i in conn.scalars(query)]

    def touch_webhook(
        self,
        round_id: int,
        touched_before: datetime,
        now: datetime | None = None,
        *,
        event: str = DECISION_EVENT,
    ) -> bool:
        """Mark a stale pending delivery enqueued again at ``now`` (counted); True for one caller."""
        d = TABLES[event][0]
        with self.engine.begin() as conn:
            result = conn.execute(
                update(d)
                .where(
                    d.c.round_id == round_id,
                    d.c.status == _PENDING,
                    d.c.touched_at < touched_before,
                )
                .values(touched_at=now or utcnow(), sweeps=d.c.sweeps + 1)
            )
        return bool(result.rowcount)

    def fresh_approval_webhook(self, task_id: str, round_number: int) -> int | None:
        """The round id of the round's approval webhook when it is pending and never tried.

        What the approving caller enqueues (``Client.approve``); a second enqueue finds the
        delivery held or done and sends nothing.
        """
        query = (
            select(_ad.c.round_id)
            .join(_r, _r.c.id == _ad.c.round_id)
            .where(_r.c.task_id == task_id, _r.c.number == round_number)
            .where(_ad.c.status == _PENDING, _ad.c.attempts == 0, _ad.c.lease_holder.is_(None))
        )
        with self.engine.connect() as conn:
            found = conn.scalar(query)
        return int(found) if found is not None else None

    def claim_webhook(
        self, round_id: int, holder: str, ttl_s: float, *, event: str = DECISION_EVENT
    ) -> WebhookWork | None:
        """Hold the round's pending delivery of ``event`` for one attempt of ``ttl_s`` seconds.

        Returns:
            What the attempt sends; None when the delivery is delivered, failed, missing, or
            another attempt holds it.
        """
        d = TABLES[event][0]
        now = utcnow()
        with self.engine.begin() as conn:
            taken = conn.execute(
                update(d)
                .where(d.c.round_id == round_id, d.c.status == _PENDING)
                .where(
                    or_(
                        d.c.lease_until.is_(None),
                        d.c.lease_until < now,
                        d.c.lease_holder == holder,
                    )
                )
                .values(
                    lease_holder=holder, lease_until=now + timedelta(seconds=ttl_s), lease_at=now
                )
            )
            if not taken.rowcount:
                return None
            if event == APPROVAL_EVENT:
                row = conn.execute(
                    select(_ad, _r.c.number)
                    .join(_r, _r.c.id == _ad.c.round_id)
                    .where(_ad.c.round_id == round_id)
                ).one()
                body = row.body.encode()
            else:
                row, body = decision_work(conn, round_id)
        return WebhookWork(
            delivery_id=row.id,
            round_id=round_id,
            task_id=row.task_id,
            submission_id=row.submission_id,
            round_number=row.number,
            url=row.url,
            idempotency_key=row.idempotency_key,
            attempts=row.attempts,
            body=body,
            event=event,
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
        d, at = TABLES[work.event]
        number = work.attempts + 1
        now = utcnow()
        short = error[:_ERROR_MAX_CHARS] if error else None
        why = (final_error or short or "")[:_ERROR_MAX_CHARS] or None
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(d)
                .where(
                    d.c.id == work.delivery_id,
                    d.c.status == _PENDING,
                    d.c.attempts == work.attempts,
                    d.c.lease_holder == holder,
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
                    lease_at=None,
                )
            )
            if not moved.rowcount:
                return False
            conn.execute(
                at.insert(),
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

    def release_webhook(self, round_id: int, holder: str, *, event: str = DECISION_EVENT) -> None:
        """End an attempt that stored nothing (its lease only)."""
        d = TABLES[event][0]
        with self.engine.begin() as conn:
            conn.execute(
                update(d)
                .where(d.c.round_id == round_id, d.c.lease_holder == holder)
                .values(lease_holder=None, lease_until=None, lease_at=None)
            )

    def webhook_views(self, task_id: str) -> list[WebhookView]:
        """Every webhook of the task's rounds, by round number (what ``qgs status`` shows).

        A round's decision webhook comes before its approval's.
        """
        return self._views(lambda d: d.c.task_id == task_id)

    def webhook_view(self, submission_id: str, event: str = DECISION_EVENT) -> WebhookView | None:
        """The ``event`` webhook of a submission's round, or None (no callback, or not yet)."""
        found = self._views(lambda d: d.c.submission_id == submission_id)
        return next((v for v in found if v.event == event), None)

    def _views(self, where: Callable[[Any], Any]) -> list[WebhookView]:
        with self.engine.connect() as conn:
            return webhook_views_where(conn, where)
