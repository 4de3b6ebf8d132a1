"""Commands over a live store: ``qgs submit``, ``status``, ``wait``, ``approve``, ``constraints``, ``report``."""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from qgs_worker.cli.common import (
    ReportFormat,
    _fail,
    _print_report,
    app,
    broker_session,
    check_output,
    console,
    err_console,
    writing,
)
from qgs_worker.cli.terminal import markup_safe, printable_report, write_json

if TYPE_CHECKING:
    # Imported where used: ``qgs check-tool`` and ``qgs scan`` start without the store
    # (sqlalchemy), Celery or openai (issue 15; ``tests/unit/test_cli_cold_start.py``).
    from qgs_worker.core.views import DecisionView


@app.command()
def submit(
    file: Annotated[
        str, typer.Argument(help="The deliverable: a file path, or - for standard input.")
    ] = "-",
    task: Annotated[str | None, typer.Option(help="An existing task id.")] = None,
    request: Annotated[
        str | None, typer.Option(help="Start a new task for this request instead.")
    ] = None,
    final: Annotated[
        bool, typer.Option(help="This is the round the agent means to deliver.")
    ] = False,
    round_number: Annotated[
        int | None, typer.Option("--round", help="Explicit round number.")
    ] = None,
    turn: Annotated[
        str | None,
        typer.Option(
            help="In a multi-turn conversation, the user message this round answers "
            "(judged against it, with the task's request as context)."
        ),
    ] = None,
    wait: Annotated[
        bool | None,
        typer.Option(
            "--wait/--no-wait", help="Wait for the decision (default: with the embedded broker)."
        ),
    ] = None,
    timeout_s: Annotated[
        float, typer.Option("--timeout-s", help="How long --wait waits, in seconds.")
    ] = 120.0,
) -> None:
    """Submit one round of a task (fire-and-forget); prints the submission id."""
    if (task is None) == (request is None):
        raise _fail(
            "give exactly one of --task TASK_ID (an existing task) or --request TEXT (a new task)"
        )
    from qgs_worker.client import Client
    from qgs_worker.config.settings import Settings
    from qgs_worker.errors import BrokerUnavailableError
    from qgs_worker.queue.preflight import check_broker
    from qgs_worker.service.inputs import read_text_file

    settings = Settings()
    # The one input contract (qgs_worker.service.inputs): a folder, binary, UTF-16 or bytes that are
    # not UTF-8 are refused, as qgs scan and the HTTP API refuse them.
    text = read_text_file(
        file,
        what="a deliverable file",
        limit_bytes=settings.max_deliverable_bytes,
        setting="QGS_MAX_DELIVERABLE_BYTES",
    )
    client = Client(settings)
    # Size and fields first: a refused deliverable leaves no task behind.
    client.make_submission("unsaved", text, final=final, round_number=round_number, turn=turn)
    if task is not None:
        client.repo.check_task(task)
    elif round_number is not None and round_number != 1:
        # A new task's first round is round 1: refused before the task is stored.
        raise _fail(
            f"--round {round_number} would leave a gap: a new task (--request) starts at round 1; "
            "leave --round out"
        )
    do_wait = settings.embedded if wait is None else wait
    with broker_session(settings, workers=do_wait and settings.embedded) as live:
        # The broker answers before a new task is stored: a refused or hung broker leaves none.
        check_broker(live.broker_url or "", live.broker_timeout_s)
        created = None
        if request is not None:
            handle = client.start_task(request)
            task = created = handle.id
            console.print(f"task {task}: {handle.task_type.value}/{handle.complexity.value}")
        assert task is not None
        try:
            sent = Client(live).submit(
                task, text, final=final, round_number=round_number, turn=turn
            )
        except (BrokerUnavailableError, KeyboardInterrupt, SystemExit):
            if created is not None and client.repo.delete_task_if_empty(created):
                err_console.print(f"task {created} removed again: its first round was not queued")
            raise
        console.print(f"submission {sent.id}")
        if do_wait:
            d = client.wait(sent.id, timeout_s=timeout_s, on_progress=_show_progress)
            console.print(f"round {d.round_number}: [bold]{d.kind}[/] — {markup_safe(d.reason)}")


def _show_progress(p: Any) -> None:
    """One line on standard error each time a waited-for submission moves (``WaitProgress``)."""
    err_console.print(f"[dim]…[/] {markup_safe(p.detail, lines=False)}", soft_wrap=True)


