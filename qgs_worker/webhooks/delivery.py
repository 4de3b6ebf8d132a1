"""One webhook attempt: claim the delivery, check the URL again, POST the signed decision, store it.

``deliver_once`` is what the job ``qgs.webhook.deliver`` runs (``qgs_worker.queue.webhook_job``):

1. claim the round's pending delivery (a lease in the store: a redelivered copy of the job,
   or one that finds it delivered or failed, does nothing);
2. the signing secret (``webhook_secret_for``) and the URL again, with DNS
   (``resolve_callback``, which reads it as the HTTP client will): a name that now resolves
   inside (DNS rebinding), a URL the HTTP client cannot send to, or no secret fails the
   delivery for good at once (it could never succeed: the sweeper never enqueues it again);
   a name that does not resolve, no connection or a 5xx is a failed attempt, retried;
3. POST the body (``core.webhooks.webhook_body``, or ``approval_body`` for an approval event,
   as the claim read it) with the signature, timestamp and
   idempotency key, to the address just checked (``post_webhook``: the HTTP client does not
   resolve the name again), no redirects followed, no proxy from the environment; the whole
   attempt ends within ``QGS_WEBHOOKS__TIMEOUT_S`` of its claim, however slowly the receiver
   answers, and its lease (``lease_s``) outlasts that bound;
4. store the attempt and move the delivery on in one transaction: ``delivered`` on a 2xx;
   ``failed`` after the last attempt (``QGS_WEBHOOKS__MAX_ATTEMPTS``); else ``pending`` with
   the retry's delay (``core.webhooks.retry_delay_s``), which the job waits as a countdown.

The decide job never waits for this: the decided listener
(``qgs_worker.queue.webhook_starts.decided_listener``) only stores the delivery and enqueues the
job. httpx is imported by the first POST, not with this module:
every worker imports this module (its listener), and most never deliver a webhook; httpx
with its dependencies was ~3 MB of a worker's idle memory (issue 15, part 4).
"""

from __future__ import annotations

import asyncio
import logging
import random
import ssl
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from qgs_worker import telemetry
from qgs_worker.config.settings import Settings
from qgs_worker.core.webhooks import (
    DECISION_EVENT,
    WebhookPolicy,
    WebhookStatus,
    retry_delay_s,
    webhook_headers,
)
from qgs_worker.errors import CallbackUrlError, WebhookSecretMissingError, moved_attribute
from qgs_worker.store import Repository, utcnow
from qgs_worker.store.webhooks import WebhookWork
from qgs_worker.webhooks.urls import (
    CallbackUnresolvedError,
    Resolved,
    Resolver,
    resolve_callback,
    system_resolver,
    webhook_secret_for,
)

if TYPE_CHECKING:
    import httpx

__all__ = [
    "DELIVER_JOB",
    "AttemptResult",
    "DeliveryOutcome",
    "deliver_once",
    "lease_s",
    "post_webhook",
]

log = logging.getLogger(__name__)

DELIVER_JOB = "qgs.webhook.deliver"
"""The job that makes one attempt (on ``qgs.default``)."""

LEASE_MARGIN_S = 5.0
"""Seconds an attempt's lease adds to its POST's bound (store round trips, a slow clock)."""


def lease_s(timeout_s: float) -> float:
    """Seconds an attempt holds its delivery: twice the whole-POST bound, plus a margin.

    An attempt resolves the name and POSTs within ``timeout_s`` of its claim (``post_webhook``
    ends the POST at that deadline however the receiver behaves), so its lease never runs
    out while it sends: a redelivered copy of the job, or the sweeper, cannot POST it again.
    """
    return 2 * timeout_s + LEASE_MARGIN_S


@dataclass(frozen=True, slots=True)
class AttemptResult:
    """One POST: the receiver's HTTP status (None: no answer), the error (None: 2xx), ms taken.

    ``final``: the attempt can never succeed (a URL the HTTP client cannot send to): the
    delivery fails at once, with no retry.
    """

    status_code: int | None
    error: str | None
    latency_ms: float
    final: bool = False


@dataclass(frozen=True, slots=True)
class DeliveryOutcome:
    """What one ``deliver_once`` did.

    Attributes:
        status: The delivery's status after this attempt; None when no attempt was made
            (delivered or failed before, no delivery, or another attempt holds it).
        retry_in_s: Seconds until the next attempt (status ``pending``), else None.
        attempt: The attempt's result, when one was made.
    """

    status: WebhookStatus | None
    retry_in_s: float | None = None
    attempt: AttemptResult | None = None


