"""``BackgroundBatches``: work a job hands off after its commit, done by one thread per process.

A decided round's listeners (``Runtime.decided_listeners``) do best-effort or recoverable work:
the decision notice for waiters (``notify.DecisionPublisher``) and the webhook delivery's start
(``webhook_starts.decided_listener``, which the sweeper redoes for a decided round that has
none). Neither needs to hold the job's thread: at 16 concurrent reviews every read or round trip
on a review's path is time its thread waits on the GIL and the store before it takes the next
round (issue 15, P2). Here the caller only queues the item; a thread of the process handles
what queued meanwhile as one batch.

What is still queued when the process ends is lost: only work that is announced again (a
waiter's recheck) or redone (the sweeper) may be handed here.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["BackgroundBatches"]

log = logging.getLogger(__name__)

T = TypeVar("T")


class BackgroundBatches(Generic[T]):
    """Queue items from any thread; one thread of this process calls ``handle`` on each batch.

    The thread starts with the first item (again in a forked child: the pid is checked), is a
    daemon, and handles every item once, in the order queued. ``handle``'s exceptions are logged
    and the batch counts as done (the module docstring says why nothing more is owed).

    Args:
        handle: Called as ``handle(batch)`` with the items queued since the last call (>= 1).
        name: The thread's name (seen in ``py-spy`` and thread dumps).
    """

    def __init__(self, handle: Callable[[list[T]], None], name: str) -> None:
        self._handle = handle
        self._name = name
        self._queued: list[T] = []
        self._outstanding = 0  # queued or being handled now
        self._changed = threading.Condition()
        self._thread_pid: int | None = None

    def put(self, item: T) -> None:
        """Queue one item (never blocks on the work itself)."""
        with self._changed:
            self._queued.append(item)
            self._outstanding += 1
            if self._thread_pid != os.getpid():
                self._thread_pid = os.getpid()
                threading.Thread(target=self._run, name=self._name, daemon=True).start()
            self._changed.notify_all()

    def flush(self, timeout_s: float) -> bool:
        """Wait until every item queued so far is handled; True if that came within ``timeout_s``."""
        with self._changed:
            return self._changed.wait_for(lambda: self._outstanding == 0, timeout_s)

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: bool(self._queued))
                batch, self._queued = self._queued, []
            try:
                self._handle(batch)
            except Exception:
                log.exception("%s: a batch of %d failed", self._name, len(batch))
            finally:
                with self._changed:
                    self._outstanding -= len(batch)
                    self._changed.notify_all()
