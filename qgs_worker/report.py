"""Reports over the results store: one JSON document, a terminal table, Markdown.

The JSON document is the contract other tools (and the tests) read::

    {"summary": {"tasks": N, "decisions": {"pass": n, ...}, "p0": n, "p1": n, "errors": n,
                 "judge_calls": n, "reviews_reused": n, "judge_failures": n,
                 "classified_by": {"rules": n, "llm": n, ...}, "length_bias": r,
                 "review_warnings": n, "prompt_tokens": n,
                 "completion_tokens": n, "judge_latency_ms": x},
     "tasks": [{"id", "source_file", "line", "transcript_id", "request", "task_type",
                "complexity", "classification_source", "escalated", "escalation_reason",
                "rounds": [{"number", "final", "status", "score", "verdict", "review_status",
                            "judge", "warnings", "reused_from", "prompt_tokens", "completion_tokens",
                            "latency_ms", "decision", "content_hash", "length"}],
                "scores": [...], "risk": n,
                "findings": [{"round", "severity", "category", "role", "title", "location", "evidence"}],
                "decision": {"kind", "reason", "termination", "best_round", "round"} | null}],
     "errors": [{"source_file", "line", "message"}]}
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from qgs_worker.judges.panel import length_bias
from qgs_worker.store import Repository, TaskRow, loads_list

REQUEST_PREVIEW_CHARS = 160
WHY_CHARS = 60
WIDE_COLUMNS = 110


def task_report(repo: Repository, task: TaskRow) -> dict[str, Any]:
    """One task's entry of the JSON report (see the module docstring for the shape)."""
    rounds: list[dict[str, Any]] = []
    findings: list[dict[str, Any]] = []
    final_decision: dict[str, Any] | None = None
    for row in repo.list_rounds(task.id):
        assert row.id is not None
        review = repo.get_review(row.id)
        decision = repo.get_decision(row.id)
        rounds.append(
            {
                "number": row.number,
                "final": row.final,
                "status": row.status,
                "error": row.error,
                "content_hash": row.content_hash,
                "length": len(row.content),
                "score": review.score if review else None,
                "verdict": review.verdict if review else None,
                "review_status": review.status if review else None,
                "review_error": review.error if review else None,
                "judge": review.judge if review else None,
                "warnings": loads_list(review.warnings) if review else [],
                "reused_from": review.reused_from if review else None,
                "prompt_tokens": review.prompt_tokens if review else 0,
                "completion_tokens": review.completion_tokens if review else 0,
                "latency_ms": round(review.latency_ms, 1) if review else 0.0,
                "decision": decision.kind if decision else None,
            }
        )
        for f in repo.list_findings(row.id):
            findings.append(
                {
                    "round": row.number,
                    "severity": f.severity,
                    "category": f.category,
                    "role": f.role,
                    "title": f.title,
                    "location": f.location,
                    "evidence": f.evidence,
                }
            )
        if decision is not None:
            final_decision = {
                "kind": decision.kind,
                "reason": decision.reason,
                "termination": decision.termination,
                "best_round": decision.best_round,
                "round": row.number,
                "risk": decision.risk,
            }
    request = (
        task.request
        if len(task.request) <= REQUEST_PREVIEW_CHARS
        else task.request[:REQUEST_PREVIEW_CHARS] + "…"
    )
    return {
        "id": task.id,
        "source_file": task.source_file,
        "line": task.source_line,
        "transcript_id": task.transcript_id,
        "request": request,
        "agent": task.agent,
        "agent_model": task.agent_model,
        "task_type": task.task_type,
        "complexity": task.complexity,
        "classification_source": task.classification_source,
        "escalated": task.escalated,
        "escalation_reason": task.escalation_reason,
        "rounds": rounds,
        "scores": [r["score"] for r in rounds if r["score"] is not None],
        "risk": sum(
            {"P0": 100, "P1": 50, "P2": 20, "P3": 10, "P4": 5}[f["severity"]] for f in findings
        ),
        "findings": findings,
        "decision": final_decision,
    }


