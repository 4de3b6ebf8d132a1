"""Throughput and memory of the review pipeline, as ratios against baselines run side by side.

Usage: .venv/bin/python bench/pipeline_bench.py [--tasks 200] [--reps 3] [--pool-batch 40]
       [--judge-latency-s 0.2] [--skip-pools]

Needs Redis on 127.0.0.1:6379 (``QGS_BENCH_REDIS_URL`` to change; db 13 and 14 are used and
flushed before and after). Every worker is a real subprocess, started the way ``qgs worker``
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
from qgs_worker.celery_app import DEFAULT_QUEUE, QUEUES, celery_config  # noqa: E402
from qgs_worker.settings import JudgeSettings, Settings  # noqa: E402

if TYPE_CHECKING:
    from qgs_worker.client import Client
    from tests.fake_openai import FakeOpenAIServer

REDIS_URL = os.environ.get("QGS_BENCH_REDIS_URL", "redis://127.0.0.1:6379")
PIPELINE_DB = 13
BASELINE_DB = 14
POLL_S = 0.02
"""How often the bench looks at the store (or the no-op counter), in seconds."""
BATCH_TIMEOUT_S = 180.0
"""A batch that has not finished after this many seconds aborts the bench (a hung worker)."""
READY_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 20.0
CRITIC_QUEUE = "qgs.critic"
NOOP_COUNTER_ENV = "QGS_BENCH_COUNTER_URL"

console = Console()


# -- the no-op baseline worker -------------------------------------------------------------------


def noop_app(broker_url: str, counter_url: str) -> Celery:
    """A Celery app with QGS's own configuration and two trivial jobs that count in Redis."""
    app = Celery("qgs-bench-noop")
    app.conf.update(celery_config(Settings(broker_url=broker_url, judge=JudgeSettings())))
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
    return client.repo.count_rows(DecisionRow)


def store_job_count(client: Client, prefix: str) -> tuple[int, int, int]:
    """(jobs run, rounds, failures) for the tasks whose id starts with ``prefix``.

    Jobs = intake + decide per round, + critic deliveries, + discriminate where planned.
    Failures = rounds failed + reviews stored as judge failures.
    """
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
            app.send_task("bench.noop", args=[key], queue=CRITIC_QUEUE if i % 3 == 1 else DEFAULT_QUEUE)
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
    label: str, db_url: str, workdir: Path, pool: str, concurrency: int, judge: FakeOpenAIServer | None
) -> Iterator[tuple[Client, Worker]]:
    """A fresh SQLite store, a client and a ``qgs worker`` subprocess on ``db_url``."""
    store = workdir / f"{label.replace(' ', '_')}.db"
    env = clean_env(
        QGS_BROKER_URL=db_url,
        QGS_DATABASE_URL=f"sqlite:///{store}",
        QGS_DATA_DIR=str(workdir / "data"),
        QGS_JUDGE__KIND="openai" if judge else "rules",
    )
    if judge is not None:
        env.update(QGS_JUDGE__BASE_URL=judge.base_url, QGS_JUDGE__API_KEY="bench", QGS_JUDGE__TIMEOUT_S="10")
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


