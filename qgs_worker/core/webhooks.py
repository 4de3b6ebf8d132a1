"""Pushed decisions: the webhook's body, its signature, its idempotency key, its retry schedule.

When a round's decision is stored and the round (or its task) carries a callback URL, a job
POSTs the decision there (``qgs_worker.webhooks``); when a person approves or rejects a
decision that waited for them, an approval event follows. What is sent is decided here, pure:

- the body (``webhook_body``): compact JSON with sorted keys, the same bytes on every attempt::

      {"event": "qgs.decision", "task_id": "t-…", "submission_id": "s-…", "round": 2,
       "decision": "revise", "score": 61, "must_fix": ["…"], "reasons": ["…"],
       "termination": null, "decided_at": "2025-01-01T12:00:00+00:00",
       "approval_required": false, "awaiting_approval": false, "outcome": "revise",
       "delivered": false, "deliver_round": 2}

  (``outcome``, ``delivered`` and ``deliver_round`` as ``core.views.DecisionView`` says them
  when the decision was made: a decision that waits for a person is not delivered yet); a
  ``force_deliver`` adds ``"replan"`` (``core.models.Replan``: the termination, the criteria
  never met, the must_fix items that kept coming back), absent from every other body;
- the approval event's body (``approval_body``, ``"event": "qgs.approval"``): the round, the
  gate's decision that waited, ``approved``, ``outcome`` (``approved``/``rejected``),
  ``delivered``, ``deliver_round``, ``by``, ``note``, ``approved_at``; its own idempotency key
  (``approval_idempotency_key``);

- the headers (``webhook_headers``): ``X-QGS-Timestamp`` (Unix seconds of this attempt),
  ``X-QGS-Signature: sha256=<hex>``, the HMAC-SHA256 with the key's secret over
  ``"<timestamp>.<body>"`` (the timestamp inside the signature: a captured request cannot be
  replayed later under a new timestamp), and ``Idempotency-Key`` (``idempotency_key``: derived
  from the submission id, the same on every attempt and every redelivery);
- a receiver checks it with ``verify_signature`` (or the same three lines in its language) and
  answers 2xx once it has the decision; anything else (or no answer within the timeout) is a
  failed attempt, retried after ``retry_delay_s`` until the policy's attempts run out.

Pure: stdlib and pydantic only.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from qgs_worker.core.models import Replan
from qgs_worker.core.views import DecisionView, approval_outcome

__all__ = [
    "APPROVAL_EVENT",
    "DECISION_EVENT",
    "SIGNATURE_HEADER",
    "TIMESTAMP_HEADER",
    "WebhookAttemptView",
    "WebhookPolicy",
    "WebhookStatus",
    "WebhookView",
    "approval_body",
    "approval_idempotency_key",
    "idempotency_key",
    "retry_delay_s",
    "sign",
    "verify_signature",
    "webhook_body",
    "webhook_headers",
]

SIGNATURE_HEADER = "X-QGS-Signature"
TIMESTAMP_HEADER = "X-QGS-Timestamp"
DECISION_EVENT = "qgs.decision"
"""The ``event`` of a decision's webhook."""
APPROVAL_EVENT = "qgs.approval"
"""The ``event`` of an approval's (or a rejection's) webhook."""


class WebhookStatus(StrEnum):
    """Where a round's webhook stands: ``pending`` (attempts to come), ``delivered``, ``failed``."""

    PENDING = "pending"
    DELIVERED = "delivered"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class WebhookPolicy:
    """How a webhook is retried (``QGS_WEBHOOKS__*``).

    Attributes:
        max_attempts: POSTs before the delivery is stored as failed (the first included).
        backoff_base_s: Seconds before the second attempt; each later wait doubles.
        backoff_max_s: The longest wait between two attempts, in seconds.
        timeout_s: One POST's budget (connect, send, answer), in seconds.
    """

    max_attempts: int = 5
    backoff_base_s: float = 2.0
    backoff_max_s: float = 60.0
    timeout_s: float = 5.0


def retry_delay_s(failed: int, policy: WebhookPolicy, jitter: float = 0.5) -> float:
    """Seconds to wait after the ``failed``-th failed attempt: base * 2**(failed-1), capped, +-25%.

    Args:
        failed: Failed attempts so far (1 after the first).
        policy: The base and the cap.
        jitter: A number in [0, 1) (``random.random()``); 0.5 gives the middle of the range.
    """
    delay = min(policy.backoff_max_s, policy.backoff_base_s * 2.0 ** max(failed - 1, 0))
    return delay * (0.75 + 0.5 * jitter)


