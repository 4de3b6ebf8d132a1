"""Worker subprocesses for the benches, and the timed batch every scenario runs through.

A batch is **pre-loaded**: the worker's consumers are cancelled (``cancel_consumer`` on its
three queues), everything is published, then the consumers are added back, and the batch is
timed **from the worker's side**: from the first job's start to the last job's end, as the
probe (``bench/worker_probe.py``) saw them. So neither the baseline nor the pipeline measures
the publisher (the client's submit, with its store writes, or a loop of ``send_task``).

Every worker is a real subprocess started here and stopped by its PID (SIGTERM, then SIGKILL
after 20 s); only it and its children are ever signalled.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import redis
from celery import Celery

from qgs_worker.queue.celery_app import QUEUES

BENCH = Path(__file__).resolve().parent
POLL_S = 0.05
"""How often the bench asks a worker's probe how far a batch is, in seconds."""
BATCH_TIMEOUT_S = 240.0
"""A batch that has not finished after this many seconds aborts the bench (a hung worker)."""
READY_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 20.0


@dataclass
class Worker:
    """A worker subprocess started here, its Celery node name and an app to talk to it."""

    label: str
    pool: str
    concurrency: int
    proc: subprocess.Popen[bytes]
    log_path: Path
    app: Celery
    node: str = ""
    idle_rss_mb: float = 0.0
    peak_rss_mb: float = 0.0
    after: tuple[float, float, int] = (0.0, 0.0, 0)
    """(RSS, PSS, processes) after the runs, in MB (``memory_mb`` before the worker stopped)."""
    probe_file: Path | None = None
    """The probe's counters file (``worker_probe.PROBE_FILE_ENV``); None or absent: ask it."""
    _baseline: list[float] | None = None
    _since: float = 0.0

    def tree(self) -> list[psutil.Process]:
        try:
            parent = psutil.Process(self.proc.pid)
            return [parent, *parent.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def memory_mb(self) -> tuple[float, float, int]:
        """(RSS, PSS, process count) of the worker and its children, in MB."""
        rss = pss = 0.0
        procs = self.tree()
        for p in procs:
            with contextlib.suppress(psutil.Error):
                info = p.memory_full_info()
                rss += info.rss
                pss += getattr(info, "pss", info.rss)
        return rss / 2**20, pss / 2**20, len(procs)

    def rss_mb(self) -> float:
        """RSS of the worker and its children, in MB (cheaper than ``memory_mb``)."""
        total = 0
        for p in self.tree():
            with contextlib.suppress(psutil.Error):
                total += p.memory_info().rss
        return total / 2**20

    def cpu_s(self) -> float:
        """User + system CPU seconds used so far by the worker and its live children."""
        total = 0.0
        for p in self.tree():
            with contextlib.suppress(psutil.Error):
                t = p.cpu_times()
                total += t.user + t.system
        return total

    def check_alive(self) -> None:
        if self.proc.poll() is not None:
            tail = self.log_path.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"worker {self.label} exited ({self.proc.returncode}):\n{tail}")

    def probe(self, reset: bool = False) -> dict[str, Any]:
        """The worker's probe counters since the last reset (``worker_probe.Probe.snapshot``).

        Read from the probe's file when the worker's probe keeps one (nothing asked of the
        worker), else asked with the ``bench_probe`` remote-control command (an older tree's).
        """
        if self.probe_file is not None and self.probe_file.exists():
            return self._read_probe(str(self.probe_file), reset)
        replies = self.app.control.broadcast(
            "bench_probe", arguments={"reset": reset}, reply=True, destination=[self.node],
            timeout=5.0, limit=1,
        )  # fmt: skip
        for reply in replies or ():
            if self.node in reply:
                result: dict[str, Any] = reply[self.node]
                return result
        self.check_alive()
        raise RuntimeError(f"worker {self.label} did not answer the probe")

    def _read_probe(self, path: str, reset: bool) -> dict[str, Any]:
        from bench import worker_probe as wp

        values = wp.read_counters(path)
        snap = wp.snapshot_of(values, self._baseline, self._since)
        if reset:
            self._baseline, self._since = values, time.time()
            wp.write_since(path, self._since)
        return snap

    def consume(self, on: bool) -> None:
        """Cancel (``on=False``) or add back the worker's consumers of the three QGS queues."""
        for queue in QUEUES:
            if on:
                self.app.control.add_consumer(queue, destination=[self.node], reply=True)
            else:
                self.app.control.cancel_consumer(queue, destination=[self.node], reply=True)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def clean_env(**extra: str) -> dict[str, str]:
    """The bench's environment without any ``QGS_`` setting, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("QGS_")}
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(BENCH.parent), os.environ.get("PYTHONPATH", "")) if p
    )
    env.update(extra)
    return env


def qgs_command(pool: str, concurrency: int, name: str, tree: Path | None = None) -> list[str]:
    """``qgs worker`` on every queue, with the probe installed (``tree``: another checkout's)."""
    return [
        sys.executable, str((tree / "bench" if tree else BENCH) / "worker_probe.py"), "qgs", "worker",
        "--queues", "all", "--pool", pool, "--concurrency", str(concurrency),
        "--name", f"{name}@%h", "--loglevel", "WARNING",
    ]  # fmt: skip


def baseline_command(pool: str, concurrency: int, name: str) -> list[str]:
    """A baseline worker (``bench/baseline_apps.py``) with the probe installed."""
    return [
        sys.executable, str(BENCH / "worker_probe.py"), "baseline",
        "--pool", pool, "--concurrency", str(concurrency), "--name", name,
    ]  # fmt: skip


def start_worker(
    label: str,
    command: list[str],
    env: dict[str, str],
    workdir: Path,
    app: Celery,
    pool: str,
    concurrency: int,
) -> Worker:
    """Start a worker subprocess, wait until it answers a ping, and record its idle memory."""
    stem = label.replace(" ", "_").replace("/", "_")
    log_path = workdir / f"{stem}.log"
    probe_file = workdir / f"{stem}.probe"
    env = {**env, "BENCH_PROBE_FILE": str(probe_file)}
    with log_path.open("ab") as log:
        proc = subprocess.Popen(
            command,
            env=env,
            cwd=workdir,  # no stray .env or .qgs folder from the checkout
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    worker = Worker(label, pool, concurrency, proc, log_path, app, probe_file=probe_file)
    deadline = time.monotonic() + READY_TIMEOUT_S
    while True:
        replies = app.control.ping(timeout=0.3)
        if replies:
            worker.node = next(iter(replies[0]))
            break
        worker.check_alive()
        if time.monotonic() > deadline:
            worker.stop()
            raise RuntimeError(f"worker {label} did not answer a ping in {READY_TIMEOUT_S:g} s")
    worker.idle_rss_mb = worker.memory_mb()[0]
    return worker


# -- one timed batch -------------------------------------------------------------------------


@dataclass
class Run:
    """One timed batch, as the worker's probe saw it."""

    rounds: int
    jobs: int
    window_s: float
    cpu_s: float
    sql: int = 0
    client_sql: int = 0
    redis_cmds: int = 0
    errors: int = 0
    load1: float = 0.0
    by_job: dict[str, int] = field(default_factory=dict)

    @property
    def rounds_per_s(self) -> float:
        return self.rounds / self.window_s

    @property
    def jobs_per_s(self) -> float:
        return self.jobs / self.window_s

    def per_round(self, value: float) -> float:
        return value / self.rounds


def redis_calls(r: redis.Redis) -> int:
    """Commands the Redis server has run so far (``INFO commandstats``: the whole server)."""
    stats = r.info("commandstats")
    return sum(int(v["calls"]) for v in stats.values() if isinstance(v, dict))


def timed_batch(
    worker: Worker,
    publish: Callable[[], None],
    finished: Callable[[dict[str, int]], bool],
    rounds: int,
    server: redis.Redis,
    client_sql: Callable[[], int] = lambda: 0,
) -> Run:
    """Pre-load a batch (publish with the consumers off), run it, and time it from the worker.

    Args:
        worker: The worker that runs the batch.
        publish: Sends the batch (called while the worker consumes nothing).
        finished: Given the probe's job counts by name, whether the batch is done.
        rounds: How many rounds (or baseline units) the batch holds, for the per-round figures.
        server: The Redis server, for the command count (``INFO commandstats``).
        client_sql: The bench process's SQL statement count so far (its listener).

    Raises:
        RuntimeError: the worker died, or the batch took over ``BATCH_TIMEOUT_S``.
    """
    worker.consume(False)
    worker.probe(reset=True)
    calls0, sql0 = redis_calls(server), client_sql()
    publish()
    client = client_sql() - sql0
    cpu0 = worker.cpu_s()
    worker.consume(True)
    deadline = time.monotonic() + BATCH_TIMEOUT_S
    peak = 0.0
    while True:
        time.sleep(POLL_S)
        peak = max(peak, worker.rss_mb())
        snap = worker.probe()
        if finished(snap["jobs"]):
            break
        worker.check_alive()
        if time.monotonic() > deadline:
            raise RuntimeError(
                f"{worker.label}: batch not done after {BATCH_TIMEOUT_S:g} s: {snap}"
            )
    # The last job's end was stamped when it returned; a later look changes nothing of it.
    time.sleep(POLL_S)
    snap = worker.probe(reset=True)
    cpu = worker.cpu_s() - cpu0
    worker.peak_rss_mb = max(worker.peak_rss_mb, peak)
    return Run(
        rounds=rounds,
        jobs=sum(snap["jobs"].values()),
        window_s=max(1e-6, snap["last_end"] - snap["first_start"]),
        cpu_s=cpu,
        sql=snap["sql"],
        client_sql=client,
        redis_cmds=redis_calls(server) - calls0,
        load1=os.getloadavg()[0],
        by_job=dict(snap["jobs"]),
    )


# -- Redis -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def private_redis() -> Iterator[str]:
    """A ``redis-server`` of the bench's own on a free loopback port (no persistence): its URL.

    Raises:
        RuntimeError: no ``redis-server`` on the PATH, or it did not answer within 10 s.
    """
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("--private-redis needs redis-server on the PATH")
    folder = Path(tempfile.mkdtemp(prefix="qgs-bench-redis-"))
    port = free_port()
    argv = [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "",
            "--appendonly", "no", "--dir", str(folder)]  # fmt: skip
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        client = redis.Redis(port=port, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.RedisError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("the private redis-server did not start") from None
                time.sleep(0.05)
        client.close()
        yield f"redis://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def redis_db(server_url: str, db: int) -> Iterator[tuple[str, redis.Redis]]:
    """Db ``db`` of the server, flushed before and after: its URL and a client."""
    url = f"{server_url}/{db}"
    r = redis.Redis.from_url(url)
    r.flushdb()
    try:
        yield url, r
    finally:
        r.flushdb()
        r.close()
