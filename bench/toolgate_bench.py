"""Latency of one tool-call check through the six layers, against bare jsonschema, same run.

Usage: .venv/bin/python bench/toolgate_bench.py [--reps 5] [--rounds 40] [--quick]

Then the gate against the size of the tools list (``bench/toolgate_scaling.py``, issue 31): the
check by a registered handle and with the list passed each call at 10, 100 and 1,000 tools,
layer 3 against fastjsonschema, and the whole gate's p50.

``--quick``: one repetition of two rounds (seconds), for the test that runs every bench.

Workload: every call of ``../shared/corpus/a_bfcl_tool_calls_valid.jsonl`` in its OpenAI form
with its own tools (61 calls), ``--rounds`` times per repetition.

Scenarios take turns within each repetition, one pass over all the calls each, ``--rounds``
times (these machines are noisy, so every figure is also given as a ratio to the baseline
measured in the same repetition):

- baseline: bare jsonschema, ``json.loads`` of the call's arguments and ``validate`` with a
  ``Draft202012Validator`` built once per tool (what a gate that only validates would do);
- six layers in-process: ``ToolGate`` with format, existence, parameters, business rules (a
  rate limit, a file-size limit and a domain allowlist on every tool, the in-process sliding
  window), permission (a policy allowing every tool) and injection;
- six layers, Redis rate limit, leased, renewed ahead (what ``build_gate`` does on a broker):
  the same with ``RedisRateLimiter(lease_fraction=0.01, renew_ahead=True)`` on a real Redis
  (``QGS_BENCH_REDIS_URL``, default ``redis://127.0.0.1:6379/12``; it must be empty, and is
  flushed after): a process takes 1% of a limit per round trip, for at most a second, and the
  hit that finds half of a lease gone sends the request for the next one without waiting for
  it (a later hit reads the answer);
- six layers, Redis rate limit, leased, renewed on the caller's path (``renew_ahead=False``,
  what ``build_gate`` did before issue 15): the caller whose hit finds its lease ended makes
  the round trip;
- six layers, Redis rate limit, a round trip per call (``lease_fraction=0``: what the judge's
  limits use, and a deployment that sets ``QGS_TOOLGATE__RATE_LIMIT_LEASE=0``);
- ``Client.check_tool_call(call, tools=...)``, 100 tools lists in rotation (issue 15: the
  client's gate cache held 32, so 33 lists in rotation rebuilt a gate on every call): each
  call's own tools plus one tool of its own (``extra_<n>``), so the 100 lists differ; the same
  100 list objects every pass (found by identity), and fresh copies of them every call (found
  by content: equal definitions in a new object; the copies are made outside the timer).
  The client is offline (no broker: the in-process rate limit, no policy file, no logging).

The rate limit alone: in the four gate scenarios after the baseline, the limiter's own
``hit`` is timed too (``TimedLimiter``, around the call the business-rules layer makes inside
each check), with the in-process sliding window as its baseline: the issue 15 figure ("the
leased Redis rate limit's p99") separated from the rest of the check.

Reported per scenario: p50 and p99 latency per check (or per hit) in microseconds
(``perf_counter_ns`` around one call, about 0.1 us), and their ratio to the baseline's p50 and
p99 taken within each repetition; every figure is the median and (min-max) over the
repetitions, and the 1-minute load average is printed after each repetition (a load above the
core count means the process waited for a core: p99 then measures the machine). Also printed:
garbage collections during the timed passes, by generation, and how the leased limiters asked
Redis. Targets (issue 5): in-process p50 <= 50 us, p99 <= 250 us, and <= 2x bare validation
(checked for in-process and leased); issue 15: the leased rate limit's p99 <= 250 us.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import astuple
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing the package

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # noqa: E402

from bench.toolgate_report import GATES, LIMITS, ROTATION, print_report  # noqa: E402
from qgs_worker.client import Client  # noqa: E402
from qgs_worker.config.settings import Settings  # noqa: E402
from qgs_worker.config.toolgate_io import stat_file_size  # noqa: E402
from qgs_worker.core.policy import Policy, Role  # noqa: E402
from qgs_worker.core.toolgate import DEFAULT_LAYERS, ToolGate, ToolRegistry  # noqa: E402
from qgs_worker.core.toolgate.layer4_rules import RulesLayer, url_host  # noqa: E402
from qgs_worker.core.toolgate.layer5_permission import PermissionLayer  # noqa: E402
from qgs_worker.core.toolgate.layer6_injection import LAYER as INJECTION  # noqa: E402
from qgs_worker.core.toolgate.spec import BusinessRules, Permission, RateLimit  # noqa: E402
from qgs_worker.limits.ratelimit import LeaseStats, LocalRateLimiter, RedisRateLimiter  # noqa: E402

CORPUS = Path(os.environ.get("QGS_BENCH_CORPUS", ROOT.parent / "shared" / "corpus"))


def workload() -> list[tuple[list[dict[str, Any]], dict[str, Any]]]:
    """``(tools, call)`` for every valid BFCL call, in OpenAI form."""
    items = []
    with (CORPUS / "a_bfcl_tool_calls_valid.jsonl").open(encoding="utf-8") as stream:
        for line in stream:
            record = json.loads(line)
            for call in record["assistant_message"]["tool_calls"]:
                items.append((record["tools"], call))
    return items


def hosts_in(items: list[tuple[list[dict[str, Any]], dict[str, Any]]]) -> tuple[str, ...]:
    """Every host named in the calls' arguments: the allowlist a deployment would configure."""
    found = {
        url_host(url)[0] or ""
        for _, call in items
        for url in re.findall(
            r"https?://[^\s\"']+|[\w.+-]+@[\w.-]+:", call["function"]["arguments"]
        )
    }
    return tuple(sorted(h for h in found if h)) or ("example.com",)


