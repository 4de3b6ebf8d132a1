"""The tool gate against the size of the tools list (issue 31, item 5), for ``toolgate_bench``.

Usage: .venv/bin/python bench/toolgate_scaling.py [--reps 400]

Lists of 10, 100 and 1,000 tools are made from the BFCL corpus's tools (renamed so each is
distinct); the call is one valid BFCL call of a tool in the list. Measured, side by side in one
run, per list size (p50 of ``--reps`` checks, microseconds):

- by handle: the gate built once (``Client.tool_gate(tools)``, what a registered ``tool_set``
  uses over HTTP and MCP), then ``client.check_tool_call(call, tools=gate)``; target: flat,
  <= 1.5x from 10 to 1,000 tools;
- list passed each call: ``client.check_tool_call(call, tools=tools)`` with the same list (found
  in the gate cache by content); target: <= 1 ms added per 1,000 tools over the handle;
- what the old cache key cost: the sorted JSON dump of the same list;
- layer 3 (parameters) alone, against a ``fastjsonschema`` validator compiled from the same
  schema, summed over the BFCL calls (flat schemas) and AgentDojo's ground-truth calls of
  nested schemas: target <= 5x;
- the whole gate (the client's layers from its settings, in-process) over every valid BFCL
  call, p50: target <= 50 us.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qgs_worker.client import Client  # noqa: E402
from qgs_worker.config.settings import Settings  # noqa: E402
from qgs_worker.core.models import Strictness  # noqa: E402

CORPUS = Path(os.environ.get("QGS_BENCH_CORPUS", ROOT.parent / "shared" / "corpus"))
"""The shared corpus (``QGS_BENCH_CORPUS`` for a checkout elsewhere, e.g. a git worktree)."""
SIZES = (10, 100, 1000)


def _p50_us(fn: Callable[[], object], reps: int) -> float:
    samples = []
    for _ in range(reps):
        start = time.perf_counter_ns()
        fn()
        samples.append(time.perf_counter_ns() - start)
    samples.sort()
    return samples[len(samples) // 2] / 1000.0


def _corpus() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every distinct BFCL tool, and one valid call (OpenAI form) of the first record's tool."""
    tools: dict[str, dict[str, Any]] = {}
    call: dict[str, Any] | None = None
    with (CORPUS / "a_bfcl_tool_calls_valid.jsonl").open() as lines:
        for line in lines:
            record = json.loads(line)
            for t in record["tools"]:
                tools.setdefault(t["function"]["name"], t)
            if call is None:
                call = record["assistant_message"]["tool_calls"][0]
    assert call is not None
    return list(tools.values()), call


def tools_of(size: int, pool: list[dict[str, Any]], called: str) -> list[dict[str, Any]]:
    """``size`` distinct tools: the called one first, then renamed copies of the pool."""
    first = next(t for t in pool if t["function"]["name"] == called)
    out = [copy.deepcopy(first)]
    n = 0
    while len(out) < size:
        t = copy.deepcopy(pool[n % len(pool)])
        t["function"]["name"] = f"{t['function']['name']}_{n}"
        out.append(t)
        n += 1
    return out


def _layer3_pairs(reps: int) -> dict[str, tuple[float, float, int]]:
    """Layer 3 against fastjsonschema, summed p50 over calls: ``{corpus: (layer 3, fast, n)}``.

    BFCL: every valid call (flat schemas: the inline check). AgentDojo: the ground-truth calls
    of the user tasks whose tool schema is nested (the compiled check, ``schema_fast``). The
    reference is fastjsonschema compiled from the same (closed) schema, defaults not written.
    """
    import fastjsonschema

    from qgs_worker.core.toolgate import ToolRegistry

    def quiet(validate: Callable[[Any], Any], arguments: Any) -> None:
        with contextlib.suppress(fastjsonschema.JsonSchemaException):
            validate(arguments)

    calls: dict[str, list[tuple[list[dict[str, Any]], str, dict[str, Any]]]] = {
        "BFCL": [], "AgentDojo": []
    }  # fmt: skip
    with (CORPUS / "a_bfcl_tool_calls_valid.jsonl").open() as lines:
        for line in lines:
            record = json.loads(line)
            for call in record["assistant_message"]["tool_calls"]:
                function = call["function"]
                calls["BFCL"].append(
                    (record["tools"], function["name"], json.loads(function["arguments"]))
                )
    suites = json.loads((CORPUS / "extra_agentdojo_tools_openai.json").read_text())
    with (CORPUS / "extra_agentdojo_user_tasks_ground_truth.jsonl").open() as lines:
        for line in lines:
            record = json.loads(line)
            for call in record["ground_truth_calls"]:
                calls["AgentDojo"].append((suites[record["suite"]], call["name"], call["arguments"]))
    found: dict[str, tuple[float, float, int]] = {}
    for corpus, items in calls.items():
        registries: dict[int, Any] = {}
        ours = fast = 0.0
        n = 0
        for tools, name, arguments in items:
            registry = registries.setdefault(id(tools), ToolRegistry.from_openai(tools))
            spec = registry.get(name)
            if spec is None:
                continue
            compiled = spec.compiled
            if corpus == "AgentDojo" and compiled.flat.get(True) is not None:
                continue  # the nested ones only
            try:
                reference = fastjsonschema.compile(dict(compiled.closed), use_default=False)
            except Exception:
                continue
            ours += _p50_us(lambda c=compiled, a=arguments: c.errors(a, Strictness.LENIENT), reps)
            fast += _p50_us(lambda v=reference, a=arguments: quiet(v, a), reps)
            n += 1
        found[corpus] = (ours, fast, n)
    return found


