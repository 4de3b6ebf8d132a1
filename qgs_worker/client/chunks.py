"""Sending a chunk of transcripts as one ``qgs.audit.chunk`` job (``qgs audit``'s batch path).

The same guarantee as ``Client.send``, for many submissions at once: every submission's outbox
row is written first (one transaction), then one message carries them all; a publish that fails
removes the rows again, so a chunk the caller was told was not queued never turns up later. A
chunk the queue loses is published again by the sweeper round by round, from those rows.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from qgs_worker.errors import BrokerUnavailableError, StoreError
from qgs_worker.queue.audit_chunk import AUDIT_CHUNK_JOB
from qgs_worker.service.submission import Submission

if TYPE_CHECKING:
    from qgs_worker.client import Client

__all__ = ["send_chunk"]

log = logging.getLogger(__name__)


def send_chunk(client: Client, submissions: Sequence[Submission]) -> int:
    """Record validated submissions in the outbox, then enqueue them as one chunk job.

    Args:
        client: The client (its store and Celery app).
        submissions: Validated submissions (``Client.make_submission``), each transcript's
            rounds in order.

    Returns:
        How many submissions were queued.

    Raises:
        BrokerUnavailableError: the broker did not take the chunk; nothing was queued and
            nothing is left in the outbox.
        StoreError: the store could not record the chunk; nothing was queued.
    """
    if not submissions:
        return 0
    from kombu.exceptions import OperationalError
    from sqlalchemy.exc import SQLAlchemyError

    messages = [s.intake_message() for s in submissions]
    try:
        client.repo.add_outbox_many(
            [
                (s.submission_id, s.task_id, json.dumps(m, ensure_ascii=False), s.round_number)
                for s, m in zip(submissions, messages, strict=True)
            ]
        )
    except SQLAlchemyError as exc:
        raise StoreError(
            f"cannot record {len(submissions)} submissions in the store "
            f"({str(exc).splitlines()[0]}); they were not queued: check QGS_DATABASE_URL"
        ) from exc
    tasks = len({s.task_id for s in submissions})
    try:
        client.app.send_task(
            AUDIT_CHUNK_JOB,
            args=[messages],
            argsrepr=f"(chunk: {tasks} transcripts, {len(submissions)} rounds)",
            kwargsrepr="{}",
        )
    except (OperationalError, OSError, TimeoutError) as exc:
        client.repo.drop_outbox_many([s.submission_id for s in submissions])
        log.warning("the broker did not take a chunk of %d submissions: %s", len(submissions), exc)
        raise BrokerUnavailableError(
            f"cannot reach the broker (QGS_BROKER_URL; {type(exc).__name__}); a chunk of "
            f"{tasks} transcripts was not queued: check QGS_BROKER_URL and that Redis runs, "
            "then audit again"
        ) from exc
    except BaseException:
        client.repo.drop_outbox_many([s.submission_id for s in submissions])
        raise
    return len(submissions)
