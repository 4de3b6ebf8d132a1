"""What the HTTP API answers, read back into the client's own types.

The problem documents of ``qgs serve`` become the QGS errors the in-process ``Client`` raises
(``error_of``), a tool-gate report's ``to_dict()`` form a ``GateReport`` again
(``report_from_dict``), a 503's ``Retry-After`` a bounded wait (``retry_after_s``); ``path_id``
makes an id one path segment of a request. Split from ``client.remote`` (the requests) along
that seam.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from qgs_worker.core.toolgate import GateReport
from qgs_worker.core.toolgate.base import LayerResult, LayerStatus
from qgs_worker.core.toolgate.calls import CallShape
from qgs_worker.errors import (
    ApprovalConflictError,
    AuthenticationError,
    BrokerUnavailableError,
    DeliverableTooLargeError,
    IdempotencyKeyReusedError,
    InputError,
    NotAwaitingApprovalError,
    PermissionDeniedError,
    QGSError,
    RateLimitedError,
    RoundNumberTakenError,
    SubmissionNotFoundError,
    TaskNotFoundError,
    TooLargeError,
)
from qgs_worker.service.submission import check_value

__all__ = ["RETRY_AFTER_MAX_S", "error_of", "path_id", "report_from_dict", "retry_after_s"]

RETRY_AFTER_MAX_S = 10.0
"""The longest ``Retry-After`` of a 503 the client waits before it retries, in seconds."""


def report_from_dict(data: dict[str, Any]) -> GateReport:
    """A ``GateReport`` from its ``to_dict()`` form (as the API answers it)."""
    return GateReport(
        call_id=data.get("call_id"),
        tool_name=data.get("tool_name"),
        shape=CallShape(data["shape"]),
        allowed=bool(data["allowed"]),
        stopped_at=data.get("stopped_at"),
        layers=tuple(
            LayerResult(
                number=r["number"],
                name=r["name"],
                status=LayerStatus(r["status"]),
                errors=tuple(r.get("errors", ())),
                warnings=tuple(r.get("warnings", ())),
                suggestion=r.get("suggestion"),
            )
            for r in data.get("layers", ())
        ),
        latency_us=float(data.get("latency_us", 0.0)),
    )


def path_id(value: str, field: str) -> str:
    """A task or submission id as one path segment: checked, then percent-encoded.

    An id is never read as more of the path: ``'../../healthz#'`` asked for ``/healthz`` (and
    ``status`` returned its answer as the task's), ``'?'`` and ``'#'`` cut the id or added a
    query; now the server is asked for that id, and answers 404 (a NUL included).
    """
    if not isinstance(value, str):
        raise InputError(f"'{field}' must be a string id (got {type(value).__name__})")
    check_value(value, where=field)
    return quote(value, safe="")


def retry_after_s(response: Any) -> float:
    """The 503's ``Retry-After`` in seconds, at most ``RETRY_AFTER_MAX_S`` (1 when absent)."""
    try:
        return min(RETRY_AFTER_MAX_S, max(0.0, float(response.headers.get("Retry-After", 1))))
    except ValueError:
        return 1.0


_APPROVAL_CONFLICT = re.compile(r" was already (approved|rejected) by ")
"""The words of an ``ApprovalConflictError`` (``store/approvals.py``): a round already decided."""


def error_of(response: Any) -> QGSError:
    """The QGS error of a problem answer (the module docstring of ``client.remote`` lists them)."""
    try:
        body = response.json()
        detail = str(body.get("detail") or body)
    except ValueError:
        body, detail = {}, response.text[:500]
    status = response.status_code
    message = f"{detail} (HTTP {status})"
    if status == 401:
        return AuthenticationError(message)
    if status == 403:
        return PermissionDeniedError(message)
    if status == 404:
        if "submission" in detail:
            return SubmissionNotFoundError(message)
        return TaskNotFoundError(message)
    if status == 409:
        # The same errors as the in-process Client raises (the server's 409s share one type).
        if "Idempotency-Key" in detail:
            return IdempotencyKeyReusedError(message)
        if _APPROVAL_CONFLICT.search(detail):
            return ApprovalConflictError(message)
        if "already held by another submission" in detail:
            return RoundNumberTakenError(message)
        return NotAwaitingApprovalError(message)
    if status == 413:
        if "deliverable" in detail or "'turn'" in detail:
            return DeliverableTooLargeError(message)
        return TooLargeError(message)
    if status in (400, 422):
        return InputError(message)
    if status == 429:
        return RateLimitedError(message, retry_after_s=float(body.get("retry_after_s", 1.0)))
    return BrokerUnavailableError(message)
