"""Reports over the results store: one JSON document, a terminal table, Markdown.

The store is read through its report part (``report_model.ReportReader``: ``Repository``),
which answers in plain values (``TaskFacts``, ``ReportTotals``), never rows.

The JSON document is the contract other tools (and the tests) read::

    {"generated_at": ISO 8601, "filter": "decision block; run 3" | null, "judges": [...],
     "summary": {"tasks": N, "decisions": {"pass": n, ...}, "p0": n, "p1": n, "errors": n,
                 "approvals": {"awaiting": n, "approved": n, "rejected": n}, "role_failures": n,
                 "judge_calls": n, "reviews_reused": n, "judge_failures": n,
                 "classified_by": {"rules": n, "llm": n, ...}, "length_bias": r,
                 "review_warnings": n, "prompt_tokens": n,
                 "completion_tokens": n, "judge_latency_ms": x},
     "tasks": [{"id", "source_file", "line", "transcript_id", "request", "task_type",
                "complexity", "classification_source", "escalated", "escalation_reason",
                "rounds": [{"number", "final", "status", "turn", "score", "verdict", "review_status",
                            "judge", "warnings", "reused_from", "prompt_tokens", "completion_tokens",
                            "latency_ms", "decision", "content_hash", "length", "risk",
                            "audit_runs": [{"role", "status", "findings", "duration_ms",
                                            "error"}]}],
                "scores": [...], "risk": n,
                "findings": [{"round", "severity", "category", "rule", "role", "title", "location",
                              "evidence"}],
                "decision": {"kind", "reason", "termination", "best_round", "round", "risk",
                             "approval_required", "approval", "outcome", "must_fix",
                             "suggestions", "replan"} | null,
                "approvals": [{"round", "decision", "approved", "by", "note", "created_at"}],
                "webhooks": [{"event", "round_number", "submission_id", "url", "status",
                              "error", "idempotency_key", "created_at", "delivered_at",
                              "next_attempt_at", "attempt_started_at",
                              "attempt_held_until", "summary"}]}],
     "errors": [{"source_file", "line", "message"}],
     "dead_letters": [{"job", "reason", "received_at", "submission_id", "task_id",
                       "message_id", "raw_head"}],
     "unfinished": {"rounds": n, "overdue": n, "outbox_waiting": n},
     "spot_checks": {"labels": n, "figures": [{"scope", "name", "labels", "decision_right",
                     "kappa": {"estimate", "low", "high", "n", "too_few"} | null, "alpha",
                     "rounds", and for a
                     rule "true_positives", "false_positives", "false_negatives",
                     "true_negatives", "severity_matches", "false_positive_rounds",
                     "false_negative_rounds"}]},
     "tool_calls": {"total": n, "allowed": n, "rejected": n,
                    "rejected_by_layer": {"format": n, "existence": n, "parameters": n,
                                          "business_rules": n, "permission": n, "injection": n},
                    "recent_rejected": [{"check_id", "checked_at", "tool", "call_id", "principal",
                                         "agent", "layer", "layer_name", "error"}]}}

Risk is the weighted sum of findings (P0=100, P1=50, P2=20, P3=10, P4=5): a round's ``risk``
counts its own findings; the decision's ``risk`` is what the gate weighed (an earlier round's P0
counts again on every later round); the task's ``risk`` counts every finding of every round.
``decision.approval_required`` is true when the decision waits for a person
(``awaiting_approval``, or ``force_deliver`` on a REFLECT task); ``decision.approval`` is their
decision (an entry of ``approvals``) or null; ``decision.outcome`` is ``approved`` /
``rejected`` once a person decided, ``awaiting_approval`` while one must, else ``kind``.
``summary.approvals`` counts tasks by that outcome of their latest decision.
``decision.replan`` is set on a ``force_deliver`` (null otherwise, and on a decision stored
before it existed): the loop stopped without a pass, and this goes back to the planner
(``core.models.Replan``: ``termination``, ``detail``, ``rounds`` and ``scores``,
``best_round``, ``close_rounds``, ``unmet_criteria``, ``recurring_must_fix``, ``advice``). A round's
``audit_runs`` are the audit roles that ran on it, in the order they ran (empty when the round
was not audited): ``status`` ``ok`` or ``failed`` (with ``error``), ``findings`` the number of
new findings the role stored, ``duration_ms`` in milliseconds. A finding's ``location`` is where in
its round, shown ``round N: <location>`` when it is about an earlier round N than the one it is
stored on (``Finding.round_number``; ``round`` is the round it is stored on). A finding of
category ``role_failed`` is not a defect of the deliverable: an audit role could not run, so the
round was not fully audited (``summary.role_failures`` counts them).
``tool_calls`` covers every pre-execution check in the store (checks belong to no task, so
``--task`` does not filter them): ``rejected_by_layer`` counts rejections by the layer that
stopped them (``other`` is added for a layer numbered beyond 6), ``recent_rejected`` lists the
newest ``RECENT_REJECTED`` rejections, newest first, with the failing layer's first error;
``checked_at`` is ISO 8601 UTC. ``dead_letters`` are the newest ``RECENT_DEAD_LETTERS``
messages a worker could not decode or validate (newest first; ``raw_head`` is the body's first
2 KB); a task's own are in its entry's ``dead_letters``. A round's ``status_at`` is when it
entered its status (ISO 8601 UTC), ``overdue`` says since when it sits there past the bound
(null when it does not), ``judge_retries`` counts its transient judge failures and
``retry_at`` is when a parked retry is due. ``unfinished`` counts the rounds still waiting
for a decision, those overdue, and submissions no worker took yet. A round's ``turn`` is the user turn it answers in a multi-turn
run, cut to ``REQUEST_PREVIEW_CHARS`` like the request, or null when it answers the request.

With ``details`` (the HTML report asks for them) each round also carries ``deliverable`` (the
submitted text, cut to ``DELIVERABLE_CHARS`` with ``deliverable_cut`` the characters left out),
the review's ``summary``, ``must_fix`` and ``dimensions`` (``[{"name", "score", "issues"}]``,
scores 0-100), and the round's decision's ``decision_reason`` and ``suggestions``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from qgs_worker.core.models import (
    SEVERITY_WEIGHTS,
    Severity,
)
from qgs_worker.core.views import ApprovalView, DecisionView
from qgs_worker.queue.sweeper import overdue
from qgs_worker.queue.toolcheck import GATE_LAYER_NAMES
from qgs_worker.reports.report_filter import ReportFilter
from qgs_worker.reports.report_render import (  # their home was this module: importers keep working
    approval_text,
    audit_runs_text,
    finding_text,
    render_markdown,
    render_table,
)
from qgs_worker.reports.report_tally import SpooledTasks, Tally
from qgs_worker.service.report_model import (
    AuditRunFacts,
    DeadLetterFacts,
    ReportReader,
    RoundFacts,
    TaskFacts,
    ToolCallFacts,
)
from qgs_worker.service.requests import round_turn

__all__ = [
    "DELIVERABLE_CHARS",
    "RECENT_DEAD_LETTERS",
    "RECENT_REJECTED",
    "REQUEST_PREVIEW_CHARS",
    "approval_text",
    "audit_runs_text",
    "build_report",
    "finding_text",
    "render_markdown",
    "render_table",
    "task_entry",
    "task_report",
    "tool_call_summary",
]

REQUEST_PREVIEW_CHARS = 160
"""The request and a round's turn are cut to this many characters (``…`` added)."""
RECENT_REJECTED = 10
"""How many of the newest rejected tool calls a report lists."""
RECENT_DEAD_LETTERS = 20
"""How many dead letters a report lists (the newest)."""
DELIVERABLE_CHARS = 20_000
"""A detailed report carries each round's deliverable up to this many characters."""


