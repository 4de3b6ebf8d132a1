"""Layer 4's rate limit on real Redis: processes sharing it together never exceed the limit.

Each process builds its own gate (layers 1-4, ``RulesLayer`` on a ``RedisRateLimiter``) and
checks calls of one tool for one agent as fast as it can; the limit must hold across them.
"""

from __future__ import annotations

import multiprocessing
import time
import uuid
from typing import Any

import pytest
import redis

from qgs_worker.core.toolgate import DEFAULT_LAYERS, RulesLayer, ToolGate, ToolRegistry
from qgs_worker.limits.ratelimit import KEY_PREFIX, USED_PREFIX, RedisRateLimiter
from tests.integration.test_ratelimit_redis import most_in_any_window

pytestmark = pytest.mark.integration

LIMIT = 5
START_DELAY_S = 3.0  # a spawned process needs about a second to import QGS and connect
CALL = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "send_sms", "arguments": '{"text": "hi"}'},
}

Queue = Any  # multiprocessing.Queue of a spawn context


def gate(url: str, window_s: float) -> ToolGate:
    tool = {
        "type": "function",
        "function": {
            "name": "send_sms",
            "parameters": {"type": "object", "properties": {"text": {"type": "string"}}},
        },
        "x-qgs": {"rate_limit": {"max_calls": LIMIT, "window_s": window_s}},
    }
    limiter = RedisRateLimiter(redis.Redis.from_url(url))
    rules = RulesLayer(limiter, fail_open=False)  # a Redis error must not pass as allowed
    return ToolGate(ToolRegistry.from_openai([tool]), layers=(*DEFAULT_LAYERS, rules))


def hammer(
    url: str, agent: str, window_s: float, start_at: float, run_s: float, out: Queue
) -> None:
    """Check calls until ``run_s`` has passed; report the times of the allowed ones."""
    checker = gate(url, window_s)
    while time.monotonic() < start_at:
        time.sleep(0.001)
    # A process that started late (a loaded machine: the imports outlast the start delay)
    # still checks for its whole run, from when it is ready.
    ends_at = max(start_at, time.monotonic()) + run_s
    allowed: list[float] = []
    refused = 0
    other: list[str] = []
    while time.monotonic() < ends_at:
        report = checker.check(CALL, agent_id=agent)
        if report.allowed:
            allowed.append(time.monotonic())
        elif report.stopped_at == 4 and "retry after" in report.errors[0]:
            refused += 1
        else:
            other.append(str(report.errors))
    out.put({"allowed": allowed, "refused": refused, "other": other[:3]})


def run(url: str, processes: int, window_s: float, run_s: float) -> list[dict[str, Any]]:
    agent = f"agent-{uuid.uuid4().hex[:8]}"
    key = f"{KEY_PREFIX}toolgate:-/{agent}:send_sms"
    client = redis.Redis.from_url(url)
    client.delete(key)
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    start_at = time.monotonic() + START_DELAY_S
    workers = [
        context.Process(target=hammer, args=(url, agent, window_s, start_at, run_s, out))
        for _ in range(processes)
    ]
    for worker in workers:
        worker.start()
    try:
        results = [out.get(timeout=30 + run_s) for _ in workers]
    finally:
        for worker in workers:
            worker.join(10)
        client.delete(key)
        client.close()
    return results


class TestSharedLimit:
    """Two processes on one Redis share one window per (agent, tool)."""

    def test_a_long_window_lets_exactly_the_limit_through(self, redis_url: str) -> None:
        results = run(redis_url, processes=2, window_s=30.0, run_s=1.0)
        assert [[], []] == [r["other"] for r in results]
        assert LIMIT == sum(len(r["allowed"]) for r in results)
        assert all(r["refused"] > 0 for r in results)  # both were there, both were refused

    def test_a_sliding_window_is_never_exceeded(self, redis_url: str) -> None:
        window_s, run_s = 0.5, 2.0
        results = run(redis_url, processes=2, window_s=window_s, run_s=run_s)
        allowed = sorted(t for r in results for t in r["allowed"])
        assert [[], []] == [r["other"] for r in results]
        assert most_in_any_window(allowed, window_s) <= LIMIT
        assert all(r["allowed"] for r in results)  # the window is shared, not starved
        assert len(allowed) >= LIMIT * (run_s / window_s) * 0.5  # and it lets calls through

    def test_a_lone_process_gets_exactly_the_limit(self, redis_url: str) -> None:
        (result,) = run(redis_url, processes=1, window_s=30.0, run_s=0.5)
        assert (LIMIT, []) == (len(result["allowed"]), result["other"])
        assert result["refused"] > 0


