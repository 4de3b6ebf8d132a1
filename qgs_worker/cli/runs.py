"""``qgs runs`` and ``qgs diff``: audit runs as records, and what changed between two of them."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from qgs_worker.cli.common import app, check_output, console, writing
from qgs_worker.cli.terminal import json_text, printable_report

if TYPE_CHECKING:
    from qgs_worker.store import Repository
    from qgs_worker.store.runs import RunFacts


class RunsFormat(StrEnum):
    """Output formats of ``qgs runs``."""

    table = "table"
    json = "json"


class DiffFormat(StrEnum):
    """Output formats of ``qgs diff``."""

    table = "table"
    json = "json"
    html = "html"


def _run_json(run: RunFacts) -> dict[str, Any]:
    return {
        "id": run.id,
        "started_at": run.started_at.isoformat(timespec="seconds"),
        "ended_at": run.ended_at.isoformat(timespec="seconds") if run.ended_at else None,
        "mode": run.shown_mode,
        "resumed": run.resumed,
        "rerun_of": run.rerun_of,
        "files": list(run.files),
        "tasks": run.tasks,
        "fingerprint": run.fingerprint,
        "settings": run.settings,
    }


def _judge_text(settings: dict[str, Any]) -> str:
    judge = settings.get("judge") or {}
    kind = judge.get("kind", "?")
    return kind if kind == "rules" else f"{kind} {judge.get('model', '')}".strip()


@app.command()
def runs(
    fmt: Annotated[RunsFormat, typer.Option("--format", help="table or json.")] = RunsFormat.table,
) -> None:
    """List the audit runs: id, start (and whether it ended), files, tasks, judge, policy, fingerprint."""
    from qgs_worker.client import Client

    stored = Client().repo.list_runs()
    if fmt is RunsFormat.json:
        sys.stdout.write(json_text([_run_json(r) for r in stored]))
        return
    if not stored:
        console.print("no audit run yet: `qgs audit FILES` starts one")
        return
    # Break test: a first run showed mode "resume" with nothing before it to resume; a run
    # that took no task from an earlier one shows "new" (RunFacts.shown_mode).
    table = Table(
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        caption="mode resume: N transcripts audited before were linked, not audited again; "
        "new: every transcript audited (a first run, --new-run, --rerun RUN)",
        caption_justify="left",
    )
    table.add_column("run", no_wrap=True, justify="right")
    table.add_column("started (UTC)", overflow="fold")
    table.add_column("mode", no_wrap=True)
    table.add_column("tasks", justify="right", no_wrap=True)
    table.add_column("files", overflow="fold")
    table.add_column("judge / policy", overflow="fold")
    table.add_column("settings", no_wrap=True)
    for r in stored:
        files = ", ".join(Path(f).name for f in r.files[:3]) + (
            f" +{len(r.files) - 3}" if len(r.files) > 3 else ""
        )
        policy = (r.settings.get("policy_file") or {}).get("path")
        mode = r.shown_mode + (f" of {r.rerun_of}" if r.rerun_of else "")
        if r.shown_mode == "resume":
            mode += f" ({r.resumed})"
        started = r.started_at.strftime("%Y-%m-%d %H:%M:%S")
        table.add_row(
            str(r.id),
            started + ("" if r.ended_at else " (not ended)"),
            mode,
            str(r.tasks),
            escape(files),
            escape(_judge_text(r.settings) + (f", {Path(policy).name}" if policy else "")),
            r.fingerprint,
        )
    console.print(table)


def build_diff(repo: Repository, run_a: str, run_b: str, bound_s: float = 3600.0) -> dict[str, Any]:
    """The ``qgs diff`` document of two stored runs (shape in ``qgs_worker.reports.run_diff``).

    Raises:
        InputError: either run is not stored.
    """
    from qgs_worker.reports.report import task_entry
    from qgs_worker.reports.run_diff import diff_runs
    from qgs_worker.reports.runs import changed_settings

    sides = []
    facts = []
    task_ids: list[set[str]] = []
    for run in (run_a, run_b):
        facts.append(repo.run_facts(run))
        pairs = repo.run_tasks(run)
        key_of = dict(pairs)
        task_ids.append(set(key_of))
        entries = {t.id: task_entry(t, bound_s) for t in repo.report_tasks(list(key_of))}
        sides.append([(key_of[t], entries[t]) for t, _ in pairs if t in entries])
    diff = diff_runs(sides[0], sides[1])
    a, b = facts
    # A run that resumed (`qgs audit` of files done before) links the stored tasks without
    # auditing them again: their decisions cannot differ, whatever the settings.
    same = len(task_ids[0] & task_ids[1])
    diff["counts"]["same_tasks"] = same
    diff["note"] = (
        f"{same} matched tasks are the same stored tasks in both runs (one run found them "
        "done and did not audit them again): their decisions cannot differ. `qgs audit "
        f"--rerun {min(a.id, b.id)}` audits those files again under the current settings."
        if same
        else ""
    )
    return {
        "run_a": {"id": a.id, "started_at": a.started_at.isoformat(timespec="seconds"),
                  "fingerprint": a.fingerprint},
        "run_b": {"id": b.id, "started_at": b.started_at.isoformat(timespec="seconds"),
                  "fingerprint": b.fingerprint},
        "settings_changed": changed_settings(a.settings, b.settings),
        **diff,
    }  # fmt: skip


def _cell(value: Any) -> str:
    return "—" if value is None else str(value)


def render_diff_table(diff: dict[str, Any], out: Console) -> None:
    """Print the diff: a summary line, the changed decisions, and a table of the changed tasks."""
    from qgs_worker.reports.run_diff import DIFF_FIELDS
    a, b, n = diff["run_a"]["id"], diff["run_b"]["id"], diff["counts"]
    changed_settings = ", ".join(diff["settings_changed"]) or "none"
    out.print(
        f"[bold]run {a} → run {b}[/]: {n['matched']} tasks matched, {n['changed']} changed "
        f"(decision {n['decision']}, severity {n['severity']}, score {n['score']}, "
        f"termination {n['termination']}); "
        f"only in run {a}: {n['only_in_a']}, only in run {b}: {n['only_in_b']}. "
        f"Settings that differ: {escape(changed_settings)}."
    )
    if diff.get("note"):
        out.print(f"[yellow]note:[/] {escape(diff['note'])}")
    for name, count in diff["transitions"].items():
        out.print(f"  {escape(name)}: {count}")
    if not diff["changed"]:
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("transcript / task", overflow="fold", ratio=3)
    table.add_column("decision", overflow="fold", ratio=2)
    table.add_column("sev", overflow="fold", ratio=1)
    table.add_column("score", overflow="fold", ratio=1)
    table.add_column("termination", overflow="fold", ratio=2)
    for c in diff["changed"]:
        where = c["transcript_id"] or (
            f"{Path(c['source_file']).name}:{c['line']}" if c["source_file"] else ""
        )
        cells = [
            f"{_cell(c[f + '_a'])} → {_cell(c[f + '_b'])}" + (" *" if f in c["changes"] else "")
            for f in DIFF_FIELDS
        ]
        table.add_row(escape(f"{where}\n{c['task_b']}"), *map(escape, cells))
    out.print(table)


@app.command()
def diff(
    run_a: Annotated[str, typer.Argument(help="The earlier run (an id from `qgs runs`).")],
    run_b: Annotated[str, typer.Argument(help="The later run (an id, or `last`).")],
    fmt: Annotated[
        DiffFormat, typer.Option("--format", help="table, json or html.")
    ] = DiffFormat.table,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file.")
    ] = None,
) -> None:
    """List every task whose decision, severity or score changed between two runs, with counts.

    Tasks are matched by transcript (its content, in any file at any line).
    """
    from qgs_worker.client import Client
    from qgs_worker.reports.run_diff import render_diff_html

    check_output(output, "diff.html")
    client = Client()
    data = build_diff(client.repo, run_a, run_b, client.settings.worker.visibility_timeout_s)
    if fmt is DiffFormat.table:
        if output is None:
            render_diff_table(printable_report(data), console)
            return
        with writing(output), output.open("w", encoding="utf-8") as fh:
            render_diff_table(printable_report(data), Console(file=fh, width=160))
        console.print(f"wrote {output}")
        return
    text = json_text(data) if fmt is DiffFormat.json else render_diff_html(data)
    if output is None:
        sys.stdout.write(text)
    else:
        with writing(output):
            output.write_text(text, encoding="utf-8")
        console.print(f"wrote {output}")
