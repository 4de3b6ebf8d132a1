"""Reviews (with their dimension scores), findings and decisions: each stored once per round."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlmodel import Session, col, select

from qgs_worker.core.models import (
    Decision,
    DecisionKind,
    DimensionScore,
    Finding,
    Replan,
    Review,
    ReviewStatus,
    Severity,
    TerminationReason,
    Verdict,
    with_round_field,
)
from qgs_worker.store.base import StoreBase, dumps, loads_list
from qgs_worker.store.tables import (
    DecisionRow,
    DimensionScoreRow,
    FindingRow,
    ReviewRow,
    RoundRow,
    utcnow,
)

__all__ = [
    "ReviewStore",
    "decision_values",
    "dimension_values",
    "failure_values",
    "finding_model",
    "finding_values",
    "replan_model",
    "replan_text",
    "review_of",
    "review_values",
]


def review_values(
    round_id: int, review: Review, *, review_key: str | None, reused_from: int | None
) -> dict[str, Any]:
    """The ``review`` row of a good review, as insert values."""
    return {
        "round_id": round_id,
        "status": ReviewStatus.OK.value,
        "review_key": review_key,
        "reused_from": reused_from,
        "verdict": review.verdict.value,
        "score": review.score,
        "summary": review.summary,
        "judge": review.judge,
        "must_fix": dumps(review.must_fix),
        "warnings": dumps(review.warnings),
        "latency_ms": review.latency_ms,
        "prompt_tokens": review.prompt_tokens,
        "completion_tokens": review.completion_tokens,
        "raw": None,
        "error": None,
        "created_at": utcnow(),
    }


def review_of(row: Any, dims: Sequence[Any]) -> Review:
    """A stored good review (a ``ReviewRow`` or a result row) and its dimension rows as a Review."""
    return Review(
        verdict=Verdict(row.verdict or Verdict.FAIL),
        score=row.score or 0,
        dimensions=tuple(
            DimensionScore(name=d.name, score=d.score, issues=tuple(loads_list(d.issues)))
            for d in dims
        ),
        must_fix=tuple(loads_list(row.must_fix)),
        summary=row.summary,
        judge=row.judge,
        warnings=tuple(loads_list(row.warnings)),
        latency_ms=row.latency_ms,
        prompt_tokens=row.prompt_tokens,
        completion_tokens=row.completion_tokens,
    )


def failure_values(round_id: int, *, judge: str, error: str, raw: str | None) -> dict[str, Any]:
    """The ``review`` row recording a judge failure (never a PASS), as insert values."""
    return {
        "round_id": round_id,
        "status": ReviewStatus.FAILED.value,
        "judge": judge,
        "error": error,
        "raw": raw,
        "summary": "",
        "must_fix": "[]",
        "warnings": "[]",
        "latency_ms": 0.0,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "created_at": utcnow(),
    }


def dimension_values(review_id: int, review: Review) -> list[dict[str, Any]]:
    """The ``dimension_score`` rows of a review, as insert values."""
    return [
        {"review_id": review_id, "name": d.name, "score": d.score, "issues": dumps(d.issues)}
        for d in review.dimensions
    ]


def finding_values(round_id: int, f: Finding) -> dict[str, Any]:
    """The ``finding`` row of a finding stored on a round, as insert values."""
    return {
        "round_id": round_id,
        "fingerprint": f.fingerprint,
        "role": f.role,
        "category": f.category,
        "severity": f.severity.value,
        "title": f.title,
        "evidence": f.evidence,
        "location": f.location,
        "rule": f.rule,
        "round_number": f.round_number,
        "created_at": utcnow(),
    }


def finding_model(row: Any) -> Finding:
    """A stored finding (a ``FindingRow`` or a result row with its columns) as the core's Finding.

    A row an older QGS wrote (the round a ``round N: `` prefix of its location) is read with
    ``round_number`` N (``with_round_field``).
    """
    return with_round_field(
        Finding(
            role=row.role,
            category=row.category,
            severity=Severity(row.severity),
            title=row.title,
            evidence=row.evidence,
            location=row.location,
            rule=row.rule or "",
            round_number=row.round_number,
        )
    )


def decision_values(round_id: int, task_id: str, decision: Decision) -> dict[str, Any]:
    """The ``decision`` row of a gate decision, as insert values."""
    return {
        "round_id": round_id,
        "task_id": task_id,
        "kind": decision.kind.value,
        "reason": decision.reason,
        "termination": decision.termination.value if decision.termination else None,
        "best_round": decision.best_round,
        "must_fix": dumps(decision.must_fix),
        "suggestions": dumps(decision.suggestions),
        "risk": decision.risk,
        "created_at": utcnow(),
        "replan": replan_text(decision.replan),
    }


def replan_text(replan: Replan | None) -> str | None:
    """The ``decision.replan`` column's JSON, or None."""
    return replan.model_dump_json() if replan is not None else None


def replan_model(text: str | None) -> Replan | None:
    """A stored ``decision.replan`` read back (None for NULL: not a force_deliver, or older)."""
    return Replan.model_validate_json(text) if text else None


