"""Value objects and enums of the QGS domain (see DESIGN.md, "Vocabulary").

Everything here is a plain pydantic model or enum: it crosses the queue as JSON and is stored
by the store adapter, but knows nothing of either.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)


class TaskType(StrEnum):
    """What a task asks for; CRITICAL wins over every other type when several match."""

    QUERY = "QUERY"  # look something up
    GENERATE = "GENERATE"  # write an article, code, a plan
    ACTION = "ACTION"  # deploy, restart, install, delete a file
    CRITICAL = "CRITICAL"  # irreversible or dangerous: drop a database, wire money


class Complexity(StrEnum):
    """How much review a task gets."""

    SIMPLE = "SIMPLE"  # no LLM review at all (detectors still run)
    COMPLEX = "COMPLEX"  # full review
    REFLECT = "REFLECT"  # full review + adversarial audit + human confirmation


DEFAULT_COMPLEXITY: dict[TaskType, Complexity] = {
    TaskType.QUERY: Complexity.SIMPLE,
    TaskType.GENERATE: Complexity.COMPLEX,
    TaskType.ACTION: Complexity.COMPLEX,
    TaskType.CRITICAL: Complexity.REFLECT,
}
"""The default type -> complexity mapping of the QGS reference design."""


class Verdict(StrEnum):
    """The critic's verdict on one round."""

    PASS = "PASS"
    PASS_WITH_SUGGESTIONS = "PASS_WITH_SUGGESTIONS"
    FAIL = "FAIL"


class Severity(StrEnum):
    """Severity of a finding, P0 (fatal) to P4 (suggestion)."""

    P0 = "P0"  # fatal: destructive command, privacy leak, following an injection
    P1 = "P1"  # core function missing
    P2 = "P2"  # edge case not handled
    P3 = "P3"  # naming
    P4 = "P4"  # suggestion

    @property
    def weight(self) -> int:
        """Risk points of one finding of this severity (P0=100, P1=50, P2=20, P3=10, P4=5)."""
        return SEVERITY_WEIGHTS[self]


class ArgumentKind(StrEnum):
    """What a tool argument carries; decides which injection detectors judge it (``argscan``)."""

    COMMAND = "command"  # a shell command or script
    SQL = "sql"  # a SQL statement
    URL = "url"  # a URL or URI (SSRF, dangerous schemes)
    PATH = "path"  # a file-system path (traversal, sensitive system files)
    HTML = "html"  # HTML markup rendered for someone (XSS)
    FREE_TEXT = "free_text"  # prose read by people or models (prompt injection)


SEVERITY_WEIGHTS: dict[Severity, int] = {
    Severity.P0: 100,
    Severity.P1: 50,
    Severity.P2: 20,
    Severity.P3: 10,
    Severity.P4: 5,
}


class Permission(StrEnum):
    """What a tool may do; the permission layer (5) grants these to principals and roles."""

    READ = "read"
    WRITE = "write"
    DELETE = "delete"
    EXECUTE = "execute"


class Strictness(StrEnum):
    """How the tool gate's parameter layer reads a tool's schema (``toolgate/schema.py``).

    Defined here, not in the gate's package, so settings can name it without loading jsonschema
    at every start.
    """

    STRICT = "strict"  # plain JSON Schema
    LENIENT = "lenient"  # the declared default, string forms of scalars, case, array enums


class DecisionKind(StrEnum):
    """The gate's outcome for one round (DESIGN.md, "Gate").

    ``continue`` is QGS's word for a round on which no review was due and no detector objected:
    the agent goes on, and the next due review decides.
    """

    PASS = "pass"
    PASS_WITH_SUGGESTIONS = "pass_with_suggestions"
    REVISE = "revise"
    FORCE_DELIVER = "force_deliver"
    BLOCK = "block"
    AWAITING_APPROVAL = "awaiting_approval"
    CONTINUE = "continue"


