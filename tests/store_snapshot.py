"""A results store read back as plain values, by task id and round number (no ids, no times).

Two stores that went through the same reviews by two paths (a job a round, and ``qgs audit``'s
chunks) must read back equal: ``compare`` names every difference.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, select
from sqlmodel import SQLModel

from qgs_worker.store.tables import (
    AuditRunRow,
    DecisionRow,
    DimensionScoreRow,
    FindingRow,
    OutboxRow,
    ReviewRow,
    RoundRow,
    TaskRow,
)


def snapshot(store_url: str) -> dict[str, Any]:
    """Every stored result, by task id and round number (no ids, no times)."""
    engine = create_engine(store_url)
    out: dict[str, Any] = {}
    with engine.connect() as conn:
        tasks = {t.id: t for t in conn.execute(select(TaskRow.__table__))}  # type: ignore[attr-defined]
        rounds = list(conn.execute(select(RoundRow.__table__)))  # type: ignore[attr-defined]
        by_round: dict[str, dict[int, list[Any]]] = {}
        for table in (ReviewRow, FindingRow, DecisionRow, AuditRunRow):
            rows: dict[int, list[Any]] = {}
            for row in conn.execute(select(table.__table__)):  # type: ignore[attr-defined]
                rows.setdefault(row.round_id, []).append(row)
            by_round[table.__tablename__] = rows
        dims: dict[int, list[Any]] = {}
        for row in conn.execute(select(DimensionScoreRow.__table__)):  # type: ignore[attr-defined]
            dims.setdefault(row.review_id, []).append(row)
        untaken = list(
            conn.execute(select(OutboxRow.__table__).where(OutboxRow.taken_at.is_(None)))  # type: ignore[attr-defined,union-attr]
        )
    engine.dispose()
    for t in tasks.values():
        out[t.id] = {
            "class": (t.task_type, t.complexity, t.classification_source, t.confidence),
            "escalated": (bool(t.escalated), t.escalation_reason),
            "source": (t.source_file and Path(t.source_file).name, t.source_line, t.transcript_id),
            "rounds": {},
        }
    for r in rounds:
        reviews = by_round["review"].get(r.id, [])
        review = None
        if reviews:
            v = reviews[0]
            review = (
                v.status, v.verdict, v.score, v.summary, v.judge, v.must_fix, v.warnings,
                v.error, v.review_key,
                sorted((d.name, d.score, d.issues) for d in dims.get(v.id, [])),
            )  # fmt: skip
        decisions = by_round["decision"].get(r.id, [])
        out[r.task_id]["rounds"][r.number] = {
            "status": r.status,
            "error": r.error,
            "plan": (bool(r.plan_critic), bool(r.plan_discriminate), r.plan_reason),
            "hash": r.content_hash,
            "review": review,
            "findings": sorted(
                (
                    f.fingerprint,
                    f.role,
                    f.category,
                    f.severity,
                    f.title,
                    f.evidence,
                    f.location,
                    f.rule,
                    f.round_number,
                )
                for f in by_round["finding"].get(r.id, [])
            ),
            "audit_runs": sorted(
                (a.role, a.status, a.error, a.findings) for a in by_round["audit_run"].get(r.id, [])
            ),
            "decision": [
                (d.kind, d.reason, d.termination, d.best_round, d.must_fix, d.suggestions, d.risk)
                for d in decisions
            ],
        }
    # Which of two identical rounds is reviewed and which reuses that review follows the order
    # the jobs ran in (in the per-round path too), and so, with concurrent jobs, does how many
    # reuse one: the count is given apart from the rounds, for the caller to weigh.
    # (So is the round's own ``review_key`` column: intake computes it with the task's class at
    # that moment, which an earlier round's escalation may change later.)
    out["_reused"] = sum(1 for rows in by_round["review"].values() if rows[0].reused_from)
    out["_untaken_outbox"] = len(untaken)
    return out


def reset(store_url: str) -> None:
    engine = create_engine(store_url)
    SQLModel.metadata.drop_all(engine)
    engine.dispose()


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two snapshots differ, as ``path: a != b`` lines."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for key in sorted(set(a) | set(b), key=str):
            out += differences(a.get(key), b.get(key), f"{path}/{key}")
        return out
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]


def compare(per_round: dict[str, Any], chunked: dict[str, Any]) -> None:
    differ = differences(per_round, chunked)
    assert not differ, "\n".join(differ[:20])
