"""Long-running processes: ``qgs worker`` and ``qgs flower``."""

from __future__ import annotations

import sys
import uuid
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from qgs_worker.cli.common import (
    _fail,
    app,
    broker_session,
    err_console,
)
from qgs_worker.cli.short_process import load_instruction_model

QUEUE_NAMES = {
    "default": "qgs.default",
    "critic": "qgs.critic",
    "discriminator": "qgs.discriminator",
}


class Pool(StrEnum):
    """Celery worker pools QGS supports."""

    threads = "threads"
    prefork = "prefork"
    solo = "solo"


@app.command()
def worker(
    queues: Annotated[
        str,
        typer.Option(
            "--queues",
            "--queue",
            "-Q",
            help="default, critic, discriminator, comma-separated, or all.",
        ),
    ] = "all",
    concurrency: Annotated[
        int | None, typer.Option("--concurrency", "-c", min=1, help="Threads (or processes).")
    ] = None,
    pool: Annotated[Pool | None, typer.Option(help="threads (default), prefork or solo.")] = None,
    low_memory: Annotated[
        bool, typer.Option("--low-memory", help="Recycle prefork children above the memory limit.")
    ] = False,
    name: Annotated[
        str | None, typer.Option(help="Worker node name (default qgs-QUEUES-ID@host).")
    ] = None,
    loglevel: Annotated[str, typer.Option(help="DEBUG, INFO, WARNING.")] = "INFO",
    metrics_port: Annotated[
        int | None,
        typer.Option(
            "--metrics-port",
            min=0,
            max=65535,
            help="Serve Prometheus metrics at /metrics on this port (QGS_WORKER__METRICS_PORT).",
        ),
    ] = None,
) -> None:
    """Run a Celery worker on the QGS queues (starts the embedded broker when none is set)."""
    from qgs_worker.queue.worker_start import skip_unused_async_modules
    from qgs_worker.telemetry import tracing_wanted

    # Before anything imports openai or redis (the jobs do).
    skip_unused_async_modules(tracing=tracing_wanted())
    from qgs_worker.queue.celery_app import create_celery_app

    wanted = (
        list(QUEUE_NAMES)
        if queues == "all"
        else [q.strip().removeprefix("qgs.") for q in queues.split(",")]
    )
    unknown = [q for q in wanted if q not in QUEUE_NAMES]
    if unknown:
        raise _fail(
            f"unknown queue {', '.join(unknown)}: use default, critic, discriminator or all"
        )
    load_instruction_model()  # before the broker: a broken artifact stops the worker at start
    from qgs_worker.config.settings import Settings

    settings = Settings()
    if low_memory:
        settings = settings.model_copy(
            update={"worker": settings.worker.model_copy(update={"low_memory": True})}
        )
    if metrics_port is not None:
        settings = settings.model_copy(
            update={"worker": settings.worker.model_copy(update={"metrics_port": metrics_port})}
        )
    w = settings.worker
    chosen_pool = str(pool.value if pool is not None else w.pool)
    if w.metrics_port is not None and chosen_pool == "prefork":
        _multiprocess_metrics(settings)
    if w.low_memory and chosen_pool != "prefork":
        err_console.print(
            f"note: --low-memory recycles prefork children above {w.max_memory_per_child_kb} KiB; "
            f"the {chosen_pool} pool runs jobs in one process, whose memory --concurrency bounds"
        )
    if concurrency is None:
        by_queue = {"discriminator": w.discriminator_concurrency, "default": w.default_concurrency}
        concurrency = (
            by_queue.get(wanted[0], w.critic_concurrency)
            if len(wanted) == 1
            else w.critic_concurrency
        )
    from qgs_worker.queue.preflight import check_broker, check_policy_files, check_store
    from qgs_worker.queue.worker_start import start_worker

    check_policy_files(settings)  # every job loads them: a bad file stops here, not in each job
    check_store(settings).dispose()  # before "ready": a store that cannot be reached stops here
    with broker_session(settings, workers=False) as live:
        check_broker(live.broker_url or "", live.broker_timeout_s)
        celery = create_celery_app(live)
        code = start_worker(
            celery,
            queues=[QUEUE_NAMES[q] for q in wanted],
            pool=chosen_pool,
            concurrency=concurrency,
            hostname=name or "qgs-" + "-".join(wanted) + "-" + uuid.uuid4().hex[:6] + "@%h",
            loglevel=loglevel,
        )
    if code:
        raise typer.Exit(code)


def _multiprocess_metrics(settings: Any) -> None:
    """Set up prometheus_client's multiprocess mode for a prefork worker's metrics.

    Prefork children count in files the parent's ``/metrics`` sums: ``PROMETHEUS_MULTIPROC_DIR``,
    set before prometheus_client is imported, a fresh folder per worker under the data folder
    unless the variable is set already.
    """
    import os
    import shutil

    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return
    if "prometheus_client" in sys.modules:  # pragma: no cover - nothing imports it before here
        raise _fail("PROMETHEUS_MULTIPROC_DIR must be set before prometheus_client is imported")
    folder = Path(settings.data_dir) / "metrics" / f"worker-{os.getpid()}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(folder)


@app.command()
def flower(
    port: Annotated[int, typer.Option(help="HTTP port.")] = 5555,
    address: Annotated[str, typer.Option(help="Listen address.")] = "127.0.0.1",
    basic_auth: Annotated[
        str | None,
        typer.Option(help="user:password protecting the UI and API (or FLOWER_BASIC_AUTH)."),
    ] = None,
) -> None:
    """Run Flower, the Celery monitor, against the QGS broker."""
    from qgs_worker.config.settings import Settings
    from qgs_worker.queue.celery_app import create_celery_app

    settings = Settings()
    with broker_session(settings, workers=False) as live:
        celery = create_celery_app(live)
        argv = ["celery", "flower", f"--port={port}", f"--address={address}"]
        if basic_auth:
            argv.append(f"--basic-auth={basic_auth}")
        celery.start(argv=argv[1:])