def gate_for(tools: list[dict[str, Any]], limiter: Any, domains: tuple[str, ...]) -> ToolGate:
    registry = ToolRegistry.from_openai(tools)
    rules = RulesLayer(
        limiter,
        defaults=BusinessRules(
            rate_limit=RateLimit(10**9, 60.0),
            max_file_bytes=10_000_000,
            allowed_domains=domains,
        ),
        file_size=stat_file_size,
    )
    policy = Policy(
        [Role(name="agent", tools=("*",), permissions=frozenset(Permission))],
        principals={"bench": ("agent",)},
    )
    return ToolGate(registry, layers=(*DEFAULT_LAYERS, rules, PermissionLayer(policy), INJECTION))


def bare_validator(tools: list[dict[str, Any]], call: dict[str, Any]) -> Callable[[], None]:
    schemas = {t["function"]["name"]: t["function"]["parameters"] for t in tools}
    validator = Draft202012Validator(schemas[call["function"]["name"]])
    arguments = call["function"]["arguments"]
    return lambda: validator.validate(json.loads(arguments))


def rotation(
    items: list[tuple[list[dict[str, Any]], dict[str, Any]]],
) -> list[tuple[list[dict[str, Any]], dict[str, Any]]]:
    """``ROTATION`` distinct ``(tools, call)``: a call's own tools plus a tool of the list's own."""
    lists = []
    for n in range(ROTATION):
        tools, call = items[n % len(items)]
        extra = {"type": "function", "function": {"name": f"extra_{n}", "parameters": {}}}
        lists.append((json.loads(json.dumps([*tools, extra])), call))
    return lists


class FreshCopies:
    """Each call gets a fresh copy of its tools list, made before the timer starts."""

    def __init__(self, client: Client, tools: list[dict[str, Any]], call: dict[str, Any]) -> None:
        self.client, self.tools, self.call = client, tools, call
        self.copy = copy.deepcopy(tools)

    def __call__(self) -> object:
        tools, self.copy = self.copy, None
        return self.client.check_tool_call(self.call, tools=tools, principal="bench", log=False)

    def prepare(self) -> None:
        self.copy = copy.deepcopy(self.tools)


