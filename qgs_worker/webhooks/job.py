"""The Celery job ``qgs.webhook.deliver``: one attempt at a round's webhook, retried with a countdown.

Thin, as every job: it loads nothing itself and calls ``delivery.deliver_once``; a failed
attempt with attempts left is retried after the delay the attempt stored (held in the worker
as a countdown, below half the visibility timeout: ``WebhookSettings.check``); a store that
cannot be reached is retried like in every QGS job. A copy redelivered by Redis finds the
delivery delivered, failed or held, and does nothing.
"""

from __future__ import annotations

from celery import shared_task

from qgs_worker.jobs import QGSJob
from qgs_worker.webhooks.delivery import DELIVER_JOB, deliver_once

__all__ = ["webhook_deliver_job"]


@shared_task(name=DELIVER_JOB, bind=True, base=QGSJob)
def webhook_deliver_job(self: QGSJob, round_id: int) -> None:
    """POST the round's decision to its callback URL once; retry later when that failed."""
    rt = self.runtime()
    with self.store_errors_retried(rt.settings):
        outcome = deliver_once(rt.repo, round_id, rt.settings)
    if outcome.retry_in_s is not None:
        raise self.retry(countdown=outcome.retry_in_s, max_retries=None)
