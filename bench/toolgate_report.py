"""The tool gate bench's scenario names, tables and target lines.

Figures are medians with min-max over the repetitions; ratios are taken within each repetition.
"""

from __future__ import annotations

import argparse
import os
import statistics
from typing import Any

TARGET_P50_US, TARGET_P99_US, TARGET_RATIO = 50.0, 250.0, 2.0
ROTATION = 100
"""Distinct tools lists in rotation through the client (issue 15 saw the cliff at 33)."""


def spread(values: list[float], fmt: str = ".1f") -> str:
    """``median (min-max)`` of the repetitions' values."""
    middle = format(statistics.median(values), fmt)
    if len(values) == 1:
        return middle
    return f"{middle} ({format(min(values), fmt)}-{format(max(values), fmt)})"


GATES = (
    "bare jsonschema (baseline)",
    "six layers, in-process",
    "six layers, Redis rate limit, leased, renewed ahead",
    "six layers, Redis rate limit, leased, renewed on the caller's path",
    "six layers, Redis rate limit, a round trip per call",
    f"client, {ROTATION} tools lists in rotation, same objects",
    f"client, {ROTATION} tools lists in rotation, fresh copies",
)
LIMITS = (
    "rate limit alone, in-process sliding window (baseline)",
    "rate limit alone, Redis, leased, renewed ahead",
    "rate limit alone, Redis, leased, renewed on the caller's path",
    "rate limit alone, Redis, a round trip per call",
)
"""The rate limiter's own ``hit`` inside the checks of ``GATES[1:5]``, in that order."""


def table(per_rep: dict[str, list[tuple[float, float]]], names: tuple[str, ...]) -> None:
    """One row per scenario: p50 and p99 (median and min-max over the repetitions) and their
    ratios to the first scenario's, each taken within its repetition."""
    base = per_rep[names[0]]
    print("| scenario | p50 us | p99 us | p50 vs baseline | p99 vs baseline |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name in names:
        rows = per_rep[name]
        r50 = [r[0] / b[0] for r, b in zip(rows, base, strict=True)]
        r99 = [r[1] / b[1] for r, b in zip(rows, base, strict=True)]
        print(
            f"| {name} | {spread([r[0] for r in rows])} | {spread([r[1] for r in rows])} "
            f"| {spread(r50, '.2f')} | {spread(r99, '.2f')} |"
        )


def target(label: str, value: float, bound: float, unit: str = " us") -> str:
    return f"{label} {value:.1f} <= {bound:g}{unit}: {'met' if value <= bound else 'MISSED'}"


def print_report(
    args: argparse.Namespace,
    calls: int,
    per_rep: dict[str, list[tuple[float, float]]],
    loads: list[float],
    collections: Any,
    builds: tuple[int, int],
    trips: dict[str, Any],
) -> None:
    print(
        f"{calls} calls x {args.rounds} rounds x {args.reps} repetitions per scenario; "
        "median (min-max) over the repetitions\n"
    )
    table(per_rep, GATES)
    print()
    table(per_rep, LIMITS)
    print(
        f"\nload average (1 min) after each repetition: {', '.join(f'{x:.2f}' for x in loads)}"
        f" on {os.cpu_count()} cores"
    )
    gen0, gen1, gen2 = collections.by_generation
    print(f"garbage collections during the timed passes: {gen0} / {gen1} / {gen2} (gen 0/1/2)")
    print(
        f"gates built during the timed passes of the rotation: {builds[0]} "
        f"({ROTATION} lists, {builds[1]} gates built in all)"
    )
    for how, stats in trips.items():
        print(
            f"leased, renewed {how.removeprefix('renewed ')}, during the timed passes: "
            f"round trips the caller waited for {stats.caller_round_trips}, requests sent "
            f"ahead (not waited for) {stats.sent_ahead}, renewals the caller had to wait for "
            f"{stats.waits}"
        )

    def median(name: str, at: int) -> float:
        return statistics.median(r[at] for r in per_rep[name])

    def ratio(name: str, base: str) -> float:
        return statistics.median(
            r[0] / b[0] for r, b in zip(per_rep[name], per_rep[base], strict=True)
        )

    limit_p99, gate_p99 = median(LIMITS[1], 1), median(GATES[2], 1)
    print(
        "targets (issue 15, leased and renewed ahead): "
        + target("the rate limit's own p99", limit_p99, TARGET_P99_US)
        + "; "
        + target("the whole check's p99", gate_p99, TARGET_P99_US)
    )
    for name in GATES[1:4]:
        p50, p99, times = median(name, 0), median(name, 1), ratio(name, GATES[0])
        print(
            f"targets ({name}): {target('p50', p50, TARGET_P50_US)}; "
            f"{target('p99', p99, TARGET_P99_US)}; {times:.2f}x <= {TARGET_RATIO:g}x bare: "
            f"{'met' if times <= TARGET_RATIO else 'MISSED'}"
        )
        print(f"ratio p50 / bare jsonschema p50 = {times:.2f}: {name}")
    shown = ", ".join(
        f"{short} {ratio(n, GATES[0]):.2f}x"
        for short, n in zip(("in-process", "leased ahead", "leased", "round trip", "rotation",
                             "rotation fresh"),
                            GATES[1:], strict=True)
    )  # fmt: skip
    print(f"ratio p50 vs bare jsonschema: {shown}")
    print(
        f"ratio rate limit p99 / in-process rate limit p99 = "
        f"{statistics.median(r[1] / b[1] for r, b in zip(per_rep[LIMITS[1]], per_rep[LIMITS[0]], strict=True)):.2f}"
        ": leased, renewed ahead"
    )
