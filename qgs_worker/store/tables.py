"""SQLModel tables of the results store: every task, round, review, finding, decision, approval.

Idempotency comes from unique keys, so a redelivered job never duplicates a row:
``round.submission_id``, ``(round.task_id, round.number)``, ``review.round_id``,
``(dimension_score.review_id, name)``, ``(finding.round_id, fingerprint)``,
``decision.round_id``, ``(approval.task_id, round_id)``,
``(audit_error.source_file, line, fingerprint)``, ``tool_call_check.check_id``,
``outbox.submission_id``, ``lease.name``.
Lists are stored as JSON text so the same schema works on SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, DateTime, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from qgs_worker.core.models import ReviewStatus, RoundStatus
from qgs_worker.store.base import utcnow

__all__ = [
    "ApprovalRow",
    "AuditErrorRow",
    "AuditRunRow",
    "DeadLetterRow",
    "DecisionRow",
    "DimensionScoreRow",
    "FindingRow",
    "LeaseRow",
    "OutboxRow",
    "ReviewRow",
    "RoundRow",
    "TaskRow",
    "ToolCallCheckRow",
    "utcnow",
]


class TaskRow(SQLModel, table=True):
    """One user request handled by an agent, with its classification (and escalation).

    ``principal`` is the API key's principal that started it over the HTTP API or MCP (another
    principal's request for it is a "not found"); None for tasks started in-process, by the CLI,
    by an audit, and in rows an older QGS stored. ``key_id`` is the id of the key that started
    it (whose webhook secret signs its webhooks), None where ``principal`` is None or in rows an
    older QGS stored.
    """

    __tablename__ = "task"

    id: str = Field(primary_key=True, max_length=64)
    request: str = Field(sa_column=Column(Text, nullable=False))
    agent: str | None = None
    agent_model: str | None = None
    task_type: str
    complexity: str
    classification_source: str
    confidence: float
    matched: str = "[]"
    escalated: bool = False
    escalation_reason: str | None = Field(default=None, sa_column=Column(Text))
    requirements: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    criteria: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    source_file: str | None = None
    source_line: int | None = None
    transcript_id: str | None = None
    # Where the task's decisions are pushed (``qgs_worker.webhooks``); None: nowhere.
    callback_url: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    created_at: datetime = Field(default_factory=utcnow)
    principal: str | None = Field(default=None, max_length=128, index=True)
    # The API key that started it: its webhook secret signs the task's webhooks (None: started
    # in-process, or stored by an older QGS: the principal's newest live key signs).
    key_id: str | None = Field(default=None, max_length=32)


class RoundRow(SQLModel, table=True):
    """One submitted deliverable snapshot of a task; ``status`` is queued, dispatched, decided or failed.

    ``turn`` is the user turn the round answers in a multi-turn run (None: the task's request;
    also None in rows an older QGS stored).

    Recovery columns (``qgs_worker.queue.sweeper``; all NULL in rows an older QGS stored):
    ``status_at`` when the round entered its status (UTC); ``retry_at`` when a parked judge
    retry is due (the job was acknowledged; the sweeper brings it back); ``judge_retries`` the
    transient judge failures so far and ``retry_reason`` the last one; ``rate_waits`` the waits
    for the shared rate limit; ``sweeps`` how often the sweeper re-dispatched the round;
    ``lease_holder`` / ``lease_until`` the review attempt running now (a redelivered copy of
    its job does not call the judge while the lease holds); ``review_key`` what identifies the
    round's review (``service.requests.review_key``), set at intake so the critic finds a review to
    reuse in the same load.
    """

    __tablename__ = "round"
    __table_args__ = (UniqueConstraint("task_id", "number", name="uq_round_task_number"),)

    id: int | None = Field(default=None, primary_key=True)
    submission_id: str = Field(unique=True, index=True, max_length=128)
    task_id: str = Field(foreign_key="task.id", index=True, max_length=64)
    number: int
    final: bool = False
    content: str = Field(sa_column=Column(Text, nullable=False))
    tool_calls: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    tool_results: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    turn: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    content_hash: str = Field(max_length=64)
    plan_critic: bool = False
    plan_discriminate: bool = False
    plan_reason: str = ""
    status: str = RoundStatus.QUEUED.value
    error: str | None = Field(default=None, sa_column=Column(Text))
    attempts: int = 0
    created_at: datetime = Field(default_factory=utcnow)
    status_at: datetime | None = Field(
        default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=True)
    )
    retry_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )
    judge_retries: int | None = None
    retry_reason: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    rate_waits: int | None = None
    sweeps: int | None = None
    lease_holder: str | None = Field(default=None, max_length=64)
    review_key: str | None = Field(default=None, max_length=64)
    lease_until: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )
    # The submission's own callback URL (wins over the task's); None: the task's, if any.
    callback_url: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


class ReviewRow(SQLModel, table=True):
    """The critic's verdict on one round, or a recorded judge failure (``status`` = failed)."""

    __tablename__ = "review"

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="round.id", unique=True)
    status: str = ReviewStatus.OK.value
    review_key: str | None = Field(default=None, index=True, max_length=64)
    reused_from: int | None = None
    verdict: str | None = None
    score: int | None = None
    summary: str = Field(default="", sa_column=Column(Text, nullable=False))
    judge: str = ""
    must_fix: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    warnings: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    error: str | None = Field(default=None, sa_column=Column(Text))
    raw: str | None = Field(default=None, sa_column=Column(Text))
    latency_ms: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    created_at: datetime = Field(default_factory=utcnow)


