"""The pipeline bench's I/O-bound parts: reviews waiting on a slow judge, and the pools.

Part 2 (issue 15, P2): the loopback judge (``tests/fake_openai.py``) answers every review after
``--io-latency-s``; a QGS worker with ``--io-concurrency`` threads reviews simple final rounds
(intake, critic, decide). With c threads and latency L no worker can beat c / L reviews a
second (the I/O bound); the baseline is a bare Celery + openai worker (``bench.bare_review``,
the same pool and concurrency) sending the very requests QGS sent (recorded by the judge in
the warm-up), with nothing else to do. Then the same at ``--mem-concurrency`` threads, to see
what that many concurrent reviews cost in one process (peak RSS, sampled while it runs).

Part 3: one batch of final rounds on ``threads -c 8``, ``prefork -c 8`` and ``solo``, the
judge answering after ``--judge-latency-s``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import redis
from rich.console import Console

from bench.pipeline_sides import (
    BaselineSide,
    QgsSide,
    Series,
    baseline_side,
    count_at_least,
    pipeline_finished,
    publish_bare,
    publish_tasks,
    qgs_side,
    store_errors,
)
from bench.workers import Run, Worker, redis_db, timed_batch
from bench.workloads import round_count, simple

if TYPE_CHECKING:
    from tests.fake_openai import FakeOpenAIServer

console = Console(width=160)


@dataclass
class IoPart:
    """Part 2's series: QGS and the bare worker at ``concurrency``, and the memory run."""

    concurrency: int
    latency_s: float
    qgs: Series
    bare: Series
    mem_concurrency: int = 0
    mem_qgs: Series | None = None
    mem_bare: Series | None = None
    workers: list[Worker] = field(default_factory=list)
    before: Series | None = None
    """``--before DIR``: the same batches on a worker of that checkout, alternating."""
    mem_before: Series | None = None

    @property
    def bound(self) -> float:
        return self.concurrency / self.latency_s


REVIEW_ONLY = {"QGS_CADENCE__CRITIC_EVERY": "1"}
"""The I/O-bound parts' QGS settings: with the critic on every round, a round submitted
non-final is intake, critic, decide: one judge call, what the bare worker makes (a final round
would also be audited, and the audit's LLM passes are calls the bare worker does not make)."""


def qgs_batch(side: QgsSide, n: int, server: redis.Redis) -> Run:
    """``n`` simple rounds through QGS (non-final: reviewed, not audited), pre-loaded."""
    tasks = simple(n, f"io-{uuid.uuid4().hex[:8]}")
    publish = publish_tasks(side.client, tasks, final_last=False)
    rounds = round_count(tasks)
    run = timed_batch(side.worker, publish, pipeline_finished(side.client, rounds), rounds, server)
    run.errors = store_errors(side.client, publish.prefix)  # type: ignore[attr-defined]
    return run


def bare_batch(side: BaselineSide, n: int, server: redis.Redis) -> Run:
    """``n`` bare review calls, pre-loaded."""
    return timed_batch(side.worker, publish_bare(side.app, n), count_at_least(n), n, server)