def post_webhook(
    resolved: Resolved,
    body: bytes,
    headers: dict[str, str],
    timeout_s: float,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    deadline: float | None = None,
) -> AttemptResult:
    """POST to the checked addresses in turn (the next one only when a connection fails).

    The whole POST (every address's connect, the request, the receiver's status line and
    headers) ends within ``timeout_s`` seconds in total, however slowly the receiver sends:
    httpx's own timeouts bound each read, not the request (a receiver that sends its answer
    a byte every 2 s held a 5 s POST for 8 minutes), so the request runs on an
    ``httpx.AsyncClient`` under ``asyncio.timeout``, which cancels it at the deadline and
    closes its connection, whether the receiver trickles bytes or sends nothing.

    The URL's host is replaced by the address (``Host`` and, for https, the TLS server name
    stay the URL's host, so the certificate is checked against the name). The response body
    is not read: only the status counts.

    Args:
        resolved: The URL and its checked addresses (``resolve_callback``).
        body: The exact bytes to send.
        headers: The attempt's headers (``webhook_headers``).
        timeout_s: The whole POST's budget, in seconds (each phase gets it too).
        transport: An httpx transport (tests); the default one when None.
        deadline: ``time.monotonic()`` by which the POST must end (an earlier one than
            ``timeout_s`` from now: the attempt's own deadline, set when it was claimed).

    Returns:
        The receiver's status, or why there is none (no answer in time, no connection).
        Never raises for the receiver's behaviour.
    """
    start = time.perf_counter()
    end = time.monotonic() + timeout_s
    if deadline is not None:
        end = min(end, deadline)
    budget_s = end - time.monotonic()
    if budget_s <= 0:
        return AttemptResult(None, f"not sent: no time left of the {timeout_s:g} s budget", 0.0)
    return asyncio.run(_post(resolved, body, headers, timeout_s, budget_s, transport, start))


async def _post(
    resolved: Resolved,
    body: bytes,
    headers: dict[str, str],
    timeout_s: float,
    budget_s: float,
    transport: httpx.AsyncBaseTransport | None,
    start: float,
) -> AttemptResult:
    import httpx  # on the first webhook: a worker that pushes none never loads it

    target = resolved.target
    try:
        url = httpx.URL(target.normalized or target.url)
    except httpx.InvalidURL as exc:  # a row stored before URLs were read at the edge
        return AttemptResult(None, f"not sent: the URL cannot be sent to ({exc})", 0.0, True)
    sent_headers = {**headers, "Host": url.netloc.decode("ascii")}
    extensions: dict[str, Any] = {}
    if target.scheme == "https" and target.address is None:
        extensions["sni_hostname"] = target.host
    error = "no address to connect to"
    late = f"no answer within {timeout_s:g} s"
    async with httpx.AsyncClient(
        follow_redirects=False, trust_env=False, verify=_tls_context(), transport=transport
    ) as client:
        try:
            async with asyncio.timeout(budget_s):
                for address in resolved.addresses:
                    request = client.build_request(
                        "POST",
                        url.copy_with(host=str(address)),
                        content=body,
                        headers=sent_headers,
                        extensions=extensions,
                        timeout=timeout_s,
                    )
                    try:
                        response = await client.send(request, stream=True)
                        await response.aclose()
                    except httpx.ConnectError as exc:
                        error = f"cannot connect to {address} ({exc})"
                        continue  # the host's next address
                    except httpx.TimeoutException as exc:
                        return AttemptResult(None, f"{late} ({type(exc).__name__})", _ms(start))
                    except httpx.InvalidURL as exc:
                        why = f"not sent: the URL cannot be sent to ({exc})"
                        return AttemptResult(None, why, _ms(start), True)
                    except httpx.HTTPError as exc:
                        return AttemptResult(None, f"{type(exc).__name__}: {exc}", _ms(start))
                    code = response.status_code
                    if 200 <= code < 300:
                        return AttemptResult(code, None, _ms(start))
                    why = "a redirect (not followed)" if 300 <= code < 400 else "not 2xx"
                    return AttemptResult(code, f"HTTP {code}: {why}", _ms(start))
        except TimeoutError:
            return AttemptResult(None, f"{late} (the whole POST: connection closed)", _ms(start))
    return AttemptResult(None, error, _ms(start))


