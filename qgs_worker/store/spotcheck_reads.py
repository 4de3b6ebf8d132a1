"""The spot-check store's reads: labels beside the gate's calls, names, the queue's counts.

A part of ``SpotCheckStore`` (and so of ``Repository``); the writes are ``store.spotchecks``'.
The values read are ``core.spotcheck``'s.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import false, func, select, true
from sqlmodel import Session

from qgs_worker.core.spotcheck import LabelRecord
from qgs_worker.store.base import StoreBase
from qgs_worker.store.key_rows import ApiKeyRow
from qgs_worker.store.spotcheck_rows import SpotCheckLabelRow, SpotCheckRow
from qgs_worker.store.tables import DecisionRow, FindingRow, ReviewRow, RoundRow, TaskRow

__all__ = ["Owners", "SpotCheckReads", "owned"]

Owners = Sequence[str | None] | None
"""Whose tasks a read covers: these principals' (None among them: tasks of no principal), or
every task when the whole value is None (the command line and the reports on their store)."""


_sc = SpotCheckRow.__table__  # type: ignore[attr-defined]
_lb = SpotCheckLabelRow.__table__  # type: ignore[attr-defined]
_r = RoundRow.__table__  # type: ignore[attr-defined]
_t = TaskRow.__table__  # type: ignore[attr-defined]
_d = DecisionRow.__table__  # type: ignore[attr-defined]
_rv = ReviewRow.__table__  # type: ignore[attr-defined]
_f = FindingRow.__table__  # type: ignore[attr-defined]
_ak = ApiKeyRow.__table__  # type: ignore[attr-defined]


def owned(statement: Any, owners: Owners) -> Any:
    """``statement`` limited to the tasks of ``owners`` (see ``Owners``; it joins ``task``)."""
    if owners is None:
        return statement
    named = [o for o in owners if o is not None]
    cond = _t.c.principal.in_(named)
    if None in owners:
        cond = cond | _t.c.principal.is_(None)
    return statement.where(cond)


class SpotCheckReads(StoreBase):
    """Labels with the gate's calls beside them, the names they may use, the queue's counts."""

    def label_records(
        self, owners: Owners = None, *, people_only: bool = False
    ) -> list[LabelRecord]:
        """Every label of a decision that still stands, beside what the gate had on its round.

        Labels of a decision the round no longer has (decided again) are left out: they judge
        a decision that is gone.

        Args:
            owners: Whose tasks' labels (see ``Owners``).
            people_only: Only labels a person recorded (``LabelRecord.by_person``), not an
                agent's key labelling its own round: the figures that move shadow states.
        """
        by_person = func.coalesce(_lb.c.by_person, _ak.c.operator, false())
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
                by_person,
            )
            .select_from(
                _lb.join(_sc, _sc.c.id == _lb.c.spot_check_id)
                .join(_t, _t.c.id == _sc.c.task_id)
                .outerjoin(_rv, _rv.c.round_id == _sc.c.round_id)
                .outerjoin(_ak, _ak.c.key_id == _lb.c.key_id)
            )
            .where(current == _sc.c.decision_id)
            .order_by(_lb.c.id)
        )
        if people_only:
            statement = statement.where(by_person == true())
        with Session(self.engine) as session:
            rows = session.execute(owned(statement, owners)).all()
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
                by_person=bool(r[12]),
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

    def spot_check_counts(self) -> tuple[int, int]:
        """``(open, labelled)`` queue items over every task (the metrics' gauges)."""
        labelled = select(func.count()).where(_lb.c.spot_check_id == _sc.c.id).scalar_subquery()
        with Session(self.engine) as session:
            total = session.execute(select(func.count()).select_from(_sc)).scalar_one()
            done = session.execute(
                select(func.count()).select_from(_sc).where(labelled > 0)
            ).scalar_one()
        return int(total) - int(done), int(done)
