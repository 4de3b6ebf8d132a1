"""Reading a decision, waiting for it (a long-poll): the ``get_decision`` part of ``Operations``.

The wait is woken by the decision's notification (``qgs_worker.queue.notify``), with a safety re-read
every ``QGS_API__RECHECK_S`` seconds; without a broker it re-reads only. After a wait the key
is read again from the store (``Access.recheck``): a key revoked while the request waited gets
no answer. ``get_decision_async`` does the same for an event loop (store reads in threads).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from qgs_worker.client import DecisionView
from qgs_worker.errors import InputError
from qgs_worker.queue.notify import DecisionNotifier

if TYPE_CHECKING:
    from qgs_worker.api.access import Access, Principal
    from qgs_worker.config.settings import Settings
    from qgs_worker.store import Repository

__all__ = ["WAIT_MAX_S", "DecisionResult", "DecisionWaits"]

WAIT_MAX_S = 60.0
"""The longest one ``get_decision`` may wait, in seconds (a long-poll; ask again after it)."""


@dataclass(frozen=True)
class DecisionResult:
    """``get_decision``'s answer: the decision, or None with where the submission stands.

    ``source`` says what ended the wait: ``stored`` (there at the first read), ``notification``
    (a pub/sub notice woke it), ``resubscribed``, ``recheck`` (the safety re-read), or
    ``timeout`` (no decision within ``wait_s``; ``detail`` says where it stands).
    """

    submission_id: str
    decision: DecisionView | None
    source: str
    detail: str = ""


class DecisionWaits:
    """``get_decision`` and ``get_decision_async`` (a part of ``Operations``)."""

    settings: Settings
    repo: Repository
    access: Access
    _notifier: DecisionNotifier | None
    _lock: threading.Lock

    _own_submission: Callable[[Principal, str], str]
    """``Operations``' own check that the principal may see it (this part only calls it)."""

    def get_decision(
        self,
        principal: Principal,
        submission_id: str,
        *,
        wait_s: float = 0.0,
        until_approved: bool = False,
    ) -> DecisionResult:
        """The decision on a submission, waiting up to ``wait_s`` seconds for it (blocking).

        The wait is woken by the decision's notification (``qgs_worker.queue.notify``), with a
        safety re-read every ``QGS_API__RECHECK_S`` seconds; without a broker it re-reads only.

        Args:
            principal: Who asks.
            submission_id: From ``submit_round``.
            wait_s: 0 to 60 seconds.
            until_approved: A decision that awaits a person counts only once they decided.

        Raises:
            InputError: ``wait_s`` outside 0-60.
            SubmissionNotFoundError: no such submission of this principal.
            AuthenticationError: the key was revoked while the call waited (read again from
                the store after every wait: a revoked key gets no answer).
        """
        _check_wait(wait_s)
        self._own_submission(principal, submission_id)
        read = self._reader(submission_id, until_approved)
        if wait_s == 0:
            view, source = read(), "stored"
        else:
            view, source = self.notifier.wait(submission_id, read, wait_s)
            self.access.recheck(principal)  # revoked while it waited: no answer
        if view is not None:
            return DecisionResult(submission_id, view, source)
        return self._pending(submission_id)

    async def get_decision_async(
        self,
        principal: Principal,
        submission_id: str,
        *,
        wait_s: float = 0.0,
        until_approved: bool = False,
    ) -> DecisionResult:
        """``get_decision`` for an event loop: store reads run in threads, the loop never blocks.

        Raises:
            InputError, SubmissionNotFoundError, AuthenticationError: as ``get_decision``.
        """
        _check_wait(wait_s)
        await asyncio.to_thread(self._own_submission, principal, submission_id)
        read = self._reader(submission_id, until_approved)

        async def read_async() -> DecisionView | None:
            return await asyncio.to_thread(read)

        if wait_s == 0:
            view, source = await read_async(), "stored"
        else:
            view, source = await self.notifier.wait_async(submission_id, read_async, wait_s)
            await asyncio.to_thread(self.access.recheck, principal)
        if view is not None:
            return DecisionResult(submission_id, view, source)
        return await asyncio.to_thread(self._pending, submission_id)

    def _reader(self, submission_id: str, until_approved: bool) -> Any:
        from qgs_worker.queue.progress import refusal_of, settled_progress

        bound_s = self.settings.worker.visibility_timeout_s

        def read() -> DecisionView | None:
            view = self.repo.decision_view(submission_id)
            if view is None:
                # A submission that will never be decided ends the wait (a 409), not wait_s.
                refused = refusal_of(settled_progress(self.repo, submission_id, bound_s))
                if refused is not None:
                    raise refused
            if view is not None and until_approved and view.awaiting_approval:
                return None
            return view

        return read

    def _pending(self, submission_id: str) -> DecisionResult:
        """No decision yet: where the submission stands.

        Raises:
            SubmissionRefusedError: it will never be decided (break test: a submission whose
                intake could not store it answered 202 "pending" on every poll).
        """
        from qgs_worker.queue.progress import refusal_of, settled_progress

        where = settled_progress(
            self.repo, submission_id, self.settings.worker.visibility_timeout_s
        )
        refused = refusal_of(where)
        if refused is not None:
            raise refused
        return DecisionResult(submission_id, None, "timeout", where.detail)

    @property
    def notifier(self) -> DecisionNotifier:
        """The decision notifier this layer waits with (started on first use)."""
        if self._notifier is None:
            with self._lock:
                if self._notifier is None:
                    self._notifier = self._new_notifier()
        return self._notifier

    def _new_notifier(self) -> DecisionNotifier:
        url = self.settings.broker_url
        recheck_s = self.settings.api.recheck_s
        if not url:  # nothing to subscribe to: the waits re-read the store only
            return DecisionNotifier(_no_redis, recheck_s=recheck_s)
        from qgs_worker.limits.ratelimit import redis_for_broker

        timeout_s = self.settings.broker_timeout_s
        return DecisionNotifier(
            lambda: redis_for_broker(url, timeout_s=timeout_s), recheck_s=recheck_s
        ).start()


def _check_wait(wait_s: float) -> None:
    if not 0 <= wait_s <= WAIT_MAX_S:
        raise InputError(
            f"'wait_s' must be 0-{WAIT_MAX_S:g} seconds (got {wait_s!r}); ask again after a "
            "wait that ended without a decision"
        )


def _no_redis() -> Any:
    raise InputError("no broker: decision notifications are off")  # never started
