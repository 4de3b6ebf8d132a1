"""What the ``qgs.audit.chunk`` job does with a chunk of transcripts (``qgs audit``'s batch path).

The job receives the intake messages of up to ``QGS_AUDIT__CHUNK_SIZE`` transcripts in one
message (the client wrote each one's outbox row first, in one transaction). Transcripts that fit
the batch path (a new task, every message valid, no callback URL) run through the review steps
in memory (``service.batch.run_chunk`` on a ``store.chunk_store.ChunkReviewStore``) and are
written in one transaction; the others (a task already stored, a message that does not validate,
a callback URL to push to, a step that raised) are published as plain intake messages, one a
round, so the per-round path handles them with all its rules. Their outbox rows wait for those
intakes as usual: a chunk lost with its worker is published again by the sweeper, round by
round, and a chunk delivered twice finds its tasks stored and republishes only what is not.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from qgs_worker.errors import InputError
from qgs_worker.service import ReviewService
from qgs_worker.service.batch import DeferredObserver, run_chunk
from qgs_worker.service.submission import Submission, validate_message
from qgs_worker.store.chunk_store import (
    ChunkConflictError,
    ChunkReviewStore,
    settled_submission_ids,
    stored_task_ids,
)

if TYPE_CHECKING:
    from qgs_worker.queue.worker_runtime import Runtime

__all__ = ["AUDIT_CHUNK_JOB", "ChunkOutcome", "audit_chunk", "group_messages"]

log = logging.getLogger(__name__)

AUDIT_CHUNK_JOB = "qgs.audit.chunk"
"""The job's name (on ``qgs.critic``: its reviews run where a round's intake and critic would)."""


@dataclass
class ChunkOutcome:
    """What one chunk job did: tasks stored by the batch path, and messages sent per round."""

    stored_tasks: int = 0
    stored_rounds: int = 0
    per_round: dict[str, str] = field(default_factory=dict)  # task id -> why
    republished: int = 0


def group_messages(messages: Sequence[Any]) -> dict[str, list[Any]]:
    """The chunk's messages by task id, in order (a message without one under ``""``)."""
    groups: dict[str, list[Any]] = {}
    for message in messages:
        task_id = message.get("task_id") if isinstance(message, dict) else None
        groups.setdefault(task_id if isinstance(task_id, str) else "", []).append(message)
    return groups


