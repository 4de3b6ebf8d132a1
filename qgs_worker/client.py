"""What an agent imports: start a task, get its constraints, submit rounds, read decisions.

``submit`` is fire-and-forget: it validates the round, puts one message on the ``qgs.default``
queue and returns a submission id at once; ``wait`` (or ``decision``) reads the decision from the
results store when the workers have made it.

    from qgs_worker.client import Client
    qgs = Client()                                  # settings from QGS_* environment variables
    task = qgs.start_task("Deploy the billing service", agent="deploy-bot", model="gpt-4.1")
    extra = qgs.constraints(task.id)
    sub = qgs.submit(task.id, deliverable=text, final=False)
    decision = qgs.wait(sub.id, timeout_s=60)

A REFLECT task that passes review waits for a person (``awaiting_approval``; also
``force_deliver`` on a REFLECT task): ``approve`` records their decision, and every decision
view then says so (``approval``, ``outcome``, ``delivered``).

``check_tool_call`` is the other way round: synchronous, in-process, on the agent's hot path.
It returns the gate's report (a rejection is ``report.allowed`` False, never an exception) and
hands it to a background thread that logs it to the store through the queue
(``qgs_worker.toolcheck``).

    report = qgs.check_tool_call(message["tool_calls"][0], principal="deploy-bot")
    if not report.allowed:
        ...  # report.stopped_at, report.errors, report.suggestion
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError

from qgs_worker import pipeline
from qgs_worker.core.gate import needs_approval
from qgs_worker.core.models import (
    Classification,
    Complexity,
    Deliverable,
    TaskType,
    ToolCall,
)
from qgs_worker.core.toolgate import (
    GateReport,
    ParsedCall,
    ToolGate,
    ToolRegistry,
    parse_calls,
)
from qgs_worker.errors import (
    BrokerUnavailableError,
    ConfigurationError,
    InputError,
    NotAwaitingApprovalError,
    WaitTimeoutError,
    validation_summary,
)
from qgs_worker.gate_cache import GATE_CACHE_MAX as GATE_CACHE_MAX  # its old home
from qgs_worker.gate_cache import GateCache
from qgs_worker.settings import Settings
from qgs_worker.store import (
    ApprovalRow,
    DecisionRow,
    Repository,
    RoundRow,
    as_utc,
    loads_list,
)
from qgs_worker.submission import NewTask, Submission, check_value, validate_message
from qgs_worker.toolcheck import CheckLogSender, send_with
from qgs_worker.toolgate_io import tool_gate_for as tool_gate_for  # its old home

if TYPE_CHECKING:
    from qgs_worker.progress import WaitProgress

logger = logging.getLogger(__name__)

Tools = ToolGate | ToolRegistry | Sequence[Mapping[str, Any]] | Mapping[str, Any] | Sequence[type]
"""What ``tools=`` takes: a gate, a registry, tool definitions (OpenAI, Anthropic, MCP) as JSON
data, or pydantic model classes (named by their class name, as the OpenAI SDK names them)."""
"""What ``check_tool_call(tools=...)`` takes: a gate, a registry, or tool definitions (a list of
OpenAI, Anthropic or MCP definitions, or an MCP ``tools/list`` result)."""


class TaskHandle(BaseModel):
    """A started task: its id and classification."""

    model_config = ConfigDict(frozen=True)

    id: str
    task_type: TaskType
    complexity: Complexity
    classification: Classification


class SubmissionHandle(BaseModel):
    """A submission on its way: ``id`` is what ``decision`` and ``wait`` take."""

    model_config = ConfigDict(frozen=True)

    id: str
    task_id: str


APPROVER_MAX_CHARS = 128
"""The longest name ``approve(by=...)`` accepts, in characters."""

APPROVAL_NOTE_MAX_CHARS = 2_000
"""The longest note ``approve(note=...)`` (``qgs approve --note``) accepts, in characters."""


class ApprovalView(BaseModel):
    """A person's decision on a round that waited for one.

    ``decision`` is the gate's decision that awaited approval (``awaiting_approval``, or
    ``force_deliver`` on a REFLECT task); ``approved`` False is a rejection; ``created_at`` is
    timezone-aware UTC.
    """

    model_config = ConfigDict(frozen=True)

    task_id: str
    round_number: int
    decision: str
    approved: bool
    by: str
    note: str = ""
    created_at: datetime

    @property
    def outcome(self) -> str:
        """``approved`` or ``rejected``."""
        return "approved" if self.approved else "rejected"


def approval_view(row: ApprovalRow, round_number: int) -> ApprovalView:
    """Turn a stored approval into an ApprovalView (``round_number`` of its round)."""
    return ApprovalView(
        task_id=row.task_id,
        round_number=round_number,
        decision=row.decision,
        approved=row.approved,
        by=row.by,
        note=row.note,
        created_at=as_utc(row.created_at),
    )


class DecisionView(BaseModel):
    """A decision as the agent reads it: the gate's outcome plus the round's score.

    ``kind`` is the gate's decision, as stored. When it waits for a person
    (``approval_required``: ``awaiting_approval``, or ``force_deliver`` on a REFLECT task),
    ``approval`` holds their decision once made, and ``outcome`` / ``delivered`` follow it.
    """

    model_config = ConfigDict(frozen=True)

    task_id: str
    submission_id: str
    round_number: int
    kind: str
    reason: str
    termination: str | None = None
    best_round: int | None = None
    must_fix: tuple[str, ...] = ()
    suggestions: tuple[str, ...] = ()
    risk: int = 0
    score: int | None = None
    verdict: str | None = None
    approval_required: bool = False
    approval: ApprovalView | None = None

    @property
    def awaiting_approval(self) -> bool:
        """True while the decision waits for a person (``qgs approve``)."""
        return self.approval_required and self.approval is None

    @property
    def outcome(self) -> str:
        """The effective outcome, as a person would say it.

        ``approved`` or ``rejected`` once a person decided; ``awaiting_approval`` while one
        must (``force_deliver`` on a REFLECT task included); ``kind`` otherwise.
        """
        if self.approval is not None:
            return self.approval.outcome
        return "awaiting_approval" if self.approval_required else self.kind

    @property
    def delivered(self) -> bool:
        """True when the round (or the best round, on force_deliver) may be delivered now.

        A decision that waits for a person is delivered only once approved; a rejected one is
        blocked for good.
        """
        if self.approval_required:
            return self.approval is not None and self.approval.approved
        return self.kind in ("pass", "pass_with_suggestions", "force_deliver")


def decision_view(repo: Repository, row: RoundRow, decision: DecisionRow) -> DecisionView:
    """Combine a stored decision with its round's review and approval into a DecisionView."""
    assert row.id is not None
    review = repo.get_review(row.id)
    task = repo.get_task(row.task_id)
    required = needs_approval(decision.kind, task.complexity)
    approval = repo.get_approval(row.id) if required else None
    return DecisionView(
        task_id=row.task_id,
        submission_id=row.submission_id,
        round_number=row.number,
        kind=decision.kind,
        reason=decision.reason,
        termination=decision.termination,
        best_round=decision.best_round,
        must_fix=tuple(loads_list(decision.must_fix)),
        suggestions=tuple(loads_list(decision.suggestions)),
        risk=decision.risk,
        score=review.score if review else None,
        verdict=review.verdict if review else None,
        approval_required=required,
        approval=approval_view(approval, row.number) if approval else None,
    )


