"""Pushed decisions: callback URLs checked at the edge (SSRF), signed webhooks delivered by a job.

- ``check_callback`` (``urls``): what the client checks before it stores a callback URL;
  ``webhook_secret_for``: the one place the signing secret is resolved.
- ``deliver_once`` / ``decided_listener`` (``delivery``, which imports httpx: import it
  explicitly): one attempt, and the hook that enqueues the first one.
- ``qgs_worker.webhooks.job``: the Celery job ``qgs.webhook.deliver``.

The body, the signature and the retry schedule are pure (``qgs_worker.core.webhooks``); the
URL rules too (``qgs_worker.core.callback_url``); the deliveries live in the store
(``qgs_worker.store.webhooks``).
"""

from qgs_worker.webhooks.urls import (
    CallbackUnresolvedError,
    Resolved,
    Resolver,
    check_callback,
    resolve_callback,
    sendable,
    system_resolver,
    webhook_secret_for,
)

__all__ = [
    "CallbackUnresolvedError",
    "Resolved",
    "Resolver",
    "check_callback",
    "resolve_callback",
    "sendable",
    "system_resolver",
    "webhook_secret_for",
]
