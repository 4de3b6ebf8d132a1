"""Tool definitions in the forms agents declare them, turned into ``ToolSpec``.

Forms: OpenAI ``tools`` (``{"type": "function", "function": {name, description, parameters}}``,
or the bare legacy ``functions`` item), Anthropic (``{name, description, input_schema}``, and
built-in tools such as ``{"type": "bash_20250124", "name": "bash"}``), MCP ``tools/list`` items (``{name, title?, description, inputSchema, annotations?}``) and pydantic
models. Any definition may carry an ``x-qgs`` object that says what QGS cannot guess::

    "x-qgs": {"permission": "delete", "enabled": false,
              "kinds": {"target": "path"},
              "rate_limit": {"max_calls": 10, "window_s": 60},
              "max_file_bytes": 1048576, "allowed_domains": ["example.com"]}
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel

from qgs_worker.core.toolgate.kinds import ArgumentKind
from qgs_worker.core.toolgate.schema import ToolDefinitionError
from qgs_worker.core.toolgate.spec import BusinessRules, Permission, RateLimit, ToolSpec

__all__ = [
    "detect_form",
    "spec_from_anthropic",
    "spec_from_mcp",
    "spec_from_openai",
    "spec_from_pydantic",
    "specs_from_document",
]

_OPTION_KEYS = frozenset(
    {"permission", "enabled", "kinds", "rate_limit", "max_file_bytes", "allowed_domains"}
)
_BUILTIN_TYPE = re.compile(r"(?P<base>[a-z][a-z0-9_]*?)_(?P<version>[0-9]{8})")
"""An Anthropic built-in tool's ``type``: its base and version date (``bash_20250124``)."""


def spec_from_openai(tool: Mapping[str, Any]) -> ToolSpec:
    """Build a spec from one OpenAI ``tools`` item (or a bare legacy ``functions`` item).

    Raises:
        ToolDefinitionError: No name, a ``type`` other than ``function``, or a bad schema.
    """
    function = tool.get("function", tool)
    if not isinstance(function, Mapping):
        raise ToolDefinitionError(f"OpenAI tool: 'function' must be an object (got {function!r})")
    if "function" in tool and tool.get("type", "function") != "function":
        raise ToolDefinitionError(
            f"OpenAI tool: 'type' must be 'function' (got {tool.get('type')!r})"
        )
    options = {**_options(function), **_options(tool, function.get("name"))}
    return _spec(function, "parameters", "openai", options)


def spec_from_anthropic(tool: Mapping[str, Any]) -> ToolSpec:
    """Build a spec from one Anthropic tool definition (``name``, ``input_schema``).

    A definition with a versioned ``type`` (``<tool>_<YYYYMMDD>``, not ``custom``) and no
    ``input_schema`` is one of Anthropic's built-in tools, whose schema Anthropic keeps. It gets
    the input Anthropic documents for it:

    - ``bash_*`` (``bash``): ``command`` (a string of kind command) and ``restart`` (a boolean);
    - ``text_editor_*`` (``str_replace_editor``, ``str_replace_based_edit_tool``): ``command``
      (``view``, ``create``, ``str_replace``, ``insert``, and ``undo_edit`` before the
      20250429 version), ``path`` (kind path, required with ``command``), ``file_text``,
      ``old_str``, ``new_str``, ``insert_line`` (an integer from 0) and ``view_range`` (two
      integers);
    - any other (``computer_*``, ``web_search_*``, ``code_execution_*``, ...): an open object,
      ``{"type": "object", "additionalProperties": true}``, whose arguments get no kind.

    The permission is inferred from the name as for any tool (``bash`` and ``computer``:
    execute; ``str_replace_editor``: write; ``web_search``: read); ``x-qgs`` still applies.

    Raises:
        ToolDefinitionError: No name, or a bad schema.
    """
    kind = tool.get("type")
    builtin = _BUILTIN_TYPE.fullmatch(kind) if isinstance(kind, str) else None
    if builtin is not None and "input_schema" not in tool:
        schema = _builtin_schema(builtin["base"], builtin["version"])
        tool = {**tool, "input_schema": schema}
    return _spec(tool, "input_schema", "anthropic", _options(tool))


_TEXT_EDITOR_COMMANDS = ["view", "create", "str_replace", "insert"]
_UNDO_EDIT_UNTIL = "20250429"
"""The first text editor version without ``undo_edit`` (the Claude 4 tools)."""


