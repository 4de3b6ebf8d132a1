"""Tool calls and tool results as agents' APIs write them, read into QGS's form for a round.

An agent passes on what its model returned and what its tools answered; the round endpoint
(HTTP ``POST /v1/tasks/{id}/rounds``, MCP ``submit_round``) and the Python client's
``submit(..., tool_calls=[...])`` (``read_tool_calls``, in-process and over the API) read it
here, so every way in accepts the same shapes:

- calls (``read_call``): QGS's ``{"id", "name", "arguments"}``, an OpenAI ``tool_calls`` item,
  an OpenAI Responses ``function_call`` item, an Anthropic ``tool_use`` block (and its
  ``server_tool_use`` / ``mcp_tool_use`` blocks), an MCP ``tools/call`` request. Arguments that
  are not a JSON object (a model's malformed ``function.arguments``) are kept raw, as
  ``qgs audit`` keeps them: a malformed call is itself evidence, and the detectors read the
  raw text. A call with no name, or of no known shape, is refused.
- results (``read_result``): QGS's ``{"tool_call_id", "name", "content"}``, an OpenAI
  ``role: tool`` message, an Anthropic ``tool_result`` block (``content`` optional; also
  ``mcp_tool_result`` and the server tools' ``*_tool_result`` blocks), a Responses
  ``function_call_output`` item, an MCP ``tools/call`` response (JSON-RPC ``result`` or
  ``error``) or a bare ``CallToolResult``. Content given as parts keeps their text, a part a
  line; a result that says the tool failed (``is_error``, ``isError``, a JSON-RPC error) is
  prefixed ``[tool error] ``, so the reviewer sees it failed.

The models below (``CALL_SHAPES``, ``RESULT_SHAPES``) describe the shapes for OpenAPI and MCP's
input schemas (``ToolCallIn`` / ``ToolResultIn`` publish them as ``anyOf``); reading is done
by the two functions, not by these models.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, GetJsonSchemaHandler, ValidationError
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from qgs_worker.core.models import ToolCall
from qgs_worker.errors import InputError

__all__ = [
    "CALL_SHAPES",
    "CHECK_CALL_SHAPES",
    "RESULT_SHAPES",
    "TOOL_ERROR_PREFIX",
    "AnyOfShapes",
    "read_call",
    "read_result",
    "read_tool_calls",
]

TOOL_ERROR_PREFIX = "[tool error] "
"""What a failed tool's content starts with in the round the reviewer sees."""

_ANTHROPIC_CALLS = ("tool_use", "server_tool_use", "mcp_tool_use")


def read_call(data: dict[str, Any]) -> dict[str, Any]:
    """QGS's form (``id``, ``name``, ``arguments``, ``raw_arguments``) of a call in any shape.

    Returns the data unchanged when it is QGS's form already (the model validates it).

    Raises:
        ValueError: no known shape, or no name (the message says which field and why).
    """
    if data.get("type") in _ANTHROPIC_CALLS[1:]:
        data = {**data, "type": "tool_use"}  # the server's own tools: a call all the same
    if isinstance(data.get("arguments"), str) and not _api_shaped(data):
        data = {"type": "function_call", "call_id": data.get("id", ""), **data}
        data.pop("id", None)
    if not _api_shaped(data):
        return data
    from qgs_worker.core.toolgate.calls import parse_call

    parsed = parse_call(data)
    ident = "" if parsed.id is None else str(parsed.id)
    if parsed.parse_error is None:
        return {"id": ident, "name": parsed.name or "", "arguments": parsed.arguments or {}}
    if parsed.raw_arguments is None or not parsed.name:
        raise ValueError(parsed.parse_error)
    return {
        "id": ident,
        "name": parsed.name,
        "arguments": {},
        "raw_arguments": parsed.raw_arguments,
    }


_CALL_FORMS = (
    "QGS's {'id', 'name', 'arguments': {...}}, an OpenAI tool_calls item, an OpenAI Responses "
    "function_call item, an Anthropic tool_use block or an MCP tools/call request"
)