def _preview(text: str) -> str:
    """``text`` cut to ``REQUEST_PREVIEW_CHARS`` characters, with ``…`` when it was cut."""
    return text if len(text) <= REQUEST_PREVIEW_CHARS else text[:REQUEST_PREVIEW_CHARS] + "…"


def _risk(severities: Iterable[str]) -> int:
    return sum(SEVERITY_WEIGHTS[Severity(s)] for s in severities)


def _approval(view: ApprovalView) -> dict[str, Any]:
    """An entry of ``approvals`` (and ``decision.approval``)."""
    return {
        "round": view.round_number,
        "decision": view.decision,
        "approved": view.approved,
        "by": view.by,
        "note": view.note,
        "created_at": view.created_at.isoformat(timespec="seconds"),
    }


def _decision(view: DecisionView) -> dict[str, Any]:
    """A task's ``decision`` object: what ``DecisionView`` says of the latest decision."""
    return {
        "kind": view.kind,
        "reason": view.reason,
        "termination": view.termination,
        "best_round": view.best_round,
        "round": view.round_number,
        "risk": view.risk,
        "approval_required": view.approval_required,
        "approval": _approval(view.approval) if view.approval else None,
        "outcome": view.outcome,
        "must_fix": list(view.must_fix),
        "suggestions": list(view.suggestions),
        "replan": view.replan.model_dump(mode="json") if view.replan else None,
    }


