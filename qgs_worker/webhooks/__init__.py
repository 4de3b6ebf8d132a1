"""Pushed decisions: callback URLs checked at the edge (SSRF), signed webhooks delivered by a job.

- ``check_callback`` (``urls``): what the client checks before it stores a callback URL;
  ``webhook_secret_for``: the one place the signing secret is resolved.
- ``deliver_once`` (``delivery``, which imports httpx on the first POST: import it
  explicitly): one attempt.
- In the queue, which imports this package and never the reverse:
  ``qgs_worker.queue.webhook_starts`` (``decided_listener``, the hook that enqueues the first
  attempt; ``publish_delivery``) and ``qgs_worker.queue.webhook_job`` (the Celery job
  ``qgs.webhook.deliver``).

The body, the signature and the retry schedule are pure (``qgs_worker.core.webhooks``); the
URL rules too (``qgs_worker.core.callback_url``); the deliveries live in the store
(``qgs_worker.store.webhooks``).

Layer: an adapter; may import the service, the core, ``errors`` and other adapters, with no cycle.
Imports: ``config``, ``core``, ``errors``, ``store``, ``telemetry``. Imported by: ``api``, ``cli``,
``client``, ``queue``.
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
