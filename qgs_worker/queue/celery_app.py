"""``create_celery_app(settings)``: the QGS Celery app with its jobs, and a worker's health ping.

The configuration (queues, routes, low-memory limits, events for Flower, Redis's transport) is
``broker``'s, re-exported here, its old home. ``celery -A qgs_worker.queue.celery_app`` finds
no app here: ``qgs worker`` and ``qgs flower`` build theirs from the settings.
"""

from __future__ import annotations

import sys

from celery import Celery

from qgs_worker.config.settings import Settings
from qgs_worker.queue.broker import (
    CRITIC_QUEUE,
    DEFAULT_QUEUE,
    DISCRIMINATOR_QUEUE,
    QUEUES,
    ROUTES,
    SENT_AT_HEADER,
    celery_config,
    guard_redis_channel_close,
    new_app,
    reuse_redis_clients,
)

__all__ = [  # the configuration is re-exported from ``broker``, its home before issue 30
    "CRITIC_QUEUE",
    "DEFAULT_QUEUE",
    "DISCRIMINATOR_QUEUE",
    "QUEUES",
    "ROUTES",
    "SENT_AT_HEADER",
    "celery_config",
    "create_celery_app",
    "guard_redis_channel_close",
    "ping_worker",
    "reuse_redis_clients",
]


def create_celery_app(settings: Settings | None = None, *, jobs: bool = True) -> Celery:
    """Build the QGS Celery app for ``settings`` (read from the environment when None).

    Args:
        settings: The settings (the environment's when None).
        jobs: Register QGS's jobs on the app (a worker's, or a process that runs jobs). A
            client that only sends jobs by name (routes and limits are the app's
            configuration) passes False: importing the jobs loads the worker's runtime (the
            judges and the openai client), ~1 s before ``qgs audit`` could send its first chunk.

    Raises:
        ConfigurationError: the time limits do not fit (see ``Settings.check``), or no broker
            URL is set (the CLI starts the embedded broker and sets it first).
    """
    app = new_app(settings)
    if jobs:
        import qgs_worker.queue.jobs  # registers the jobs on the current app
        import qgs_worker.queue.webhook_job  # noqa: F401  (and the webhook delivery job)
        from qgs_worker.encoders import install

        install()  # the sentence encoder beside the n-grams, where qgs[encoder] is installed

    return app


def ping_worker(name: str, *, timeout_s: float = 5.0, settings: Settings | None = None) -> bool:
    """Whether the worker node ``<name>@<this host>`` answers a control ping on the broker.

    The container health check of ``docker-compose.yml``
    (``python -m qgs_worker.queue.celery_app ping worker-critic``; the worker runs with
    ``--name worker-critic@%h``).

    Args:
        name: The node name before ``@`` (``qgs worker --name NAME@%h``).
        timeout_s: How long to wait for the answer, in seconds.
        settings: The settings (read from the environment when None).

    Returns:
        True when the node answered.
    """
    import socket

    app = create_celery_app(settings)
    replies = app.control.ping(destination=[f"{name}@{socket.gethostname()}"], timeout=timeout_s)
    return bool(replies)


def _main(argv: list[str]) -> int:
    """``python -m qgs_worker.queue.celery_app ping NAME``: exit 0 when the worker answers, else 1."""
    if len(argv) != 2 or argv[0] != "ping":
        print("usage: python -m qgs_worker.queue.celery_app ping NAME", file=sys.stderr)
        return 2
    from qgs_worker.queue import celery_app  # this module's one instance (not __main__'s copy)

    try:
        alive = celery_app.ping_worker(argv[1])
    except Exception as exc:  # a broker that is down: unhealthy, with the reason
        print(f"{argv[1]}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(f"{argv[1]}: {'ok' if alive else 'no answer'}", file=sys.stderr)
    return 0 if alive else 1


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
