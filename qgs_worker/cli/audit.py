"""``qgs audit``: review past transcripts, streamed, and wait with one store query per poll."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from qgs_worker.cli.common import (
    ReportFormat,
    _fail,
    _print_report,
    app,
    broker_session,
    err_console,
)
from qgs_worker.cli.interrupts import Terminated, sigterm_interrupts
from qgs_worker.cli.terminal import markup_safe
from qgs_worker.errors import QGSError

if TYPE_CHECKING:
    # Imported where used: ``qgs check-tool`` and ``qgs scan`` start without the store
    # (sqlalchemy), Celery or openai (issue 15; ``tests/unit/test_cli_cold_start.py``).
    from qgs_worker.client import Client
    from qgs_worker.config.settings import Settings
    from qgs_worker.queue.embedded import LocalWorkers
    from qgs_worker.service.submission import Submission
    from qgs_worker.transcripts import TranscriptFormat


POLL_S = 0.2
"""Seconds between two reads of the store while ``qgs audit`` waits (one query each)."""


def _positive_seconds(value: float) -> float:
    """``--timeout-s``: a number of seconds above 0 (break test: -5 and nan were taken)."""
    if not value > 0:  # also nan, which compares false with everything
        raise typer.BadParameter(f"{value} is not a number of seconds above 0 (e.g. 900)")
    return value


@app.command()
def audit(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Transcript files (.jsonl, .json, .eval) or folders of them."),
    ] = None,
    timeout_s: Annotated[
        float,
        typer.Option(
            "--timeout-s",
            help="Give up waiting for decisions after this many seconds (> 0; inf: never).",
            callback=_positive_seconds,
        ),
    ] = 900.0,
    worker: Annotated[
        bool | None,
        typer.Option(
            "--worker/--no-worker",
            help="Start local workers (default: only with the embedded broker).",
        ),
    ] = None,
    fmt: Annotated[
        ReportFormat,
        typer.Option(
            "--format",
            help="How to print the result: table, json or markdown (for html, audit, then "
            "`qgs report --format html -o FILE`).",
        ),
    ] = ReportFormat.table,
    input_format: Annotated[
        str,
        typer.Option(
            "--input-format",
            help="The transcripts' format: auto (told from each file's content), chat, "
            "langchain, otel, inspect or claude-code.",
        ),
    ] = "auto",
    retry_failed: Annotated[
        bool,
        typer.Option(
            "--retry-failed",
            help="Review again the rounds whose judge failed (and the rounds after them).",
        ),
    ] = False,
    new_run: Annotated[
        bool,
        typer.Option(
            "--new-run",
            help="Audit every transcript again under the current settings, as a new run with "
            "tasks of its own (stored reviews are reused only where judge and round are identical).",
        ),
    ] = False,
    rerun: Annotated[
        str | None,
        typer.Option(
            "--rerun",
            metavar="RUN",
            help="Audit the files of run RUN (an id from `qgs runs`, or `last`) again as a new run.",
        ),
    ] = None,
    chunk_size: Annotated[
        int | None,
        typer.Option(
            "--chunk-size",
            min=0,
            max=10_000,
            help="Transcripts a job: reviewed in memory and stored in one transaction, the "
            "same decisions (default QGS_AUDIT__CHUNK_SIZE, 100; 0: a job a round).",
        ),
    ] = None,
) -> None:
    """Review transcripts: one task per transcript, its assistant turns as rounds.

    Each invocation is a run (`qgs runs` lists them, `qgs diff A B` compares two). Re-running
    the same files skips what is done; `--new-run` (or `--rerun RUN`) audits them again under
    the current settings. A broken line fails alone, named with its file and line number, and
    is stored.

    Exit status: 0 when every transcript is decided; 1 when some input was unusable or the
    decisions did not come within --timeout-s (run it again to resume); 2 when nothing could be
    read, or a setting or file is wrong.
    """
    from qgs_worker.client import Client
    from qgs_worker.config.settings import Settings
    from qgs_worker.reports.runs import changed_settings, fingerprint_of, run_settings
    from qgs_worker.transcripts import TranscriptFormat, iter_paths

    if input_format not in set(TranscriptFormat):
        choices = ", ".join(f.value for f in TranscriptFormat)
        raise _fail(f"--input-format {input_format!r} is not a format: use one of {choices}")
    if fmt is ReportFormat.html:
        raise _fail(
            "--format html is `qgs report`'s: audit, then `qgs report --format html -o audit.html`"
        )
    from qgs_worker.queue.preflight import check_policy_files

    settings = Settings()
    # Before the run starts: the workers would fail every round on a bad file, and the audit
    # would wait for decisions that never come (only the worker's log said why).
    check_policy_files(settings)
    client = Client(settings)
    repo = client.repo
    rerun_of = None
    if rerun is not None:
        if paths:
            raise _fail(
                "give either transcript paths or --rerun RUN (which audits that run's files)"
            )
        earlier = repo.run_facts(rerun)
        rerun_of, paths, new_run = earlier.id, [Path(f) for f in earlier.files], True
    if not paths:
        raise _fail(
            "no transcripts given: `qgs audit FILE_OR_FOLDER ...` or `qgs audit --rerun RUN`"
        )
    # Absolute paths throughout: the run's files (`--rerun` from any folder), the tasks' and
    # the input errors' source files (`qgs report --run N` finds the run's errors by them).
    files = list(dict.fromkeys(f.resolve() for f in iter_paths(paths)))
    if not files:
        raise _fail(f"no .json, .jsonl or .eval files in {', '.join(map(str, paths))}")
    decides = run_settings(settings)
    fingerprint = fingerprint_of(decides)
    names = [str(f) for f in files]
    # The latest run that read every file of this one (the same files, or more of them).
    previous = next((r for r in reversed(repo.list_runs()) if set(names) <= set(r.files)), None)
    # A new run that did not end (interrupted, or timed out) on the same files and settings is
    # resumed: starting another would audit everything again as tasks of a third run.
    resumed = repo.unfinished_new_run(names, fingerprint, rerun_of) if new_run else None
    run_id = resumed or repo.start_run(
        names, fingerprint, decides, mode="new" if new_run else "resume", rerun_of=rerun_of
    )
    err_console.print(
        f"run {run_id} "
        + ("resumed (it had not ended) " if resumed else "")
        + f"(settings {fingerprint}"
        + (f", again the files of run {rerun_of}" if rerun_of else "")
        + ")"
    )
    if previous is not None and not new_run and previous.fingerprint != fingerprint:
        changed = ", ".join(changed_settings(previous.settings, decides)) or "the settings"
        err_console.print(
            f"[yellow]note:[/] {markup_safe(changed)} changed since run {previous.id}; what is "
            "done keeps its decisions: `qgs audit --rerun "
            f"{previous.id}` audits these files again under the current settings"
        )
    use_workers = settings.embedded if worker is None else worker
    ended = False
    stopped: typer.Exit | None = None
    try:
        with contextlib.ExitStack() as session:
            session.enter_context(sigterm_interrupts())
            size = settings.audit.chunk_size if chunk_size is None else chunk_size
            sender = _Sender(settings, session, use_workers, chunk_size=size)
            plan = _plan_audit(
                client,
                files,
                retry_failed=retry_failed,
                send=sender.send,
                run_id=run_id,
                own_tasks=new_run,
                input_format=TranscriptFormat(input_format),
            )
            sender.flush()
            err_console.print(
                f"{len(plan.task_ids)} transcripts in {len(files)} files: {len(plan.pending)} to "
                f"review, {plan.skipped} already done, {plan.errors} unusable."
            )
            if sender.client is not None:
                if not use_workers:
                    _warn_without_workers(sender.client)
                try:
                    _wait_for_tasks(
                        sender.client, plan.pending, timeout_s, workers=sender.local_workers
                    )
                except typer.Exit as exc:  # timed out, or the local workers exited (said)
                    stopped = exc  # the report below says what is decided; then this exit
            ended = stopped is None
    except (KeyboardInterrupt, Terminated) as exc:
        # Break test: Ctrl-C printed nothing (typer exits 130 quietly), and SIGTERM (`timeout`,
        # a service manager) killed the command mid-batch without a word. What was decided is
        # stored; the run is left unfinished, and the same command resumes it.
        err_console.print(
            f"interrupted: run {run_id} is left unfinished; what was decided is stored, and the "
            "same command again goes on from there (what is done is skipped)"
        )
        raise SystemExit(143 if isinstance(exc, Terminated) else 130) from None
    finally:
        if ended:  # interrupted or timed out: left not ended, and a --rerun resumes it
            repo.end_run(run_id)
    if not plan.task_ids and not plan.errors and not resumed and repo.discard_empty_run(run_id):
        # Break test: an empty file printed an empty report and left a run of 0 tasks in
        # `qgs runs`. Nothing was read, so nothing is reported and no run is kept.
        err_console.print(
            f"[yellow]no transcript was found in the files given[/] (check the files, or "
            f"--input-format if it was forced); run {run_id} is not kept"
        )
        raise typer.Exit(2)
    # Loaded once the reviews are done: the report's imports (the judges' package, Celery's
    # signals) took ~1 s before the first chunk could be sent (issue 14's batch path).
    from qgs_worker.reports.report import build_report, render_markdown, render_table

    report = build_report(
        repo,
        plan.task_ids,
        error_files=names,
        bound_s=settings.worker.visibility_timeout_s,
        spool=fmt is ReportFormat.json,  # written as it is read back: flat memory at 10,000
    )
    report["run"] = {"id": run_id, "fingerprint": fingerprint, "rerun_of": rerun_of}
    _print_report(report, fmt, render_table, render_markdown)
    failed = report["summary"]["judge_failures"]
    if failed:
        # Break test: a judge that answered every call with an error looked like a clean night
        # (exit 0, nothing on stderr). The gate held those rounds; say so where cron mails it.
        err_console.print(
            f"[yellow]warning:[/] {failed} judge call(s) failed and their rounds were held "
            "(revise); when the judge answers again, `qgs audit --retry-failed` with the same "
            "files reviews them again"
        )
    if stopped is not None:
        # Break test: a `--format json` audit that timed out printed no JSON at all; the report
        # above holds what was decided, the undecided tasks without a decision.
        raise stopped
    usable = len(plan.task_ids)
    if plan.errors or not usable:
        # A batch with unreadable input must not look like a clean one to a cron job: 2 when
        # nothing could be read, 1 when some could (the rest is audited, and reported above).
        if not plan.errors:
            err_console.print(
                "[yellow]no transcript was found in the files given[/] (check the files, or "
                "--input-format if it was forced)"
            )
        else:
            err_console.print(
                f"[yellow]{plan.errors} unusable input(s)[/]"
                + (": nothing was audited" if not usable else f" beside {usable} transcripts")
                + "; the report's errors name each file and line with the reason"
            )
        raise typer.Exit(1 if usable else 2)


class _Sender:
    """Sends an audit's submissions as they are read; the broker (and workers) start with the first.

    With ``chunk_size`` > 0 the transcripts go ``chunk_size`` at a time in one
    ``qgs.audit.chunk`` job each (the batch path, ``qgs_worker.queue.audit_chunk``); with 0, every
    round as its own intake job. A re-run with nothing left to review starts neither.
    """

    def __init__(
        self, settings: Settings, stack: contextlib.ExitStack, workers: bool, *, chunk_size: int
    ) -> None:
        self._settings, self._stack, self._workers = settings, stack, workers
        self.client: Client | None = None
        self.local_workers: LocalWorkers | None = None  # started with the first submission
        self._chunk_size = chunk_size
        self._chunk: list[Submission] = []
        self._transcripts = 0

    def send(self, batch: list[Submission]) -> None:
        """Send one transcript's submissions (in a chunk: once ``chunk_size`` are held)."""
        if self._chunk_size <= 0:
            client = self._client()
            for submission in batch:
                client.send(submission)
            return
        self._chunk.extend(batch)
        self._transcripts += 1
        if self._transcripts >= self._chunk_size:
            self.flush()

    def flush(self) -> None:
        """Send the transcripts held for the next chunk, if any."""
        if not self._chunk:
            return
        from qgs_worker.client.chunks import send_chunk

        send_chunk(self._client(), self._chunk)
        self._chunk, self._transcripts = [], 0

    def _client(self) -> Client:
        if self.client is None:
            from qgs_worker.client import Client  # loaded here: `qgs check-tool` never needs it

            live = self._stack.enter_context(
                broker_session(self._settings, workers=self._workers, on_workers=self._started)
            )
            self.client = Client(live)
        return self.client

    def _started(self, workers: LocalWorkers) -> None:
        self.local_workers = workers


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
    run_id: int | None = None,
    own_tasks: bool = False,
    input_format: TranscriptFormat | None = None,
) -> _AuditPlan:
    """Read the files lazily and ``send`` each transcript's rounds still to review.

    Bad lines are stored and named. Returns the task ids in file order and, for each task sent,
    the round numbers not decided yet. ``input_format`` forces one reader (default: each file's
    format is told from its content).

    Args:
        client: The client (its store and submissions).
        files: The transcript files, in order.
        retry_failed: Reopen the rounds whose judge failed.
        send: Publishes a transcript's submissions.
        run_id: The run the tasks are linked to (``RunStore.add_run_tasks``), file by file.
        own_tasks: Give each transcript a task of this run (``<key>-r<run_id>``) instead of the
            transcript's own task (``<key>``): a new run audits every round again.
        input_format: One transcript format for every file (None: told from each file).
    """
    from qgs_worker.service.submission import NewTask
    from qgs_worker.store.recovery import SETTLED
    from qgs_worker.transcripts import TranscriptError, read_transcripts

    repo = client.repo
    plan = _AuditPlan()
    seen: set[str] = set()
    keys: dict[str, str] = {}  # task id -> transcript key, for the file being read

    def unusable(source: str, line: int, message: str) -> None:
        message = re.sub(r"^line \d+: ", "", message)
        plan.errors += 1
        repo.save_audit_error(source, line, message)
        err_console.print(
            f"[red]skipped[/] {markup_safe(f'{source}:{line}: {message}')}", soft_wrap=True
        )

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    # Reading and sending 1,000 transcripts takes about a minute before the wait starts: a bar
    # over the files says so (break test: nothing but "skipped" lines showed meanwhile).
    with Progress(
        TextColumn("reading"), BarColumn(), MofNCompleteColumn(), TextColumn("files"),
        console=err_console, transient=True,
    ) as progress:  # fmt: skip
        reading = progress.add_task("reading", total=len(files))
        for path in files:
            repo.clear_audit_errors(str(path))
            found = 0
            linked = len(plan.task_ids)
            for item in read_transcripts(path, input_format or "auto"):
                found += 1
                if isinstance(item, TranscriptError):
                    unusable(item.source_file, item.line, item.message)
                    continue
                if item.key in seen:
                    continue  # the same transcript twice: one task
                seen.add(item.key)
                task_id = run_task_id(item.key, run_id) if own_tasks else item.key
                keys[task_id] = item.key
                if retry_failed and (reopened := repo.reopen_failed(task_id)):
                    err_console.print(
                        f"{markup_safe(task_id)}: reviewing again from round {reopened}"
                    )
                rounds = repo.round_states(task_id)
                settled = {r.number for r in rounds if r.status in SETTLED}
                if len(rounds) == len(item.rounds) and len(settled) == len(rounds):
                    plan.task_ids.append(task_id)
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
                                task_id,
                                deliverable,
                                final=number == len(item.rounds),
                                round_number=number,
                                submission_id=f"{task_id}:{number}",
                                task=new,
                                turn=item.turn_of(number),
                            )
                        )
                    except QGSError as exc:
                        unusable(item.source_file, item.line, f"round {number}: {exc}")
                        break
                else:
                    plan.task_ids.append(task_id)
                    plan.pending[task_id] = set(range(1, len(item.rounds) + 1)) - settled
                    send(batch)
            if run_id is not None:  # linked file by file: an interrupted run lists what it read
                new_ids = plan.task_ids[linked:]
                repo.add_run_tasks(run_id, [(t, keys.pop(t)) for t in new_ids], start=linked)
                keys.clear()
            if found == 0:
                err_console.print(
                    f"[yellow]warning:[/] no transcripts in {markup_safe(path)}", soft_wrap=True
                )
            progress.advance(reading)
    return plan


