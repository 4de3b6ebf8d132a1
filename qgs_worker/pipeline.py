"""The review pipeline's steps, between the Celery jobs and the core.

Each step loads what it needs from the store by id, calls the core, and writes its result
idempotently; ``qgs_worker.jobs`` wraps each step in a Celery job and dispatches the next.
A task's rounds go through the pipeline one after another (the gate needs the earlier scores):
a round is dispatched once every earlier round is decided or failed.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from qgs_worker.core import cadence, classifier, detectors, gate, review_checks, rubric
from qgs_worker.core.deeds import critical_deeds, describe_deeds
from qgs_worker.core.discriminator import (
    ROLE_FAILED,
    AuditContext,
    Role,
    RoleRun,
    roles_for,
    run_roles,
)
from qgs_worker.core.models import (
    DEFAULT_COMPLEXITY,
    CadencePolicy,
    Classification,
    Complexity,
    Decision,
    DecisionKind,
    Finding,
    GatePolicy,
    ReviewStatus,
    RoundPlan,
    RoundStatus,
    Severity,
    TaskHistory,
    TaskType,
)
from qgs_worker.core.policy import permission_findings
from qgs_worker.core.ports import AuditSessions, Judge, PolicyDecisionPoint
from qgs_worker.core.review_checks import HALO_SPREAD_POINTS
from qgs_worker.core.toolgate import ToolRegistry
from qgs_worker.errors import JudgeError, JudgeResponseError, RoundNumberTakenError
from qgs_worker.round_context import (  # jobs and tests also name these pipeline.X
    deliverable_of,
    review_key,
    review_request,
    user_words,
)
from qgs_worker.store import Repository, RoundRow, TaskRow, loads_list
from qgs_worker.submission import NewTask, Submission, content_hash

log = logging.getLogger(__name__)

DETECTOR_ROLE = "detectors"


@dataclass(frozen=True)
class Policies:
    """The small policy objects the steps pass to the core.

    ``pdp`` is the policy decision point (``policy_file.load_pdp``): when set, ``prepare``
    checks the tool calls of ACTION and CRITICAL rounds against it; ``tools`` (``QGS_TOOLS_FILE``)
    gives the registered tools' permissions, else they are inferred from the tools' names.
    """

    gate: GatePolicy
    cadence: CadencePolicy
    pdp: PolicyDecisionPoint | None = None
    tools: ToolRegistry | None = None


def ensure_task(
    repo: Repository, submission: Submission, llm: Callable[[str], Classification] | None = None
) -> TaskRow:
    """Return the submission's task, creating (and classifying) it from ``submission.task``.

    Raises:
        TaskNotFoundError: the task is not stored and the submission does not describe it.
    """
    existing = repo.find_task(submission.task_id)
    if existing is not None or submission.task is None:
        return existing or repo.get_task(submission.task_id)
    new = submission.task
    return repo.add_task(
        task_row(submission.task_id, classify(new.request, new.task_type, llm=llm), new)
    )


def classify(
    request: str,
    task_type: TaskType | None = None,
    *,
    llm: Callable[[str], Classification] | None = None,
) -> Classification:
    """The caller's ``task_type`` (with its default complexity), else the classifier's answer.

    ``llm`` is the classifier's LLM layer (``judges.LLMClassifier``), asked only when the rules
    cannot settle the request; when it fails, the rules' default stands (a classifier failure
    never stops an intake).
    """
    if task_type is None and llm is not None:
        from qgs_worker.judges.llm_classifier import classify_with_llm

        return classify_with_llm(request, llm)
    if task_type is None:
        return classifier.classify(request)
    return Classification(
        task_type=task_type,
        complexity=DEFAULT_COMPLEXITY[task_type],
        confidence=1.0,
        source="given",
    )


def task_row(task_id: str, found: Classification, new: NewTask) -> TaskRow:
    """A TaskRow for a classified request, with the agent and source fields of ``new``."""
    return TaskRow(
        id=task_id,
        request=new.request,
        agent=new.agent,
        agent_model=new.agent_model,
        source_file=new.source_file,
        source_line=new.source_line,
        transcript_id=new.transcript_id,
        requirements=json.dumps(list(new.requirements), ensure_ascii=False),
        criteria=json.dumps(list(new.criteria), ensure_ascii=False),
        task_type=found.task_type.value,
        complexity=found.complexity.value,
        classification_source=found.source,
        confidence=found.confidence,
        matched=json.dumps(list(found.matched), ensure_ascii=False),
    )


def intake(
    repo: Repository,
    submission: Submission,
    policies: Policies,
    *,
    redelivered: bool = False,
    llm: Callable[[str], Classification] | None = None,
) -> int | None:
    """Store a submitted round (and its task); claim the task's next round if its turn came.

    Args:
        repo: The results store.
        submission: The validated submission.
        policies: Gate and cadence policies.
        llm: The classifier's LLM layer, for a new task the rules cannot settle (optional).
        redelivered: The broker redelivered this message (a worker was lost): a round left
            ``dispatched`` without a decision is dispatched again (its effects are idempotent).

    Returns:
        The id of a round whose pipeline the caller must dispatch now, or None.
    """
    task = ensure_task(repo, submission, llm)
    _store_round(repo, task.id, submission)
    return claim_next(repo, task.id, policies, redelivered=redelivered)


def claim_next(
    repo: Repository, task_id: str, policies: Policies, *, redelivered: bool = False
) -> int | None:
    """Claim the task's next round once every earlier round is done, and prepare it.

    Exactly one caller wins the claim (a conditional update), so a round is dispatched once,
    except after a redelivery, when dispatching again is the safe side.
    """
    ready = repo.next_ready_round(task_id)
    if ready is None or ready.id is None:
        return None
    if ready.status == RoundStatus.QUEUED and repo.claim_round(ready.id):
        prepare(repo, ready.id, policies)
        return ready.id
    if ready.status == RoundStatus.DISPATCHED and redelivered and repo.get_decision(ready.id) is None:
        prepare(repo, ready.id, policies)
        return ready.id
    return None


def prepare(repo: Repository, round_id: int, policies: Policies) -> RoundPlan:
    """Run the detectors on a round, escalate the task on P0/P1, and plan what is due.

    Runs when the round's turn comes, so every earlier round (and its tool outputs, where
    injected instructions arrive) is in the store. A P0/P1 makes the round reviewed and audited
    as CRITICAL whatever the cadence says; so does a critical deed (``core/deeds.py``), the
    deed stored as the reason. With a policy (``policies.pdp``), each tool call of
    an ACTION or CRITICAL round (or one the detectors escalate) is asked about with the task's
    agent as principal; a denied call is a P1 ``permission_denied`` finding, so it escalates too.
    """
    row = repo.get_round(round_id)
    task = repo.get_task(row.task_id)
    earlier = [r for r in repo.list_rounds(task.id) if r.number < row.number]
    earlier_results = [res for r in earlier for res in deliverable_of(r).tool_results]
    deliverable = deliverable_of(row)
    findings = [
        f.model_copy(update={"role": DETECTOR_ROLE})
        for f in detectors.scan_round(
            deliverable,
            request=user_words(task, [*earlier, row]),
            earlier_tool_results=earlier_results,
        )
    ]
    deeds = critical_deeds(deliverable.tool_calls, findings, policies.tools)
    if policies.pdp is not None and (
        task.task_type in (TaskType.ACTION, TaskType.CRITICAL)
        or any(f.severity in (Severity.P0, Severity.P1) for f in findings)
        or deeds
    ):
        calls = deliverable.tool_calls
        findings += permission_findings(policies.pdp, calls, task.agent, policies.tools)
    repo.save_findings(round_id, findings)
    deed = describe_deeds(deeds, row.number) if deeds else ""
    serious = _escalate_if_needed(repo, task, findings, row.number, deed)
    if serious:
        task = repo.get_task(task.id)  # escalated (or CRITICAL already): read the new class
    plan = cadence.plan_round(
        Complexity(task.complexity),
        row.number,
        final=row.final,
        policy=policies.cadence,
        task_type=TaskType(task.task_type),
    )
    if serious:
        plan = RoundPlan(critic=True, discriminate=True, reason=f"reviewed as CRITICAL: {serious}")
    repo.set_round_plan(round_id, plan)
    return plan


ROUND_NUMBER_TRIES = 20
"""How often intake takes the next free round number when a concurrent intake took it first."""


def _store_round(repo: Repository, task_id: str, submission: Submission) -> RoundRow:
    d = submission.deliverable
    number = submission.round_number or repo.next_round_number(task_id)
    for _ in range(ROUND_NUMBER_TRIES):
        candidate = RoundRow(
            submission_id=submission.submission_id,
            task_id=task_id,
            number=number,
            final=submission.final,
            content=d.text,
            tool_calls=json.dumps(
                [c.model_dump(mode="json") for c in d.tool_calls], ensure_ascii=False
            ),
            tool_results=json.dumps(
                [r.model_dump(mode="json") for r in d.tool_results], ensure_ascii=False
            ),
            turn=submission.turn,
            content_hash=content_hash(d),
        )
        try:
            return repo.add_round(candidate)
        except RoundNumberTakenError:
            if submission.round_number is not None and not submission.renumber_on_conflict:
                raise
            number = repo.next_round_number(task_id)
    raise RoundNumberTakenError(
        f"no free round number for task {task_id!r} after {ROUND_NUMBER_TRIES} tries"
    )


def _escalate_if_needed(
    repo: Repository, task: TaskRow, findings: list[Finding], number: int, deed: str = ""
) -> str:
    """Escalate the task as ``gate.escalation`` says; the reason the round is reviewed as CRITICAL."""
    reason, escalated = gate.escalation(TaskType(task.task_type), findings, number, deed)
    if escalated is not None:
        repo.escalate_task(task.id, escalated, reason)
    return reason


def critic(
    repo: Repository,
    judge: Judge,
    round_id: int,
    *,
    halo_spread_points: int = HALO_SPREAD_POINTS,
    admit: Callable[[int], float] | None = None,
    row: RoundRow | None = None,
) -> float:
    """Have the judge review a round, once; a malformed answer is stored as a failure.

    The stored review carries the halo-effect and self-preference warnings that apply.

    Args:
        repo: The results store.
        judge: The critic.
        round_id: The round to review.
        halo_spread_points: See ``review_checks.halo_warning``.
        admit: The shared rate limit: given the prompt's size in characters, 0.0 to call now,
            else the seconds to wait (nothing is called then).
        row: The round's row when the caller has just read it (not read again).

    Returns:
        0.0 when the round is reviewed (or was), else the seconds the rate limit asks to wait.

    Raises:
        JudgeUnavailableError: transient failure; the job retries it.
    """
    row = row if row is not None and row.id == round_id else repo.get_round(round_id)
    if repo.get_review(round_id) is not None:
        return 0.0
    task = repo.get_task(row.task_id)
    request = review_request(task, row)
    key = review_key(request, judge.name)
    earlier = repo.find_review_by_key(key)
    if earlier is not None:
        # The same output, request, criteria and judge were reviewed before: no second call.
        reused = repo.review_model(earlier).model_copy(
            update={"latency_ms": 0.0, "prompt_tokens": 0, "completion_tokens": 0}
        )
        repo.save_review(round_id, reused, review_key=key, reused_from=earlier.round_id)
        return 0.0
    if admit is not None:
        wait_s = admit(len(request.deliverable) + len(request.request) + len(request.turn))
        if wait_s > 0:
            return wait_s
    try:
        review = judge.review(request)
    except JudgeResponseError as exc:
        repo.save_review_failure(round_id, judge=judge.name, error=str(exc), raw=exc.raw)
        return 0.0
    review = review_checks.annotate(
        review.model_copy(update={"judge": review.judge or judge.name}),
        agent_model=task.agent_model,
        spread_points=halo_spread_points,
    )
    repo.save_review(round_id, review, review_key=key)
    return 0.0


def record_judge_failure(
    repo: Repository, judge_name: str, round_id: int, error: JudgeError | str
) -> None:
    """Store that the judge could not review the round (retries exhausted): never a silent PASS."""
    raw = error.raw if isinstance(error, JudgeResponseError) else None
    repo.save_review_failure(round_id, judge=judge_name, error=str(error), raw=raw)


@dataclass(frozen=True)
class Audit:
    """What the discriminator step needs: the roles, the judge sessions and the limits.

    Attributes:
        roles: The audit roles, in the order they run (``qgs_worker.roles.load_roles``).
        sessions: Opens a fresh judge session per role; None for the offline rules judge.
        role_timeout_s: Each role's time budget, in seconds.
        low_memory: Keep nothing between roles (not even the shared detector pass).
    """

    roles: Sequence[Role]
    sessions: AuditSessions | None = None
    role_timeout_s: float = 60.0
    low_memory: bool = False


def discriminate(repo: Repository, round_id: int, audit: Audit) -> list[RoleRun]:
    """Run the audit roles on a round, one after another, and store their findings.

    Roles see every round of the task up to this one, and the detector pass ``prepare`` stored
    for each of them (not scanned again). A finding the round's own detector pass already
    stored (same category, round, location and evidence) is not stored again (one
    incident counts once); the rest are stored on this round, an earlier round's
    with its ``round_number``. Each role's run is recorded once per round (``audit_run``): a
    redelivered job skips the roles that already ran, so their LLM passes are not repeated.

    Returns:
        The runs of the roles that ran now (empty when all had already run).
    """
    row = repo.get_round(round_id)
    task = repo.get_task(row.task_id)
    rounds = [r for r in repo.list_rounds(task.id) if r.number <= row.number]
    task_type = TaskType(task.task_type)
    done = {run.role for run in repo.list_audit_runs(round_id)}
    due = [role for role in roles_for(audit.roles, task_type) if role.name not in done]
    if not due:
        return []
    # Each round's detector pass ran in ``prepare`` (with the earlier rounds' tool outputs as
    # context) and is stored: the roles read it rather than scan every round again.
    known: set[tuple[str, int | None, str, str]] = set()
    stored: list[tuple[int, Finding]] = []
    for r in rounds:
        assert r.id is not None
        earlier = None if r.number == row.number else r.number
        for f in repo.findings_model(r.id):
            if f.role == DETECTOR_ROLE:
                known.add((f.category, earlier, f.location, f.evidence))
                stored.append((r.number, f))
    context = AuditContext(
        task_type=task_type,
        complexity=Complexity(task.complexity),
        request=user_words(task, rounds),
        rounds=tuple(deliverable_of(r) for r in rounds),
        timeout_s=audit.role_timeout_s,
        stored_detector_findings=tuple(stored),
    )

    def store(run: RoleRun) -> None:  # at once: a redelivered job skips the roles already run
        fresh = [
            f
            for f in run.findings
            if (f.category, f.round_number, f.location, f.evidence) not in known
        ]
        repo.save_findings(round_id, fresh)
        # A role whose LLM pass failed keeps its deterministic findings and reports the failure
        # as its own role_failed finding: the run is a failed one, not "ok".
        own = [f.title for f in run.findings if f.category == ROLE_FAILED and f.role == run.role]
        repo.save_audit_run(
            round_id,
            run.role,
            error=run.error or (own[0] if own else None),
            findings=len(fresh),
            duration_ms=run.duration_ms,
        )

    return run_roles(
        due, context, audit.sessions, keep_between_roles=not audit.low_memory, on_run=store
    )


def decide(repo: Repository, round_id: int, policies: Policies) -> int | None:
    """Make the gate's decision on a round, once; then find the task's next round to dispatch.

    Returns:
        The id of the next round whose pipeline should be dispatched now, or None.
    """
    row = repo.get_round(round_id)
    task = repo.get_task(row.task_id)
    if repo.get_decision(round_id) is None:
        decision = gate_decision(repo, task, row, policies.gate)
        repo.save_decision(round_id, task.id, decision)
    repo.set_round_status(round_id, RoundStatus.DECIDED)
    return claim_next(repo, task.id, policies)


def gate_decision(repo: Repository, task: TaskRow, row: RoundRow, policy: GatePolicy) -> Decision:
    """Gather the round's review, findings and the task's history, and call the core gate."""
    assert row.id is not None
    review_row = repo.get_review(row.id)
    review = None
    judge_error = None
    if review_row is not None:
        if review_row.status == ReviewStatus.OK:
            review = repo.review_model(review_row)
        else:
            judge_error = review_row.error or "the judge failed"
    elif row.plan_critic:
        judge_error = "a review was due but none was stored"
    return gate.decide_gate(
        review,
        round_number=row.number,
        complexity=Complexity(task.complexity),
        final=row.final,
        history=task_history(repo, task.id, row.number),
        findings=repo.findings_model(row.id),
        policy=policy,
        judge_error=judge_error,
        task_type=TaskType(task.task_type),
    )


def task_history(repo: Repository, task_id: str, number: int) -> TaskHistory:
    """What the gate must know of the task's rounds before round ``number`` (``TaskHistory``)."""
    scores = tuple(
        (earlier.number, review.score)
        for earlier, review in repo.task_reviews(task_id)
        if earlier.number < number and review.status == ReviewStatus.OK and review.score is not None
    )
    p0: list[Finding] = []
    numbers: dict[int, int] = {}
    for earlier in repo.list_rounds(task_id):
        if earlier.id is None:
            continue
        numbers[earlier.id] = earlier.number
        if earlier.number < number:
            p0.extend(
                f.model_copy(update={"round_number": f.round_number or earlier.number})
                for f in repo.findings_model(earlier.id)
                if f.severity is Severity.P0
            )
    rejection = None
    for approval in repo.list_approvals(task_id):
        rejected = numbers.get(approval.round_id)
        if not approval.approved and rejected is not None and rejected < number:
            rejection = gate.rejection_reason(approval.by, rejected, approval.note)
            break
    return TaskHistory(scores=scores, p0_findings=tuple(p0), rejection=rejection)


