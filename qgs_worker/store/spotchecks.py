"""The spot-check queue and its labels (a part of ``Repository``), with its reads and shadow changes.

Every write is idempotent: a decided round is queued by an insert that ignores a conflict on
``(round_id, decision_id)`` (the decided listener runs at least once), and a label by an insert
whose conflict on ``(spot_check_id, person)`` is a ``LabelExistsError`` naming the first label,
which stays. Each sampling decision (queued or not) is recorded by decision
(``spot_check_sampling``), in the transaction that queues it: the sweeper samples the decided
rounds that have none (their listener was lost), and a second pass changes nothing. The tables
are ``spot_check_rows``'; the reads ``spotcheck_reads``'; the shadow changes ``shadow_changes``'.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from qgs_worker.core.spotcheck import SamplePolicy, sampled
from qgs_worker.errors import (
    LabelExistsError,
    NotSampledError,
    RoundRedecidedError,
    TaskNotFoundError,
)
from qgs_worker.store.base import as_utc, clean_row, dialect_insert
from qgs_worker.store.shadow_changes import ShadowStore
from qgs_worker.store.spotcheck_reads import Owners, SpotCheckReads, _d, _lb, _r, _sc, _t, owned
from qgs_worker.store.spotcheck_rows import SpotCheckSamplingRow

__all__ = ["DecidedRound", "SpotCheckItem", "SpotCheckStore"]

_sp = SpotCheckSamplingRow.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class DecidedRound:
    """A round with its current decision, as the queue keeps it."""

    round_id: int
    submission_id: str
    task_id: str
    number: int
    task_type: str
    decision_id: int
    decision: str
    principal: str | None


@dataclass(frozen=True, slots=True)
class SpotCheckItem:
    """A queued decision, with its labels and whether it still stands.

    Attributes:
        id: The queue item's id.
        submission_id, task_id, round_number, task_type: The round.
        decision: The decision kind it was queued with.
        reason: ``sampled`` (the settings) or ``asked`` (a person, ``asked_by``).
        stale: The round was decided again since: this decision no longer stands.
        labels: The labels given, oldest first (person, decision_correct, verdict, severities,
            note, created_at).
    """

    id: int
    submission_id: str
    task_id: str
    round_number: int
    task_type: str
    decision: str
    reason: str
    asked_by: str | None
    note: str
    created_at: datetime
    stale: bool
    labels: tuple[dict[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The item as JSON-ready data (the API's and the report's shape)."""
        return {
            "id": self.id,
            "submission_id": self.submission_id,
            "task_id": self.task_id,
            "round_number": self.round_number,
            "task_type": self.task_type,
            "decision": self.decision,
            "reason": self.reason,
            "asked_by": self.asked_by,
            "note": self.note,
            "created_at": self.created_at.isoformat(),
            "stale": self.stale,
            "labels": [dict(label) for label in self.labels],
        }


_DECIDED = select(
    _r.c.id,
    _r.c.submission_id,
    _r.c.task_id,
    _r.c.number,
    _t.c.task_type,
    _d.c.id,
    _d.c.kind,
    _t.c.principal,
).select_from(_r.join(_t, _t.c.id == _r.c.task_id).join(_d, _d.c.round_id == _r.c.id))