class Client:
    """The agent-side API of QGS.

    Args:
        settings: QGS settings; read from ``QGS_*`` environment variables when None.
        app: A Celery app to send with (built from ``settings`` when None; needs a broker URL).
    """

    def __init__(self, settings: Settings | None = None, *, app: Any = None) -> None:
        self.settings = settings or Settings()
        self.repo = Repository(self.settings.resolved_database_url)
        self._app = app
        self._next_round: dict[str, int] = {}
        self._default_gate: ToolGate | None = None
        self._gate_cache = GateCache(self._new_gate)
        self._tool_log: CheckLogSender | None = None
        self._tool_log_ready = False
        self._tool_log_send: Any = None  # a toolcheck.send_with(...) once built
        self._tool_log_lock = threading.Lock()

    @property
    def app(self) -> Any:
        """The Celery app used to send submissions (built on first use)."""
        if self._app is None:
            if not self.settings.broker_url:
                raise ConfigurationError(
                    "the client needs a broker: set QGS_BROKER_URL (e.g. redis://127.0.0.1:6379/0), "
                    "or run `qgs submit`, which starts the embedded one"
                )
            from qgs_worker.celery_app import create_celery_app

            self._app = create_celery_app(self.settings)
        return self._app

    def start_task(
        self,
        request: str,
        *,
        agent: str | None = None,
        model: str | None = None,
        requirements: Sequence[str] = (),
        criteria: Sequence[str] = (),
        task_type: TaskType | str | None = None,
        task_id: str | None = None,
    ) -> TaskHandle:
        """Classify a request and store it as a new task (idempotent for a given ``task_id``).

        Args:
            request: The user's request, as the agent received it.
            agent: The agent's name, for reports.
            model: The agent's model (a judge of the same family is flagged in a later issue).
            requirements: The planner's requirements the judge checks the output against.
            criteria: The planner's verification criteria.
            task_type: Skip the classifier and use this type.
            task_id: Your own id (at most 64 characters); a new one is made when None.

        Raises:
            InputError: an empty request or an unknown task type.
        """
        if not request or not request.strip():
            raise InputError("'request' is empty: pass the user's request text")
        kind = None
        if task_type is not None:
            try:
                kind = TaskType(str(task_type).upper())
            except ValueError:
                raise InputError(
                    f"'task_type' must be one of {', '.join(t.value for t in TaskType)} (got {task_type!r})"
                ) from None
        found = pipeline.classify(request, kind, llm=self._llm_classifier())
        new = NewTask(
            request=request,
            agent=agent,
            agent_model=model,
            requirements=tuple(requirements),
            criteria=tuple(criteria),
        )
        row = self.repo.add_task(
            pipeline.task_row(task_id or f"t-{uuid.uuid4().hex[:16]}", found, new)
        )
        return TaskHandle(
            id=row.id,
            task_type=TaskType(row.task_type),
            complexity=Complexity(row.complexity),
            classification=found,
        )

    def _llm_classifier(self) -> Any:
        if not hasattr(self, "_llm"):
            from qgs_worker.judges import llm_classifier_for

            self._llm = llm_classifier_for(self.settings.judge)
        return self._llm

    def constraints(self, task_id: str) -> str:
        """The text to add to the agent's next prompt ("" for SIMPLE tasks).

        Raises:
            TaskNotFoundError: no such task.
        """
        return pipeline.constraints(self.repo, task_id)

    def make_submission(
        self,
        task_id: str,
        deliverable: str | Deliverable,
        *,
        final: bool = False,
        round_number: int | None = None,
        tool_calls: Sequence[ToolCall] = (),
        submission_id: str | None = None,
        task: NewTask | None = None,
        turn: str | None = None,
    ) -> Submission:
        """Build and validate a submission without sending it.

        ``turn`` is the user message the round answers (see ``submit``); blank text is None.

        Raises:
            DeliverableTooLargeError: the deliverable or the turn is over
                ``QGS_MAX_DELIVERABLE_BYTES``.
            InputError: a field is malformed (``turn`` not a string included).
        """
        if isinstance(deliverable, str):
            deliverable = Deliverable(text=deliverable, tool_calls=tuple(tool_calls))
        if turn is not None and not isinstance(turn, str):
            raise InputError(
                f"'turn' must be the text of the user message this round answers (got "
                f"{type(turn).__name__}); pass None when the round answers the task's request"
            )
        # Depth and encoding first (the worker checks the same): InputError, not a
        # RecursionError or UnicodeEncodeError from deep inside json or pydantic.
        check_value(deliverable, where="deliverable")
        if turn is not None:
            check_value(turn, where="turn")
        try:
            submission = Submission(
                submission_id=submission_id or f"s-{uuid.uuid4().hex}",
                task_id=task_id,
                round_number=round_number,
                final=final,
                deliverable=deliverable,
                task=task,
                turn=turn if turn and turn.strip() else None,
            )
        except ValidationError as exc:
            raise InputError(f"invalid submission: {validation_summary(exc)}") from exc
        return validate_message(submission, self.settings.max_deliverable_bytes)

    def send(self, submission: Submission) -> SubmissionHandle:
        """Record a validated submission in the store's outbox, then enqueue it on ``qgs.default``.

        The outbox row comes first: a job the queue loses after this returns (a worker killed
        between Redis handing it over and recording it) is published again by the sweeper
        (``qgs_worker.sweeper``). When the publish fails, the row is removed again, so a
        submission the caller was told was not queued never turns up later.

        Raises:
            BrokerUnavailableError: the broker did not answer (after Celery's publish retries);
                nothing was queued and nothing is left in the outbox.
            StoreError: the store could not record the submission; nothing was queued.
        """
        from kombu.exceptions import OperationalError

        # No "turn" key when there is none: a worker of an older QGS still takes the message.
        message = submission.model_dump(
            mode="json", exclude={"turn"} if submission.turn is None else None
        )
        self._outbox(submission, message)
        try:
            publish_intake(self.app, message, submission.short_repr())
        except (OperationalError, OSError, TimeoutError) as exc:
            self.repo.drop_outbox(submission.submission_id)
            raise BrokerUnavailableError(
                f"cannot reach the broker ({exc}); submission {submission.submission_id!r} "
                "was not queued: check QGS_BROKER_URL and that Redis runs, then submit again"
            ) from exc
        except BaseException:
            self.repo.drop_outbox(submission.submission_id)
            raise
        return SubmissionHandle(id=submission.submission_id, task_id=submission.task_id)

    def _outbox(self, submission: Submission, message: dict[str, Any]) -> None:
        from sqlalchemy.exc import SQLAlchemyError

        from qgs_worker.errors import StoreError

        try:
            self.repo.add_outbox(
                submission.submission_id,
                submission.task_id,
                json.dumps(message, ensure_ascii=False),
            )
        except SQLAlchemyError as exc:
            raise StoreError(
                f"cannot record submission {submission.submission_id!r} in the store "
                f"({str(exc).splitlines()[0]}); it was not queued: check QGS_DATABASE_URL"
            ) from exc

    def submit(
        self,
        task_id: str,
        deliverable: str | Deliverable,
        *,
        final: bool = False,
        round_number: int | None = None,
        tool_calls: Sequence[ToolCall] = (),
        turn: str | None = None,
    ) -> SubmissionHandle:
        """Hand in one round for review; returns at once with the submission id.

        Args:
            task_id: A task from ``start_task``.
            deliverable: The round's output (text, or a Deliverable with tool calls and results).
            final: The agent means to deliver this round; the critic always reviews it.
            round_number: Explicit round number; the next free one when None.
            tool_calls: Tool calls made in this round (when ``deliverable`` is text).
            turn: In a multi-turn conversation, the user message this round answers (the latest
                one before it). The judge scores the round against it, with the task's request
                as context, and the detectors count every turn so far as the user's own words.
                None (or the request itself, or blank text): the round answers the request.

        Raises:
            TaskNotFoundError: no such task (start it first).
            DeliverableTooLargeError: the deliverable or the turn is over
                ``QGS_MAX_DELIVERABLE_BYTES`` (default 1 MB).
            InputError: ``round_number`` is taken, or would leave a gap; ``turn`` is not a string.
            BrokerUnavailableError: the broker could not be reached; nothing was queued.
        """
        self.repo.get_task(task_id)
        next_free = max(self._next_round.get(task_id, 1), self.repo.next_round_number(task_id))
        exact = round_number is not None
        if round_number is None:
            # Number rounds here, in submission order: intake jobs may run in any order.
            round_number = next_free
        elif self.repo.find_round(task_id, round_number) is not None:
            raise InputError(
                f"'round_number' {round_number} of task {task_id!r} is already stored; "
                "leave it out to take the next round"
            )
        elif round_number > next_free:
            raise InputError(
                f"'round_number' {round_number} would leave a gap: the next round of task "
                f"{task_id!r} is {next_free} (rounds are decided in order)"
            )
        submission = self.make_submission(
            task_id,
            deliverable,
            final=final,
            round_number=round_number,
            tool_calls=tool_calls,
            turn=turn,
        )
        if not exact:
            submission = submission.model_copy(update={"renumber_on_conflict": True})
        handle = self.send(submission)
        self._next_round[task_id] = max(next_free, round_number + 1)
        return handle

    def decision(self, submission_id: str) -> DecisionView | None:
        """The decision on a submission, or None while it is not made."""
        row = self.repo.find_round_by_submission(submission_id)
        if row is None or row.id is None:
            return None
        stored = self.repo.get_decision(row.id)
        return decision_view(self.repo, row, stored) if stored else None

    def wait(
        self,
        submission_id: str,
        *,
        timeout_s: float = 60.0,
        poll_s: float = 0.05,
        until_approved: bool = False,
        on_progress: Callable[[WaitProgress], None] | None = None,
    ) -> DecisionView:
        """Block until the submission's decision is stored.

        By default a decision that waits for a person (``awaiting_approval``) is returned at
        once, like any other: check ``decision.awaiting_approval``. With ``until_approved``,
        the wait goes on until a person approved or rejected it (``qgs approve``).

        Args:
            submission_id: From ``submit``.
            timeout_s: Give up after this many seconds.
            poll_s: The first pause between reads of the store, in seconds (it grows to 1 s).
            until_approved: Also wait for a person's decision when one is required.
            on_progress: Called with a ``WaitProgress`` each time the submission's state
                changes (stored, dispatched, each judge retry, a parked retry).

        Raises:
            WaitTimeoutError: no decision (or, with ``until_approved``, no person's decision)
                within ``timeout_s`` seconds; the message says where the submission stands
                (in the outbox, refused, its round's state, judge retries so far, the store in
                use). The work goes on.
        """
        from qgs_worker.progress import progress_of

        bound_s = self.settings.worker.visibility_timeout_s
        deadline = time.monotonic() + timeout_s
        delay = poll_s
        shown: tuple[object, ...] | None = None
        while True:
            found = self.decision(submission_id)
            if found is not None and not (until_approved and found.awaiting_approval):
                return found
            if on_progress is not None and found is None:
                now = progress_of(self.repo, submission_id, bound_s)
                if now.key != shown:
                    shown = now.key
                    on_progress(now)
            if time.monotonic() >= deadline:
                if found is not None:
                    raise WaitTimeoutError(
                        f"the decision on submission {submission_id!r} (round "
                        f"{found.round_number}: {found.kind}) still awaits a person after "
                        f"{timeout_s:g} s: `qgs approve {found.task_id} --by NAME` "
                        "(or --reject --note WHY) records one"
                    )
                where = progress_of(self.repo, submission_id, bound_s)
                raise WaitTimeoutError(
                    f"no decision on submission {submission_id!r} after {timeout_s:g} s: "
                    f"{where.detail}"
                )
            time.sleep(delay)
            delay = min(delay * 1.5, 1.0)

    def task_decision(self, task_id: str) -> DecisionView | None:
        """The decision on the task's latest decided round, or None.

        Raises:
            TaskNotFoundError: no such task.
        """
        self.repo.get_task(task_id)
        latest = self.repo.latest_decision(task_id)
        return decision_view(self.repo, *latest) if latest else None

    def approve(
        self, task_id: str, *, by: str, note: str = "", reject: bool = False
    ) -> ApprovalView:
        """Record a person's decision on the task's latest decision, which must await one.

        That decision is ``awaiting_approval``, or ``force_deliver`` on a REFLECT task, and
        no round after it is still undecided. Approving releases the task (``delivered`` is
        True: the round, or on force_deliver the best round); rejecting blocks it. Calling
        again with the same values changes nothing and returns the stored approval.

        Args:
            task_id: The task's id (as ``qgs status`` and ``qgs report`` show it).
            by: Who decides (required, at most 128 characters).
            note: Why (at most 2,000 characters); required when rejecting.
            reject: Reject instead of approve.

        Returns:
            The stored approval.

        Raises:
            InputError: ``by`` is empty or too long, ``note`` is too long, or ``note`` is
                empty on a rejection.
            TaskNotFoundError: no such task.
            NotAwaitingApprovalError: the task's latest decision does not wait for a person
                (the message names it and its round), there is none yet, or a later round is
                still undecided.
            ApprovalConflictError: a person already decided that round the other way (the
                message names who and when).
        """
        by, note = by.strip(), note.strip()
        if not by:
            raise InputError(
                "'by' (--by) is empty: pass the name of the person who decides (e.g. --by alice)"
            )
        if len(by) > APPROVER_MAX_CHARS:
            raise InputError(
                f"'by' (--by) must be at most {APPROVER_MAX_CHARS} characters (got {len(by)}): "
                "pass a name; the reason goes in 'note' (--note TEXT)"
            )
        if reject and not note:
            raise InputError(
                "'note' (--note) is required to reject: say why (e.g. --note 'wrong host')"
            )
        if len(note) > APPROVAL_NOTE_MAX_CHARS:
            raise InputError(
                f"'note' (--note) must be at most {APPROVAL_NOTE_MAX_CHARS:,} characters "
                f"(got {len(note):,}): say why in a few sentences, and link to a longer text"
            )
        task = self.repo.get_task(task_id)
        latest = self.repo.latest_decision(task.id)
        if latest is None:
            raise NotAwaitingApprovalError(
                f"task {task.id} is not awaiting approval: no round of it is decided yet "
                f"(`qgs wait {task.id}` waits for the decision)"
            )
        row, decision = latest
        assert row.id is not None
        if not needs_approval(decision.kind, task.complexity):
            why = (
                " (force_deliver waits for a person only on a REFLECT task)"
                if decision.kind == "force_deliver"
                else ""
            )
            raise NotAwaitingApprovalError(
                f"task {task.id} is not awaiting approval: its latest decision is "
                f"{decision.kind} (round {row.number}){why}"
            )
        later = [
            r
            for r in self.repo.list_rounds(task.id)
            if r.number > row.number and r.status != "decided"
        ]
        if later:
            raise NotAwaitingApprovalError(
                f"task {task.id}: round {later[0].number} came after the round awaiting "
                f"approval ({row.number}) and is {later[0].status}, not decided; approve once "
                f"it is (`qgs wait {task.id}`), so the decision is on what the agent delivers"
            )
        stored = self.repo.save_approval(
            task.id, row.id, decision=decision.kind, approved=not reject, by=by, note=note
        )
        return approval_view(stored, row.number)

    def approvals(self, task_id: str) -> list[ApprovalView]:
        """Every approval and rejection of the task's rounds, oldest first.

        Raises:
            TaskNotFoundError: no such task.
        """
        self.repo.get_task(task_id)
        numbers = {r.id: r.number for r in self.repo.list_rounds(task_id)}
        return [approval_view(a, numbers[a.round_id]) for a in self.repo.list_approvals(task_id)]

    # -- the tool-call gate ------------------------------------------------------------------

    def check_tool_call(
        self,
        call: object,
        *,
        principal: str | None = None,
        agent: str | None = None,
        tools: Tools | None = None,
        log: bool = True,
    ) -> GateReport:
        """Check one tool call before the agent runs it: synchronous, in-process, no broker.

        The gate's layers run in order and the first FAIL stops (``core/toolgate``). A rejected
        call is a report with ``allowed`` False, never an exception. The report then goes to
        the store through the queue (job ``qgs.toolgate.log``), fire-and-forget: the agent's
        thread only puts it on an in-process queue, which adds about 6 us at p50 to the check
        (measured on the 2-core test machine), and a daemon thread makes the record and
        publishes it. Publishing directly would add about 1.6 ms at p50 (``app.send_task`` to a
        local Redis), thirty times the gate's ~50 us budget. A broker that is down never reaches
        the agent: the records are dropped with one warning (``qgs_worker.toolcheck`` says
        when, and what ``flush_tool_log`` does).

        Args:
            call: An OpenAI ``tool_calls`` item, an Anthropic ``tool_use`` block or an MCP
                ``tools/call`` request as parsed JSON, a ``ToolCall`` or a ``ParsedCall``.
            principal: Who the call acts for (the permission layer's subject; logged).
            agent: Which agent makes it (the rate limit's key; logged).
            tools: The tools the agent may call: a ``ToolGate`` (see ``tool_gate``: build it
                once), a ``ToolRegistry``, or a list of definitions (compiled on first use and
                kept by identity and by content, so equal definitions in a new list find the
                same gate; a list whose items were appended, removed or replaced is read again,
                an edit inside one definition is not seen: pass a new object). None: the
                registry of ``QGS_TOOLS_FILE``, read once.
            log: Send the report to the store (needs ``QGS_BROKER_URL`` or the client's app;
                without one the check runs and a warning says, once, that nothing is logged).

        Returns:
            The gate's report: ``allowed``, ``stopped_at`` (layer number or None), ``layers``
            (each layer's status, errors, warnings, suggestion), ``latency_us`` (microseconds).

        Raises:
            InputError: ``call`` is not a call at all (not a JSON object: a string, a list, an
                assistant message with several calls), or ``tools`` holds an unusable
                definition (``ToolDefinitionError``, naming the tool).
            ConfigurationError: no ``tools`` and no ``QGS_TOOLS_FILE``, or that file is unusable.
        """
        gate = self._default_gate if tools is None else None
        if gate is None:
            gate = self.tool_gate(tools)
        report = gate.check(_as_call(call), principal=principal, agent_id=agent)
        if log:
            self._log_check(report, principal, agent)
        return report

    def check_tool_calls(
        self,
        message: object,
        *,
        principal: str | None = None,
        agent: str | None = None,
        tools: Tools | None = None,
        log: bool = True,
    ) -> tuple[GateReport, ...]:
        """Check every tool call of an assistant message, in order (see ``check_tool_call``).

        Args:
            message: An OpenAI assistant message (``tool_calls``), an Anthropic message or its
                ``content`` list, a list of calls, or one call.
            principal: Who the calls act for.
            agent: Which agent makes them.
            tools: As for ``check_tool_call``.
            log: Send each report to the store.

        Returns:
            One report per call (``()`` for a message without calls).

        Raises:
            InputError: ``tool_calls``/``content`` is not a list, or the message is not a JSON
                object or list.
            ConfigurationError: no registry (see ``check_tool_call``).
        """
        gate = self.tool_gate(tools)
        reports = tuple(
            gate.check(call, principal=principal, agent_id=agent) for call in parse_calls(message)
        )
        if log:
            for report in reports:
                self._log_check(report, principal, agent)
        return reports

    def tool_gate(self, tools: Tools | None = None) -> ToolGate:
        """The gate for ``tools``, built once (schemas compiled once) and kept on the client.

        The way to build a gate once: an agent that keeps its tools calls
        ``gate = client.tool_gate(tools)`` and then ``check_tool_call(call, tools=gate)``
        (which logs) or ``gate.check(call, principal=..., agent_id=...)`` (which does not).
        Given anything but a gate, the client's ``gate_cache`` finds the gate built for the
        same object, or for equal definitions in a new object, and builds only tools it has
        not seen (``qgs_worker.gate_cache``: least recently used out, bounded by size).

        Args:
            tools: As for ``check_tool_call``; None: ``QGS_TOOLS_FILE``.

        Raises:
            InputError: ``tools`` is of another type, or holds an unusable definition.
            ConfigurationError: no ``tools`` and no ``QGS_TOOLS_FILE``, or that file is unusable.
        """
        if tools is None:
            if self._default_gate is None:
                self._default_gate = self._new_gate(self._configured_registry())
            return self._default_gate
        if isinstance(tools, ToolGate):
            return tools
        return self._gate_cache.gate(tools)

    @property
    def gate_cache(self) -> GateCache:
        """The gates built for ``tools=`` arguments (``builds``, ``hits``, ``len()``)."""
        return self._gate_cache

    def _new_gate(self, registry: ToolRegistry) -> ToolGate:
        return tool_gate_for(registry, self.settings)

    def _configured_registry(self) -> ToolRegistry:
        path = self.settings.tools_file
        if path is None:
            raise ConfigurationError(
                "no tools to check calls against: pass tools=... (a ToolRegistry or a list of "
                "OpenAI, Anthropic or MCP tool definitions), or set QGS_TOOLS_FILE to a JSON "
                "file of them"
            )
        try:
            registry = ToolRegistry.from_file(path)
        except InputError as exc:  # ToolDefinitionError: unreadable, not JSON, a bad tool
            raise ConfigurationError(
                f"QGS_TOOLS_FILE={path}: {exc}; it must hold OpenAI tools, Anthropic tools or "
                "an MCP tools/list result"
            ) from exc
        if not len(registry):
            raise ConfigurationError(
                f"QGS_TOOLS_FILE={path} holds no tool definitions: every call would be refused"
            )
        return registry

    @property
    def tool_log(self) -> CheckLogSender | None:
        """The sender that logs checks (``sent``, ``dropped``), None before the first check."""
        return self._tool_log

    def flush_tool_log(self, timeout_s: float = 5.0) -> bool:
        """Wait until every check so far was sent to the broker (or dropped).

        Returns:
            True when nothing waits any more, False after ``timeout_s`` seconds.
        """
        return self._tool_log.flush(timeout_s) if self._tool_log is not None else True

    def _log_check(self, report: GateReport, principal: str | None, agent: str | None) -> None:
        sender = self._tool_log
        if sender is None:
            if self._tool_log_ready:
                return  # no broker: said once
            with self._tool_log_lock:
                if self._tool_log_ready:
                    sender = self._tool_log
                elif self._app is None and not self.settings.broker_url:
                    logger.warning(
                        "tool-call checks are not logged: no broker (set QGS_BROKER_URL); the "
                        "checks still run; pass log=False to check without logging"
                    )
                else:
                    sender = self._tool_log = CheckLogSender(self._send_check)
                self._tool_log_ready = True
            if sender is None:
                return
        sender.submit(report, principal, agent)

    def _send_check(self, record: Any) -> None:
        # Runs in the sender thread: the Celery app is built there on first use, not here.
        if self._tool_log_send is None:
            from qgs_worker.toolcheck import log_app

            self._tool_log_send = send_with(log_app(self.settings))
        self._tool_log_send(record)


