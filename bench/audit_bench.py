"""Memory and time per discriminator audit, against the detector pass alone, in the same run.

Usage: .venv/bin/python bench/audit_bench.py [--reps 3] [--copies 2] [--quick]

Workload: every transcript of ``tasks/`` and of ``../shared/corpus/`` that QGS reads (OpenAI
chat and Anthropic messages), each audited as one task whose rounds are all its assistant
turns: one audit = every role of the registry run one after another on the last round, with the
whole task as context (what the discriminator job does). ``--copies`` repeats the workload.

Scenarios, alternated within each repetition (these machines are noisy, so each figure is a
ratio against the baseline measured in the same repetition):

- baseline: the deterministic detector pass alone (``round_scan.scan_round`` over the rounds);
- roles, offline: every registered role with no judge session (the rules judge);
- roles, loopback LLM: every role with a judge session on ``tests/fake_openai.py``'s loopback
  server (0 ms answers), normal and low-memory (a fresh HTTP client per role).

Per audit it reports wall time (ms), the Python heap's peak above the start of the audit
(``tracemalloc``, KiB), what the heap still holds after it (and a garbage collection: what an
audit leaves behind), and at the end the process's RSS growth over all audits and the largest
RSS of the reality checker's subprocesses (``RUSAGE_CHILDREN``; that memory is returned to the
system when each subprocess ends).
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing the package


from qgs_worker.core import round_scan  # noqa: E402
from qgs_worker.core.discriminator import AuditContext, run_roles  # noqa: E402
from qgs_worker.core.models import Complexity, TaskType, ToolResult  # noqa: E402
from qgs_worker.core.ports import AuditSessions  # noqa: E402
from qgs_worker.judges import OpenAIAuditSessions, OpenAIJudge  # noqa: E402
from qgs_worker.roles import load_roles  # noqa: E402
from qgs_worker.transcripts import iter_paths, read_transcripts  # noqa: E402
from tests.fake_openai import FakeOpenAIServer  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"


def workload(copies: int) -> list[AuditContext]:
    """One audit context per transcript (all its rounds), ``copies`` times."""
    paths = list(iter_paths([ROOT / "tasks"]))
    if CORPUS.is_dir():
        paths += [p for p in iter_paths([CORPUS]) if p.name.startswith("d_transcripts")]
    contexts: list[AuditContext] = []
    for path in paths:
        for item in read_transcripts(path):
            if not hasattr(item, "rounds") or not item.rounds:
                continue  # a line that could not be read: not a workload item
            contexts.append(
                AuditContext(
                    task_type=TaskType.CRITICAL,
                    complexity=Complexity.REFLECT,
                    request=item.request,
                    rounds=tuple(item.rounds),
                    timeout_s=60.0,
                )
            )
    return contexts * copies


def detectors_only(context: AuditContext) -> None:
    seen: list[ToolResult] = []
    for deliverable in context.rounds:
        round_scan.scan_round(deliverable, request=context.request, earlier_tool_results=seen)
        seen.extend(deliverable.tool_results)


def measure(
    audit: Callable[[AuditContext], object], contexts: list[AuditContext]
) -> tuple[list[float], list[float], list[float]]:
    """Wall ms, tracemalloc peak KiB and KiB still held after the audit (and a gc), per audit."""
    times, peaks, kept = [], [], []
    for context in contexts:
        fresh = AuditContext(
            task_type=context.task_type,
            complexity=context.complexity,
            request=context.request,
            rounds=context.rounds,
            timeout_s=context.timeout_s,
        )
        gc.collect()
        tracemalloc.reset_peak()
        start_bytes = tracemalloc.get_traced_memory()[0]
        started = time.perf_counter()
        audit(fresh)
        times.append((time.perf_counter() - started) * 1000.0)
        peaks.append((tracemalloc.get_traced_memory()[1] - start_bytes) / 1024.0)
        gc.collect()
        kept.append((tracemalloc.get_traced_memory()[0] - start_bytes) / 1024.0)
    return times, peaks, kept


def rss_kib() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--copies", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="one repetition of 6 audits")
    args = parser.parse_args()
    if args.quick:
        args.reps, args.copies = 1, 1

    contexts = workload(args.copies)
    if args.quick:
        contexts = contexts[:6]
    roles = load_roles()
    print(f"{len(contexts)} audits per scenario, roles: {', '.join(r.name for r in roles)}")
    server = FakeOpenAIServer().start()
    judge = OpenAIJudge(base_url=server.base_url, api_key="bench", timeout_s=10.0)

    def with_roles(
        sessions: AuditSessions | None, low_memory: bool
    ) -> Callable[[AuditContext], object]:
        def audit(ctx: AuditContext) -> None:
            run_roles(roles, ctx, sessions, keep_between_roles=not low_memory)
            server.forget()  # the loopback server's own record of requests is not QGS's memory

        return audit

    scenarios: dict[str, Callable[[AuditContext], object]] = {
        "detector pass alone (baseline)": detectors_only,
        "all roles, offline (rules judge)": with_roles(None, False),
        "all roles + LLM pass, loopback judge": with_roles(OpenAIAuditSessions(judge), False),
        "all roles + LLM pass, low-memory": with_roles(
            OpenAIAuditSessions(judge, low_memory=True), True
        ),
    }
    tracemalloc.start()
    for audit in scenarios.values():  # warm-up: imports, compiled patterns, connections
        measure(audit, contexts[:3])
    rss_start = rss_kib()
    results: dict[str, list[tuple[float, float, float, float]]] = {n: [] for n in scenarios}
    for _ in range(args.reps):
        base_ms: float | None = None
        for name, audit in scenarios.items():
            times, peaks, kept = measure(audit, contexts)
            ms = statistics.median(times)
            base_ms = base_ms if base_ms is not None else ms
            results[name].append((ms, max(peaks), ms / base_ms, statistics.median(kept)))
    rss_end = rss_kib()
    tracemalloc.stop()
    server.close()
    judge.close()

    print()
    print(
        "| scenario | ms per audit (median) | vs detector pass | Python heap peak per audit "
        "(KiB, max) | held after the audit (KiB, median) |"
    )
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, rows in results.items():
        ms = statistics.median(r[0] for r in rows)
        ratio = statistics.median(r[2] for r in rows)
        lo, hi = min(r[2] for r in rows), max(r[2] for r in rows)
        peak = max(r[1] for r in rows)
        held = statistics.median(r[3] for r in rows)
        print(f"| {name} | {ms:.2f} | {ratio:.1f} ({lo:.1f}-{hi:.1f}) | {peak:.0f} | {held:.1f} |")
    print()
    for name, rows in list(results.items())[1:]:
        values = [r[2] for r in rows]
        print(
            f"ratio ms per audit / detector pass = {statistics.median(values):.2f} "
            f"({min(values):.2f}-{max(values):.2f}): {name}"
        )
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print()
    print(
        f"process RSS: {rss_start / 1024:.0f} MB after warm-up, {rss_end / 1024:.0f} MB after "
        f"{args.reps * len(scenarios) * len(contexts)} audits "
        f"(growth {(rss_end - rss_start) / 1024:.1f} MB)"
    )
    print(f"largest reality-checker subprocess RSS: {children / 1024:.0f} MB (freed when it exits)")
    print(f"audits per scenario and repetition: {len(contexts)}")


if __name__ == "__main__":
    main()
