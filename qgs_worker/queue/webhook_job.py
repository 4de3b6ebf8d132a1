"""The Celery job ``qgs.webhook.deliver``: one attempt at a round's webhook, retried with a countdown.

Thin, as every job: it loads nothing itself and calls ``delivery.deliver_once``; a failed
attempt with attempts left is retried after the delay the attempt stored (held in the worker
as a countdown, below half the visibility timeout: ``WebhookSettings.check``); a store that
cannot be reached is retried like in every QGS job. A copy redelivered by Redis finds the
delivery delivered, failed or held, and does nothing.

Webhooks share ``qgs.default``'s thread pool with the decide job, and a receiver that hangs
holds a thread for up to ``QGS_WEBHOOKS__TIMEOUT_S`` (the whole POST's bound). So at most
``QGS_WEBHOOKS__CONCURRENCY`` attempts run at once in one worker process: a job that finds
every slot taken claims nothing and is retried after a wait the worker holds as an ETA (no
thread, no prefetch slot: NOTES.md), leaving the other threads to the review jobs. The wait
doubles with each retry of the job (``busy_wait_s``: 1 s, 2 s, 4 s...) up to the POST's bound,
by which a slot is free again, so a queue of deliveries behind slow receivers does not
spin (a retry a second each, each logged).
A separate webhook queue would do the same only if operators ran a worker for it; this needs
no deployment change. The cap is per process: with the prefork pool each child is a process of
its own (one job at a time each), so the cap there is ``QGS_WORKER__DEFAULT_CONCURRENCY``.
"""

from __future__ import annotations

import random
import threading

from celery import shared_task

from qgs_worker.core.webhooks import DECISION_EVENT
from qgs_worker.queue.jobs import QGSJob
from qgs_worker.webhooks.delivery import DELIVER_JOB, deliver_once

__all__ = ["BUSY_RETRY_S", "busy_wait_s", "webhook_deliver_job", "webhook_slots"]

BUSY_RETRY_S = 1.0
"""Seconds a delivery first waits, as a countdown, when every webhook slot is taken."""


def busy_wait_s(retries: int, bound_s: float, jitter: float) -> float:
    """Seconds a delivery that found every slot taken waits before it tries again.

    Args:
        retries: How often the job was retried so far (``request.retries``).
        bound_s: The longest a slot stays taken: the whole POST's bound, in seconds
            (``WebhookPolicy.timeout_s``); the wait never exceeds it by more than the jitter.
        jitter: A number in [0, 1): the wait is spread over 75-125% of its value, so
            deliveries that waited together do not come back together.

    Returns:
        ``BUSY_RETRY_S`` doubled per retry, at most ``bound_s`` (and at least ``BUSY_RETRY_S``).
    """
    base = min(BUSY_RETRY_S * 2.0 ** min(retries, 16), max(bound_s, BUSY_RETRY_S))
    return base * (0.75 + 0.5 * jitter)


_slots_lock = threading.Lock()
_slots: dict[int, threading.BoundedSemaphore] = {}


def webhook_slots(concurrency: int) -> threading.BoundedSemaphore:
    """This process's webhook slots for a cap of ``concurrency`` (one semaphore per cap value)."""
    with _slots_lock:
        found = _slots.get(concurrency)
        if found is None:
            found = _slots[concurrency] = threading.BoundedSemaphore(concurrency)
        return found


@shared_task(name=DELIVER_JOB, bind=True, base=QGSJob)
def webhook_deliver_job(self: QGSJob, round_id: int, event: str = DECISION_EVENT) -> None:
    """POST the round's decision (or its approval event) once; retry later when that failed."""
    rt = self.runtime()
    hooks = rt.settings.webhooks
    slots = webhook_slots(hooks.concurrency)
    if not slots.acquire(blocking=False):
        # Every slot holds a POST: wait as an ETA, not in a thread the decide job needs.
        w = rt.settings.worker
        policy = hooks.policy(
            soft_time_limit_s=w.soft_time_limit_s, visibility_timeout_s=w.visibility_timeout_s
        )
        wait_s = busy_wait_s(self.request.retries or 0, policy.timeout_s, random.random())
        raise self.retry(countdown=wait_s, max_retries=None)
    try:
        with self.store_errors_retried(rt.settings):
            outcome = deliver_once(rt.repo, round_id, rt.settings, event=event)
    finally:
        slots.release()
    if outcome.retry_in_s is not None:
        raise self.retry(countdown=outcome.retry_in_s, max_retries=None)
