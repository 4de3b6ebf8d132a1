"""How ``qgs audit`` waits for its decisions: one query per poll, whatever the batch size.

Each poll asks the store for the rounds decided or failed since the previous poll
(``Repository.rounds_settled_since``, by ``round.status_at``) and crosses them off a small
record per task (the round numbers it still waits for): the cost of a poll follows the rate of
decisions, not the number of tasks waiting (issue 15: polling each task cost 0.6 of a core at
5,000-10,000 transcripts).

``status_at`` is written with the worker's clock. The window starts ``MARGIN_S`` before the
latest ``status_at`` seen (a round committed a little after a later one still falls in it), and
before anything is seen, ``FIRST_WINDOW_S`` before the client's own clock. A worker whose clock
lags further than that is caught by ``reconcile``, an exact check of the waiting tasks a few
hundred at a time, run when nothing settled for ``RECONCILE_S`` seconds and before giving up.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta

from qgs_worker.store import Repository, as_utc, utcnow

__all__ = ["FIRST_WINDOW_S", "MARGIN_S", "RECONCILE_S", "AuditWait"]

MARGIN_S = 5.0
"""Seconds the window reaches back before the latest ``status_at`` seen."""
FIRST_WINDOW_S = 300.0
"""Seconds the first window reaches back before the client's clock (a worker's clock may lag)."""
RECONCILE_S = 15.0
"""Seconds without a settled round after which the waiting tasks are checked one by one."""
CHUNK = 500
"""Task ids per query of ``reconcile`` (one bound parameter each)."""


class AuditWait:
    """The rounds an audit still waits for, updated by ``poll``.

    Args:
        repo: The store the workers write to.
        pending: Task id -> the round numbers not decided yet (copied; a task with none is done).
    """

    def __init__(self, repo: Repository, pending: dict[str, set[int]]) -> None:
        self.repo = repo
        self._pending = {task: set(numbers) for task, numbers in pending.items() if numbers}
        self._latest: datetime | None = None
        self._since_client = utcnow() - timedelta(seconds=FIRST_WINDOW_S)
        self._last_progress = time.monotonic()

    @property
    def waiting(self) -> int:
        """How many tasks still wait for a round."""
        return len(self._pending)

    def first_waiting(self) -> str:
        """The first waiting task id in sort order (for a message); "" when none waits."""
        return min(self._pending, default="")

    def poll(self) -> int:
        """Read the rounds settled since the last poll (one query); return the tasks waiting."""
        if not self._pending:
            return 0
        since = (
            self._latest - timedelta(seconds=MARGIN_S)
            if self._latest is not None
            else self._since_client
        )
        before = len(self._pending)
        for task_id, number, at in self.repo.rounds_settled_since(since):
            if at is not None:
                at = as_utc(at)
                if self._latest is None or at > self._latest:
                    self._latest = at
            self._cross_off(task_id, number)
        if len(self._pending) < before:
            self._last_progress = time.monotonic()
        elif time.monotonic() - self._last_progress > RECONCILE_S:
            self.reconcile()
        return len(self._pending)

    def reconcile(self) -> bool:
        """Check every waiting task exactly (``CHUNK`` per query); True when some settled."""
        before = len(self._pending)
        ids = sorted(self._pending)
        for start in range(0, len(ids), CHUNK):
            for task_id, number in self.repo.rounds_settled_of(ids[start : start + CHUNK]):
                self._cross_off(task_id, number)
        self._last_progress = time.monotonic()
        return len(self._pending) < before

    def _cross_off(self, task_id: str, number: int) -> None:
        numbers = self._pending.get(task_id)
        if numbers is None:
            return  # not this audit's, or done already
        numbers.discard(number)
        if not numbers:
            del self._pending[task_id]