class TimedLimiter:
    """A rate limiter that times each of its ``hit`` calls: the limit's own share of a check."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.samples: list[int] = []

    def hit(self, key: str, *, limit: int, window_s: float, cost: int = 1) -> Any:
        start = time.perf_counter_ns()
        decision = self.inner.hit(key, limit=limit, window_s=window_s, cost=cost)
        self.samples.append(time.perf_counter_ns() - start)
        return decision


class Collections:
    """Garbage collections while the timed passes run (``gc.callbacks``), by generation."""

    def __init__(self) -> None:
        self.by_generation = [0, 0, 0]
        gc.callbacks.append(self._seen)

    def _seen(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.by_generation[info["generation"]] += 1


def _minus(after: LeaseStats, before: LeaseStats) -> LeaseStats:
    return LeaseStats(*(a - b for a, b in zip(astuple(after), astuple(before), strict=True)))


def timed(fn: Callable[[], object]) -> int:
    start = time.perf_counter_ns()
    fn()
    return time.perf_counter_ns() - start


def percentile(samples: list[int], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] / 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--quick", action="store_true", help="one repetition of 2 passes")
    args = parser.parse_args()
    if args.quick:
        args.reps, args.rounds = 1, 2
    if not CORPUS.is_dir():  # a clone without ../shared: skipped, as the tests skip
        print(f"skipped: the shared corpus is not at {CORPUS} (its BFCL calls are the workload)")
        return

    import redis

    redis_url = os.environ.get("QGS_BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
    client = redis.Redis.from_url(redis_url)
    try:
        client.ping()
    except redis.RedisError as exc:
        sys.exit(
            f"Redis at {redis_url} is not reachable ({exc}); start it or set QGS_BENCH_REDIS_URL"
        )
    if client.dbsize():
        sys.exit(
            f"Redis db {redis_url} is not empty: the bench flushes its db; point "
            "QGS_BENCH_REDIS_URL at an empty one"
        )

    items = workload()
    ahead = RedisRateLimiter(client, lease_fraction=0.01, renew_ahead=True)
    leased = RedisRateLimiter(client, lease_fraction=0.01)
    limiters = [
        TimedLimiter(inner)
        for inner in (LocalRateLimiter(), ahead, leased, RedisRateLimiter(client))
    ]
    domains = hosts_in(items)
    cases = []
    for tools, call in items:
        gates = [gate_for(tools, limiter, domains) for limiter in limiters]
        cases.append(
            (
                bare_validator(tools, call),
                *(
                    lambda g=g, c=call: g.check(c, principal="bench", agent_id="bench")
                    for g in gates
                ),
            )
        )
    # every call must pass all six layers, or the bench would time early exits
    for case in cases:
        for gate_call in case[1:]:
            report = gate_call()
            assert report.allowed, report.to_dict()

    store = tempfile.TemporaryDirectory(prefix="qgs-toolgate-bench-")  # the client's store
    offline = Client(
        Settings(
            data_dir=Path(store.name), database_url=f"sqlite:///{store.name}/q.db", broker_url=None
        )
    )
    rotated = rotation(items)
    same_objects = [
        lambda t=tools, c=call: offline.check_tool_call(c, tools=t, principal="bench", log=False)
        for tools, call in rotated
    ]
    fresh = [FreshCopies(offline, tools, call) for tools, call in rotated]
    for gate_call in same_objects:
        report = gate_call()
        assert report.allowed, report.to_dict()  # and every gate is built before the timing
    built = offline.gate_cache.builds

    asked = {"renewed ahead": (ahead, ahead.stats), "on the caller's path": (leased, leased.stats)}
    per_rep: dict[str, list[tuple[float, float]]] = {n: [] for n in GATES + LIMITS}
    loads: list[float] = []
    collections = Collections()
    for _ in range(args.reps):
        samples: dict[str, list[int]] = {n: [] for n in GATES}
        for limiter in limiters:
            limiter.samples = []
        for _ in range(args.rounds):
            for index, name in enumerate(GATES[:5]):  # scenarios take turns, a pass each
                for case in cases:
                    samples[name].append(timed(case[index]))
            for gate_call in same_objects:
                samples[GATES[5]].append(timed(gate_call))
            for fresh_call in fresh:
                fresh_call.prepare()
                samples[GATES[6]].append(timed(fresh_call))
        samples.update(zip(LIMITS, (limiter.samples for limiter in limiters), strict=True))
        for name, taken in samples.items():
            per_rep[name].append((percentile(taken, 0.5), percentile(taken, 0.99)))
        loads.append(os.getloadavg()[0])
    gc.callbacks.remove(collections._seen)
    client.flushdb()
    trips = {how: _minus(limiter.stats, before) for how, (limiter, before) in asked.items()}
    rebuilt = offline.gate_cache.builds - built
    store.cleanup()
    print_report(
        args, len(cases), per_rep, loads, collections, (rebuilt, offline.gate_cache.builds), trips
    )
    from bench.toolgate_scaling import measure, print_scaling  # issue 31: the list's size

    print_scaling(measure(40 if args.quick else 400))


if __name__ == "__main__":
    main()