def run_task_id(key: str, run_id: int | None) -> str:
    """The task id of transcript ``key`` in a new run: ``tx-0123456789abcdef-r3``."""
    return f"{key}-r{run_id}"


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


def _wait_for_tasks(
    client: Client,
    pending: dict[str, set[int]],
    timeout_s: float,
    *,
    workers: LocalWorkers | None = None,
) -> None:
    """Show a progress bar until every task's rounds are decided (or failed).

    Each poll is one query, whatever the batch size: the rounds settled since the last poll
    (``AuditWait``).

    Args:
        client: The client whose store the workers write to.
        pending: Task id -> the round numbers still undecided (``_AuditPlan.pending``).
        timeout_s: How long to wait at most, in seconds.
        workers: The local workers this command started (``LocalWorkers``), or None: when one
            of them exits (killed, out of memory), the wait stops at once instead of waiting for
            the timeout.

    Raises:
        typer.Exit: (code 1) some task has no decision after ``timeout_s`` seconds, or the
            local workers exited first.
    """
    from qgs_worker.cli.audit_wait import AuditWait
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
            if workers is not None and not workers.alive():
                wait.reconcile()  # what they decided before they stopped
                if not wait.waiting:
                    progress.update(bar, completed=total)
                    break
                raise _fail(
                    f"the local workers exited with {wait.waiting} of {total} tasks undecided "
                    f"(their log: {workers.log_file}); nothing done is lost: run the same "
                    "command again to resume",
                    code=1,
                )
            if time.monotonic() > deadline:
                wait.reconcile()  # an exact check before giving up (a worker's clock may lag)
                if not wait.waiting:
                    progress.update(bar, completed=total)
                    break
                first = wait.first_waiting()
                rounds = client.repo.round_states(first)
                where = (
                    "; ".join(
                        f"round {r.number} {r.status}"
                        + (f" after {r.judge_retries} judge retries" if r.judge_retries else "")
                        for r in rounds
                        if r.status not in SETTLED
                    )
                    or None
                )
                # Break test: a task not stored yet was named with `qgs status`, which then
                # answered "no task with id ...": its submission still waits for a worker.
                about = (
                    f"{first}: {where}; `qgs status {first}` says more"
                    if where is not None
                    else f"{first}: not stored yet, its submission waits for a worker to take it"
                )
                raise _fail(
                    f"{wait.waiting} of {total} tasks have no decision after {timeout_s:g} s "
                    f"(e.g. {about}; store {client.repo.redacted_url}). The report lists the "
                    "tasks stored so far. Re-run to resume.",
                    code=1,
                )
            time.sleep(POLL_S)
