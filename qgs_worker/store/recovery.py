"""The store's side of "nothing lost": the outbox, leases, parked retries and dead letters.

``Repository`` inherits these methods; ``qgs_worker.queue.sweeper`` and the jobs use them. Every
change that more than one worker may try at once is a conditional UPDATE whose row count says
who won, so a second sweeper, a redelivered job or a re-published intake changes nothing twice.
Times are timezone-aware UTC; they come from the machine that writes them (keep clocks in sync).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, text, update
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session, col, select

from qgs_worker.core.models import ROUND_UNFINISHED, RoundStatus
from qgs_worker.errors import StoreError
from qgs_worker.service.records import OutboxEntry, RoundState
from qgs_worker.store.base import StoreBase, as_utc, clean_row
from qgs_worker.store.schema import redact
from qgs_worker.store.tables import DeadLetterRow, LeaseRow, OutboxRow, RoundRow, utcnow

DEAD_LETTER_HEAD_BYTES = 2048
"""How much of an unusable message's body a dead letter keeps, in bytes (its head)."""

UNFINISHED = ROUND_UNFINISHED
"""Round states that still wait for a decision."""
SETTLED = ("decided", "failed")
"""Round states that wait for nothing more (a failed round is reported, or reviewed again)."""


def _count(result: Any) -> int:
    return int(result.rowcount)


def round_state(r: RoundRow) -> RoundState:
    """A stored round's recovery columns as a ``RoundState`` (times aware UTC)."""
    return RoundState(
        id=r.id or 0,
        task_id=r.task_id,
        number=r.number,
        status=RoundStatus(r.status),
        status_at=as_utc(r.status_at) if r.status_at else None,
        retry_at=as_utc(r.retry_at) if r.retry_at else None,
        lease_until=as_utc(r.lease_until) if r.lease_until else None,
        sweeps=r.sweeps or 0,
        retry_reason=r.retry_reason,
        judge_retries=r.judge_retries or 0,
    )