def _audit_run(run: AuditRunFacts) -> dict[str, Any]:
    return {
        "role": run.role,
        "status": run.status,
        "findings": run.findings,
        "duration_ms": round(run.duration_ms, 1),
        "error": run.error,
    }


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat(timespec="seconds") if moment is not None else None


def _dead_letter(letter: DeadLetterFacts) -> dict[str, Any]:
    return {
        "job": letter.job,
        "reason": letter.reason,
        "received_at": _iso(letter.received_at),
        "submission_id": letter.submission_id,
        "task_id": letter.task_id,
        "message_id": letter.message_id,
        "raw_head": letter.raw_head,
    }


def _round_details(r: RoundFacts) -> dict[str, Any]:
    """What a detailed report adds to a round: its text, its review's words, its decision's."""
    review, decision = r.review, r.decision
    return {
        "deliverable": r.content[:DELIVERABLE_CHARS],
        "deliverable_cut": max(0, len(r.content) - DELIVERABLE_CHARS),
        "summary": review.summary if review else "",
        "must_fix": list(review.must_fix) if review else [],
        "dimensions": [
            {"name": d.name, "score": d.score, "issues": list(d.issues)}
            for d in (review.dimensions if review else ())
        ],
        "decision_reason": decision.reason if decision else None,
        "suggestions": list(decision.suggestions) if decision else [],
    }


def _round(task: TaskFacts, r: RoundFacts, bound_s: float, details: bool) -> dict[str, Any]:
    """An entry of a task's ``rounds`` (with ``_round_details`` when ``details``)."""
    review = r.review
    extra = _round_details(r) if details else {}
    return {
        "number": r.number,
        "final": r.final,
        "status": r.status,
        "turn": _preview(round_turn(task.request, r.turn)) or None,
        "error": r.error,
        "content_hash": r.content_hash,
        "length": r.length,
        "score": review.score if review else None,
        "verdict": review.verdict if review else None,
        "review_status": review.status if review else None,
        "review_error": review.error if review else None,
        "judge": review.judge if review else None,
        "warnings": list(review.warnings) if review else [],
        "reused_from": review.reused_from if review else None,
        "prompt_tokens": review.prompt_tokens if review else 0,
        "completion_tokens": review.completion_tokens if review else 0,
        "latency_ms": round(review.latency_ms, 1) if review else 0.0,
        "decision": r.decision.kind.value if r.decision else None,
        "status_at": _iso(r.status_at),
        "overdue": overdue(r, bound_s),
        "judge_retries": r.judge_retries,
        "retry_at": _iso(r.retry_at),
        "risk": _risk(f.severity for f in r.findings),
        "audit_runs": [_audit_run(a) for a in r.audit_runs],
        **extra,
    }