ERROR_CHARS = 500
"""Stored error reasons keep their first line, at most this many characters."""


def short_error(error: str) -> str:
    """The first line of an error message, cut to ``ERROR_CHARS`` (a database error quotes SQL)."""
    first = error.strip().splitlines()[0] if error.strip() else "unknown error"
    return first if len(first) <= ERROR_CHARS else first[: ERROR_CHARS - 1] + "…"


def fail_round(repo: Repository, round_id: int, error: str, policies: Policies) -> int | None:
    """Mark a round failed with its reason (it fails alone) and return the next round to dispatch."""
    error = short_error(error)
    row = repo.get_round(round_id)
    if repo.get_decision(round_id) is None:
        # Fail closed: a round that could not be processed is never delivered as if it passed.
        repo.save_decision(
            round_id,
            row.task_id,
            Decision(kind=DecisionKind.REVISE, reason=f"the round could not be processed: {error}"),
        )
    repo.set_round_status(round_id, RoundStatus.FAILED, error)
    return claim_next(repo, row.task_id, policies)


def placeholder_round(repo: Repository, submission: Submission, error: str) -> int | None:
    """The round of a submission whose intake failed, stored empty if need be; None if impossible.

    A failed round still takes its number, so the task's later rounds are not held behind a gap.
    """
    return placeholder_for(
        repo,
        submission.submission_id,
        submission.task_id,
        submission.round_number,
        error,
        final=submission.final,
    )