def part1(n_tasks: int, reps: int, workdir: Path) -> Part1:
    pool, conc = "threads", 8
    out = Part1(
        Series("no-op job, flat (client sends each)"),
        Series("no-op job, chained like the pipeline"),
        Series("no-op job, flat (2-round job count)"),
        Series("pipeline, 1 final round, rules judge"),
        Series("pipeline, 2 rounds, rules judge"),
        Series("pipeline, 1 final round, loopback OpenAI (0 ms)"),
        [],
    )
    with contextlib.ExitStack() as stack:
        base_url, counter = stack.enter_context(redis_db(BASELINE_DB))
        app = noop_app(base_url, base_url)
        noop = start_worker(
            "no-op", noop_worker_command(pool, conc, f"bench-noop-{uuid.uuid4().hex[:6]}"),
            clean_env(QGS_BROKER_URL=base_url, **{NOOP_COUNTER_ENV: base_url}),
            workdir, app, pool, conc,
        )  # fmt: skip
        stack.callback(noop.stop)
        pipe_url, _ = stack.enter_context(redis_db(PIPELINE_DB))
        client, rules = stack.enter_context(qgs_side("qgs rules", pipe_url, workdir, pool, conc, None))
        # Warm up both (the QGS runtime, store and judge are built on the first job).
        noop_batch(app, counter, noop, 60, shaped=False)
        pipeline_batch(client, rules, 20, 1)
        for rep in range(reps):
            console.log(f"throughput, repetition {rep + 1} of {reps}")
            out.noop_flat3.runs.append(noop_batch(app, counter, noop, 3 * n_tasks, shaped=False))
            out.rules1.runs.append(pipeline_batch(client, rules, n_tasks, 1))
            out.noop_chain.runs.append(noop_batch(app, counter, noop, 3 * n_tasks, shaped=True))
            out.rules2.runs.append(pipeline_batch(client, rules, n_tasks, 2))
            out.noop_flat5.runs.append(noop_batch(app, counter, noop, 5 * n_tasks, shaped=False))
        out.workers.append((rules, *rules.memory_mb()))
        rules.stop()
        # The same batch through the openai client and HTTP, the judge answering at once.
        with (
            FakeOpenAIServer() as judge,
            qgs_side("qgs openai", pipe_url, workdir, pool, conc, judge) as (fclient, fake),
        ):
            pipeline_batch(fclient, fake, 20, 1)
            for rep in range(reps):
                console.log(f"loopback judge, repetition {rep + 1} of {reps}")
                out.fake1.runs.append(pipeline_batch(fclient, fake, n_tasks, 1))
            out.workers.append((fake, *fake.memory_mb()))
        out.workers.append((noop, *noop.memory_mb()))
    return out


@dataclass
class PoolResult:
    worker: Worker
    series: Series
    after: tuple[float, float, int]


def part3(batch: int, reps: int, latency_s: float, workdir: Path) -> list[PoolResult]:
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


def ratios(a: Series, b: Series, fn: Callable[[Run], float] = lambda r: r.jobs_per_s) -> list[float]:
    """Per-repetition ratios a/b (both measured in the same repetition)."""
    return [fn(x) / fn(y) for x, y in zip(a.runs, b.runs, strict=True)]


def fmt_ratios(values: list[float]) -> str:
    middle = f"{statistics.median(values):.2f}"
    return middle if len(values) < 2 else f"{middle} ({min(values):.2f}-{max(values):.2f})"