def _builtin_schema(base: str, version: str) -> dict[str, Any]:
    """The input schema of an Anthropic built-in tool (see ``spec_from_anthropic``)."""
    if base == "bash":
        return {
            "type": "object",
            "properties": {
                "command": {"type": "string", "x-qgs-kind": ArgumentKind.COMMAND.value},
                "restart": {"type": "boolean"},
            },
        }
    if base == "text_editor":
        commands = _TEXT_EDITOR_COMMANDS + (["undo_edit"] if version < _UNDO_EDIT_UNTIL else [])
        return {
            "type": "object",
            "properties": {
                "command": {"type": "string", "enum": commands},
                "path": {"type": "string", "x-qgs-kind": ArgumentKind.PATH.value},
                "file_text": {"type": "string"},
                "old_str": {"type": "string"},
                "new_str": {"type": "string"},
                "insert_line": {"type": "integer", "minimum": 0},
                "view_range": {
                    "type": "array",
                    "items": {"type": "integer"},
                    "minItems": 2,
                    "maxItems": 2,
                },
            },
            "required": ["command", "path"],
        }
    return {"type": "object", "additionalProperties": True}


def spec_from_mcp(tool: Mapping[str, Any]) -> ToolSpec:
    """Build a spec from one item of an MCP ``tools/list`` result (``name``, ``inputSchema``).

    MCP's annotations are untrusted hints (the MCP spec says so): ``readOnlyHint: true`` hints
    read and an explicit ``destructiveHint`` hints delete (true) or write (false); the permission
    is the stronger of the hint and the name's (``delete_all_files`` with ``readOnlyHint`` is
    delete). ``x-qgs.permission``, set by whoever deploys the gate, wins over both.

    Raises:
        ToolDefinitionError: No name, or a bad schema.
    """
    options = _options(tool)
    annotations = tool.get("annotations")
    if "permission" not in options and isinstance(annotations, Mapping):
        if annotations.get("readOnlyHint") is True:
            options["permission_hint"] = Permission.READ
        elif annotations.get("destructiveHint") is True:
            options["permission_hint"] = Permission.DELETE
        elif annotations.get("destructiveHint") is False:
            options["permission_hint"] = Permission.WRITE
    return _spec(tool, "inputSchema", "mcp", options)


def spec_from_pydantic(model: type[BaseModel]) -> ToolSpec:
    """Build a spec from a pydantic model: its fields are the tool's arguments.

    The name is the model's configured ``title``, else its class name as it is (what the OpenAI
    SDK's ``pydantic_function_tool`` sends), not snake_case
    (``GetWeather`` -> ``get_weather``); the description is its docstring.

    Raises:
        ToolDefinitionError: ``model`` is not a pydantic model class.
    """
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        raise ToolDefinitionError(f"from_pydantic takes BaseModel classes (got {model!r})")
    schema = model.model_json_schema()
    title = model.model_config.get("title")
    name = title if isinstance(title, str) and title else model.__name__
    description = schema.get("description", "")
    return ToolSpec.define(name, schema, description=description, source="pydantic")


def detect_form(tool: Mapping[str, Any]) -> str:
    """Say which form a tool definition is in: ``openai``, ``anthropic`` or ``mcp``.

    An Anthropic built-in tool (a versioned ``type`` such as ``bash_20250124``, no schema) is
    ``anthropic``.

    Raises:
        ToolDefinitionError: The definition matches none of them.
    """
    if isinstance(tool.get("function"), Mapping) or "parameters" in tool:
        return "openai"
    if "input_schema" in tool:
        return "anthropic"
    if "inputSchema" in tool:
        return "mcp"
    kind = tool.get("type")
    if isinstance(kind, str) and _BUILTIN_TYPE.fullmatch(kind):
        return "anthropic"  # a built-in tool: Anthropic keeps its schema
    keys = ", ".join(sorted(map(str, tool))) or "none"
    raise ToolDefinitionError(
        "cannot tell the form of a tool definition: expected 'function' (OpenAI), "
        "'input_schema' (Anthropic), a versioned 'type' such as 'bash_20250124' (an Anthropic "
        f"built-in tool) or 'inputSchema' (MCP) (got keys: {keys})"
    )


_BUILDERS = {"openai": spec_from_openai, "anthropic": spec_from_anthropic, "mcp": spec_from_mcp}


def specs_from_document(document: Any) -> list[ToolSpec]:
    """Read tool definitions from a parsed JSON document, telling each one's form.

    Accepts a list of definitions, an object with a ``tools`` list (an MCP ``tools/list``
    result, or ``{"tools": [...]}`` of any form), a JSON-RPC response whose ``result`` is such
    an object, or a single definition.

    Raises:
        ToolDefinitionError: The document holds no definitions, or one cannot be read.
    """
    if isinstance(document, Mapping) and isinstance(document.get("result"), Mapping):
        document = document["result"]
    if isinstance(document, Mapping) and "tools" in document:
        document = document["tools"]
    items: Iterable[Any] = document if isinstance(document, list) else [document]
    specs = []
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise ToolDefinitionError(
                f"tool #{index}: a definition must be an object (got {item!r})"
            )
        specs.append(_BUILDERS[detect_form(item)](item))
    return specs


