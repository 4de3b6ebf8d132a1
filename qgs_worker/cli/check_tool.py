"""``qgs check-tool``: the six-layer gate on tool calls before they run, as an agent's gate would.

The command's options and help; its body is ``check_tool_body.check_tool`` (which ``cli.short``
also runs, without typer).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from qgs_worker.cli import check_tool_body
from qgs_worker.cli.check_tool_body import CALL_MAX_BYTES, LOG_WAIT_S, CheckFormat
from qgs_worker.cli.common import app
from qgs_worker.core.models import Strictness

__all__ = ["CALL_MAX_BYTES", "LOG_WAIT_S", "CheckFormat", "check_tool"]


@app.command("check-tool")
def check_tool(
    call_file: Annotated[
        str,
        typer.Argument(
            help="The call: a JSON file holding one tool call (QGS's {id, name, arguments}, an "
            "OpenAI tool_calls item, Anthropic tool_use block, MCP tools/call request) or an "
            "assistant message with several, or - for standard input."
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
    check_tool_body.check_tool(call_file, tools, principal, agent, fmt, strictness, log)
