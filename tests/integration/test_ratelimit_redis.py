"""The Redis sliding window holds across processes: two processes together never exceed it."""

from __future__ import annotations

import multiprocessing
import time

import pytest
import redis

from qgs_worker.ratelimit import KEY_PREFIX, RedisRateLimiter

pytestmark = pytest.mark.integration

LIMIT = 5
WINDOW_S = 0.5
RUN_S = 2.0
LATENCY_SLACK_S = 0.05  # client-side times lag the Redis server's clock by a round trip


def most_in_any_window(times: list[float], window_s: float) -> int:
    """The most of ``times`` (sorted, client-side seconds) that fall in any one window."""
    return max(
        (
            sum(1 for t in times[i:] if t < start + window_s - LATENCY_SLACK_S)
            for i, start in enumerate(times)
        ),
        default=0,
    )


def hammer(url: str, key: str, start_at: float, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    limiter = RedisRateLimiter(redis.Redis.from_url(url))
    while time.monotonic() < start_at:
        time.sleep(0.001)
    allowed = []
    while time.monotonic() < start_at + RUN_S:
        if limiter.hit(key, limit=LIMIT, window_s=WINDOW_S).allowed:
            allowed.append(time.monotonic())
    out.put(allowed)


def test_two_processes_never_exceed_the_limit(redis_url: str) -> None:
    key = "test:two-processes"
    client = redis.Redis.from_url(redis_url)
    client.delete(KEY_PREFIX + key)
    context = multiprocessing.get_context("spawn")
    out: multiprocessing.Queue = context.Queue()  # type: ignore[type-arg]
    start_at = time.monotonic() + 2.0
    workers = [
        context.Process(target=hammer, args=(redis_url, key, start_at, out)) for _ in range(2)
    ]
    for w in workers:
        w.start()
    per_process = [out.get(timeout=30) for _ in workers]
    for w in workers:
        w.join(10)
    allowed = sorted(t for times in per_process for t in times)
    assert most_in_any_window(allowed, WINDOW_S) <= LIMIT
    assert all(per_process)  # both processes got some: the window is shared, not starved
    assert len(allowed) >= LIMIT * (RUN_S / WINDOW_S) * 0.5  # and it does let calls through
    client.delete(KEY_PREFIX + key)
