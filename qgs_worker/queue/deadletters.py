"""Messages a worker cannot decode or validate: dead letters, never a silent discard.

``refuse_submission`` is what the intake job does with a message that does not validate.

Celery logs a message whose body cannot be decoded (not JSON, nested past ``json``'s
recursion limit) and acknowledges it; a body that decodes but is not Celery's
``[args, kwargs, embed]`` (``null``, ``"hello"``, an object) raised out of the consumer and
stopped the worker ("Unrecoverable error"), and the next worker took the same message.
``keep_undecodable`` wraps the worker's consumer so that both kinds of message are stored (``DeadLetterRow``: job name, reason, the body's first 2 KB,
the ids that can be read from it), and, when its task and round can be identified from
that head, its round gets a ``revise`` decision with the reason (``refuse_submission``).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from qgs_worker.queue import pipeline
from qgs_worker.service import classify
from qgs_worker.service.submission import NewTask
from qgs_worker.store import Repository
from qgs_worker.store.recovery import DEAD_LETTER_HEAD_BYTES

log = logging.getLogger(__name__)

_ID_FIELDS = {
    "submission_id": re.compile(r'"submission_id"\s*:\s*"([^"\\]{1,128})"'),
    "task_id": re.compile(r'"task_id"\s*:\s*"([^"\\]{1,64})"'),
    "round_number": re.compile(r'"round_number"\s*:\s*(\d{1,9})'),
}


def message_text(value: object) -> str:
    """A message as JSON text for a dead letter (its repr when it is not JSON data)."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except (ValueError, RecursionError, TypeError):
        text = repr(value)[:4096]
    return text


def _ids_of(message: object) -> tuple[str | None, str | None, int | None]:
    """``(submission_id, task_id, round_number)`` of a raw message, where readable."""
    if not isinstance(message, dict):
        return None, None, None
    sid, tid, number = (
        message.get("submission_id"),
        message.get("task_id"),
        message.get("round_number"),
    )
    return (
        sid if isinstance(sid, str) and sid else None,
        tid if isinstance(tid, str) and tid else None,
        number if isinstance(number, int) and not isinstance(number, bool) and number > 0 else None,
    )


