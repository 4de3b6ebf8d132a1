"""What an agent imports: start a task, get its constraints, submit rounds, read decisions.

``submit`` is fire-and-forget: it validates the round, puts one message on the ``qgs.critic``
queue (intake runs where its review will) and returns a submission id at once; ``wait`` (or ``decision``) reads the decision from the
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
(``qgs_worker.queue.toolcheck``).

    report = qgs.check_tool_call(message["tool_calls"][0], principal="deploy-bot")
    if not report.allowed:
        ...  # report.stopped_at, report.errors, report.suggestion

Layer: a face, under ``api``; may import everything below the faces. Imports: ``config``, ``core``,
``errors``, ``judges``, ``limits``, ``queue``, ``service``, ``store``, ``telemetry``, ``webhooks``.
Imported by: ``api``, ``cli``, ``qgs_worker``.
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from qgs_worker.client.gate_cache import GATE_CACHE_MAX as GATE_CACHE_MAX  # its old home
from qgs_worker.client.gate_cache import GateCache
from qgs_worker.client.sdk_objects import sdk_data
from qgs_worker.client.tool_calls import ToolCallsMixin, Tools
from qgs_worker.client.views import (
    APPROVAL_NOTE_MAX_CHARS,
    APPROVER_MAX_CHARS,
    ApprovalView,
    DecisionView,
    SubmissionHandle,
    TaskHandle,
)
from qgs_worker.client.waiting import WaitingMixin
from qgs_worker.config.settings import Settings
from qgs_worker.config.toolgate_io import tool_gate_for as tool_gate_for  # its old home
from qgs_worker.core.models import (
    Deliverable,
    TaskType,
    ToolCall,
)
from qgs_worker.core.tool_shapes import read_tool_calls
from qgs_worker.core.toolgate import (
    GateReport,
    ToolGate,
)
from qgs_worker.errors import (
    BrokerUnavailableError,
    ConfigurationError,
    InputError,
    validation_summary,
)
from qgs_worker.queue import pipeline
from qgs_worker.queue.notify import DecisionNotifier
from qgs_worker.queue.publish import publish_intake
from qgs_worker.queue.toolcheck import CheckLogSender
from qgs_worker.service import classify
from qgs_worker.service.inputs import require_bool, require_text, require_texts
from qgs_worker.service.submission import (
    MAX_ROUND_NUMBER,
    NewTask,
    Submission,
    check_task_size,
    check_value,
    validate_message,
)
from qgs_worker.store import (
    Repository,
)
from qgs_worker.store.failures import store_errors, store_guarded
from qgs_worker.webhooks import check_callback

__all__ = [
    "APPROVAL_NOTE_MAX_CHARS",
    "APPROVER_MAX_CHARS",
    "GATE_CACHE_MAX",
    "ApprovalView",
    "Client",
    "DecisionView",
    "SubmissionHandle",
    "TaskHandle",
    "Tools",
    "approve",
    "check_tool_call",
    "check_tool_calls",
    "constraints",
    "decision",
    "publish_intake",
    "start_task",
    "submit",
    "tool_gate_for",
    "wait",
]

logger = logging.getLogger(__name__)


class Client(WaitingMixin, ToolCallsMixin):
    """The agent-side API of QGS.

    Args:
        settings: QGS settings; read from ``QGS_*`` environment variables when None.
        app: A Celery app to send with (built from ``settings`` when None; needs a broker URL).
        base_url: The HTTP API's address: with ``api_key``, the client speaks the API
            (``qgs_worker.client.remote.ApiClient``) and opens no store or broker.
        api_key: A key from ``qgs keys create`` (with ``base_url``).
    """

    def __new__(
        cls,
        settings: Settings | None = None,
        *,
        app: Any = None,
        base_url: str | None = None,
        api_key: str | None = None,
        **kwargs: Any,
    ) -> Client:
        """A ``Client``, or with ``base_url`` an ``ApiClient`` (the same methods over HTTP)."""
        if base_url is not None and cls is Client:
            from qgs_worker.client.remote import ApiClient

            return super().__new__(ApiClient)
        return super().__new__(cls)

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        app: Any = None,
        base_url: str | None = None,
        api_key: str | None = None,
    ) -> None:
        if base_url is not None or api_key is not None:
            raise ConfigurationError(
                "pass base_url and api_key together to speak the HTTP API "
                "(Client(base_url='http://host:8080', api_key='qgs_...'))"
            )
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
        self._notifier: DecisionNotifier | None = None
        self._notifier_lock = threading.Lock()

    @property
    def app(self) -> Any:
        """The Celery app used to send submissions (built on first use)."""
        if self._app is None:
            if not self.settings.broker_url:
                raise ConfigurationError(
                    "the client needs a broker: set QGS_BROKER_URL (e.g. redis://127.0.0.1:6379/0), "
                    "or run `qgs submit`, which starts the embedded one"
                )
            from qgs_worker.queue.celery_app import create_celery_app

            self._app = create_celery_app(self.settings, jobs=False)  # it sends by name
        return self._app

    @store_guarded
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
        principal: str | None = None,
        callback_url: str | None = None,
        key_id: str | None = None,
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
            principal: The API key's principal that owns the task (the HTTP API and MCP set
                it; only that principal sees the task there). None: an in-process task.
            callback_url: Where each of the task's decisions is POSTed, signed (a round's
                own ``callback_url`` wins); http(s) to a public address unless
                ``QGS_WEBHOOKS__ALLOW_PRIVATE=true``. A task stored before keeps its own.
            key_id: The id of the API key that starts it (the HTTP API and MCP set it): its
                webhook secret signs the task's webhooks (the principal's newest live key's
                once it is revoked).

        Raises:
            InputError: an empty request, an unknown task type, or a ``task_id`` another
                principal's task holds.
            TooLargeError: ``request``, ``requirements`` or ``criteria`` over
                ``QGS_MAX_REQUEST_BYTES`` (default 32,000 bytes each), before the classifier.
            CallbackUrlError: the callback URL is malformed or points inside (SSRF).
            WebhookSecretMissingError: a callback URL with no ``QGS_WEBHOOKS__SECRET``.
        """
        # The one input contract (qgs_worker.service.inputs): types refused, never coerced.
        require_text(request, "request", "pass the user's request text")
        for name, given in (("agent", agent), ("model", model), ("task_id", task_id)):
            if given is not None:
                require_text(given, name, f"pass the {name.replace('_', ' ')} as text, or None")
        requirements = require_texts(requirements, "requirements")
        criteria = require_texts(criteria, "criteria")
        if not request or not request.strip():
            raise InputError("'request' is empty: pass the user's request text")
        check_task_size(request, requirements, criteria, self.settings.max_request_bytes)
        texts = {"request": request, "agent": agent, "model": model}
        for field, value in (*texts.items(), ("requirements", list(requirements))):
            check_value(value, where=field)  # a lone surrogate: named, not a raw error
        check_value(list(criteria), where="criteria")
        kind = None
        if task_type is not None:
            try:
                kind = TaskType(str(task_type).upper())
            except ValueError:
                raise InputError(
                    f"'task_type' must be one of {', '.join(t.value for t in TaskType)} (got {task_type!r})"
                ) from None
        if callback_url is not None:  # kept in the form the delivery sends to
            callback_url = check_callback(
                callback_url, self.settings, principal=principal, key_id=key_id, store=self.repo
            )
        found = classify(request, kind, llm=self._llm_classifier())
        new = NewTask(
            request=request,
            agent=agent,
            agent_model=model,
            requirements=tuple(requirements),
            criteria=tuple(criteria),
            callback_url=callback_url,
        )
        stored = self.repo.store_task(
            task_id or f"t-{uuid.uuid4().hex[:16]}", found, new, principal=principal, key_id=key_id
        )
        return TaskHandle(
            id=stored.id,
            task_type=stored.task_type,
            complexity=stored.complexity,
            classification=found,
        )

    def _llm_classifier(self) -> Any:
        if not hasattr(self, "_llm"):
            from qgs_worker.judges import llm_classifier_for

            self._llm = llm_classifier_for(self.settings.judge)
        return self._llm

    @store_guarded
    def constraints(self, task_id: str) -> str:
        """The text to add to the agent's next prompt ("" for SIMPLE tasks).

        Raises:
            TaskNotFoundError: no such task.
        """
        require_text(task_id, "task_id", "pass the id start_task returned")
        return pipeline.constraints(self.repo, task_id)

    @store_guarded
    def make_submission(
        self,
        task_id: str,
        deliverable: str | Deliverable,
        *,
        final: bool = False,
        round_number: int | None = None,
        tool_calls: Sequence[ToolCall | Mapping[str, Any]] = (),
        submission_id: str | None = None,
        task: NewTask | None = None,
        turn: str | None = None,
        callback_url: str | None = None,
    ) -> Submission:
        """Build and validate a submission without sending it.

        ``turn`` is the user message the round answers (see ``submit``); blank text is None.
        ``callback_url`` is where the round's decision is POSTed (see ``submit``).

        Raises:
            DeliverableTooLargeError: the deliverable or the turn is over
                ``QGS_MAX_DELIVERABLE_BYTES``.
            CallbackUrlError: the callback URL is malformed or points inside (SSRF).
            WebhookSecretMissingError: a callback URL with no ``QGS_WEBHOOKS__SECRET``.
            InputError: a field is malformed (``turn`` not a string included).
        """
        require_text(task_id, "task_id", "pass the id start_task returned")
        if not isinstance(deliverable, str | Deliverable):
            raise InputError(
                f"'deliverable' must be a string, the round's output (or a Deliverable with "
                f"its tool calls) (got {type(deliverable).__name__})"
            )
        final = require_bool(final, "final")
        if callback_url is not None:
            owner, key_id = self.repo.task_signer(task_id)
            callback_url = check_callback(
                callback_url, self.settings, principal=owner, key_id=key_id, store=self.repo
            )
        if isinstance(deliverable, str):
            calls = read_tool_calls(sdk_data(tool_calls))
            # Named as the caller passed them ('tool_calls.0.arguments…', as the HTTP API
            # names them), not as parts of the Deliverable built here ('deliverable.text').
            check_value(deliverable, where="deliverable")
            check_value(calls, where="tool_calls")
            deliverable = Deliverable(text=deliverable, tool_calls=calls)
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
                callback_url=callback_url,
            )
        except ValidationError as exc:
            raise InputError(f"invalid submission: {validation_summary(exc)}") from exc
        return validate_message(submission, self.settings.max_deliverable_bytes)

    def send(self, submission: Submission) -> SubmissionHandle:
        """Record a validated submission in the store's outbox, then enqueue it on ``qgs.critic`` (intake runs where its review will).

        The outbox row comes first: a job the queue loses after this returns (a worker killed
        between Redis handing it over and recording it) is published again by the sweeper
        (``qgs_worker.queue.sweeper``). When the publish fails, the row is removed again, so a
        submission the caller was told was not queued never turns up later.

        Raises:
            BrokerUnavailableError: the broker did not answer (after Celery's publish retries);
                nothing was queued and nothing is left in the outbox.
            StoreError: the store could not record the submission; nothing was queued.
        """
        from kombu.exceptions import OperationalError

        message = submission.intake_message()
        self._outbox(submission, message)
        try:
            publish_intake(self.app, message, submission.short_repr())
        except (OperationalError, OSError, TimeoutError) as exc:
            self.repo.drop_outbox(submission.submission_id)
            # The driver's message names the broker's host and port: the log has it, the
            # error (which the HTTP API shows its callers) names the setting only.
            logger.warning(
                "the broker did not take submission %s: %s", submission.submission_id, exc
            )
            raise BrokerUnavailableError(
                f"cannot reach the broker (QGS_BROKER_URL; {type(exc).__name__}); submission "
                f"{submission.submission_id!r} was not queued: check QGS_BROKER_URL and that "
                "Redis runs, then submit again"
            ) from exc
        except BaseException:
            self.repo.drop_outbox(submission.submission_id)
            raise
        return SubmissionHandle(id=submission.submission_id, task_id=submission.task_id)

    def _outbox(self, submission: Submission, message: dict[str, Any]) -> None:
        what = f"submission {submission.submission_id!r} was not queued"
        with store_errors(what):  # StoreUnavailableError when unreachable, else StoreError
            self.repo.add_outbox(
                submission.submission_id,
                submission.task_id,
                json.dumps(message, ensure_ascii=False),
                round_number=submission.round_number,
            )

    @store_guarded
    def submit(
        self,
        task_id: str,
        deliverable: str | Deliverable,
        *,
        final: bool = False,
        round_number: int | None = None,
        tool_calls: Sequence[ToolCall | Mapping[str, Any]] = (),
        turn: str | None = None,
        callback_url: str | None = None,
        submission_id: str | None = None,
    ) -> SubmissionHandle:
        """Hand in one round for review; returns at once with the submission id.

        Args:
            task_id: A task from ``start_task``.
            deliverable: The round's output (text, or a Deliverable with tool calls and results).
            final: The agent means to deliver this round; the critic always reviews it.
            round_number: Explicit round number; the next free one when None.
            tool_calls: Tool calls made in this round (when ``deliverable`` is text):
                ``ToolCall`` values, or dicts as the agent's API wrote them (an OpenAI
                ``tool_calls`` item, an Anthropic ``tool_use`` block, an MCP ``tools/call``
                request; read as the HTTP API reads them: ``core.tool_shapes``).
            turn: In a multi-turn conversation, the user message this round answers (the latest
                one before it). The judge scores the round against it, with the task's request
                as context, and the detectors count every turn so far as the user's own words.
                None (or the request itself, or blank text): the round answers the request.
            callback_url: Where this round's decision is POSTed once it is stored (wins over
                the task's): JSON signed with ``X-QGS-Signature`` (HMAC-SHA256 over
                ``"<X-QGS-Timestamp>.<body>"``), the same ``Idempotency-Key`` on every retry.
            submission_id: Your own submission id (at most 128 characters; the HTTP API derives
                one from an ``Idempotency-Key``); a new one when None.

        Raises:
            TaskNotFoundError: no such task (start it first).
            CallbackUrlError: the callback URL is malformed or points inside (SSRF).
            WebhookSecretMissingError: a callback URL with no ``QGS_WEBHOOKS__SECRET``.
            DeliverableTooLargeError: the deliverable or the turn is over
                ``QGS_MAX_DELIVERABLE_BYTES`` (default 1 MB).
            InputError: ``round_number`` is taken, would leave a gap, or is not 1 to
                ``MAX_ROUND_NUMBER`` (2**31 - 1); ``turn`` is not a string.
            BrokerUnavailableError: the broker could not be reached; nothing was queued.
        """
        require_text(task_id, "task_id", "pass the id start_task returned")
        if round_number is not None and not (
            isinstance(round_number, int)
            and not isinstance(round_number, bool)  # True is not round 1
            and 1 <= round_number <= MAX_ROUND_NUMBER
        ):
            # Before the store is asked: PostgreSQL refuses a number over its integer range.
            raise InputError(
                f"'round_number' must be an integer from 1 to {MAX_ROUND_NUMBER} "
                f"(got {round_number!r}): leave it out to take the next round"
            )
        stored_next, taken = self.repo.round_numbers(task_id, round_number)
        next_free = max(self._next_round.get(task_id, 1), stored_next)
        exact = round_number is not None
        if round_number is None:
            # Number rounds here, in submission order: intake jobs may run in any order.
            round_number = next_free
        elif taken:
            raise InputError(
                f"'round_number' {round_number} of task {task_id!r} is already stored or held "
                "by a submission on its way; leave it out to take the next round"
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
            callback_url=callback_url,
            submission_id=submission_id,
        )
        if not exact:
            submission = submission.model_copy(update={"renumber_on_conflict": True})
        handle = self.send(submission)
        self._next_round[task_id] = max(next_free, round_number + 1)
        return handle


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