def build_report(
    repo: Repository,
    task_ids: Iterable[str] | None = None,
    error_files: Iterable[str] | None = None,
) -> dict[str, Any]:
    """The JSON report over the given tasks (every task in the store when None).

    ``error_files`` limits the input errors to those files (an audit reports its own files).
    """
    # Transcripts in file and line order, then live tasks in the order they started.
    tasks = sorted(
        repo.list_tasks(),
        key=lambda t: (
            t.source_file is None,
            t.source_file or "",
            t.source_line or 0,
            t.created_at,
        ),
    )
    if task_ids is not None:
        wanted = set(task_ids)
        tasks = [t for t in tasks if t.id in wanted]
    entries = [task_report(repo, t) for t in tasks]
    files = set(error_files) if error_files is not None else None
    errors = [
        {"source_file": e.source_file, "line": e.line, "message": e.message}
        for e in repo.list_audit_errors()
        if files is None or e.source_file in files
    ]
    severities = Counter(f["severity"] for t in entries for f in t["findings"])
    judges = sorted({r["judge"] for t in entries for r in t["rounds"] if r["judge"]})
    return {
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "judges": judges,
        "summary": {
            "tasks": len(entries),
            "decided": sum(1 for t in entries if t["decision"]),
            "decisions": dict(Counter(t["decision"]["kind"] for t in entries if t["decision"])),
            "escalated": sum(1 for t in entries if t["escalated"]),
            "p0": severities.get("P0", 0),
            "p1": severities.get("P1", 0),
            "errors": len(errors),
            "judge_calls": sum(
                1
                for t in entries
                for r in t["rounds"]
                if r["review_status"] and not r["reused_from"]
            ),
            "reviews_reused": sum(1 for t in entries for r in t["rounds"] if r["reused_from"]),
            "judge_failures": sum(
                1 for t in entries for r in t["rounds"] if r["review_status"] == "failed"
            ),
            "classified_by": dict(Counter(t["classification_source"] for t in entries)),
            "length_bias": round(
                length_bias(
                    [
                        (r["length"], r["score"])
                        for t in entries
                        for r in t["rounds"]
                        if r["score"] is not None and not r["reused_from"]
                    ]
                ),
                3,
            ),
            "review_warnings": sum(len(r["warnings"]) for t in entries for r in t["rounds"]),
            "prompt_tokens": sum(r["prompt_tokens"] for t in entries for r in t["rounds"]),
            "completion_tokens": sum(r["completion_tokens"] for t in entries for r in t["rounds"]),
            "judge_latency_ms": round(
                sum(r["latency_ms"] for t in entries for r in t["rounds"]), 1
            ),
        },
        "tasks": entries,
        "errors": errors,
    }


def _trajectory(scores: list[int]) -> str:
    return " → ".join(str(s) for s in scores) if scores else "—"


def render_table(report: dict[str, Any], console: Console) -> None:
    """Print the report as a summary line and a table, one row per task."""
    s = report["summary"]
    decisions = ", ".join(f"{k} {v}" for k, v in sorted(s["decisions"].items())) or "none yet"
    judges = ", ".join(report["judges"]) or "no judge call"
    console.print(
        f"[bold]{s['tasks']} tasks[/], {s['decided']} decided ({decisions}); "
        f"{s['escalated']} escalated (↑); findings P0 {s['p0']}, P1 {s['p1']}; "
        f"input errors {s['errors']}. Judge: {judges} ({s['judge_calls']} calls, "
        f"{s['reviews_reused']} reused, {s['judge_failures']} failed). Classified by "
        f"{', '.join(f'{k} {v}' for k, v in sorted(s['classified_by'].items())) or 'nothing yet'}. "
        "`qgs status TASK` explains one task."
    )
    # Below WIDE_COLUMNS the source and the reason go (`qgs status` has them): no cropped words.
    wide = console.width >= WIDE_COLUMNS
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("task", no_wrap=True, min_width=19)
    if wide:
        table.add_column("source", overflow="fold", max_width=24)
    table.add_column("type", no_wrap=True, min_width=10)
    table.add_column("scores", overflow="fold", min_width=9, max_width=18)
    table.add_column("P0/P1", no_wrap=True)
    table.add_column("decision", overflow="fold", no_wrap=not wide)
    for t in report["tasks"]:
        p0 = sum(1 for f in t["findings"] if f["severity"] == "P0")
        p1 = sum(1 for f in t["findings"] if f["severity"] == "P1")
        d = t["decision"] or {}
        kind = d.get("kind", "pending")
        style = {"pass": "green", "block": "bold red", "force_deliver": "yellow"}.get(kind, "")
        decision = f"[{style}]{kind}[/]" if style else kind
        cells = [t["id"]]
        if wide:
            source = t["source_file"] and f"{Path(t['source_file']).name}:{t['line']}"
            cells.append(source or t["agent"] or "")
            why = d.get("termination") or d.get("reason") or ""
            why = why if len(why) <= WHY_CHARS else why[: WHY_CHARS - 1] + "…"
            decision += f": {why}" if why else ""
        cells += [
            t["task_type"] + (" ↑" if t["escalated"] else ""),
            _trajectory(t["scores"]),
            f"{p0}/{p1}",
            decision,
        ]
        table.add_row(*cells)
    console.print(table)
    for e in report["errors"]:
        console.print(f"[red]input error[/] {e['source_file']}:{e['line']}: {e['message']}")


