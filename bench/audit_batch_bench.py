"""``qgs audit`` at scale: transcripts/s against the detectors alone and a no-op, chunked alike.

    PYTHONPATH=. .venv/bin/python bench/audit_batch_bench.py [--quick] [--size 10000]
        [--rss-sizes 1000,5000,10000] [--reps 2] [--chunk 100] [--concurrency 4]

Workload: ``bench/transcript_corpus.py``'s real-shaped transcripts (the shared corpus's and
``tasks/``'s agent runs, every copy with content of its own), in JSONL files of 500.

Three scenarios on the same broker (a private ``redis-server``), each with one worker
subprocess started the same way (``--pool threads --concurrency N --queues all``, the probe of
``bench/worker_probe.py`` installed), taken in turns within each repetition:

- **no-op, chunked**: the bench reads the files (the same readers as ``qgs audit``) and sends
  the transcripts' rounds 100 a message to a job that does nothing (``bench.noop_chunk``);
- **detectors alone, chunked**: the same messages to a job that runs the deterministic
  detectors over every round (``bench.detect_chunk``: ``round_scan.scan_round``, as intake does);
- **qgs audit**: the real command (``qgs audit FOLDER --no-worker --format json``, a
  subprocess) against a ``qgs worker``, the rules judge, a fresh SQLite store: classification,
  detectors, the critic where due, the audit roles on final rounds, the gate, every row stored.

Each is timed from the moment the reading starts (the bench's, or the command's launch) to the
end of the worker's last job (the probe's clock; the same machine): transcripts/s. The
headline is ``qgs audit`` ÷ detectors alone (target >= 0.5) and ÷ no-op. ``qgs audit`` also
runs with ``--chunk-size 0`` (a job a round, the per-round path) on the smallest size, for
the before/after. Then, each on a fresh worker and store, ``qgs audit`` of each ``--rss-sizes``
size: the worker's peak RSS (sampled every 0.2 s) against its idle RSS, the client's peak RSS;
and ``qgs report --format html`` of the largest store: its time and the page's size.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psutil

from bench.baseline_apps import baseline_app
from bench.transcript_corpus import generate
from bench.workers import (
    Worker,
    baseline_command,
    clean_env,
    private_redis,
    qgs_command,
    redis_db,
    start_worker,
)
from qgs_worker.config.settings import Settings
from qgs_worker.queue.celery_app import create_celery_app
from qgs_worker.transcripts import TranscriptTask, iter_paths, read_transcripts

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT_S = 3600.0


@dataclass
class Result:
    """One timed scenario: transcripts, seconds from the start of reading to the last job's end."""

    scenario: str
    transcripts: int
    seconds: float
    load1: float
    peak_rss_mb: float = 0.0
    idle_rss_mb: float = 0.0
    client_rss_mb: float = 0.0
    command_s: float = 0.0

    @property
    def rate(self) -> float:
        return self.transcripts / self.seconds


class RssSampler:
    """The peak RSS of a process tree, sampled every ``every_s`` seconds in a thread."""

    def __init__(self, tree: Callable[[], list[psutil.Process]], every_s: float = 0.2) -> None:
        self._tree, self._every_s, self.peak_mb = tree, every_s, 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            total = 0
            for p in self._tree():
                with contextlib.suppress(psutil.Error):
                    total += p.memory_info().rss
            self.peak_mb = max(self.peak_mb, total / 2**20)
            self._stop.wait(self._every_s)

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


def payloads(folder: Path, chunk: int) -> Iterator[list[dict[str, Any]]]:
    """The transcripts of ``folder`` read as ``qgs audit`` reads them, ``chunk`` to a message."""
    batch: list[dict[str, Any]] = []
    for path in iter_paths([folder]):
        for item in read_transcripts(path):
            if not isinstance(item, TranscriptTask):
                continue
            rounds = [d.model_dump(mode="json") for d in item.rounds]
            batch.append({"request": item.request, "rounds": rounds})
            if len(batch) == chunk:
                yield batch
                batch = []
    if batch:
        yield batch


def wait_jobs(worker: Worker, name: str, count: int) -> dict[str, Any]:
    """Wait until the worker's probe counted ``count`` jobs ``name``; its snapshot."""
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        snap = worker.probe()
        if snap["jobs"].get(name, 0) >= count:
            return snap
        worker.check_alive()
        if time.monotonic() > deadline:
            raise RuntimeError(f"{worker.label}: {count} {name} jobs not done: {snap}")
        time.sleep(0.2)


