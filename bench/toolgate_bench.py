"""Latency of one tool-call check through the six layers, against bare jsonschema, same run.

Usage: .venv/bin/python bench/toolgate_bench.py [--reps 5] [--rounds 40] [--quick]

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
  flushed after): a process takes 1% of a limit per round trip, for at most a second, and a
  background thread asks for the next lease when half of one is gone;
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

Reported per scenario: p50 and p99 latency per check in microseconds (``perf_counter_ns``
around one call), and their ratio to the baseline's p50 and p99. Targets (issue 5): in-process
p50 <= 50 us, p99 <= 250 us, and <= 2x bare validation (checked for in-process and leased).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing the package

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # noqa: E402

from qgs_worker.client import Client  # noqa: E402
from qgs_worker.core.policy import Policy, Role  # noqa: E402
from qgs_worker.core.toolgate import DEFAULT_LAYERS, ToolGate, ToolRegistry  # noqa: E402
from qgs_worker.core.toolgate.layer4_rules import RulesLayer, url_host  # noqa: E402
from qgs_worker.core.toolgate.layer5_permission import PermissionLayer  # noqa: E402
from qgs_worker.core.toolgate.layer6_injection import LAYER as INJECTION  # noqa: E402
from qgs_worker.core.toolgate.spec import BusinessRules, Permission, RateLimit  # noqa: E402
from qgs_worker.ratelimit import LocalRateLimiter, RedisRateLimiter  # noqa: E402
from qgs_worker.settings import Settings  # noqa: E402
from qgs_worker.toolgate_io import stat_file_size  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
TARGET_P50_US, TARGET_P99_US, TARGET_RATIO = 50.0, 250.0, 2.0
ROTATION = 100
"""Distinct tools lists in rotation through the client (issue 15 saw the cliff at 33)."""


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


def count_round_trips(limiter: RedisRateLimiter) -> dict[str, int]:
    """Count the limiter's lease requests by the thread that made them (caller or renewal)."""
    counts = {"caller": 0, "renewal": 0}
    script = limiter._script

    def counted(*args: Any, **kwargs: Any) -> Any:
        renewal = threading.current_thread().name == "qgs-ratelimit-renew"
        counts["renewal" if renewal else "caller"] += 1
        return script(*args, **kwargs)

    limiter._script = counted
    return counts


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
    local = LocalRateLimiter()
    ahead = RedisRateLimiter(client, lease_fraction=0.01, renew_ahead=True)
    leased = RedisRateLimiter(client, lease_fraction=0.01)
    exact = RedisRateLimiter(client)
    domains = hosts_in(items)
    cases = []
    for tools, call in items:
        gates = [gate_for(tools, limiter, domains) for limiter in (local, ahead, leased, exact)]
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

    trips = {
        "renewed ahead": count_round_trips(ahead),
        "on the caller's path": count_round_trips(leased),
    }
    names = (
        "bare jsonschema (baseline)",
        "six layers, in-process",
        "six layers, Redis rate limit, leased, renewed ahead",
        "six layers, Redis rate limit, leased, renewed on the caller's path",
        "six layers, Redis rate limit, a round trip per call",
        f"client, {ROTATION} tools lists in rotation, same objects",
        f"client, {ROTATION} tools lists in rotation, fresh copies",
    )
    per_rep: dict[str, list[tuple[float, float]]] = {n: [] for n in names}
    for _ in range(args.reps):
        samples: dict[str, list[int]] = {n: [] for n in names}
        for _ in range(args.rounds):
            for index, name in enumerate(names[:5]):  # scenarios take turns, a pass each
                for case in cases:
                    samples[name].append(timed(case[index]))
            for gate_call in same_objects:
                samples[names[5]].append(timed(gate_call))
            for fresh_call in fresh:
                fresh_call.prepare()
                samples[names[6]].append(timed(fresh_call))
        for name in names:
            per_rep[name].append((percentile(samples[name], 0.5), percentile(samples[name], 0.99)))
    client.flushdb()
    rebuilt = offline.gate_cache.builds - built
    store.cleanup()

    base = per_rep[names[0]]
    print(f"{len(cases)} calls x {args.rounds} rounds x {args.reps} repetitions per scenario\n")
    print("| scenario | p50 us | p99 us | p50 vs bare | p99 vs bare |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name in names:
        rows = per_rep[name]
        p50 = statistics.median(r[0] for r in rows)
        p99 = statistics.median(r[1] for r in rows)
        r50 = statistics.median(r[0] / b[0] for r, b in zip(rows, base, strict=True))
        r99 = statistics.median(r[1] / b[1] for r, b in zip(rows, base, strict=True))
        print(f"| {name} | {p50:.1f} | {p99:.1f} | {r50:.2f} | {r99:.2f} |")
    print(
        f"\ngates built during the timed passes of the rotation: {rebuilt} "
        f"({ROTATION} lists, {offline.gate_cache.builds} gates built in all)"
    )
    for how, counts in trips.items():
        print(
            f"leased, renewed {how.removeprefix('renewed ')}: lease requests made by the caller "
            f"{counts['caller']}, by the renewal thread {counts['renewal']}"
        )
    for name in names[1:4]:
        rows = per_rep[name]
        p50 = statistics.median(r[0] for r in rows)
        p99 = statistics.median(r[1] for r in rows)
        ratio = statistics.median(r[0] / b[0] for r, b in zip(rows, base, strict=True))
        print(
            f"targets ({name}): p50 {p50:.1f} <= {TARGET_P50_US:g} us: "
            f"{'met' if p50 <= TARGET_P50_US else 'MISSED'}; p99 {p99:.1f} <= "
            f"{TARGET_P99_US:g} us: {'met' if p99 <= TARGET_P99_US else 'MISSED'}; "
            f"{ratio:.2f}x <= {TARGET_RATIO:g}x bare: {'met' if ratio <= TARGET_RATIO else 'MISSED'}"
        )
        print(f"ratio p50 / bare jsonschema p50 = {ratio:.2f}: {name}")
    shown = ", ".join(
        f"{short} {statistics.median(r[0] / b[0] for r, b in zip(per_rep[n], base, strict=True)):.2f}x"
        for short, n in zip(("in-process", "leased ahead", "leased", "round trip", "rotation",
                             "rotation fresh"),
                            names[1:], strict=True)
    )  # fmt: skip
    print(f"ratio p50 vs bare jsonschema: {shown}")


if __name__ == "__main__":
    main()
