"""Layer 1, format: is this a well-formed tool call of its shape?

FAIL (the call cannot be matched, routed or read):
- no known shape; an MCP ``jsonrpc`` other than ``"2.0"`` or a ``method`` other than ``tools/call``;
- ``id`` missing (a WARN for QGS's own shape, which a round takes without one), empty, not a
  string (MCP: string or integer), with control characters, or
  longer than 256 characters;
- an OpenAI ``type`` other than ``"function"``;
- the name missing, empty, not a string, or not ``[A-Za-z0-9_.-]`` of at most 64 characters
  (128 for MCP, whose names may be longer);
- arguments missing (OpenAI, Anthropic), not a JSON string (OpenAI: an already-parsed object is a
  FAIL), malformed JSON (with the parser's message and position), ``NaN``, a duplicate key, or
  not an object.

WARN (never blocks; the call is well-formed but unusual):
- an id not in the API's own style (``call_...`` for OpenAI, ``toolu_...`` for Anthropic) or with
  characters outside ``[A-Za-z0-9_-]``;
- a name that is not snake_case (camelCase, dots, dashes, capitals);
- an OpenAI call without ``type``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from qgs_worker.core.toolgate.base import CheckContext, FunctionLayer, LayerResult
from qgs_worker.core.toolgate.calls import CallShape, ParsedCall
from qgs_worker.core.toolgate.spec import MAX_MCP_NAME_CHARS, MAX_NAME_CHARS, TOOL_NAME, ToolSpec

__all__ = ["LAYER", "check"]

NUMBER = 1
NAME = "format"
_PASS = LayerResult.of(NUMBER, NAME)
_MISSING: Any = object()
_UNREADABLE: Any = object()
_SNAKE = re.compile(r"[a-z][a-z0-9_]*")
_ID_STYLE = re.compile(r"[A-Za-z0-9_\-]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_ID_PREFIX = {CallShape.OPENAI: "call_", CallShape.ANTHROPIC: "toolu_"}
_MAX_ID = 256
_MAX_NAME = {CallShape.MCP: MAX_MCP_NAME_CHARS}


def check(call: ParsedCall, spec: ToolSpec | None, context: CheckContext) -> LayerResult:
    """Check a call's structure: shape, id, type, name and arguments (see the module docstring).

    Args:
        call: The parsed call (``parse_call``); its ``parse_error`` is reported here.
        spec: Unused: the format does not depend on the tool.
        context: Unused.

    Returns:
        FAIL with one error per problem (each naming its field), WARN for style, else PASS.
    """
    original = call.original
    if call.shape is CallShape.UNKNOWN or not isinstance(original, Mapping):
        return LayerResult.of(NUMBER, NAME, errors=(call.parse_error or "unknown shape",))
    errors: list[str] = []
    warnings: list[str] = []
    if call.parse_error:
        errors.append(call.parse_error)
    id_key = "call_id" if call.shape is CallShape.OPENAI_RESPONSES else "id"
    _check_id(call, original.get(id_key, _MISSING), errors, warnings)
    if call.shape is CallShape.OPENAI:
        kind = original.get("type", _MISSING)
        if kind is _MISSING:
            warnings.append("type: missing (OpenAI tool calls carry 'type': 'function')")
        elif kind != "function":
            errors.append(f"type: must be 'function' (got {kind!r})")
    elif call.shape is CallShape.MCP and original.get("jsonrpc") != "2.0":
        errors.append(f"jsonrpc: must be '2.0' (got {original.get('jsonrpc', None)!r})")
    _check_name(call, _raw_name(call, original), errors, warnings)
    if not errors and not warnings:
        return _PASS
    return LayerResult.of(NUMBER, NAME, errors=tuple(errors), warnings=tuple(warnings))


LAYER = FunctionLayer(NUMBER, NAME, check)
"""The format layer, for ``ToolGate(layers=...)``."""


def _check_id(call: ParsedCall, value: Any, errors: list[str], warnings: list[str]) -> None:
    path = call.id_path
    if value is _MISSING and call.shape is CallShape.QGS:
        # QGS's own shape is what a round's tool_calls take, and a round takes it without an
        # id: the check takes it too, and says the result cannot be matched (issue 31)
        warnings.append(f"{path}: missing (a result cannot be matched to this call)")
        return
    if value is _MISSING:
        errors.append(f"{path}: missing (a call needs an id to match its result)")
        return
    if call.shape is CallShape.MCP and isinstance(value, int) and not isinstance(value, bool):
        return
    if not isinstance(value, str):
        expected = "a string or an integer" if call.shape is CallShape.MCP else "a string"
        errors.append(f"{path}: must be {expected} (got {value!r})")
        return
    styled = _ID_STYLE.fullmatch(value) is not None
    if not value:
        errors.append(f"{path}: empty")
    elif len(value) > _MAX_ID or (not styled and _CONTROL.search(value)):
        errors.append(f"{path}: {_clip(value)!r} has control characters or is over {_MAX_ID} long")
    elif not styled:
        warnings.append(f"{path}: {value!r} has characters outside [A-Za-z0-9_-]")
    elif (prefix := _ID_PREFIX.get(call.shape)) and not value.startswith(prefix):
        warnings.append(f"{path}: {value!r} is not in the {call.shape.value} style ({prefix}...)")


def _raw_name(call: ParsedCall, original: Mapping[str, Any]) -> Any:
    if call.shape is CallShape.OPENAI:
        holder = original.get("function")
    elif call.shape is CallShape.MCP:
        holder = original.get("params")
    else:
        holder = original
    return holder.get("name", _MISSING) if isinstance(holder, Mapping) else _UNREADABLE


def _check_name(call: ParsedCall, value: Any, errors: list[str], warnings: list[str]) -> None:
    if value is _UNREADABLE:
        return  # 'function'/'params' is not an object: parse_error said so
    path = call.name_path
    if value is _MISSING:
        errors.append(f"{path}: missing")
    elif not isinstance(value, str):
        errors.append(f"{path}: must be a string (got {value!r})")
    elif not value:
        errors.append(f"{path}: empty (the name of a registered tool)")
    else:
        most = _MAX_NAME.get(call.shape, MAX_NAME_CHARS)
        if len(value) <= most and _SNAKE.fullmatch(value):
            return  # the common case, one regex
        if len(value) > most or not TOOL_NAME.fullmatch(value):
            errors.append(
                f"{path}: {_clip(value)!r} is not a tool name "
                f"(letters, digits, '_', '.', '-'; at most {most})"
            )
        elif not _SNAKE.fullmatch(value):
            warnings.append(f"{path}: {value!r} is not snake_case")


def _clip(text: str) -> str:
    return text if len(text) <= 80 else f"{text[:77]}..."
