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

import ctypes
import os
import sys
from collections.abc import Sequence

from celery import Celery

__all__ = [
    "MALLOC_ARENA_MAX",
    "MALLOC_MMAP_THRESHOLD_BYTES",
    "UNUSED_ASYNC_MODULES",
    "UNUSED_WITHOUT_TRACING",
    "limit_malloc",
    "skip_unused_async_modules",
    "start_worker",
]

MALLOC_ARENA_MAX = 2
"""glibc malloc arenas a worker process uses (glibc's default: 8 per core)."""

MALLOC_MMAP_THRESHOLD_BYTES = 32 * 1024
"""Blocks from this size up are mapped on their own and given back to the system when freed.

glibc's default starts at 128 KiB and rises with the largest block freed (up to 32 MiB), so the
buffers a review thread holds for the time of a call (a socket read of 64 KiB, a request body)
come from the heap, and 64 threads' worth of them leave it fragmented: a worker reviewing 64
rounds at once peaked ~11 MB higher with the default (``bench/pipeline_bench.py``, issue 15,
part 4). A mapping costs two system calls per block of that size: a few a review.
"""

UNUSED_ASYNC_MODULES = ("openai._vendor.httpx_aiohttp", "trio")
"""Optional async back-ends a worker never runs, which the libraries it uses import when installed.

A worker calls the judge through the synchronous ``openai.OpenAI`` client, in threads; no job
runs an event loop. Yet ``import openai`` imports its aiohttp transport
(``openai._vendor.httpx_aiohttp``, for ``AsyncOpenAI(http_client=DefaultAioHttpClient())``)
and with it aiohttp, and the first HTTP request imports httpcore2's synchronization module,
which imports trio for its async locks: both only when installed, and both left in memory for
the worker's whole life (about 12 MB of RSS; issue 15, part 4). Each library treats the module
as optional (``try: import ... except ImportError``) and goes on without it: the synchronous
client's requests are the same.
"""

UNUSED_WITHOUT_TRACING = ("opentelemetry.sdk",)
"""The OpenTelemetry SDK, unimportable in a worker whose tracing is off.

redis-py imports it whenever it is installed, for metrics of its own that only a call of its
``observability`` API turns on (QGS makes none), and the SDK imports psutil: ~3 MB of RSS for
nothing (issue 15, part 4: "64 concurrent reviews within 150 MB"). redis-py treats it as
optional (``try: ... except ImportError``). QGS's own telemetry imports the SDK only to trace
(``telemetry.tracing_wanted``: an OTLP endpoint set), and then it is left importable.
"""

_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8
"""``mallopt`` parameters (glibc's ``malloc.h``)."""

malloc_limits: dict[str, int] = {}
"""What :func:`limit_malloc` set in this process (empty: nothing, or not glibc)."""


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

    limit_malloc()  # before the pool starts its threads (or forks its children)
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


def skip_unused_async_modules(*, tracing: bool = True) -> list[str]:
    """Make ``UNUSED_ASYNC_MODULES`` unimportable in this process, as if they were not installed.

    With ``tracing`` False (QGS's tracing is off), ``UNUSED_WITHOUT_TRACING`` too.

    Python's own mechanism: a ``None`` in ``sys.modules`` makes ``import`` raise
    ``ModuleNotFoundError``, which the libraries importing them catch. A module already imported
    is left as it is. Call it before anything imports openai (``qgs worker`` does, first thing):
    only the worker process does without them; ``qgs serve``, the client and ``AsyncOpenAI``
    elsewhere keep them.

    Returns:
        The names made unimportable now.
    """
    unused = UNUSED_ASYNC_MODULES + (() if tracing else UNUSED_WITHOUT_TRACING)
    skipped = [name for name in unused if name not in sys.modules]
    for name in skipped:
        sys.modules[name] = None  # type: ignore[assignment]
    return skipped


def limit_malloc() -> dict[str, int]:
    """Limit glibc malloc's arenas and map large blocks on their own, in this process.

    ``MALLOC_ARENA_MAX`` and ``MALLOC_MMAP_THRESHOLD_BYTES`` (see them) through ``mallopt``,
    which takes effect for the threads started afterwards; a setting already given by glibc's
    environment variable (``MALLOC_ARENA_MAX``, ``MALLOC_MMAP_THRESHOLD_``) is left as it is.
    Nothing is done where the C library is not glibc.

    Returns:
        What was set (``arena_max``, ``mmap_threshold_bytes``), also kept in ``malloc_limits``.
    """
    if not sys.platform.startswith("linux"):
        return {}
    try:
        libc = ctypes.CDLL(None)
    except OSError:
        return {}
    if not hasattr(libc, "gnu_get_libc_version"):  # musl and others: not glibc's malloc
        return {}
    mallopt = libc.mallopt
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    wanted = (
        ("arena_max", "MALLOC_ARENA_MAX", _M_ARENA_MAX, MALLOC_ARENA_MAX),
        (
            "mmap_threshold_bytes",
            "MALLOC_MMAP_THRESHOLD_",
            _M_MMAP_THRESHOLD,
            MALLOC_MMAP_THRESHOLD_BYTES,
        ),
    )
    for name, variable, parameter, value in wanted:
        if variable not in os.environ and mallopt(parameter, value) == 1:
            malloc_limits[name] = value
    return dict(malloc_limits)