def read_tool_calls(calls: object, *, field: str = "tool_calls") -> tuple[ToolCall, ...]:
    """The ``ToolCall`` values of a list of calls, each a ``ToolCall`` or a dict in any shape.

    What the HTTP API's round endpoint accepts (``read_call``), for the Python client.

    Args:
        calls: A list (or tuple) of ``ToolCall`` values and dicts.
        field: The argument's name, for the messages (``tool_calls``).

    Returns:
        The calls in QGS's form, in order.

    Raises:
        InputError: not a list, or an item of no known shape, with no name, or of the wrong
            type; the message names the item (``'tool_calls.0'``) and the shapes accepted.
    """
    if isinstance(calls, (str, bytes, Mapping)) or not isinstance(calls, (list, tuple)):
        raise InputError(
            f"'{field}' must be a list of tool calls (got {type(calls).__name__}); each one "
            f"{_CALL_FORMS}"
        )
    read: list[ToolCall] = []
    for i, call in enumerate(calls):
        if isinstance(call, ToolCall):
            read.append(call)
            continue
        if not isinstance(call, Mapping):
            raise InputError(
                f"'{field}.{i}' must be a ToolCall or a dict (got {type(call).__name__}): "
                f"{_CALL_FORMS}"
            )
        try:
            data = read_call(dict(call))
            if not isinstance(data.get("name"), str) or not data["name"]:
                raise ValueError("the call has no 'name'")
            read.append(ToolCall.model_validate(data))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise InputError(
                f"'{field}.{i}{'.' + where if where else ''}': {first['msg']}; pass {_CALL_FORMS}"
            ) from None
        except ValueError as exc:
            raise InputError(f"'{field}.{i}': {exc}; pass {_CALL_FORMS}") from None
    return tuple(read)


def _api_shaped(data: dict[str, Any]) -> bool:
    return (
        "function" in data
        or data.get("type") in ("tool_use", "function_call")
        or "jsonrpc" in data
        or "method" in data
    )


def read_result(data: dict[str, Any]) -> dict[str, Any]:
    """QGS's form (``tool_call_id``, ``name``, ``content`` text) of a tool result in any shape.

    Raises:
        ValueError: a content part that is neither text nor an object.
    """
    data = dict(data)
    failed = False
    kind = data.get("type")
    if data.get("role") == "tool":
        data.pop("role")
    elif isinstance(kind, str) and (kind == "tool_result" or kind.endswith("_tool_result")):
        data.pop("type")
        data["tool_call_id"] = data.pop("tool_use_id", "")
        failed = bool(data.pop("is_error", False))
        data.pop("cache_control", None)
        data.setdefault("content", "")  # optional in Anthropic's API
    elif kind == "function_call_output":
        data.pop("type")
        data.pop("id", None)
        data.pop("status", None)
        data["tool_call_id"] = data.pop("call_id", "")
        data["content"] = data.pop("output", "")
    elif "jsonrpc" in data and ("result" in data or "error" in data):
        ident = data.get("id")
        data, failed = _mcp_response(data)
        data["tool_call_id"] = "" if ident is None else str(ident)
    elif isinstance(data.get("content"), list) and ({"isError", "structuredContent"} & set(data)):
        data, failed = _call_tool_result(data)
    content = data.get("content")
    if isinstance(content, list):
        content = _parts_text(content)
    elif isinstance(content, dict):  # a server tool's error object
        content = f"[{content.get('type', 'object')}] {content.get('error_code', '')}".strip()
    if content is not None:
        data["content"] = TOOL_ERROR_PREFIX + content if failed else content
    return data


