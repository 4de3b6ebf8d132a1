"""A decided round's webhook, started: the decided listener and the job it enqueues.

The delivery itself (the POST, its signature, its retries' bookkeeping) is
``qgs_worker.webhooks.delivery``'s; starting one is the queue's: a ``Runtime.decided_listeners``
entry stores the round's delivery and enqueues ``qgs.webhook.deliver`` (``webhook_job``), and
the sweeper and an approval enqueue the same job.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from qgs_worker.core.webhooks import DECISION_EVENT
from qgs_worker.queue.background import BackgroundBatches
from qgs_worker.store import Repository
from qgs_worker.webhooks.delivery import DELIVER_JOB

__all__ = ["decided_listener", "publish_delivery"]

log = logging.getLogger(__name__)


def publish_delivery(app: Any, round_id: int, event: str = DECISION_EVENT) -> None:
    """Enqueue one attempt at the round's ``event`` webhook (``qgs.webhook.deliver``).

    A decision's job has the round id alone as its argument (what an older worker takes).
    """
    args: list[Any] = [round_id] if event == DECISION_EVENT else [round_id, event]
    argsrepr = f"(round={round_id}" + ("" if event == DECISION_EVENT else f", {event}") + ")"
    app.send_task(DELIVER_JOB, args=args, argsrepr=argsrepr, kwargsrepr="{}")


def decided_listener(
    repo: Repository, publish: Callable[[int], None], *, in_background: bool = False
) -> Callable[[str, int], None]:
    """A ``Runtime.decided_listeners`` entry: store the round's delivery, enqueue it when new.

    Only the caller that stored the delivery enqueues it (the sweeper does the same for a
    decided round whose listener was lost), so a round's job is enqueued once.

    With ``in_background`` the call only queues the round (``background.BackgroundBatches``):
    the read that finds most rounds without a callback URL leaves the job's path, and a round
    whose start is lost with the process is one the sweeper starts (``unstarted_webhooks``).
    A round's failure is logged and does not hold the others of its batch.
    """

    def listener(task_id: str, round_id: int) -> None:
        del task_id
        if repo.start_webhook(round_id):
            publish(round_id)

    if not in_background:
        return listener

    def start_each(batch: list[tuple[str, int]]) -> None:
        for task_id, round_id in batch:
            try:
                listener(task_id, round_id)
            except Exception:  # the sweeper starts what is not stored
                log.exception("round %s: the webhook delivery was not started", round_id)

    starts: BackgroundBatches[tuple[str, int]] = BackgroundBatches(start_each, "qgs-webhook-starts")
    return lambda task_id, round_id: starts.put((task_id, round_id))