def audit_chunk(
    rt: Runtime,
    messages: Sequence[Any],
    *,
    publish: Callable[[dict[str, Any]], None],
    threads: int = 1,
    in_memory: AbstractContextManager[Any] | None = None,
) -> ChunkOutcome:
    """Review a chunk of transcripts: the batch path where it fits, the per-round path elsewhere.

    Args:
        rt: The worker's runtime (store, judge, policies, audit, listeners).
        messages: Intake messages (``Submission`` as JSON), each transcript's in round order.
        publish: Publishes one intake message (``queue.publish.publish_intake``).
        threads: Transcripts reviewed at once (``QGS_AUDIT__CHUNK_THREADS``).
        in_memory: Held while the chunk is checked and reviewed in memory, released before
            it is written (the job's one-chunk-at-a-time lock): the next chunk's CPU work
            overlaps this one's transaction, whose driver calls release the GIL.

    Returns:
        What was stored and what went to the per-round path.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the store failed; nothing of the chunk was written
            (the job retries it).
    """
    outcome = ChunkOutcome()
    with in_memory if in_memory is not None else nullcontext():
        groups = group_messages(messages)
        batch: dict[str, list[Submission]] = {}
        for task_id, group in groups.items():
            why = _unfit(rt, task_id, group, batch)
            if why:
                outcome.per_round[task_id] = why
        stored = stored_task_ids(rt.repo.engine, list(batch))
        for task_id in stored:
            del batch[task_id]
            outcome.per_round[task_id] = "the task is stored already"
        store = ChunkReviewStore(rt.store, rt.repo.engine)
        deferred = DeferredObserver() if rt.observer is not None else None
        service = ReviewService(
            store,
            rt.policies,
            judge=rt.judge,
            limits=rt.service.limits,
            llm=rt.llm_classifier,
            admit=rt.service.admit,
            observer=deferred,
        )
        from qgs_worker.queue.worker_runtime import _audit_lock

        try:
            result = run_chunk(
                service,
                rt.audit,
                list(batch.values()),
                drop_task=store.drop_task,
                threads=threads,
                audit_lock=_audit_lock,
            )
        finally:
            store.close()
    outcome.per_round.update(result.handed_back)
    while True:
        try:
            round_ids = store.flush(rt.repo.engine)
            break
        except ChunkConflictError as exc:  # stored meanwhile by a sweeper's per-round intake
            for task_id in exc.task_ids:
                store.drop_task(task_id)
                outcome.per_round[task_id] = "the task was stored while the chunk ran"
    dropped = set(outcome.per_round)
    outcome.stored_tasks = len(store.tasks)
    outcome.stored_rounds = len(round_ids)
    _tell(rt, store, result.decided, round_ids, dropped)
    if deferred is not None:
        deferred.replay(rt.observer, round_ids, dropped)
    outcome.republished = _publish_per_round(rt, groups, dropped, publish)
    if outcome.per_round:
        log.info(
            "chunk: %d tasks stored, %d sent round by round (%s)",
            outcome.stored_tasks,
            len(outcome.per_round),
            "; ".join(f"{t}: {why}" for t, why in list(outcome.per_round.items())[:3]),
        )
    return outcome


def _unfit(rt: Runtime, task_id: str, group: list[Any], batch: dict[str, list[Submission]]) -> str:
    """Why a transcript's messages must go round by round ("" when they fit, kept in ``batch``)."""
    if not task_id:
        return "a message without a task id"
    subs = []
    for message in group:
        try:
            sub = validate_message(message, rt.settings.max_deliverable_bytes)
        except InputError as exc:
            return f"a message does not validate ({exc})"
        subs.append(sub)
    if subs[0].task is None:
        return "the first message does not describe its task"
    if any(s.callback_url for s in subs) or subs[0].task.callback_url:
        return "a callback URL to push decisions to"
    if any(s.round_number is None for s in subs):
        return "a round without a number"
    batch[task_id] = sorted(subs, key=lambda s: s.round_number or 0)
    return ""


def _publish_per_round(
    rt: Runtime,
    groups: dict[str, list[Any]],
    tasks: set[str],
    publish: Callable[[dict[str, Any]], None],
) -> int:
    """Publish the intake of every round of ``tasks`` not done yet; how many were published.

    A round stored and decided (or failed) is not sent again (a chunk delivered twice); one
    stored and not done (a reopened round, one queued behind it) is: its intake takes the task on.
    """
    messages = [m for task_id in tasks for m in groups.get(task_id, [])]
    if not messages:
        return 0
    ids = [str(m.get("submission_id")) for m in messages if isinstance(m, dict)]
    done = settled_submission_ids(rt.repo.engine, ids)
    sent = 0
    for message in messages:
        if isinstance(message, dict) and message.get("submission_id") in done:
            continue  # done by an earlier delivery of this chunk, or by the sweeper's intake
        publish(message)
        sent += 1
    return sent


def _tell(
    rt: Runtime,
    store: ChunkReviewStore,
    decided: list[tuple[str, int]],
    round_ids: dict[int, int],
    dropped: set[str],
) -> None:
    """Announce the chunk's stored decisions to waiters (one Redis round trip for the chunk)."""
    publisher = rt.decision_publisher
    notices = [
        (task_id, round_ids[rid], store.submission_of(rid))
        for task_id, rid in decided
        if task_id not in dropped and rid in round_ids
    ]
    if publisher is not None and notices:
        publisher.publish_many(notices)