def render_markdown(report: dict[str, Any]) -> str:
    """The report as a Markdown document (summary, task table, findings, input errors)."""
    s = report["summary"]
    out = io.StringIO()
    out.write("# QGS report\n\n")
    out.write(
        f"Generated {report['generated_at']}. Judge: {', '.join(report['judges']) or 'no judge call'}.\n\n"
    )
    out.write(
        f"- tasks: {s['tasks']} ({s['decided']} decided, {s['escalated']} escalated)\n"
        f"- decisions: {', '.join(f'{k} {v}' for k, v in sorted(s['decisions'].items())) or 'none'}\n"
        f"- findings: P0 {s['p0']}, P1 {s['p1']}\n- input errors: {s['errors']}\n"
        f"- classified by: {', '.join(f'{k} {v}' for k, v in sorted(s['classified_by'].items()))}\n"
        f"- judge failures: {s['judge_failures']}; length bias (correlation of length and score): "
        f"{s['length_bias']}\n"
        f"- judge calls: {s['judge_calls']} ({s['reviews_reused']} identical rounds reused a review; "
        f"{s['review_warnings']} warnings: halo effect, "
        f"self-preference), {s['prompt_tokens']:,} prompt and {s['completion_tokens']:,} "
        f"completion tokens, {s['judge_latency_ms'] / 1000:.1f} s in the judge\n\n"
    )
    out.write(
        "| task | source | type | scores | P0/P1 | decision | reason |\n|---|---|---|---|---|---|---|\n"
    )
    for t in report["tasks"]:
        d = t["decision"] or {}
        p0 = sum(1 for f in t["findings"] if f["severity"] == "P0")
        p1 = sum(1 for f in t["findings"] if f["severity"] == "P1")
        source = f"{t['source_file']}:{t['line']}" if t["source_file"] else ""
        reason = (d.get("termination") or d.get("reason") or "").replace("|", "\\|")
        out.write(
            f"| {t['id']} | {source} | {t['task_type']}/{t['complexity']} | {_trajectory(t['scores'])} "
            f"| {p0}/{p1} | {d.get('kind', 'pending')} | {reason[:120]} |\n"
        )
    serious = [
        (t["id"], f)
        for t in report["tasks"]
        for f in t["findings"]
        if f["severity"] in ("P0", "P1")
    ]
    if serious:
        out.write("\n## P0 and P1 findings\n\n")
        for task_id, f in serious:
            out.write(
                f"- **{f['severity']}** `{task_id}` round {f['round']} ({f['category']}, {f['location']}): {f['title']}\n"
            )
    if report["errors"]:
        out.write("\n## Input errors\n\n")
        for e in report["errors"]:
            out.write(f"- `{e['source_file']}:{e['line']}`: {e['message']}\n")
    return out.getvalue()
