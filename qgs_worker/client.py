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
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from qgs_worker import pipeline
from qgs_worker.core.models import (
    Classification,
    Complexity,
    Deliverable,
    TaskType,
    ToolCall,
)
from qgs_worker.errors import (
    BrokerUnavailableError,
    ConfigurationError,
    InputError,
    WaitTimeoutError,
    validation_summary,
)
from qgs_worker.settings import Settings
from qgs_worker.store import DecisionRow, Repository, RoundRow, loads_list
from qgs_worker.submission import NewTask, Submission


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


class DecisionView(BaseModel):
    """A decision as the agent reads it: the gate's outcome plus the round's score."""

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

    @property
    def delivered(self) -> bool:
        """True when the round (or the best round, on force_deliver) may be delivered now."""
        return self.kind in ("pass", "pass_with_suggestions", "force_deliver")


def decision_view(repo: Repository, row: RoundRow, decision: DecisionRow) -> DecisionView:
    """Combine a stored decision with its round's review into a DecisionView."""
    assert row.id is not None
    review = repo.get_review(row.id)
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
    ) -> Submission:
        """Build and validate a submission without sending it.

        Raises:
            DeliverableTooLargeError: over ``QGS_MAX_DELIVERABLE_BYTES``.
            InputError: a field is malformed.
        """
        if isinstance(deliverable, str):
            deliverable = Deliverable(text=deliverable, tool_calls=tuple(tool_calls))
        try:
            submission = Submission(
                submission_id=submission_id or f"s-{uuid.uuid4().hex}",
                task_id=task_id,
                round_number=round_number,
                final=final,
                deliverable=deliverable,
                task=task,
            )
        except ValidationError as exc:
            raise InputError(f"invalid submission: {validation_summary(exc)}") from exc
        submission.check_size(self.settings.max_deliverable_bytes)
        return submission

    def send(self, submission: Submission) -> SubmissionHandle:
        """Enqueue a validated submission on ``qgs.default`` (fire-and-forget).

        Raises:
            BrokerUnavailableError: the broker did not answer (after Celery's publish retries).
        """
        from kombu.exceptions import OperationalError

        try:
            self.app.send_task(
                "qgs.review.intake",
                args=[submission.model_dump(mode="json")],
                argsrepr=submission.short_repr(),
                kwargsrepr="{}",
            )
        except OperationalError as exc:
            raise BrokerUnavailableError(
                f"cannot reach the broker ({exc}); submission {submission.submission_id!r} "
                "was not queued: check QGS_BROKER_URL and that Redis runs, then submit again"
            ) from exc
        return SubmissionHandle(id=submission.submission_id, task_id=submission.task_id)

    def submit(
        self,
        task_id: str,
        deliverable: str | Deliverable,
        *,
        final: bool = False,
        round_number: int | None = None,
        tool_calls: Sequence[ToolCall] = (),
    ) -> SubmissionHandle:
        """Hand in one round for review; returns at once with the submission id.

        Args:
            task_id: A task from ``start_task``.
            deliverable: The round's output (text, or a Deliverable with tool calls and results).
            final: The agent means to deliver this round; the critic always reviews it.
            round_number: Explicit round number; the next free one when None.
            tool_calls: Tool calls made in this round (when ``deliverable`` is text).

        Raises:
            TaskNotFoundError: no such task (start it first).
            DeliverableTooLargeError: over ``QGS_MAX_DELIVERABLE_BYTES`` (default 1 MB).
            InputError: ``round_number`` is taken, or would leave a gap.
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
            task_id, deliverable, final=final, round_number=round_number, tool_calls=tool_calls
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
        self, submission_id: str, *, timeout_s: float = 60.0, poll_s: float = 0.05
    ) -> DecisionView:
        """Block until the submission's decision is stored.

        Raises:
            WaitTimeoutError: no decision within ``timeout_s`` seconds (the work goes on).
        """
        deadline = time.monotonic() + timeout_s
        delay = poll_s
        while True:
            found = self.decision(submission_id)
            if found is not None:
                return found
            if time.monotonic() >= deadline:
                stored = self.repo.find_round_by_submission(submission_id)
                why = (
                    f"its round {stored.number} is stored, not yet decided"
                    if stored is not None
                    else "no round is stored for it: an unknown id, or no worker took it yet"
                )
                raise WaitTimeoutError(
                    f"no decision on submission {submission_id!r} after {timeout_s:g} s ({why}); "
                    "is a worker running (`qgs worker`)?"
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


def wait(submission_id: str, *, timeout_s: float = 60.0) -> DecisionView:
    """``Client().wait`` on the process-wide client."""
    return _client().wait(submission_id, timeout_s=timeout_s)
