"""A worker's ``/metrics`` endpoint, started and stopped with the worker (Celery signals).

``worker_init`` is sent by every ``WorkController`` (``qgs worker``, and the in-process workers
of the tests), in the main process before any pool starts: with the prefork pool the server
runs in the parent, which sums its children's metrics (``telemetry._metrics``).
"""

from __future__ import annotations

from typing import Any

from celery.signals import worker_init, worker_shutdown

__all__ = ["connect_metrics_server"]


def _start(sender: Any = None, **_: Any) -> None:
    """Serve the worker's ``/metrics`` (``QGS_WORKER__METRICS_PORT``) as the worker starts."""
    app = getattr(sender, "app", None)
    settings = getattr(app, "qgs_settings", None)
    if app is None or settings is None or settings.worker.metrics_port is None:
        return
    from qgs_worker import telemetry

    queues = tuple(queue.name for queue in app.conf.task_queues or ())
    app.qgs_metrics_server = telemetry.start_metrics_server(settings, queues)


def _stop(sender: Any = None, **_: Any) -> None:
    """Stop the worker's ``/metrics`` server and free its port."""
    app = getattr(sender, "app", None)
    server = getattr(app, "qgs_metrics_server", None)
    if app is not None and server is not None:
        server.shutdown()
        server.server_close()
        app.qgs_metrics_server = None


def connect_metrics_server() -> None:
    """Connect the start and stop of the metrics server to the worker's signals (idempotent)."""
    worker_init.connect(_start, weak=False, dispatch_uid="qgs-metrics-start")
    worker_shutdown.connect(_stop, weak=False, dispatch_uid="qgs-metrics-stop")
