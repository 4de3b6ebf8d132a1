"""The whole ``qgs`` typer app: every command module imported, commands in ``--help``'s order.

A module per command group, each registering its commands on the one Typer ``app``
(``common``); imported here in the order ``qgs --help`` lists them. Every heavy import (the
store, Celery, openai) stays inside the command that needs it: ``qgs check-tool`` and ``qgs
scan`` start without them (``tests/unit/test_cli_cold_start.py``), and usually without this
module at all (``cli.short``).
"""

from __future__ import annotations

from qgs_worker.cli import audit, check_tool, reviews, runs, scan, serve, services  # noqa: F401  (they register their commands)
from qgs_worker.cli.common import app

__all__ = ["COMMAND_ORDER", "app"]

COMMAND_ORDER = (
    "audit", "runs", "diff", "submit", "status", "wait", "approve", "constraints", "report", "scan",
    "check-tool", "worker", "flower", "serve", "mcp", "shadow",
)  # fmt: skip
"""The order ``qgs --help`` lists the commands in (the modules register them in import order)."""
app.registered_commands.sort(
    key=lambda c: COMMAND_ORDER.index(c.name or getattr(c.callback, "__name__", ""))
)