def task_entry(task: TaskFacts, bound_s: float = 3600.0, details: bool = False) -> dict[str, Any]:
    """The JSON report's entry of a task read from the store (see the module docstring).

    ``bound_s`` is the visibility timeout in seconds, past which a round's state is overdue;
    ``details`` adds each round's deliverable, review words and decision reason.
    """
    rounds = [_round(task, r, bound_s, details) for r in task.rounds]
    findings: list[dict[str, Any]] = [
        {
            "round": r.number,
            "severity": f.severity.value,
            "category": f.category,
            "rule": f.rule,
            "role": f.role,
            "title": f.title,
            "location": f.where,
            "evidence": f.evidence,
        }
        for r in task.rounds
        for f in r.findings
    ]
    latest = next((r for r in reversed(task.rounds) if r.decision is not None), None)
    final_decision = None
    if latest is not None and latest.decision is not None:
        final_decision = _decision(
            DecisionView.of(
                latest.decision,
                task_id=task.id,
                submission_id=latest.submission_id,
                round_number=latest.number,
                complexity=task.complexity,
                score=latest.review.score if latest.review else None,
                verdict=latest.review.verdict if latest.review else None,
                approval=latest.approval,
            )
        )
    return {
        "id": task.id,
        "source_file": task.source_file,
        "line": task.source_line,
        "transcript_id": task.transcript_id,
        "request": _preview(task.request),
        "agent": task.agent,
        "agent_model": task.agent_model,
        "task_type": task.task_type,
        "complexity": task.complexity,
        "classification_source": task.classification_source,
        "escalated": task.escalated,
        "escalation_reason": task.escalation_reason,
        "rounds": rounds,
        "scores": [r["score"] for r in rounds if r["score"] is not None],
        "risk": _risk(f["severity"] for f in findings),
        "findings": findings,
        "decision": final_decision,
        "approvals": [_approval(a) for a in task.approvals],
        "dead_letters": [_dead_letter(d) for d in task.dead_letters],
        "webhooks": [
            {**w.model_dump(mode="json", exclude={"attempts"}), "summary": w.summary()}
            for w in task.webhooks
        ],
    }


def task_report(repo: ReportReader, task_id: str, bound_s: float = 3600.0) -> dict[str, Any]:
    """One task's entry of the JSON report (see the module docstring for the shape).

    Args:
        repo: The store (``Repository``; any ``ReportReader``).
        task_id: The task's id.
        bound_s: The visibility timeout in seconds, past which a round's state is overdue.

    Raises:
        TaskNotFoundError: no such task.
    """
    return task_entry(repo.task_facts(task_id), bound_s)


