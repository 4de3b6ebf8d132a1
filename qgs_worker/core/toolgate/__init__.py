"""The pre-execution tool-call gate (DESIGN.md, "Pre-execution tool-call gate").

Layers 1-3 (format, existence, parameters) over a registry of tools loaded from OpenAI,
Anthropic, MCP or pydantic definitions; calls in OpenAI, Anthropic or MCP shape; layer 4
(``RulesLayer``: file sizes, URL domains, rate limit through the ``RateLimiter`` port) and
layer 5 (``PermissionLayer``: the policy decision point) plug in. Pure: stdlib, pydantic and
jsonschema only. README.md beside this file says how strict the parameter layer is.
"""

from qgs_worker.core.toolgate.base import (
    CheckContext,
    FunctionLayer,
    GateSettings,
    Layer,
    LayerResult,
    LayerStatus,
)
from qgs_worker.core.toolgate.calls import CallShape, ParsedCall, parse_call, parse_calls
from qgs_worker.core.toolgate.kinds import ArgumentKind, infer_kinds
from qgs_worker.core.toolgate.layer4_rules import RulesLayer
from qgs_worker.core.toolgate.layer5_permission import PermissionLayer
from qgs_worker.core.toolgate.paths import ArgumentPath
from qgs_worker.core.toolgate.pipeline import DEFAULT_LAYERS, GateReport, ToolGate
from qgs_worker.core.toolgate.registry import ToolRegistry
from qgs_worker.core.toolgate.schema import CompiledSchema, Strictness, ToolDefinitionError
from qgs_worker.core.toolgate.spec import (
    BusinessRules,
    Permission,
    RateLimit,
    ToolSpec,
    infer_permission,
)

__all__ = [
    "DEFAULT_LAYERS",
    "ArgumentKind",
    "ArgumentPath",
    "BusinessRules",
    "CallShape",
    "CheckContext",
    "CompiledSchema",
    "FunctionLayer",
    "GateReport",
    "GateSettings",
    "Layer",
    "LayerResult",
    "LayerStatus",
    "ParsedCall",
    "Permission",
    "PermissionLayer",
    "RateLimit",
    "RulesLayer",
    "Strictness",
    "ToolDefinitionError",
    "ToolGate",
    "ToolRegistry",
    "ToolSpec",
    "infer_kinds",
    "infer_permission",
    "parse_call",
    "parse_calls",
]
