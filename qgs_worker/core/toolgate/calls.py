r"""Tool calls as the three APIs send them, read into one form that keeps the original.

Shapes::

    OpenAI     {"id": "call_...", "type": "function",
                "function": {"name": "...", "arguments": "{\"x\": 1}"}}     arguments: a JSON string
    Anthropic  {"type": "tool_use", "id": "toolu_...", "name": "...", "input": {"x": 1}}
    MCP        {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                "params": {"name": "...", "arguments": {"x": 1}}}            arguments optional
    OpenAI Responses  {"type": "function_call", "call_id": "call_...", "name": "...",
                "arguments": "{\"x\": 1}"}                        id: call_id; arguments: a JSON string
    QGS        {"id": "c1", "name": "...", "arguments": {"x": 1}}     arguments: an object (or a
                                                                     JSON string), optional

``parse_call`` never raises: a call it cannot read comes back with ``parse_error`` set (and
``shape=UNKNOWN`` when no shape fits), so the format layer fails it with a readable message.
Argument strings are parsed strictly: ``NaN``/``Infinity`` (not JSON) and duplicate keys (parsers
disagree on which one wins, a known smuggling trick) are errors.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from qgs_worker.core.argviews import LONE_SURROGATE, replace_lone_surrogates
from qgs_worker.core.models import ToolCall
from qgs_worker.errors import InputError

__all__ = ["CallShape", "ParsedCall", "parse_call", "parse_calls"]


class CallShape(StrEnum):
    """Which API's form a tool call came in."""

    OPENAI = "openai"
    ANTHROPIC = "anthropic"
    MCP = "mcp"
    UNKNOWN = "unknown"  # none of the known shapes: the format layer fails it
    OPENAI_RESPONSES = "openai_responses"  # a Responses API ``function_call`` item
    QGS = "qgs"  # QGS's own {"id", "name", "arguments"}, as the rounds take it


_PATHS: dict[CallShape, tuple[str, str, str]] = {
    CallShape.OPENAI: ("id", "function.name", "function.arguments"),
    CallShape.ANTHROPIC: ("id", "name", "input"),
    CallShape.MCP: ("id", "params.name", "params.arguments"),
    CallShape.UNKNOWN: ("id", "name", "arguments"),
    CallShape.OPENAI_RESPONSES: ("call_id", "name", "arguments"),
    CallShape.QGS: ("id", "name", "arguments"),
}

_QGS_KEYS = frozenset({"id", "name", "arguments"})
"""The keys of QGS's own call shape (``ToolCall``; a round's ``tool_calls`` item)."""

_NO_CALL_TYPES = frozenset(
    {"text", "thinking", "redacted_thinking", "image", "document", "tool_result"}  # Anthropic
    | {"refusal", "output_text", "reasoning", "function_call_output"}  # OpenAI parts and items
)
"""List items of these types carry no tool call and are skipped; any other non-call is kept as
an unknown-shape call (layer 1 fails it), never dropped."""


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
    r"""Read one tool call of any known shape; never raises.

    A lone surrogate in the name or an argument (a ``"\ud800"`` escape: JSON reads it,
    UTF-8 cannot hold it) is read as U+FFFD, as ``qgs scan`` reads one: every layer then checks
    the rest of the text (break test: the injection layer failed on it with Python's codec
    error, and an ``rm -rf /`` beside it was never named).

    Args:
        obj: An OpenAI ``tool_calls`` item, an Anthropic ``tool_use`` block or an MCP
            ``tools/call`` request, as parsed JSON.

    Returns:
        The parsed call; ``parse_error`` is set when the shape is unknown or the arguments
        cannot be read (malformed JSON, not a string in an OpenAI call, not an object).
    """
    parsed = _parse_call(obj)
    if _holds_surrogate(parsed.arguments) or _holds_surrogate(parsed.name):
        name = replace_lone_surrogates(parsed.name) if parsed.name is not None else None
        return replace(parsed, name=name, arguments=_without_surrogates(parsed.arguments))
    return parsed


def _holds_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return LONE_SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(_holds_surrogate(k) or _holds_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_surrogate(v) for v in value)
    return False


def _without_surrogates(value: Any) -> Any:
    if isinstance(value, str):
        return replace_lone_surrogates(value)
    if isinstance(value, dict):
        return {_without_surrogates(k): _without_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_surrogates(v) for v in value]
    return value


def _parse_call(obj: object) -> ParsedCall:
    if not isinstance(obj, Mapping):
        error = f"a tool call must be a JSON object (got {type(obj).__name__})"
        return ParsedCall(None, None, None, None, CallShape.UNKNOWN, error, obj)
    if obj.get("type") == "tool_use":
        return _anthropic(obj)
    if obj.get("type") == "function_call":
        return _responses(obj)
    if "jsonrpc" in obj or "method" in obj:
        return _mcp(obj)
    if "function" in obj:
        return _openai(obj)
    if "name" in obj and _QGS_KEYS.issuperset(obj):
        return _qgs(obj)
    keys = ", ".join(sorted(map(str, obj))) or "none"
    error = (
        "not a tool call of a known shape: expected QGS's ('id', 'name', 'arguments'), "
        "OpenAI ('function'), OpenAI Responses ('type': 'function_call'), Anthropic "
        f"('type': 'tool_use') or MCP ('method': 'tools/call') (got {_described(obj)}keys: {keys})"
    )
    return ParsedCall(_id(obj), _name(obj), None, None, CallShape.UNKNOWN, error, obj)


