"""The gate's decision on a round: its review and findings, and what the task's history says.

The steps call these with what they loaded: a round's findings are read from the store only when
the load's counts say it (or an earlier round's P0) holds any.
"""

from __future__ import annotations

from collections.abc import Sequence

from qgs_worker.core import gate
from qgs_worker.core.models import (
    ROLE_FAILED,
    Decision,
    Finding,
    GatePolicy,
    Review,
    ReviewStatus,
    Severity,
    TaskHistory,
)
from qgs_worker.core.replan import LoopRound, with_rounds
from qgs_worker.core.spotcheck import Shadow
from qgs_worker.service.ports import ReviewStore
from qgs_worker.service.records import RoundRecord, TaskContext

__all__ = [
    "decision_at_intake",
    "decision_on",
    "earlier_p0_findings",
    "loop_rounds",
    "task_history",
]


def decision_on(
    store: ReviewStore,
    policy: GatePolicy,
    context: TaskContext,
    r: RoundRecord,
    review: Review | None,
    judge_error: str | None,
    shadow: Shadow | None = None,
) -> Decision:
    """The gate's decision on a stored round, its findings read when the counts say any.

    ``shadow``: the rules and judges recorded, not deciding (``core.spotcheck.Shadow``).
    """
    own: list[Finding] = []
    earlier_p0: list[Finding] = []
    if r.findings or any(e.p0_findings for e in context.before(r.number)):
        for n, f in store.findings_up_to(context.task.id, r.number):
            if n == r.number:
                own.append(f)
            elif f.severity is Severity.P0:
                earlier_p0.append(_located(n, f))
    decision = _gate(
        policy, context, r.number, r.final, review, own, earlier_p0, judge_error, shadow
    )
    if decision.replan is not None and review is not None:
        rounds = loop_rounds(store, context, r.number, review, own)
        replan = with_rounds(decision.replan, rounds, context.task.criteria)
        # The round delivered is the best so far, not always this one: its must_fix goes
        # with it (docs/concepts.md, "Decisions"), not the must_fix of the round that failed.
        delivered = next((lr for lr in rounds if lr.number == decision.best_round), None)
        must_fix = decision.must_fix
        if delivered is not None and delivered.number != r.number:
            must_fix = delivered.must_fix
        decision = decision.model_copy(update={"replan": replan, "must_fix": must_fix})
    return decision


def loop_rounds(
    store: ReviewStore, context: TaskContext, number: int, review: Review, own: Sequence[Finding]
) -> list[LoopRound]:
    """The task's reviewed rounds up to ``number``, as the replan reads them (``LoopRound``).

    Read only for a ``force_deliver``: the earlier good reviews one by one (``load_review``),
    their rounds' findings in one read when any round holds some. ``must_fix`` is what the
    agent was told after each round: the review's items and the round's core-function (P1)
    finding titles, as the gate merges them.
    """
    earlier: list[tuple[RoundRecord, int]] = []
    for r in context.before(number):
        if r.review_status == ReviewStatus.OK and r.review_id is not None:
            earlier.append((r, r.review_id))
    p1: dict[int, list[str]] = {number: _p1_titles(own)}
    if any(r.findings for r, _ in earlier):
        for n, f in store.findings_up_to(context.task.id, number - 1):
            if f.round_number is None:
                p1.setdefault(n, []).extend(_p1_titles([f]))
    rounds = []
    for r, review_id in earlier:
        _, stored = store.load_review(review_id)
        rounds.append(_loop_round(r.number, stored, p1.get(r.number, [])))
    rounds.append(_loop_round(number, review, p1[number]))
    return rounds


def _loop_round(number: int, review: Review, p1: Sequence[str]) -> LoopRound:
    return LoopRound(
        number=number,
        score=review.score,
        dimensions=review.dimensions,
        must_fix=tuple(dict.fromkeys((*review.must_fix, *p1))),
        verdict=review.verdict,
    )


def _p1_titles(findings: Sequence[Finding]) -> list[str]:
    return [f.title for f in findings if f.severity is Severity.P1 and f.category != ROLE_FAILED]


def decision_at_intake(
    store: ReviewStore,
    policy: GatePolicy,
    context: TaskContext,
    number: int,
    final: bool,
    own: Sequence[Finding],
    shadow: Shadow | None = None,
) -> Decision:
    """The decision on a round nothing is due on, from its fresh detector findings."""
    earlier_p0 = earlier_p0_findings(store, context, number)
    return _gate(policy, context, number, final, None, own, earlier_p0, None, shadow)


def earlier_p0_findings(store: ReviewStore, context: TaskContext, number: int) -> list[Finding]:
    """The P0 findings of rounds 1..number-1 (read only when the load's counts say any)."""
    if not any(e.p0_findings for e in context.before(number)):
        return []
    return [
        _located(n, f)
        for n, f in store.findings_up_to(context.task.id, number - 1)
        if f.severity is Severity.P0
    ]


def _gate(
    policy: GatePolicy,
    context: TaskContext,
    number: int,
    final: bool,
    review: Review | None,
    own: Sequence[Finding],
    earlier_p0: Sequence[Finding],
    judge_error: str | None,
    shadow: Shadow | None = None,
) -> Decision:
    """Call the core gate with the round's review and findings and the task's history."""
    return gate.decide_gate(
        review,
        round_number=number,
        complexity=context.task.complexity,
        final=final,
        history=task_history(context, number, earlier_p0),
        findings=own,
        policy=policy,
        judge_error=judge_error,
        task_type=context.task.task_type,
        shadow=shadow,
    )


def _located(number: int, f: Finding) -> Finding:
    """An earlier round's finding, with the round it is about (``Finding.round_number``)."""
    return f.model_copy(update={"round_number": f.round_number or number})


def task_history(context: TaskContext, number: int, p0: Sequence[Finding]) -> TaskHistory:
    """What the gate must know of the task's rounds before round ``number`` (``TaskHistory``).

    ``p0`` are the earlier rounds' P0 findings (each with its ``round_number``); the scores are the
    earlier rounds' good reviews; the rejection is a person's rejection of an earlier round.
    """
    earlier = context.before(number)
    scores = tuple(
        (r.number, r.review_score)
        for r in earlier
        if r.review_status == ReviewStatus.OK and r.review_score is not None
    )
    rejection = next(
        (
            gate.rejection_reason(r.approval.by, r.number, r.approval.note)
            for r in earlier
            if r.approval is not None and not r.approval.approved
        ),
        None,
    )
    return TaskHistory(scores=scores, p0_findings=tuple(p0), rejection=rejection)