class DimensionScoreRow(SQLModel, table=True):
    """One dimension's score in a review."""

    __tablename__ = "dimension_score"
    __table_args__ = (UniqueConstraint("review_id", "name", name="uq_dimension_review_name"),)

    id: int | None = Field(default=None, primary_key=True)
    review_id: int = Field(foreign_key="review.id", index=True)
    name: str
    score: int
    issues: str = Field(default="[]", sa_column=Column(Text, nullable=False))


class FindingRow(SQLModel, table=True):
    """One defect found in a round by a detector or a discriminator role."""

    __tablename__ = "finding"
    __table_args__ = (UniqueConstraint("round_id", "fingerprint", name="uq_finding_round_fp"),)

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="round.id", index=True)
    fingerprint: str = Field(max_length=64)
    role: str
    category: str
    severity: str
    title: str = Field(sa_column=Column(Text, nullable=False))
    evidence: str = Field(default="", sa_column=Column(Text, nullable=False))
    location: str = ""
    rule: str | None = (
        None  # what fired (a rules-table id, ``instruction_model``); None: older rows
    )
    # The earlier round the defect is in (``Finding.round_number``); None: this round.
    round_number: int | None = None
    created_at: datetime = Field(default_factory=utcnow)


class DecisionRow(SQLModel, table=True):
    """The gate's outcome for one round, with why the loop stopped and what goes to the planner.

    ``termination`` when the revision loop stopped; ``replan`` on a force_deliver.
    """

    __tablename__ = "decision"

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="round.id", unique=True)
    task_id: str = Field(foreign_key="task.id", index=True, max_length=64)
    kind: str
    reason: str = Field(sa_column=Column(Text, nullable=False))
    termination: str | None = None
    best_round: int | None = None
    must_fix: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    suggestions: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    risk: int = 0
    created_at: datetime = Field(default_factory=utcnow)
    # The ``Replan`` of a force_deliver as JSON (NULL otherwise); added to an older store's
    # table by ``schema.add_missing_columns``, NULL on the rows decided before.
    replan: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


class ApprovalRow(SQLModel, table=True):
    """A person's decision on a round whose gate decision waited for one (``qgs approve``).

    ``round_id`` is the round whose decision (``decision``: ``awaiting_approval``, or
    ``force_deliver`` on a REFLECT task) awaited approval; ``approved`` False is a rejection,
    with ``note`` saying why. One row per (task, round): a second, different decision is refused.
    ``created_at`` is stored with its time zone (UTC) where the database keeps one.
    """

    __tablename__ = "approval"
    __table_args__ = (UniqueConstraint("task_id", "round_id", name="uq_approval_task_round"),)

    id: int | None = Field(default=None, primary_key=True)
    task_id: str = Field(foreign_key="task.id", index=True, max_length=64)
    round_id: int = Field(foreign_key="round.id", index=True)
    decision: str
    approved: bool
    by: str = Field(max_length=128)
    note: str = Field(default="", sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(
        default_factory=utcnow,
        sa_column=Column(DateTime(timezone=True), nullable=False, default=utcnow),
    )


class AuditErrorRow(SQLModel, table=True):
    """An input that could not become a task (a broken transcript line), with its reason."""

    __tablename__ = "audit_error"
    __table_args__ = (
        UniqueConstraint("source_file", "line", "fingerprint", name="uq_audit_error"),
    )

    id: int | None = Field(default=None, primary_key=True)
    source_file: str
    line: int
    fingerprint: str = Field(max_length=64)
    message: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)


