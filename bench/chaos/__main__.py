"""``make chaos``: nothing lost, nothing done twice, under faults (issue 11, "What must hold").

    PYTHONPATH=/path/to/checkout python -m bench.chaos [--quick] [--rounds N] [--backend sqlite]

Runs the scenario of ``scenario.py`` on SQLite and then on PostgreSQL, prints one table with a
column per store, writes the figures as JSON (``--out``), and exits 1 when a target is missed:
0 lost, 0 duplicated, 0 stuck, 0 judge failures passed, no duplicate judge calls (those after a
worker kill or the Redis restart are shown apart, not counted), at most 2 calls per review
attempt, and settled within the bound (visibility timeout + 2 sweep intervals after the later of
the last fault and the last submission). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from .run import RunConfig, run_backend
from .settings import checkout_root

TARGETS: list[tuple[str, str, Any]] = [
    # (figure, what it must be, test)
    ("lost", "0", lambda v: v == 0),
    ("duplicated", "0", lambda v: v == 0),
    ("stuck", "0", lambda v: v == 0),
    ("judge_failures_passed", "0", lambda v: v == 0),
    ("duplicate_judge_calls", "0", lambda v: v == 0),
    ("calls_per_attempt_max", "<= 2", lambda v: v <= 2),
    ("settled_within_bound", "yes", lambda v: v is True),
]

ROWS = [
    ("submitted", "submitted (accepted by submit)"),
    ("refused", "refused by submit (raised)"),
    ("decided_exactly_once", "decided exactly once"),
    ("lost", "lost (no round or no decision)"),
    ("lost_no_round", "  of which no round stored"),
    ("duplicated", "duplicated rows"),
    ("stuck", "stuck (non-terminal round)"),
    ("judge_failures_passed", "judge failures decided as a pass"),
    ("judge_calls", "judge calls"),
    ("judge_calls_failed", "  of which failed (injected)"),
    ("calls_per_attempt_max", "judge calls per review attempt, max"),
    ("calls_per_attempt_mean", "judge calls per review attempt, mean"),
    ("duplicate_judge_calls", "duplicate judge calls"),
    ("duplicate_judge_calls_after_fault", "  repeated after a kill/restart (shown, not counted)"),
    ("handoff_handed_over", "hand-off: Redis handed a round to the stopped worker"),
    ("worker_unexpected_exits", "worker exits not caused by the harness"),
    ("backlog_at_submit_end", "undecided when submitting ended"),
    ("last_decision_s", "last decision stored at, s after the first submission"),
    ("time_to_settle_s", "time to settle after the last submission, s"),
    ("bound_s", "bound (visibility + 2 sweeps), s"),
    ("settled_within_bound", "settled within the bound"),
]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (``CHAOS_ARGS`` in ``make chaos``)."""
    p = argparse.ArgumentParser(prog="python -m bench.chaos", description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=None, help="rounds per store (default 1000)")
    p.add_argument("--quick", action="store_true",
                   help="200 rounds per store, 30 s visibility timeout, sweeps every 5 s "
                   "(~3 min in all)")  # fmt: skip
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    p.add_argument("--rate", type=float, default=6.0, help="rounds submitted a second")
    p.add_argument("--visibility-timeout-s", type=float, default=None, help="default 60 (30 quick)")
    p.add_argument("--sweep-interval-s", type=float, default=None,
                   help="the sweeper's interval (set where the checkout has one) and kombu's "
                   "unacked restore interval; default 10 (5 quick)")  # fmt: skip
    p.add_argument("--judge-timeout-s", type=float, default=2.0)
    p.add_argument("--failure-rate", type=float, default=0.3)
    p.add_argument("--kills", type=int, default=5, help="worker SIGKILLs (one is the hand-off)")
    p.add_argument("--grace-s", type=float, default=0.0,
                   help="keep waiting this long past the bound, to tell late from lost")  # fmt: skip
    p.add_argument("--no-handoff", action="store_true", help="every kill a plain SIGKILL")
    p.add_argument("--no-redis-restart", action="store_true")
    p.add_argument("--redis-signal", choices=["KILL", "TERM"], default="KILL")
    p.add_argument("--env", action="append", default=[], metavar="QGS_NAME=VALUE",
                   help="an extra worker setting (repeatable)")  # fmt: skip
    p.add_argument("--out", type=Path, default=Path(".qgs/chaos"),
                   help="folder for summary.json and the run's logs")  # fmt: skip
    args = p.parse_args(argv)
    if args.rounds is None:
        args.rounds = 200 if args.quick else 1000
    if args.visibility_timeout_s is None:
        args.visibility_timeout_s = 30.0 if args.quick else 60.0
    if args.sweep_interval_s is None:
        args.sweep_interval_s = 5.0 if args.quick else 10.0
    return args


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, list):
        return str(len(value))
    return "-" if value is None else str(value)


def misses(figures: dict[str, Any]) -> list[str]:
    """The targets one store's figures miss, as ``figure = value (must be ...)``."""
    missed = []
    for name, must, test in TARGETS:
        if not test(figures[name]):
            missed.append(f"{name} = {_cell(figures[name])} (must be {must})")
    return missed


def main(argv: list[str] | None = None) -> int:
    """Run, print, write the JSON; 0 when every target holds on every store, else 1."""
    args = parse_args(argv)
    console = Console(stderr=True)
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    extra = dict(item.split("=", 1) for item in args.env)
    args.out.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    # Absolute: the workers run in their own folder, and a relative SQLite URL would name
    # another file there (the client and the workers would silently use two stores).
    logs = Path(tempfile.mkdtemp(prefix=f"chaos-{stamp}-", dir=args.out)).resolve()
    console.log(
        f"chaos: {args.rounds} rounds per store, seed {args.seed}, code from {checkout_root()}"
    )
    results: dict[str, dict[str, Any]] = {}
    started = time.monotonic()
    for backend in backends:
        cfg = RunConfig(
            backend=backend, rounds=args.rounds, seed=args.seed, rate=args.rate,
            visibility_timeout_s=args.visibility_timeout_s, sweep_interval_s=args.sweep_interval_s,
            judge_timeout_s=args.judge_timeout_s, failure_rate=args.failure_rate,
            kills=args.kills, redis_signal=getattr(signal, f"SIG{args.redis_signal}"),
            folder=logs / backend, extra_env=extra, handoff=not args.no_handoff,
            redis_restart=not args.no_redis_restart, grace_s=args.grace_s,
        )  # fmt: skip
        results[backend] = run_backend(cfg, console)
        results[backend]["misses"] = misses(results[backend])
    table = Table(title=f"make chaos: {args.rounds} rounds, seed {args.seed}")
    table.add_column("figure")
    for backend in results:
        table.add_column(backend, justify="right")
    for key, label in ROWS:
        table.add_row(label, *(_cell(results[b].get(key)) for b in results))
    Console().print(table)
    summary = {
        "args": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
        "code": str(checkout_root()),
        "elapsed_s": round(time.monotonic() - started, 1),
        "results": results,
    }
    path = logs / "summary.json"
    path.write_text(json.dumps(summary, indent=2, default=str))
    (args.out / "summary.json").write_text(path.read_text())
    failed = {b: r["misses"] for b, r in results.items() if r["misses"]}
    for backend, missed in failed.items():
        console.print(f"[bold red]{backend}: missed[/] " + "; ".join(missed))
    console.print(f"summary: {args.out / 'summary.json'} (logs in {logs})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