def build_report(
    repo: ReportReader,
    task_ids: Iterable[str] | None = None,
    error_files: Iterable[str] | None = None,
    bound_s: float = 3600.0,
    filters: ReportFilter | None = None,
    details: bool = False,
    spool: bool = False,
) -> dict[str, Any]:
    """The JSON report over the given tasks (every task in the store when None).

    ``error_files`` limits the input errors to those files (an audit reports its own files);
    ``bound_s`` is the visibility timeout, past which an unfinished round is overdue;
    ``filters`` keeps only the tasks it names (``report_filter.ReportFilter``: decision,
    severity, task type, audit run), before anything is counted: the summary counts what the
    report lists, and ``filter`` says the filter in words (null: none). ``details`` adds each
    round's deliverable, review words and decision reason (the HTML report's drill-down; see
    the module docstring). ``spool`` keeps the task entries in a temporary file
    (``report_tally.SpooledTasks``, for ``write_json``: memory flat in the number of tasks)
    instead of a list.

    Raises:
        InputError: ``filters.run`` is not a stored run.
    """
    if task_ids is not None:
        task_ids = list(task_ids)  # read twice: the tasks, then the spot-checks' labels
    if filters is not None and filters.run is not None:
        in_run = [task_id for task_id, _ in repo.run_tasks(filters.run)]
        wanted = None if task_ids is None else set(task_ids)
        task_ids = [t for t in in_run if wanted is None or t in wanted]
    tally = Tally()
    entries: list[dict[str, Any]] = SpooledTasks() if spool else []
    for facts in repo.report_tasks(task_ids, details=details):
        entry = task_entry(facts, bound_s, details)
        if filters is None or filters.keeps(entry):
            tally.add(entry)
            entries.append(entry)
    totals = repo.report_totals(dead_letters=RECENT_DEAD_LETTERS, rejected=RECENT_REJECTED)
    files = set(error_files) if error_files is not None else None
    errors = [
        {"source_file": e.source_file, "line": e.line, "message": e.message}
        for e in totals.audit_errors
        if files is None or e.source_file in files
    ]
    return {
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "filter": (filters.describe() or None) if filters is not None else None,
        "judges": tally.judges,
        "summary": tally.summary(len(errors)),
        "tasks": entries,
        "errors": errors,
        "dead_letters": [_dead_letter(d) for d in totals.dead_letters],
        "unfinished": tally.unfinished(totals.outbox_waiting),
        "tool_calls": _tool_calls(totals.tool_calls),
        "spot_checks": spot_check_summary(repo, task_ids),
    }


def spot_check_summary(repo: Any, task_ids: Iterable[str] | None = None) -> dict[str, Any]:
    """The report's ``spot_checks``: agreement with people over the labelled rounds.

    ``{"labels": n, "figures": [core.spotcheck.Figure.to_dict()...]}`` over people's labels
    (not an agent's key labelling its own rounds): the gate's, then per
    judge, task type and rule (Cohen's kappa with its 95% interval, Krippendorff's alpha,
    false positives and negatives, the rounds behind each). Over ``task_ids``' rounds when
    given; empty for a store with no spot-check part.
    """
    from qgs_worker.core.spotcheck import agreement_figures

    read = getattr(repo, "label_records", None)  # a report reader of its own may have none
    if read is None:
        return {"labels": 0, "figures": []}
    records = read(None, people_only=True)  # an agent's self-labels are its own figures only
    if task_ids is not None:
        wanted = set(task_ids)
        records = [r for r in records if r.task_id in wanted]
    return {"labels": len(records), "figures": [f.to_dict() for f in agreement_figures(records)]}


def tool_call_summary(repo: ReportReader, recent: int = RECENT_REJECTED) -> dict[str, Any]:
    """The report's ``tool_calls`` object: checks, rejections by layer, the newest rejections."""
    return _tool_calls(repo.tool_call_facts(recent))


def _tool_calls(facts: ToolCallFacts) -> dict[str, Any]:
    counts = facts.rejected_by_layer
    by_layer = {name: counts.get(number, 0) for number, name in GATE_LAYER_NAMES.items()}
    other = sum(n for layer, n in counts.items() if layer not in GATE_LAYER_NAMES)
    if other:
        by_layer["other"] = other
    rejected = [
        {
            "check_id": c.check_id,
            "checked_at": c.checked_at.isoformat(timespec="seconds"),
            "tool": c.tool,
            "call_id": c.call_id,
            "principal": c.principal,
            "agent": c.agent,
            "layer": c.stopped_at,
            "layer_name": c.stopped_layer or GATE_LAYER_NAMES.get(c.stopped_at or 0, "unknown"),
            "error": c.errors[0] if c.errors else "",
        }
        for c in facts.recent_rejected
    ]
    return {
        "total": facts.total,
        "allowed": facts.allowed,
        "rejected": facts.total - facts.allowed,
        "rejected_by_layer": by_layer,
        "recent_rejected": rejected,
    }
