"""A worker's idle memory with the console's code and without it (issue 33's "worker unchanged").

    PYTHONPATH=. .venv/bin/python bench/console_worker_rss.py launch [--without-console] worker ...

The console lives in ``qgs serve``; a worker shares only the decision notice the long-polls
already use. What the console put into a worker's process is its store reads:
``store.console_views`` (a part of ``Repository``) and ``service.console_model``. So the
baseline is the same ``qgs worker`` command, on the same broker and store, with those modules
left out: ``launch --without-console`` runs ``qgs`` with an empty ``ConsoleViewStore`` in place
of ``store/console_views.py`` and the console's other modules (``api.console``,
``api.operator_views``, ``service.console_model``, jinja2) made unimportable, so a worker that
needed any of them fails to start there and the bench says so.

``worker_rss(settings, pairs)`` (``console_bench.py`` calls it after its latency phases, with
no console open) starts the two workers in turn, A B then B A (so drift hits both alike), each
a real subprocess stopped by its PID; idle RSS is the median of samples taken every 0.2 s for
``SETTLE_S`` after the worker says it is ready (Celery's ``worker_ready``). Reported as MB and
as the ratio with / without, never asserted.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parents[1]

if TYPE_CHECKING:
    from qgs_worker.config.settings import Settings

READY_TIMEOUT_S = 60.0
"""A worker that has not said it is ready after this many seconds aborts the bench."""
SETTLE_S = 2.0
"""How long the idle RSS is sampled after the worker is ready, in seconds."""
STOP_TIMEOUT_S = 20.0
STUBBED = "qgs_worker.store.console_views"
BLOCKED = (
    "qgs_worker.api.console",
    "qgs_worker.api.operator_views",
    "qgs_worker.service.console_model",
    "jinja2",
)
"""Modules a worker without the console cannot import (and their submodules)."""
CONSOLE_MODULES = (STUBBED, *BLOCKED)


class _WithoutConsole(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """An import hook: ``STUBBED`` becomes an empty store part, ``BLOCKED`` fails to import."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        del path, target
        if fullname == STUBBED:
            return importlib.machinery.ModuleSpec(fullname, self)
        if any(fullname == b or fullname.startswith(b + ".") for b in BLOCKED):
            raise ModuleNotFoundError(f"{fullname} is left out of this worker (the baseline)")
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        from qgs_worker.store.recovery import RecoveryStore

        class ConsoleViewStore(RecoveryStore):
            """The store's console part, empty."""

        module.ConsoleViewStore = ConsoleViewStore  # type: ignore[attr-defined]
        module.__all__ = ["ConsoleViewStore"]  # type: ignore[attr-defined]


def launch(argv: list[str]) -> None:
    """Run ``qgs ARGV`` (``--without-console`` first: the baseline); write the ready file.

    The ready file (``BENCH_READY_FILE``) receives, once the worker is ready, the console
    modules the process has loaded (JSON list).
    """
    if argv[:1] == ["--without-console"]:
        sys.meta_path.insert(0, _WithoutConsole())
        argv = argv[1:]
    sys.path.insert(0, str(ROOT))
    from celery.signals import worker_ready

    def ready(**_: object) -> None:
        loaded = [m for m in CONSOLE_MODULES if m in sys.modules]
        Path(os.environ["BENCH_READY_FILE"]).write_text(json.dumps(loaded), encoding="utf-8")

    worker_ready.connect(ready, weak=False)
    from qgs_worker.cli import main as qgs_main

    sys.argv = ["qgs", *argv]
    qgs_main()


def _idle_rss(settings: Settings, without: bool, folder: Path) -> tuple[float, list[str]]:
    """Start one worker, sample its idle RSS (MB), stop it: the median and its console modules."""
    import psutil

    ready = folder / f"ready-{time.monotonic_ns()}.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("QGS_")}
    env |= {
        "PYTHONPATH": str(ROOT),
        "BENCH_READY_FILE": str(ready),
        "QGS_BROKER_URL": settings.broker_url or "",
        "QGS_DATABASE_URL": settings.resolved_database_url,
        "QGS_DATA_DIR": str(settings.data_dir),
        "QGS_JUDGE__KIND": "rules",
    }
    command = [
        sys.executable, str(Path(__file__).resolve()), "launch",
        *(["--without-console"] if without else []),
        "worker", "--queues", "all", "--pool", "threads", "--concurrency", "2",
        "--loglevel", "WARNING", "--name", f"rss-{'without' if without else 'with'}@%h",
    ]  # fmt: skip
    log = folder / "worker.log"
    with log.open("ab") as out:
        proc = subprocess.Popen(
            command, env=env, cwd=folder, stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while not ready.exists():
            if proc.poll() is not None or time.monotonic() > deadline:
                tail = log.read_text(errors="replace")[-2000:]
                sys.exit(f"the {'baseline ' if without else ''}worker did not start:\n{tail}")
            time.sleep(0.05)
        loaded: list[str] = json.loads(ready.read_text(encoding="utf-8") or "[]")
        samples = []
        end = time.monotonic() + SETTLE_S
        while time.monotonic() < end:
            samples.append(psutil.Process(proc.pid).memory_info().rss / 2**20)
            time.sleep(0.2)
        return statistics.median(samples), loaded
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def worker_rss(settings: Settings, pairs: int) -> None:
    """Print the idle RSS of a worker with the console's code and without it, and their ratio."""
    folder = Path(tempfile.mkdtemp(prefix="qgs-console-rss-"))
    with_mb: list[float] = []
    without_mb: list[float] = []
    loaded: dict[bool, list[str]] = {}
    try:
        for i in range(pairs):
            for without in (False, True) if i % 2 == 0 else (True, False):
                mb, loaded[without] = _idle_rss(settings, without, folder)
                (without_mb if without else with_mb).append(mb)
    finally:
        with contextlib.suppress(OSError):
            for f in folder.iterdir():
                f.unlink()
            folder.rmdir()
    a, b = statistics.median(with_mb), statistics.median(without_mb)
    print(
        f"worker idle RSS (threads -c 2, {pairs} pair(s), no console open): with the console's "
        f"code {a:.1f} MB, without it {b:.1f} MB; console modules loaded: with "
        f"{', '.join(loaded[False]) or 'none'}; without {', '.join(loaded[True]) or 'none'} "
        f"({STUBBED} an empty stub there)"
    )
    print(f"ratio worker idle RSS with / without the console = {a / b:.3f}")


if __name__ == "__main__":
    if sys.argv[1:2] != ["launch"]:
        sys.exit(__doc__)
    launch(sys.argv[2:])
