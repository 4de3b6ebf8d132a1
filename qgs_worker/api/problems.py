"""Errors as RFC 9457 problem documents: ``type``, ``title``, ``status``, ``detail``, ``errors``.

``errors`` lists ``{"field", "message", "fix"}`` items (``field`` None when the problem is
not about one field). ``problem_for(exc)`` maps every QGS error, and the store's and broker's
own connection errors, to a status and a document; any transport (HTTP, MCP) can use it.

| error | status |
| --- | --- |
| ``AuthenticationError`` | 401 |
| ``PermissionDeniedError`` | 403 |
| ``TaskNotFoundError`` / ``SubmissionNotFoundError`` | 404 |
| ``ApprovalConflictError``, ``RoundNumberTakenError``, ``NotAwaitingApprovalError``, ``IdempotencyKeyReusedError``, ``SubmissionRefusedError``, ``SpotCheckConflictError`` (not sampled, labelled twice, re-decided) | 409 |
| ``TooLargeError``, ``DeliverableTooLargeError`` (and a body over the limit) | 413 |
| ``InputError`` (and a body that does not validate) | 422 |
| ``RateLimitedError`` | 429 (``Retry-After``) |
| ``BrokerUnavailableError``, ``StoreError``, a database or Redis connection error | 503 (``Retry-After: 5``) |
| ``ConfigurationError`` | 500 ("Server misconfigured") |
| anything else (a bug) | 500 ("Internal error", slug ``internal``) |
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

from qgs_worker.errors import (
    ApprovalConflictError,
    AuthenticationError,
    BrokerUnavailableError,
    ConfigurationError,
    IdempotencyKeyReusedError,
    InputError,
    NotAwaitingApprovalError,
    PermissionDeniedError,
    RateLimitedError,
    RoundNumberTakenError,
    SpotCheckConflictError,
    StoreError,
    SubmissionRefusedError,
    TaskNotFoundError,
    TooLargeError,
)

__all__ = [
    "PROBLEM_TYPE",
    "body_problem",
    "field_error",
    "internal_problem",
    "problem",
    "problem_for",
    "validation_problem",
]

log = logging.getLogger(__name__)

UNAVAILABLE_RETRY_AFTER_S = 5
"""Seconds a 503 for a failed store or broker asks the caller to wait (``Retry-After``)."""

PROBLEM_TYPE = "urn:qgs:problem:"
"""Every problem's ``type`` starts with this, then a slug (``urn:qgs:problem:not-found``)."""

_TITLES = {
    400: "Malformed request",
    401: "Not authenticated",
    403: "Not allowed",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Request too large",
    422: "Invalid request",
    429: "Too many requests",
    500: "Server misconfigured",
    503: "Service unavailable",
}
_SLUG_TITLES = {"internal": "Internal error"}
"""Titles of a slug that differs from its status's (an unexpected 500 is no configuration's)."""
_SLUGS = {
    400: "malformed",
    401: "unauthenticated",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    409: "conflict",
    413: "too-large",
    422: "invalid",
    429: "rate-limited",
    500: "misconfigured",
    503: "unavailable",
}


def _is_json(content_type: str | None) -> bool:
    media = (content_type or "").split(";", 1)[0].strip().lower()
    return media == "application/json" or media.endswith("+json")


_FIELD = re.compile(r"'([A-Za-z_][A-Za-z0-9_.\[\]]*)'")
_LEADING_FIELD = re.compile(r"'([A-Za-z_][A-Za-z0-9_.\[\]-]{0,63})' ")
"""A message that starts with the quoted field (``'Idempotency-Key' must be ...``)."""


_UNION_MEMBER = re.compile(r"(list|dict|set|tuple|frozenset)\[.*\]|str|int|float|bool|bytes")
"""A place pydantic adds for the member of a union it tried (``tools.list[dict[str,any]]``):
not a field of the request, so the field is named without it (``tools``)."""


def field_error(field: str | None, message: str, fix: str) -> dict[str, Any]:
    """One item of a problem's ``errors``."""
    return {"field": field, "message": message, "fix": fix}


