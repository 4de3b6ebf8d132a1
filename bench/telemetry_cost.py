"""CPU cost of telemetry per round and per tool-call check: off, metrics only, tracing + metrics.

Usage: .venv/bin/python bench/telemetry_cost.py [--tasks 150] [--reps 5] [--checks 20000]

Each task is two rounds through the review service in this process (``pipeline.service_for`` on
an in-memory SQLite store, a judge answering at once): round 1 is decided at intake (the critic
runs every 2nd round), round 2 is reviewed and decided, each step inside the job span the Celery
job would open (``telemetry.job_span``). Tracing records with the real SDK into an
``InMemorySpanExporter`` through a ``SimpleSpanProcessor`` (export on the job's thread: the
dearest way; OTLP batches in a background thread). CPU time is ``time.process_time()``; the
scenarios alternate within each repetition and the medians are printed, with ratios to "off".
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing the package

from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (  # noqa: E402
    InMemorySpanExporter,
)

from qgs_worker import telemetry  # noqa: E402
from qgs_worker.client import Client  # noqa: E402
from qgs_worker.config.settings import Settings  # noqa: E402
from qgs_worker.core.models import (  # noqa: E402
    CadencePolicy,
    Deliverable,
    DimensionScore,
    GatePolicy,
    Review,
    ReviewRequest,
    Verdict,
)
from qgs_worker.queue import pipeline  # noqa: E402
from qgs_worker.service.submission import NewTask, Submission  # noqa: E402
from qgs_worker.store import Repository  # noqa: E402
from qgs_worker.telemetry._observer import TelemetryObserver  # noqa: E402

POLICIES = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy())
TEXT = (
    "# Notes\n\nThe deploy finished at noon; the checklist and the rollback plan are attached. " * 4
)
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "send_message",
            "parameters": {
                "type": "object",
                "properties": {"to": {"type": "string"}, "body": {"type": "string"}},
                "required": ["to", "body"],
            },
        },
    }
]
CALL = {
    "id": "c1",
    "type": "function",
    "function": {"name": "send_message", "arguments": '{"to": "ops", "body": "deployed"}'},
}


class QuickJudge:
    """Answers PASS 90 on every dimension at once."""

    name = "openai:bench-model"

    def review(self, request: ReviewRequest) -> Review:
        dims = tuple(DimensionScore(name=d, score=90) for d in request.dimensions)
        return Review(verdict=Verdict.PASS, score=90, dimensions=dims, prompt_tokens=100)


def request(queue: str) -> Any:
    return SimpleNamespace(id="bench", delivery_info={"routing_key": queue})


def run_rounds(tasks: int, observer: TelemetryObserver | None, tag: str) -> float:
    """CPU seconds of ``tasks`` two-round tasks through the service (store set up outside)."""
    repo = Repository("sqlite://")
    service = pipeline.service_for(repo, POLICIES, judge=QuickJudge(), observer=observer)
    subs = []
    for t in range(tasks):
        task = NewTask(request="write an article about AI")
        for n in (1, 2):
            subs.append(
                Submission(
                    submission_id=f"{tag}-{t}-{n}",
                    task_id=f"{tag}-{t}",
                    round_number=n,
                    deliverable=Deliverable(text=f"{TEXT} version {t}.{n}"),
                    task=task if n == 1 else None,
                )
            )
    started = time.process_time()
    for s in subs:
        with telemetry.job_span("qgs.review.intake", request("qgs.default"), ({},)):
            ready = service.intake(s)
        if ready is not None:
            with telemetry.job_span("qgs.review.critic", request("qgs.critic"), (ready.round_id,)):
                service.review(ready.round_id, then_decide=True)
    spent = time.process_time() - started
    repo.dispose()
    return spent


def run_checks(checks: int) -> float:
    """CPU seconds of ``checks`` tool-call checks (``Client.check_tool_call``, not logged)."""
    client = Client(Settings(data_dir=Path("/tmp/qgs-telemetry-bench")))
    gate = client.tool_gate(TOOLS)
    for _ in range(200):  # warm
        client.check_tool_call(CALL, tools=gate, log=False)
    started = time.process_time()
    for _ in range(checks):
        client.check_tool_call(CALL, tools=gate, log=False)
    return time.process_time() - started


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=150)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--checks", type=int, default=20_000)
    args = parser.parse_args(argv)
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))

    def scenario(name: str) -> tuple[TelemetryObserver | None, Any]:
        telemetry.use_tracer_provider(provider if name == "tracing + metrics" else None)
        if name == "off":
            telemetry.use_tracer_provider(None)
            assert telemetry.tracer() is None
            return None, None
        if name == "metrics only":
            assert telemetry.tracer() is None
            return TelemetryObserver(tracing=False, metrics=True), None
        return TelemetryObserver(tracing=True, metrics=True), provider

    names = ["off", "metrics only", "tracing + metrics"]
    rounds: dict[str, list[float]] = {n: [] for n in names}
    checks: dict[str, list[float]] = {n: [] for n in ("off", "tracing + metrics")}
    run_rounds(20, None, "warm")
    for rep in range(args.reps):
        for name in names if rep % 2 == 0 else reversed(names):
            observer, _ = scenario(name)
            rounds[name].append(run_rounds(args.tasks, observer, f"{name[:3]}{rep}"))
            exporter.clear()
        for name in checks:
            scenario(name)
            checks[name].append(run_checks(args.checks))
            exporter.clear()
    telemetry.reset()
    per_round = {n: statistics.median(v) / (2 * args.tasks) * 1e6 for n, v in rounds.items()}
    per_check = {n: statistics.median(v) / args.checks * 1e6 for n, v in checks.items()}
    print(f"{args.tasks} tasks x 2 rounds, {args.reps} repetitions (median CPU time)")
    for name, us in per_round.items():
        print(f"  per round, {name:18s} {us:8.0f} us   x{us / per_round['off']:.3f}")
    print(f"{args.checks} tool-call checks (check_tool_call, log=False)")
    for name, us in per_check.items():
        print(f"  per check, {name:18s} {us:8.1f} us   x{us / per_check['off']:.3f}")


if __name__ == "__main__":
    main()
