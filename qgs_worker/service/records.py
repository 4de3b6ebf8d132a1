"""What the review service reads from its store: a task and its rounds, as plain values.

The store port (``service.ports.ReviewStore``) hands back one ``TaskContext`` per load: the
task, and every round of it with what the steps ask of a round (its status and plan, whether it
is reviewed and with what score, whether it is decided, a person's approval, how many findings
it holds). The steps work on these values, never on the store's rows.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from qgs_worker.core.models import (
    ROUND_DONE,
    Complexity,
    Deliverable,
    ReviewStatus,
    RoundPlan,
    RoundStatus,
    TaskType,
    ToolCall,
    ToolResult,
)

__all__ = [
    "Approval",
    "ApprovalTarget",
    "Dispatch",
    "OutboxEntry",
    "ReviewAttempt",
    "RoundRecord",
    "RoundState",
    "SubmissionFacts",
    "TaskContext",
    "TaskRecord",
]


@dataclass(frozen=True, slots=True)
class TaskRecord:
    """A stored task: the request, who asked, and its class (after any escalation)."""

    id: str
    request: str
    task_type: TaskType
    complexity: Complexity
    agent: str | None = None
    agent_model: str | None = None
    requirements: tuple[str, ...] = ()
    criteria: tuple[str, ...] = ()
    escalated: bool = False


@dataclass(frozen=True, slots=True)
class Approval:
    """A person's decision on a round that awaited one (``qgs approve``)."""

    approved: bool
    by: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A stored round, with what the steps need to know of it.

    ``content``, ``tool_calls_json`` and ``tool_results_json`` are None when the load left them
    out (``contents="focus"`` loads them for one round only). ``findings`` and ``p0_findings``
    count the round's stored findings (the findings themselves load on demand);
    ``reusable_review`` is the id of an earlier good review with this round's ``review_key``.
    """

    id: int
    number: int
    submission_id: str
    status: RoundStatus
    final: bool = False
    turn: str | None = None
    content: str | None = None
    tool_calls_json: str | None = None
    tool_results_json: str | None = None
    content_hash: str = ""
    plan: RoundPlan = field(default_factory=lambda: RoundPlan(critic=False, discriminate=False))
    review_key: str | None = None
    review_id: int | None = None
    review_status: ReviewStatus | None = None
    review_score: int | None = None
    review_error: str | None = None
    reusable_review: int | None = None
    decided: bool = False
    approval: Approval | None = None
    findings: int = 0
    p0_findings: int = 0
    attempts: int = 0
    judge_retries: int = 0
    rate_waits: int = 0

    @property
    def done(self) -> bool:
        """Nothing more runs for this round (decided or failed)."""
        return self.status in ROUND_DONE

    def deliverable(self) -> Deliverable:
        """The round's deliverable, rebuilt from its stored text and JSON columns.

        Raises:
            ValueError: the round's contents were not loaded.
        """
        if self.content is None:
            raise ValueError(f"round {self.number}'s contents were not loaded")
        return Deliverable(
            text=self.content,
            tool_calls=_tool_calls(self.tool_calls_json or ""),
            tool_results=_tool_results(self.tool_results_json or ""),
        )

    def tool_results(self) -> tuple[ToolResult, ...]:
        """The round's tool results (empty when not loaded)."""
        return _tool_results(self.tool_results_json or "")

    def tool_calls(self) -> tuple[ToolCall, ...]:
        """The round's tool calls (empty when not loaded)."""
        return _tool_calls(self.tool_calls_json or "")


@dataclass(frozen=True, slots=True)
class TaskContext:
    """A task and its rounds in number order, as one load of the store saw them."""

    task: TaskRecord
    rounds: tuple[RoundRecord, ...] = ()

    def round(self, round_id: int) -> RoundRecord:
        """The round with this id.

        Raises:
            KeyError: the task has no such round.
        """
        for r in self.rounds:
            if r.id == round_id:
                return r
        raise KeyError(round_id)

    def find(self, *, submission_id: str) -> RoundRecord | None:
        """The round of a submission, or None."""
        return next((r for r in self.rounds if r.submission_id == submission_id), None)

    def next_number(self) -> int:
        """One more than the highest round number (1 for a task without rounds)."""
        return max((r.number for r in self.rounds), default=0) + 1

    def before(self, number: int) -> tuple[RoundRecord, ...]:
        """The rounds numbered below ``number``."""
        return tuple(r for r in self.rounds if r.number < number)

    def all_done_before(self, number: int) -> bool:
        """Rounds 1..number-1 are all stored and done (no gap, none on its way)."""
        earlier = self.before(number)
        return len(earlier) == number - 1 and all(r.done for r in earlier)

    def ready_round(self) -> RoundRecord | None:
        """The first round not yet done, if every round before it is stored and done.

        A gap (round 3 stored, round 2 not yet) means "not yet": intake jobs run in any order,
        and the gate of round 3 needs round 2's score. The caller checks the round's status.
        """
        expected = 1
        for r in self.rounds:
            if r.number != expected:
                return None
            if not r.done:
                return r
            expected += 1
        return None