def io_pair(
    concurrency: int,
    reps: int,
    n: int,
    server_url: str,
    dbs: Sequence[int],
    workdir: Path,
    judge: FakeOpenAIServer,
    before: Path | None = None,
) -> tuple[Series, Series, list[Worker], Series | None]:
    """QGS and the bare worker at ``concurrency`` threads, repetitions alternating.

    With ``before`` (another checkout), a worker of that tree runs the same batches too, in
    turn with the other two, on a store of its own: the fourth value, ``None`` without it.
    """
    qgs_series = Series(f"QGS, threads -c {concurrency}")
    bare_series = Series(f"bare Celery + openai, threads -c {concurrency}")
    before_series = Series(f"QGS before ({before}), threads -c {concurrency}") if before else None
    old: QgsSide | None = None
    with contextlib.ExitStack() as stack:
        if before is not None:
            old_url, old_server = stack.enter_context(redis_db(server_url, dbs[2]))
            old = stack.enter_context(
                qgs_side(f"QGS before io -c {concurrency}", old_url, workdir, "threads",
                         concurrency, judge, before, **REVIEW_ONLY)
            )  # fmt: skip
            qgs_batch(old, concurrency, old_server)
        qgs_url, server = stack.enter_context(redis_db(server_url, dbs[1]))
        qgs = stack.enter_context(
            qgs_side(
                f"QGS io -c {concurrency}",
                qgs_url,
                workdir,
                "threads",
                concurrency,
                judge,
                **REVIEW_ONLY,
            )
        )
        qgs_batch(qgs, concurrency, server)  # warm-up: a review on every thread
        requests = workdir / f"requests-{concurrency}.json"
        bodies = judge.requests[-concurrency:]
        requests.write_text(json.dumps(bodies), encoding="utf-8")
        base_url, _ = stack.enter_context(redis_db(server_url, dbs[0]))
        bare = stack.enter_context(
            baseline_side(
                f"bare worker -c {concurrency}", base_url, workdir, "threads", concurrency,
                requests_file=requests, judge_url=judge.base_url,
            )
        )  # fmt: skip
        bare_batch(bare, concurrency, server)
        for rep in range(reps):
            console.log(f"I/O-bound reviews at -c {concurrency}, repetition {rep + 1} of {reps}")
            bare_series.runs.append(bare_batch(bare, n, server))
            if old is not None and before_series is not None:
                before_series.runs.append(qgs_batch(old, n, server))
            qgs_series.runs.append(qgs_batch(qgs, n, server))
            judge.forget()
        workers = [qgs.worker, bare.worker] + ([old.worker] if old else [])
        for w in workers:
            w.after = w.memory_mb()
    return qgs_series, bare_series, workers, before_series


def part2(args: argparse.Namespace, server_url: str, dbs: Sequence[int], workdir: Path) -> IoPart:
    from tests.fake_openai import Answer, FakeOpenAIServer

    with FakeOpenAIServer() as judge:
        judge.default = Answer.delay(args.io_latency_s, then=Answer.auto())
        before = getattr(args, "before", None)
        q, b, workers, old = io_pair(
            args.io_concurrency, args.reps, args.io_rounds, server_url, dbs, workdir, judge, before
        )
        part = IoPart(args.io_concurrency, args.io_latency_s, q, b, workers=workers, before=old)
        if args.mem_concurrency:
            c = args.mem_concurrency
            mq, mb, mworkers, mold = io_pair(
                c, 1, max(args.io_rounds, 4 * c), server_url, dbs, workdir, judge, before
            )
            part.mem_concurrency, part.mem_qgs, part.mem_bare = c, mq, mb
            part.mem_before = mold
            part.workers += mworkers
    return part


@dataclass
class PoolResult:
    worker: Worker
    series: Series


def part3(
    args: argparse.Namespace, server_url: str, dbs: Sequence[int], workdir: Path
) -> list[PoolResult]:
    """The same batch of final rounds on each pool, the judge answering after ``latency_s``."""
    from tests.fake_openai import Answer, FakeOpenAIServer

    results = []
    with FakeOpenAIServer() as judge:
        judge.default = Answer.delay(args.judge_latency_s, then=Answer.auto())
        for pool, conc in (("threads", 8), ("prefork", 8), ("solo", 1)):
            with (
                redis_db(server_url, dbs[1]) as (url, server),
                qgs_side(f"pool {pool}", url, workdir, pool, conc, judge, **REVIEW_ONLY) as side,
            ):
                series = Series(f"{pool} -c {conc}")
                qgs_batch(side, conc, server)  # warm-up: one round per thread/child
                for rep in range(args.reps):
                    console.log(f"pool {pool} -c {conc}, repetition {rep + 1} of {args.reps}")
                    series.runs.append(qgs_batch(side, args.pool_batch, server))
                    judge.forget()
                side.worker.after = side.worker.memory_mb()
                results.append(PoolResult(side.worker, series))
    return results
