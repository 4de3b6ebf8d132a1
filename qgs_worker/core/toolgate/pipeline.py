"""The tool-call gate: layers in order, the first FAIL stops, WARN never blocks.

Runs on the agent's hot path, synchronously: no I/O here, validators built at registry load,
results of passing layers shared (they are immutable). Layers 1-3 ship by default; the business
rules (4), permission (5) and injection (6) layers plug in through ``layers=`` (any object with
``number``, ``name`` and ``check(call, spec, context)``, see ``base.Layer``).

    gate = ToolGate(ToolRegistry.from_openai(tools))
    report = gate.check(message["tool_calls"][0], principal="alice", agent_id="agent-7")
    if not report.allowed:
        print(report.stopped_at, report.errors, report.suggestion)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from qgs_worker.core.toolgate import layer1_format, layer2_existence, layer3_parameters
from qgs_worker.core.toolgate.base import (
    CheckContext,
    GateSettings,
    Layer,
    LayerResult,
    LayerStatus,
)
from qgs_worker.core.toolgate.calls import CallShape, ParsedCall, parse_call, parse_calls
from qgs_worker.core.toolgate.registry import ToolRegistry
from qgs_worker.errors import ConfigurationError

__all__ = ["DEFAULT_LAYERS", "GateReport", "ToolGate"]

DEFAULT_LAYERS: tuple[Layer, ...] = (
    layer1_format.LAYER,
    layer2_existence.LAYER,
    layer3_parameters.LAYER,
)
"""Format, existence, parameters: the layers that need nothing but the registry."""


@dataclass(frozen=True, slots=True)
class GateReport:
    """The gate's answer for one call: allowed or not, where it stopped, every layer's result.

    ``stopped_at`` is the number of the layer that failed (``None`` when allowed); ``layers``
    holds one result per configured layer, in order, those after a FAIL marked skipped;
    ``latency_us`` is the wall time of the whole check, parsing included, in microseconds.
    """

    call_id: str | int | None
    tool_name: str | None
    shape: CallShape
    allowed: bool
    stopped_at: int | None
    layers: tuple[LayerResult, ...]
    latency_us: float

    @property
    def stopped_layer(self) -> LayerResult | None:
        """The failing layer's result, ``None`` when the call is allowed."""
        return next((r for r in self.layers if r.status is LayerStatus.FAIL), None)

    @property
    def errors(self) -> tuple[str, ...]:
        """The failing layer's errors (``()`` when allowed)."""
        stopped = self.stopped_layer
        return stopped.errors if stopped else ()

    @property
    def warnings(self) -> tuple[str, ...]:
        """Every layer's warnings, in layer order."""
        return tuple(w for r in self.layers for w in r.warnings)

    @property
    def suggestion(self) -> str | None:
        """The failing layer's suggestion, if it has one."""
        stopped = self.stopped_layer
        return stopped.suggestion if stopped else None

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data (for the store, the CLI and logs)."""
        return {
            "call_id": self.call_id,
            "tool_name": self.tool_name,
            "shape": self.shape.value,
            "allowed": self.allowed,
            "stopped_at": self.stopped_at,
            "layers": [r.to_dict() for r in self.layers],
            "latency_us": round(self.latency_us, 1),
        }


class ToolGate:
    """Check tool calls before they run.

    Args:
        registry: The tools the agent may call.
        layers: The layers, in the order they run; numbers must be unique.
        settings: Strictness and reporting limits.

    Raises:
        ConfigurationError: No layers, or two with the same number.
    """

    def __init__(
        self,
        registry: ToolRegistry,
        layers: Sequence[Layer] = DEFAULT_LAYERS,
        settings: GateSettings | None = None,
    ) -> None:
        numbers = [layer.number for layer in layers]
        if not numbers or len(set(numbers)) != len(numbers):
            raise ConfigurationError(f"gate layers need unique numbers (got {numbers})")
        self.registry = registry
        self.layers = tuple(layers)
        self.settings = settings or GateSettings()
        self._skipped = tuple(LayerResult(n.number, n.name, LayerStatus.SKIPPED) for n in layers)
        self._anonymous = CheckContext(registry, self.settings)

    def check(
        self,
        call: object,
        *,
        principal: str | None = None,
        agent_id: str | None = None,
    ) -> GateReport:
        """Run the layers on one call; never raises for a bad call (it is a FAIL in the report).

        A layer that raises fails the call (the gate fails closed) with the exception's type and
        message as the error; layers that want to fail open (e.g. a rate limiter whose store is
        down) must catch their own errors and return PASS or WARN.

        Args:
            call: A ``ParsedCall``, or a call of any shape as parsed JSON (``parse_call``).
            principal: Who the call acts for (the permission layer's subject).
            agent_id: Which agent makes it (the rate limit's key).

        Returns:
            The report: allowed, where it stopped, each layer's result, latency in microseconds.
        """
        start_ns = time.perf_counter_ns()
        parsed = call if isinstance(call, ParsedCall) else parse_call(call)
        spec = self.registry.get(parsed.name) if parsed.name else None
        if principal is None and agent_id is None:
            context = self._anonymous
        else:
            context = CheckContext(self.registry, self.settings, principal, agent_id)
        results: list[LayerResult] = []
        stopped_at: int | None = None
        for index, layer in enumerate(self.layers):
            try:
                result = layer.check(parsed, spec, context)
            except Exception as error:  # a layer that breaks fails the call: the gate fails closed
                message = f"layer {layer.name!r} could not check the call: {type(error).__name__}: {error}"
                result = LayerResult.of(layer.number, layer.name, errors=(message,))
            results.append(result)
            if result.status is LayerStatus.FAIL:
                stopped_at = layer.number
                results.extend(self._skipped[index + 1 :])
                break
        return GateReport(
            call_id=parsed.id,
            tool_name=parsed.name,
            shape=parsed.shape,
            allowed=stopped_at is None,
            stopped_at=stopped_at,
            layers=tuple(results),
            latency_us=(time.perf_counter_ns() - start_ns) / 1000,
        )

    def check_message(
        self,
        message: object,
        *,
        principal: str | None = None,
        agent_id: str | None = None,
    ) -> tuple[GateReport, ...]:
        """Check every tool call of an assistant message (``parse_calls`` tells its shape).

        Raises:
            InputError: The message's ``tool_calls``/``content`` is not a list.
        """
        return tuple(
            self.check(call, principal=principal, agent_id=agent_id)
            for call in parse_calls(message)
        )