def report(p1: Part1, pools: list[PoolResult], args: argparse.Namespace) -> None:
    t = Table(
        title=f"1. Throughput, zero-latency judge: threads -c 8, SQLite, Redis; "
        f"{args.tasks} tasks a batch; median (min-max) of {args.reps}",
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
    r1 = statistics.median(ratios(p1.rules1, p1.noop_flat3))
    r2 = statistics.median(ratios(p1.rules2, p1.noop_flat5))
    rc = statistics.median(ratios(p1.rules1, p1.noop_chain))
    console.print(
        f"pipeline jobs/s / no-op jobs/s = {p1.rules1.median(lambda r: r.jobs_per_s):.0f} / "
        f"{p1.noop_flat3.median(lambda r: r.jobs_per_s):.0f} = {r1:.2f} (1 final round); "
        f"{p1.rules2.median(lambda r: r.jobs_per_s):.0f} / "
        f"{p1.noop_flat5.median(lambda r: r.jobs_per_s):.0f} = {r2:.2f} (2 rounds); "
        f"against the chained no-op: {rc:.2f}"
    )

    m = Table(title="2. Worker memory (MB; worker process + children)", title_justify="left")
    for name in ("worker", "pool", "processes", "idle RSS", "RSS after", "PSS after"):
        m.add_column(name, justify="left" if name in ("worker", "pool") else "right")
    for w, rss, pss, n in p1.workers:
        m.add_row(w.label, f"{w.pool} -c {w.concurrency}", str(n), f"{w.idle_rss_mb:.0f}",
                  f"{rss:.0f}", f"{pss:.0f}")  # fmt: skip
    for p in pools:
        rss, pss, n = p.after
        m.add_row(p.worker.label, f"{p.worker.pool} -c {p.worker.concurrency}", str(n),
                  f"{p.worker.idle_rss_mb:.0f}", f"{rss:.0f}", f"{pss:.0f}")  # fmt: skip
    console.print(m)

    if pools:
        ref = pools[0].series
        pt = Table(
            title=f"3. Pools, I/O-bound critic: loopback judge answering after "
            f"{args.judge_latency_s * 1000:.0f} ms; {args.pool_batch} final rounds a batch; "
            f"median (min-max) of {args.reps}",
            title_justify="left",
        )
        for name in ("pool", "tasks/s", "critic jobs/s", "vs threads", "bound (c / latency)",
                     "worker CPU ms/job", "idle RSS", "RSS after", "PSS after", "errors"):  # fmt: skip
            pt.add_column(name, justify="left" if name == "pool" else "right")
        for p in pools:
            rss, pss, _ = p.after
            pt.add_row(
                p.series.label,
                p.series.spread(lambda r: r.tasks_per_s, ".1f"),
                p.series.spread(lambda r: r.tasks_per_s, ".1f"),  # one critic job per task
                fmt_ratios(ratios(p.series, ref, lambda r: r.tasks_per_s)),
                f"{p.worker.concurrency / args.judge_latency_s:.0f}",
                p.series.spread(lambda r: r.cpu_ms_per_job, ".2f"),
                f"{p.worker.idle_rss_mb:.0f}",
                f"{rss:.0f}",
                f"{pss:.0f}",
                str(sum(r.errors for r in p.series.runs)),
            )
        console.print(pt)
    console.print(summary(p1, pools, args))


def summary(p1: Part1, pools: list[PoolResult], args: argparse.Namespace) -> str:
    def jps(s: Series) -> float:
        return s.median(lambda r: r.jobs_per_s)

    def cpu(s: Series) -> float:
        return s.median(lambda r: r.cpu_ms_per_job)

    rules_w, rules_rss, _, _ = p1.workers[0]
    noop_w, noop_rss, _, _ = p1.workers[-1]
    text = (
        f"Summary: with a zero-latency judge the pipeline runs {jps(p1.rules1):.0f} jobs/s "
        f"({p1.rules1.median(lambda r: r.tasks_per_s):.0f} tasks/s of 3 jobs) against "
        f"{jps(p1.noop_flat3):.0f} jobs/s for a no-op Celery job on the same worker set-up "
        f"(ratio {statistics.median(ratios(p1.rules1, p1.noop_flat3)):.2f}; "
        f"{statistics.median(ratios(p1.rules2, p1.noop_flat5)):.2f} with 2 rounds a task); "
        f"a pipeline job costs {cpu(p1.rules1):.1f} ms of worker CPU against {cpu(p1.noop_flat3):.1f} "
        f"ms for a no-op, so the store and the pipeline's own work, not Celery, set the pace. "
        f"The loopback OpenAI judge answering at once gives {jps(p1.fake1):.0f} jobs/s "
        f"({cpu(p1.fake1):.1f} ms/job). The QGS worker idles at {rules_w.idle_rss_mb:.0f} MB RSS "
        f"({rules_rss:.0f} MB after the runs) against {noop_w.idle_rss_mb:.0f} MB "
        f"({noop_rss:.0f} MB) for the no-op worker."
    )
    if pools:
        by = {p.worker.pool: p for p in pools}
        th, pf, so = by["threads"], by["prefork"], by["solo"]

        def tps(p: PoolResult) -> float:
            return p.series.median(lambda r: r.tasks_per_s)

        text += (
            f" With a judge of {args.judge_latency_s * 1000:.0f} ms, threads -c 8 reviews "
            f"{tps(th):.1f} rounds/s in {th.after[1]:.0f} MB (PSS), prefork -c 8 {tps(pf):.1f} "
            f"rounds/s in {pf.after[1]:.0f} MB over {pf.after[2]} processes, and solo "
            f"{tps(so):.1f} rounds/s in {so.after[1]:.0f} MB: threads give prefork's throughput "
            f"for I/O-bound critic jobs at a fraction of its memory, which is why it is the default."
        )
    return text


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=200, help="tasks a throughput batch")
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
        p1 = part1(args.tasks, args.reps, workdir)
        pools = [] if args.skip_pools else part3(args.pool_batch, args.reps, args.judge_latency_s, workdir)
        report(p1, pools, args)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    console.print(f"(bench ran {time.perf_counter() - started:.0f} s on {os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