class RoundStatus(StrEnum):
    """Where a round is in the pipeline (stored in ``round.status``).

    ``queued`` until its turn comes (every earlier round of the task done), ``dispatched`` while
    its jobs run, then ``decided`` or ``failed`` (no decision could be made: a stored error).
    """

    QUEUED = "queued"
    DISPATCHED = "dispatched"
    DECIDED = "decided"
    FAILED = "failed"


ROUND_DONE = (RoundStatus.DECIDED, RoundStatus.FAILED)
"""The statuses after which nothing more runs for a round."""
ROUND_UNFINISHED = (RoundStatus.QUEUED, RoundStatus.DISPATCHED)
"""The statuses of a round still on its way (the sweeper's concern)."""


class ReviewStatus(StrEnum):
    """Whether a stored review is a verdict (``ok``) or a recorded judge failure (``failed``)."""

    OK = "ok"
    FAILED = "failed"


class TerminationReason(StrEnum):
    """Why the revision loop stopped, named by its condition."""

    MAX_REVISIONS_REACHED = "max_revisions_reached"
    OSCILLATING = "oscillating"
    CONVERGED = "converged"
    DIMINISHING_RETURNS = "diminishing_returns"
    FINAL_ROUND = "final_round"


class _Frozen(BaseModel):
    # ``defer_build``: a model's validator is built when it is first used, not at import; a
    # short command (``qgs check-tool``, ``qgs scan``) uses a few of these models (issue 15).
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Classification(_Frozen):
    """A task's type and complexity, and how they were found.

    ``source`` is ``rules`` (the pattern layer), ``llm`` (the fallback layer), ``given`` (the caller
    said so) or ``escalation`` (a detector found P0/P1 work and raised the task to CRITICAL).
    """

    task_type: TaskType
    complexity: Complexity
    confidence: float = Field(ge=0.0, le=1.0)
    source: Literal["rules", "llm", "given", "escalation", "default"]
    matched: tuple[str, ...] = ()
    reason: str = ""


class ToolCall(_Frozen):
    """One tool call an agent made or is about to make, in a shape-neutral form.

    ``arguments`` holds the parsed JSON object; ``raw_arguments`` keeps the original string when
    the call arrived as OpenAI ``tool_calls`` (arguments as a JSON string).
    """

    id: str = ""
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    raw_arguments: str | None = None

    def argument_values(self, *, numbers: bool = False) -> Iterator[tuple[str, str]]:
        """Every string value of the arguments with its path (``command``, ``files[0].content``).

        Args:
            numbers: Yield numbers too, as text (a card number or an amount sent as a JSON
                number); booleans never.

        Returns:
            ``(path, value)`` pairs, depth first; a call whose arguments could not be parsed
            (``arguments == {}`` with a ``raw_arguments`` string) gives
            ``("raw_arguments", the raw string)``.
        """
        if not self.arguments and self.raw_arguments:
            yield "raw_arguments", self.raw_arguments
            return
        yield from _walk_values(self.arguments, "", numbers)


def _walk_values(value: Any, path: str, numbers: bool) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _walk_values(item, f"{path}.{key}" if path else str(key), numbers)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _walk_values(item, f"{path}[{i}]", numbers)
    elif numbers and isinstance(value, int | float) and not isinstance(value, bool):
        yield path, str(value)


class ToolResult(_Frozen):
    """The output of a tool call, as the agent saw it."""

    tool_call_id: str = ""
    name: str = ""
    content: str


class Deliverable(_Frozen):
    """What an agent handed in for one round.

    ``text`` is the answer or artefact; ``tool_calls`` are the calls made in this round;
    ``tool_results`` are the tool outputs the agent saw since its previous round (the context in
    which injected instructions arrive).
    """

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_results: tuple[ToolResult, ...] = ()

    def render(self) -> str:
        """The deliverable as the judge sees it: text, then one line per tool call."""
        lines = [self.text] if self.text else []
        for call in self.tool_calls:
            lines.append(
                f"[tool call] {call.name}({call.raw_arguments or _compact(call.arguments)})"
            )
        return "\n".join(lines)