@dataclass(frozen=True, slots=True)
class ApprovalTarget:
    """The task's latest decided round, which a person's approval would concern.

    ``later`` is the first later round not yet decided, as ``(number, status)``, or None;
    ``rejection`` why a person's rejection of another round of the task blocks it for good
    (``gate.rejection_reason``), or None; ``best_round`` the round the decision delivers (a
    force_deliver's best round), or None.
    """

    task_id: str
    complexity: Complexity
    round_id: int
    round_number: int
    decision_kind: str
    later: tuple[int, RoundStatus] | None = None
    rejection: str | None = None
    best_round: int | None = None


@dataclass(frozen=True, slots=True)
class RoundState:
    """Where a round stands on its way, as the sweeper reads it (times UTC, aware).

    ``status_at`` when it entered ``status``; ``retry_at`` when a parked judge retry is due;
    ``lease_until`` while a review attempt holds the round; ``sweeps`` how often the sweeper
    dispatched it again; ``retry_reason`` the last transient judge error, ``judge_retries``
    how many there were.
    """

    id: int
    task_id: str
    number: int
    status: RoundStatus
    status_at: datetime | None = None
    retry_at: datetime | None = None
    lease_until: datetime | None = None
    sweeps: int = 0
    retry_reason: str | None = None
    judge_retries: int = 0


@dataclass(frozen=True, slots=True)
class SubmissionFacts:
    """What the store knows of one submission on its way (``Client.wait``'s progress).

    ``round`` once its round is stored (with the round's ``judge_retries``, ``error`` and its
    review's status and error); before that ``refused`` (a dead letter's reason), the outbox's
    ``published`` count, ``sent_at``, ``given_up`` and whether an intake ``taken`` it, and the
    ``intake_error`` stored when its intake failed before a round could be stored.
    """

    submission_id: str
    round: RoundState | None = None
    judge_retries: int = 0
    error: str | None = None
    review_status: ReviewStatus | None = None
    review_error: str | None = None
    refused: str | None = None
    in_outbox: bool = False
    published: int = 0
    sent_at: datetime | None = None
    given_up: str | None = None
    taken: bool = False
    intake_error: str | None = None


@dataclass(frozen=True, slots=True)
class OutboxEntry:
    """A submission sent through the outbox and not yet taken by an intake (the sweeper's view).

    ``payload`` is the intake message's JSON; ``published`` counts its publishes; ``last_published``
    is when it was last published (when it was written if never), aware UTC.
    """

    submission_id: str
    task_id: str
    payload: str
    published: int
    last_published: datetime


@dataclass(frozen=True, slots=True)
class ReviewAttempt:
    """A review attempt that holds the round's lease, and the round's counts so far."""

    attempts: int
    judge_retries: int
    rate_waits: int


@dataclass(frozen=True, slots=True)
class Dispatch:
    """A round whose jobs must be sent now, and what is due on it (``RoundPlan``).

    ``lease`` is the review attempt its intake took with the round (``ReviewService.intake``
    with a ``review_holder``): the caller reviews it in place under that lease.
    """

    round_id: int
    plan: RoundPlan
    lease: ReviewAttempt | None = None


def _list(text: str | None) -> Sequence[object]:
    return json.loads(text) if text else ()


KEEP_PARSED_CHARS = 64_000
"""Tool calls and results JSON up to this long are kept parsed (256 texts at most: ~16 MB)."""


# A task's earlier rounds are read again for every later round (the detectors see their tool
# outputs): the parsed values, frozen, are kept for the last short texts.
def _tool_calls(text: str) -> tuple[ToolCall, ...]:
    return _kept_calls(text) if len(text) <= KEEP_PARSED_CHARS else _parse_calls(text)


def _tool_results(text: str) -> tuple[ToolResult, ...]:
    return _kept_results(text) if len(text) <= KEEP_PARSED_CHARS else _parse_results(text)


def _parse_calls(text: str) -> tuple[ToolCall, ...]:
    return tuple(ToolCall.model_validate(c) for c in _list(text))


def _parse_results(text: str) -> tuple[ToolResult, ...]:
    return tuple(ToolResult.model_validate(r) for r in _list(text))


_kept_calls = functools.lru_cache(maxsize=256)(_parse_calls)
_kept_results = functools.lru_cache(maxsize=256)(_parse_results)
