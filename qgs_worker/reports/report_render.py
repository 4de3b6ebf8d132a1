"""The report as people read it: a terminal table (rich) and Markdown.

Both render the JSON document that :func:`qgs_worker.reports.report.build_report` builds (its shape is
in that module's docstring); :func:`finding_text`, :func:`audit_runs_text` and
:func:`approval_text` are the lines ``qgs status`` prints too.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from qgs_worker.core.models import ROLE_FAILED
from qgs_worker.core.views import approval_outcome
from qgs_worker.reports.report_replan import replan_lines, replan_summary

__all__ = [
    "approval_text",
    "audit_runs_text",
    "finding_text",
    "render_markdown",
    "render_table",
]

WHY_CHARS = 60
"""The table's reason column is cut to this many characters."""
WHY_CHARS_NARROW = 40
"""Below ``WIDE_COLUMNS`` the reason is cut to this many characters (``qgs status`` has it all)."""
WIDE_COLUMNS = 110
"""From this terminal width on, the task id and the transcript get a column each."""
NARROW_SCORES = 8
"""The narrow table's scores column width: a longer trajectory folds onto the next lines."""


def finding_text(finding: dict[str, Any]) -> str:
    """One finding in plain words: severity, category, the role that found it, location, title.

    A ``role_failed`` finding reads as what it is: the audit role could not run.
    """
    if finding["category"] == ROLE_FAILED:
        reason = finding["title"].removeprefix("role failed: ").removeprefix(f"{finding['role']}: ")
        return (
            f"{finding['severity']} audit role {finding['role']} failed ({reason}): the round "
            "was not fully audited"
        )
    return (
        f"{finding['severity']} {finding['category']} ({finding['role']}) at "
        f"{finding['location']}: {finding['title']}"
    )


def audit_runs_text(runs: list[dict[str, Any]]) -> str:
    """The audit roles that ran on a round, in one line.

    E.g. ``security_auditor ok (2 findings, 12 ms), reality_checker failed: timed out``.
    """
    parts = []
    for run in runs:
        if run["status"] == "ok":
            n = run["findings"]
            parts.append(
                f"{run['role']} ok ({n} finding{'' if n == 1 else 's'}, "
                f"{run['duration_ms']:.0f} ms)"
            )
        else:
            parts.append(f"{run['role']} {run['status']}: {run['error'] or 'no reason stored'}")
    return ", ".join(parts)


def approval_text(approval: dict[str, Any]) -> str:
    """One approval in plain words: who decided what, when, and why."""
    verb = approval_outcome(approval["approved"])
    note = f": {approval['note']}" if approval["note"] else ""
    return (
        f"round {approval['round']} ({approval['decision']}) {verb} by {approval['by']} "
        f"at {approval['created_at']}{note}"
    )


def _layer_counts(tool_calls: dict[str, Any]) -> str:
    """``format 3, existence 1, ...``: rejections by layer, in layer order."""
    return ", ".join(
        f"{name.replace('_', ' ')} {n}" for name, n in tool_calls["rejected_by_layer"].items()
    )


def _approval_suffix(decision: dict[str, Any]) -> str:
    """`` → approved by NAME`` / `` → rejected by NAME`` / `` (a person must confirm)``."""
    if not decision or not decision["approval_required"]:
        return ""
    approval = decision["approval"]
    if approval is None:
        return " (a person must confirm: qgs approve)"
    return f" → {approval_outcome(approval['approved'])} by {approval['by']}"


def _gate_risk(task: dict[str, Any]) -> int:
    """The risk the gate weighed for the task's latest decision.

    That is the decision's ``risk`` (an earlier round's P0 counts again on every later round), or
    the decided round's own findings' weight when that is larger (a decision an older QGS stored
    without its risk): a task blocked for a P0 never shows risk 0.
    """
    decision = task["decision"]
    number = decision["round"]
    own = next((r["risk"] for r in task["rounds"] if r["number"] == number), 0)
    return max(int(decision.get("risk") or 0), own)


_TYPE_SHORT = {"QUERY": "QRY", "GENERATE": "GEN", "ACTION": "ACT", "CRITICAL": "CRIT"}
"""Task types as the narrow table abbreviates them."""


def _where(task: dict[str, Any]) -> str:
    """Where a task came from: its transcript id, else ``file:line``, else its agent."""
    if task.get("transcript_id"):
        return str(task["transcript_id"])
    if task.get("source_file"):
        return f"{Path(task['source_file']).name}:{task['line']}"
    return str(task.get("agent") or "")


def _counts(task: dict[str, Any]) -> tuple[int, int]:
    """The task's P0 and P1 findings."""
    severities = [f["severity"] for f in task["findings"]]
    return severities.count("P0"), severities.count("P1")