def publish_intake(app: Any, message: dict[str, Any], argsrepr: str | None = None) -> None:
    """Publish one intake message (``qgs.review.intake``), as the client and the sweeper do.

    Raises:
        kombu.exceptions.OperationalError: the broker could not be reached.
    """
    app.send_task(
        "qgs.review.intake",
        args=[message],
        argsrepr=argsrepr or _intake_repr(message),
        kwargsrepr="{}",
    )


def _intake_repr(message: dict[str, Any]) -> str:
    """A short, redacted description of an intake message for Flower (no deliverable text)."""
    return (
        f"(submission={message.get('submission_id')!r}, task={message.get('task_id')!r}, "
        f"round={message.get('round_number')}, republished)"
    )


def _as_call(call: object) -> object:
    """What ``ToolGate.check`` takes, from what ``check_tool_call`` accepts.

    Raises:
        InputError: ``call`` is not a JSON object, or is a whole assistant message.
    """
    if isinstance(call, ParsedCall | dict):
        if isinstance(call, dict) and ("tool_calls" in call or "role" in call):
            raise InputError(
                "'call' is an assistant message, not one tool call: pass one of its calls "
                "(message['tool_calls'][0], a tool_use block), or check them all with "
                "check_tool_calls(message)"
            )
        return call
    if isinstance(call, ToolCall):
        arguments = call.raw_arguments
        return {
            "id": call.id,
            "type": "function",
            "function": {
                "name": call.name,
                "arguments": json.dumps(call.arguments) if arguments is None else arguments,
            },
        }
    if isinstance(call, Mapping):
        return _as_call(dict(call))
    raise InputError(
        "'call' must be one tool call as parsed JSON (an OpenAI tool_calls item, an Anthropic "
        "tool_use block or an MCP tools/call request), a ToolCall or a ParsedCall "
        f"(got {type(call).__name__}); parse a JSON string first (json.loads), and check a "
        "list of calls with check_tool_calls"
    )