def _spec(
    definition: Mapping[str, Any], schema_key: str, source: str, options: Mapping[str, Any]
) -> ToolSpec:
    name = definition.get("name")
    if not isinstance(name, str) or not name:
        raise ToolDefinitionError(
            f"{source} tool: 'name' must be a non-empty string (got {name!r})"
        )
    parameters = definition.get(schema_key)
    if parameters is not None and not isinstance(parameters, Mapping):
        raise ToolDefinitionError(
            f"tool {name!r}: {schema_key!r} must be a JSON Schema object (got {parameters!r})"
        )
    description = definition.get("description") or ""
    return ToolSpec.define(
        name,
        parameters,
        description=str(description),
        source=source,
        enabled=options.get("enabled", True),
        permission=options.get("permission"),
        permission_hint=options.get("permission_hint"),
        kinds=options.get("kinds"),
        rules=options.get("rules"),
    )


def _options(definition: Mapping[str, Any], name: object = None) -> dict[str, Any]:
    """The ``x-qgs`` options of a definition; ``name``: the tool's, when it is not beside them.

    An OpenAI definition may put ``x-qgs`` beside ``function``: its messages name the tool
    from ``function.name``, not ``'?'``.
    """
    raw = definition.get("x-qgs")
    if raw is None:
        return {}
    name = name if isinstance(name, str) else definition.get("name", "?")
    if not isinstance(raw, Mapping) or set(raw) - _OPTION_KEYS:
        unknown = sorted(set(raw) - _OPTION_KEYS) if isinstance(raw, Mapping) else raw
        raise ToolDefinitionError(
            f"tool {name!r}: x-qgs must be an object of {sorted(_OPTION_KEYS)} (got {unknown!r})"
        )
    options: dict[str, Any] = {}
    if "permission" in raw:
        options["permission"] = _option(
            name, "permission", raw["permission"], Permission, f"one of {_PERMISSIONS}"
        )
    if "enabled" in raw:
        options["enabled"] = _bool(name, "enabled", raw["enabled"])
    if "kinds" in raw:
        kinds = raw["kinds"]
        if not isinstance(kinds, Mapping):
            raise ToolDefinitionError(
                f'tool {name!r}: x-qgs kinds must be {{"<argument path>": "<kind>"}} '
                f"(got {kinds!r})"
            )
        options["kinds"] = {
            str(k): _option(name, f"kinds.{k}", v, ArgumentKind, f"one of {_KINDS}")
            for k, v in kinds.items()
        }
    options["rules"] = BusinessRules(
        rate_limit=_rate_limit(name, raw.get("rate_limit")),
        max_file_bytes=_max_bytes(name, raw.get("max_file_bytes")),
        allowed_domains=_domains(name, raw.get("allowed_domains")),
    )
    return options


_PERMISSIONS = ", ".join(repr(p.value) for p in Permission)
_KINDS = ", ".join(repr(k.value) for k in ArgumentKind)


def _option(name: object, key: str, value: Any, kind: Any, expected: str) -> Any:
    try:
        return kind(value)
    except (ValueError, TypeError) as error:
        raise ToolDefinitionError(
            f"tool {name!r}: x-qgs {key} must be {expected} (got {value!r})"
        ) from error


def _bool(name: object, key: str, value: Any) -> bool:
    """A JSON boolean, or the string "true"/"false" in any case; anything else is an error."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise ToolDefinitionError(f"tool {name!r}: x-qgs {key} must be true or false (got {value!r})")


def _rate_limit(name: object, value: Any) -> RateLimit | None:
    if value is None:
        return None
    shape = 'rate_limit must be {"max_calls": N, "window_s": S}'
    if not isinstance(value, Mapping) or set(value) != {"max_calls", "window_s"}:
        raise ToolDefinitionError(f"tool {name!r}: x-qgs {shape} (got {value!r})")
    calls, window = value["max_calls"], value["window_s"]
    if (
        isinstance(calls, bool)
        or not isinstance(calls, int)
        or isinstance(window, bool)
        or not isinstance(window, int | float)
    ):
        raise ToolDefinitionError(
            f"tool {name!r}: x-qgs {shape} with an integer N and a number S (got {value!r})"
        )
    try:
        return RateLimit(calls, float(window))
    except ToolDefinitionError as error:
        raise ToolDefinitionError(f"tool {name!r}: x-qgs {error}") from error


def _max_bytes(name: object, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ToolDefinitionError(
            f"tool {name!r}: x-qgs max_file_bytes must be a positive integer (got {value!r})"
        )
    return value


def _domains(name: object, value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(d, str) for d in value):
        raise ToolDefinitionError(
            f"tool {name!r}: x-qgs allowed_domains must be a list of host names such as "
            f'["example.com"] (got {value!r})'
        )
    for domain in value:
        if domain != "*" and not _HOST_ENTRY.fullmatch(domain.lower()):
            raise ToolDefinitionError(
                f"tool {name!r}: x-qgs allowed_domains entry {domain!r} is not a host: write "
                "a host name such as example.com (no scheme, path or port)"
            )
    return tuple(d.lower() for d in value)


_HOST_ENTRY = re.compile(r"(?=.*[a-z0-9])[a-z0-9_-]+(\.[a-z0-9_-]+)*|[0-9a-f:.]+")