class RecoveryStore(StoreBase):
    """Outbox, leases, parked retries and dead letters (a mixin of ``Repository``)."""

    @property
    def redacted_url(self) -> str:
        """The store's URL without its password, for messages."""
        return redact(self.url)

    # -- health ----------------------------------------------------------------------------

    def ping(self) -> None:
        """Run ``SELECT 1``.

        Raises:
            StoreError: the database cannot be reached (the message names QGS_DATABASE_URL).
        """
        try:
            with self.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        except SQLAlchemyError as exc:
            raise StoreError(
                f"cannot reach the store QGS_DATABASE_URL={redact(self.url)}: "
                f"{str(exc).splitlines()[0]}"
            ) from exc

    # -- outbox ----------------------------------------------------------------------------

    def add_outbox(
        self, submission_id: str, task_id: str, payload: str, *, round_number: int | None = None
    ) -> None:
        """Record a submission before its intake job is published (once per submission id).

        ``round_number`` is the number the client gave the round: the next client's submit
        counts it (``round_numbers``) while no intake has stored the round yet.
        """
        self.add_outbox_many([(submission_id, task_id, payload, round_number)])

    def add_outbox_many(self, entries: Sequence[tuple[str, str, str, int | None]]) -> None:
        """Record many submissions in one transaction, as ``add_outbox`` (``qgs audit``'s chunks).

        Each entry is ``(submission_id, task_id, payload, round_number)``.
        """
        now = utcnow()
        rows = [
            {
                "submission_id": submission_id,
                "task_id": task_id,
                "payload": payload,
                "round_number": round_number,
                "created_at": now,
                "published": 1,
                "published_at": now,
            }
            for submission_id, task_id, payload, round_number in entries
        ]
        with Session(self.engine) as session:
            self._insert_ignore(session, OutboxRow, rows)
            session.commit()

    def drop_outbox_many(self, submission_ids: Sequence[str]) -> None:
        """Forget submissions whose publish failed (``drop_outbox`` for a chunk)."""
        with Session(self.engine) as session:
            session.execute(
                delete(OutboxRow).where(
                    col(OutboxRow.submission_id).in_(list(submission_ids)),
                    col(OutboxRow.taken_at).is_(None),
                )
            )
            session.commit()

    def drop_outbox(self, submission_id: str) -> None:
        """Forget a submission whose publish failed (the caller was told it was not queued)."""
        with Session(self.engine) as session:
            session.execute(
                delete(OutboxRow).where(
                    col(OutboxRow.submission_id) == submission_id,
                    col(OutboxRow.taken_at).is_(None),
                )
            )
            session.commit()

    @staticmethod
    def take_outbox_in(session: Session, submission_id: str) -> None:
        """Mark a submission taken inside the caller's transaction (intake stored its round)."""
        session.execute(
            update(OutboxRow)
            .where(col(OutboxRow.submission_id) == submission_id, col(OutboxRow.taken_at).is_(None))
            .values(taken_at=utcnow())
        )

    def take_outbox(self, submission_id: str) -> None:
        """Mark a submission taken: its round is stored, or it failed alone with a reason."""
        with Session(self.engine) as session:
            self.take_outbox_in(session, submission_id)
            session.commit()

    def get_outbox(self, submission_id: str) -> OutboxRow | None:
        """The outbox row of a submission, or None (never sent through the outbox)."""
        with Session(self.engine) as session:
            return session.get(OutboxRow, submission_id)

    def untaken_outbox(self, published_before: datetime) -> list[OutboxEntry]:
        """Submissions no intake took, last published before ``published_before``, oldest first."""
        with Session(self.engine) as session:
            rows = list(
                session.exec(
                    select(OutboxRow)
                    .where(
                        col(OutboxRow.taken_at).is_(None),
                        col(OutboxRow.given_up).is_(None),
                        col(OutboxRow.published_at) < published_before,
                    )
                    .order_by(col(OutboxRow.created_at))
                )
            )
        return [
            OutboxEntry(
                submission_id=r.submission_id,
                task_id=r.task_id,
                payload=r.payload,
                published=r.published,
                last_published=as_utc(r.published_at or r.created_at),
            )
            for r in rows
        ]

    def count_untaken_outbox(self) -> int:
        """How many submissions wait for an intake (not taken, not given up)."""
        with Session(self.engine) as session:
            return int(
                session.exec(
                    select(func.count())
                    .select_from(OutboxRow)
                    .where(col(OutboxRow.taken_at).is_(None), col(OutboxRow.given_up).is_(None))
                ).one()
            )

    def count_untaken_outbox_of(self, task_id: str) -> int:
        """How many of a task's submissions wait for an intake."""
        with Session(self.engine) as session:
            return int(
                session.exec(
                    select(func.count())
                    .select_from(OutboxRow)
                    .where(
                        col(OutboxRow.task_id) == task_id,
                        col(OutboxRow.taken_at).is_(None),
                        col(OutboxRow.given_up).is_(None),
                    )
                ).one()
            )

    def delete_task_if_empty(self, task_id: str) -> bool:
        """Remove a task that has no round and no waiting submission (a failed first submit).

        Returns:
            True when the task was removed.
        """
        from qgs_worker.store.tables import TaskRow

        with Session(self.engine) as session:
            has_round = session.exec(
                select(RoundRow.id).where(col(RoundRow.task_id) == task_id).limit(1)
            ).first()
            if has_round is not None or self.count_untaken_outbox_of(task_id):
                return False
            result = session.execute(delete(TaskRow).where(col(TaskRow.id) == task_id))
            session.commit()
            return _count(result) == 1

    def republish_outbox(self, submission_id: str, seen_published: int) -> bool:
        """Count one more publish of an untaken submission; True for the one caller that did."""
        with Session(self.engine) as session:
            result = session.execute(
                update(OutboxRow)
                .where(
                    col(OutboxRow.submission_id) == submission_id,
                    col(OutboxRow.taken_at).is_(None),
                    col(OutboxRow.published) == seen_published,
                )
                .values(published=seen_published + 1, published_at=utcnow())
            )
            session.commit()
            return _count(result) == 1

    def give_up_outbox(self, submission_id: str, reason: str) -> None:
        """Stop publishing a submission, with the reason (it also goes to the dead letters)."""
        with Session(self.engine) as session:
            session.execute(
                update(OutboxRow)
                .where(col(OutboxRow.submission_id) == submission_id)
                .values(given_up=reason)
            )
            session.commit()

    # -- leases ----------------------------------------------------------------------------

    def take_lease(self, name: str, holder: str, ttl_s: float) -> bool:
        """Take (or renew) the lease ``name`` for ``ttl_s`` seconds; True when ``holder`` has it.

        A conditional UPDATE takes it when it is free, expired or already ``holder``'s; the
        first caller ever inserts it.
        """
        now = utcnow()
        until = now + timedelta(seconds=ttl_s)
        with Session(self.engine) as session:
            result = session.execute(
                update(LeaseRow)
                .where(
                    col(LeaseRow.name) == name,
                    or_(col(LeaseRow.expires_at) < now, col(LeaseRow.holder) == holder),
                )
                .values(holder=holder, expires_at=until)
            )
            if _count(result) == 0:
                self._insert_ignore(
                    session, LeaseRow, [{"name": name, "holder": holder, "expires_at": until}]
                )
            session.commit()
            row = session.get(LeaseRow, name)
            return row is not None and row.holder == holder

    def release_lease(self, name: str, holder: str) -> None:
        """Give a lease back (only its holder can)."""
        with Session(self.engine) as session:
            session.execute(
                delete(LeaseRow).where(col(LeaseRow.name) == name, col(LeaseRow.holder) == holder)
            )
            session.commit()

    def claim_review(self, round_id: int, holder: str, ttl_s: float) -> bool:
        """Hold the round's review attempt for ``ttl_s`` seconds; False while another holds it.

        A job redelivered while its first copy still runs finds the lease held and does not
        call the judge a second time.
        """
        now = utcnow()
        with Session(self.engine) as session:
            result = session.execute(
                update(RoundRow)
                .where(
                    col(RoundRow.id) == round_id,
                    or_(
                        col(RoundRow.lease_until).is_(None),
                        col(RoundRow.lease_until) < now,
                        col(RoundRow.lease_holder) == holder,
                    ),
                )
                .values(lease_holder=holder, lease_until=now + timedelta(seconds=ttl_s))
            )
            session.commit()
            return _count(result) == 1

    def release_review(self, round_id: int, holder: str) -> None:
        """End the round's review attempt (only its holder can)."""
        with Session(self.engine) as session:
            session.execute(
                update(RoundRow)
                .where(col(RoundRow.id) == round_id, col(RoundRow.lease_holder) == holder)
                .values(lease_holder=None, lease_until=None)
            )
            session.commit()

    # -- retries and re-dispatch -------------------------------------------------------------

    def note_judge_retry(self, round_id: int, reason: str, retry_at: datetime | None) -> int:
        """Count one transient judge failure; with ``retry_at``, park the retry until then.

        Returns:
            The round's transient judge failures so far.
        """
        with Session(self.engine) as session:
            row = session.get(RoundRow, round_id)
            if row is None:
                return 0
            row.judge_retries = (row.judge_retries or 0) + 1
            row.retry_reason = clean_row({"r": reason[:500]})["r"]
            row.retry_at = retry_at
            session.add(row)
            session.commit()
            return row.judge_retries

    def note_rate_wait(self, round_id: int, retry_at: datetime | None) -> int:
        """Count one wait for the shared rate limit (parked until ``retry_at`` when given)."""
        with Session(self.engine) as session:
            row = session.get(RoundRow, round_id)
            if row is None:
                return 0
            row.rate_waits = (row.rate_waits or 0) + 1
            row.retry_at = retry_at
            session.add(row)
            session.commit()
            return row.rate_waits

    def round_states(self, task_id: str) -> list[RoundState]:
        """Where each of the task's rounds stands, by number (empty for an unknown task)."""
        with Session(self.engine) as session:
            rows = session.exec(
                select(RoundRow).where(RoundRow.task_id == task_id).order_by(col(RoundRow.number))
            )
            return [round_state(r) for r in rows]

    def unfinished_rounds(self) -> list[RoundState]:
        """Every round still waiting for a decision (queued or dispatched), oldest first."""
        with Session(self.engine) as session:
            rows = session.exec(
                select(RoundRow)
                .where(col(RoundRow.status).in_(UNFINISHED))
                .order_by(col(RoundRow.id))
            ).all()
        return [round_state(r) for r in rows]

    def missing_round_numbers(self, task_id: str, below: int) -> list[int]:
        """Round numbers 1..below-1 of the task that no round and no submission on its way hold."""
        with Session(self.engine) as session:
            stored = set(session.exec(select(RoundRow.number).where(RoundRow.task_id == task_id)))
            sent = set(
                session.exec(
                    select(OutboxRow.round_number).where(
                        OutboxRow.task_id == task_id,
                        col(OutboxRow.taken_at).is_(None),
                        col(OutboxRow.given_up).is_(None),
                    )
                )
            )
        return [n for n in range(1, below) if n not in stored and n not in sent]

    def rounds_settled_since(self, since: datetime) -> list[tuple[str, int, datetime | None]]:
        """Rounds decided or failed at or after ``since`` (by ``status_at``): one query.

        ``qgs audit`` polls with it, whatever its batch size.

        Returns:
            ``(task_id, number, status_at)`` of each such round, in no order; ``status_at`` is
            the writing worker's clock (UTC).
        """
        with Session(self.engine) as session:
            rows = session.exec(
                select(RoundRow.task_id, RoundRow.number, RoundRow.status_at).where(
                    col(RoundRow.status).in_(SETTLED), col(RoundRow.status_at) >= since
                )
            )
            return [(task_id, number, at) for task_id, number, at in rows]

    def rounds_settled_of(self, task_ids: Sequence[str]) -> list[tuple[str, int]]:
        """The decided or failed rounds of these tasks, as ``(task_id, number)``: one query.

        Keep ``task_ids`` to a few hundred (one bound parameter each).
        """
        if not task_ids:
            return []
        with Session(self.engine) as session:
            rows = session.exec(
                select(RoundRow.task_id, RoundRow.number).where(
                    col(RoundRow.status).in_(SETTLED), col(RoundRow.task_id).in_(list(task_ids))
                )
            )
            return [(task_id, number) for task_id, number in rows]

    def redispatch_round(self, round_id: int, *, count_sweep: bool) -> bool:
        """Restart a dispatched round's clock before it is dispatched again; True for one caller.

        Args:
            round_id: The round.
            count_sweep: Count it as a re-dispatch by the sweeper (a due parked retry is not).
        """
        now = utcnow()
        values: dict[str, Any] = {"status_at": now, "retry_at": None}
        if count_sweep:
            values["sweeps"] = func.coalesce(RoundRow.sweeps, 0) + 1
        with Session(self.engine) as session:
            result = session.execute(
                update(RoundRow)
                .where(
                    col(RoundRow.id) == round_id,
                    col(RoundRow.status) == RoundStatus.DISPATCHED,
                    or_(col(RoundRow.lease_until).is_(None), col(RoundRow.lease_until) < now),
                )
                .values(**values)
            )
            session.commit()
            return _count(result) == 1

    # -- dead letters ----------------------------------------------------------------------

    def save_dead_letter(
        self,
        job: str,
        reason: str,
        raw_head: str | bytes,
        *,
        message_id: str | None = None,
        submission_id: str | None = None,
        task_id: str | None = None,
    ) -> None:
        """Keep a message that could not be decoded or validated: its reason and raw head."""
        if isinstance(raw_head, bytes):
            raw_head = raw_head[:DEAD_LETTER_HEAD_BYTES].decode("utf-8", errors="replace")
        head = raw_head[:DEAD_LETTER_HEAD_BYTES].encode("utf-8", errors="replace")
        row = clean_row(
            {
                "job": job[:128],
                "reason": reason[:2000],
                "raw_head": head[:DEAD_LETTER_HEAD_BYTES].decode("utf-8", errors="ignore"),
                "message_id": (message_id or None) and message_id[:64],
                "submission_id": (submission_id or None) and submission_id[:128],
                "task_id": (task_id or None) and task_id[:64],
                "received_at": utcnow(),
            }
        )
        with Session(self.engine) as session:
            session.add(DeadLetterRow(**row))
            session.commit()

    def list_dead_letters(
        self, *, task_id: str | None = None, limit: int = 100
    ) -> list[DeadLetterRow]:
        """The most recent dead letters (of one task when ``task_id`` is given), newest first."""
        query = select(DeadLetterRow)
        if task_id is not None:
            query = query.where(col(DeadLetterRow.task_id) == task_id)
        query = query.order_by(col(DeadLetterRow.id).desc()).limit(limit)
        with Session(self.engine) as session:
            return list(session.exec(query))