def refuse_submission(
    repo: Repository,
    policies: pipeline.Policies,
    message: object,
    reason: str,
    *,
    job: str,
    message_id: str | None = None,
    raw_head: str | bytes | None = None,
    app: Any = None,
) -> int | None:
    """A message that does not validate fails alone: a dead letter, a stored reason, a decision.

    When its task and round can be identified (and the task is stored, or described by the
    message), the round is stored empty with the reason and decided ``revise``; the outbox
    row is taken, so it is not published again.

    Args:
        repo: The store.
        policies: The pipeline's policies (to fail the round and claim the next).
        message: The decoded message, or what could be read of it (a dict of ids).
        reason: Why it was refused.
        job: The job name the message was for.
        message_id: The Celery message id, when known.
        raw_head: The body as received (the message itself, as JSON, when None).
        app: The app to dispatch the task's next round with (the current app when None).

    Returns:
        The id of the round that was failed, or None when none could be identified.
    """
    sid, tid, number = _ids_of(message)
    repo.save_dead_letter(
        job,
        reason,
        message_text(message) if raw_head is None else raw_head,
        message_id=message_id,
        submission_id=sid,
        task_id=tid,
    )
    repo.save_audit_error(f"submission:{sid or '?'}", 0, f"invalid submission: {reason}")
    if sid is None or tid is None:
        return None
    repo.take_outbox(sid)
    if not repo.has_task(tid) and isinstance(message, dict):
        described = message.get("task")
        try:
            new = NewTask.model_validate(described) if described else None
        except ValidationError:
            new = None
        if new is None:
            return None
        repo.store_task(tid, classify(new.request, new.task_type), new)
    round_id = pipeline.placeholder_for(repo, sid, tid, number, reason)
    if round_id is not None:
        log.error("round %s failed: invalid submission: %s", round_id, reason)
        ready = pipeline.fail_round(repo, round_id, f"invalid submission: {reason}", policies)
        if ready is not None:
            from qgs_worker.queue.dispatch import dispatch

            dispatch(ready, repo, app=app)
    return round_id


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
    from qgs_worker.queue import worker_runtime
    headers = getattr(message, "headers", None) or {}
    job = str(headers.get("task") or "unknown")
    head = body_head(getattr(message, "body", b""))
    what = (
        "is not a job's [args, kwargs, embed]"
        if isinstance(exc, _MALFORMED)
        else "cannot be decoded"
    )
    reason = f"the message body {what}: {type(exc).__name__}: {exc}"[:1000]
    ids = ids_from_head(head) if job == "qgs.review.intake" else {}
    settings = getattr(app, "qgs_settings", None)
    policies = worker_runtime.policies_for(settings) if settings is not None else None
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
    return refuse_submission(
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
    """Make the worker's consumer store undecodable or malformed messages, never die of them.

    Args:
        consumer: Celery's ``Consumer`` (the ``worker_ready`` signal's sender).
        repo: Returns the store to write to (the sweeper's own connection).
    """
    original = consumer.on_decode_error
    _guard_strategies(consumer, repo)

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


_MALFORMED = (TypeError, ValueError, AttributeError, IndexError, KeyError)
"""What Celery's task strategy raises on a body that is not ``[args, kwargs, embed]``."""


def _guard_strategies(consumer: Any, repo: Callable[[], Repository]) -> None:
    """Wrap each job's strategy: a malformed body becomes a dead letter, not a dead worker.

    The consumer looks its strategy up per message in ``consumer.strategies`` (filled at start
    by ``update_strategies``), so the entries are wrapped in place. A malformed message is
    stored and then handed to Celery as an ``InvalidTaskError``, which logs and removes it.
    When the store cannot take it, the message is left unacknowledged (Redis restores it after
    the visibility timeout) rather than dropped.
    """
    from celery.exceptions import InvalidTaskError

    strategies = getattr(consumer, "strategies", None)
    if not isinstance(strategies, dict):
        return
    app = getattr(consumer, "app", None)
    for name, strategy in list(strategies.items()):
        if getattr(strategy, "_qgs_guarded", False):
            continue

        def guarded(message: Any, *args: Any, _strategy: Any = strategy, **kwargs: Any) -> Any:
            try:
                return _strategy(message, *args, **kwargs)
            except _MALFORMED as exc:
                try:
                    record_undecodable(repo(), message, exc, app=app)
                except Exception:
                    log.exception("malformed message not stored as a dead letter; not acknowledged")
                    return None
                raise InvalidTaskError(
                    f"malformed message (stored as a dead letter): {type(exc).__name__}: {exc}"
                ) from exc

        guarded._qgs_guarded = True  # type: ignore[attr-defined]
        strategies[name] = guarded


def _misfit_call(
    sender: Any = None,
    task_id: str | None = None,
    exception: Any = None,
    args: Any = None,
    kwargs: Any = None,
    **_: Any,
) -> None:
    """Store a QGS job's call whose arguments do not fit it as a dead letter.

    ``[[], {}, {}]``, an unknown keyword or ``decide`` with ``[null, null]`` fail before the
    job's own code runs; before, they left only a log line. Connected to Celery's
    ``task_failure``; only a ``TypeError`` counts (the call's shape), the jobs' own failures
    are handled inside them.
    """
    name = str(getattr(sender, "name", "") or "")
    if not name.startswith("qgs.") or not isinstance(exception, TypeError):
        return
    try:
        from qgs_worker.queue import worker_runtime
        repo = worker_runtime.runtime(sender.app).repo
        repo.save_dead_letter(
            name,
            f"the message's arguments do not fit the job: TypeError: {exception}"[:1000],
            message_text([args, kwargs])[:DEAD_LETTER_HEAD_BYTES],
            message_id=task_id,
        )
    except Exception:
        log.exception("a job's misfit message %s not stored as a dead letter", task_id)


def connect_misfit_calls() -> None:
    """Store misfit calls of QGS jobs as dead letters (``task_failure``); idempotent."""
    from celery.signals import task_failure

    task_failure.connect(_misfit_call, weak=False, dispatch_uid="qgs.deadletters.misfit")