def baseline(
    label: str, job: str, folder: Path, n: int, redis_url: str, work: Path, args: Any
) -> Result:
    """A chunked baseline: read and send in this process, the jobs in a baseline worker."""
    app = baseline_app(redis_url)
    env = clean_env(QGS_BROKER_URL=redis_url)
    cmd = baseline_command("threads", args.concurrency, f"bench-{job.split('.')[-1]}")
    worker = start_worker(label, cmd, env, work, app, "threads", args.concurrency)
    try:
        worker.probe(reset=True)
        started = time.time()
        sent = 0
        with RssSampler(worker.tree) as rss:
            for batch in payloads(folder, args.chunk):
                app.send_task(job, args=[batch])
                sent += 1
            snap = wait_jobs(worker, job, sent)
        return Result(label, n, snap["last_end"] - started, os.getloadavg()[0], rss.peak_mb,
                      worker.idle_rss_mb)  # fmt: skip
    finally:
        worker.stop()


def qgs_audit(
    label: str, folder: Path, n: int, redis_url: str, work: Path, args: Any, chunk_size: int
) -> tuple[Result, Path]:
    """``qgs audit`` (a subprocess) against a ``qgs worker``, on a fresh SQLite store."""
    store = Path(tempfile.mkdtemp(prefix="qgs-audit-bench-", dir=work))
    env = clean_env(
        QGS_BROKER_URL=redis_url,
        QGS_DATABASE_URL=f"sqlite:///{store / 'qgs.db'}",
        QGS_DATA_DIR=str(store / ".qgs"),
    )
    app = create_celery_app(Settings(broker_url=redis_url))
    cmd = qgs_command("threads", args.concurrency, f"bench-qgs-{chunk_size}")
    worker = start_worker(label, cmd, env, store, app, "threads", args.concurrency)
    try:
        worker.probe(reset=True)
        started = time.time()
        audit = [sys.executable, "-m", "qgs_worker.cli", "audit", str(folder), "--no-worker",
                 "--format", "json", "--timeout-s", str(TIMEOUT_S), "--chunk-size", str(chunk_size)]  # fmt: skip
        with RssSampler(worker.tree) as rss, (store / "audit.log").open("wb") as log:
            proc = subprocess.Popen(audit, env=env, cwd=store, stdout=subprocess.DEVNULL,
                                    stderr=log)  # fmt: skip
            client = psutil.Process(proc.pid)
            with RssSampler(lambda: [client]) as client_rss:
                code = proc.wait(TIMEOUT_S)
        ended = time.time()
        if code != 0:
            tail = (store / "audit.log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"qgs audit exited {code}:\n{tail}")
        snap = worker.probe()
        result = Result(label, n, snap["last_end"] - started, os.getloadavg()[0], rss.peak_mb,
                        worker.idle_rss_mb, client_rss.peak_mb, ended - started)  # fmt: skip
        return result, store
    finally:
        worker.stop()


def html_report(store: Path, n: int) -> tuple[float, float]:
    """``qgs report --format html`` of a store: seconds, and the page's size in MB."""
    env = clean_env(QGS_DATABASE_URL=f"sqlite:///{store / 'qgs.db'}",
                    QGS_DATA_DIR=str(store / ".qgs"))  # fmt: skip
    page = store / "audit.html"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "qgs_worker.cli", "report", "--format", "html", "-o",
                    str(page)], env=env, cwd=store, check=True, stdout=subprocess.DEVNULL)  # fmt: skip
    return time.perf_counter() - started, page.stat().st_size / 1e6


def spread(values: list[float], fmt: str = ".1f") -> str:
    if len(values) == 1:
        return format(values[0], fmt)
    return f"{statistics.median(values):{fmt}} ({min(values):{fmt}}-{max(values):{fmt}})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, one repetition")
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--rss-sizes", default="1000,5000,10000")
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument(
        "--per-round-size",
        type=int,
        default=1000,
        help="transcripts for the per-round path's line (--chunk-size 0)",
    )
    args = parser.parse_args()
    if args.quick:
        args.size, args.rss_sizes, args.reps, args.per_round_size = 100, "40,100", 1, 30
    rss_sizes = [int(s) for s in args.rss_sizes.split(",") if s]
    work = Path(tempfile.mkdtemp(prefix="qgs-batch-bench-"))
    try:
        run(args, rss_sizes, work)
    finally:  # ~1 GB of transcripts and stores at the default sizes
        shutil.rmtree(work, ignore_errors=True)


