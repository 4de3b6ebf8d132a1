"""The tool-call gate on the agent's hot path: ``check_tool_call``, the gates it keeps, the log thread."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from qgs_worker import telemetry
from qgs_worker.client.gate_cache import GateCache
from qgs_worker.client.sdk_objects import sdk_data
from qgs_worker.config.settings import Settings
from qgs_worker.config.toolgate_io import load_tools, tool_gate_for
from qgs_worker.core.models import (
    ToolCall,
)
from qgs_worker.core.toolgate import (
    GateReport,
    ParsedCall,
    ToolGate,
    ToolRegistry,
    parse_calls,
)
from qgs_worker.errors import (
    ConfigurationError,
    InputError,
)
from qgs_worker.queue.toolcheck import CheckLogSender, send_with

logger = logging.getLogger(__name__)

Tools = ToolGate | ToolRegistry | Sequence[Mapping[str, Any]] | Mapping[str, Any] | Sequence[type]
"""What ``tools=`` takes: a gate, a registry, tool definitions (OpenAI, Anthropic, MCP) as JSON
data, or pydantic model classes (named by their class name, as the OpenAI SDK names them)."""
"""What ``check_tool_call(tools=...)`` takes: a gate, a registry, or tool definitions (a list of
OpenAI, Anthropic or MCP definitions, or an MCP ``tools/list`` result)."""


class ToolCallsMixin:
    """The tool-call gate (a part of ``Client``): checks, gates kept by content, the log thread."""

    settings: Settings
    _app: Any
    _default_gate: ToolGate | None
    _gate_cache: GateCache
    _tool_log: CheckLogSender | None
    _tool_log_ready: bool
    _tool_log_send: Any
    _tool_log_lock: threading.Lock

    def check_tool_call(
        self,
        call: object,
        *,
        principal: str | None = None,
        agent: str | None = None,
        tools: Tools | None = None,
        log: bool = True,
    ) -> GateReport:
        """Check one tool call before the agent runs it: synchronous, in-process, no broker.

        The gate's layers run in order and the first FAIL stops (``core/toolgate``). A rejected
        call is a report with ``allowed`` False, never an exception. The report then goes to
        the store through the queue (job ``qgs.toolgate.log``), fire-and-forget: the agent's
        thread only puts it on an in-process queue, which adds about 6 us at p50 to the check
        (measured on the 2-core test machine), and a daemon thread makes the record and
        publishes it. Publishing directly would add about 1.6 ms at p50 (``app.send_task`` to a
        local Redis), thirty times the gate's ~50 us budget. A broker that is down never reaches
        the agent: the records are dropped with one warning (``qgs_worker.queue.toolcheck`` says
        when, and what ``flush_tool_log`` does).

        Args:
            call: An OpenAI ``tool_calls`` item, an Anthropic ``tool_use`` block or an MCP
                ``tools/call`` request as parsed JSON, a ``ToolCall`` or a ``ParsedCall``.
            principal: Who the call acts for (the permission layer's subject; logged).
            agent: Which agent makes it (the rate limit's key; logged).
            tools: The tools the agent may call: a ``ToolGate`` (see ``tool_gate``: build it
                once), a ``ToolRegistry``, or a list of definitions (compiled on first use and
                kept by identity and by content, so equal definitions in a new list find the
                same gate; a list whose items were appended, removed or replaced is read again,
                an edit inside one definition is not seen: pass a new object). None: the
                registry of ``QGS_TOOLS_FILE``, read once.
            log: Send the report to the store (needs ``QGS_BROKER_URL`` or the client's app;
                without one the check runs and a warning says, once, that nothing is logged).

        Returns:
            The gate's report: ``allowed``, ``stopped_at`` (layer number or None), ``layers``
            (each layer's status, errors, warnings, suggestion), ``latency_us`` (microseconds).

        Raises:
            InputError: ``call`` is not a call at all (not a JSON object: a string, a list, an
                assistant message with several calls), or ``tools`` holds an unusable
                definition (``ToolDefinitionError``, naming the tool).
            ConfigurationError: no ``tools`` and no ``QGS_TOOLS_FILE``, or that file is unusable.
        """
        gate = self._default_gate if tools is None else None
        if gate is None:
            gate = self.tool_gate(tools)
        report = gate.check(_as_call(call), principal=principal, agent_id=agent)
        telemetry.tool_checked(report, principal, agent)
        if log:
            self._log_check(report, principal, agent)
        return report

    def check_tool_calls(
        self,
        message: object,
        *,
        principal: str | None = None,
        agent: str | None = None,
        tools: Tools | None = None,
        log: bool = True,
    ) -> tuple[GateReport, ...]:
        """Check every tool call of an assistant message, in order (see ``check_tool_call``).

        Args:
            message: An OpenAI assistant message (``tool_calls``), an Anthropic message or its
                ``content`` list, a list of calls, or one call.
            principal: Who the calls act for.
            agent: Which agent makes them.
            tools: As for ``check_tool_call``.
            log: Send each report to the store.

        Returns:
            One report per call (``()`` for a message without calls).

        Raises:
            InputError: ``tool_calls``/``content`` is not a list, or the message is not a JSON
                object or list.
            ConfigurationError: no registry (see ``check_tool_call``).
        """
        gate = self.tool_gate(tools)
        reports = tuple(
            gate.check(call, principal=principal, agent_id=agent)
            for call in parse_calls(sdk_data(message))
        )
        for report in reports:
            telemetry.tool_checked(report, principal, agent)
            if log:
                self._log_check(report, principal, agent)
        return reports

    def tool_gate(self, tools: Tools | None = None) -> ToolGate:
        """The gate for ``tools``, built once (schemas compiled once) and kept on the client.

        The way to build a gate once: an agent that keeps its tools calls
        ``gate = client.tool_gate(tools)`` and then ``check_tool_call(call, tools=gate)``
        (which logs) or ``gate.check(call, principal=..., agent_id=...)`` (which does not).
        Given anything but a gate, the client's ``gate_cache`` finds the gate built for the
        same object, or for equal definitions in a new object, and builds only tools it has
        not seen (``qgs_worker.client.gate_cache``: least recently used out, bounded by size).

        Args:
            tools: As for ``check_tool_call``; None: ``QGS_TOOLS_FILE``.

        Raises:
            InputError: ``tools`` is of another type, or holds an unusable definition.
            ConfigurationError: no ``tools`` and no ``QGS_TOOLS_FILE``, or that file is unusable.
        """
        if tools is None:
            if self._default_gate is None:
                self._default_gate = self._new_gate(self._configured_registry())
            return self._default_gate
        if isinstance(tools, ToolGate):
            return tools
        return self._gate_cache.gate(tools)

    @property
    def gate_cache(self) -> GateCache:
        """The gates built for ``tools=`` arguments (``builds``, ``hits``, ``len()``)."""
        return self._gate_cache

    def _new_gate(self, registry: ToolRegistry) -> ToolGate:
        return tool_gate_for(registry, self.settings)

    def _configured_registry(self) -> ToolRegistry:
        path = self.settings.tools_file
        if path is None:
            raise ConfigurationError(
                "no tools to check calls against: pass tools=... (a ToolRegistry or a list of "
                "OpenAI, Anthropic or MCP tool definitions), or set QGS_TOOLS_FILE to a JSON "
                "file of them"
            )
        registry = load_tools(self.settings)  # the workers' loader: the same errors
        assert registry is not None  # the path is set
        return registry

    @property
    def tool_log(self) -> CheckLogSender | None:
        """The sender that logs checks (``sent``, ``dropped``), None before the first check."""
        return self._tool_log

    def flush_tool_log(self, timeout_s: float = 5.0) -> bool:
        """Wait until every check so far was sent to the broker (or dropped).

        Returns:
            True when nothing waits any more, False after ``timeout_s`` seconds.
        """
        return self._tool_log.flush(timeout_s) if self._tool_log is not None else True

    def _log_check(self, report: GateReport, principal: str | None, agent: str | None) -> None:
        sender = self._tool_log
        if sender is None:
            if self._tool_log_ready:
                return  # no broker: said once
            with self._tool_log_lock:
                if self._tool_log_ready:
                    sender = self._tool_log
                elif self._app is None and not self.settings.broker_url:
                    logger.warning(
                        "tool-call checks are not logged: no broker (set QGS_BROKER_URL); the "
                        "checks still run; pass log=False to check without logging"
                    )
                else:
                    sender = self._tool_log = CheckLogSender(self._send_check)
                self._tool_log_ready = True
            if sender is None:
                return
        sender.submit(report, principal, agent)

    def _send_check(self, record: Any) -> None:
        # Runs in the sender thread: the Celery app is built there on first use, not here.
        if self._tool_log_send is None:
            from qgs_worker.queue.toolcheck import log_app

            self._tool_log_send = send_with(log_app(self.settings))
        self._tool_log_send(record)


def _as_call(call: object) -> object:
    """What ``ToolGate.check`` takes, from what ``check_tool_call`` accepts.

    Raises:
        InputError: ``call`` is not a JSON object, or is a whole assistant message.
    """
    if isinstance(call, ParsedCall | dict):
        if isinstance(call, dict) and ("tool_calls" in call or "role" in call):
            raise InputError(
                "'call' is an assistant message, not one tool call: pass one of its calls "
                "(message['tool_calls'][0], a tool_use block), or check them all with "
                "check_tool_calls(message)"
            )
        return call
    if isinstance(call, ToolCall):
        arguments = call.raw_arguments
        return {
            "id": call.id,
            "type": "function",
            "function": {
                "name": call.name,
                "arguments": json.dumps(call.arguments) if arguments is None else arguments,
            },
        }
    if isinstance(call, Mapping):
        return _as_call(dict(call))
    data = sdk_data(call)  # an SDK's object (the OpenAI SDK's message.tool_calls[0])
    if data is not call:
        return _as_call(data)
    raise InputError(
        "'call' must be one tool call as parsed JSON (an OpenAI tool_calls item, an Anthropic "
        "tool_use block or an MCP tools/call request), a ToolCall or a ParsedCall "
        f"(got {type(call).__name__}); parse a JSON string first (json.loads), and check a "
        "list of calls with check_tool_calls"
    )
