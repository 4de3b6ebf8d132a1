"""The batch path of ``qgs audit``: a chunk of transcripts reviewed in one job, the per-round steps.

The per-round path sends each round through the queue (intake, then critic, discriminate and
decide as they are due) and writes each step in its own transaction. Auditing thousands of
stored transcripts that way spends its time on messages and commits, not on judging. Here one
job takes a chunk of transcripts and runs, for each transcript, the very same steps of
``ReviewService`` round after round (intake, review, audit, decide: the gate sees the same
history, the critic the same requests), on a store port that keeps the rows in memory
(``store.chunk_store.ChunkReviewStore``); the job then writes them in one transaction. So a
chunk's decisions are the per-round path's, by construction
(``tests/integration/test_audit_batch.py`` audits the same files both ways and compares them).

A transcript whose steps raise (what the per-round path's jobs would retry or fail round by
round) is taken out of the chunk, its rows dropped, and handed back to the caller to go through
the per-round path, where those rules live. The critic is called per due round as before; with
``threads`` > 1 the chunk's transcripts run in that many threads (one transcript's rounds in
order in one thread), so an LLM judge's calls overlap within the judge's shared budget.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from qgs_worker.service.audit import audit_round
from qgs_worker.service.policies import Audit
from qgs_worker.service.records import Dispatch
from qgs_worker.service.review import ReviewService
from qgs_worker.service.submission import Submission

__all__ = ["ChunkResult", "DeferredObserver", "run_chunk"]

log = logging.getLogger(__name__)

MAX_HELD_RETRIES = 50
"""Judge retries and rate-limit waits one round may sleep through in a chunk before its task is
handed to the per-round path (the review's own limits stop it long before, as stored failures)."""


@dataclass
class ChunkResult:
    """What a chunk's run did.

    Attributes:
        done: The task ids whose rounds all went through the steps (kept in the store port).
        handed_back: Task id -> why, for the tasks taken out of the chunk (their rows dropped):
            they go through the per-round path.
        decided: ``(task_id, round_id)`` of every decision stored, in order (round ids as the
            store port gave them).
    """

    done: list[str] = field(default_factory=list)
    handed_back: dict[str, str] = field(default_factory=dict)
    decided: list[tuple[str, int]] = field(default_factory=list)


def run_chunk(
    service: ReviewService,
    audit: Audit,
    transcripts: Sequence[Sequence[Submission]],
    *,
    drop_task: Callable[[str], object],
    threads: int = 1,
    audit_lock: AbstractContextManager[Any] | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> ChunkResult:
    """Run each transcript's rounds through intake, review, audit and decide, in order.

    The service's ``on_decided`` is not called here: the caller tells its listeners once the
    chunk is stored (``ChunkResult.decided``).

    Args:
        service: A ``ReviewService`` over the chunk's store port.
        audit: The discriminator's roles (``Runtime.audit``).
        transcripts: Each transcript's submissions, in round order, one task per transcript.
        drop_task: Forgets a task's kept rows (``ChunkReviewStore.drop_task``) when it is
            handed back.
        threads: Transcripts run at once (1: one after another in the caller's thread).
        audit_lock: Held around each audit (one audit at a time per worker process).
        sleep: Waits out a short judge retry or rate-limit wait (seconds).

    Returns:
        What was done and what is handed back.
    """
    result = ChunkResult()
    decided_lock = threading.Lock()
    original = service.on_decided

    def collect(task_id: str, round_id: int) -> None:
        with decided_lock:
            result.decided.append((task_id, round_id))

    service.on_decided = collect
    lock = audit_lock if audit_lock is not None else nullcontext()

    def one(subs: Sequence[Submission]) -> None:
        task_id = subs[0].task_id
        try:
            for sub in subs:
                ready = service.intake(sub)
                while ready is not None:
                    ready = _run_round(service, audit, ready, lock, sleep)
        except Exception as exc:  # the per-round path's jobs know what to do with it
            reason = f"{type(exc).__name__}: {exc}"
            log.warning("task %s leaves the chunk for the per-round path: %s", task_id, reason)
            drop_task(task_id)
            with decided_lock:
                result.handed_back[task_id] = reason
                result.decided[:] = [d for d in result.decided if d[0] != task_id]
            return
        with decided_lock:
            result.done.append(task_id)

    try:
        if threads <= 1 or len(transcripts) <= 1:
            for subs in transcripts:
                one(subs)
        else:
            with ThreadPoolExecutor(min(threads, len(transcripts)), "qgs-chunk") as pool:
                list(pool.map(one, transcripts))
    finally:
        service.on_decided = original
    return result


def _run_round(
    service: ReviewService,
    audit: Audit,
    ready: Dispatch,
    audit_lock: AbstractContextManager[Any],
    sleep: Callable[[float], None],
) -> Dispatch | None:
    """One round's due steps, as its jobs would run them; the task's next round to run."""
    plan, round_id = ready.plan, ready.round_id
    if plan.critic:
        then_decide = not plan.discriminate
        for _ in range(MAX_HELD_RETRIES):
            outcome = service.review(round_id, then_decide=then_decide)
            if outcome.retry_in_s is None:
                break
            sleep(outcome.retry_in_s)
        else:
            raise RuntimeError(f"round {round_id}: still retrying after {MAX_HELD_RETRIES} waits")
        if outcome.held_elsewhere or outcome.parked:
            return None  # parked: stored with its retry time, the sweeper resumes it
        if then_decide:
            return outcome.next
    if plan.discriminate:
        with audit_lock:
            audit_round(service.store, round_id, audit, service.observer)
    return service.decide(round_id)


class DeferredObserver:
    """Holds what the steps tell telemetry until the chunk is stored, then tells it.

    The observer port is told after the transaction that stored a result committed; in a chunk
    that transaction is the flush. ``replay`` passes each call on, with the round ids the
    store gave (``round_ids``), and drops the calls of tasks handed back.
    """

    def __init__(self) -> None:
        self._calls: list[tuple[str, tuple[Any, ...]]] = []
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Callable[..., None]:
        if name.startswith("_"):
            raise AttributeError(name)

        def record(*args: Any) -> None:
            with self._lock:
                self._calls.append((name, args))

        return record

    def replay(self, observer: Any, round_ids: dict[int, int], dropped: set[str]) -> None:
        """Tell ``observer`` every held call, in order (task ids in ``dropped`` left out)."""
        for name, args in self._calls:
            task = args[0] if args and hasattr(args[0], "id") else None
            if task is not None and task.id in dropped:
                continue
            if name == "loaded":
                args = (args[0], args[1], round_ids.get(args[2], args[2]))
            getattr(observer, name)(*args)
        self._calls.clear()
