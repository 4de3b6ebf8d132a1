"""Throughput and memory of the review pipeline, as ratios against baselines run side by side.

Usage: .venv/bin/python bench/pipeline_bench.py [--tasks 200] [--tasks-2r 100] [--reps 3]
       [--pool-batch 40] [--judge-latency-s 0.2] [--skip-pools]

Needs Redis on 127.0.0.1:6379 (``QGS_BENCH_REDIS_URL`` to change; db 13, 14 and 15 are used
and flushed before and after). Every worker is a real subprocess, started the way ``qgs worker``
starts it, and stopped by its PID at the end (SIGTERM, then SIGKILL after 20 s).

1. Throughput with a zero-latency judge (the offline ``rules`` judge, and the loopback
   ``FakeOpenAIServer`` answering at once through the openai client): GENERATE tasks submitted
   through ``qgs_worker.client.Client``, timed from the first submit until every decision is in
   the SQLite store. A task with one final round costs 3 jobs (intake, critic, decide); one with
   two rounds costs 5 (intake, decide; intake, critic, decide). The baseline is a no-op Celery
   job with the same configuration, pool, concurrency and queues, in its own worker process:
   the same number of jobs sent by the client ("flat"), and the pipeline's own shape (one job
   sent, which chains two more: "chain"). Repetitions alternate baseline and pipeline, and each
   ratio is taken within one repetition; the table shows medians (and the range).
2. Worker memory: RSS of the worker process and its children (``/proc/PID/status`` VmRSS via
   psutil) idle (ready, before any job) and after the runs; PSS too, which counts the pages
   prefork children share with their parent once.
3. Pools for I/O-bound critic jobs: the loopback judge answers after a fixed latency; the same
   batch of final rounds runs on ``threads -c 8``, ``prefork -c 8`` and ``solo``.

Nothing here asserts a time: the figures are printed, for the README and for regressions.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing the package

import psutil  # noqa: E402
import redis  # noqa: E402
from celery import Celery, chain  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

# Only what the no-op worker needs is imported here (it runs this file): the bench side imports
# the client, the store and the loopback judge where it uses them, so the no-op worker's memory
# is Celery's plus QGS's settings, not SQLModel's.
from qgs_worker.celery_app import CRITIC_QUEUE, DEFAULT_QUEUE, QUEUES, celery_config  # noqa: E402
from qgs_worker.settings import Settings  # noqa: E402

if TYPE_CHECKING:
    from qgs_worker.client import Client
    from tests.fake_openai import FakeOpenAIServer

REDIS_URL = os.environ.get("QGS_BENCH_REDIS_URL", "redis://127.0.0.1:6379")
PIPELINE_DB = 13
BASELINE_DB = 14
LOOPBACK_DB = 15
POLL_S = 0.02
"""How often the bench looks at the store (or the no-op counter), in seconds."""
BATCH_TIMEOUT_S = 180.0
"""A batch that has not finished after this many seconds aborts the bench (a hung worker)."""
READY_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 20.0
NOOP_COUNTER_ENV = "QGS_BENCH_COUNTER_URL"

console = Console(width=None if sys.stdout.isatty() else 150)


# -- the no-op baseline worker -------------------------------------------------------------------


def noop_app(broker_url: str, counter_url: str) -> Celery:
    """A Celery app with QGS's own configuration and two trivial jobs that count in Redis."""
    app = Celery("qgs-bench-noop")
    app.conf.update(celery_config(Settings(broker_url=broker_url)))
    counter: list[redis.Redis] = []  # one client per process (prefork children fork first)

    def incr(key: str) -> None:
        if not counter:
            counter.append(redis.Redis.from_url(counter_url))
        counter[0].incr(key)

    @app.task(name="bench.noop", acks_late=True)
    def noop(key: str) -> None:
        incr(key)

    @app.task(name="bench.noop_intake", acks_late=True)
    def noop_intake(key: str, queues: Sequence[str]) -> None:
        """Count, then dispatch a chain of no-ops, as ``qgs.review.intake`` dispatches a round."""
        incr(key)
        chain(*(noop.si(key).set(queue=q) for q in queues)).apply_async()

    return app