_default: Client | None = None


def _client() -> Client:
    global _default
    if _default is None:
        _default = Client()
    return _default


def start_task(request: str, **kwargs: Any) -> TaskHandle:
    """``Client().start_task`` on a process-wide client built from the environment."""
    return _client().start_task(request, **kwargs)


def constraints(task_id: str) -> str:
    """``Client().constraints`` on the process-wide client."""
    return _client().constraints(task_id)


def submit(task_id: str, deliverable: str | Deliverable, **kwargs: Any) -> SubmissionHandle:
    """``Client().submit`` on the process-wide client."""
    return _client().submit(task_id, deliverable, **kwargs)


def decision(submission_id: str) -> DecisionView | None:
    """``Client().decision`` on the process-wide client."""
    return _client().decision(submission_id)


def wait(
    submission_id: str, *, timeout_s: float = 60.0, until_approved: bool = False
) -> DecisionView:
    """``Client().wait`` on the process-wide client."""
    return _client().wait(submission_id, timeout_s=timeout_s, until_approved=until_approved)


def approve(task_id: str, *, by: str, note: str = "", reject: bool = False) -> ApprovalView:
    """``Client().approve`` on the process-wide client."""
    return _client().approve(task_id, by=by, note=note, reject=reject)


def check_tool_call(
    call: object,
    *,
    principal: str | None = None,
    agent: str | None = None,
    tools: Tools | None = None,
    log: bool = True,
) -> GateReport:
    """``Client().check_tool_call`` on the process-wide client (tools from ``QGS_TOOLS_FILE``)."""
    return _client().check_tool_call(call, principal=principal, agent=agent, tools=tools, log=log)


def check_tool_calls(
    message: object,
    *,
    principal: str | None = None,
    agent: str | None = None,
    tools: Tools | None = None,
    log: bool = True,
) -> tuple[GateReport, ...]:
    """``Client().check_tool_calls`` on the process-wide client."""
    return _client().check_tool_calls(
        message, principal=principal, agent=agent, tools=tools, log=log
    )
