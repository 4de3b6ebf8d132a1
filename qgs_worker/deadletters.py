"""Messages a worker cannot decode: kept as dead letters, never a silent discard.

Celery logs a message whose body cannot be decoded (not JSON, nested past ``json``'s
recursion limit) and acknowledges it. ``keep_undecodable`` wraps the worker's consumer so
that the message is also stored (``DeadLetterRow``: job name, reason, the body's first 2 KB,
the ids that can be read from it), and, when its task and round can be identified from
that head, its round gets a ``revise`` decision with the reason (``jobs.refuse_submission``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

from qgs_worker.store import Repository
from qgs_worker.store.recovery import DEAD_LETTER_HEAD_BYTES

log = logging.getLogger(__name__)

_ID_FIELDS = {
    "submission_id": re.compile(r'"submission_id"\s*:\s*"([^"\\]{1,128})"'),
    "task_id": re.compile(r'"task_id"\s*:\s*"([^"\\]{1,64})"'),
    "round_number": re.compile(r'"round_number"\s*:\s*(\d{1,9})'),
}


def ids_from_head(head: str) -> dict[str, Any]:
    """The submission id, task id and round number found in a raw body's head (regexes).

    Args:
        head: The start of a body that could not be decoded, as text.

    Returns:
        A dict with the keys that were found (``round_number`` as an int).
    """
    found: dict[str, Any] = {}
    for name, pattern in _ID_FIELDS.items():
        match = pattern.search(head)
        if match:
            found[name] = int(match.group(1)) if name == "round_number" else match.group(1)
    return found


def body_head(body: object) -> str:
    """The first ``DEAD_LETTER_HEAD_BYTES`` of a message body, as text."""
    if isinstance(body, bytes | bytearray | memoryview):
        return bytes(body[:DEAD_LETTER_HEAD_BYTES]).decode("utf-8", errors="replace")
    return str(body)[:DEAD_LETTER_HEAD_BYTES]


def record_undecodable(
    repo: Repository, message: Any, exc: BaseException, app: Any = None
) -> int | None:
    """Store an undecodable message as a dead letter; fail its round when it can be found.

    Returns:
        The id of the round that was failed, or None.
    """
    from qgs_worker import jobs

    headers = getattr(message, "headers", None) or {}
    job = str(headers.get("task") or "unknown")
    head = body_head(getattr(message, "body", b""))
    reason = f"the message body cannot be decoded: {type(exc).__name__}: {exc}"[:1000]
    ids = ids_from_head(head) if job == "qgs.review.intake" else {}
    settings = getattr(app, "qgs_settings", None)
    policies = jobs.policies_for(settings) if settings is not None else None
    if policies is None or not ids:
        repo.save_dead_letter(
            job,
            reason,
            head,
            message_id=headers.get("id"),
            submission_id=ids.get("submission_id"),
            task_id=ids.get("task_id"),
        )
        return None
    return jobs.refuse_submission(
        repo,
        policies,
        ids,
        reason,
        job=job,
        message_id=headers.get("id"),
        raw_head=head,
        app=app,
    )


def keep_undecodable(consumer: Any, repo: Callable[[], Repository]) -> None:
    """Make the worker's consumer store undecodable messages before acknowledging them.

    Args:
        consumer: Celery's ``Consumer`` (the ``worker_ready`` signal's sender).
        repo: Returns the store to write to (the sweeper's own connection).
    """
    original = consumer.on_decode_error

    def on_decode_error(message: Any, exc: BaseException) -> None:
        try:
            record_undecodable(repo(), message, exc, app=getattr(consumer, "app", None))
        except Exception:
            # The store is down: leave the message unacknowledged for a redelivery rather
            # than drop it (Celery's own handler acknowledges it).
            log.exception("undecodable message not stored as a dead letter; not acknowledged")
            return
        original(message, exc)

    consumer.on_decode_error = on_decode_error
