"""The QGS error tree.

Verdicts, findings, decisions and tool-call rejections are return values, never errors.
Errors are for what went wrong around them::

    QGSError
    ├── ConfigurationError          settings that cannot work together (raised at start-up)
    │   ├── ModelArtifactError      the learned instruction detector's artifact is missing or corrupt
    │   └── WebhookSecretMissingError  a callback URL with no secret to sign its webhooks
    ├── InputError (ValueError)     a bad submission or transcript line: names the field and the fix
    │   ├── ToolDefinitionError       a tools list or tools file that cannot be read as tools
    │   ├── TooLargeError             a field over its byte limit (HTTP 413)
    │   │   └── DeliverableTooLargeError
    │   ├── CallbackUrlError          a callback URL that is malformed or points inside (SSRF)
    │   ├── IdempotencyKeyReusedError an Idempotency-Key sent again with another request (HTTP 409)
    │   ├── NotAwaitingApprovalError  `qgs approve` on a task whose latest decision awaits nobody
    │   ├── SubmissionRefusedError    a submission refused or not storable: never decided (HTTP 409)
    │   └── SpotCheckConflictError    a spot-check label that cannot be recorded (HTTP 409)
    │       ├── NotSampledError         the round is not in the spot-check queue
    │       ├── LabelExistsError        the person labelled that round's decision before
    │       └── RoundRedecidedError     the round was decided again after it was sampled
    ├── JudgeError                  the critic could not give a valid review
    │   ├── JudgeUnavailableError   transient: timeout, 429, 5xx, connection refused -> retried
    │   └── JudgeResponseError      malformed answer: repaired once, then a stored failure
    ├── BrokerUnavailableError      the broker could not be reached: the submission was not queued
    │   └── OutcomeUnknownError     the API client sent a request and got no answer: it may have
    │                               been queued; retry with the same Idempotency-Key
    ├── AuthenticationError         no API key, an unknown or revoked one (HTTP 401)
    ├── PermissionDeniedError       the key lacks the scope the operation needs (HTTP 403)
    ├── RateLimitedError            the key's request budget is spent for now (HTTP 429)
    ├── StoreError                  the results store failed
    │   ├── TaskNotFoundError (LookupError)
    │   │   └── SubmissionNotFoundError  (also another principal's submission)
    │   ├── StoreUnavailableError   the database cannot be reached (transient: retried)
    │   ├── RoundNumberTakenError   another submission holds that round number
    │   └── ApprovalConflictError   a person already decided that round the other way
    └── WaitTimeoutError (TimeoutError)  no decision within the caller's timeout

Only the Celery adapter (``qgs_worker.queue.jobs``) maps errors to retries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

__all__ = [
    "ApprovalConflictError",
    "AuthenticationError",
    "BrokerUnavailableError",
    "CallbackUrlError",
    "ConfigurationError",
    "DeliverableTooLargeError",
    "IdempotencyKeyReusedError",
    "InputError",
    "JudgeError",
    "JudgeResponseError",
    "JudgeUnavailableError",
    "LabelExistsError",
    "ModelArtifactError",
    "NotAwaitingApprovalError",
    "NotSampledError",
    "OutcomeUnknownError",
    "PermissionDeniedError",
    "QGSError",
    "RateLimitedError",
    "RoundNumberTakenError",
    "RoundRedecidedError",
    "SpotCheckConflictError",
    "StoreError",
    "StoreUnavailableError",
    "SubmissionNotFoundError",
    "SubmissionRefusedError",
    "TaskNotFoundError",
    "TooLargeError",
    "ToolDefinitionError",
    "WaitTimeoutError",
    "WebhookSecretMissingError",
    "json_type_name",
    "validation_summary",
]


class QGSError(Exception):
    """Base class of every error QGS raises on purpose."""


class ConfigurationError(QGSError):
    """Raised when settings cannot work together, e.g. a time limit above the broker's visibility timeout."""