def test_cost_of_a_redis_backed_check(redis_url: str) -> None:
    """What layer 4 costs with Redis behind it (printed, not asserted): one round trip."""
    checker = gate(redis_url, 60.0)
    rules = checker.layers[-1]
    agent = f"agent-{uuid.uuid4().hex[:8]}"
    samples = []
    for _ in range(300):
        report = checker.check(CALL, agent_id=agent)
        samples.append(report.latency_us)
    samples.sort()
    print(
        f"\nlayers 1-4 with a RedisRateLimiter ({type(rules).__name__}): "
        f"p50 {samples[150]:.0f} us, p99 {samples[297]:.0f} us (mostly refused after {LIMIT})"
    )
    redis.Redis.from_url(redis_url).delete(f"{KEY_PREFIX}toolgate:-/{agent}:send_sms")


@pytest.mark.parametrize(("lease", "limit", "units"), [(None, 1000, [10]), (0.5, 10, [5, 5])])
def test_the_gate_built_from_settings_leases(
    redis_url: str, lease: float | None, limit: int, units: list[int]
) -> None:
    """``build_gate`` on a broker takes ``QGS_TOOLGATE__RATE_LIMIT_LEASE`` (default 1%) at once.

    Once half a lease is spent (3 calls of a lease of 5), the next is renewed ahead.
    """
    from qgs_worker.config.settings import Settings
    from qgs_worker.config.toolgate_io import build_gate, rate_limiter

    tool = {
        "type": "function",
        "function": {
            "name": "send_sms",
            "parameters": {"type": "object", "properties": {"text": {"type": "string"}}},
        },
        "x-qgs": {"rate_limit": {"max_calls": limit, "window_s": 60}},
    }
    toolgate = {} if lease is None else {"rate_limit_lease": lease}
    settings = Settings(broker_url=redis_url, toolgate=toolgate)  # type: ignore[arg-type]
    checker = build_gate(settings, ToolRegistry.from_openai([tool]))
    agent = f"agent-{uuid.uuid4().hex[:8]}"
    reports = [checker.check(CALL, agent_id=agent) for _ in range(3)]
    assert rate_limiter(settings)._inner.flush_renewals()  # type: ignore[attr-defined]
    client = redis.Redis.from_url(redis_url)
    key = f"{KEY_PREFIX}toolgate:-/{agent}:send_sms"
    held = [int(m.rsplit(b":", 1)[1]) for m in client.zrange(key, 0, -1)]
    assert [r.stopped_at for r in reports] == [None, None, None]
    assert units == held  # one round trip took the lease; the next two calls spent from it
    client.delete(key, f"{USED_PREFIX}toolgate:-/{agent}:send_sms")


def test_a_process_gives_its_leases_back_when_it_exits(redis_url: str) -> None:
    """One call from a short-lived process (``qgs check-tool``) holds 1 unit, not its lease."""
    import subprocess
    import sys

    key = f"toolgate-exit-{uuid.uuid4().hex[:8]}"
    code = (
        "from qgs_worker.config.settings import Settings\n"
        "from qgs_worker.config.toolgate_io import rate_limiter\n"
        f"limiter = rate_limiter(Settings(broker_url={redis_url!r}))\n"
        f"assert limiter.hit({key!r}, limit=1000, window_s=60).allowed\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert 0 == done.returncode, done.stderr
    client = redis.Redis.from_url(redis_url)
    held = [int(m.rsplit(b":", 1)[1]) for m in client.zrange(KEY_PREFIX + key, 0, -1)]
    assert [1] == held  # 10 units leased (1% of 1000), 9 given back at exit
    client.delete(KEY_PREFIX + key, USED_PREFIX + key)