def run(args: Any, rss_sizes: list[int], work: Path) -> None:
    """Generate, run every scenario, print the tables and the ratio lines."""
    folders: dict[int, Path] = {}
    for n in sorted({args.size, args.per_round_size, *rss_sizes}):
        count, size = generate(work / f"tx{n}", n)
        folders[n] = work / f"tx{n}"
        print(f"generated {count} transcripts, {size / 1e6:.1f} MB ({work / f'tx{n}'})")
    results: dict[str, list[Result]] = {}
    with private_redis() as server:
        for rep in range(args.reps):
            for db, (label, run) in enumerate([
                ("no-op, chunked", lambda url: baseline("no-op, chunked", "bench.noop_chunk",
                    folders[args.size], args.size, url, work, args)),
                ("detectors alone, chunked", lambda url: baseline("detectors alone, chunked",
                    "bench.detect_chunk", folders[args.size], args.size, url, work, args)),
                ("qgs audit", lambda url: qgs_audit("qgs audit", folders[args.size], args.size,
                    url, work, args, args.chunk)[0]),
            ]):  # fmt: skip
                with redis_db(server, db) as (url, _):
                    result = run(url)
                results.setdefault(label, []).append(result)
                print(f"rep {rep + 1}: {label}: {result.rate:.1f} transcripts/s "
                      f"({result.seconds:.1f} s, load {result.load1:.2f})", flush=True)  # fmt: skip
        with redis_db(server, 3) as (url, _):
            per_round, _ = qgs_audit("qgs audit, a job a round", folders[args.per_round_size],
                                     args.per_round_size, url, work, args, 0)  # fmt: skip
        scale: list[tuple[Result, Path]] = []
        for db, n in enumerate(rss_sizes, start=4):
            with redis_db(server, db) as (url, _):
                scale.append(qgs_audit(f"qgs audit {n}", folders[n], n, url, work, args,
                                       args.chunk))  # fmt: skip
    print(f"\n`qgs audit` of {args.size} transcripts, threads -c {args.concurrency}, chunks of "
          f"{args.chunk}, rules judge; median (min-max) of {args.reps}:")  # fmt: skip
    print("| scenario | transcripts/s | seconds | ÷ detectors alone | ÷ no-op | load 1 min |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    det = results["detectors alone, chunked"]
    noop = results["no-op, chunked"]
    for label, runs in results.items():
        vs_det = [r.rate / d.rate for r, d in zip(runs, det, strict=True)]
        vs_noop = [r.rate / o.rate for r, o in zip(runs, noop, strict=True)]
        print(f"| {label} | {spread([r.rate for r in runs])} | {spread([r.seconds for r in runs])}"
              f" | {spread(vs_det, '.3f')} | {spread(vs_noop, '.4f')}"
              f" | {spread([r.load1 for r in runs], '.2f')} |")  # fmt: skip
    print(f"| qgs audit, a job a round ({args.per_round_size}) | {per_round.rate:.1f} | "
          f"{per_round.seconds:.1f} | {per_round.rate / statistics.median(r.rate for r in det):.3f}"
          f" | - | {per_round.load1:.2f} |")  # fmt: skip
    print("\n| transcripts | worker idle RSS | worker peak RSS | client peak RSS | seconds |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for r, _ in scale:
        print(f"| {r.transcripts} | {r.idle_rss_mb:.0f} MB | {r.peak_rss_mb:.0f} MB | "
              f"{r.client_rss_mb:.0f} MB | {r.seconds:.1f} |")  # fmt: skip
    peaks = [r.peak_rss_mb for r, _ in scale]
    html_s, html_mb = html_report(scale[-1][1], scale[-1][0].transcripts)
    print(f"\n`qgs report --format html` of {scale[-1][0].transcripts} tasks: {html_s:.1f} s, "
          f"{html_mb:.1f} MB page")  # fmt: skip
    ratio = statistics.median(r.rate / d.rate for r, d in
                              zip(results["qgs audit"], det, strict=True))  # fmt: skip
    print(f"ratio qgs audit / detectors alone (transcripts/s) = {ratio:.3f}")
    print(f"ratio worker peak RSS {rss_sizes[-1]} / {rss_sizes[0]} transcripts = "
          f"{peaks[-1] / peaks[0]:.3f}")  # fmt: skip
    print(json.dumps({"ratio": ratio, "rss_ratio": peaks[-1] / peaks[0]}))


if __name__ == "__main__":
    main()