class ModelArtifactError(ConfigurationError):
    """Raised when the learned instruction detector's artifact is missing, corrupt or of another build.

    The message names the file and the fix (``make train``, or reinstalling qgs-worker); QGS never
    runs on without the model it was shipped with.
    """


class WebhookSecretMissingError(ConfigurationError):
    """Raised at submit when a callback URL is given but no secret can sign its webhooks.

    The message names the setting (``QGS_WEBHOOKS__SECRET``); an unsigned webhook is never sent.
    """


class InputError(QGSError, ValueError):
    """Raised when a submission or a transcript line is unusable; the message names the field and the fix."""


class ToolDefinitionError(InputError):
    """Raised when a tool definition cannot be used: bad schema, bad name, duplicate, bad kind."""


class TooLargeError(InputError):
    """Raised when a field is larger than its byte limit; the message names it and the setting.

    A task's ``request``, ``requirements`` or ``criteria`` over ``QGS_MAX_REQUEST_BYTES``.
    """


class DeliverableTooLargeError(TooLargeError):
    """Raised at submit when a deliverable is larger than ``QGS_MAX_DELIVERABLE_BYTES``."""


class CallbackUrlError(InputError):
    """Raised when a callback URL is malformed or points inside the operator's network (SSRF).

    Not http(s), carrying a user name or password, or a host that is or resolves to a private,
    loopback, link-local, metadata, multicast, reserved or unspecified address. The message names the field (``callback_url``), what the URL points at and the fix
    (a public receiver, or ``QGS_WEBHOOKS__ALLOW_PRIVATE=true`` for on-prem receivers).
    """


class IdempotencyKeyReusedError(InputError):
    """Raised when an ``Idempotency-Key`` comes again with another request (or another route).

    The same key with the same request gets the first answer; with another, this error (HTTP
    409), naming the key and what it was first used for. Use a new key for a new request.
    """


class NotAwaitingApprovalError(InputError):
    """Raised by ``approve`` when the task's latest decision does not wait for a person.

    Only ``awaiting_approval``, and ``force_deliver`` on a REFLECT task, wait for one.
    """


class SubmissionRefusedError(InputError):
    """Raised by a wait on a submission that will never be decided (HTTP 409).

    The worker refused it (a dead letter), gave up on it, or took it and could not store its
    round (its explicit round number held by another submission, say). The message says why;
    submitting the round again (without ``round_number``) is the way on.
    """


class SpotCheckConflictError(InputError):
    """Raised when a spot-check label cannot be recorded as sent (HTTP 409); nothing is lost.

    The message names the round and the fix; a label already stored stays as it was.
    ``field`` names the request field the problem is about (the round's ``submission_id``).
    """

    field = "submission_id"


class NotSampledError(SpotCheckConflictError):
    """Raised for a label of a round that is not in the spot-check queue (neither sampled nor asked for).

    Ask for it first (``POST /v1/spot-checks`` with its ``submission_id``), then label it.
    """


class LabelExistsError(SpotCheckConflictError):
    """Raised for a person's second label of the same sampled decision; the first one stands."""


class RoundRedecidedError(SpotCheckConflictError):
    """Raised for a label of a decision the round no longer has (it was decided again since).

    The new decision is a queue item of its own when it is sampled or asked for: label that one.
    """


class JudgeError(QGSError):
    """Raised when the judge could not give a valid review."""


class JudgeUnavailableError(JudgeError):
    """Raised on transient judge failures (timeout, HTTP 429 or 5xx, connection refused); worth a retry."""

    def __init__(self, message: str, *, retry_after_s: float | None = None) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class JudgeResponseError(JudgeError):
    """Raised when the judge answered, but not with a valid review (after the one repair request)."""

    def __init__(self, message: str, *, raw: str = "") -> None:
        super().__init__(message)
        self.raw = raw


class BrokerUnavailableError(QGSError, ConnectionError):
    """Raised by ``submit``/``send`` when the broker cannot be reached; nothing was queued.

    Over the HTTP API (``Client(base_url=...)``) also when the server cannot be reached before
    the request was sent; ``OutcomeUnknownError``, its subclass, when it may have been.
    """