def _answers(report: dict[str, Any], number: int) -> str:
    """`` → approved by NAME`` for each person's answer on round ``number`` ('' for none)."""
    from qgs_worker.core.views import approval_outcome

    return "".join(
        f" → {approval_outcome(a['approved'])} by {markup_safe(a['by'], lines=False)}"
        for a in report["approvals"]
        if a["round"] == number
    )


@app.command()
def status(
    task_id: Annotated[str, typer.Argument(help="The task id (as `qgs report` shows it).")],
) -> None:
    """Explain one task's rounds, audits, findings, decisions and approvals in plain words.

    Each audited round lists the roles that ran (ok or failed, findings, time), and each
    finding names the role that found it.
    """
    from qgs_worker.client import Client
    from qgs_worker.core.models import DecisionKind
    from qgs_worker.reports.report import approval_text, audit_runs_text, finding_text, task_report
    from qgs_worker.reports.report_replan import replan_lines

    client = Client()
    report = task_report(client.repo, task_id, client.settings.worker.visibility_timeout_s)
    how = report["classification_source"]
    console.print(
        f"[bold]{markup_safe(report['id'])}[/]: {report['task_type']}/{report['complexity']} "
        f"(classified by {how})"
        + (
            f"; escalated: {markup_safe(report['escalation_reason'])}"
            if report["escalated"]
            else ""
        )
    )
    console.print(f"request: {markup_safe(report['request'])}")
    waiting = client.repo.count_untaken_outbox_of(task_id)
    if not report["rounds"]:
        console.print(
            f"no round stored yet: {waiting} submission(s) sent and not yet taken by a worker."
            if waiting
            else "no round stored yet, and no submission of it is waiting in the outbox."
        )
    elif waiting:
        # A later round sent and not yet taken (a worker is down, or the hand-off lost it and
        # the sweeper has not sent it again yet): say so beside the rounds that are stored.
        console.print(
            f"{waiting} more submission(s) sent and not yet taken by a worker (the sweeper sends "
            "them again after the visibility timeout)."
        )
    for r in report["rounds"]:
        review = (
            f"critic {r['verdict']} {r['score']}"
            if r["score"] is not None
            else (
                f"judge failed: {markup_safe(r['review_error'])}"
                if r["review_status"] == "failed"
                else "no review"
            )
        )
        findings = [f for f in report["findings"] if f["round"] == r["number"]]
        counts = Counter(f["severity"] for f in findings)
        worst = (
            ", ".join(f"{sev} ×{n}" for sev, n in sorted(counts.items())) + f" (risk {r['risk']})"
            if findings
            else "no findings"
        )
        decided = (r["decision"] or r["status"]) + _answers(report, r["number"])
        console.print(
            f"  round {r['number']}{' (final)' if r['final'] else ''}: {decided} — {review}; {worst}"
        )
        if r.get("overdue"):
            then = (
                "the sweeper dispatches it again"
                if r["status"] == "dispatched"
                else "it waits for the task's earlier rounds, or the sweeper claims it"
            )
            console.print(
                f"     [bold yellow]overdue[/]: {markup_safe(r['overdue'], lines=False)}; {then}"
            )
        if r.get("judge_retries"):
            console.print(
                f"     judge retries so far: {r['judge_retries']}"
                + (f", next try at {r['retry_at']}" if r.get("retry_at") else "")
            )
        if r.get("turn"):
            console.print(f"     answers the user turn: {markup_safe(r['turn'], lines=False)}")
        if r["audit_runs"]:
            console.print(f"     audit: {markup_safe(audit_runs_text(r['audit_runs']))}")
        for f in findings:
            console.print(f"     {markup_safe(finding_text(f))}")
    d = report["decision"]
    if d:
        extra = (
            f" (stopped: {d['termination']}, deliver round {d['best_round']})"
            if d["termination"]
            else ""
        )
        # Break test: after `qgs approve` this line still read "awaiting_approval" alone; the
        # person's answer follows the kind, as on the round's line above.
        answered = _answers(report, d["round"])
        console.print(
            f"latest decision (round {d['round']}): [bold]{d['kind']}[/]{answered} — "
            f"{markup_safe(d['reason'])}{extra}"
        )
        fix_label = "must fix"
        if d["kind"] == DecisionKind.FORCE_DELIVER and d.get("best_round") is not None:
            # The round delivered may be an earlier one: its must_fix, said so.
            fix_label = f"must fix (round {d['best_round']}, delivered)"
        for label, items in ((fix_label, d["must_fix"]), ("suggestion", d["suggestions"])):
            for item in items:
                console.print(f"  {label}: {markup_safe(item)}")
        if d.get("replan"):
            console.print(
                f"[bold yellow]back to the planner[/]: {markup_safe(d['replan']['advice'])}"
            )
            for line in replan_lines(d["replan"]):
                console.print(f"  {markup_safe(line)}")
        if d["outcome"] == DecisionKind.AWAITING_APPROVAL:
            console.print(
                f"[bold]awaiting approval[/]: `qgs approve {report['id']} --by NAME` releases it, "
                f"`qgs approve {report['id']} --reject --by NAME --note WHY` blocks it"
            )
    for a in report["approvals"]:
        console.print(f"approval: {markup_safe(approval_text(a))}")
    for hook in report.get("webhooks", []):
        colour = {"delivered": "green", "failed": "red"}.get(hook["status"], "yellow")
        what = "approval webhook" if hook.get("event") == "qgs.approval" else "webhook"
        console.print(
            f"{what} of round {hook['round_number']}: [{colour}]{hook['status']}[/] — "
            f"{markup_safe(hook['summary'], lines=False)}"
        )
    for letter in report.get("dead_letters", []):
        console.print(
            f"[red]refused message[/] ({markup_safe(letter['job'])}, "
            f"{letter['received_at']}): {markup_safe(letter['reason'], lines=False)}"
        )


