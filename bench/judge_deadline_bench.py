"""Judge calls under a trickling judge: at most one per (round, role) in flight (issue 31).

Usage: .venv/bin/python bench/judge_deadline_bench.py [--rounds 6] [--timeout-s 1] [--quick]

A loopback OpenAI-compatible judge answers every call by sending its headers at once and then a
byte every 50 ms for 20 s (``tests.fake_openai.Answer.trickle``): a server that keeps the
connection alive, so a client that bounds each read never times out. Before issue 31 a call
with a 2 s timeout stayed open 20 s, past its review lease and the broker's visibility timeout,
and a second and third copy of one review called the judge at once (three in flight, 15 calls
for 3 rounds).

A real Celery worker (threads, in this process) reviews ``--rounds`` final GENERATE rounds with
``QGS_JUDGE__TIMEOUT_S=--timeout-s``, two judge retries, a visibility timeout of 12 s and the
sweeper every second. Printed: the most calls of one (round, role) open at once, seen from the
server (target: 1), the most calls of one (round, role) in all against 1 + the retry budget
(the critic's review, and the audit the failed review brings on), the longest call against the
timeout, and the wall time. Needs Redis (``QGS_BENCH_REDIS_URL``, default
``redis://127.0.0.1:6379/15``; the db must be empty, and is flushed after).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing the package

import redis  # noqa: E402

from qgs_worker.client import Client  # noqa: E402
from qgs_worker.config.settings import (  # noqa: E402
    DiscriminatorSettings,
    JudgeSettings,
    Settings,
    WorkerSettings,
)
from qgs_worker.errors import WaitTimeoutError  # noqa: E402
from tests.fake_openai import Answer, FakeOpenAIServer  # noqa: E402

RETRIES = 2
"""Judge retries of one review (``QGS_WORKER__JUDGE_MAX_RETRIES``)."""


def run(redis_url: str, rounds: int, timeout_s: float) -> dict[str, float]:
    """Review ``rounds`` rounds against the trickling judge; the figures of the docstring."""
    from celery.contrib.testing.worker import start_worker

    from qgs_worker.queue.celery_app import create_celery_app

    folder = tempfile.TemporaryDirectory(prefix="qgs-judge-deadline-bench-")
    with FakeOpenAIServer() as judge:
        judge.default = Answer.trickle(20.0)
        settings = Settings(
            data_dir=Path(folder.name) / ".qgs",
            broker_url=redis_url,
            database_url=f"sqlite:///{folder.name}/qgs.db",
            judge=JudgeSettings(
                kind="openai", base_url=judge.base_url, api_key="k", timeout_s=timeout_s
            ),
            worker=WorkerSettings(
                judge_max_retries=RETRIES,
                retry_backoff_max_s=1.0,
                soft_time_limit_s=timeout_s + 1,
                time_limit_s=timeout_s + 2,
                visibility_timeout_s=12.0,
                restore_interval_s=1.0,
                sweep_interval_s=1.0,
            ),
            discriminator=DiscriminatorSettings(roles=("security_auditor",)),
        )
        app = create_celery_app(settings)
        client = Client(settings)
        started = time.monotonic()
        with start_worker(
            app, pool="threads", concurrency=4, perform_ping_check=False, loglevel="WARNING"
        ):
            task_subs = []
            for n in range(rounds):
                task = client.start_task(f"write an article about topic {n}")
                task_subs.append(client.submit(task.id, f"Article {n}: AI learns.", final=True))
            undecided = 0
            for sub in task_subs:
                try:
                    client.wait(sub.id, timeout_s=max(1.0, 120 - (time.monotonic() - started)))
                except WaitTimeoutError as exc:
                    undecided += 1
                    print(f"not decided within 120 s: {exc}", file=sys.stderr)
        wall_s = time.monotonic() - started
        deadline = time.monotonic() + 5
        while judge.in_flight and time.monotonic() < deadline:
            time.sleep(0.02)
        most = judge.most_in_flight
        per_round = Counter(key for key, _ in judge.durations)
        longest = max((seconds for _, seconds in judge.durations), default=0.0)
        client.repo.dispose()
        runtime = getattr(app, "qgs_runtime", None)
        if runtime is not None:
            runtime.repo.dispose()
    folder.cleanup()
    return {
        "rounds": rounds,
        "most_in_flight": max(most.values(), default=0),
        "most_calls_a_round": max(per_round.values(), default=0),
        "keys": len(per_round),
        "calls": sum(per_round.values()),
        "longest_call_s": longest,
        "timeout_s": timeout_s,
        "wall_s": wall_s,
        "undecided": undecided,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--timeout-s", type=float, default=1.0)
    parser.add_argument("--quick", action="store_true", help="two rounds")
    args = parser.parse_args()
    if args.quick:
        args.rounds = 2
    redis_url = os.environ.get("QGS_BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
    broker = redis.Redis.from_url(redis_url)
    try:
        broker.ping()
    except redis.RedisError as exc:
        sys.exit(f"Redis at {redis_url} is not reachable ({exc}); start it")
    if broker.dbsize():
        sys.exit(f"Redis db {redis_url} is not empty: the bench flushes it; point "
                 "QGS_BENCH_REDIS_URL at an empty one")  # fmt: skip
    try:
        found = run(redis_url, args.rounds, args.timeout_s)
    finally:
        broker.flushdb()
    print("judge calls under a trickling judge (a byte every 50 ms for 20 s; issue 31):")
    print(f"  rounds {found['rounds']:.0f} ({found['undecided']:.0f} not decided within 120 s), "
          f"judge calls {found['calls']:.0f}, wall {found['wall_s']:.1f} s")  # fmt: skip
    print(f"  most calls of one (round, role) in flight at once: {found['most_in_flight']:.0f} "
          "(target: never more than 1)")  # fmt: skip
    print(f"  most calls of one (round, role), over {found['keys']:.0f}: "
          f"{found['most_calls_a_round']:.0f} (target: <= 1 + {RETRIES} retries)")  # fmt: skip
    print(f"  longest call: {found['longest_call_s']:.2f} s "
          f"(QGS_JUDGE__TIMEOUT_S {found['timeout_s']:g} s)")  # fmt: skip
    print(f"ratio calls of one (round, role) in flight at most / 1 = "
          f"{found['most_in_flight']:.2f}")  # fmt: skip
    print(f"ratio longest call / QGS_JUDGE__TIMEOUT_S = "
          f"{found['longest_call_s'] / found['timeout_s']:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