def deliver_once(
    repo: Repository,
    round_id: int,
    settings: Settings,
    *,
    event: str = DECISION_EVENT,
    holder: str | None = None,
    resolve: Resolver = system_resolver,
    now_s: Callable[[], float] = time.time,
    jitter: Callable[[], float] = random.random,
    transport: httpx.AsyncBaseTransport | None = None,
) -> DeliveryOutcome:
    """Make one attempt at the round's webhook, as the module docstring says. Idempotent.

    Args:
        repo: The results store.
        round_id: The decided round.
        settings: QGS settings (``QGS_WEBHOOKS__*``).
        event: ``qgs.decision`` (the round's decision) or ``qgs.approval`` (a person's
            approval or rejection of it).
        holder: The attempt's lease holder (a new one when None).
        resolve: The resolver (the system's; tests pass a table).
        now_s: Unix time now, in seconds (the signature's timestamp).
        jitter: A number in [0, 1) for the retry's delay.
        transport: An httpx transport (tests).

    Returns:
        What the attempt did, and the retry's delay when one is due.

    Raises:
        sqlalchemy errors when the store cannot be reached (the job retries).
    """
    cfg = settings.webhooks
    w = settings.worker
    policy = cfg.policy(
        soft_time_limit_s=w.soft_time_limit_s, visibility_timeout_s=w.visibility_timeout_s
    )
    holder = holder or uuid.uuid4().hex[:16]
    work = repo.claim_webhook(round_id, holder, lease_s(policy.timeout_s), event=event)
    if work is None:
        return DeliveryOutcome(None)
    # The POST ends by this deadline, DNS included: well inside the lease, so no other
    # attempt can claim the delivery (and POST it again) while this one still sends.
    deadline = time.monotonic() + policy.timeout_s
    try:
        owner, key_id = repo.task_signer(work.task_id)
        secret = webhook_secret_for(None, settings, principal=owner, key_id=key_id, store=repo)
        resolved = resolve_callback(work.url, allow_private=cfg.allow_private, resolve=resolve)
    except CallbackUnresolvedError as exc:
        result = AttemptResult(None, str(exc), 0.0)
    except (CallbackUrlError, WebhookSecretMissingError) as exc:
        result = AttemptResult(None, f"not sent: {exc}", 0.0, final=True)
    else:
        headers = webhook_headers(secret, int(now_s()), work.body, work.idempotency_key)
        try:
            result = post_webhook(
                resolved,
                work.body,
                headers,
                policy.timeout_s,
                transport=transport,
                deadline=deadline,
            )
        except BaseException:
            repo.release_webhook(round_id, holder, event=event)
            raise
    done = _settle(repo, work, holder, result, policy, jitter=jitter())
    if done.status is not None:
        counted = "retry" if done.status == WebhookStatus.PENDING else done.status.value
        telemetry.webhook_attempted(settings, work.event, counted)
    return done


def _settle(
    repo: Repository,
    work: WebhookWork,
    holder: str,
    result: AttemptResult,
    policy: WebhookPolicy,
    *,
    jitter: float,
) -> DeliveryOutcome:
    number = work.attempts + 1
    delay: float | None = None
    final_error = None
    if result.error is None:
        outcome = WebhookStatus.DELIVERED
    elif result.final:  # it could never succeed: failed now, with its reason
        outcome, final_error = WebhookStatus.FAILED, result.error
    elif number >= policy.max_attempts:
        outcome = WebhookStatus.FAILED
        final_error = f"gave up after {number} attempt{'s' if number != 1 else ''}: {result.error}"
    else:
        outcome = WebhookStatus.PENDING
        delay = retry_delay_s(number, policy, jitter)
    stored = repo.record_webhook_attempt(
        work,
        holder,
        status_code=result.status_code,
        error=result.error,
        latency_ms=result.latency_ms,
        outcome=outcome,
        next_at=utcnow() + timedelta(seconds=delay) if delay is not None else None,
        final_error=final_error,
    )
    if not stored:
        return DeliveryOutcome(None, attempt=result)
    if outcome == WebhookStatus.FAILED:
        log.warning(
            "%s webhook of round %s failed for good: %s", work.event, work.round_number, final_error
        )
    return DeliveryOutcome(outcome, delay, result)


_tls: ssl.SSLContext | None = None
_tls_lock = threading.Lock()


def _tls_context() -> ssl.SSLContext:
    """The process's TLS context (built once: one costs ~15 ms), certifi's CAs, no env settings.

    Each POST has a client of its own (an event loop of its own), with no redirects followed
    and no proxy or settings from the environment (a proxy would resolve the name itself).
    """
    global _tls
    import httpx

    with _tls_lock:
        if _tls is None:
            _tls = httpx.create_ssl_context(trust_env=False)
        return _tls


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0


_MOVED_NAMES = {"decided_listener": "qgs_worker.queue.webhook_starts", "publish_delivery": "qgs_worker.queue.webhook_starts"}
"""Names this module once defined, and where they live now (issue 30)."""



def __getattr__(name: str) -> object:
    """A name that moved fails naming its new home (``errors.moved_attribute``)."""
    moved_attribute(__name__, name, _MOVED_NAMES)