@app.command("wait")
def wait_cmd(
    task_id: Annotated[str, typer.Argument(help="The task id.")],
    timeout_s: Annotated[
        float, typer.Option("--timeout-s", help="Give up after this many seconds.")
    ] = 60.0,
    until_approved: Annotated[
        bool,
        typer.Option(
            "--until-approved",
            help="When the decision waits for a person, wait for `qgs approve` too.",
        ),
    ] = False,
) -> None:
    """Wait until every round of a task (stored or on its way) is decided; exit 1 on timeout.

    A decision that waits for a person (awaiting_approval) ends the wait like any other,
    unless --until-approved is given.
    """
    from qgs_worker.client import Client

    client = Client()
    client.repo.check_task(task_id)
    deadline = time.monotonic() + timeout_s
    while True:
        rounds = client.repo.round_states(task_id)
        # A submission still on its way to intake is a round to come: the task's latest
        # decision is not the one this wait is for.
        waiting = client.repo.count_untaken_outbox_of(task_id)
        if rounds and not waiting and all(r.status in ("decided", "failed") for r in rounds):
            d = client.task_decision(task_id)
            if not (until_approved and d is not None and d.awaiting_approval):
                break
        if time.monotonic() > deadline:
            raise _fail(
                f"task {task_id} has undecided rounds after {timeout_s:g} s"
                f" (`qgs status {task_id}` says where each stands, in {client.repo.redacted_url})"
                if not until_approved
                else f"task {task_id} is not decided and approved after {timeout_s:g} s "
                f"(`qgs status {task_id}` says where it stands)",
                code=1,
            )
        time.sleep(0.1)
    d = client.task_decision(task_id)
    assert d is not None
    console.print(f"round {d.round_number}: [bold]{d.kind}[/] — {markup_safe(d.reason)}")
    if d.approval_required:
        console.print(_approval_line(d))


def _approval_line(d: DecisionView) -> str:
    """Where a decision that waits for a person stands, in one line (markup escaped)."""
    a = d.approval
    if a is None:
        return (
            f"[bold]awaiting approval[/]: `qgs approve {d.task_id} --by NAME` "
            "(or --reject --by NAME --note WHY)"
        )
    when = a.created_at.isoformat(timespec="seconds")
    why = f" ({markup_safe(a.note)})" if a.note else ""
    by = markup_safe(a.by, lines=False)
    if not a.approved:
        return f"[bold red]rejected[/] by {by} at {when}{why}: blocked, never delivered"
    deliver = d.deliver_round
    return f"[bold green]approved[/] by {by} at {when}{why}: released, deliver round {deliver}"


