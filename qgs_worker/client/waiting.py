"""Reading and waiting for decisions, woken by their notification (a part of ``Client``).

``wait`` blocks until a submission's decision is stored: woken by the decision's notice on the
broker's Redis (``qgs_worker.queue.notify``) when there is a broker URL, else by reading the store with
a growing pause. ``approve`` (over ``ApprovalsMixin``) wakes the waiters of the round.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from qgs_worker.client.approvals import ApprovalsMixin
from qgs_worker.core.views import ApprovalView, DecisionView
from qgs_worker.errors import WaitTimeoutError
from qgs_worker.queue.notify import DecisionNotifier
from qgs_worker.service.inputs import require_bool, require_number, require_text
from qgs_worker.store import Repository
from qgs_worker.store.failures import store_guarded

if TYPE_CHECKING:
    from qgs_worker.config.settings import Settings
    from qgs_worker.queue.progress import WaitProgress

logger = logging.getLogger(__name__)


class WaitingMixin(ApprovalsMixin):
    """``decision``, ``wait``, ``task_decision``, ``notifier`` and the approval's wake-up."""

    settings: Settings
    repo: Repository
    app: Any
    _app: Any
    _notifier: DecisionNotifier | None
    _notifier_lock: threading.Lock

    @property
    def notifier(self) -> DecisionNotifier | None:
        """The decision notifier ``wait`` is woken by (None without a broker URL); started on first use."""
        url = self.settings.broker_url
        if self._notifier is None and url:
            with self._notifier_lock:
                if self._notifier is None:
                    from qgs_worker.limits.ratelimit import redis_for_broker

                    timeout_s = self.settings.broker_timeout_s
                    self._notifier = DecisionNotifier(
                        lambda: redis_for_broker(url, timeout_s=timeout_s),
                        recheck_s=self.settings.api.recheck_s,
                    ).start()
        return self._notifier

    @store_guarded
    def decision(self, submission_id: str) -> DecisionView | None:
        """The decision on a submission, or None while it is not made."""
        require_text(submission_id, "submission_id", "pass the id submit returned")
        return self.repo.decision_view(submission_id)

    @store_guarded
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
            poll_s: Without a broker URL (no notifications), the first pause between reads of
                the store, in seconds (it grows to 1 s). With one, the wait is woken by the
                decision's notification (``qgs_worker.queue.notify``) and re-reads the store only
                every ``QGS_API__RECHECK_S`` seconds (every second with ``on_progress``).
            until_approved: Also wait for a person's decision when one is required.
            on_progress: Called with a ``WaitProgress`` each time the submission's state
                changes (stored, dispatched, each judge retry, a parked retry).

        Raises:
            SubmissionRefusedError: the submission will never be decided (refused, given
                up, or taken and not storable); the message says why.
            WaitTimeoutError: no decision (or, with ``until_approved``, no person's decision)
                within ``timeout_s`` seconds; the message says where the submission stands
                (in the outbox, refused, its round's state, judge retries so far, the store in
                use). The work goes on.
        """
        from qgs_worker.queue.progress import progress_of, refusal_of, settled_progress

        require_text(submission_id, "submission_id", "pass the id submit returned")
        timeout_s = require_number(timeout_s, "timeout_s")
        until_approved = require_bool(until_approved, "until_approved")
        bound_s = self.settings.worker.visibility_timeout_s
        shown: list[object] = []

        def read() -> DecisionView | None:
            found = self.decision(submission_id)
            if found is not None and not (until_approved and found.awaiting_approval):
                return found
            if found is not None:
                return None  # decided, and waiting for a person (until_approved)
            now = settled_progress(self.repo, submission_id, bound_s)
            refused = refusal_of(now)
            if refused is not None:  # never decided: waiting out the timeout helps nobody
                raise refused
            if on_progress is not None and (not shown or now.key != shown[-1]):
                shown.append(now.key)
                on_progress(now)
            return None

        notifier = self.notifier
        if notifier is not None:
            # Woken by the decision's notification (qgs_worker.queue.notify); a progress display
            # re-reads every second to show the states a round passes through.
            found, _source = notifier.wait(
                submission_id, read, timeout_s, recheck_s=1.0 if on_progress else None
            )
        else:
            found = self._poll(read, timeout_s, poll_s)
        if found is not None:
            return found
        last = self.decision(submission_id)
        if last is not None:
            raise WaitTimeoutError(
                f"the decision on submission {submission_id!r} (round "
                f"{last.round_number}: {last.kind}) still awaits a person after "
                f"{timeout_s:g} s: `qgs approve {last.task_id} --by NAME` "
                "(or --reject --note WHY) records one"
            )
        where = progress_of(self.repo, submission_id, bound_s, patience_s=0.0)
        raise WaitTimeoutError(
            f"no decision on submission {submission_id!r} after {timeout_s:g} s: {where.detail}"
        )

    @staticmethod
    def _poll(
        read: Callable[[], DecisionView | None], timeout_s: float, poll_s: float
    ) -> DecisionView | None:
        """Read until a value or ``timeout_s`` (no broker to be notified through)."""
        deadline = time.monotonic() + timeout_s
        delay = poll_s
        while True:
            found = read()
            if found is not None or time.monotonic() >= deadline:
                return found
            time.sleep(delay)
            delay = min(delay * 1.5, 1.0)

    @store_guarded
    def approve(
        self,
        task_id: str,
        *,
        by: str,
        note: str = "",
        reject: bool = False,
        round_number: int | None = None,
    ) -> ApprovalView:
        """``ApprovalsMixin.approve``, then wake the waiters of the round (``until_approved``).

        When the round or its task has a callback URL, the approval event (``qgs.approval``,
        stored with the approval) is enqueued here; without a broker, the workers' sweeper
        enqueues it within its bound (``QGS_WORKER__VISIBILITY_TIMEOUT_S``).
        """
        view = super().approve(
            task_id, by=by, note=note, reject=reject, round_number=round_number
        )
        self._announce(task_id, view.round_number)
        self._push_approval(task_id, view.round_number)
        return view

    def _push_approval(self, task_id: str, round_number: int) -> None:
        """Enqueue the round's approval webhook, if it has one never tried (best effort)."""
        try:
            round_id = self.repo.fresh_approval_webhook(task_id, round_number)
            if round_id is None:
                return
            if self._app is None and not self.settings.broker_url:
                logger.info("approval webhook of task %s left to the sweeper: no broker", task_id)
                return
            from qgs_worker.core.webhooks import APPROVAL_EVENT
            from qgs_worker.queue.webhook_starts import publish_delivery

            publish_delivery(self.app, round_id, APPROVAL_EVENT)
        except Exception as exc:
            logger.warning("approval webhook of task %s not enqueued (%s)", task_id, exc)

    def _announce(self, task_id: str, round_number: int) -> None:
        """Publish the round's notice (best effort: a waiter re-reads within its recheck)."""
        url = self.settings.broker_url
        if not url:
            return
        try:
            from qgs_worker.limits.ratelimit import redis_for_broker
            from qgs_worker.queue.notify import DecisionPublisher

            found = self.repo.round_ref(task_id, round_number)
            if found is not None:
                round_id, submission_id = found
                client = redis_for_broker(url, timeout_s=self.settings.broker_timeout_s / 2)
                try:
                    DecisionPublisher(client, lambda _r: "").publish(
                        task_id, round_id, submission_id
                    )
                finally:
                    client.close()
        except Exception as exc:
            logger.warning("approval of task %s not announced (%s)", task_id, exc)

    @store_guarded
    def task_decision(self, task_id: str) -> DecisionView | None:
        """The decision on the task's latest decided round, or None.

        Raises:
            TaskNotFoundError: no such task.
        """
        require_text(task_id, "task_id", "pass the task's id")
        return self.repo.latest_decision_view(task_id)
