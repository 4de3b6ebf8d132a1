"""What every layer of the tool-call gate shares: its result, its settings, its context, its shape.

A layer is anything with a ``number``, a ``name`` and ``check(call, spec, context)`` returning a
``LayerResult`` (the ``Layer`` protocol); a rejection is a result, never an exception. Layers
1-3 (format, existence, parameters) are functions wrapped in ``FunctionLayer``; layers with state
(a rate limiter, a policy) implement the protocol themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from qgs_worker.core.toolgate.schema import Strictness

if TYPE_CHECKING:
    from qgs_worker.core.toolgate.calls import ParsedCall
    from qgs_worker.core.toolgate.registry import ToolRegistry
    from qgs_worker.core.toolgate.spec import ToolSpec

__all__ = [
    "CheckContext",
    "FunctionLayer",
    "GateSettings",
    "Layer",
    "LayerResult",
    "LayerStatus",
]


class LayerStatus(StrEnum):
    """A layer's outcome: only FAIL stops the call; WARN is reported and never blocks."""

    PASS = "pass"
    WARN = "warn"
    FAIL = "fail"
    SKIPPED = "skipped"  # an earlier layer failed, so this one did not run


@dataclass(frozen=True, slots=True)
class LayerResult:
    """One layer's result for one call.

    ``errors`` (FAIL) and ``warnings`` (WARN) each start with the field path they are about
    (``function.arguments: ...``, ``$.unit: ...``); ``suggestion`` is a fix in plain words
    (``did you mean 'concert_search'?``).
    """

    number: int
    name: str
    status: LayerStatus
    errors: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    suggestion: str | None = None

    @classmethod
    def of(
        cls,
        number: int,
        name: str,
        errors: tuple[str, ...] = (),
        warnings: tuple[str, ...] = (),
        suggestion: str | None = None,
    ) -> LayerResult:
        """A result whose status follows from what was found: errors FAIL, warnings WARN."""
        if errors:
            status = LayerStatus.FAIL
        elif warnings:
            status = LayerStatus.WARN
        else:
            status = LayerStatus.PASS
        return cls(number, name, status, errors, warnings, suggestion)

    @property
    def blocks(self) -> bool:
        """Whether this result stops the call (FAIL)."""
        return self.status is LayerStatus.FAIL

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data (for the store and the CLI)."""
        return {
            "number": self.number,
            "name": self.name,
            "status": self.status.value,
            "errors": list(self.errors),
            "warnings": list(self.warnings),
            "suggestion": self.suggestion,
        }


@dataclass(frozen=True, slots=True)
class GateSettings:
    """How strict the gate is. Built at the edges from ``Settings``; the core gets only this.

    ``strictness``: how the parameter layer reads schemas (``schema.py`` documents both modes);
    ``reject_unknown_parameters``: whether arguments a schema does not declare fail (objects are
    closed unless the schema says ``additionalProperties``); ``max_errors``: at most this many
    errors per layer are reported.
    """

    strictness: Strictness = Strictness.LENIENT
    reject_unknown_parameters: bool = True
    max_errors: int = 10


@dataclass(frozen=True, slots=True)
class CheckContext:
    """What a layer may know besides the call: the registry, the settings, who is calling.

    ``principal`` is the identity the permission layer asks the policy about; ``agent_id``
    keys the per-(agent, tool) rate limit. Both are ``None`` when the caller did not say.
    """

    registry: ToolRegistry
    settings: GateSettings
    principal: str | None = None
    agent_id: str | None = None


class Layer(Protocol):
    """One layer of the gate: a number (its place, 1-6), a name, and a check."""

    @property
    def number(self) -> int:
        """The layer's place in the gate (1 = format ... 6 = injection)."""
        ...

    @property
    def name(self) -> str:
        """The layer's name (``format``, ``existence``, ``parameters``...)."""
        ...

    def check(self, call: ParsedCall, spec: ToolSpec | None, context: CheckContext) -> LayerResult:
        """Judge one call; ``spec`` is the registered tool of its name, ``None`` if there is none."""
        ...


LayerCheck = Callable[["ParsedCall", "ToolSpec | None", CheckContext], LayerResult]


@dataclass(frozen=True, slots=True)
class FunctionLayer:
    """A stateless layer made of a function ``(call, spec, context) -> LayerResult``."""

    number: int
    name: str
    function: LayerCheck

    def check(self, call: ParsedCall, spec: ToolSpec | None, context: CheckContext) -> LayerResult:
        """Run the function."""
        return self.function(call, spec, context)