def _md(text: str) -> str:
    """Text safe inside a Markdown list item: no line breaks, no live HTML.

    ``&``, ``<`` and ``>`` become entities: Markdown passes raw HTML through to the page, so a
    transcript's ``<script>`` would run wherever the file is rendered; as entities it reads as
    the text it is.
    """
    flat = " ".join(text.split())
    return flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell: one line, pipes escaped, nothing cut."""
    return _md(str(text)).replace("|", "\\|")


def _trajectory(scores: list[int]) -> str:
    return " → ".join(str(s) for s in scores) if scores else "—"


def render_table(report: dict[str, Any], console: Console) -> None:
    """Print the report as a summary line and a table, one row per task."""
    s = report["summary"]
    decisions = ", ".join(f"{k} {v}" for k, v in sorted(s["decisions"].items())) or "none yet"
    judges = ", ".join(report["judges"]) or "no judge call"
    a = s["approvals"]
    console.print(
        f"[bold]{s['tasks']} tasks[/], {s['decided']} decided ({decisions}); "
        f"{s['escalated']} escalated (↑); findings P0 {s['p0']}, P1 {s['p1']}"
        + (f" ({s['role_failures']} audit roles failed)" if s["role_failures"] else "")
        + f"; approvals: {a['awaiting']} awaiting, {a['approved']} approved, "
        f"{a['rejected']} rejected; "
        f"input errors {s['errors']}. Judge: {judges} ({s['judge_calls']} calls, "
        f"{s['reviews_reused']} reused, {s['judge_failures']} failed). Classified by "
        f"{', '.join(f'{k} {v}' for k, v in sorted(s['classified_by'].items())) or 'nothing yet'}. "
        "`qgs status TASK` explains one task."
    )
    if report.get("filter"):
        console.print(f"Only tasks with {escape(report['filter'])}.")
    # Below WIDE_COLUMNS (80 columns, a pipe) nothing that matters goes: the transcript and the
    # task id share a column, the type is abbreviated, the decision and its reason wrap.
    wide = console.width >= WIDE_COLUMNS
    # As wide as the longest task id (tx- and 16 hex digits, -r12 for a rerun's): a wrapped id
    # left its first line looking like another run's task. The decision's kind stays whole.
    id_width = min(40, max((len(t["id"]) for t in report["tasks"]), default=19))
    kind_width = max(
        (len((t["decision"] or {}).get("kind", "pending")) for t in report["tasks"]), default=7
    )
    if not wide:  # the transcript id shares the column: whole too, up to 24 characters
        id_width = max(id_width, min(24, max((len(_where(t)) for t in report["tasks"]), default=0)))
    rows = [_table_row(t, wide) for t in report["tasks"]]
    if wide:
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        table.add_column("task", no_wrap=True, min_width=id_width)
        table.add_column("transcript / source", overflow="fold", max_width=28)
        table.add_column("type", no_wrap=True, min_width=10)
        table.add_column("scores", overflow="fold", min_width=5, max_width=18)
        table.add_column("P0/P1", no_wrap=True)
        table.add_column("risk", no_wrap=True, justify="right")
        table.add_column("decision", overflow="fold", min_width=kind_width)
    else:
        table, rows = _narrow_table(rows, console.width, id_width, kind_width)
    for cells in rows:
        table.add_row(*cells)
    console.print(table)
    for e in report["errors"]:
        console.print(
            f"[red]input error[/] {escape(str(e['source_file']))}:{e['line']}: "
            f"{escape(e['message'])}"
        )
    for d in report.get("dead_letters", []):
        console.print(
            f"[red]dead letter[/] {escape(d['job'])} at {d['received_at']}"
            + (f" (submission {escape(d['submission_id'])})" if d["submission_id"] else "")
            + f": {escape(d['reason'])}"
        )
    replans = [(t["id"], (t["decision"] or {}).get("replan")) for t in report["tasks"]]
    for task_id, replan in replans:
        if replan:
            console.print(
                f"[yellow]back to the planner[/] {escape(task_id)}: "
                f"{escape(replan_summary(replan))}"
            )
    left = report.get("unfinished") or {}
    if left.get("overdue") or left.get("outbox_waiting"):
        console.print(
            f"[yellow]unfinished[/]: {left['rounds']} rounds wait for a decision, "
            f"{left['overdue']} of them overdue (the sweeper dispatches them again); "
            f"{left['outbox_waiting']} submissions not yet taken by a worker"
        )
    _render_tool_calls(report.get("tool_calls"), console)


def _render_tool_calls(tool_calls: dict[str, Any] | None, console: Console) -> None:
    """The "Tool-call checks" section of the table report (nothing when no call was checked)."""
    if not tool_calls or not tool_calls["total"]:
        return
    console.print(
        f"\n[bold]Tool-call checks[/]: {tool_calls['total']} checked, {tool_calls['allowed']} "
        f"allowed, {tool_calls['rejected']} rejected; rejected by layer: "
        f"{escape(_layer_counts(tool_calls))}"
    )
    if not tool_calls["recent_rejected"]:
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="most recent rejected calls")
    table.add_column("checked at (UTC)", no_wrap=True)
    table.add_column("tool", overflow="fold", max_width=32)
    table.add_column("layer", no_wrap=True)
    table.add_column("first error", overflow="fold")
    for check in tool_calls["recent_rejected"]:
        table.add_row(
            check["checked_at"],
            escape(check["tool"] or "(no name)"),
            f"{check['layer']} {check['layer_name']}",
            escape(check["error"]),
        )
    console.print(table)


def _narrow_table(
    rows: list[list[str]], width: int, id_width: int, kind_width: int
) -> tuple[Table, list[list[str]]]:
    """The narrow table's columns, every width set, and the rows that fit them.

    The decision takes what is left (rich shared the width by ratio, then cropped the table's
    right edge: "awaiting_approv" at 80 columns). The score trajectory folds at
    ``NARROW_SCORES``, and goes (``qgs status`` has it) when the decision's kind would not fit
    beside it; then, at about 60 columns, the ids fold.
    """
    names = ["transcript / task", "type", "scores", "P0/P1", "risk"]
    widths = [id_width] + [
        max([len(name), *(len(Text.from_markup(r[i]).plain) for r in rows)])  # rows may be []
        for i, name in enumerate(names[1:], start=1)
    ]
    widths[2] = min(widths[2], NARROW_SCORES)  # "74 → 78" over "→ 78"

    def spare() -> int:
        return width - sum(widths) - 2 * len(widths)  # two spaces between columns

    if spare() < kind_width:
        del names[2], widths[2]
        rows = [r[:2] + r[3:] for r in rows]
    if spare() < kind_width:
        widths[0] = max(12, widths[0] - (kind_width - spare()))
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, collapse_padding=True)
    for i, (name, column) in enumerate(zip(names, widths, strict=True)):
        table.add_column(name, overflow="fold", width=column, no_wrap=i > 0 and name != "scores",
                         justify="right" if name == "risk" else "left")  # fmt: skip
    table.add_column("decision", overflow="fold", width=max(kind_width, spare()))
    return table, rows


def _table_row(t: dict[str, Any], wide: bool) -> list[str]:
    """One task's cells of the terminal table (rich markup; transcript text escaped)."""
    p0, p1 = _counts(t)
    d = t["decision"] or {}
    kind = d.get("kind", "pending")
    style = {"pass": "green", "block": "bold red", "force_deliver": "yellow"}.get(kind, "")
    decision = f"[{style}]{kind}[/]" if style else kind
    decision += escape(_approval_suffix(d))
    why = d.get("termination") or d.get("reason") or ""
    # ids, file names, agents and reasons come from transcripts: text, never rich markup
    where = _where(t)
    if wide:
        why = why if len(why) <= WHY_CHARS else why[: WHY_CHARS - 1] + "…"
        cells = [escape(t["id"]), escape(where)]
        kind_text = t["task_type"]
    else:
        why = why if len(why) <= WHY_CHARS_NARROW else why[: WHY_CHARS_NARROW - 1] + "…"
        cells = [escape(f"{where}\n{t['id']}" if where and where != t["id"] else t["id"])]
        kind_text = _TYPE_SHORT.get(t["task_type"], t["task_type"])
    decision += f": {escape(why)}" if why else ""
    return [
        *cells,
        kind_text + (" ↑" if t["escalated"] else ""),
        _trajectory(t["scores"]),
        f"{p0}/{p1}",
        str(_gate_risk(t)) if d else "—",
        decision,
    ]


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
        f"- findings: P0 {s['p0']}, P1 {s['p1']}; audit roles that failed: {s['role_failures']}\n"
        f"- approvals: {s['approvals']['awaiting']} awaiting, {s['approvals']['approved']} "
        f"approved, {s['approvals']['rejected']} rejected\n- input errors: {s['errors']}\n"
        f"- classified by: {', '.join(f'{k} {v}' for k, v in sorted(s['classified_by'].items()))}\n"
        f"- judge failures: {s['judge_failures']}; length bias (correlation of length and score): "
        f"{s['length_bias']}\n"
        f"- judge calls: {s['judge_calls']} ({s['reviews_reused']} identical rounds reused a review; "
        f"{s['review_warnings']} warnings: halo effect, "
        f"self-preference), {s['prompt_tokens']:,} prompt and {s['completion_tokens']:,} "
        f"completion tokens, {s['judge_latency_ms'] / 1000:.1f} s in the judge\n\n"
    )
    if report.get("filter"):
        out.write(f"Only tasks with {_cell(report['filter'])}.\n\n")
    out.write(
        "| task | transcript | source | type | scores | P0/P1 | risk | decision | reason |\n"
        "|---|---|---|---|---|---|---|---|---|\n"
    )
    for t in report["tasks"]:  # Markdown is never cut: every reason in full
        d = t["decision"] or {}
        p0, p1 = _counts(t)
        source = f"{t['source_file']}:{t['line']}" if t["source_file"] else ""
        reason = d.get("termination") or d.get("reason") or ""
        if d.get("termination") and d.get("reason"):
            reason = f"{d['termination']}: {d['reason']}"
        decision = d.get("kind", "pending") + _approval_suffix(d)
        cells = [
            t["id"], t.get("transcript_id") or "", source, f"{t['task_type']}/{t['complexity']}",
            _trajectory(t["scores"]), f"{p0}/{p1}", str(_gate_risk(t)) if d else "—",
            decision, reason,
        ]  # fmt: skip
        out.write("| " + " | ".join(_cell(c) for c in cells) + " |\n")
    replans = [(t["id"], t["decision"]["replan"]) for t in report["tasks"]
               if (t["decision"] or {}).get("replan")]  # fmt: skip
    if replans:
        out.write(
            "\n## Back to the planner\n\nTasks whose revision loop stopped without a pass: the "
            "best round is delivered, and this goes back to the agent's planner.\n"
        )
        for task_id, replan in replans:
            out.write(f"\n`{task_id}`: {_md(replan['advice'])}\n\n")
            out.write("".join(f"- {_md(line)}\n" for line in replan_lines(replan)))
    approvals = [(t["id"], a) for t in report["tasks"] for a in t["approvals"]]
    if approvals:
        out.write("\n## Approvals\n\n")
        for task_id, a in approvals:
            out.write(f"- `{task_id}` {_md(approval_text(a))}\n")
    turns = [(t["id"], r) for t in report["tasks"] for r in t["rounds"] if r.get("turn")]
    if turns:
        out.write(
            "\n## User turns\n\nRounds that answer a later user message than the request "
            "(multi-turn runs): each is judged against its turn.\n\n"
        )
        for task_id, r in turns:
            out.write(f"- `{task_id}` round {r['number']} answers: {_md(r['turn'])}\n")
    audited = [(t["id"], r) for t in report["tasks"] for r in t["rounds"] if r["audit_runs"]]
    if audited:
        out.write(
            "\n## Audit roles\n\nThe roles that audited each round, in the order they ran.\n\n"
        )
        for task_id, r in audited:
            out.write(
                f"- `{task_id}` round {r['number']}: {_md(audit_runs_text(r['audit_runs']))}\n"
            )
    with_findings = [t for t in report["tasks"] if t["findings"]]
    if with_findings:
        out.write(
            "\n## Findings\n\nBy round, with the round's risk (P0=100, P1=50, P2=20, P3=10, P4=5).\n"
        )
        for t in with_findings:
            risks = {r["number"]: r["risk"] for r in t["rounds"]}
            last = None
            for f in t["findings"]:
                if f["round"] != last:
                    last = f["round"]
                    out.write(f"\n`{t['id']}` round {last} (risk {risks.get(last, 0)}):\n\n")
                bold = f"**{f['severity']}**"
                out.write(f"- {bold}{_md(finding_text(f)).removeprefix(f['severity'])}\n")
    if report["errors"]:
        out.write("\n## Input errors\n\n")
        for e in report["errors"]:
            out.write(f"- `{e['source_file']}:{e['line']}`: {e['message']}\n")
    if report.get("dead_letters"):
        out.write("\n## Dead letters\n\n")
        for d in report["dead_letters"]:
            sub = f" (submission `{d['submission_id']}`)" if d["submission_id"] else ""
            out.write(f"- `{d['job']}` at {d['received_at']}{sub}: {_md(d['reason'])}\n")
    tool_calls = report.get("tool_calls")
    if tool_calls and tool_calls["total"]:
        out.write(
            f"\n## Tool-call checks\n\n- checked: {tool_calls['total']} "
            f"({tool_calls['allowed']} allowed, {tool_calls['rejected']} rejected)\n"
            f"- rejected by layer: {_layer_counts(tool_calls)}\n"
        )
        if tool_calls["recent_rejected"]:
            out.write(
                "\nMost recent rejected calls:\n\n"
                "| checked at (UTC) | tool | layer | first error |\n|---|---|---|---|\n"
            )
            for check in tool_calls["recent_rejected"]:
                tool = (check["tool"] or "(no name)").replace("|", "\\|")
                error = _cell(check["error"])
                out.write(
                    f"| {check['checked_at']} | `{tool}` | {check['layer']} "
                    f"{check['layer_name']} | {error} |\n"
                )
    return out.getvalue()
