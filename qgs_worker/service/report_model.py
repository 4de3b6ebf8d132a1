"""What the reports read from the store: tasks, rounds and totals as plain values, never rows.

The store's report part (``store/report_views.py``, a part of ``Repository``) answers in these
frozen values, with core models where the core has one (``Finding``, ``Decision``,
``ApprovalView``); ``report.py`` turns them into the JSON report. Text fields that the report
prints as they are (statuses, verdicts, kinds) stay the strings the store holds. Times are
timezone-aware UTC.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from qgs_worker.core.models import Decision, DimensionScore, Finding
from qgs_worker.core.views import ApprovalView
from qgs_worker.core.webhooks import WebhookView

__all__ = [
    "AuditErrorFacts",
    "AuditRunFacts",
    "DeadLetterFacts",
    "RejectedCheck",
    "ReportReader",
    "ReportTotals",
    "ReviewFacts",
    "RoundFacts",
    "TaskFacts",
    "ToolCallFacts",
]


@dataclass(frozen=True, slots=True)
class ReviewFacts:
    """What a report shows of a round's review, or of a stored judge failure.

    ``status`` is ``ok`` or ``failed``; ``score`` 0-100 and ``verdict`` are None for a failure;
    ``reused_from`` the id of the review this one copied (no judge call); ``latency_ms`` in
    milliseconds; ``summary`` and ``must_fix`` as the judge wrote them; ``dimensions`` the
    per-dimension scores (0-100) and issues, read only when the report asks for details (else
    empty).
    """

    status: str
    score: int | None = None
    verdict: str | None = None
    error: str | None = None
    judge: str = ""
    warnings: tuple[str, ...] = ()
    reused_from: int | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    summary: str = ""
    must_fix: tuple[str, ...] = ()
    dimensions: tuple[DimensionScore, ...] = ()


@dataclass(frozen=True, slots=True)
class AuditRunFacts:
    """One audit role's run on a round: ``status`` ok or failed, ``duration_ms`` in ms."""

    role: str
    status: str
    findings: int = 0
    duration_ms: float = 0.0
    error: str | None = None


@dataclass(frozen=True, slots=True)
class DeadLetterFacts:
    """A message a worker could not decode or validate (``raw_head``: the body's first 2 KB)."""

    job: str
    reason: str
    received_at: datetime
    raw_head: str = ""
    submission_id: str | None = None
    task_id: str | None = None
    message_id: str | None = None


@dataclass(frozen=True, slots=True)
class RoundFacts:
    """A stored round with everything a report shows of it.

    ``content`` is the deliverable as submitted, ``length`` its length in characters; ``status_at``, ``retry_at``,
    ``lease_until`` and ``sweeps`` are what ``sweeper.overdue`` reads (a ``RoundClock``);
    ``findings`` are most severe first; ``audit_runs`` in the order they ran; ``approval`` a
    person's decision on this round, if any.
    """

    id: int
    number: int
    submission_id: str
    status: str
    final: bool = False
    turn: str | None = None
    error: str | None = None
    content_hash: str = ""
    content: str = ""
    length: int = 0
    status_at: datetime | None = None
    retry_at: datetime | None = None
    lease_until: datetime | None = None
    sweeps: int | None = None
    judge_retries: int = 0
    review: ReviewFacts | None = None
    decision: Decision | None = None
    findings: tuple[Finding, ...] = ()
    audit_runs: tuple[AuditRunFacts, ...] = ()
    approval: ApprovalView | None = None


@dataclass(frozen=True, slots=True)
class TaskFacts:
    """A stored task, its rounds by number, its approvals oldest first, its dead letters.

    ``task_type``, ``complexity`` and ``classification_source`` are as stored (after any
    escalation); ``source_file`` / ``source_line`` / ``transcript_id`` say where an audited
    transcript came from (None for a live task); ``dead_letters`` are newest first.
    """

    id: str
    request: str
    task_type: str
    complexity: str
    classification_source: str
    created_at: datetime
    agent: str | None = None
    agent_model: str | None = None
    escalated: bool = False
    escalation_reason: str | None = None
    source_file: str | None = None
    source_line: int | None = None
    transcript_id: str | None = None
    rounds: tuple[RoundFacts, ...] = ()
    approvals: tuple[ApprovalView, ...] = ()
    dead_letters: tuple[DeadLetterFacts, ...] = ()
    webhooks: tuple[WebhookView, ...] = ()


@dataclass(frozen=True, slots=True)
class AuditErrorFacts:
    """An input that could not become a task: the file, its line, why."""

    source_file: str
    line: int
    message: str


@dataclass(frozen=True, slots=True)
class RejectedCheck:
    """A tool-call check that rejected its call: ``stopped_at`` the layer's number (1-6).

    ``errors`` are the failing layer's first few; ``checked_at`` when the check ran.
    """

    check_id: str
    checked_at: datetime
    tool: str | None = None
    call_id: str | None = None
    principal: str | None = None
    agent: str | None = None
    stopped_at: int | None = None
    stopped_layer: str | None = None
    errors: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ToolCallFacts:
    """Every pre-execution check in the store, counted, and the newest rejections (newest first).

    ``rejected_by_layer`` maps a layer's number to its rejections (0: a row without one).
    """

    total: int = 0
    allowed: int = 0
    rejected_by_layer: dict[int, int] = field(default_factory=dict)
    recent_rejected: tuple[RejectedCheck, ...] = ()


@dataclass(frozen=True, slots=True)
class ReportTotals:
    """What a report says of the whole store besides its tasks.

    ``audit_errors`` by file and line; ``dead_letters`` the newest few, newest first;
    ``outbox_waiting`` the submissions no intake took yet (nor given up).
    """

    audit_errors: tuple[AuditErrorFacts, ...] = ()
    dead_letters: tuple[DeadLetterFacts, ...] = ()
    outbox_waiting: int = 0
    tool_calls: ToolCallFacts = field(default_factory=ToolCallFacts)


class ReportReader(Protocol):
    """The store's report part (``store.report_views.ReportViewStore``; ``Repository`` has it)."""

    def task_facts(self, task_id: str) -> TaskFacts:
        """One task with its rounds. Raises ``TaskNotFoundError`` when it is not stored."""
        ...

    def report_tasks(
        self, task_ids: Iterable[str] | None = None, *, details: bool = False
    ) -> Iterator[TaskFacts]:
        """The tasks in report order (transcripts by file and line, then live tasks by age).

        ``details`` also reads each review's dimension scores (one more statement a batch).
        """
        ...

    def report_totals(self, *, dead_letters: int, rejected: int) -> ReportTotals:
        """The store's totals, with the newest ``dead_letters`` and ``rejected`` tool calls."""
        ...

    def tool_call_facts(self, rejected: int) -> ToolCallFacts:
        """The tool-call check counts and the newest ``rejected`` rejections."""
        ...

    def run_tasks(self, run: str | int) -> list[tuple[str, str]]:
        """An audit run's ``(task_id, transcript_key)`` pairs in run order.

        Raises ``InputError`` when the run is not stored.
        """
        ...
