"""The pipeline bench's tables and ratio lines (medians with min-max over the repetitions).

Every ratio is taken within one repetition (the two sides ran minutes apart at most, turn
about), then the median and range of those ratios are shown. The ``ratio ... = x`` lines are
the headline figures; the tests check that a quick run prints them.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from bench.pipeline_sides import Series, ratios, spread, store_kind
from bench.workers import Run, Worker

if TYPE_CHECKING:
    from bench.pipeline_bench import Part1
    from bench.pipeline_io import IoPart, PoolResult


def rounds_per_s(r: Run) -> float:
    return r.rounds_per_s


def jobs_per_s(r: Run) -> float:
    return r.jobs_per_s


def cpu_ms(r: Run) -> float:
    return 1000 * r.cpu_s / r.rounds


def sql(r: Run) -> float:
    return r.sql / r.rounds


def client_sql(r: Run) -> float:
    return r.client_sql / r.rounds


def redis_cmds(r: Run) -> float:
    return r.redis_cmds / r.rounds


def load(r: Run) -> float:
    return r.load1


def _table(title: str, columns: Sequence[str]) -> Table:
    t = Table(title=title, title_justify="left")
    for i, name in enumerate(columns):
        t.add_column(name, justify="left" if i == 0 else "right")
    return t


def part1_table(p1: Part1, args: argparse.Namespace, private: bool) -> Table:
    redis_note = "bench only" if private else "server-wide"
    t = _table(
        f"1. Zero-latency judge, threads -c 8, {store_kind()} store: reviewed = {args.tasks} one-round "
        f"GENERATE tasks, the round non-final with the critic on every round (reviewed and "
        f"decided, no audit); simple = the same rounds final (reviewed and audited); mix = {args.mix_copies} x the tasks/ transcripts ({p1.mix_rounds} rounds); "
        f"median (min-max) of {args.reps}; per round (a no-op job counts as a round of 1 job)",
        ("scenario", "jobs/round", "rounds/s", "jobs/s", "÷ no-op jobs/s", "÷ chained no-op",
         "worker CPU ms", "worker SQL", "client SQL", f"Redis cmds ({redis_note})", "errors",
         "load 1 min"),
    )  # fmt: skip

    def row(s: Series, chained: Series | None, flat: bool = False) -> None:
        jobs_round = statistics.median(r.jobs / r.rounds for r in s.runs)
        t.add_row(
            s.label,
            f"{jobs_round:.2f}",
            "-" if flat else s.spread(rounds_per_s, ".1f"),
            s.spread(jobs_per_s),
            "1 (baseline)" if flat else spread(ratios(s, p1.noop_flat, rounds_per_s, jobs_per_s)),
            spread(ratios(s, chained, rounds_per_s, rounds_per_s)) if chained else "-",
            s.spread(cpu_ms, ".2f"),
            s.spread(sql, ".1f"),
            s.spread(client_sql, ".1f"),
            s.spread(redis_cmds, ".1f"),
            str(sum(r.errors for r in s.runs)),
            s.spread(load, ".2f"),
        )

    row(p1.noop_flat, None, flat=True)
    row(p1.chain_reviewed, None)
    row(p1.reviewed_rules, p1.chain_reviewed)
    row(p1.chain_simple, None)
    row(p1.simple_rules, p1.chain_simple)
    row(p1.chain_mix, None)
    row(p1.mix_rules, p1.chain_mix)
    row(p1.mix_loopback, p1.chain_mix)
    return t


def headline(console: Console, p1: Part1) -> None:
    for s, chained, what in (
        (
            p1.reviewed_rules,
            p1.chain_reviewed,
            "reviewed (critic every round, no audit), rules judge",
        ),
        (p1.simple_rules, p1.chain_simple, "simple, rules judge"),
        (p1.mix_rules, p1.chain_mix, "mix, rules judge"),
        (p1.mix_loopback, p1.chain_mix, "mix, loopback OpenAI judge"),
    ):
        flat = ratios(s, p1.noop_flat, rounds_per_s, jobs_per_s)
        chain = ratios(s, chained, rounds_per_s, rounds_per_s)
        console.print(
            f"ratio pipeline rounds/s / no-op jobs/s = {statistics.median(flat):.3f} "
            f"({min(flat):.3f}-{max(flat):.3f}); / chained no-op rounds/s = "
            f"{statistics.median(chain):.3f} ({min(chain):.3f}-{max(chain):.3f}): {what}, "
            f"{s.median(rounds_per_s):.1f} rounds/s, {s.median(jobs_per_s):.0f} jobs/s, "
            f"{s.median(cpu_ms):.1f} ms worker CPU a round"
        )


def io_table(io: IoPart) -> Table:
    t = _table(
        f"2. I/O-bound reviews: loopback judge answering after {io.latency_s * 1000:.0f} ms, "
        f"{store_kind()} store; "
        f"simple rounds, critic on every round (intake, critic, decide: one judge call); "
        f"bound = threads / latency; "
        f"median (min-max) of {len(io.qgs.runs)}",
        ("scenario", "rounds/s", "bound", "÷ bound", "÷ bare", "jobs/s", "worker CPU ms/round",
         "idle RSS", "peak RSS", "errors", "load 1 min"),
    )  # fmt: skip
    pairs = [(io.concurrency, io.qgs, io.bare, io.before)]
    if io.mem_qgs is not None and io.mem_bare is not None:
        pairs.append((io.mem_concurrency, io.mem_qgs, io.mem_bare, io.mem_before))
    workers = {w.label: w for w in io.workers}
    for c, q, b, old in pairs:
        bound = c / io.latency_s
        sides = [(b, f"bare worker -c {c}")]
        if old is not None:
            sides.append((old, f"QGS before io -c {c}"))
        for s, worker_label in (*sides, (q, f"QGS io -c {c}")):
            w = workers.get(worker_label)
            t.add_row(
                s.label,
                s.spread(rounds_per_s, ".1f"),
                f"{bound:.0f}",
                spread([v / bound for v in s.values(rounds_per_s)]),
                "1 (baseline)" if s is b else spread(ratios(s, b, rounds_per_s, rounds_per_s)),
                s.spread(jobs_per_s),
                s.spread(cpu_ms, ".2f"),
                f"{w.idle_rss_mb:.0f}" if w else "-",
                f"{w.peak_rss_mb:.0f}" if w else "-",
                str(sum(r.errors for r in s.runs)),
                s.spread(load, ".2f"),
            )
    return t


def io_headline(console: Console, io: IoPart) -> None:
    bound = io.bound
    q, b = io.qgs.values(rounds_per_s), io.bare.values(rounds_per_s)
    qb = ratios(io.qgs, io.bare, rounds_per_s, rounds_per_s)
    console.print(
        f"ratio QGS rounds/s / I/O bound = {statistics.median(q) / bound:.3f} "
        f"({min(q) / bound:.3f}-{max(q) / bound:.3f}); bare worker / bound = "
        f"{statistics.median(b) / bound:.3f} ({min(b) / bound:.3f}-{max(b) / bound:.3f}); "
        f"QGS / bare = {statistics.median(qb):.3f} ({min(qb):.3f}-{max(qb):.3f}): "
        f"{io.concurrency} threads, judge {io.latency_s * 1000:.0f} ms, bound {bound:.0f}/s, "
        f"{store_kind()} store"
    )
    if io.mem_qgs is not None:
        w = next((w for w in io.workers if w.label == f"QGS io -c {io.mem_concurrency}"), None)
        if w is not None:
            console.print(
                f"memory: {io.mem_concurrency} concurrent reviews in one QGS worker: peak RSS "
                f"{w.peak_rss_mb:.0f} MB (idle {w.idle_rss_mb:.0f} MB), "
                f"{io.mem_qgs.median(rounds_per_s):.1f} rounds/s of a bound of "
                f"{io.mem_concurrency / io.latency_s:.0f}"
            )


def before_headline(console: Console, io: IoPart) -> None:
    """``--before``: this tree's worker against the other checkout's, batch for batch."""
    if io.before is None:
        return
    rate = ratios(io.qgs, io.before, rounds_per_s, rounds_per_s)
    cpu = ratios(io.qgs, io.before, cpu_ms, cpu_ms)
    console.print(
        f"ratio after / before (rounds/s) = {statistics.median(rate):.3f} "
        f"({min(rate):.3f}-{max(rate):.3f}); worker CPU a round after / before = "
        f"{statistics.median(cpu):.3f} ({min(cpu):.3f}-{max(cpu):.3f}): {io.concurrency} threads"
    )
    workers = {w.label: w for w in io.workers}
    c = io.mem_concurrency
    new, old = workers.get(f"QGS io -c {c}"), workers.get(f"QGS before io -c {c}")
    if c and new is not None and old is not None:
        console.print(
            f"memory at {c} threads: peak RSS after {new.peak_rss_mb:.0f} MB (idle "
            f"{new.idle_rss_mb:.0f}), before {old.peak_rss_mb:.0f} MB (idle {old.idle_rss_mb:.0f})"
        )


def memory_table(workers: Sequence[Worker]) -> Table:
    t = _table(
        "Worker memory, MB (worker process + children; PSS counts shared pages once)",
        ("worker", "pool", "processes", "idle RSS", "peak RSS (sampled)", "RSS after", "PSS after"),
    )
    for w in workers:
        rss, pss, n = w.after
        t.add_row(w.label, f"{w.pool} -c {w.concurrency}", str(n), f"{w.idle_rss_mb:.0f}",
                  f"{w.peak_rss_mb:.0f}", f"{rss:.0f}", f"{pss:.0f}")  # fmt: skip
    return t


def pools_table(pools: Sequence[PoolResult], args: argparse.Namespace) -> Table:
    ref = pools[0].series
    t = _table(
        f"3. Pools: loopback judge answering after {args.judge_latency_s * 1000:.0f} ms, "
        f"{args.pool_batch} simple review-only rounds a batch, median (min-max) of {args.reps}",
        ("pool", "rounds/s", "vs threads", "bound: c / latency", "jobs/s", "worker CPU ms/round",
         "worker SQL/round", "PSS after", "errors"),
    )  # fmt: skip
    for p in pools:
        t.add_row(
            p.series.label,
            p.series.spread(rounds_per_s, ".1f"),
            spread(ratios(p.series, ref, rounds_per_s, rounds_per_s)),
            f"{p.worker.concurrency / args.judge_latency_s:.0f}",
            p.series.spread(jobs_per_s),
            p.series.spread(cpu_ms, ".2f"),
            p.series.spread(sql, ".1f"),
            f"{p.worker.after[1]:.0f}",
            str(sum(r.errors for r in p.series.runs)),
        )
    return t


def report(
    console: Console,
    p1: Part1 | None,
    io: IoPart | None,
    pools: Sequence[PoolResult],
    args: argparse.Namespace,
    *,
    private: bool,
) -> None:
    """Print every table, then the ratio lines (part 1's only when it ran)."""
    if p1 is not None:
        console.print(part1_table(p1, args, private))
    if p1 is not None and not private:
        console.print(
            "(Redis commands: INFO commandstats deltas of the whole server, so they include "
            "anything else that ran on it meanwhile; --private-redis counts the bench's alone)"
        )
    workers: list[Worker] = list(p1.workers) if p1 is not None else []
    if io is not None:
        console.print(io_table(io))
        workers += io.workers
    if pools:
        console.print(pools_table(pools, args))
        workers += [p.worker for p in pools]
    console.print(memory_table(workers))
    if p1 is not None:
        headline(console, p1)
    if io is not None:
        io_headline(console, io)
        before_headline(console, io)