def problem(
    status: int,
    detail: str,
    errors: Sequence[dict[str, Any]] = (),
    *,
    slug: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A problem document for ``status`` (the title and type follow from it)."""
    return {
        "type": PROBLEM_TYPE + (slug or _SLUGS.get(status, "error")),
        "title": _SLUG_TITLES.get(slug or "", _TITLES.get(status, "Error")),
        "status": status,
        "detail": detail,
        "errors": list(errors),
        **extra,
    }


def internal_problem(exc: BaseException) -> dict[str, Any]:
    """The 500 of an error no mapping knows (a bug): titled "Internal error", no message shown.

    The exception's message may hold data from the request or the store, so only its type is
    shown; the server logs the rest.
    """
    detail = f"unexpected server error ({type(exc).__name__}); see the server log"
    fix = "retry once; if it happens again, report it with the time and the server log"
    return problem(500, detail, [field_error(None, detail, fix)], slug="internal")


def _status_of(exc: BaseException) -> int | None:
    if isinstance(exc, AuthenticationError):
        return 401
    if isinstance(exc, PermissionDeniedError):
        return 403
    if isinstance(exc, TaskNotFoundError):
        return 404
    if isinstance(
        exc,
        ApprovalConflictError
        | RoundNumberTakenError
        | NotAwaitingApprovalError
        | IdempotencyKeyReusedError
        | SubmissionRefusedError
        | SpotCheckConflictError,
    ):
        return 409
    if isinstance(exc, TooLargeError):
        return 413
    if isinstance(exc, InputError):
        return 422
    if isinstance(exc, RateLimitedError):
        return 429
    if isinstance(exc, BrokerUnavailableError | StoreError):
        return 503
    if isinstance(exc, ConfigurationError):
        return 500
    return _connection_status(exc)


def _connection_status(exc: BaseException) -> int | None:
    """503 for the store's and Redis's own connection errors (raised past the repository)."""
    import sys

    sqlalchemy_exc = sys.modules.get("sqlalchemy.exc")
    if sqlalchemy_exc is not None and isinstance(
        exc, sqlalchemy_exc.OperationalError | sqlalchemy_exc.InterfaceError
    ):
        return 503
    redis_exc = sys.modules.get("redis.exceptions")
    if redis_exc is not None and isinstance(
        exc, redis_exc.ConnectionError | redis_exc.TimeoutError
    ):
        return 503
    kombu_exc = sys.modules.get("kombu.exceptions")
    if kombu_exc is not None and isinstance(exc, kombu_exc.OperationalError):
        return 503
    return None


def _fix_of(message: str, status: int) -> str:
    """The fix part of a QGS message (after its ``:``/``;``), or a general one for the status."""
    for mark in (": ", "; "):
        _head, sep, tail = message.partition(mark)
        if sep and tail and not tail[0].isdigit():
            return tail
    return {
        401: "send 'Authorization: Bearer <key>' with a live key",
        503: "retry later: nothing was stored",
    }.get(status, "")


def problem_for(exc: BaseException) -> tuple[int, dict[str, Any]] | None:
    """The status and problem document of a known error, or None (an unexpected error: 500).

    The message of a QGS error names the field (quoted) and the fix; both are lifted into
    the ``errors`` item.
    """
    status = _status_of(exc)
    if status is None:
        return None
    message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if status == 503 and not isinstance(exc, BrokerUnavailableError):
        return status, _unavailable(exc, message)
    found = _LEADING_FIELD.match(message) or _FIELD.search(message)
    field = found[1] if found and status in (413, 422) else None
    if isinstance(exc, IdempotencyKeyReusedError):
        field = "Idempotency-Key"
    if isinstance(exc, SpotCheckConflictError):
        field = exc.field
    extra: dict[str, Any] = {}
    if isinstance(exc, RateLimitedError):
        extra["retry_after_s"] = round(exc.retry_after_s, 3)
    if isinstance(exc, BrokerUnavailableError):
        extra["retry_after_s"] = UNAVAILABLE_RETRY_AFTER_S
    return status, problem(
        status, message, [field_error(field, message, _fix_of(message, status))], **extra
    )


def _unavailable(exc: BaseException, message: str) -> dict[str, Any]:
    """The 503 of a store or a Redis that failed: which one and its setting, never its address.

    The driver's message names the host, port and database (``connection to server at
    "10.0.0.5", port 5432 failed``): that is for the server log, not for the API's callers.
    """
    import sys

    sqlalchemy_exc = sys.modules.get("sqlalchemy.exc")
    store = isinstance(exc, StoreError) or (
        sqlalchemy_exc is not None and isinstance(exc, sqlalchemy_exc.SQLAlchemyError)
    )
    what, setting = ("store", "QGS_DATABASE_URL") if store else ("broker", "QGS_BROKER_URL")
    log.error("%s unavailable: %s: %s", what, type(exc).__name__, message)
    detail = (
        f"the {what} ({setting}) did not answer or failed ({type(exc).__name__}); this request "
        f"changed nothing"
    )
    fix = (
        f"retry after {UNAVAILABLE_RETRY_AFTER_S} s; if it persists, the operator checks that "
        f"the {'database' if store else 'Redis'} runs and that {setting} points at it (the "
        "server log has the address and the error)"
    )
    return problem(
        503, detail, [field_error(None, detail, fix)], retry_after_s=UNAVAILABLE_RETRY_AFTER_S
    )


_FIXES = {
    "extra_forbidden": "remove this field: it is not one of the fields of this request",
    "missing": "add this field",
    "json_invalid": "send the body as valid JSON",
    "string_too_short": "send a non-empty string",
    "string_type": "send a string",
    "dict_type": "send a JSON object",
    "list_type": "send a JSON list",
    "bool_type": "send true or false",
    "int_type": "send an integer",
    "finite_number": "send a finite number (not NaN or infinity)",
    "string_too_long": "send a shorter string (the limit is in the message)",
    "greater_than_equal": "send a larger number",
    "less_than_equal": "send a smaller number",
    "enum": "send one of the values listed in the message",
    "literal_error": "send one of the values listed in the message",
    "value_error": "send it in one of the shapes /openapi.json lists for this field",
}


def validation_problem(
    errors: Sequence[dict[str, Any]], *, content_type: str | None = None
) -> tuple[int, dict[str, Any]]:
    """A 422 (a body that does not validate) or 400 (a body that is not JSON) problem.

    Args:
        errors: pydantic's ``errors()`` items (``loc``, ``msg``, ``type``), as FastAPI's
            ``RequestValidationError.errors()`` gives them.
        content_type: The request's ``Content-Type``: a body that is not an object because it
            was sent as a form or as text (curl's ``-d`` without a JSON header) is a 400 that
            says to send JSON, instead of "Input should be a valid dictionary".
    """
    items = []
    malformed = False
    for error in errors:
        kind = str(error.get("type", ""))
        loc = [str(p) for p in error.get("loc", ())]
        where_from = loc[0] if loc else ""
        if loc and loc[0] in ("body", "query", "path", "header"):
            loc = loc[1:]
        loc = [p for p in loc if not _UNION_MEMBER.fullmatch(p)]
        if kind == "json_invalid":
            malformed = True
            where = error.get("ctx", {}).get("error", "")
            items.append(field_error(None, f"the body is not valid JSON ({where})", _FIXES[kind]))
            continue
        if where_from == "body" and not loc and kind == "missing":
            malformed = True
            items.append(
                field_error(
                    None,
                    "the request body is empty: this route takes a JSON object",
                    "send JSON with 'Content-Type: application/json' (see /openapi.json for "
                    "this route's fields)",
                )
            )
            continue
        if where_from == "body" and not loc and not _is_json(content_type):
            malformed = True
            sent = content_type or "no Content-Type"
            items.append(
                field_error(
                    None,
                    f"the body must be a JSON object (got {sent})",
                    "send JSON with 'Content-Type: application/json' (curl: -H "
                    "'content-type: application/json' -d '{...}', or --json '{...}')",
                )
            )
            continue
        if where_from == "query" and kind == "extra_forbidden":
            items.append(
                field_error(
                    ".".join(loc) or None,
                    "unknown query parameter",
                    "remove it: see /openapi.json for this route's parameters",
                )
            )
            continue
        if kind == "string_unicode":
            # Break test: a lone surrogate escape ("\ud800") in a JSON string got pydantic's
            # "unable to parse raw data as a unicode string" and a pointer to the schema.
            items.append(
                field_error(
                    ".".join(loc) or None,
                    "holds text that is not valid UTF-8 (a lone surrogate escape such as "
                    "\\ud800, with no pair)",
                    "send the text as decoded UTF-8 (e.g. decode with errors='replace'), or each "
                    "\\ud800-\\udfff escape as half of a surrogate pair",
                )
            )
            continue
        message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
        items.append(
            field_error(
                ".".join(loc) or None,
                message,
                _FIXES.get(kind, "see /openapi.json for this field's type"),
            )
        )
    status = 400 if malformed else 422
    detail = "; ".join(
        f"{item['field']}: {item['message']}" if item["field"] else item["message"]
        for item in items
    )
    return status, problem(status, detail or "the request is invalid", items)


def body_problem(body: bytes, content_encoding: str | None = None) -> dict[str, Any]:
    """The 400 of a body that could not be read as JSON at all: says why and what to send.

    Asked only once the body failed to parse (a framework's "error parsing the body"): a
    content coding (``gzip``), bytes that are not UTF-8, or JSON nested deeper than a reader
    can follow.

    Args:
        body: The body as received.
        content_encoding: The request's ``Content-Encoding``, if any.
    """
    coding = (content_encoding or "").strip().lower()
    if coding and coding != "identity":
        message = (
            f"the body is sent with 'Content-Encoding: {coding}', which this API does not take"
        )
        fix = "send the JSON uncompressed, without a Content-Encoding header"
    else:
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            looks = " (it looks gzip-compressed)" if body[:2] == b"\x1f\x8b" else ""
            message = (
                f"the body is not UTF-8: byte 0x{body[exc.start]:02x} at offset {exc.start}{looks}"
            )
            fix = "send the JSON encoded as UTF-8, uncompressed"
        else:
            message, fix = _unreadable_json(text)
    return problem(400, message, [field_error(None, message, fix)])


def _unreadable_json(text: str) -> tuple[str, str]:
    import json

    from qgs_worker.service.submission import MAX_NESTING_DEPTH

    try:
        json.loads(text)
    except RecursionError:
        return (
            "the body's JSON is nested too deeply to read (over about 1,000 levels)",
            f"flatten it: QGS takes at most {MAX_NESTING_DEPTH} levels (send deep data as a "
            "JSON string)",
        )
    except ValueError as exc:
        return f"the body is not valid JSON ({exc})", "send the body as valid JSON"
    return "the body could not be read as JSON", "send the body as a JSON object, UTF-8"
