"""Pushed decisions: the webhook's body, its signature, its idempotency key, its retry schedule.

When a round's decision is stored and the round (or its task) carries a callback URL, a job
POSTs the decision there (``qgs_worker.webhooks``). What is sent is decided here, pure:

- the body (``webhook_body``): compact JSON with sorted keys, the same bytes on every attempt::

      {"event": "qgs.decision", "task_id": "t-…", "submission_id": "s-…", "round": 2,
       "decision": "revise", "score": 61, "must_fix": ["…"], "reasons": ["…"],
       "termination": null, "decided_at": "2025-01-01T12:00:00+00:00"}

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
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

__all__ = [
    "SIGNATURE_HEADER",
    "TIMESTAMP_HEADER",
    "WebhookAttemptView",
    "WebhookPolicy",
    "WebhookStatus",
    "WebhookView",
    "idempotency_key",
    "retry_delay_s",
    "sign",
    "verify_signature",
    "webhook_body",
    "webhook_headers",
]

SIGNATURE_HEADER = "X-QGS-Signature"
TIMESTAMP_HEADER = "X-QGS-Timestamp"
EVENT = "qgs.decision"


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
    """
    payload: dict[str, Any] = {
        "event": EVENT,
        "task_id": task_id,
        "submission_id": submission_id,
        "round": round_number,
        "decision": decision,
        "score": score,
        "must_fix": list(must_fix),
        "reasons": [reason] if reason else [],
        "termination": termination,
        "decided_at": decided_at.isoformat(),
    }
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


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

    ``status`` is pending, delivered or failed; ``error`` the last attempt's error (or why it
    failed for good); ``next_attempt_at`` when a pending one tries again (None: at once, or
    never); ``attempts`` every POST so far, oldest first.
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
    attempts: tuple[WebhookAttemptView, ...] = ()

    def summary(self) -> str:
        """One line in words: ``delivered on attempt 3 (HTTP 200)``, ``failed after 5 attempts: …``."""
        n = len(self.attempts)
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