def run_noop_worker(pool: str, concurrency: int, name: str) -> None:
    """The no-op worker process: the same argv ``qgs worker`` gives Celery (cli.worker)."""
    broker_url = os.environ["QGS_BROKER_URL"]
    app = noop_app(broker_url, os.environ.get(NOOP_COUNTER_ENV, broker_url))
    app.worker_main(
        [
            "worker",
            f"--queues={','.join(QUEUES)}",
            f"--pool={pool}",
            f"--concurrency={concurrency}",
            f"--hostname={name}@%h",
            "--loglevel=WARNING",
            "--task-events",
            "--without-mingle",
            "--without-gossip",
        ]
    )


# -- worker processes ------------------------------------------------------------------------


@dataclass
class Worker:
    """A worker subprocess started here; only it (and its children) are ever signalled."""

    label: str
    pool: str
    concurrency: int
    proc: subprocess.Popen[bytes]
    log_path: Path
    idle_rss_mb: float = 0.0
    idle_pss_mb: float = 0.0

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

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("QGS_")}
    env.update(extra)
    return env


def start_worker(
    label: str,
    command: list[str],
    env: dict[str, str],
    workdir: Path,
    ping_app: Celery,
    pool: str,
    concurrency: int,
) -> Worker:
    """Start a worker subprocess, wait until it answers a ping, and record its idle memory."""
    log_path = workdir / f"{label.replace(' ', '_')}.log"
    with log_path.open("ab") as log:
        proc = subprocess.Popen(
            command,
            env=env,
            cwd=workdir,  # no stray .env or .qgs folder from the checkout
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    worker = Worker(label, pool, concurrency, proc, log_path)
    deadline = time.monotonic() + READY_TIMEOUT_S
    while not ping_app.control.ping(timeout=0.3):
        worker.check_alive()
        if time.monotonic() > deadline:
            worker.stop()
            raise RuntimeError(f"worker {label} did not answer a ping in {READY_TIMEOUT_S:g} s")
    worker.idle_rss_mb, worker.idle_pss_mb, _ = worker.memory_mb()
    return worker


def qgs_worker_command(pool: str, concurrency: int, name: str) -> list[str]:
    return [
        sys.executable, "-m", "qgs_worker.cli", "worker",
        "--queues", "all", "--pool", pool, "--concurrency", str(concurrency),
        "--name", f"{name}@%h", "--loglevel", "WARNING",
    ]  # fmt: skip


def noop_worker_command(pool: str, concurrency: int, name: str) -> list[str]:
    return [
        sys.executable, str(Path(__file__).resolve()), "--noop-worker",
        "--pool", pool, "--concurrency", str(concurrency), "--name", name,
    ]  # fmt: skip


# -- measuring -------------------------------------------------------------------------------


@dataclass
class Run:
    """One timed batch."""

    tasks: int
    jobs: int
    elapsed_s: float
    submit_s: float
    cpu_s: float
    errors: int = 0

    @property
    def tasks_per_s(self) -> float:
        return self.tasks / self.elapsed_s

    @property
    def jobs_per_s(self) -> float:
        return self.jobs / self.elapsed_s

    @property
    def cpu_ms_per_job(self) -> float:
        return 1000 * self.cpu_s / self.jobs


@dataclass
class Series:
    """The repetitions of one scenario."""

    label: str
    runs: list[Run] = field(default_factory=list)

    def median(self, fn: Callable[[Run], float]) -> float:
        return statistics.median(fn(r) for r in self.runs)

    def spread(self, fn: Callable[[Run], float], fmt: str = ".0f") -> str:
        values = [fn(r) for r in self.runs]
        middle = format(statistics.median(values), fmt)
        if len(values) < 2:
            return middle
        return f"{middle} ({format(min(values), fmt)}-{format(max(values), fmt)})"


def wait_until(done: Callable[[], int], target: int, worker: Worker, what: str) -> None:
    deadline = time.monotonic() + BATCH_TIMEOUT_S
    while True:
        have = done()
        if have >= target:
            return
        worker.check_alive()
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: {have} of {target} done after {BATCH_TIMEOUT_S:g} s")
        time.sleep(POLL_S)


def deliverable(i: int, number: int) -> str:
    return (
        f"# Draft {number} of note {i}\n\n"
        f"This note explains how the team rotates the on-call schedule for service {i}. "
        "Each engineer takes one week; handovers happen on Monday at 10:00 with a short written "
        "summary of open incidents, pending changes and known risks. The summary lists owners "
        "and due dates, and links the runbooks that the next engineer needs.\n"
    )


def count_decisions(client: Client) -> int:
    from qgs_worker.store import DecisionRow

    return client.repo.count_rows(DecisionRow)


def store_job_count(client: Client, prefix: str) -> tuple[int, int, int]:
    """(jobs run, rounds, failures) for the tasks whose id starts with ``prefix``.

    Jobs = intake + decide per round, + critic deliveries, + discriminate where planned.
    Failures = rounds failed + reviews stored as judge failures.
    """
    from sqlalchemy import func
    from sqlmodel import Session, select

    from qgs_worker.store import ReviewRow, RoundRow

    with Session(client.repo.engine) as s:
        where = RoundRow.task_id.startswith(prefix)  # type: ignore[attr-defined]
        rounds, critic, disc, failed = s.exec(
            select(
                func.count(),
                func.coalesce(func.sum(RoundRow.attempts), 0),
                func.coalesce(func.sum(RoundRow.plan_discriminate), 0),
                func.coalesce(func.sum(RoundRow.status == "failed"), 0),
            ).where(where)
        ).one()
        judge_failed = s.exec(
            select(func.count())
            .select_from(ReviewRow)
            .join(RoundRow, RoundRow.id == ReviewRow.round_id)  # type: ignore[arg-type]
            .where(where, ReviewRow.status == "failed")
        ).one()
    return 2 * rounds + int(critic) + int(disc), int(rounds), int(failed) + int(judge_failed)


def pipeline_batch(client: Client, worker: Worker, n_tasks: int, rounds: int) -> Run:
    """Submit ``n_tasks`` GENERATE tasks of ``rounds`` rounds (the last final); time until decided."""
    prefix = f"b{uuid.uuid4().hex[:8]}-"
    tasks = [
        client.start_task(f"Write a short note on on-call rotation {i}", task_type="GENERATE",
                          task_id=f"{prefix}{i}").id
        for i in range(n_tasks)
    ]  # fmt: skip
    target = count_decisions(client) + n_tasks * rounds
    cpu0 = worker.cpu_s()
    t0 = time.perf_counter()
    for i, task_id in enumerate(tasks):
        for number in range(1, rounds + 1):
            client.submit(task_id, deliverable(i, number), final=number == rounds)
    submit_s = time.perf_counter() - t0
    wait_until(lambda: count_decisions(client), target, worker, "pipeline batch")
    elapsed = time.perf_counter() - t0
    jobs, _, errors = store_job_count(client, prefix)
    return Run(n_tasks, jobs, elapsed, submit_s, worker.cpu_s() - cpu0, errors)


def noop_batch(app: Celery, counter: redis.Redis, worker: Worker, n_jobs: int, shaped: bool) -> Run:
    """Send no-op jobs and time until the worker has counted all of them.

    Flat: the client sends every job, two on ``qgs.default`` for one on ``qgs.critic`` (as the
    pipeline's intake, critic, decide). Shaped: the client sends one job per 3, which chains two.
    """
    key = f"bench:noop:{uuid.uuid4().hex}"
    cpu0 = worker.cpu_s()
    t0 = time.perf_counter()
    if shaped:
        for _ in range(n_jobs // 3):
            app.send_task(
                "bench.noop_intake", args=[key, [CRITIC_QUEUE, DEFAULT_QUEUE]], queue=DEFAULT_QUEUE
            )
    else:
        for i in range(n_jobs):
            app.send_task(
                "bench.noop", args=[key], queue=CRITIC_QUEUE if i % 3 == 1 else DEFAULT_QUEUE
            )
    submit_s = time.perf_counter() - t0
    wait_until(lambda: int(counter.get(key) or 0), n_jobs, worker, "no-op batch")
    elapsed = time.perf_counter() - t0
    counter.delete(key)
    return Run(n_jobs // 3, n_jobs, elapsed, submit_s, worker.cpu_s() - cpu0)


# -- set-up ----------------------------------------------------------------------------------


@contextlib.contextmanager
def redis_db(db: int) -> Iterator[tuple[str, redis.Redis]]:
    url = f"{REDIS_URL}/{db}"
    r = redis.Redis.from_url(url)
    r.flushdb()
    try:
        yield url, r
    finally:
        r.flushdb()
        r.close()


@contextlib.contextmanager
def qgs_side(
    label: str,
    db_url: str,
    workdir: Path,
    pool: str,
    concurrency: int,
    judge: FakeOpenAIServer | None,
) -> Iterator[tuple[Client, Worker]]:
    """A fresh SQLite store, a client and a ``qgs worker`` subprocess on ``db_url``."""
    from qgs_worker.client import Client

    store = workdir / f"{label.replace(' ', '_')}.db"
    env = clean_env(
        QGS_BROKER_URL=db_url,
        QGS_DATABASE_URL=f"sqlite:///{store}",
        QGS_DATA_DIR=str(workdir / "data"),
        QGS_JUDGE__KIND="openai" if judge else "rules",
    )
    if judge is not None:
        env.update(
            QGS_JUDGE__BASE_URL=judge.base_url,
            QGS_JUDGE__API_KEY="bench",
            QGS_JUDGE__TIMEOUT_S="10",
        )
    settings = Settings(
        data_dir=workdir / "data", broker_url=db_url, database_url=f"sqlite:///{store}"
    )
    client = Client(settings)
    worker = start_worker(
        label, qgs_worker_command(pool, concurrency, f"bench-{uuid.uuid4().hex[:6]}"), env,
        workdir, client.app, pool, concurrency,
    )  # fmt: skip
    try:
        yield client, worker
    finally:
        worker.stop()
        client.repo.dispose()


# -- the three parts -------------------------------------------------------------------------


@dataclass
class Part1:
    noop_flat3: Series
    noop_chain: Series
    noop_flat5: Series
    rules1: Series
    rules2: Series
    fake1: Series
    workers: list[tuple[Worker, float, float, int]]  # worker, RSS after, PSS after, processes


def part1(n_tasks: int, n_tasks_2r: int, reps: int, workdir: Path) -> Part1:
    """Three workers side by side (no-op, rules judge, loopback judge), each on its own Redis db.

    Only one works at a time; the repetitions alternate between them, so a slow patch of the
    machine hits the baseline and the pipeline alike.
    """
    from tests.fake_openai import FakeOpenAIServer

    pool, conc = "threads", 8
    out = Part1(
        Series("no-op job, flat (client sends each)"),
        Series("no-op job, chained like the pipeline"),
        Series("no-op job, flat (2-round job count)"),
        Series("pipeline, 1 final round, rules judge"),
        Series("pipeline, 2 rounds, rules judge"),
        Series("pipeline, 1 final round, loopback OpenAI judge (0 ms)"),
        [],
    )
    with contextlib.ExitStack() as stack:
        base_url, counter = stack.enter_context(redis_db(BASELINE_DB))
        app = noop_app(base_url, base_url)
        noop = start_worker(
            "no-op Celery job", noop_worker_command(pool, conc, f"bench-noop-{uuid.uuid4().hex[:6]}"),
            clean_env(QGS_BROKER_URL=base_url, **{NOOP_COUNTER_ENV: base_url}),
            workdir, app, pool, conc,
        )  # fmt: skip
        stack.callback(noop.stop)
        rules_url, _ = stack.enter_context(redis_db(PIPELINE_DB))
        client, rules = stack.enter_context(
            qgs_side("QGS, rules judge", rules_url, workdir, pool, conc, None)
        )
        judge = stack.enter_context(FakeOpenAIServer())
        fake_url, _ = stack.enter_context(redis_db(LOOPBACK_DB))
        fclient, fake = stack.enter_context(
            qgs_side("QGS, loopback judge", fake_url, workdir, pool, conc, judge)
        )
        # Warm up (the QGS runtime, store and judge are built on a worker's first job).
        noop_batch(app, counter, noop, 60, shaped=False)
        pipeline_batch(client, rules, 20, 1)
        pipeline_batch(fclient, fake, 20, 1)
        for rep in range(reps):
            console.log(f"throughput, repetition {rep + 1} of {reps}")
            out.noop_flat3.runs.append(noop_batch(app, counter, noop, 3 * n_tasks, shaped=False))
            out.rules1.runs.append(pipeline_batch(client, rules, n_tasks, 1))
            out.noop_chain.runs.append(noop_batch(app, counter, noop, 3 * n_tasks, shaped=True))
            out.fake1.runs.append(pipeline_batch(fclient, fake, n_tasks, 1))
            out.noop_flat5.runs.append(noop_batch(app, counter, noop, 5 * n_tasks_2r, shaped=False))
            out.rules2.runs.append(pipeline_batch(client, rules, n_tasks_2r, 2))
        out.workers.extend((w, *w.memory_mb()) for w in (noop, rules, fake))
    return out


@dataclass
class PoolResult:
    worker: Worker
    series: Series
    after: tuple[float, float, int]


def part3(batch: int, reps: int, latency_s: float, workdir: Path) -> list[PoolResult]:
    """The same batch of final rounds on each pool, the judge answering after ``latency_s``."""
    from tests.fake_openai import Answer, FakeOpenAIServer

    results = []
    with FakeOpenAIServer() as judge:
        judge.default = Answer.delay(latency_s, then=Answer.auto())
        for pool, conc in (("threads", 8), ("prefork", 8), ("solo", 1)):
            with (
                redis_db(PIPELINE_DB) as (url, _),
                qgs_side(f"pool {pool}", url, workdir, pool, conc, judge) as (client, worker),
            ):
                series = Series(f"{pool} -c {conc}")
                pipeline_batch(client, worker, conc, 1)  # warm-up: one round per thread/child
                for rep in range(reps):
                    console.log(f"pool {pool} -c {conc}, repetition {rep + 1} of {reps}")
                    series.runs.append(pipeline_batch(client, worker, batch, 1))
                results.append(PoolResult(worker, series, worker.memory_mb()))
    return results


# -- report ----------------------------------------------------------------------------------


def ratios(
    a: Series, b: Series, fn: Callable[[Run], float] = lambda r: r.jobs_per_s
) -> list[float]:
    """Per-repetition ratios a/b (both measured in the same repetition)."""
    return [fn(x) / fn(y) for x, y in zip(a.runs, b.runs, strict=True)]


def fmt_ratios(values: list[float]) -> str:
    middle = f"{statistics.median(values):.2f}"
    return middle if len(values) < 2 else f"{middle} ({min(values):.2f}-{max(values):.2f})"


def report(p1: Part1, pools: list[PoolResult], args: argparse.Namespace) -> None:
    t = Table(
        title=f"1. Throughput, zero-latency judge (threads -c 8, SQLite store, local Redis): "
        f"{args.tasks} tasks a batch ({args.tasks_2r} of 2 rounds), median (min-max) of {args.reps}",
        title_justify="left",
    )
    for name in ("scenario", "jobs", "tasks/s", "jobs/s", "jobs/s vs no-op", "worker CPU ms/job",
                 "submit s", "errors"):  # fmt: skip
        t.add_column(name, justify="left" if name == "scenario" else "right")

    def row(s: Series, baseline: Series | None, tasks: bool = True) -> None:
        t.add_row(
            s.label,
            str(s.runs[0].jobs),
            s.spread(lambda r: r.tasks_per_s, ".1f") if tasks else "-",
            s.spread(lambda r: r.jobs_per_s),
            fmt_ratios(ratios(s, baseline)) if baseline else "1 (baseline)",
            s.spread(lambda r: r.cpu_ms_per_job, ".2f"),
            s.spread(lambda r: r.submit_s, ".2f"),
            str(sum(r.errors for r in s.runs)),
        )

    row(p1.noop_flat3, None, tasks=False)
    row(p1.noop_chain, p1.noop_flat3)
    row(p1.rules1, p1.noop_flat3)
    row(p1.fake1, p1.noop_flat3)
    row(p1.noop_flat5, None, tasks=False)
    row(p1.rules2, p1.noop_flat5)
    console.print(t)
    for s, base, what in (
        (p1.rules1, p1.noop_flat3, "1 final round, rules judge"),
        (p1.fake1, p1.noop_flat3, "1 final round, loopback OpenAI judge"),
        (p1.rules2, p1.noop_flat5, "2 rounds, rules judge"),
        (p1.rules1, p1.noop_chain, "1 final round, rules judge, against the chained no-op"),
    ):
        console.print(
            f"pipeline jobs/s / no-op jobs/s = {s.median(jobs_per_s):.0f} / "
            f"{base.median(jobs_per_s):.0f} = {statistics.median(ratios(s, base)):.2f}  ({what})"
        )
    console.print()

    m = Table(
        title="2. Worker memory, MB (worker process + children; PSS counts shared pages once)",
        title_justify="left",
    )
    for name in ("worker", "pool", "processes", "idle RSS", "idle PSS", "RSS after", "PSS after"):
        m.add_column(name, justify="left" if name in ("worker", "pool") else "right")
    rows = [(w, (rss, pss, n)) for w, rss, pss, n in p1.workers] + [
        (p.worker, p.after) for p in pools
    ]
    for w, (rss, pss, n) in rows:
        m.add_row(w.label, f"{w.pool} -c {w.concurrency}", str(n), f"{w.idle_rss_mb:.0f}",
                  f"{w.idle_pss_mb:.0f}", f"{rss:.0f}", f"{pss:.0f}")  # fmt: skip
    console.print(m)

    if pools:
        ref = pools[0].series
        pt = Table(
            title=f"3. Pools for I/O-bound critic jobs: loopback judge answering after "
            f"{args.judge_latency_s * 1000:.0f} ms, {args.pool_batch} final rounds (3 jobs each, "
            f"1 critic) a batch, median (min-max) of {args.reps}",
            title_justify="left",
        )
        for name in ("pool", "rounds/s", "vs threads", "bound: c / latency", "jobs/s",
                     "worker CPU ms/job", "idle RSS", "RSS after", "PSS after", "errors"):  # fmt: skip
            pt.add_column(name, justify="left" if name == "pool" else "right")
        for p in pools:
            rss, pss, _ = p.after
            pt.add_row(
                p.series.label,
                p.series.spread(tasks_per_s, ".1f"),
                fmt_ratios(ratios(p.series, ref, tasks_per_s)),
                f"{p.worker.concurrency / args.judge_latency_s:.0f}",
                p.series.spread(jobs_per_s),
                p.series.spread(lambda r: r.cpu_ms_per_job, ".2f"),
                f"{p.worker.idle_rss_mb:.0f}",
                f"{rss:.0f}",
                f"{pss:.0f}",
                str(sum(r.errors for r in p.series.runs)),
            )
        console.print(pt)
    console.print(summary(p1, pools, args))


def jobs_per_s(r: Run) -> float:
    return r.jobs_per_s


def tasks_per_s(r: Run) -> float:
    return r.tasks_per_s


def cpu_ms(r: Run) -> float:
    return r.cpu_ms_per_job


def summary(p1: Part1, pools: list[PoolResult], args: argparse.Namespace) -> str:
    """One paragraph of the figures above (medians), worded from what was measured."""
    noop, rules, fake = (w for w, *_ in p1.workers)
    after = {w.label: (rss, pss) for w, rss, pss, _ in p1.workers}
    cpu_ratio = p1.rules1.median(cpu_ms) / p1.noop_flat3.median(cpu_ms)
    text = (
        f"Summary: with a zero-latency judge (the offline rules judge) the pipeline ran "
        f"{p1.rules1.median(jobs_per_s):.0f} jobs/s ({p1.rules1.median(tasks_per_s):.0f} tasks/s "
        f"of 3 jobs) where a no-op Celery job on the same worker set-up ran "
        f"{p1.noop_flat3.median(jobs_per_s):.0f} jobs/s: a ratio of "
        f"{statistics.median(ratios(p1.rules1, p1.noop_flat3)):.2f} "
        f"({statistics.median(ratios(p1.rules2, p1.noop_flat5)):.2f} with 2 rounds a task, "
        f"{statistics.median(ratios(p1.rules1, p1.noop_chain)):.2f} against a no-op chained like "
        f"the pipeline). A pipeline job cost {p1.rules1.median(cpu_ms):.1f} ms of worker CPU, "
        f"{cpu_ratio:.1f}x a no-op job's {p1.noop_flat3.median(cpu_ms):.1f} ms"
        + (
            ", so the pipeline's own work (store round trips, validation), not Celery's messaging, "
            "sets the pace; a thread-pool worker runs Python on one core at a time."
            if cpu_ratio > 2
            else "."
        )
        + f" Through the openai client and loopback HTTP, a judge answering at once gave "
        f"{p1.fake1.median(jobs_per_s):.0f} jobs/s ({p1.fake1.median(cpu_ms):.1f} ms CPU a job). "
        f"Idle, the QGS worker held {rules.idle_rss_mb:.0f} MB RSS ({after[rules.label][0]:.0f} MB "
        f"after the runs; {fake.idle_rss_mb:.0f} and {after[fake.label][0]:.0f} MB with the "
        f"openai judge) and the no-op worker {noop.idle_rss_mb:.0f} MB "
        f"({after[noop.label][0]:.0f} MB)."
    )
    if pools:
        by = {p.worker.pool: p for p in pools}
        th, pf, so = by["threads"], by["prefork"], by["solo"]
        text += (
            f" With a judge answering after {args.judge_latency_s * 1000:.0f} ms, threads -c 8 "
            f"reviewed {th.series.median(tasks_per_s):.1f} rounds/s in {th.after[1]:.0f} MB (PSS), "
            f"prefork -c 8 {pf.series.median(tasks_per_s):.1f} rounds/s in {pf.after[1]:.0f} MB "
            f"over {pf.after[2]} processes, and solo {so.series.median(tasks_per_s):.1f} rounds/s "
            f"in {so.after[1]:.0f} MB: threads reached "
            f"{statistics.median(ratios(th.series, pf.series, tasks_per_s)) * 100:.0f}% of "
            f"prefork's throughput in {th.after[1] / pf.after[1] * 100:.0f}% of its memory, and "
            f"{statistics.median(ratios(th.series, so.series, tasks_per_s)):.1f}x solo's."
        )
    return text


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=200, help="tasks a throughput batch")
    parser.add_argument("--tasks-2r", type=int, default=100, help="tasks of 2 rounds a batch")
    parser.add_argument("--reps", type=int, default=3, help="repetitions of every batch")
    parser.add_argument("--pool-batch", type=int, default=40, help="final rounds a pool batch")
    parser.add_argument("--judge-latency-s", type=float, default=0.2, help="judge latency, s")
    parser.add_argument("--skip-pools", action="store_true", help="skip part 3")
    parser.add_argument("--noop-worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--pool", default="threads", help=argparse.SUPPRESS)
    parser.add_argument("--concurrency", type=int, default=8, help=argparse.SUPPRESS)
    parser.add_argument("--name", default="bench-noop", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.noop_worker:
        run_noop_worker(args.pool, args.concurrency, args.name)
        return 0
    try:
        redis.Redis.from_url(f"{REDIS_URL}/{PIPELINE_DB}", socket_connect_timeout=1).ping()
    except redis.RedisError as exc:
        console.print(f"[red]error:[/] no Redis at {REDIS_URL} ({exc}); start redis-server or set "
                      "QGS_BENCH_REDIS_URL")  # fmt: skip
        return 2
    workdir = Path(tempfile.mkdtemp(prefix="qgs-bench-"))
    started = time.perf_counter()
    try:
        p1 = part1(args.tasks, args.tasks_2r, args.reps, workdir)
        pools = (
            []
            if args.skip_pools
            else part3(args.pool_batch, args.reps, args.judge_latency_s, workdir)
        )
        report(p1, pools, args)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    console.print(f"(bench ran {time.perf_counter() - started:.0f} s on {os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