def placeholder_for(
    repo: Repository,
    submission_id: str,
    task_id: str,
    round_number: int | None,
    error: str,
    *,
    final: bool = False,
) -> int | None:
    """``placeholder_round`` from the ids alone (a message that did not validate).

    Returns:
        The id of the submission's round (stored now, empty, with ``error``, when it was not),
        or None when the task is not stored or the round number is unknown or taken.
    """
    row = repo.find_round_by_submission(submission_id)
    if row is None and round_number is not None and repo.find_task(task_id):
        try:
            row = repo.add_round(
                RoundRow(
                    submission_id=submission_id,
                    task_id=task_id,
                    number=round_number,
                    final=final,
                    content="",
                    content_hash="",
                    error=short_error(error),
                )
            )
        except Exception:
            log.exception("could not store a placeholder for submission %s", submission_id)
            return None
    return row.id if row is not None else None


def constraints(repo: Repository, task_id: str) -> str:
    """The text to put in the agent's next prompt: requirements plus open must_fix ("" if SIMPLE)."""
    task = repo.get_task(task_id)
    latest = repo.latest_decision(task_id)
    open_items = loads_list(latest[1].must_fix) if latest else []
    return rubric.constraints_text(
        TaskType(task.task_type), Complexity(task.complexity), open_items
    )