class SpotCheckStore(SpotCheckReads, ShadowStore):
    """The spot-check queue, labels and shadow changes."""

    # -- the queue ------------------------------------------------------------------------

    def decided_round(self, round_id: int) -> DecidedRound | None:
        """The round with its current decision (None: no such round, or not decided)."""
        with Session(self.engine) as session:
            row = session.execute(_DECIDED.where(_r.c.id == round_id)).first()
        return None if row is None else DecidedRound(*row)

    def decided_round_of(self, submission_id: str) -> DecidedRound | None:
        """The round of a submission with its current decision (None: none, or not decided)."""
        with Session(self.engine) as session:
            row = session.execute(_DECIDED.where(_r.c.submission_id == submission_id)).first()
        return None if row is None else DecidedRound(*row)

    def sample_decided(self, round_id: int, policy: SamplePolicy) -> bool:
        """Queue the decided round when the settings sample it; True when it is (now) queued.

        Deterministic (``core.spotcheck.sampled`` on the submission id) and idempotent: the
        decided listener may call it again for the same round, and the sweeper for a round
        whose listener was lost (``backfill_samples``); nothing is added twice. The sampling
        decision (queued or not) is recorded with the queue's row, in one transaction.
        """
        if policy.off:
            return False
        found = self.decided_round(round_id)
        if found is None:
            return False
        due = sampled(found.submission_id, found.task_type, found.decision, policy)
        insert = dialect_insert(self.engine.dialect.name)
        with Session(self.engine) as session:
            if due:
                session.execute(_queue_row(insert, found, reason="sampled"))
            session.execute(
                insert(_sp)
                .on_conflict_do_nothing()
                .values(decision_id=found.decision_id, round_id=found.round_id, sampled=due)
            )
            session.commit()
        return due

    def unsampled_rounds(self, since: datetime, limit: int = 500) -> list[int]:
        """Decided rounds whose decision (made at or after ``since``) has no sampling decision.

        The rounds a lost decided listener left (a worker killed between the decision's commit
        and its sample), oldest first, at most ``limit``.
        """
        statement = (
            select(_d.c.round_id)
            .select_from(_d.outerjoin(_sp, _sp.c.decision_id == _d.c.id))
            .where(_sp.c.decision_id.is_(None), _d.c.created_at >= since)
            .order_by(_d.c.id)
            .limit(limit)
        )
        with Session(self.engine) as session:
            return list(session.execute(statement).scalars())

    def backfill_samples(
        self, policy: SamplePolicy, since: datetime, limit: int = 500
    ) -> tuple[list[int], list[int]]:
        """Sample the decided rounds since ``since`` that have no sampling decision (the sweeper).

        Returns:
            ``(checked, queued)``: the rounds given their sampling decision now, and those of
            them the settings sample (now in the queue). Both empty when ``policy`` is off.
        """
        if policy.off:
            return [], []
        checked = self.unsampled_rounds(since, limit)
        return checked, [r for r in checked if self.sample_decided(r, policy)]

    def ask_spot_check(
        self, submission_id: str, *, by: str, note: str = ""
    ) -> tuple[SpotCheckItem, bool]:
        """Queue a round's current decision because a person asks; ``(item, created)``.

        Asking for a decision already queued (sampled, or asked before) returns its item.

        Raises:
            TaskNotFoundError: no such submission, or its round is not decided yet.
        """
        found = self.decided_round_of(submission_id)
        if found is None:
            raise TaskNotFoundError(
                f"'submission_id' {submission_id!r} has no decided round: wait for its decision "
                "(GET /v1/submissions/{id}/decision), then ask for a spot-check"
            )
        created = self._queue(found, reason="asked", asked_by=by, note=note)
        item = self._items(_sc.c.round_id == found.round_id, _sc.c.decision_id == found.decision_id)
        return item[0], created

    def _queue(
        self, found: DecidedRound, *, reason: str, asked_by: str | None = None, note: str = ""
    ) -> bool:
        insert = dialect_insert(self.engine.dialect.name)
        with Session(self.engine) as session:
            # RETURNING, not rowcount: psycopg's rowcount after the commit is -1 (truthy), so a
            # round asked for twice read as queued twice on PostgreSQL.
            made = session.execute(
                _queue_row(insert, found, reason=reason, asked_by=asked_by, note=note).returning(
                    _sc.c.id
                )
            ).first()
            session.commit()
        return made is not None

    def spot_checks(
        self,
        owners: Owners,
        *,
        status: str = "open",
        task_type: str | None = None,
        decision: str | None = None,
        submission_id: str | None = None,
        limit: int = 100,
    ) -> list[SpotCheckItem]:
        """Queued decisions, oldest first, with their labels.

        Args:
            owners: Whose tasks (see ``Owners``).
            status: ``open`` (no label yet, still standing), ``labelled`` (one or more labels),
                ``stale`` (decided again since), or ``all``.
            task_type: Only this type's (a ``TaskType`` text).
            decision: Only decisions of this kind (a ``DecisionKind`` text).
            submission_id: Only this round's.
            limit: At most this many.
        """
        conds: list[Any] = []
        if task_type is not None:
            conds.append(_sc.c.task_type == task_type)
        if decision is not None:
            conds.append(_sc.c.decision == decision)
        if submission_id is not None:
            conds.append(_sc.c.submission_id == submission_id)
        labelled = select(func.count()).where(_lb.c.spot_check_id == _sc.c.id).scalar_subquery()
        current = select(_d.c.id).where(_d.c.round_id == _sc.c.round_id).scalar_subquery()
        standing = current == _sc.c.decision_id
        if status == "open":
            conds += [labelled == 0, standing]
        elif status == "labelled":
            conds.append(labelled > 0)
        elif status == "stale":
            conds.append(~standing | current.is_(None))
        return self._items(*conds, owners=owners, limit=limit)

    def _items(self, *conds: Any, owners: Owners = None, limit: int = 1000) -> list[SpotCheckItem]:
        current = select(_d.c.id).where(_d.c.round_id == _sc.c.round_id).scalar_subquery()
        statement = (
            select(
                _sc.c.id,
                _sc.c.submission_id,
                _sc.c.task_id,
                _r.c.number,
                _sc.c.task_type,
                _sc.c.decision,
                _sc.c.reason,
                _sc.c.asked_by,
                _sc.c.note,
                _sc.c.created_at,
                current.label("current"),
                _sc.c.decision_id,
            )
            .select_from(_sc.join(_r, _r.c.id == _sc.c.round_id).join(_t, _t.c.id == _sc.c.task_id))
            .where(*conds)
            .order_by(_sc.c.id)
            .limit(limit)
        )
        with Session(self.engine) as session:
            rows = session.execute(owned(statement, owners)).all()
            ids = [r[0] for r in rows]
            labels: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
            if ids:
                for lb in session.execute(
                    select(_lb).where(_lb.c.spot_check_id.in_(ids)).order_by(_lb.c.id)
                ).mappings():
                    labels[lb["spot_check_id"]].append(_label_dict(lb))
        return [
            SpotCheckItem(
                id=r[0],
                submission_id=r[1],
                task_id=r[2],
                round_number=r[3],
                task_type=r[4],
                decision=r[5],
                reason=r[6],
                asked_by=r[7],
                note=r[8],
                created_at=as_utc(r[9]),
                stale=r[10] != r[11],
                labels=tuple(labels[r[0]]),
            )
            for r in rows
        ]

    # -- labels ---------------------------------------------------------------------------

    def add_label(
        self,
        submission_id: str,
        *,
        person: str,
        key_id: str | None,
        by_person: bool = True,
        decision_correct: bool,
        verdict: str,
        severities: Mapping[str, str],
        note: str = "",
    ) -> SpotCheckItem:
        """Store a person's label of the round's queued current decision; the item after it.

        ``by_person``: recorded by a person (an operator key), not an agent's key labelling its
        own round (only people's labels move shadow states: ``label_records(people_only=True)``).

        Raises:
            TaskNotFoundError: no such submission or round.
            NotSampledError: the round's current decision is not in the queue.
            RoundRedecidedError: only an earlier decision of the round is queued: it was
                decided again since (or its decision was removed and it waits for a new one).
            LabelExistsError: ``person`` labelled this decision before (that label stands).
        """
        found = self.decided_round_of(submission_id)
        items = self._items(_sc.c.submission_id == submission_id)
        if found is None and not items:
            raise TaskNotFoundError(
                f"'submission_id' {submission_id!r} has no decided round: label a round from "
                "the spot-check queue (GET /v1/spot-checks)"
            )
        item = next((i for i in items if found is not None and not i.stale), None)
        if item is None:
            if items:
                was = items[-1].decision
                now = found.decision if found is not None else "no decision yet"
                raise RoundRedecidedError(
                    f"'submission_id' {submission_id!r} was decided again after it was sampled "
                    f"(queued as {was!r}, now {now!r}), so the label would judge a decision that "
                    "is gone and nothing was stored: ask for its current decision with POST "
                    "/v1/spot-checks (MCP: request_spot_check), then label that one"
                )
            raise NotSampledError(
                f"'submission_id' {submission_id!r} is not in the spot-check queue (neither "
                "sampled nor asked for), so nothing was stored: ask for it first with POST "
                '/v1/spot-checks {"submission_id": ...} (MCP: request_spot_check), then label it'
            )
        row = {
            "spot_check_id": item.id,
            "person": person,
            "key_id": key_id,
            "by_person": by_person,
            "decision_correct": decision_correct,
            "verdict": verdict,
            "severities": json.dumps(dict(sorted(severities.items())), ensure_ascii=False),
            "note": note,
        }
        with Session(self.engine) as session:
            try:
                session.execute(_lb.insert().values(**clean_row(row)))
                session.commit()
            except IntegrityError:
                session.rollback()
                first = (
                    session.execute(
                        select(_lb).where(_lb.c.spot_check_id == item.id, _lb.c.person == person)
                    )
                    .mappings()
                    .first()
                )
                if first is None:  # not the unique key: a foreign key, say
                    raise
                when = as_utc(first["created_at"]).isoformat(timespec="seconds")
                raise LabelExistsError(
                    f"'submission_id' {submission_id!r} was labelled by {person!r} at {when} "
                    f"({first['verdict']}, decision "
                    f"{'right' if first['decision_correct'] else 'wrong'}), and a person labels "
                    "a decision once, so that label stands and nothing was stored: nothing to "
                    "resend; another person may label it too"
                ) from None
        return self._items(_sc.c.id == item.id)[0]


def _label_dict(lb: Any) -> dict[str, Any]:
    return {
        "person": lb["person"],
        "decision_correct": bool(lb["decision_correct"]),
        "verdict": lb["verdict"],
        "severities": json.loads(lb["severities"] or "{}"),
        "note": lb["note"],
        "created_at": as_utc(lb["created_at"]).isoformat(),
    }


def _queue_row(
    insert: Any, found: DecidedRound, *, reason: str, asked_by: str | None = None, note: str = ""
) -> Any:
    """The insert that queues a round's decision, a no-op when it is queued already."""
    row = {
        "round_id": found.round_id,
        "decision_id": found.decision_id,
        "submission_id": found.submission_id,
        "task_id": found.task_id,
        "task_type": found.task_type,
        "decision": found.decision,
        "reason": reason,
        "asked_by": asked_by,
        "note": note,
    }
    return insert(_sc).on_conflict_do_nothing().values(**clean_row(row))
