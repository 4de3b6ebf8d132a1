"""The spot-check queue, its labels and the shadow changes (a part of ``Repository``).

Every write is idempotent: a decided round is queued by an insert that ignores a conflict on
``(round_id, decision_id)`` (the decided listener runs at least once), and a label by an insert
whose conflict on ``(spot_check_id, person)`` is a ``LabelExistsError`` naming the first label,
which stays. The tables are ``spot_check_rows``'; the values read are ``core.spotcheck``'s.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col

from qgs_worker.core.spotcheck import (
    LabelRecord,
    SamplePolicy,
    Shadow,
    ShadowChange,
    ShadowPolicy,
    current_shadow,
    sampled,
)
from qgs_worker.errors import (
    LabelExistsError,
    NotSampledError,
    RoundRedecidedError,
    TaskNotFoundError,
)
from qgs_worker.store.base import StoreBase, as_utc, clean_row, dialect_insert
from qgs_worker.store.spotcheck_rows import ShadowChangeRow, SpotCheckLabelRow, SpotCheckRow
from qgs_worker.store.tables import DecisionRow, FindingRow, ReviewRow, RoundRow, TaskRow

__all__ = ["DecidedRound", "ShadowReader", "SpotCheckItem", "SpotCheckStore"]

Owners = Sequence[str | None] | None
"""Whose tasks a read covers: these principals' (None among them: tasks of no principal), or
every task when the whole value is None (the command line and the reports on their store)."""


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


_sc = SpotCheckRow.__table__  # type: ignore[attr-defined]
_lb = SpotCheckLabelRow.__table__  # type: ignore[attr-defined]
_r = RoundRow.__table__  # type: ignore[attr-defined]
_t = TaskRow.__table__  # type: ignore[attr-defined]
_d = DecisionRow.__table__  # type: ignore[attr-defined]
_rv = ReviewRow.__table__  # type: ignore[attr-defined]
_f = FindingRow.__table__  # type: ignore[attr-defined]

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


def _owned(statement: Any, owners: Owners) -> Any:
    if owners is None:
        return statement
    named = [o for o in owners if o is not None]
    cond = _t.c.principal.in_(named)
    if None in owners:
        cond = cond | _t.c.principal.is_(None)
    return statement.where(cond)


class SpotCheckStore(StoreBase):
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
        decided listener may call it again for the same round, and nothing is added twice.
        """
        if policy.off:
            return False
        found = self.decided_round(round_id)
        if found is None or not sampled(
            found.submission_id, found.task_type, found.decision, policy
        ):
            return False
        self._queue(found, reason="sampled")
        return True

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
        insert = dialect_insert(self.engine.dialect.name)
        with Session(self.engine) as session:
            result = session.execute(insert(_sc).on_conflict_do_nothing().values(**clean_row(row)))
            session.commit()
        return bool(result.rowcount)  # type: ignore[attr-defined]

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
            rows = session.execute(_owned(statement, owners)).all()
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
        decision_correct: bool,
        verdict: str,
        severities: Mapping[str, str],
        note: str = "",
    ) -> SpotCheckItem:
        """Store a person's label of the round's queued current decision; the item after it.

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

    def label_records(self, owners: Owners = None) -> list[LabelRecord]:
        """Every label of a decision that still stands, beside what the gate had on its round.

        Labels of a decision the round no longer has (decided again) are left out: they judge
        a decision that is gone.
        """
        current = select(_d.c.id).where(_d.c.round_id == _sc.c.round_id).scalar_subquery()
        statement = (
            select(
                _sc.c.round_id,
                _sc.c.submission_id,
                _sc.c.task_type,
                _sc.c.decision,
                _rv.c.judge,
                _rv.c.verdict,
                _rv.c.status,
                _lb.c.person,
                _lb.c.decision_correct,
                _lb.c.verdict,
                _lb.c.severities,
                _sc.c.task_id,
            )
            .select_from(
                _lb.join(_sc, _sc.c.id == _lb.c.spot_check_id)
                .join(_t, _t.c.id == _sc.c.task_id)
                .outerjoin(_rv, _rv.c.round_id == _sc.c.round_id)
            )
            .where(current == _sc.c.decision_id)
            .order_by(_lb.c.id)
        )
        with Session(self.engine) as session:
            rows = session.execute(_owned(statement, owners)).all()
            round_ids = sorted({r[0] for r in rows})
            fired: dict[int, dict[str, str]] = {i: {} for i in round_ids}
            if round_ids:
                for rid, rule, category, severity in session.execute(
                    select(_f.c.round_id, _f.c.rule, _f.c.category, _f.c.severity).where(
                        _f.c.round_id.in_(round_ids)
                    )
                ):
                    key = rule or category
                    worst = fired[rid].get(key)
                    fired[rid][key] = severity if worst is None else min(worst, severity)
        return [
            LabelRecord(
                submission_id=r[1],
                task_type=r[2],
                decision=r[3],
                judge=(r[4] or None) if r[6] == "ok" else None,
                judge_verdict=r[5] if r[6] == "ok" else None,
                fired=fired[r[0]],
                person=r[7],
                decision_correct=bool(r[8]),
                verdict=r[9],
                severities=json.loads(r[10] or "{}"),
                task_id=r[11],
            )
            for r in rows
        ]

    # -- names ----------------------------------------------------------------------------

    def round_rule_keys(self, submission_id: str) -> set[str]:
        """What the findings of a submission's round are counted under: rule ids (or categories).

        The keys ``label_records`` gives as ``fired`` (a finding's ``rule``, or its category
        when it has none: an audit role's LLM finding); empty for no such round.
        """
        statement = (
            select(_f.c.rule, _f.c.category)
            .select_from(_f.join(_r, _r.c.id == _f.c.round_id))
            .where(_r.c.submission_id == submission_id)
        )
        with Session(self.engine) as session:
            return {rule or category for rule, category in session.execute(statement)}

    def review_judges(self) -> set[str]:
        """The names of the judges whose reviews the store holds (``Review.judge``)."""
        with Session(self.engine) as session:
            found = session.execute(select(_rv.c.judge).distinct()).scalars()
            return {name for name in found if name}

    # -- shadow changes -------------------------------------------------------------------

    def shadow_changes(self) -> dict[tuple[str, str], ShadowChange]:
        """The latest stored change of each judge and rule."""
        latest = (
            select(func.max(ShadowChangeRow.id))
            .group_by(col(ShadowChangeRow.kind), col(ShadowChangeRow.name))
            .scalar_subquery()
        )
        with Session(self.engine) as session:
            rows = session.execute(
                select(ShadowChangeRow).where(col(ShadowChangeRow.id).in_(latest))
            ).scalars()
            return {
                (r.kind, r.name): ShadowChange(
                    kind=r.kind,
                    name=r.name,
                    in_shadow=r.in_shadow,
                    by=r.by,
                    automatic=r.automatic,
                    reason=r.reason,
                )
                for r in rows
            }

    def add_shadow_change(self, change: ShadowChange) -> None:
        """Store a change of a subject's shadow state (the newest row is its state)."""
        with Session(self.engine) as session:
            session.add(
                ShadowChangeRow(
                    kind=change.kind,
                    name=change.name,
                    in_shadow=change.in_shadow,
                    by=change.by,
                    automatic=change.automatic,
                    reason=change.reason,
                )
            )
            session.commit()

    def spot_check_counts(self) -> tuple[int, int]:
        """``(open, labelled)`` queue items over every task (the metrics' gauges)."""
        labelled = select(func.count()).where(_lb.c.spot_check_id == _sc.c.id).scalar_subquery()
        with Session(self.engine) as session:
            total = session.execute(select(func.count()).select_from(_sc)).scalar_one()
            done = session.execute(
                select(func.count()).select_from(_sc).where(labelled > 0)
            ).scalar_one()
        return int(total) - int(done), int(done)


def _label_dict(lb: Any) -> dict[str, Any]:
    return {
        "person": lb["person"],
        "decision_correct": bool(lb["decision_correct"]),
        "verdict": lb["verdict"],
        "severities": json.loads(lb["severities"] or "{}"),
        "note": lb["note"],
        "created_at": as_utc(lb["created_at"]).isoformat(),
    }


class ShadowReader:
    """What the gate holds back now, read from the store at most once per ``refresh_s``.

    The review service calls it before each decision (``ReviewService(shadow=...)``): the
    settings' subjects, less those that left shadow, plus what people put in (the stored
    changes). Thread-safe; a read that fails keeps the last state (and the caller logs it).

    Args:
        store: The store part with ``shadow_changes`` (a ``Repository``).
        policy: The shadow settings.
        refresh_s: How long a read is kept, in seconds.
        clock: Monotonic seconds (tests pass their own).
    """

    def __init__(
        self,
        store: SpotCheckStore,
        policy: ShadowPolicy,
        refresh_s: float,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._store = store
        self._policy = policy
        self._refresh_s = refresh_s
        self._clock = clock
        self._lock = threading.Lock()
        self._shadow = Shadow()
        self._until: float | None = None

    def __call__(self) -> Shadow:
        """The current ``Shadow`` (cached up to ``refresh_s``)."""
        now = self._clock()
        if self._until is not None and now < self._until:
            return self._shadow
        with self._lock:
            if self._until is None or self._clock() >= self._until:
                self._shadow = current_shadow(self._policy, self._store.shadow_changes())
                self._until = self._clock() + self._refresh_s
            return self._shadow