def _timed_ns(fn: Callable[[], object]) -> int:
    start = time.perf_counter_ns()
    fn()
    return time.perf_counter_ns() - start


def _p50(samples: list[int]) -> float:
    ordered = sorted(samples)
    return ordered[len(ordered) // 2] / 1000.0


def _whole_gate_p50(client: Client, reps: int) -> float:
    """The client's gate (the six layers its settings give) over every valid BFCL call, p50."""
    items = []
    with (CORPUS / "a_bfcl_tool_calls_valid.jsonl").open() as lines:
        for line in lines:
            record = json.loads(line)
            gate = client.tool_gate(record["tools"])
            for call in record["assistant_message"]["tool_calls"]:
                items.append((gate, call))
    samples: list[int] = []
    for _ in range(max(1, reps // 20)):
        for gate, call in items:
            samples.append(
                _timed_ns(lambda g=gate, c=call: g.check(c, principal="bench", agent_id="bench"))
            )
    return _p50(samples)


def measure(reps: int) -> dict[str, Any]:
    """The figures of the module docstring, by list size.

    The sizes take turns, one check each, ``reps`` times (this machine is noisy: a figure taken
    while another process runs must not be compared with one taken in a quiet moment).
    """
    pool, call = _corpus()
    called = call["function"]["name"]
    store = tempfile.TemporaryDirectory(prefix="qgs-toolgate-scaling-")
    client = Client(
        Settings(data_dir=Path(store.name), database_url=f"sqlite:///{store.name}/q.db")
    )
    lists = {size: tools_of(size, pool, called) for size in SIZES}
    gates = {size: client.tool_gate(tools) for size, tools in lists.items()}
    for size in SIZES:
        assert client.check_tool_call(call, tools=gates[size], log=False).allowed
        assert client.check_tool_call(call, tools=lists[size], log=False).allowed
    taken: dict[tuple[str, int], list[int]] = {
        (what, size): [] for what in ("handle", "list", "dump") for size in SIZES
    }
    for turn in range(reps):
        for size in SIZES:
            gate, tools = gates[size], lists[size]
            taken["handle", size].append(
                _timed_ns(lambda g=gate: client.check_tool_call(call, tools=g, log=False))
            )
            taken["list", size].append(
                _timed_ns(lambda t=tools: client.check_tool_call(call, tools=t, log=False))
            )
            if turn % 10 == 0:  # the old key: milliseconds at 1,000 tools, so sampled less
                taken["dump", size].append(
                    _timed_ns(lambda t=tools: json.dumps(t, sort_keys=True, separators=(",", ":")))
                )
    found: dict[str, Any] = {
        what: {size: _p50(taken[what, size]) for size in SIZES}
        for what in ("handle", "list", "dump")
    }
    found["layer3"] = _layer3_pairs(max(50, reps // 4))
    found["gate"] = _whole_gate_p50(client, reps)
    client.repo.dispose()
    store.cleanup()
    return found


def print_scaling(found: dict[str, Any]) -> None:
    """The figures with their targets, one line each."""
    handle, listed, dump = found["handle"], found["list"], found["dump"]
    print("\ntool gate against the size of the tools list (p50, us; issue 31):")
    print("  tools                     " + "".join(f"{n:>10,}" for n in SIZES))
    print("  check by handle           " + "".join(f"{handle[n]:>10.1f}" for n in SIZES)
          + f"   {handle[1000] / handle[10]:.2f}x from 10 to 1,000 (target <= 1.5x)")  # fmt: skip
    added = (listed[1000] - handle[1000]) / 1000
    print("  check, list passed        " + "".join(f"{listed[n]:>10.1f}" for n in SIZES)
          + f"   +{added:.2f} ms at 1,000 tools (target <= 1 ms)")  # fmt: skip
    print("  (old key: sorted dump)    " + "".join(f"{dump[n]:>10.1f}" for n in SIZES)
          + "   what finding the list cost before, for comparison")  # fmt: skip
    for corpus, (ours, fast, n) in found["layer3"].items():
        ratio = ours / fast if fast else float("nan")
        print(f"  layer 3 vs fastjsonschema, {corpus} ({n} calls): {ours / max(n, 1):.1f} vs "
              f"{fast / max(n, 1):.1f} us a call, {ratio:.1f}x (target <= 5x)")  # fmt: skip
    print(f"  whole gate (the client's six layers, in-process, every BFCL call) p50 "
          f"{found['gate']:.1f} us (target <= 50 us)")  # fmt: skip
    print(f"ratio check by handle, 1,000 / 10 tools = {handle[1000] / handle[10]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=400)
    args = parser.parse_args()
    if not CORPUS.is_dir():
        print(f"skipped: the shared corpus is not at {CORPUS}")
        return
    print_scaling(measure(args.reps))


if __name__ == "__main__":
    main()
