"""Making a round ready to run: the detector pass, the escalation, the plan, and what is due.

Runs when the round's turn comes (every earlier round of the task stored and done), so the
earlier rounds' tool outputs, where injected instructions arrive, are known.
"""

from __future__ import annotations

from qgs_worker.core import cadence, gate, nonanswers, round_scan
from qgs_worker.core.deeds import critical_deeds, describe_deeds
from qgs_worker.core.models import REFUSAL, Deliverable, Finding, RoundPlan, Severity, TaskType
from qgs_worker.core.policy import permission_findings
from qgs_worker.service.policies import Policies
from qgs_worker.service.ports import Escalation, Prepared
from qgs_worker.service.records import TaskContext
from qgs_worker.service.requests import user_words

__all__ = ["DETECTOR_ROLE", "prepare_round"]

DETECTOR_ROLE = "detectors"
"""The role name findings of the detector pass are stored under."""


def prepare_round(
    context: TaskContext,
    number: int,
    deliverable: Deliverable,
    *,
    final: bool,
    turn: str | None,
    policies: Policies,
) -> Prepared:
    """Run the detectors on round ``number``, escalate on P0/P1, and plan what is due.

    A round whose text declines the task, with no tool call, gets a P4 ``refusal`` finding
    (``core/nonanswers.refusal``): the gate sends it to a person on an ACTION or CRITICAL task.
    A P0/P1 makes the round reviewed and audited as CRITICAL whatever the cadence says; so does
    a critical deed (``core/deeds.py``), the deed stored as the reason. With a policy
    (``policies.pdp``), each tool call of an ACTION or CRITICAL round (or one the detectors
    escalate) is asked about with the task's agent as principal; a denied call is a P1
    ``permission_denied`` finding, so it escalates too. The decision is left to the caller.

    Args:
        context: The task and its rounds; the earlier rounds' tool results loaded.
        number: The round's number.
        deliverable: The round's deliverable.
        final: The agent means to deliver this round.
        turn: The user turn the round answers (None: the request).
        policies: The cadence, the policy decision point and the tools' registry.
    """
    task = context.task
    earlier = context.before(number)
    request = user_words(task.request, [*(r.turn for r in earlier), turn])
    findings = [
        f.model_copy(update={"role": DETECTOR_ROLE})
        for f in round_scan.scan_round(
            deliverable,
            request=request,
            earlier_tool_results=[res for r in earlier for res in r.tool_results()],
            earlier_tool_calls=[call for r in earlier for call in r.tool_calls()],
            registry=policies.tools,
        )
    ]
    findings += _refusal(deliverable)
    deeds = critical_deeds(deliverable.tool_calls, findings, policies.tools)
    if policies.pdp is not None and (
        task.task_type in (TaskType.ACTION, TaskType.CRITICAL)
        or any(f.severity in (Severity.P0, Severity.P1) for f in findings)
        or deeds
    ):
        findings += permission_findings(
            policies.pdp, deliverable.tool_calls, task.agent, policies.tools
        )
    deed = describe_deeds(deeds, number) if deeds else ""
    reason, escalated = gate.escalation(task.task_type, findings, number, deed)
    if reason:
        plan = RoundPlan(critic=True, discriminate=True, reason=f"reviewed as CRITICAL: {reason}")
    else:
        plan = cadence.plan_round(
            task.complexity,
            number,
            final=final,
            policy=policies.cadence,
            task_type=task.task_type,
        )
    return Prepared(
        plan=plan,
        findings=tuple(findings),
        escalation=Escalation(escalated, reason) if escalated is not None else None,
    )


def _refusal(deliverable: Deliverable) -> list[Finding]:
    """The P4 ``refusal`` finding of a round that only declines the task, or none.

    Reads the same text through the same function as the rules judge's refusal check
    (``judges/non_answer.py``: the rendered deliverable of a round without tool calls is its
    text): quoted speech and code are not a refusal for either.
    """
    if deliverable.tool_calls:
        return []
    reason = nonanswers.refusal(deliverable.text)
    if not reason:
        return []
    return [
        Finding(
            role=DETECTOR_ROLE,
            category=REFUSAL,
            severity=Severity.P4,
            title=reason,
            evidence=deliverable.text.strip()[:200],
            rule=REFUSAL,
        )
    ]
