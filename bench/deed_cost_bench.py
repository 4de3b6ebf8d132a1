"""What the orders-carried-out check costs a round: the detector pass with it and without it.

Usage: .venv/bin/python bench/deed_cost_bench.py [--reps 5] [--quick]

Transcripts: the deeds development sets (``tests/data/coding_agents/dev.jsonl``,
``tests/data/deeds_dev2``, ``tests/data/deeds_dev3``) and the AgentDojo banking/slack replay
sample (``tests/data/agentdojo_replays_sample.jsonl``), read once. Per repetition, alternated
(these machines are noisy: the figure that counts is the ratio within one repetition, CPU time
of this process), every memo cleared first so each run reads new texts:

- without: ``round_scan.scan_rounds`` with the order flow switched off (no orders read, no
  ``order_flow`` finding, no deed-first ``unasked_acts`` check; the injection detectors' own passages still cut and followed as the
  code before issue 29 did through ``followed``);
- with: the same pass as shipped.

Prints the CPU per round of each, the ratio with / without, and the order flow's own share.
``qgs scan`` does not run the order flow (it reads texts, not rounds): its ms/KB is
``bench/detector_speed_bench.py``'s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing the package

from qgs_worker.core import order_flow, order_scope, orders, round_scan  # noqa: E402
from qgs_worker.core.followed_values import analyse  # noqa: E402
from qgs_worker.core.injected_passages import injected  # noqa: E402
from qgs_worker.core.models import Finding, ToolResult  # noqa: E402
from qgs_worker.core.plain_text import forget  # noqa: E402
from qgs_worker.transcripts import TranscriptTask, read_transcripts  # noqa: E402

DATA = ROOT / "tests" / "data"
FILES = (
    DATA / "coding_agents" / "dev.jsonl",
    DATA / "deeds_dev2" / "assistant.jsonl",
    DATA / "deeds_dev2" / "coding.jsonl",
    DATA / "deeds_dev3" / "assistant.jsonl",
    DATA / "deeds_dev3" / "coding.jsonl",
    DATA / "agentdojo_replays_sample.jsonl",
)


def tasks() -> list[TranscriptTask]:
    found: list[TranscriptTask] = []
    for path in FILES:
        found.extend(t for t in read_transcripts(path) if isinstance(t, TranscriptTask))
    return found


def clear() -> None:
    """Every memo the pass keeps, so a run reads its texts afresh."""
    for cached in (analyse, injected, round_scan._cut, orders._scan, order_flow._rest_words,
                   order_scope._rest_units):
        cached.cache_clear()
    forget()


def run_pass(items: list[TranscriptTask]) -> int:
    rounds = 0
    for task in items:
        for _ in round_scan.scan_rounds(task.rounds, request=task.request, turns=task.turns):
            rounds += 1
    return rounds


def without_orders(items: list[TranscriptTask]) -> int:
    """The pass with the order flow off: no output holds an order, nothing is followed from one."""
    saved: tuple[
        Callable[..., list[order_scope.OrderedOutput]],
        Callable[..., list[Finding]],
        Callable[..., list[Finding]],
    ] = (
        order_scope.orders_of_outputs,
        order_flow.orders_in_data,
        getattr(order_flow, "find_unasked_acts"),  # noqa: B009 (imported there, not exported)
    )

    def no_orders(
        results: list[ToolResult], seen: list[object], **_: object
    ) -> list[order_scope.OrderedOutput]:
        return [
            order_scope.OrderedOutput(s, (), False)  # type: ignore[arg-type]
            for s in seen
        ]

    order_scope.orders_of_outputs = no_orders  # type: ignore[assignment]
    order_flow.orders_in_data = lambda *a, **k: []  # type: ignore[assignment]
    setattr(order_flow, "find_unasked_acts", lambda *a, **k: [])  # noqa: B010 (the deed-first part)
    try:
        return run_pass(items)
    finally:
        order_scope.orders_of_outputs, order_flow.orders_in_data, unasked = saved  # type: ignore[assignment]
        setattr(order_flow, "find_unasked_acts", unasked)  # noqa: B010


def timed(fn: Callable[[list[TranscriptTask]], int], items: list[TranscriptTask]) -> tuple[float, int]:
    clear()
    start = time.process_time()
    rounds = fn(items)
    return time.process_time() - start, rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="repetitions (default 5)")
    parser.add_argument("--quick", action="store_true", help="one repetition over a third")
    args = parser.parse_args()
    items = tasks()
    if args.quick:
        args.reps, items = 1, items[::3]
    run_pass(items)  # warm: imports, the learned model, the confusables tables
    off: list[float] = []
    on: list[float] = []
    rounds = 0
    for _ in range(args.reps):
        seconds, rounds = timed(without_orders, items)
        off.append(seconds)
        seconds, rounds = timed(run_pass, items)
        on.append(seconds)
    ratios = [b / a for a, b in zip(off, on, strict=True)]
    per = 1e6 / rounds
    print(f"{len(items)} transcripts, {rounds} rounds; {args.reps} repetitions (CPU time)")
    print(f"{'pass':28s} {'us/round':>9} {'min-max':>17}")
    for name, series in (("without the order flow", off), ("with the order flow", on)):
        print(
            f"{name:28s} {statistics.median(series) * per:9.0f} "
            f"{min(series) * per:8.0f}-{max(series) * per:<8.0f}"
        )
    print(f"ratio with / without = {statistics.median(ratios):.2f} "
          f"(min {min(ratios):.2f}, max {max(ratios):.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