def _mcp_response(data: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    error = data.get("error")
    if error is not None:
        message = error.get("message", "") if isinstance(error, dict) else str(error)
        return {"content": str(message)}, True
    result = data.get("result")
    if not isinstance(result, dict):
        return {"content": "" if result is None else json.dumps(result)}, False
    return _call_tool_result(result)


def _call_tool_result(result: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """An MCP ``CallToolResult``: its content parts (else its structured content) and isError."""
    content: Any = result.get("content") or []
    structured = result.get("structuredContent")
    if not content and structured is not None:
        content = json.dumps(structured, ensure_ascii=False)
    return {"content": content}, bool(result.get("isError", False))


def _parts_text(parts: list[Any]) -> str:
    """The text of a content list (``[{"type": "text", "text": ...}, ...]``), a part a line.

    A part with no text (an image) becomes ``[image]`` so the reviewer sees it was there; a
    search result its title and URL; an MCP embedded resource its text.
    """
    lines = []
    for part in parts:
        if isinstance(part, str):
            lines.append(part)
        elif isinstance(part, dict) and isinstance(part.get("text"), str):
            lines.append(part["text"])
        elif isinstance(part, dict) and isinstance(part.get("resource"), dict):
            resource = part["resource"]
            lines.append(str(resource.get("text") or f"[resource] {resource.get('uri', '')}"))
        elif isinstance(part, dict):
            named = " ".join(str(part[k]) for k in ("title", "name", "url", "uri") if part.get(k))
            lines.append(f"[{part.get('type', 'part')}]" + (f" {named}" if named else ""))
        else:
            raise ValueError(f"a content part must be a string or an object (got {part!r:.40})")
    return "\n".join(lines)


# -- the shapes, described for OpenAPI and MCP (reading is done above) ------------------------


class _Shape(BaseModel):
    model_config = ConfigDict(extra="allow")


class QgsToolCall(_Shape):
    """QGS's own call, as a round's ``tool_calls`` item is written: ``{"id", "name", "arguments"}``."""

    id: str | int | None = None
    name: str
    arguments: dict[str, Any] | str = Field(
        default_factory=dict, description="an object (or a JSON string encoding one)"
    )


class OpenAIFunction(_Shape):
    """``function`` of an OpenAI tool call."""

    name: str
    arguments: str = Field(description="the arguments as a JSON string (kept raw if malformed)")


class OpenAIToolCall(_Shape):
    """An OpenAI chat ``tool_calls`` item."""

    id: str | None = None
    type: Literal["function"] | None = None
    function: OpenAIFunction


class ResponsesFunctionCall(_Shape):
    """An OpenAI Responses ``function_call`` output item."""

    type: Literal["function_call"]
    call_id: str | None = None
    name: str
    arguments: str = Field(description="the arguments as a JSON string (kept raw if malformed)")


class AnthropicToolUse(_Shape):
    """An Anthropic ``tool_use`` block (or ``server_tool_use`` / ``mcp_tool_use``)."""

    type: Literal["tool_use", "server_tool_use", "mcp_tool_use"]
    id: str | None = None
    name: str
    input: dict[str, Any]


class McpToolsCallParams(_Shape):
    """``params`` of an MCP ``tools/call`` request."""

    name: str
    arguments: dict[str, Any] | None = None


class McpToolsCall(_Shape):
    """An MCP ``tools/call`` JSON-RPC request."""

    jsonrpc: Literal["2.0"] | None = None
    id: str | int | None = None
    method: Literal["tools/call"]
    params: McpToolsCallParams


class OpenAIToolMessage(_Shape):
    """An OpenAI ``role: tool`` message."""

    role: Literal["tool"]
    tool_call_id: str = ""
    content: str | list[Any]


class AnthropicToolResult(_Shape):
    """An Anthropic ``tool_result`` block (also ``mcp_tool_result``, ``*_tool_result``)."""

    type: str = Field(description="tool_result, mcp_tool_result, or a server tool's *_tool_result")
    tool_use_id: str = ""
    content: str | list[Any] | dict[str, Any] | None = None
    is_error: bool | None = Field(default=None, description="true: prefixed '[tool error] '")


class ResponsesFunctionCallOutput(_Shape):
    """An OpenAI Responses ``function_call_output`` item."""

    type: Literal["function_call_output"]
    call_id: str = ""
    output: str | list[Any]


class McpCallToolResult(_Shape):
    """An MCP ``CallToolResult`` (a ``tools/call`` response's ``result``)."""

    content: list[Any] = Field(default_factory=list)
    isError: bool | None = Field(default=None, description="true: prefixed '[tool error] '")
    structuredContent: dict[str, Any] | None = None


class McpToolsCallResponse(_Shape):
    """An MCP ``tools/call`` JSON-RPC response: a ``result`` or an ``error``."""

    jsonrpc: Literal["2.0"]
    id: str | int | None = None
    result: McpCallToolResult | None = None
    error: dict[str, Any] | None = None


CALL_SHAPES: tuple[type[BaseModel], ...] = (
    OpenAIToolCall,
    ResponsesFunctionCall,
    AnthropicToolUse,
    McpToolsCall,
)
"""The agents' call shapes a round takes besides QGS's own (``ToolCallIn``)."""

CHECK_CALL_SHAPES: tuple[type[BaseModel], ...] = (QgsToolCall, *CALL_SHAPES)
"""The call shapes the tool-call check takes: QGS's own too, as the rounds do (HTTP, MCP)."""

RESULT_SHAPES: tuple[type[BaseModel], ...] = (
    OpenAIToolMessage,
    AnthropicToolResult,
    ResponsesFunctionCallOutput,
    McpToolsCallResponse,
    McpCallToolResult,
)
"""The agents' result shapes a round takes besides QGS's own (``ToolResultIn``)."""


class AnyOfShapes:
    """A field's JSON Schema as ``anyOf`` the given shapes (its validation is unchanged).

    ``Annotated[dict[str, Any], AnyOfShapes(CALL_SHAPES, "one tool call")]`` publishes which
    shapes the field takes, in OpenAPI and in MCP's input schemas.
    """

    def __init__(self, shapes: tuple[type[BaseModel], ...], description: str) -> None:
        self.shapes = shapes
        self.description = description

    def __get_pydantic_json_schema__(
        self, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """The shapes' schemas, as one ``anyOf``."""
        del core_schema
        return {
            "anyOf": [handler(shape.__pydantic_core_schema__) for shape in self.shapes],
            "description": self.description,
        }