@app.command()
def approve(
    task_id: Annotated[
        str, typer.Argument(help="The task id (as `qgs status` and `qgs report` show it).")
    ],
    by: Annotated[
        str | None, typer.Option("--by", help="Who decides: your name (required).")
    ] = None,
    reject: Annotated[
        bool,
        typer.Option("--reject", help="Reject instead: the task is blocked (needs --note)."),
    ] = False,
    note: Annotated[
        str, typer.Option("--note", help="Why (required with --reject; at most 2,000 characters).")
    ] = "",
) -> None:
    """Approve (or --reject) a task whose latest decision waits for a person.

    A REFLECT task that passes review waits (awaiting_approval), and so does one the loop
    force-delivers. Approving releases it; rejecting blocks it. Who, when and why are kept and
    shown by `qgs status` and `qgs report`. Running the same command again changes nothing.
    """
    from qgs_worker.core.free_text import is_blank
    from qgs_worker.errors import InputError

    if by is None or is_blank(by):
        raise InputError(
            "'--by' is required: the name of the person who decides "
            f"(e.g. qgs approve {task_id} --by alice)"
        )
    if reject and is_blank(note):
        raise InputError(
            "'--note' is required with --reject: say why the task is refused "
            f"(e.g. qgs approve {task_id} --by {by.strip()} --reject --note 'wrong host')"
        )
    from qgs_worker.client import Client

    client = Client()
    approval = client.approve(task_id, by=by, note=note, reject=reject)
    d = client.task_decision(task_id)
    assert d is not None
    console.print(
        f"task {task_id}, round {approval.round_number} ({approval.decision}): {_approval_line(d)}"
    )


@app.command()
def constraints(task_id: Annotated[str, typer.Argument(help="The task id.")]) -> None:
    """Print the text to add to the agent's next prompt (nothing for SIMPLE tasks)."""
    from qgs_worker.client import Client

    sys.stdout.write(Client().constraints(task_id) + "\n")


@app.command()
def report(
    fmt: Annotated[
        ReportFormat,
        typer.Option(
            "--format", help="table, markdown, json or html (one self-contained page with plots)."
        ),
    ] = ReportFormat.table,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file.")
    ] = None,
    task: Annotated[
        list[str] | None, typer.Option(help="Only these task ids (repeatable).")
    ] = None,
    decision: Annotated[
        list[str] | None,
        typer.Option(
            help="Only tasks whose latest decision is this (pass, revise, block, ..., pending, "
            "approved, rejected; repeatable)."
        ),
    ] = None,
    severity: Annotated[
        list[str] | None,
        typer.Option(help="Only tasks with a finding of this severity (P0-P4; repeatable)."),
    ] = None,
    task_type: Annotated[
        list[str] | None,
        typer.Option(
            help="Only tasks of this type (QUERY, GENERATE, ACTION, CRITICAL; repeatable)."
        ),
    ] = None,
    run: Annotated[
        str | None, typer.Option(help="Only the tasks of this audit run (`qgs runs`; or `last`).")
    ] = None,
) -> None:
    """Report every task in the store: decisions, findings, score trajectories."""
    from qgs_worker.client import Client
    from qgs_worker.reports.report import build_report, render_markdown, render_table
    from qgs_worker.reports.report_filter import ReportFilter

    check_output(output)
    filters = ReportFilter.parse(decision=decision, severity=severity, task_type=task_type, run=run)
    client = Client()
    repo = client.repo
    for task_id in task or ():
        repo.check_task(task_id)  # an unknown id is an error, not an empty report
    html = fmt is ReportFormat.html
    data = build_report(
        repo,
        task,
        # with --run, the input errors of that run's files only
        error_files=repo.run_facts(run).files if run is not None else None,
        bound_s=client.settings.worker.visibility_timeout_s,
        filters=filters,
        details=html,
        spool=fmt is ReportFormat.json,  # written as it is read back: flat memory at 10,000
    )
    if html:
        from qgs_worker.reports.report_html import html_context, render_html

        stored = repo.run_facts(run) if run is not None else None
        context = html_context(client.settings, stored.settings if stored else None)
        if stored is not None:  # what decided that run, not what this shell has set
            context = {k: f"{v} (as run {stored.id} was audited)" for k, v in context.items()}
        page = render_html(data, context)
        if output is None:
            sys.stdout.write(page)
            return
        with writing(output):
            output.write_text(page, encoding="utf-8")
    elif output is None:
        _print_report(data, fmt, render_table, render_markdown)
        return
    else:
        with writing(output):
            if fmt is ReportFormat.json:
                with output.open("w", encoding="utf-8") as fh:
                    write_json(data, fh)
            elif fmt is ReportFormat.markdown:
                output.write_text(render_markdown(printable_report(data)), encoding="utf-8")
            else:
                with output.open("w", encoding="utf-8") as fh:
                    render_table(printable_report(data), Console(file=fh, width=160))
    console.print(f"wrote {output}")
