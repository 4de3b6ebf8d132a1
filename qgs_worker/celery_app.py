"""``create_celery_app(settings)``: queues, routes, low-memory limits and events for Flower.

Three queues: ``qgs.default`` (intake, decide, tool-call check logs), ``qgs.critic`` (judge
calls, I/O-bound, many threads) and ``qgs.discriminator`` (audits, one at a time). Jobs are
acknowledged late and their effects are idempotent, so a job redelivered after a lost worker
changes nothing twice.
No result backend: decisions live in the results store.
"""

from __future__ import annotations

import gc
from typing import Any

from celery import Celery
from celery.signals import worker_init
from kombu.entity import Queue

from qgs_worker.settings import Settings

DEFAULT_QUEUE = "qgs.default"
CRITIC_QUEUE = "qgs.critic"
DISCRIMINATOR_QUEUE = "qgs.discriminator"
QUEUES = (DEFAULT_QUEUE, CRITIC_QUEUE, DISCRIMINATOR_QUEUE)

ROUTES = {
    "qgs.review.intake": {"queue": DEFAULT_QUEUE},
    "qgs.review.critic": {"queue": CRITIC_QUEUE},
    "qgs.review.discriminate": {"queue": DISCRIMINATOR_QUEUE},
    "qgs.review.decide": {"queue": DEFAULT_QUEUE},
    "qgs.toolgate.log": {"queue": DEFAULT_QUEUE},
}


def celery_config(settings: Settings) -> dict[str, Any]:
    """The Celery configuration QGS runs with (reliability, limits, events), as a dict."""
    w = settings.worker
    config: dict[str, Any] = {
        "broker_url": settings.broker_url,
        "broker_connection_retry_on_startup": True,
        "broker_transport_options": {
            "visibility_timeout": w.visibility_timeout_s,
            # A job a lost worker left unacknowledged comes back after the visibility timeout,
            # found by a sweep every restore_interval_s (kombu's default sweep is ~100 s).
            "unacked_restore_interval": w.restore_interval_s,
            "unacked_restore_throttle": 1,
        },
        "task_serializer": "json",
        "accept_content": ["json"],
        "result_serializer": "json",
        "task_ignore_result": True,
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "task_soft_time_limit": w.soft_time_limit_s,
        "task_time_limit": w.time_limit_s,
        "task_default_queue": DEFAULT_QUEUE,
        "task_queues": tuple(Queue(name) for name in QUEUES),
        "task_routes": ROUTES,
        "worker_send_task_events": True,
        "task_send_sent_event": True,
        "worker_hijack_root_logger": False,
        "worker_cancel_long_running_tasks_on_connection_loss": False,
    }
    if w.low_memory:
        # Checked only after a job finishes, and only by the prefork pool (NOTES.md).
        config["worker_max_memory_per_child"] = w.max_memory_per_child_kb
        config["worker_max_tasks_per_child"] = 200
    return config


def create_celery_app(settings: Settings | None = None) -> Celery:
    """Build the QGS Celery app for ``settings`` (read from the environment when None).

    Raises:
        ConfigurationError: the time limits do not fit (see ``Settings.check``), or no broker
            URL is set (the CLI starts the embedded broker and sets it first).
    """
    from qgs_worker.errors import ConfigurationError

    settings = settings or Settings()
    settings.check()
    if not settings.broker_url:
        raise ConfigurationError(
            "no broker: set QGS_BROKER_URL (e.g. redis://127.0.0.1:6379/0), or use a `qgs` "
            "command, which starts the embedded broker"
        )
    app = Celery("qgs")
    app.conf.update(celery_config(settings))
    app.qgs_settings = settings
    import qgs_worker.jobs  # noqa: F401  (registers the jobs on the current app)

    return app


def _freeze_heap(**_: Any) -> None:
    """Move the parent's objects out of the garbage collector's reach before prefork forks.

    Without it every child's first collection touches (and so copies) the shared pages: about
    50 MB private memory per child; with it, about 5 MB (measured by ``make bench``).
    """
    gc.collect()
    gc.freeze()


worker_init.connect(_freeze_heap, weak=False)
