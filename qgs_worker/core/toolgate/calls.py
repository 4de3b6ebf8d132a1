r"""Tool calls as the three APIs send them, read into one form that keeps the original.

Shapes::

    OpenAI     {"id": "call_...", "type": "function",
                "function": {"name": "...", "arguments": "{\"x\": 1}"}}     arguments: a JSON string
    Anthropic  {"type": "tool_use", "id": "toolu_...", "name": "...", "input": {"x": 1}}
    MCP        {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                "params": {"name": "...", "arguments": {"x": 1}}}            arguments optional

``parse_call`` never raises: a call it cannot read comes back with ``parse_error`` set (and
``shape=UNKNOWN`` when no shape fits), so the format layer fails it with a readable message.
Argument strings are parsed strictly: ``NaN``/``Infinity`` (not JSON) and duplicate keys (parsers
disagree on which one wins, a known smuggling trick) are errors.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from qgs_worker.core.models import ToolCall
from qgs_worker.errors import InputError

__all__ = ["CallShape", "ParsedCall", "parse_call", "parse_calls"]


class CallShape(StrEnum):
    """Which API's form a tool call came in."""

    OPENAI = "openai"
    ANTHROPIC = "anthropic"
    MCP = "mcp"
    UNKNOWN = "unknown"  # none of the three: the format layer fails it


_PATHS: dict[CallShape, tuple[str, str, str]] = {
    CallShape.OPENAI: ("id", "function.name", "function.arguments"),
    CallShape.ANTHROPIC: ("id", "name", "input"),
    CallShape.MCP: ("id", "params.name", "params.arguments"),
    CallShape.UNKNOWN: ("id", "name", "arguments"),
}


@dataclass(frozen=True, slots=True)
class ParsedCall:
    """One tool call in shape-neutral form, with its original id and shape.

    ``id`` is the call id as sent (MCP allows integers), ``None`` when absent or of another type;
    ``name`` is ``None`` when absent or not a string; ``arguments`` is the parsed object, ``None``
    when it could not be read (then ``parse_error`` says why, starting with the field path);
    ``raw_arguments`` is the JSON string of an OpenAI call; ``original`` is the input as given.
    """

    id: str | int | None
    name: str | None
    arguments: dict[str, Any] | None
    raw_arguments: str | None
    shape: CallShape
    parse_error: str | None
    original: Any

    @property
    def id_path(self) -> str:
        """Where the id sits in this shape (``id``)."""
        return _PATHS[self.shape][0]

    @property
    def name_path(self) -> str:
        """Where the name sits in this shape (``function.name``, ``name``, ``params.name``)."""
        return _PATHS[self.shape][1]

    @property
    def arguments_path(self) -> str:
        """Where the arguments sit (``function.arguments``, ``input``, ``params.arguments``)."""
        return _PATHS[self.shape][2]

    def to_tool_call(self) -> ToolCall:
        """The call as the domain's ``ToolCall`` (what the detectors scan); unread parts empty."""
        return ToolCall(
            id="" if self.id is None else str(self.id),
            name=self.name or "",
            arguments=self.arguments or {},
            raw_arguments=self.raw_arguments,
        )


def parse_call(obj: object) -> ParsedCall:
    """Read one tool call of any known shape; never raises.

    Args:
        obj: An OpenAI ``tool_calls`` item, an Anthropic ``tool_use`` block or an MCP
            ``tools/call`` request, as parsed JSON.

    Returns:
        The parsed call; ``parse_error`` is set when the shape is unknown or the arguments
        cannot be read (malformed JSON, not a string in an OpenAI call, not an object).
    """
    if not isinstance(obj, Mapping):
        error = f"a tool call must be a JSON object (got {type(obj).__name__})"
        return ParsedCall(None, None, None, None, CallShape.UNKNOWN, error, obj)
    if obj.get("type") == "tool_use":
        return _anthropic(obj)
    if "jsonrpc" in obj or "method" in obj:
        return _mcp(obj)
    if "function" in obj:
        return _openai(obj)
    keys = ", ".join(sorted(map(str, obj))) or "none"
    error = (
        "not a tool call of a known shape: expected OpenAI ('function'), Anthropic "
        f"('type': 'tool_use') or MCP ('method': 'tools/call') (got keys: {keys})"
    )
    return ParsedCall(_id(obj), _name(obj), None, None, CallShape.UNKNOWN, error, obj)


