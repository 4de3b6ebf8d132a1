"""Start a Celery worker for ``qgs worker`` without going through Celery's command line.

``app.worker_main(argv)`` runs the ``celery`` click program, whose import pulls in every
subcommand and plugin it knows: ``celery shell``'s click-repl and prompt_toolkit, and Flower
(tornado, pytz, humanize, its prometheus metrics) when it is installed, as QGS's is. The worker
never uses them, and they stay in its memory for its whole life: about 15 MB of a worker's
~140 MB idle RSS (issue 15, part 4: "64 concurrent reviews within 150 MB"; measured by
``bench/pipeline_bench.py``). This builds the same ``celery.apps.worker.Worker`` the ``celery
worker`` command builds, from the same options, so the worker behaves as before: node name
``%h`` expanded, pool class, log level, queues, task events on, no mingle, no gossip.
"""

from __future__ import annotations

from collections.abc import Sequence

from celery import Celery

__all__ = ["start_worker"]


def start_worker(
    app: Celery,
    *,
    queues: Sequence[str],
    pool: str,
    concurrency: int,
    hostname: str,
    loglevel: str = "INFO",
) -> int:
    """Run a worker of ``app`` until it stops, as ``celery worker`` with these options would.

    Args:
        app: The QGS Celery app (``create_celery_app``).
        queues: The queue names to consume.
        pool: ``threads``, ``prefork`` or ``solo``.
        concurrency: Threads (or child processes).
        hostname: The node name; ``%h``, ``%n`` and ``%d`` are expanded as Celery's
            ``--hostname`` expands them.
        loglevel: A logging level name (``DEBUG``, ``INFO``, ``WARNING``...).

    Returns:
        The worker's exit code (0 after a clean shutdown).
    """
    from celery import concurrency as pools
    from celery.utils.log import mlevel
    from celery.utils.nodenames import default_nodename, host_format

    worker = app.Worker(
        hostname=host_format(default_nodename(hostname)),
        pool=pools.get_implementation(pool),
        loglevel=mlevel(loglevel.upper()),
        logfile=None,
        queues=list(queues),
        concurrency=concurrency,
        task_events=True,
        without_mingle=True,
        without_gossip=True,
        optimization="default",
    )
    worker.start()
    return int(worker.exitcode or 0)