class AuditRunRow(SQLModel, table=True):
    """One audit role's run on one round: ok or failed, how long, how many findings.

    Unique per (round, role): a redelivered discriminator job skips the roles that already ran.
    """

    __tablename__ = "audit_run"
    __table_args__ = (UniqueConstraint("round_id", "role", name="uq_audit_run_round_role"),)

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="round.id", index=True)
    role: str = Field(max_length=128)
    status: str = Field(max_length=16)  # ok | failed
    error: str | None = Field(default=None, sa_column=Column(Text))
    findings: int = 0
    duration_ms: float = 0.0
    created_at: datetime = Field(default_factory=utcnow)


class ToolCallCheckRow(SQLModel, table=True):
    """One pre-execution check of a tool call (``qgs.toolgate.log``), allowed or rejected.

    ``check_id`` (32 hex digits, made by the client) is unique: a redelivered log job writes no
    second row. ``created_at`` is when the check ran, UTC. ``stopped_at`` is the number of the
    layer that rejected the call (1 format ... 6 injection; None when allowed) and
    ``stopped_layer`` its name. ``errors`` (the failing layer's first few), ``warnings`` and
    ``layers`` (``[[number, name, status], ...]``) are JSON text; ``latency_us`` is the check's
    wall time in microseconds.
    """

    __tablename__ = "tool_call_check"

    id: int | None = Field(default=None, primary_key=True)
    check_id: str = Field(unique=True, max_length=32)
    created_at: datetime = Field(
        default_factory=utcnow,
        sa_column=Column(DateTime(timezone=True), nullable=False, index=True, default=utcnow),
    )
    principal: str | None = Field(default=None, max_length=128)
    agent: str | None = Field(default=None, max_length=128)
    tool: str | None = Field(default=None, max_length=128)
    shape: str = Field(max_length=16)
    call_id: str | None = Field(default=None, max_length=128)
    allowed: bool
    stopped_at: int | None = Field(default=None, index=True)
    stopped_layer: str | None = Field(default=None, max_length=64)
    errors: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    warnings: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    layers: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    suggestion: str | None = Field(default=None, sa_column=Column(Text))
    latency_us: float = 0.0


class OutboxRow(SQLModel, table=True):
    """A submission written before its intake job is published (the store knows it was sent).

    ``payload`` is the intake message's JSON (what ``qgs.review.intake`` receives); ``taken_at``
    is set by the intake that stored its round (in the same transaction), ``published`` counts
    publishes (the first by the client, the others by the sweeper), ``given_up`` says why the
    sweeper stopped publishing it (NULL while it goes on), ``round_number`` the number the client
    gave the round (NULL in rows an older QGS stored), so a second client numbers after it.
    """

    __tablename__ = "outbox"

    submission_id: str = Field(primary_key=True, max_length=128)
    task_id: str = Field(index=True, max_length=64)
    payload: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(
        default_factory=utcnow,
        sa_column=Column(DateTime(timezone=True), nullable=False, default=utcnow),
    )
    published: int = 1
    published_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )
    taken_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True, index=True)
    )
    given_up: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    round_number: int | None = None


class LeaseRow(SQLModel, table=True):
    """A named lease (e.g. ``sweeper``): one holder at a time, until ``expires_at`` (UTC).

    Taken by a conditional UPDATE (free, expired, or already ours), so it works on any broker.
    """

    __tablename__ = "lease"

    name: str = Field(primary_key=True, max_length=64)
    holder: str = Field(max_length=128)
    expires_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class DeadLetterRow(SQLModel, table=True):
    """A message a worker could not decode or validate, kept with its reason and raw head.

    ``job`` is the job name (``qgs.review.intake``); ``raw_head`` the first ~2 KB of the body
    as received; ``submission_id`` / ``task_id`` / ``message_id`` when they could be read.
    """

    __tablename__ = "dead_letter"

    id: int | None = Field(default=None, primary_key=True)
    job: str = Field(max_length=128)
    reason: str = Field(sa_column=Column(Text, nullable=False))
    raw_head: str = Field(default="", sa_column=Column(Text, nullable=False))
    message_id: str | None = Field(default=None, max_length=64)
    submission_id: str | None = Field(default=None, max_length=128, index=True)
    task_id: str | None = Field(default=None, max_length=64, index=True)
    received_at: datetime = Field(
        default_factory=utcnow,
        sa_column=Column(DateTime(timezone=True), nullable=False, default=utcnow),
    )