def parse_calls(message: object) -> tuple[ParsedCall, ...]:
    """Read every tool call in an assistant message.

    Args:
        message: An OpenAI assistant message (``tool_calls`` list), an Anthropic message
            (``content`` list of blocks) or its content list, a JSON-RPC batch, or one call.

    Returns:
        The calls in order; ``()`` for a message without calls (text blocks are skipped).

    Raises:
        InputError: ``tool_calls``/``content`` is not a list, or the message is not an object
            or a list.
    """
    if isinstance(message, list):
        return tuple(parse_call(item) for item in message if _is_call(item))
    if not isinstance(message, Mapping):
        raise InputError(f"a message must be a JSON object or list (got {type(message).__name__})")
    if "tool_calls" in message:
        calls = message["tool_calls"]
        if calls is None:
            return ()
        if not isinstance(calls, list):
            raise InputError(f"'tool_calls' must be a list (got {type(calls).__name__})")
        return tuple(parse_call(call) for call in calls)
    if "role" in message:
        content = message.get("content")
        if content is None or isinstance(content, str):
            return ()
        if not isinstance(content, list):
            raise InputError(f"'content' must be a string or a list (got {type(content).__name__})")
        return tuple(parse_call(block) for block in content if _is_call(block))
    return (parse_call(message),)


def _is_call(item: object) -> bool:
    return isinstance(item, Mapping) and (
        item.get("type") == "tool_use" or item.get("method") == "tools/call" or "function" in item
    )


def _openai(obj: Mapping[str, Any]) -> ParsedCall:
    function = obj["function"]
    if not isinstance(function, Mapping):
        error = f"function: must be an object (got {type(function).__name__})"
        return ParsedCall(_id(obj), None, None, None, CallShape.OPENAI, error, obj)
    name = _name(function)
    raw = function.get("arguments")
    if isinstance(raw, str):
        arguments, problem = _loads(raw, "function.arguments")
        return ParsedCall(_id(obj), name, arguments, raw, CallShape.OPENAI, problem, obj)
    if raw is None and "arguments" not in function:
        error = "function.arguments: missing (a JSON string encoding an object, e.g. '{}')"
    elif isinstance(raw, Mapping):
        error = (
            "function.arguments: must be a JSON string (got an object); OpenAI sends the "
            "arguments JSON-encoded, e.g. json.dumps(arguments)"
        )
    else:
        error = f"function.arguments: must be a JSON string (got {_type(raw)})"
    return ParsedCall(_id(obj), name, None, None, CallShape.OPENAI, error, obj)


def _anthropic(obj: Mapping[str, Any]) -> ParsedCall:
    name = _name(obj)
    value = obj.get("input")
    arguments, error = _object(value, "input", required=True, present="input" in obj)
    return ParsedCall(_id(obj), name, arguments, None, CallShape.ANTHROPIC, error, obj)


def _mcp(obj: Mapping[str, Any]) -> ParsedCall:
    method = obj.get("method")
    params = obj.get("params")
    if method != "tools/call":
        error = f"method: a tool call is a 'tools/call' request (got {method!r})"
        return ParsedCall(_id(obj), None, None, None, CallShape.MCP, error, obj)
    if not isinstance(params, Mapping):
        error = f"params: must be an object holding 'name' and 'arguments' (got {_type(params)})"
        return ParsedCall(_id(obj), None, None, None, CallShape.MCP, error, obj)
    name = _name(params)
    present = "arguments" in params
    arguments, problem = _object(params.get("arguments"), "params.arguments", False, present)
    return ParsedCall(_id(obj), name, arguments, None, CallShape.MCP, problem, obj)


def _object(
    value: Any, path: str, required: bool, present: bool
) -> tuple[dict[str, Any] | None, str | None]:
    if not present:
        return (None, f"{path}: missing (an object, e.g. {{}})") if required else ({}, None)
    if isinstance(value, Mapping):
        return dict(value), None
    return None, f"{path}: must be an object (got {_type(value)})"


class _DuplicateKeyError(ValueError):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKeyError(key)
            seen.add(key)
    return obj


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant)
"""Built once: ``json.loads`` with hooks builds a new decoder per call (~4 us)."""


def _loads(raw: str, path: str) -> tuple[dict[str, Any] | None, str | None]:
    try:
        value = _DECODER.decode(raw)
    except json.JSONDecodeError as error:
        hint = " (an empty string; send '{}' for no arguments)" if not raw.strip() else ""
        where = f"line {error.lineno} column {error.colno} (char {error.pos})"
        return None, f"{path}: not valid JSON: {error.msg} at {where}{hint}"
    except _DuplicateKeyError as error:
        return None, f"{path}: duplicate key {str(error)!r} (parsers disagree on which one wins)"
    except (ValueError, RecursionError) as error:
        return None, f"{path}: not valid JSON: {error}"
    if not isinstance(value, dict):
        return None, f"{path}: must encode a JSON object (got {_type(value)})"
    return value, None


def _id(obj: Mapping[str, Any]) -> str | int | None:
    value = obj.get("id")
    return value if isinstance(value, str | int) and not isinstance(value, bool) else None


def _name(holder: Mapping[str, Any]) -> str | None:
    value = holder.get("name")
    return value if isinstance(value, str) else None


def _type(value: Any) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}
    return names.get(
        type(value), "number" if isinstance(value, int | float) else type(value).__name__
    )
