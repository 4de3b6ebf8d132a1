"""Throughput and memory of the review pipeline, as ratios against baselines run side by side.

Usage: .venv/bin/python bench/pipeline_bench.py [--reps 3] [--tasks 120] [--mix-copies 2]
       [--io-rounds 160] [--io-latency-s 0.5] [--io-concurrency 16] [--mem-concurrency 64]
       [--pool-batch 40] [--judge-latency-s 0.2] [--skip-io] [--skip-pools] [--only-io]
       [--before DIR]
       [--redis-url redis://127.0.0.1:6379] [--dbs 13,14,15,10] [--private-redis] [--quick]

Needs Redis (``--redis-url``, or ``QGS_BENCH_REDIS_URL``; db 13, 14, 15 and 10 by default, flushed
before and after; ``--private-redis`` starts a ``redis-server`` of its own instead, so the
Redis command counts are the bench's alone). Every worker is a real subprocess started as
``qgs worker`` starts it, with a probe (``bench/worker_probe.py``) that counts the jobs that
ran and the SQL statements; stopped by its PID at the end. The store is SQLite in a temp
folder. The method is in ``bench/README.md``: batches are pre-loaded and timed from the
worker's side, content is new in every batch, repetitions alternate the scenarios.

1. Zero-latency judge (threads -c 8): the simple workload (one ~400-char GENERATE round) and
   the realistic mix (``bench/workloads.py``), with the offline rules judge and the mix with
   the loopback OpenAI judge answering at once; against a no-op job (jobs/s) and a no-op
   chained in the pipeline's own shape (rounds/s).
2. I/O-bound reviews: the loopback judge answering after ``--io-latency-s``, ``--io-concurrency``
   threads; rounds/s against the bound (concurrency / latency) and against a bare Celery +
   openai worker making the same calls; then ``--mem-concurrency`` threads, peak RSS.
3. Pools (threads -c 8, prefork -c 8, solo) with the judge answering after ``--judge-latency-s``.

``--only-io`` runs part 2 alone; ``--before DIR`` (an export of another commit, e.g.
``git archive BASE | tar -x -C DIR``) runs its worker on part 2's batches too, in turn with
this tree's and the bare one, so before and after are measured side by side.

Nothing here asserts a time: the figures are printed, for the README and for regressions.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing the package

import redis  # noqa: E402
from rich.console import Console  # noqa: E402

from bench import pipeline_io, pipeline_report  # noqa: E402
from bench.pipeline_sides import (  # noqa: E402
    STORE_SERVER_ENV,
    QgsSide,
    Series,
    baseline_side,
    count_at_least,
    flat_queues,
    hop_jobs,
    pipeline_finished,
    publish_noop_chains,
    publish_noop_flat,
    publish_tasks,
    qgs_side,
    store_errors,
    task_hops,
)
from bench.workers import Run, Worker, private_redis, redis_db, timed_batch  # noqa: E402
from bench.workloads import TaskSpec, mix, read_examples, round_count, simple  # noqa: E402

console = Console(width=None if sys.stdout.isatty() else 160)
FLAT_JOBS_MIN = 900
"""The flat no-op batch runs at least this many jobs (a shorter window is mostly noise)."""


class SqlCounter:
    """SQL statements this process sends (the client's share of a batch: start_task, submit)."""

    def __init__(self) -> None:
        from sqlalchemy import event
        from sqlalchemy.engine import Engine

        self.count = 0
        event.listen(Engine, "before_cursor_execute", self._on)

    def _on(self, *_: object, **__: object) -> None:
        self.count += 1

    def __call__(self) -> int:
        return self.count


@dataclass
class Part1:
    """The zero-latency scenarios, each a Series of the same repetitions."""

    noop_flat: Series
    chain_reviewed: Series
    reviewed_rules: Series
    chain_simple: Series
    simple_rules: Series
    chain_mix: Series
    mix_rules: Series
    mix_loopback: Series
    mix_rounds: int = 0
    mix_jobs_per_round: float = 0.0
    workers: list[Worker] = field(default_factory=list)


def run_pipeline(
    side: QgsSide,
    tasks: Sequence[TaskSpec],
    server: redis.Redis,
    sql: SqlCounter,
    *,
    final_last: bool = True,
) -> Run:
    """One pre-loaded pipeline batch; errors read from the store afterwards."""
    rounds = round_count(tasks)
    publish = publish_tasks(side.client, tasks, final_last=final_last)
    run = timed_batch(
        side.worker, publish, pipeline_finished(side.client, rounds), rounds, server, sql
    )
    run.errors = store_errors(side.client, publish.prefix)  # type: ignore[attr-defined]
    return run


def shape_of(
    side: QgsSide,
    tasks: Sequence[TaskSpec],
    server: redis.Redis,
    sql: SqlCounter,
    *,
    final_last: bool = True,
) -> list[list[list[str]]]:
    """Run a workload once (a warm-up) and read the hops each round took from the store."""
    publish = publish_tasks(side.client, tasks, final_last=final_last)
    rounds = round_count(tasks)
    timed_batch(side.worker, publish, pipeline_finished(side.client, rounds), rounds, server, sql)
    return task_hops(side.client, publish.prefix, len(tasks))  # type: ignore[attr-defined]


def part1(args: argparse.Namespace, server_url: str, dbs: Sequence[int], workdir: Path) -> Part1:
    """Three workers side by side (no-op, rules judge, loopback judge), each on its own Redis db.

    Only one works at a time; within each repetition the scenarios take turns, so a slow patch
    of the machine hits the baselines and the pipeline alike.
    """
    from tests.fake_openai import FakeOpenAIServer

    pool, conc = "threads", 8
    sql = SqlCounter()
    examples = read_examples()[: args.mix_examples or None]
    out = Part1(
        Series("no-op job, flat"),
        Series("no-op chained like a reviewed round"),
        Series("pipeline, reviewed, rules judge"),
        Series("no-op chained like a simple round"),
        Series("pipeline, simple, rules judge"),
        Series("no-op chained like the mix's rounds"),
        Series("pipeline, mix, rules judge"),
        Series("pipeline, mix, loopback OpenAI judge (0 ms)"),
    )
    with contextlib.ExitStack() as stack:
        base_url, server = stack.enter_context(redis_db(server_url, dbs[0]))
        base = stack.enter_context(baseline_side("no-op Celery job", base_url, workdir, pool, conc))
        rules_url, _ = stack.enter_context(redis_db(server_url, dbs[1]))
        rules = stack.enter_context(
            qgs_side("QGS, rules judge", rules_url, workdir, pool, conc, None)
        )
        reviewed_url, _ = stack.enter_context(redis_db(server_url, dbs[3]))
        reviewed = stack.enter_context(
            qgs_side("QGS, rules judge, critic every round", reviewed_url, workdir, pool, conc,
                     None, **pipeline_io.REVIEW_ONLY)
        )  # fmt: skip
        judge = stack.enter_context(FakeOpenAIServer())
        fake_url, _ = stack.enter_context(redis_db(server_url, dbs[2]))
        fake = stack.enter_context(
            qgs_side("QGS, loopback judge", fake_url, workdir, pool, conc, judge)
        )
        # Warm-up: the QGS runtime, store and judge are built on a worker's first job; the mix's
        # warm-up run also gives the shape (hops per round) its chained no-op copies.
        hops = shape_of(rules, mix(1, f"w{uuid.uuid4().hex[:6]}", examples), server, sql)
        run_pipeline(fake, mix(1, f"w{uuid.uuid4().hex[:6]}", examples), server, sql)
        one = shape_of(rules, simple(1, f"w{uuid.uuid4().hex[:6]}"), server, sql)
        run_pipeline(rules, simple(20, f"w{uuid.uuid4().hex[:6]}"), server, sql)
        r_one = shape_of(
            reviewed, simple(1, f"w{uuid.uuid4().hex[:6]}"), server, sql, final_last=False
        )
        run_pipeline(
            reviewed, simple(20, f"w{uuid.uuid4().hex[:6]}"), server, sql, final_last=False
        )
        r_hops = r_one * args.tasks
        mix_hops = hops * args.mix_copies
        s_hops = one * args.tasks
        flat = flat_queues(mix_hops)
        flat = flat * max(1, -(-FLAT_JOBS_MIN // len(flat)))
        timed_batch(base.worker, publish_noop_flat(base.app, flat[:100]), count_at_least(100),
                    100, server)  # fmt: skip
        out.mix_rounds = round_count(mix(args.mix_copies, "n", examples))
        out.mix_jobs_per_round = hop_jobs(mix_hops) / out.mix_rounds
        for rep in range(args.reps):
            console.log(f"zero-latency judge, repetition {rep + 1} of {args.reps} "
                        f"(load {os.getloadavg()[0]:.2f})")  # fmt: skip
            tag = f"r{rep}-{uuid.uuid4().hex[:6]}"  # new content in every batch
            out.noop_flat.runs.append(timed_batch(
                base.worker, publish_noop_flat(base.app, flat), count_at_least(len(flat)),
                len(flat), server,
            ))  # fmt: skip
            out.chain_reviewed.runs.append(timed_batch(
                base.worker, publish_noop_chains(base.app, r_hops),
                count_at_least(hop_jobs(r_hops)), len(r_hops), server,
            ))  # fmt: skip
            out.reviewed_rules.runs.append(run_pipeline(
                reviewed, simple(args.tasks, tag + "v"), server, sql, final_last=False
            ))  # fmt: skip
            out.chain_simple.runs.append(timed_batch(
                base.worker, publish_noop_chains(base.app, s_hops),
                count_at_least(hop_jobs(s_hops)), len(s_hops), server,
            ))  # fmt: skip
            out.simple_rules.runs.append(run_pipeline(rules, simple(args.tasks, tag), server, sql))
            out.chain_mix.runs.append(timed_batch(
                base.worker, publish_noop_chains(base.app, mix_hops),
                count_at_least(hop_jobs(mix_hops)), out.mix_rounds, server,
            ))  # fmt: skip
            tasks = mix(args.mix_copies, tag, examples)
            out.mix_rules.runs.append(run_pipeline(rules, tasks, server, sql))
            out.mix_loopback.runs.append(
                run_pipeline(fake, mix(args.mix_copies, tag + "f", examples), server, sql)
            )
            judge.forget()
        for w in (base.worker, reviewed.worker, rules.worker, fake.worker):
            w.after = w.memory_mb()
            out.workers.append(w)
    return out


@contextlib.contextmanager
def redis_server(args: argparse.Namespace) -> Iterator[str]:
    if args.private_redis:
        with private_redis() as url:
            yield url
    else:
        yield args.redis_url


QUICK = {
    "reps": 1, "tasks": 12, "mix_copies": 1, "mix_examples": 6, "io_rounds": 24,
    "io_latency_s": 0.1, "io_concurrency": 8, "mem_concurrency": 0, "skip_pools": True,
}  # fmt: skip
"""``--quick``: a smoke run of every part in seconds (the tests run it): tiny sizes, one
repetition, the I/O part at 8 threads and 100 ms, no memory run at 64 threads and no pools."""


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    add = parser.add_argument
    add("--reps", type=int, default=3, help="repetitions of every batch")
    add("--tasks", type=int, default=120, help="tasks of the simple workload a batch")
    add("--mix-copies", type=int, default=2, help="copies of the tasks/ transcripts a mix batch")
    add("--mix-examples", type=int, default=0, help="use only the first N transcripts (0: all)")
    add("--io-rounds", type=int, default=160, help="rounds an I/O-bound batch")
    add("--io-latency-s", type=float, default=0.5, help="judge latency of part 2, s")
    add("--io-concurrency", type=int, default=16, help="worker threads of part 2")
    add("--mem-concurrency", type=int, default=64, help="threads of the memory run (0: skip)")
    add("--pool-batch", type=int, default=40, help="final rounds a pool batch")
    add("--judge-latency-s", type=float, default=0.2, help="judge latency of part 3, s")
    add("--skip-io", action="store_true", help="skip part 2")
    add("--only-io", action="store_true", help="part 2 alone (no zero-latency part, no pools)")
    add("--before", type=Path, default=None,
        help="another checkout whose worker runs part 2's batches too, in turn")  # fmt: skip
    add("--skip-pools", action="store_true", help="skip part 3")
    add("--redis-url", default=os.environ.get("QGS_BENCH_REDIS_URL", "redis://127.0.0.1:6379"),
        help="the Redis server, without a db number")  # fmt: skip
    add("--dbs", default="13,14,15,10", help="four Redis db numbers (flushed before and after)")
    add("--private-redis", action="store_true", help="start a redis-server of the bench's own")
    add("--store-server", default=os.environ.get(STORE_SERVER_ENV, ""),
        help="a PostgreSQL server URL (postgresql+psycopg://user@host:port/db) for the QGS "
             "workers' stores, a new database each (default: a SQLite file each)")  # fmt: skip
    add("--quick", action="store_true", help="tiny sizes, seconds: a smoke run")
    args = parser.parse_args(list(argv))
    if args.quick:
        for key, value in QUICK.items():
            setattr(args, key, value)
    dbs = [int(d) for d in args.dbs.split(",")]
    if len(dbs) != 4 or len(set(dbs)) != 4:
        parser.error(f"--dbs takes four different db numbers (got {args.dbs!r})")
    args.db_list = dbs
    if args.store_server:  # read by pipeline_sides.fresh_store, in this process
        os.environ[STORE_SERVER_ENV] = args.store_server
    return args


def main(argv: Sequence[str]) -> int:
    args = parse(argv)
    started = time.perf_counter()
    with redis_server(args) as server_url:
        try:
            redis.Redis.from_url(f"{server_url}/{args.db_list[0]}", socket_connect_timeout=1).ping()
        except redis.RedisError as exc:
            console.print(f"[red]error:[/] no Redis at {server_url} ({exc}); start redis-server, "
                          "pass --redis-url, or --private-redis")  # fmt: skip
            return 2
        workdir = Path(tempfile.mkdtemp(prefix="qgs-bench-"))
        try:
            p1 = None if args.only_io else part1(args, server_url, args.db_list, workdir)
            io = (
                None if args.skip_io else pipeline_io.part2(args, server_url, args.db_list, workdir)
            )
            pools = (
                []
                if args.skip_pools or args.only_io
                else pipeline_io.part3(args, server_url, args.db_list, workdir)
            )
            pipeline_report.report(console, p1, io, pools, args, private=args.private_redis)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
    console.print(f"(bench ran {time.perf_counter() - started:.0f} s on {os.cpu_count()} CPUs, "
                  f"load average now {os.getloadavg()[0]:.2f})")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