class OutcomeUnknownError(BrokerUnavailableError):
    """Raised by the API client when a request was sent and no answer came (a read timeout).

    The server may have queued the round (or started the task): call again with the same
    ``idempotency_key`` (``exc.idempotency_key``), which gets the first answer and makes
    nothing twice. The client has already retried it that way.
    """

    def __init__(self, message: str, *, idempotency_key: str | None = None) -> None:
        super().__init__(message)
        self.idempotency_key = idempotency_key


class AuthenticationError(QGSError, PermissionError):
    """Raised when a request carries no API key, or one that is unknown or revoked."""


class PermissionDeniedError(QGSError, PermissionError):
    """Raised when an authenticated key lacks the scope an operation needs (``approve``)."""


class RateLimitedError(QGSError):
    """Raised when a key sent more requests than its window allows; ``retry_after_s`` says when."""

    def __init__(self, message: str, *, retry_after_s: float) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class StoreError(QGSError):
    """Raised when the results store fails."""


class TaskNotFoundError(StoreError, LookupError):
    """Raised when a task, round or submission id is not in the store."""


class SubmissionNotFoundError(TaskNotFoundError):
    """Raised when a submission id is not in the store, or belongs to another principal."""


class RoundNumberTakenError(StoreError):
    """Raised when a task's round number is already held by another submission."""


class ApprovalConflictError(StoreError):
    """Raised when a round already carries a different approval; the message names who and when."""


class WaitTimeoutError(QGSError, TimeoutError):
    """Raised by ``wait`` when no decision was stored within ``timeout_s``; the work goes on."""


def validation_summary(exc: Exception, *, env_prefix: str = "") -> str:
    """One line per field of a pydantic ``ValidationError``: ``field: what is wrong (got X)``.

    Args:
        exc: A pydantic ``ValidationError`` (anything with ``errors()``).
        env_prefix: ``"QGS_"`` to name settings as environment variables (``QGS_JUDGE__KIND``).
    """
    lines = []
    for error in exc.errors():  # type: ignore[attr-defined]
        loc = [str(part) for part in error.get("loc", ())]
        field = env_prefix + "__".join(loc).upper() if env_prefix else ".".join(loc) or "value"
        got = error.get("input")
        shown = "" if isinstance(got, dict | list) else f" (got {got!r})"
        lines.append(f"{field}: {error.get('msg', 'invalid')}{shown}")
    return "; ".join(lines)


def json_type_name(value: Any) -> str:
    """What a decoded JSON value is, for an error message: ``an object``, ``a list``, ``null``.

    Args:
        value: Any value ``json.loads`` can return (or anything else: its type's name).

    Returns:
        ``an object``, ``a list``, ``a string``, ``a boolean``, ``a number``, ``null``, or the
        Python type's name.
    """
    return {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        int: "a number",
        float: "a number",
    }.get(type(value), "null" if value is None else type(value).__name__)


class StoreUnavailableError(StoreError):
    """Raised when the store cannot be reached (connection refused, timeout); worth a retry.

    A job that meets it is retried with backoff and never acknowledged as done; when its
    retries run out, the sweeper still has the submission or round (``qgs_worker.queue.sweeper``).
    """


def moved_attribute(module: str, name: str, moved: Mapping[str, str]) -> NoReturn:
    """Fail an attribute lookup of ``module``: naming the new home of a ``name`` that moved.

    A module's ``__getattr__`` calls it with the names it once defined (issue 30 moved some
    between modules), so ``from OLD import name`` says where to import it from now.

    Raises:
        ImportError: ``name`` is in ``moved`` (``from ... import name`` and ``module.name`` alike).
        AttributeError: ``name`` was never there.
    """
    home = moved.get(name)
    if home is not None:
        raise ImportError(f"{name} moved to {home}: import it from there", name=name)
    raise AttributeError(f"module {module!r} has no attribute {name!r}")
