"""The gate: one decision per round, and the rules that end the revision loop (DESIGN.md, "Gate").

The gate fails closed: a FAIL verdict or a judge failure never becomes a pass, and a P0 finding
blocks the round whatever the score. Outcomes are values (``Decision``, ``Termination``), never
exceptions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from qgs_worker.core.models import (
    REFUSAL,
    ROLE_FAILED,
    Classification,
    Complexity,
    Decision,
    DecisionKind,
    Finding,
    GatePolicy,
    Review,
    Severity,
    TaskHistory,
    TaskType,
    Termination,
    TerminationReason,
    Verdict,
    risk_of,
)
from qgs_worker.core.replan import replan_of
from qgs_worker.core.spotcheck import Shadow
from qgs_worker.errors import InputError

__all__ = [
    "APPROVAL_DECISIONS",
    "best_round",
    "decide_gate",
    "escalation",
    "needs_approval",
    "rejection_reason",
    "should_terminate",
]


def _check_score(name: str, score: int) -> None:
    if not 0 <= score <= 100:
        raise InputError(f"'{name}' must hold scores 0-100 (got {score!r})")


def _listed(scores: Sequence[int]) -> str:
    return ", ".join(str(s) for s in scores)


def should_terminate(scores: Sequence[int], policy: GatePolicy) -> Termination | None:
    """Say whether the revision loop should stop, and why.

    Rules, checked in this order (thresholds from ``policy``; defaults follow the QGS reference
    design):

    1. ``max_revisions_reached``: ``max_revisions`` revisions (default 4) were reviewed after the
       first reviewed round, i.e. ``len(scores) - 1 >= max_revisions``;
    2. ``oscillating``: the last three moves go up, down, up (or down, up, down), each by more
       than ``noise_points`` (default 2); needs 4 scores;
    3. ``converged``: the last two changes are each under ``convergence_points`` (default 5) in
       absolute value; needs 3 scores;
    4. ``diminishing_returns``: the last score is at least ``high_score`` (default 80) and the last
       change is under ``diminishing_points`` (default 3); needs 2 scores.

    Args:
        scores: Critic scores of the reviewed rounds so far, oldest first, each 0-100.
        policy: Thresholds of the termination rules.

    Returns:
        The first reason that holds, with the numbers in ``detail``; or None to go on.

    Raises:
        InputError: A score is outside 0-100.
    """
    for score in scores:
        _check_score("scores", score)
    s = list(scores)
    if len(s) - 1 >= policy.max_revisions:
        return Termination(
            reason=TerminationReason.MAX_REVISIONS_REACHED,
            detail=f"{len(s) - 1} revisions reached the cap of {policy.max_revisions} "
            f"(scores {_listed(s)})",
        )
    if len(s) >= 4:
        moves = [s[-3] - s[-4], s[-2] - s[-3], s[-1] - s[-2]]
        big = all(abs(m) > policy.noise_points for m in moves)
        up_down_up = moves[0] > 0 > moves[1] and moves[2] > 0
        down_up_down = moves[0] < 0 < moves[1] and moves[2] < 0
        if big and (up_down_up or down_up_down):
            pattern = "up, down, up" if up_down_up else "down, up, down"
            return Termination(
                reason=TerminationReason.OSCILLATING,
                detail=f"the score went {pattern} ({_listed(s[-4:])}), each move more than "
                f"{policy.noise_points} points",
            )
    if len(s) >= 3:
        changes = [s[-2] - s[-3], s[-1] - s[-2]]
        if all(abs(c) < policy.convergence_points for c in changes):
            return Termination(
                reason=TerminationReason.CONVERGED,
                detail=f"the last two changes ({changes[0]:+d}, {changes[1]:+d}; scores "
                f"{_listed(s[-3:])}) were each under {policy.convergence_points} points",
            )
    if len(s) >= 2:
        gain = s[-1] - s[-2]
        if s[-1] >= policy.high_score and gain < policy.diminishing_points:
            return Termination(
                reason=TerminationReason.DIMINISHING_RETURNS,
                detail=f"at {s[-1]} (>= {policy.high_score}) the last change was {gain:+d}, "
                f"under {policy.diminishing_points} points",
            )
    return None


def best_round(history: Sequence[tuple[int, int]]) -> int | None:
    """The best-scoring round, the one to deliver on ``force_deliver``.

    Args:
        history: ``(round_number, score)`` pairs of reviewed rounds, in any order.

    Returns:
        The round number with the highest score (the lowest round number on ties), or None when
        ``history`` is empty.
    """
    if not history:
        return None
    return min(history, key=lambda pair: (-pair[1], pair[0]))[0]


def _titles(findings: Iterable[Finding], severity: Severity) -> tuple[str, ...]:
    return tuple(dict.fromkeys(f.title for f in findings if f.severity is severity))


def _merge(*groups: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(item for group in groups for item in group if item.strip()))


def decide_gate(
    review: Review | None,
    *,
    round_number: int,
    complexity: Complexity,
    final: bool,
    history: TaskHistory,
    findings: Sequence[Finding],
    policy: GatePolicy,
    judge_error: str | None = None,
    task_type: TaskType | None = None,
    shadow: Shadow | None = None,
) -> Decision:
    """Decide one round: pass, pass with suggestions, revise, force-deliver, block, and so on.

    The earlier rounds' P0 findings (``history.p0_findings``) count with this round's own.
    With ``shadow``, the findings of its rules (this round's and earlier ones') are recorded,
    not deciding: the gate decides as if they were not there, and its reason names them; a
    review by one of its judges does not decide either: where the review would decide (step
    5 or 6), the round is ``awaiting_approval`` (a person decides), its reason giving the
    shadowed verdict. Checked in this order:

    0. a person rejected an earlier round (``history.rejection``) -> ``block``: a rejected task
       is never delivered;
    1. any P0 finding -> ``block`` (never delivered, whatever the score);
       1b. a ``refusal`` finding of this round (its text declines the task) on an ACTION or
       CRITICAL task -> ``awaiting_approval``: declining to drop a table may be right, and
       only a person can say (``qgs approve`` delivers the refusal, ``qgs approve --reject``
       blocks the task). On a QUERY or GENERATE task a refusal is the critic's to fail; an unreviewed
       SIMPLE round with one -> ``revise`` (step 4);
    2. ``judge_error`` set -> ``revise`` (fail-closed), unless ``task_type`` is in
       ``policy.fail_open_types`` and the round has no P1 finding and the task is not REFLECT:
       then ``pass_with_suggestions`` whose reason and suggestion say the judge failed
       (fail-open with a warning; never a silent pass);
    3. a ``role_failed`` finding on a CRITICAL task -> ``revise``: a failed audit is never
       treated as a clean one (issue 4);
    4. no review: a ``refusal`` finding on a SIMPLE round -> ``revise``; SIMPLE -> ``pass`` (no
       LLM review); P1 findings -> ``revise`` with them as must_fix; otherwise ``continue`` (no
       review due this round);
    5. PASS -> ``pass``; PASS_WITH_SUGGESTIONS -> ``pass_with_suggestions`` with the review's
       dimension issues as suggestions; on a REFLECT task both become ``awaiting_approval``;
       but a pass with P1 findings about this round (not ``role_failed``, not an earlier
       round's) is ``revise`` with them as must_fix, even on a final round: a good score does
       not make up for a core function missing;
    6. FAIL -> :func:`should_terminate` over the earlier scores and this one; if it says stop,
       or this round is final (``final_round``) -> ``force_deliver`` of the best round with this
       review's must_fix (the review service, which reads the earlier reviews, puts the
       delivered round's own must_fix there when the best round is an earlier one) and a
       ``replan`` (``core/replan.py``: why the loop stopped, from the scores; the review
       service adds what the reviews said); else ``revise`` with the
       review's must_fix plus the P1 finding titles.

    Args:
        review: The critic's review of this round, or None when no review was due.
        round_number: This round's number, starting at 1.
        complexity: The task's complexity (after any escalation).
        final: Whether the agent marked this round as its final deliverable.
        history: The task's earlier rounds: their scores, their P0 findings, a rejection.
        findings: The round's own findings, from detectors and discriminator roles.
        policy: Thresholds of the termination rules.
        judge_error: Why the critic could not give a review, when it failed.
        task_type: The task's type, for the fail-open rule (fail-closed when None).
        shadow: The rules and judges held in shadow (``core.spotcheck``); None: none.

    Returns:
        The decision; ``risk`` is always the weighted sum of the findings weighed (this
        round's and the earlier P0s; not the shadowed ones).

    Raises:
        InputError: ``round_number`` is below 1, or a score in ``history`` is outside 0-100.
    """
    if round_number < 1:
        raise InputError(f"'round_number' must be 1 or more (got {round_number!r})")
    for _, score in history.scores:
        _check_score("history", score)
    findings = (*findings, *history.p0_findings)
    held: tuple[str, ...] = ()
    if shadow:
        held = tuple(dict.fromkeys(f.rule for f in findings if f.rule in shadow.rules))
        findings = tuple(f for f in findings if f.rule not in shadow.rules)
        if review is not None and review.judge in shadow.judges:
            decision = _decide(
                None,
                round_number,
                complexity,
                final,
                history,
                findings,
                policy,
                judge_error,
                task_type,
            )
            if (
                decision.kind in (DecisionKind.CONTINUE, DecisionKind.PASS)
                and not history.rejection
            ):
                decision = Decision(
                    kind=DecisionKind.AWAITING_APPROVAL,
                    reason=f"judge {review.judge!r} is in shadow: its verdict "
                    f"({review.verdict.value}, score {review.score}) is recorded, not deciding; "
                    "a person decides (qgs approve TASK --by NAME, or qgs approve TASK --reject "
                    "--by NAME --note WHY)",
                    risk=decision.risk,
                )
            return _noting(decision, held)
    return _noting(
        _decide(
            review,
            round_number,
            complexity,
            final,
            history,
            findings,
            policy,
            judge_error,
            task_type,
        ),
        held,
    )


def _noting(decision: Decision, held: Sequence[str]) -> Decision:
    """The decision with its reason naming the shadowed rules whose findings it set aside."""
    if not held:
        return decision
    note = f"; recorded, not deciding (rules in shadow): {', '.join(held)}"
    return decision.model_copy(update={"reason": decision.reason + note})


def _decide(
    review: Review | None,
    round_number: int,
    complexity: Complexity,
    final: bool,
    history: TaskHistory,
    findings: Sequence[Finding],
    policy: GatePolicy,
    judge_error: str | None,
    task_type: TaskType | None,
) -> Decision:
    """``decide_gate``'s steps on the deciding findings (``history.p0_findings`` among them)."""
    findings = tuple(findings)
    risk = risk_of(findings)
    p0 = _titles(findings, Severity.P0)
    if history.rejection is not None:
        return Decision(kind=DecisionKind.BLOCK, reason=history.rejection, must_fix=p0, risk=risk)
    # A failed audit role is not a defect of the deliverable: the agent cannot fix it, so it is
    # never a must-fix item (it holds CRITICAL rounds below, and is reported).
    p1 = _titles((f for f in findings if f.category != ROLE_FAILED), Severity.P1)
    # P1 findings about this round itself (not an earlier round's, with its ``round_number``,
    # whose effects a new round cannot undo): these hold a passing review.
    p1_here = _titles(
        (f for f in findings if f.category != ROLE_FAILED and f.round_number is None),
        Severity.P1,
    )

    if p0:
        return Decision(
            kind=DecisionKind.BLOCK,
            reason=f"{len(p0)} fatal (P0) finding(s): {'; '.join(p0)}; never delivered, "
            "whatever the score",
            must_fix=_merge(p0, p1),
            risk=risk,
        )
    refusals = [f.title for f in findings if f.category == REFUSAL and f.round_number is None]
    if refusals and task_type in (TaskType.ACTION, TaskType.CRITICAL):
        return Decision(
            kind=DecisionKind.AWAITING_APPROVAL,
            reason=f"{refusals[0]} on {_a(task_type)} task: declining may be right; a "
            "person decides (qgs approve TASK --by NAME delivers the refusal; qgs approve TASK "
            "--reject --by NAME --note WHY blocks the task)",
            risk=risk,
        )
    if judge_error is not None:
        fail_open = (
            task_type in policy.fail_open_types and not p1 and complexity is not Complexity.REFLECT
        )
        if fail_open:
            return Decision(
                kind=DecisionKind.PASS_WITH_SUGGESTIONS,
                reason=f"fail-open for {task_type}: the judge failed ({judge_error}); delivered "
                "unreviewed, with a warning",
                suggestions=("the judge could not review this round: check it by hand",),
                risk=risk,
            )
        return Decision(
            kind=DecisionKind.REVISE,
            reason=f"the judge failed ({judge_error}); without a verdict the round cannot pass",
            must_fix=p1,
            risk=risk,
        )
    failed_audit = [f.title for f in findings if f.category == ROLE_FAILED]
    if failed_audit and task_type is TaskType.CRITICAL:
        return Decision(
            kind=DecisionKind.REVISE,
            reason=f"the audit failed ({'; '.join(failed_audit)}); a CRITICAL round is never "
            "passed on a failed audit",
            must_fix=_merge(p1),
            risk=risk,
        )
    if review is None:
        if refusals and complexity is Complexity.SIMPLE:
            return Decision(
                kind=DecisionKind.REVISE,
                reason=f"{refusals[0]}: no review was due (simple task), but a refusal is not "
                "an answer",
                must_fix=(f"answer the request: {refusals[0]}",),
                risk=risk,
            )
        if complexity is Complexity.SIMPLE:
            return Decision(kind=DecisionKind.PASS, reason="simple task: no LLM review", risk=risk)
        if p1:
            return Decision(
                kind=DecisionKind.REVISE,
                reason=f"no review this round, but {len(p1)} core-function (P1) finding(s)",
                must_fix=p1,
                risk=risk,
            )
        return Decision(kind=DecisionKind.CONTINUE, reason="no review due this round", risk=risk)

    approval = complexity is Complexity.REFLECT
    confirm = "; a person must confirm" if approval else ""
    # What a person should know before trusting a pass: review warnings.
    if review.warnings:
        confirm += f"; review warnings: {'; '.join(review.warnings)}"
    if review.verdict is Verdict.PASS and not p1_here:
        return Decision(
            kind=DecisionKind.AWAITING_APPROVAL if approval else DecisionKind.PASS,
            reason=f"the critic passed the round (score {review.score}){confirm}",
            risk=risk,
        )
    if review.verdict is Verdict.PASS_WITH_SUGGESTIONS and not p1_here:
        suggestions = _merge(*(d.issues for d in review.dimensions))
        return Decision(
            kind=DecisionKind.AWAITING_APPROVAL if approval else DecisionKind.PASS_WITH_SUGGESTIONS,
            reason=f"the critic passed the round with {len(suggestions)} suggestion(s) "
            f"(score {review.score}){confirm}",
            suggestions=suggestions,
            risk=risk,
        )

    if review.verdict is not Verdict.FAIL:
        # A pass with core-function (P1) findings on this round: a good score does not make up
        # for code calling an API that does not exist, a leaked secret or text steering the
        # judge; and the loop's end must not deliver it either. Revise, whatever the round.
        return Decision(
            kind=DecisionKind.REVISE,
            reason=f"the critic passed the round (score {review.score}) but {len(p1_here)} "
            f"core-function (P1) finding(s) must be fixed first: {'; '.join(p1_here)}",
            must_fix=_merge(review.must_fix, p1_here),
            risk=risk,
        )

    # Verdict.FAIL: revise, or stop and deliver the best round so far.
    verdict_text = f"the critic failed the round (score {review.score})"
    scores = [score for _, score in history.scores] + [review.score]
    termination = should_terminate(scores, policy)
    if termination is None and final:
        termination = Termination(
            reason=TerminationReason.FINAL_ROUND,
            detail=f"round {round_number} was marked final",
        )
    must_fix = _merge(review.must_fix, p1)
    if termination is not None:
        reviewed = [*history.scores, (round_number, review.score)]
        best = best_round(reviewed)
        best_score = max(scores)
        return Decision(
            kind=DecisionKind.FORCE_DELIVER,
            reason=f"{verdict_text}, and the loop stops: "
            f"{termination.detail}; delivering round {best} (score {best_score}), the best so far"
            + ("; a person must still confirm (qgs approve)" if approval else ""),
            termination=termination.reason,
            best_round=best,
            must_fix=must_fix,
            risk=risk,
            replan=replan_of(
                termination.reason, termination.detail, reviewed, best, policy.noise_points
            ),
        )
    return Decision(
        kind=DecisionKind.REVISE,
        reason=f"{verdict_text}; {len(must_fix)} must-fix item(s) to address",
        must_fix=must_fix,
        risk=risk,
    )


APPROVAL_DECISIONS = (DecisionKind.AWAITING_APPROVAL,)
"""Decision kinds that always wait for a person (``qgs approve``)."""


def needs_approval(decision_kind: str, complexity: str) -> bool:
    """Whether a decision waits for a person before the task is released.

    ``awaiting_approval`` always does; so does ``force_deliver`` on a REFLECT task (the gate's
    reason says "a person must still confirm"). Every other decision settles the round alone.

    Args:
        decision_kind: A ``DecisionKind`` or its stored text.
        complexity: The task's complexity (a ``Complexity`` or its stored text).
    """
    return decision_kind in APPROVAL_DECISIONS or (
        decision_kind == DecisionKind.FORCE_DELIVER and complexity == Complexity.REFLECT
    )


def failed_round_decision(error: str, history: TaskHistory) -> Decision:
    """The decision on a round that could not be processed: never delivered.

    A person's rejection or an earlier round's P0 still holds the task (``block``, as
    ``decide_gate`` says of every later round); otherwise ``revise`` with the reason
    (fail-closed: a failure is never a pass, and the fail-open rule does not apply to it).
    """
    why = f"the round could not be processed: {error}"
    if history.rejection is not None:
        return Decision(kind=DecisionKind.BLOCK, reason=f"{why}; {history.rejection}")
    p0 = _titles(history.p0_findings, Severity.P0)
    if p0:
        return Decision(
            kind=DecisionKind.BLOCK,
            reason=f"{why}; {len(p0)} fatal (P0) finding(s) of earlier rounds: {'; '.join(p0)}; "
            "never delivered",
            must_fix=p0,
            risk=risk_of(history.p0_findings),
        )
    return Decision(kind=DecisionKind.REVISE, reason=why)


def rejection_reason(by: str, round_number: int, note: str = "") -> str:
    """Why a task is blocked by a person's rejection of round ``round_number`` (``TaskHistory``)."""
    why = f": {note}" if note else ""
    return (
        f"{by} rejected round {round_number} of this task{why}; a rejected task is never delivered"
    )


def escalation(
    task_type: TaskType, findings: Sequence[Finding], round_number: int, deed: str = ""
) -> tuple[str, Classification | None]:
    """Whether a round makes its task CRITICAL, and why (DESIGN.md, "Classifier": by deed).

    A P0 or P1 finding (the worst one is named), or a critical deed of the round's tool calls
    (``core/deeds.py``'s description, ``deed``), makes the round reviewed and audited as CRITICAL;
    a task not yet CRITICAL is escalated to CRITICAL/REFLECT with that reason.

    Returns:
        ``(reason, classification)``: ``reason`` empty when nothing is serious; the
        classification to store (``source="escalation"``), or None when the task stays as it is
        (nothing serious, or already CRITICAL).
    """
    serious = [f for f in findings if f.severity in (Severity.P0, Severity.P1)]
    if serious:
        worst = min(serious, key=lambda f: f.severity.value)
        reason = (
            f"round {round_number}: {worst.severity.value} {worst.category} at "
            f"{worst.where}: {worst.title}"
        )
    elif deed and task_type != TaskType.CRITICAL:
        reason = deed
    else:
        return "", None
    if task_type == TaskType.CRITICAL:
        return reason, None
    return reason, Classification(
        task_type=TaskType.CRITICAL,
        complexity=Complexity.REFLECT,
        confidence=1.0,
        source="escalation",
        reason=reason,
    )


def _a(task_type: TaskType) -> str:
    """The task type with its article: "an ACTION", "a CRITICAL", "a QUERY"."""
    word = task_type.value
    return f"{'an' if word[:1] in 'AEIOU' else 'a'} {word}"