def _compact(arguments: dict[str, Any]) -> str:
    import json

    return json.dumps(arguments, ensure_ascii=False, sort_keys=True)


class Finding(_Frozen):
    """One defect found in a round, by a detector or a discriminator role.

    ``location`` says where in its round: ``text``, ``tool_call:NAME.ARG``, ``tool_result:N``.
    ``round_number`` is the round the defect is in when that is an earlier round than the one
    the finding is about (an audit of round 5 that finds round 2's ``rm -rf /`` stores it on
    round 5 with ``round_number=2``); None: the round it is stored on, or decided on.
    ``evidence`` is a short excerpt (at most ~200 characters), never the whole deliverable.
    ``rule`` names what fired: a rule id of the rules table (``rm_root``, ``sql_drop``...), or
    ``instruction_model`` for the learned detector; empty for an audit role's LLM pass. It is not
    part of the fingerprint, so a rule renamed in a later release does not duplicate a finding.
    """

    role: str
    category: str
    severity: Severity
    title: str
    evidence: str = ""
    location: str = "text"
    rule: str = ""
    round_number: int | None = Field(default=None, ge=1)

    @model_serializer(mode="wrap")
    def _without_no_round(self, handler: SerializerFunctionWrapHandler) -> Any:
        """Serialize without ``round_number`` while it is None.

        A finding about its own round (every one of ``qgs scan``) serializes as it did before
        the field existed.
        """
        data = handler(self)
        if self.round_number is None and isinstance(data, dict):
            data.pop("round_number", None)
        return data

    @property
    def where(self) -> str:
        """The location as shown: ``round N: <location>`` for an earlier round's, else ``location``."""
        if self.round_number is None:
            return self.location
        return f"round {self.round_number}: {self.location}"

    @property
    def fingerprint(self) -> str:
        """A stable key of this finding within one round (role, category, where, evidence, title).

        ``where`` (not ``location``): an earlier round's finding keeps the key it had when the
        round travelled as a ``round N: `` prefix of the location, so stored ones still dedupe.
        """
        import hashlib

        key = "\x1f".join((self.role, self.category, self.where, self.evidence, self.title))
        return hashlib.sha256(key.encode()).hexdigest()[:32]


_ROUND_PREFIX = re.compile(r"round ([1-9][0-9]*): ")
"""The older form of ``Finding.round_number``: a prefix of the location, as ``where`` shows it."""


def split_round_prefix(location: str) -> tuple[int | None, str]:
    """A location in the older ``round N: <location>`` form split into ``(N, <location>)``.

    Stores written before ``Finding.round_number`` existed, and audit roles written to the
    older contract, carry the round that way; any other location is ``(None, location)``.
    """
    match = _ROUND_PREFIX.match(location)
    if match is None:
        return None, location
    return int(match.group(1)), location[match.end() :]


def with_round_field(finding: Finding) -> Finding:
    """``finding`` with an older ``round N: `` location prefix moved into ``round_number``.

    A finding that already has a ``round_number``, or whose location has no such prefix, is
    returned as it is. The fingerprint does not change (it is computed over ``where``).
    """
    if finding.round_number is not None:
        return finding
    number, location = split_round_prefix(finding.location)
    if number is None:
        return finding
    return finding.model_copy(update={"round_number": number, "location": location})


ROLE_FAILED = "role_failed"
"""The category of the finding an audit role leaves when it raised or ran out of time."""

REFUSAL = "refusal"
"""The category of the detectors' P4 finding on a round whose text declines the task
(``core/nonanswers.refusal``): on an ACTION or CRITICAL task the gate asks a person."""


def risk_of(findings: list[Finding] | tuple[Finding, ...]) -> int:
    """A round's risk: the sum of its findings' severity weights (P0=100 ... P4=5).

    A ``role_failed`` finding says the audit is incomplete, not that the deliverable has a
    defect: it does not count.
    """
    return sum(f.severity.weight for f in findings if f.category != ROLE_FAILED)