class ReviewStore(StoreBase):
    """Reads and idempotent writes of reviews, findings and decisions (a part of ``Repository``)."""

    # -- reviews ---------------------------------------------------------------------------

    def save_review(
        self,
        round_id: int,
        review: Review,
        *,
        review_key: str | None = None,
        reused_from: int | None = None,
    ) -> ReviewRow:
        """Store the critic's review of a round, once; return the stored one.

        ``review_key`` identifies what was judged (see ``pipeline.review_key``), so an identical
        round later reuses this review; ``reused_from`` names the round whose review this copies.
        """
        row = review_values(round_id, review, review_key=review_key, reused_from=reused_from)
        # Not expired on commit: the row read after the insert is the one returned, without a
        # second SELECT to refresh it (nothing else writes it inside this transaction).
        with Session(self.engine, expire_on_commit=False) as session:
            self._insert_ignore(session, ReviewRow, [row])
            stored = session.exec(select(ReviewRow).where(ReviewRow.round_id == round_id)).one()
            assert stored.id is not None
            self._insert_ignore(
                session,
                DimensionScoreRow,
                dimension_values(stored.id, review),
            )
            session.commit()
            return stored

    def save_review_failure(
        self, round_id: int, *, judge: str, error: str, raw: str | None = None
    ) -> ReviewRow:
        """Record that the judge could not review a round (never a PASS); return the stored row."""
        row = failure_values(round_id, judge=judge, error=error, raw=raw)
        with Session(self.engine) as session:
            self._insert_ignore(session, ReviewRow, [row])
            session.commit()
            return session.exec(select(ReviewRow).where(ReviewRow.round_id == round_id)).one()

    def find_review_by_key(self, review_key: str) -> ReviewRow | None:
        """An earlier good review of the same thing (same review key), or None."""
        with Session(self.engine) as session:
            return session.exec(
                select(ReviewRow)
                .where(ReviewRow.review_key == review_key, ReviewRow.status == "ok")
                .order_by(col(ReviewRow.id))
            ).first()

    def get_review(self, round_id: int) -> ReviewRow | None:
        """The stored review (or failure) of a round, or None."""
        with Session(self.engine) as session:
            return session.exec(select(ReviewRow).where(ReviewRow.round_id == round_id)).first()

    def review_model(self, row: ReviewRow) -> Review:
        """Turn a stored ok review back into the core's Review."""
        with Session(self.engine) as session:
            dims = session.exec(
                select(DimensionScoreRow)
                .where(DimensionScoreRow.review_id == row.id)
                .order_by(col(DimensionScoreRow.id))
            ).all()
        return review_of(row, dims)

    def task_reviews(self, task_id: str) -> list[tuple[RoundRow, ReviewRow]]:
        """Every round of the task that has a review (or failure), by round number."""
        with Session(self.engine) as session:
            pairs = session.exec(
                select(RoundRow, ReviewRow)
                .join(ReviewRow, col(ReviewRow.round_id) == col(RoundRow.id))
                .where(RoundRow.task_id == task_id)
                .order_by(col(RoundRow.number))
            ).all()
        return [(r, v) for r, v in pairs]

    def dimension_scores(self, review_id: int) -> list[DimensionScoreRow]:
        """The per-dimension scores of a review."""
        with Session(self.engine) as session:
            return list(
                session.exec(
                    select(DimensionScoreRow).where(DimensionScoreRow.review_id == review_id)
                )
            )

    # -- findings --------------------------------------------------------------------------

    def save_findings(self, round_id: int, findings: Sequence[Finding]) -> None:
        """Store a round's findings; one already stored (same fingerprint) is left alone.

        A finding about an earlier round keeps that round's number in ``round_number``.
        """
        rows = [finding_values(round_id, f) for f in findings]
        with Session(self.engine) as session:
            self._insert_ignore(session, FindingRow, rows)
            session.commit()

    def list_findings(self, round_id: int) -> list[FindingRow]:
        """A round's findings, most severe first."""
        with Session(self.engine) as session:
            rows = list(session.exec(select(FindingRow).where(FindingRow.round_id == round_id)))
        return sorted(rows, key=lambda r: (r.severity, r.id or 0))

    def findings_model(self, round_id: int) -> list[Finding]:
        """A round's findings as the core's Finding values.

        A row an older QGS wrote after the store was migrated (the round still a ``round N: ``
        prefix of its location) is read with ``round_number`` N, as a migrated row is.
        """
        return [finding_model(r) for r in self.list_findings(round_id)]

    # -- decisions -------------------------------------------------------------------------

    def save_decision(self, round_id: int, task_id: str, decision: Decision) -> DecisionRow:
        """Store the gate's decision on a round, once; return the stored one."""
        row = decision_values(round_id, task_id, decision)
        with Session(self.engine) as session:
            self._insert_ignore(session, DecisionRow, [row])
            session.commit()
            return session.exec(select(DecisionRow).where(DecisionRow.round_id == round_id)).one()

    def decision_model(self, row: DecisionRow) -> Decision:
        """Turn a stored decision back into the core's Decision."""
        return Decision(
            kind=DecisionKind(row.kind),
            reason=row.reason,
            termination=TerminationReason(row.termination) if row.termination else None,
            best_round=row.best_round,
            must_fix=tuple(loads_list(row.must_fix)),
            suggestions=tuple(loads_list(row.suggestions)),
            risk=row.risk,
            replan=replan_model(row.replan),
        )

    def get_decision(self, round_id: int) -> DecisionRow | None:
        """The decision on a round, or None while it is not made."""
        with Session(self.engine) as session:
            return session.exec(select(DecisionRow).where(DecisionRow.round_id == round_id)).first()

    def latest_decision(self, task_id: str) -> tuple[RoundRow, DecisionRow] | None:
        """The decision on the task's highest-numbered decided round, or None."""
        with Session(self.engine) as session:
            pair = session.exec(
                select(RoundRow, DecisionRow)
                .join(DecisionRow, col(DecisionRow.round_id) == col(RoundRow.id))
                .where(RoundRow.task_id == task_id)
                .order_by(col(RoundRow.number).desc())
            ).first()
        return (pair[0], pair[1]) if pair else None
