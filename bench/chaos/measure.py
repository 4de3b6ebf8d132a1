"""The figures of a chaos run, read from the store and the loopback judge's call log.

Only columns every QGS store has are read (``round``, ``decision``, ``review``, ``audit_run``),
with plain SQL, so the harness measures any checkout, before and after a schema change.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import create_engine, text

from .judge import MARKER, Call

TERMINAL = ("decided", "failed")
"""Round statuses after which nothing more happens to a round."""
PASSING = ("pass", "pass_with_suggestions", "awaiting_approval")
"""Decisions that let a round through (a REFLECT task's pass awaits a person)."""


@dataclass(frozen=True)
class StoreState:
    """What the store says about the run's submissions.

    Attributes:
        rounds: ``submission_id -> [(round id, status, plan_critic, marker)]`` (normally one).
        decisions: ``round id -> [decision kind]`` (normally one).
        reviews: ``round id -> [review status]`` (at most one).
        audit_dupes: (round id, role) pairs with more than one audit run.
    """

    rounds: Mapping[str, list[tuple[int, str, bool, str]]]
    decisions: Mapping[int, list[str]]
    reviews: Mapping[int, list[str]]
    audit_dupes: int


def read_store(url: str) -> StoreState:
    """Read the run's rows (the database holds nothing else)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rounds: defaultdict[str, list[tuple[int, str, bool, str]]] = defaultdict(list)
            for rid, sub, status, critic, content in conn.execute(
                text("SELECT id, submission_id, status, plan_critic, content FROM round")
            ):
                found = MARKER.search(content or "")
                rounds[sub].append((rid, status, bool(critic), found.group(1) if found else ""))
            decisions: defaultdict[int, list[str]] = defaultdict(list)
            for rid, kind in conn.execute(text("SELECT round_id, kind FROM decision")):
                decisions[rid].append(kind)
            reviews: defaultdict[int, list[str]] = defaultdict(list)
            for rid, status in conn.execute(text("SELECT round_id, status FROM review")):
                reviews[rid].append(status)
            audit_dupes = conn.execute(
                text(
                    "SELECT count(*) FROM (SELECT round_id, role FROM audit_run "
                    "GROUP BY round_id, role HAVING count(*) > 1) AS d"
                )
            ).scalar_one()
    finally:
        engine.dispose()
    return StoreState(rounds, decisions, reviews, int(audit_dupes))


def undecided(state: StoreState, accepted: Iterable[str]) -> int:
    """Submissions not settled: accepted without a decision, or with a non-terminal round."""
    open_ = {
        s for s in accepted if not any(state.decisions.get(r[0]) for r in state.rounds.get(s, []))
    }
    open_ |= {s for s, rows in state.rounds.items() if any(r[1] not in TERMINAL for r in rows)}
    return len(open_)


def store_figures(
    state: StoreState, accepted: Mapping[str, int], judge: list[Call]
) -> dict[str, Any]:
    """Submitted, decided exactly once, lost, duplicated, stuck and failures passed.

    Args:
        state: From :func:`read_store` once the run settled (or gave up).
        accepted: ``submission_id -> round index`` of every submission ``submit`` accepted.
        judge: The loopback judge's call log.
    """
    ok_served = {c.marker for c in judge if c.key == "review" and c.outcome == "ok"}
    exactly_once = no_round = no_decision = 0
    lost: list[str] = []
    for sub in accepted:
        rows = state.rounds.get(sub, [])
        kinds = [k for r in rows for k in state.decisions.get(r[0], [])]
        if len(rows) == 1 and len(kinds) == 1:
            exactly_once += 1
        if not rows:
            no_round += 1
            lost.append(f"{accepted[sub]:06d} {sub} (no round)")
        elif not kinds:
            no_decision += 1
            lost.append(f"{accepted[sub]:06d} {sub} (round {rows[0][1]}, no decision)")
    dup_rounds = sum(1 for rows in state.rounds.values() if len(rows) > 1)
    dup_decisions = sum(1 for kinds in state.decisions.values() if len(kinds) > 1)
    dup_reviews = sum(1 for statuses in state.reviews.values() if len(statuses) > 1)
    stuck = Counter(r[1] for rows in state.rounds.values() for r in rows if r[1] not in TERMINAL)
    failures_passed: list[str] = []
    for rows in state.rounds.values():
        for rid, _status, critic, marker in rows:
            if not critic or not any(k in PASSING for k in state.decisions.get(rid, [])):
                continue
            reviewed_ok = "ok" in state.reviews.get(rid, [])
            if not reviewed_ok or marker not in ok_served:
                failures_passed.append(marker)
    return {
        "submitted": len(accepted),
        "decided_exactly_once": exactly_once,
        "lost": no_round + no_decision,
        "lost_no_round": no_round,
        "lost_no_decision": no_decision,
        "lost_submissions": sorted(lost)[:50],
        "duplicated": dup_rounds + dup_decisions + dup_reviews + state.audit_dupes,
        "duplicated_rounds": dup_rounds,
        "duplicated_decisions": dup_decisions,
        "duplicated_reviews": dup_reviews,
        "duplicated_audit_runs": state.audit_dupes,
        "stuck": sum(stuck.values()),
        "stuck_by_status": dict(stuck),
        "judge_failures_passed": len(failures_passed),
        "judge_failures_passed_rounds": failures_passed[:50],
        "rounds_with_review": sum(1 for v in state.reviews.values() if v),
        "reviews_failed": sum(1 for v in state.reviews.values() if "failed" in v),
        "decisions": dict(Counter(k for v in state.decisions.values() for k in v)),
    }


def judge_figures(
    calls: list[Call], faults: list[tuple[float, float, str]], timeout_s: float
) -> dict[str, Any]:
    """Judge calls per review attempt, and calls that repeat work already answered.

    An *attempt* is a call that is not a repair, with the repairs that follow it. A call is a
    *duplicate* when an earlier call of the same round and key is still in flight (a hang
    counts as in flight for the judge's timeout), or already got a good answer (the review
    should be stored by then). A duplicate is *explained* when a fault (a worker kill or the
    Redis restart) fell between the earlier call and it: the worker holding the answer died.

    Args:
        calls: The loopback judge's log.
        faults: ``(start_s, end_s, what)`` of every fault, on the same clock as the calls.
        timeout_s: The judge's timeout, in seconds.
    """
    groups: defaultdict[tuple[str, str], list[Call]] = defaultdict(list)
    for c in calls:
        groups[(c.marker, c.key)].append(c)
    per_attempt: list[int] = []
    duplicates: list[dict[str, Any]] = []
    explained = 0
    for (marker, key), group in groups.items():
        group.sort(key=lambda c: c.started_s)
        for i, c in enumerate(group):
            if c.repair:
                if per_attempt:
                    per_attempt[-1] += 1
                continue
            per_attempt.append(1)
            for e in group[:i]:
                end = min(e.ended_s, e.started_s + timeout_s)
                in_flight = e.started_s <= c.started_s < end
                answered = e.outcome == "ok" and e.ended_s <= c.started_s
                if in_flight or answered:
                    why = [f[2] for f in faults if f[0] <= c.started_s and f[1] >= e.started_s]
                    explained += bool(why)
                    duplicates.append(
                        {"marker": marker, "key": key, "after_s": round(c.started_s - e.started_s, 2),
                         "in_flight": in_flight, "faults": why}
                    )  # fmt: skip
                    break
    n = len(per_attempt)
    return {
        "judge_calls": len(calls),
        "judge_calls_failed": sum(1 for c in calls if c.outcome != "ok"),
        "judge_failures_by_kind": dict(Counter(c.outcome for c in calls if c.outcome != "ok")),
        "review_attempts": n,
        "calls_per_attempt_max": max(per_attempt, default=0),
        "calls_per_attempt_mean": round(sum(per_attempt) / n, 3) if n else 0.0,
        "duplicate_judge_calls": len(duplicates) - explained,
        "duplicate_judge_calls_after_fault": explained,
        "duplicate_examples": duplicates[:20],
    }
