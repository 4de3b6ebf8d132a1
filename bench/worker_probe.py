"""Run a bench worker with a probe: what it ran, when, and the SQL statements it sent.

Usage (the benches start it; never needed by hand):

    python bench/worker_probe.py qgs worker --queues all --pool threads ...   # `qgs worker`
    python bench/worker_probe.py baseline --pool threads --concurrency 8 ...  # bench/baseline_apps.py

The probe counts, in the worker process and every prefork child (the counters live in shared
memory made before the children fork):

- the jobs that ran, by name (Celery's ``task_postrun`` signal: a job that ran, whatever it
  planned; a retry counts as the run it was);
- when the first job of a window started and the last one ended (``time.time()``, seconds);
- SQL statements sent to the store (SQLAlchemy's ``before_cursor_execute``, every engine; only
  in ``qgs`` mode, so the baseline workers do not import SQLAlchemy).

The counters live in a file the bench names (``BENCH_PROBE_FILE``), mapped shared by the worker
and its children: the bench reads them from the file (``read_counters``) and the worker does
nothing to answer. A reset is the bench writing the time of its reset into the file (``SINCE``):
a job starting after it restarts the window, and the bench subtracts the counts it saw then.
(Answering a remote-control query 20 times a second took ~8% of a QGS worker's GIL time at 16
concurrent reviews, a load the bench put on the worker it measured; ``py-spy --gil``.) Without
the variable the counters stay in the worker's memory and the ``bench_probe`` remote-control
command answers (the older trees ``--before`` runs). Nothing is written per job: an increment
under a lock (about a microsecond) is all a job pays, on the baseline and the pipeline alike.
"""

from __future__ import annotations

import ctypes
import mmap
import multiprocessing
import os
import struct
import sys
import time
from multiprocessing.sharedctypes import RawArray
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing the package

JOB_NAMES = (
    "qgs.review.intake",
    "qgs.review.critic",
    "qgs.review.discriminate",
    "qgs.review.decide",
    "qgs.toolgate.log",
    "qgs.audit.chunk",
    "bench.noop",
    "bench.noop_chain",
    "bench.bare_review",
    "bench.noop_chunk",
    "bench.detect_chunk",
)
"""The jobs counted by name; any other job counts as ``other``."""

_OTHER = len(JOB_NAMES)
_FIRST_START, _LAST_END, _SQL, SINCE = _OTHER + 1, _OTHER + 2, _OTHER + 3, _OTHER + 4
_SLOTS = _OTHER + 5
PROBE_FILE_ENV = "BENCH_PROBE_FILE"
"""The file of the shared counters (``_SLOTS`` native doubles), named by the bench."""


class Probe:
    """Counters shared by a worker and its prefork children (doubles in one shared array)."""

    def __init__(self) -> None:
        path = os.environ.get(PROBE_FILE_ENV)
        if path:
            with open(path, "w+b") as stream:
                stream.write(bytes(8 * _SLOTS))
                stream.flush()
                self._map = mmap.mmap(stream.fileno(), 8 * _SLOTS)  # shared, kept by forks
            self._values = (ctypes.c_double * _SLOTS).from_buffer(self._map)
        else:
            self._values = RawArray("d", _SLOTS)
        self._lock = multiprocessing.Lock()
        self._index = {name: i for i, name in enumerate(JOB_NAMES)}

    def started(self) -> None:
        now = time.time()
        with self._lock:
            if self._values[_FIRST_START] <= self._values[SINCE]:  # the first since a reset
                self._values[_FIRST_START] = now

    def ended(self, name: str) -> None:
        now = time.time()
        with self._lock:
            self._values[self._index.get(name, _OTHER)] += 1
            self._values[_LAST_END] = max(self._values[_LAST_END], now)

    def statement(self) -> None:
        with self._lock:
            self._values[_SQL] += 1

    def snapshot(self, reset: bool) -> dict[str, Any]:
        """The counters since the last reset: ``jobs`` by name, ``sql``, ``first_start``, ``last_end``."""
        with self._lock:
            values = list(self._values)
            if reset:
                for i in range(_SLOTS):
                    self._values[i] = 0.0
        return snapshot_of(values)


def snapshot_of(
    values: list[float], baseline: list[float] | None = None, since: float = 0.0
) -> dict[str, Any]:
    """A probe snapshot from counters: the jobs and statements since ``baseline`` (the counts at
    the last reset), the first start and last end after ``since`` (0.0: none since)."""
    counts = [v - b for v, b in zip(values, baseline or [0.0] * _SLOTS, strict=True)]
    return {
        "jobs": counts_of(counts),
        "sql": int(counts[_SQL]),
        "first_start": values[_FIRST_START] if values[_FIRST_START] > since else 0.0,
        "last_end": values[_LAST_END] if values[_LAST_END] > since else 0.0,
    }


def read_counters(path: str) -> list[float]:
    """The counters in a probe file, as the worker last wrote them (no lock: the bench only reads)."""
    with open(path, "rb") as stream:
        return list(struct.unpack(f"{_SLOTS}d", stream.read(8 * _SLOTS)))


def write_since(path: str, since: float) -> None:
    """Reset the window of a probe file: jobs starting after ``since`` (``time.time()``) count."""
    with open(path, "r+b") as stream:
        stream.seek(8 * SINCE)
        stream.write(struct.pack("d", since))


def counts_of(values: list[float]) -> dict[str, int]:
    """The job counts by name of a counters list (``read_counters``)."""
    jobs = {name: int(values[i]) for i, name in enumerate(JOB_NAMES) if values[i]}
    if values[_OTHER]:
        jobs["other"] = int(values[_OTHER])
    return jobs


def install(count_sql: bool) -> Probe:
    """Connect the probe to Celery's signals (and SQLAlchemy's), and register ``bench_probe``."""
    from celery.signals import task_postrun, task_prerun
    from celery.worker.control import inspect_command

    probe = Probe()

    def on_prerun(**_: Any) -> None:
        probe.started()

    def on_postrun(sender: Any = None, **_: Any) -> None:
        probe.ended(getattr(sender, "name", "") or "")

    task_prerun.connect(on_prerun, weak=False)
    task_postrun.connect(on_postrun, weak=False)

    @inspect_command(name="bench_probe", args=[("reset", bool)])  # type: ignore[untyped-decorator]
    def bench_probe(state: Any, reset: bool = False) -> dict[str, Any]:
        del state
        return probe.snapshot(bool(reset))

    if count_sql:
        from sqlalchemy import event
        from sqlalchemy.engine import Engine

        def on_statement(*_: Any, **__: Any) -> None:
            probe.statement()

        event.listen(Engine, "before_cursor_execute", on_statement)
    return probe


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("qgs", "baseline"):
        print(__doc__, file=sys.stderr)
        return 2
    if argv[0] == "qgs":
        install(count_sql=True)
        from qgs_worker.cli import main as qgs_main

        sys.argv = ["qgs", *argv[1:]]
        qgs_main()
        return 0
    install(count_sql=False)
    from bench.baseline_apps import run_baseline_worker

    run_baseline_worker(argv[1:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