def idempotency_key(submission_id: str) -> str:
    """The ``Idempotency-Key`` of a submission's webhook: the same on every attempt and retry.

    A digest, not the id itself: a submission id may hold characters a header cannot.
    """
    return "qgs-" + hashlib.sha256(f"qgs-webhook:{submission_id}".encode()).hexdigest()[:32]


def approval_idempotency_key(submission_id: str) -> str:
    """The ``Idempotency-Key`` of the approval event of a submission's round (one per round)."""
    digest = hashlib.sha256(f"qgs-webhook-approval:{submission_id}".encode()).hexdigest()
    return "qgs-" + digest[:32]


def _json(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def webhook_body(
    *,
    task_id: str,
    submission_id: str,
    round_number: int,
    decision: str,
    score: int | None,
    must_fix: list[str],
    reason: str,
    termination: str | None,
    decided_at: datetime,
    approval_required: bool = False,
    best_round: int | None = None,
    replan: Replan | None = None,
) -> bytes:
    """The webhook's JSON body (UTF-8): compact, keys sorted, the same bytes on every attempt.

    Args:
        task_id: The task.
        submission_id: The round's submission.
        round_number: The round's number (1, 2, ...).
        decision: The decision kind (``pass``, ``revise``, ``force_deliver``, ``block``,
            ``awaiting_approval``).
        score: The critic's score 0-100, or None when the round was not reviewed.
        must_fix: What the agent must fix before the next round.
        reason: The gate's reason in words.
        termination: Why the revision loop stopped (``converged``...), or None.
        decided_at: When the decision was stored (UTC).
        approval_required: The decision waits for a person (``core.gate.needs_approval``):
            ``awaiting_approval`` is then true and ``delivered`` false; the approval event
            (``approval_body``) follows once a person decided.
        best_round: The round to deliver on ``force_deliver`` (the best-scoring one).
        replan: On ``force_deliver``, what goes back to the planner (``core.models.Replan``):
            sent as ``"replan"``; the key is absent otherwise, so every other body (and one
            decided before the field existed) keeps its bytes.
    """
    view = DecisionView(
        task_id=task_id,
        submission_id=submission_id,
        round_number=round_number,
        kind=decision,
        reason=reason,
        best_round=best_round,
        approval_required=approval_required,
    )
    payload: dict[str, Any] = {
        "event": DECISION_EVENT,
        "task_id": task_id,
        "submission_id": submission_id,
        "round": round_number,
        "decision": decision,
        "score": score,
        "must_fix": list(must_fix),
        "reasons": [reason] if reason else [],
        "termination": termination,
        "decided_at": decided_at.isoformat(),
        "approval_required": view.approval_required,
        "awaiting_approval": view.awaiting_approval,
        "outcome": view.outcome,
        "delivered": view.delivered,
        "deliver_round": view.deliver_round,
    }
    if replan is not None:
        payload["replan"] = replan.model_dump(mode="json")
    return _json(payload)


def approval_body(
    *,
    task_id: str,
    submission_id: str,
    round_number: int,
    decision: str,
    approved: bool,
    by: str,
    note: str,
    approved_at: datetime,
    best_round: int | None = None,
) -> bytes:
    """The approval event's JSON body: a person approved or rejected a decision that waited.

    Args:
        task_id: The task.
        submission_id: The round's submission.
        round_number: The round whose decision waited.
        decision: That decision's kind (``awaiting_approval``, or ``force_deliver``).
        approved: True: released (``delivered`` true); False: rejected, blocked for good.
        by: Who decided, as stored.
        note: Why (always given on a rejection).
        approved_at: When it was recorded (UTC).
        best_round: The round to deliver on ``force_deliver`` (the best-scoring one).
    """
    deliver = best_round if decision == "force_deliver" and best_round else round_number
    payload: dict[str, Any] = {
        "event": APPROVAL_EVENT,
        "task_id": task_id,
        "submission_id": submission_id,
        "round": round_number,
        "decision": decision,
        "approved": approved,
        "outcome": approval_outcome(approved),
        "delivered": approved,
        "deliver_round": deliver,
        "by": by,
        "note": note,
        "approved_at": approved_at.isoformat(),
    }
    return _json(payload)


def sign(secret: bytes, timestamp: int, body: bytes) -> str:
    """``sha256=<hex>``: HMAC-SHA256 with ``secret`` over ``b"<timestamp>." + body``.

    Args:
        secret: The signing secret (never empty: the caller refuses to send unsigned).
        timestamp: Unix time of the attempt, in whole seconds.
        body: The exact bytes POSTed.
    """
    digest = hmac.new(secret, str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def verify_signature(
    secret: bytes,
    body: bytes,
    timestamp: str,
    signature: str,
    *,
    now_s: float | None = None,
    tolerance_s: float = 300.0,
) -> bool:
    """What a receiver checks: the signature matches and the timestamp is recent.

    Args:
        secret: The shared secret.
        body: The request body as received (bytes, before any JSON parsing).
        timestamp: The ``X-QGS-Timestamp`` header.
        signature: The ``X-QGS-Signature`` header.
        now_s: Unix time now, in seconds; None skips the freshness check.
        tolerance_s: The oldest (and newest) timestamp accepted, in seconds from ``now_s``.

    Returns:
        True when the signature is the sender's (compared in constant time) and fresh.
    """
    if not timestamp.isdigit():
        return False
    if now_s is not None and abs(now_s - int(timestamp)) > tolerance_s:
        return False
    return hmac.compare_digest(sign(secret, int(timestamp), body), signature)


def webhook_headers(secret: bytes, timestamp: int, body: bytes, key: str) -> dict[str, str]:
    """The headers of one attempt: content type, timestamp, signature, idempotency key."""
    return {
        "Content-Type": "application/json",
        "User-Agent": "qgs-webhook/1",
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: sign(secret, timestamp, body),
        "Idempotency-Key": key,
    }


class WebhookAttemptView(BaseModel):
    """One POST of a webhook: its HTTP status or its error, how long it took, when."""

    model_config = ConfigDict(frozen=True)

    number: int
    status_code: int | None
    error: str | None
    latency_ms: float
    at: datetime


class WebhookView(BaseModel):
    """A round's webhook, as ``qgs status`` and the API show it.

    ``event`` is ``qgs.decision`` (the round's decision) or ``qgs.approval`` (a person's
    decision on it); ``status`` is pending, delivered or failed; ``error`` the last attempt's
    error (or why it failed for good); ``next_attempt_at`` when a pending one tries again (None:
    at once, or never); ``attempt_started_at`` when the attempt that holds it (or last held it
    and never stored an answer: its worker died mid-POST) started, and ``attempt_held_until``
    when its hold ends (UTC; None when no attempt is running); ``attempts`` every POST whose
    answer was stored, oldest first.
    """

    model_config = ConfigDict(frozen=True)

    task_id: str
    submission_id: str
    round_number: int
    url: str
    status: WebhookStatus
    idempotency_key: str
    error: str | None = None
    created_at: datetime
    delivered_at: datetime | None = None
    next_attempt_at: datetime | None = None
    attempt_started_at: datetime | None = None
    attempt_held_until: datetime | None = None
    attempts: tuple[WebhookAttemptView, ...] = ()
    event: str = DECISION_EVENT

    def summary(self, now: datetime | None = None) -> str:
        """One line in words: ``delivered on attempt 3 (HTTP 200)``, ``failed after 5 attempts: …``.

        A pending webhook whose attempt is running says ``sending (attempt N started at T)``;
        one whose attempt never stored an answer (its worker stopped mid-POST) says so, since
        the receiver may have got it.

        Args:
            now: The time to judge a running attempt's hold by (UTC; the clock's when None).
        """
        n = len(self.attempts)
        if self.status == WebhookStatus.PENDING and self.attempt_started_at is not None:
            return self._in_flight(n + 1, now or datetime.now(UTC))
        last = self.attempts[-1] if self.attempts else None
        answer = (
            f"HTTP {last.status_code}"
            if last is not None and last.status_code is not None
            else (last.error if last is not None and last.error else "no answer")
        )
        if self.status == WebhookStatus.DELIVERED:
            return f"delivered on attempt {n} ({answer}) to {self.url}"
        if self.status == WebhookStatus.FAILED:
            why = self.error or f"failed after {n} attempt{'s' if n != 1 else ''}: {answer}"
            return f"{why} (to {self.url})"
        if n == 0:
            return f"pending: not sent yet to {self.url}"
        when = (
            f", next attempt at {self.next_attempt_at.isoformat()}" if self.next_attempt_at else ""
        )
        return f"pending after {n} failed attempt{'s' if n != 1 else ''} ({answer}) to {self.url}{when}"

    def _in_flight(self, number: int, now: datetime) -> str:
        started = self.attempt_started_at.isoformat() if self.attempt_started_at else "?"
        if self.attempt_held_until is not None and self.attempt_held_until > now:
            return f"sending (attempt {number} started at {started}) to {self.url}"
        return (
            f"attempt {number} started at {started} stored no answer (its worker stopped "
            f"mid-POST; the receiver may have got it): it is sent again, with the same "
            f"Idempotency-Key, to {self.url}"
        )