class DimensionScore(_Frozen):
    """The critic's score for one dimension (e.g. ``safety``), 0-100, with the issues it saw."""

    name: str
    score: int = Field(ge=0, le=100)
    issues: tuple[str, ...] = ()


class Review(_Frozen):
    """The critic's verdict on one round.

    ``judge`` names the judge that gave it (``rules judge`` for the offline one); ``warnings`` carry
    e.g. the halo-effect warning. ``latency_ms`` is the wall time of the judge call.
    """

    verdict: Verdict
    score: int = Field(ge=0, le=100)
    dimensions: tuple[DimensionScore, ...] = ()
    must_fix: tuple[str, ...] = ()
    summary: str = ""
    judge: str = ""
    warnings: tuple[str, ...] = ()
    latency_ms: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0


class ReviewRequest(_Frozen):
    """What the judge is given: requirements, criteria and the output, never the agent's reasoning.

    ``request`` is the task's first user request; ``turn`` is the later user turn this round
    answers in a multi-turn run (the latest user message before it), or ``""`` when the round
    answers the request itself. The judge scores the round against the turn and reads the
    request as context. ``dimensions`` are the names the review must score (see
    ``rubric.dimensions_for``).
    """

    task_type: TaskType
    request: str
    deliverable: str
    dimensions: tuple[str, ...]
    requirements: tuple[str, ...] = ()
    criteria: tuple[str, ...] = ()
    turn: str = ""

    @property
    def asked(self) -> str:
        """What this round must answer: the turn when there is one, else the request."""
        return self.turn or self.request


class AuditBrief(_Frozen):
    """What an audit role asks the judge: one kind of defect to hunt for, on fenced material.

    ``instructions`` say what to look for (e.g. "claims not grounded in fact"); ``material`` is
    the deliverable (and, for transcripts, the tool calls), which the judge treats as data;
    ``max_severity`` caps what the judge may report (an LLM's opinion alone never blocks: P0
    comes from deterministic detectors or a person).
    """

    role: str
    instructions: str
    request: str
    material: str
    max_severity: Severity = Severity.P1


class RoundPlan(_Frozen):
    """What is due on one round: a critic review, a discriminator audit, or neither."""

    critic: bool
    discriminate: bool
    reason: str = ""


class Termination(_Frozen):
    """Why the revision loop stops, with a plain-words detail (e.g. the scores that converged)."""

    reason: TerminationReason
    detail: str = ""


class _Additive(BaseModel):
    # A value the faces send out (the HTTP API, webhooks) and a client reads back: fields a
    # later QGS adds are ignored by an older client instead of refused.
    model_config = ConfigDict(frozen=True, extra="ignore", defer_build=True)


class RecurringFix(_Additive):
    """A must_fix item that came back in more than one reviewed round (``Replan``).

    ``item`` is its first wording; ``rounds`` the reviewed rounds that listed it (or a close
    rewording of it), in order; ``count`` is ``len(rounds)``.
    """

    item: str
    count: int = Field(ge=2)
    rounds: tuple[int, ...]


class UnmetCriterion(_Additive):
    """A criterion no reviewed round met (``Replan``).

    ``source`` ``rubric``: a dimension the critic scored (``criterion`` its name,
    ``requirement`` its sentence) that stayed under the pass line in every reviewed round,
    ``best_score`` its best; ``rounds`` the rounds that scored it. ``task``: one of the
    planner's verification criteria that the critic's must_fix or issues named in every
    reviewed round; ``rounds`` the rounds that named it, ``best_score`` None. When every round
    failed as a non-answer: ``an answer to the request`` (``rubric``), the reason as
    ``requirement`` (``core/replan.py``).
    """

    criterion: str
    source: Literal["rubric", "task"]
    rounds: tuple[int, ...]
    best_score: int | None = None
    requirement: str = ""


