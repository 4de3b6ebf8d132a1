"""The body of ``qgs check-tool``, without typer: the typer command and the short path call it.

``cli.check_tool`` declares the command (its options and help); ``cli.short`` reads the same
options without typer (issue 15). Output goes through ``cli.out`` (rich only on a terminal);
a failure raises ``SystemExit`` with its code, as ``typer.Exit`` did.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from qgs_worker.cli import out
from qgs_worker.cli.short_process import short_command
from qgs_worker.cli.terminal import json_text
from qgs_worker.core.models import Strictness
from qgs_worker.errors import QGSError

if TYPE_CHECKING:
    from qgs_worker.config.settings import Settings
    from qgs_worker.config.settings_defaults import DefaultSettings

__all__ = ["CALL_MAX_BYTES", "LOG_WAIT_S", "CheckFormat", "check_tool"]


class CheckFormat(StrEnum):
    """Output formats of ``qgs check-tool``."""

    text = "text"
    json = "json"


CALL_MAX_BYTES = 10_000_000
"""The largest call file ``qgs check-tool`` reads, in bytes."""

_STATUS_MARKS = {"pass": "✓", "warn": "!", "fail": "✗", "skipped": "·"}


def check_tool(
    call_file: str,
    tools: Path,
    principal: str | None = None,
    agent: str | None = None,
    fmt: CheckFormat = CheckFormat.text,
    strictness: Strictness | None = None,
    log: bool | None = None,
) -> None:
    """Check the calls of ``call_file`` against the tools of ``tools`` and print the reports.

    Args: as the options of ``qgs check-tool`` (``cli.check_tool``).

    Raises:
        SystemExit: 1 when a call is rejected, 2 when the input is unusable.
    """
    from qgs_worker.config.short_settings import short_settings
    from qgs_worker.config.toolgate_io import tool_gate_for
    from qgs_worker.core.toolgate import parse_calls

    short_command()
    settings = short_settings()
    registry = _load_tools(tools)
    document, source = _read_call_document(call_file)
    try:
        calls = parse_calls(document)
    except QGSError as exc:
        raise out.fail(f"{source}: {exc}") from None
    if not calls:
        raise out.fail(
            f"{source} holds no tool call: pass one call (an OpenAI tool_calls item, an Anthropic "
            "tool_use block, an MCP tools/call request) or an assistant message with tool calls"
        )
    gate = tool_gate_for(registry, settings, strictness=strictness)
    reports = [gate.check(call, principal=principal, agent_id=agent) for call in calls]
    _print_check_result(document, calls, reports, fmt)  # the verdict first, whatever the log does
    if bool(settings.broker_url) if log is None else log:
        _log_checks(settings, reports, principal, agent)
    if not all(r.allowed for r in reports):
        raise SystemExit(1)


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
        raise out.fail(f"no such tools file: {path} (pass --tools FILE, a JSON file of {forms})")
    if problem is not None:
        raise out.fail(f"--tools {path} {problem}; pass --tools FILE, a JSON file of {forms}")
    try:
        text = path.read_text(encoding="utf-8-sig")
        if not text.strip():
            raise out.fail(f"--tools {path} is empty; it must hold {forms}")
        document = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise out.fail(
            f"--tools {path} is not readable JSON ({exc}); it must hold {forms}"
        ) from None
    if _holds_calls(document):
        raise out.fail(
            f"--tools {path} holds tool calls, not tool definitions: pass the tools the agent "
            f"was offered ({forms}) with --tools, and the call as the argument"
        )
    try:
        registry = ToolRegistry(specs_from_document(document))
    except QGSError as exc:  # ToolDefinitionError: not definitions, a bad tool
        raise out.fail(f"--tools {path}: {exc}; the file must hold {forms}") from None
    if not len(registry):
        raise out.fail(f"--tools {path} holds no tool definitions; it must hold {forms}")
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
            raise out.fail(f"no such call file: {name} (pass a JSON file, or - for standard input)")
        if problem is not None:
            raise out.fail(f"call file {name} {problem}; {fix}")
        try:
            with Path(name).open("rb") as fh:
                data, source = fh.read(CALL_MAX_BYTES + 1), name
        except OSError as exc:
            raise out.fail(
                f"call file {name} cannot be read ({exc.strerror or exc}); {fix}"
            ) from None
    if len(data) > CALL_MAX_BYTES:
        raise out.fail(f"{source} is larger than {CALL_MAX_BYTES // 1_000_000} MB: not one call")
    try:
        text = data.decode("utf-8-sig")
        if not text.strip():
            raise out.fail(f"{'stdin' if name == '-' else f'call file {name}'} is empty; {fix}")
        return json.loads(text), source
    except UnicodeDecodeError as exc:
        raise out.fail(
            f"{source} is not UTF-8 text (byte {exc.start}); save it as UTF-8 JSON"
        ) from None
    except json.JSONDecodeError as exc:
        raise out.fail(
            f"{source} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}; "
            "pass the call as JSON (e.g. message['tool_calls'][0])"
        ) from None


LOG_WAIT_S = 10.0
"""How long ``qgs check-tool`` waits for its log to be queued before it gives up on it."""


def _log_checks(
    settings: Settings | DefaultSettings,
    reports: list[Any],
    principal: str | None,
    agent: str | None,
) -> None:
    """Queue one ``qgs.toolgate.log`` job per report; a broker that fails is a warning.

    The publishing connection has short socket timeouts (``toolcheck.log_app``), and the
    command waits at most ``LOG_WAIT_S`` for it: a broker that hangs never holds the verdict.
    """
    import threading

    from qgs_worker.cli.common import broker_session
    from qgs_worker.config.short_settings import full_settings
    from qgs_worker.queue.toolcheck import log_app, record_from_report, send_with

    failure: list[str] = []
    full = full_settings(settings)

    def publish() -> None:
        try:
            with broker_session(full, workers=False) as live:
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
        out.warning(
            f"the checks were not logged ({failure[0]}); check QGS_BROKER_URL, or pass --no-log"
        )


def _print_gate_reports(reports: list[Any]) -> None:
    line = out.line  # plain text, one line per item even in a pipe, controls shown

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