def parse_calls(message: object) -> tuple[ParsedCall, ...]:
    """Read every tool call in an assistant message; nothing that might be a call is dropped.

    Args:
        message: An OpenAI assistant message (``tool_calls`` list; the deprecated
            ``function_call`` too, as a call with id ``function_call``), a whole ``chat.completion``
            (its ``choices[0].message``: the choice an agent acts on), an OpenAI Responses
            ``response`` (its ``output`` list) or that list, an Anthropic message (``content``
            list of blocks) or its content list, a JSON-RPC batch, or one call.

    Returns:
        The calls in order; ``()`` for a message without calls (a string or null ``content``,
        ``tool_calls: null``, or a list of blocks that carry no call: ``text``, ``thinking``,
        ``redacted_thinking``, ``image``, ``document``, ``tool_result``, ``refusal``,
        ``output_text``, ``reasoning``, ``function_call_output``, JSON-RPC requests other than
        ``tools/call``). Any other list item that is not a call of a known shape (an Anthropic
        ``server_tool_use`` block, a Responses ``computer_call``) comes back as an unknown-shape
        call with ``parse_error`` set, so the format layer fails it.

    Raises:
        InputError: ``tool_calls``/``content``/``output`` is not a list, a list item is not an
            object, ``choices`` is empty, the message is a Gemini message (``parts``), or the
            message is not an object or a list.
    """
    if isinstance(message, list):
        return _parse_list(message, "the list")
    if not isinstance(message, Mapping):
        raise InputError(f"a message must be a JSON object or list (got {type(message).__name__})")
    if "parts" in message or "candidates" in message:
        raise InputError(
            "a Gemini message ('parts' / 'candidates') is not a supported shape: send each "
            "functionCall part as one call, e.g. {'type': 'tool_use', 'id': ..., 'name': ..., "
            "'input': {...}} (Anthropic) or an OpenAI tool_calls item"
        )
    if "choices" in message:
        return parse_calls(_first_choice(message["choices"]))
    if message.get("object") == "response" and "output" in message:
        output = message["output"]
        if not isinstance(output, list):
            raise InputError(f"'output' must be a list (got {type(output).__name__})")
        return _parse_list(output, "'output'")
    keys = ("tool_calls", "function_call", "role")
    if not any(key in message for key in keys) and message.get("type") != "message":
        return (parse_call(message),)
    found: list[ParsedCall] = []
    calls = message.get("tool_calls")
    if calls is not None:
        if not isinstance(calls, list):
            raise InputError(f"'tool_calls' must be a list (got {type(calls).__name__})")
        found.extend(parse_call(call) for call in calls)
    legacy = message.get("function_call")
    if legacy is not None:  # OpenAI's deprecated single call: checked like any other
        found.append(parse_call({"id": "function_call", "type": "function", "function": legacy}))
    content = message.get("content")
    if isinstance(content, list):  # blocks beside tool_calls are read too: nothing is dropped
        found.extend(_parse_list(content, "'content'"))
    elif content is not None and not isinstance(content, str):
        raise InputError(f"'content' must be a string or a list (got {type(content).__name__})")
    return tuple(found)


def _first_choice(choices: object) -> object:
    if not isinstance(choices, list) or not choices:
        raise InputError(
            f"'choices' must be a non-empty list (got {_type(choices)}): pass a chat.completion "
            "with a choice, or its choices[0].message"
        )
    choice = choices[0]
    if not isinstance(choice, Mapping) or not isinstance(choice.get("message"), Mapping):
        raise InputError("choices[0] must be an object holding a 'message' object")
    return choice["message"]


def _parse_list(items: list[Any], where: str) -> tuple[ParsedCall, ...]:
    calls: list[ParsedCall] = []
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise InputError(
                f"{where} item [{index}] is a {_type(item)}, not a tool call: pass tool calls "
                "(OpenAI tool_calls items, Anthropic tool_use blocks, MCP tools/call requests, "
                "Responses function_call items) or an assistant message holding them"
            )
        kind = item.get("type")
        if kind == "message" and "content" in item:  # a Responses output message
            content = item["content"]
            if isinstance(content, list):
                calls.extend(_parse_list(content, f"{where}[{index}].content"))
                continue
        if isinstance(kind, str) and kind in _NO_CALL_TYPES:
            continue
        if "jsonrpc" in item and item.get("method") != "tools/call":
            continue  # another JSON-RPC request or a response in a batch: not a call
        calls.append(parse_call(item))
    return tuple(calls)


def _described(obj: Mapping[str, Any]) -> str:
    kind = obj.get("type")
    return f"type {kind!r}, " if isinstance(kind, str) else ""


def _responses(obj: Mapping[str, Any]) -> ParsedCall:
    call_id = obj.get("call_id")
    ident = call_id if isinstance(call_id, str) else None
    name = _name(obj)
    raw = obj.get("arguments")
    shape = CallShape.OPENAI_RESPONSES
    if isinstance(raw, str):
        arguments, problem = _loads(raw, "arguments")
        return ParsedCall(ident, name, arguments, raw, shape, problem, obj)
    if "arguments" not in obj:
        error = "arguments: missing (a JSON string encoding an object, e.g. '{}')"
    else:
        error = f"arguments: must be a JSON string (got {_type(raw)})"
    return ParsedCall(ident, name, None, None, shape, error, obj)


def _qgs(obj: Mapping[str, Any]) -> ParsedCall:
    """QGS's own shape: ``arguments`` an object, or a JSON string read strictly (kept raw)."""
    name = _name(obj)
    raw = obj.get("arguments")
    if isinstance(raw, str):
        arguments, problem = _loads(raw, "arguments")
        return ParsedCall(_id(obj), name, arguments, raw, CallShape.QGS, problem, obj)
    arguments, error = _object(raw, "arguments", False, "arguments" in obj)
    return ParsedCall(_id(obj), name, arguments, None, CallShape.QGS, error, obj)


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
    """A JSON object in the arguments names one key twice (which value the tool sees is unclear)."""


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