class Replan(_Additive):
    """What the planner should know when the revision loop stops without a pass.

    Carried by a ``force_deliver`` decision (``Decision.replan``): the loop ended
    (``termination``, in words in ``detail``) on the best round so far, but no round passed;
    repeated failure says the plan, not the draft, may be wrong.

    Attributes:
        termination: Why the loop stopped.
        detail: The termination rule's numbers, in words.
        rounds: The reviewed rounds, oldest first; ``scores`` their critic scores (0-100).
        best_round: The round delivered (the best-scoring one).
        close_rounds: Other reviewed rounds whose score is within the gate's noise
            (``GatePolicy.noise_points``) of the best: the choice between them rests on scores
            no more precise than that.
        unmet_criteria: The criteria never met.
        recurring_must_fix: The must_fix items that kept coming back, most frequent first.
        advice: One sentence for the planner.
    """

    termination: TerminationReason
    detail: str = ""
    rounds: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    best_round: int | None = None
    close_rounds: tuple[int, ...] = ()
    unmet_criteria: tuple[UnmetCriterion, ...] = ()
    recurring_must_fix: tuple[RecurringFix, ...] = ()
    advice: str = ""


class Decision(_Frozen):
    """The gate's outcome for one round.

    ``best_round`` is the round to deliver on ``force_deliver`` (the best-scoring one), and
    ``must_fix`` then that round's own (set by the review service when it is an earlier round);
    ``risk`` is the weighted sum of the round's findings. ``replan`` is set on every
    ``force_deliver`` (the loop stopped without a pass: what to send back to the planner),
    None otherwise.
    """

    kind: DecisionKind
    reason: str
    termination: TerminationReason | None = None
    best_round: int | None = None
    must_fix: tuple[str, ...] = ()
    suggestions: tuple[str, ...] = ()
    risk: int = 0
    replan: Replan | None = None


class TaskHistory(_Frozen):
    """What the gate must know of a task's rounds before the one it decides.

    Attributes:
        scores: ``(round_number, score)`` of the earlier rounds the critic reviewed (judge
            failures left out), in round order.
        p0_findings: The earlier rounds' P0 findings, each with the ``round_number`` it is in:
            a P0 blocks the task for good, so it counts again on every later round.
        rejection: Why a person's rejection of an earlier round (``qgs approve --reject``)
            blocks the task, or None: a rejected task is never delivered.
    """

    scores: tuple[tuple[int, int], ...] = ()
    p0_findings: tuple[Finding, ...] = ()
    rejection: str | None = None


class GatePolicy(_Frozen):
    """Thresholds of the gate and of the termination rules.

    Defaults follow the QGS reference design: stop after 4 revisions after the first reviewed
    round; oscillation is up, down, up with each move beyond ``noise_points``; convergence is two
    consecutive changes under ``convergence_points``; diminishing returns is a last gain under
    ``diminishing_points`` at or above ``high_score``. When the judge fails, tasks of
    ``fail_open_types`` (default QUERY) are delivered with a warning; every other type is held
    (fail-closed).
    """

    max_revisions: int = Field(default=4, ge=1)
    noise_points: int = Field(default=2, ge=0)
    convergence_points: int = Field(default=5, ge=0)
    high_score: int = Field(default=80, ge=0, le=100)
    diminishing_points: int = Field(default=3, ge=0)
    fail_open_types: tuple[TaskType, ...] = (TaskType.QUERY,)


class CadencePolicy(_Frozen):
    """How often the critic and the discriminator run (reference design: every 2nd / 10th round)."""

    critic_every: int = Field(default=2, ge=1)
    discriminator_every: int = Field(default=10, ge=1)


@dataclass(frozen=True, slots=True)
class RateDecision:
    """A rate limiter's answer: may the call go now, and if not, when.

    ``used`` is what the window holds after this call (requests, or tokens for a token limit);
    ``retry_after_s`` is 0 when allowed, else the seconds until enough of the window has expired.
    A plain dataclass, not a pydantic model: it is built on every tool-call check (the gate's
    hot path), by limiters that already checked their numbers.
    """

    allowed: bool
    used: int
    limit: int
    retry_after_s: float = 0.0
