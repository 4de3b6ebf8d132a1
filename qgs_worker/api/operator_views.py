"""The operations the operator console reads with: task lines, the inbox, a task, queue health.

``OperatorViews`` is a part of ``Operations`` (the layer the HTTP API and MCP call): the console
is one more transport over it, with no path of its own to the store. Every read takes the
signed-in ``Principal`` first and shows only what it may see (``Principal.may_see``): an
agent's key its own principal's tasks, an operator's key the principals it ``sees`` (or all,
tasks of no principal included). Approving is ``Operations.approve`` (the console's form posts
there): the approval records the operator's name, and its webhook and notice go out as
``qgs approve``'s do.

Errors: ``AuthenticationError`` (no, unknown or revoked key), ``PermissionDeniedError`` (the
key lacks the scope: queue health needs an operator's ``view``), ``TaskNotFoundError`` (no such
task, or one it may not see: the same message).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from qgs_worker.core.models import DecisionKind
from qgs_worker.errors import AuthenticationError, PermissionDeniedError
from qgs_worker.service.console_model import LineFilter, StoreHealth, TaskLine
from qgs_worker.service.report_model import RoundFacts, TaskFacts
from qgs_worker.store.keys import SCOPE_VIEW

if TYPE_CHECKING:
    from qgs_worker.api.access import Access, Principal
    from qgs_worker.client import Client
    from qgs_worker.config.settings import Settings
    from qgs_worker.store import Repository

__all__ = ["INBOX_DETAILED", "InboxItem", "OperatorViews", "QueueHealth", "TaskPage"]

INBOX_DETAILED = 20
"""The inbox shows this many of the longest-waiting tasks in full (the rest as lines)."""
WORKER_PING_S = 1.0
"""How long queue health waits for the workers' ping replies, in seconds."""


