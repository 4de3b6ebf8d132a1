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

The bench reads and resets the counters with the ``bench_probe`` remote-control command
(``app.control.broadcast("bench_probe", arguments={"reset": True}, reply=True)``), answered by
the worker's main process. Nothing is written per job: an increment under a lock (about a
microsecond) is all a job pays, on the baseline and the pipeline alike.
"""

from __future__ import annotations

import multiprocessing
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
_FIRST_START, _LAST_END, _SQL = _OTHER + 1, _OTHER + 2, _OTHER + 3
_SLOTS = _OTHER + 4


class Probe:
    """Counters shared by a worker and its prefork children (doubles in one shared array)."""

    def __init__(self) -> None:
        self._values = RawArray("d", _SLOTS)
        self._lock = multiprocessing.Lock()
        self._index = {name: i for i, name in enumerate(JOB_NAMES)}

    def started(self) -> None:
        now = time.time()
        with self._lock:
            if self._values[_FIRST_START] == 0.0:
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
        jobs = {name: int(values[i]) for i, name in enumerate(JOB_NAMES) if values[i]}
        if values[_OTHER]:
            jobs["other"] = int(values[_OTHER])
        return {
            "jobs": jobs,
            "sql": int(values[_SQL]),
            "first_start": values[_FIRST_START],
            "last_end": values[_LAST_END],
        }


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
