"""What every ``qgs`` command shares: the Typer app, the consoles, the broker session, errors."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console

from qgs_worker.cli.short_process import load_instruction_model
from qgs_worker.cli.short_process import short_command as short_command  # its former home
from qgs_worker.cli.terminal import markup_safe, printable_report, write_json

if TYPE_CHECKING:
    # Imported where used: ``qgs check-tool`` and ``qgs scan`` start without the store
    # (sqlalchemy), Celery or openai (issue 15; ``tests/unit/test_cli_cold_start.py``).
    from qgs_worker.config.settings import Settings
    from qgs_worker.queue.embedded import LocalWorkers


app = typer.Typer(
    name="qgs",
    help="QGS, a quality gate for autonomous AI agents: classify, judge, audit, gate and store every round.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Markdown: a docstring's paragraphs are reflowed to the terminal (in "rich" mode each
    # source line break stayed, so wrapped help read in broken half-lines).
    rich_markup_mode="markdown",
)
console = Console()
err_console = Console(stderr=True)


@app.callback()
def _before_every_command() -> None:
    """QGS, a quality gate for autonomous AI agents: classify, judge, audit, gate and store every round."""
    if sys.stderr.isatty():  # which store this process uses (stderr, terminals only)
        from qgs_worker.config.settings import print_store_line

        print_store_line()


class ReportFormat(StrEnum):
    """Output formats of ``qgs report`` and ``qgs audit`` (``html``: ``qgs report`` only)."""

    table = "table"
    markdown = "markdown"
    json = "json"
    html = "html"


@contextlib.contextmanager
def broker_session(
    settings: Settings, *, workers: bool, on_workers: Callable[[LocalWorkers], None] | None = None
) -> Iterator[Settings]:
    """Yield settings with a broker URL: the configured one, or the embedded one started here.

    With ``workers`` True, local worker processes run for the duration of the block, and the
    learned instruction detector is loaded first; ``on_workers`` is given them once started (a
    waiting command asks them whether they still run).

    Raises:
        ModelArtifactError: ``workers`` and the detector's artifact is missing or corrupt.
    """
    from qgs_worker.queue.embedded import LocalWorkers, embedded_broker

    if workers:
        # The local workers load the learned detector; a missing or corrupt artifact must stop
        # this command at once (exit 2, naming `make train`), not leave it waiting for workers
        # that died at start.
        load_instruction_model()
    with contextlib.ExitStack() as stack:
        if settings.embedded:
            url = stack.enter_context(embedded_broker(settings.data_dir))
            settings = settings.model_copy(update={"broker_url": url})
        if workers:
            started = stack.enter_context(LocalWorkers(settings, settings.broker_url or ""))
            if on_workers is not None:
                on_workers(started)
        yield settings


def _fail(message: str, code: int = 2) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {markup_safe(message, lines=False)}", soft_wrap=True)
    return typer.Exit(code)


def check_output(output: Path | None, example: str = "audit.html") -> None:
    """Refuse an ``--output`` path that cannot be written, before any work is done.

    Args:
        output: The path given, or None (stdout).
        example: A file name to suggest when ``output`` is a folder.

    Raises:
        typer.Exit: (2) the path is a folder, or its folder does not exist or is a file; the
            message names it.
    """
    if output is None:
        return
    if output.is_dir():
        raise _fail(f"--output {output} is a folder: give a file name (e.g. {output / example})")
    if output.parent.exists() and not output.parent.is_dir():
        raise _fail(f"--output {output}: {output.parent} is a file, not a folder")
    if not output.parent.is_dir():
        raise _fail(f"--output {output}: the folder {output.parent} does not exist; create it first")


@contextlib.contextmanager
def writing(output: Path) -> Iterator[None]:
    """Inside: an ``OSError`` writing ``output`` becomes one line naming the path (exit 2)."""
    try:
        yield
    except OSError as exc:
        raise _fail(f"cannot write --output {output}: {exc.strerror or exc}") from None


def _print_report(
    report: dict[str, Any], fmt: ReportFormat, render_table: Any, render_markdown: Any
) -> None:
    """Print the report on standard output; a failed write is one line (exit 2), not a traceback.

    Raises:
        typer.Exit: standard output could not be written (a full disk: `> /dev/full`).
    """
    try:
        if fmt is ReportFormat.json:
            write_json(report, sys.stdout)  # streamed: a 10,000-task report is ~60 MB of JSON
        elif fmt is ReportFormat.markdown:
            sys.stdout.write(render_markdown(printable_report(report)))
        else:
            render_table(printable_report(report), console)
        sys.stdout.flush()
    except BrokenPipeError:
        raise  # a reader that stopped (`| head`): Python's own quiet exit
    except OSError as exc:
        raise _fail(f"cannot write the report to standard output: {exc.strerror or exc}") from None