@dataclass(frozen=True)
class TaskPage:
    """A task as its console page shows it: every round in detail, its owner, its tool calls.

    ``facts`` has the rounds (deliverable, review with dimensions, findings, decision,
    approval), the approvals and webhooks; ``tool_calls`` each round's calls by round id;
    ``principal`` the key's principal that started it (None: in-process); ``line`` its standing.
    """

    facts: TaskFacts
    line: TaskLine
    principal: str | None
    tool_calls: dict[int, list[Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class InboxItem:
    """A task awaiting a person: the round that waits, the one before it, the trajectory.

    ``delivered`` is the round approving delivers when it is not ``round`` (a force_deliver
    delivers its best round, e.g. round 2 of 3), else None: the card shows it in full and its
    form names it; ``round`` (the last round) is shown below for comparison.
    """

    page: TaskPage
    round: RoundFacts
    previous: RoundFacts | None
    delivered: RoundFacts | None = None

    @property
    def scores(self) -> list[int]:
        """The critic's score of each reviewed round, oldest first (0-100)."""
        return [
            r.review.score
            for r in self.page.facts.rounds
            if r.review is not None and r.review.score is not None
        ]


@dataclass(frozen=True)
class QueueHealth:
    """What an operator checks when "nothing is happening".

    ``queues`` maps each queue to ``(depth, oldest_age_s)`` (age None: unknown or empty);
    ``broker_up`` whether the broker answered; ``workers`` the names that replied to a ping;
    ``store`` the store's figures (``StoreHealth``, overdue rounds filled in).
    """

    queues: dict[str, tuple[int, float | None]]
    broker_up: bool
    workers: tuple[str, ...]
    store: StoreHealth


class OperatorViews:
    """The console's reads (a part of ``Operations``)."""

    settings: Settings
    repo: Repository
    client: Client
    access: Access
    _lock: threading.Lock

    _own_task: Callable[[Principal, str], None]
    """``Operations``' own check that the principal may see it (this part only calls it)."""
    _own_submission: Callable[[Principal, str], str]
    """``Operations``' check that the principal may see the submission's task (its id)."""

    # -- signing in ------------------------------------------------------------------------

    def sign_in(self, key: str | None) -> Principal:
        """The principal of a key pasted into the console's sign-in form (counted).

        Raises:
            AuthenticationError: no key, or one that is malformed, unknown or revoked (the
                message in the console's words: paste a live operator key).
            PermissionDeniedError: an operator key without the ``view`` scope.
            RateLimitedError: the key's window is full.
        """
        try:
            me = self.access.authenticate_person(key)
        except AuthenticationError as exc:
            raise AuthenticationError(
                "that key is invalid or revoked: paste a live operator key (`qgs keys list` "
                "shows the keys; `qgs keys create --operator NAME --scope view --sees "
                "PRINCIPAL` makes one)"
            ) from exc
        if me.operator and not me.has(SCOPE_VIEW):
            raise PermissionDeniedError(
                f"operator key {me.key_id} has no 'view' scope: make one with `qgs keys create "
                f"--operator {me.name} --scope view --sees PRINCIPAL`"
            )
        return me

    def open_session(self, principal: Principal, nonce: str, expires_at: float) -> None:
        """Record a console session just signed in (``nonce``: its cookie's; Unix expiry)."""
        assert principal.key_id is not None
        self.repo.open_console_session(
            nonce, principal.key_id, datetime.fromtimestamp(expires_at, UTC)
        )

    def session(self, key_id: str, nonce: str) -> Principal:
        """The principal of a signed-in session, its key and the session read again from the store.

        Raises:
            AuthenticationError: the key was revoked since the session began, or the session
                was signed out (``end_session``) or has expired.
        """
        me = self.access.session_principal(key_id)
        if not self.repo.console_session_live(nonce, key_id):
            raise AuthenticationError("this session was signed out or has expired: sign in again")
        return me

    def end_session(self, nonce: str) -> None:
        """Sign a console session out: its cookie is refused from now on, wherever it is sent."""
        self.repo.end_console_session(nonce)

    # -- lists -----------------------------------------------------------------------------

    def task_lines(
        self, principal: Principal, where: LineFilter | None = None, *, limit: int = 100
    ) -> list[TaskLine]:
        """The tasks the principal may see that ``where`` selects, the latest decided first."""
        seen = principal.visible_principals()
        narrowed = dataclasses.replace(
            where or LineFilter(), principals=None if seen is None else tuple(seen)
        )
        return self.repo.task_lines(narrowed, limit=limit)

    def inbox(
        self, principal: Principal, *, detailed: int = INBOX_DETAILED
    ) -> tuple[list[InboxItem], list[TaskLine]]:
        """The tasks awaiting a person that the principal may see, the longest waiting first.

        Returns:
            The first ``detailed`` in full (``InboxItem``), and every one as a line.
        """
        seen = principal.visible_principals()
        lines = self.repo.awaiting_lines(None if seen is None else tuple(seen))
        pages = self._pages(lines[:detailed])
        items = []
        for page in pages:
            number = page.line.round_number
            at = next((i for i, r in enumerate(page.facts.rounds) if r.number == number), None)
            if at is None:
                continue
            before = page.facts.rounds[at - 1] if at > 0 else None
            last = page.facts.rounds[at]
            best = last.decision.best_round if last.decision is not None else None
            delivered = (
                next((r for r in page.facts.rounds if r.number == best), None)
                if last.decision is not None
                and last.decision.kind == DecisionKind.FORCE_DELIVER
                and best not in (None, number)
                else None
            )
            items.append(InboxItem(page, last, before, delivered))
        return items, lines

    def task_page(self, principal: Principal, task_id: str) -> TaskPage:
        """One task the principal may see, every round in detail.

        Raises:
            TaskNotFoundError: no such task, or one it may not see.
        """
        self._own_task(principal, task_id)
        lines = self.repo.task_lines(LineFilter(task_ids=(task_id,)), limit=1)
        return self._pages(lines)[0]

    def round_of(self, principal: Principal, submission_id: str) -> tuple[str, int]:
        """Where a submission the principal may see stands: ``(task_id, round_number)``.

        The console's approval form names the round it shows by its submission id; the
        approval is then tied to that round (``Operations.approve(round_number=...)``), and
        the agreement figures link each round behind them with it.

        Raises:
            SubmissionNotFoundError: no such submission, or one it may not see.
            TaskNotFoundError: its round is not stored yet (the intake job has not run).
        """
        task_id = self._own_submission(principal, submission_id)
        row = self.repo.get_round_by_submission(submission_id)
        return task_id, row.number

    def _pages(self, lines: list[TaskLine]) -> list[TaskPage]:
        if not lines:
            return []
        by_id = {t.id: t for t in self.repo.report_tasks([x.id for x in lines], details=True)}
        calls = self.repo.round_tool_calls(
            [r.id for t in by_id.values() for r in t.rounds if r.id is not None]
        )
        return [
            TaskPage(
                facts=by_id[line.id],
                line=line,
                principal=line.principal,
                tool_calls={r.id: calls.get(r.id, []) for r in by_id[line.id].rounds},
            )
            for line in lines
            if line.id in by_id
        ]

    # -- queue health ----------------------------------------------------------------------

    def queue_health(self, principal: Principal) -> QueueHealth:
        """The broker's queues, the store's late rounds, dead letters and webhooks, the workers.

        Raises:
            PermissionDeniedError: not an operator's key with ``view`` (the figures are the
                whole deployment's, not one agent's).
        """
        if not (principal.operator and principal.has(SCOPE_VIEW)):
            raise PermissionDeniedError(
                "queue health is for operators: sign in with a key made by `qgs keys create "
                "--operator NAME --scope view --sees PRINCIPAL`"
            )
        from qgs_worker.queue.sweeper import overdue

        bound_s = self.settings.worker.visibility_timeout_s
        unfinished = self.repo.unfinished_rounds()
        late = [(r.status_at, why) for r in unfinished if (why := overdue(r, bound_s)) is not None]
        late.sort(key=lambda pair: str(pair[0]))
        store = dataclasses.replace(
            self.repo.store_health(),
            unfinished=len(unfinished),
            overdue=len(late),
            oldest_overdue=late[0][1] if late else None,
        )
        queues, up = self._queues()
        return QueueHealth(queues, up, self._workers() if up else (), store)

    def _queues(self) -> tuple[dict[str, tuple[int, float | None]], bool]:
        url = self.settings.broker_url
        if not url:
            return {}, False
        from qgs_worker.queue.celery_app import QUEUES
        from qgs_worker.telemetry import queue_figures

        return queue_figures(url, QUEUES)

    def _workers(self) -> tuple[str, ...]:
        try:
            replies = self.client.app.control.ping(timeout=WORKER_PING_S) or []
        except Exception:  # a broker that fails here shows as no worker, not an error page
            return ()
        return tuple(sorted(name for reply in replies for name in reply))
