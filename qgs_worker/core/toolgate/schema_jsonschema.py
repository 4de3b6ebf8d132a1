"""The jsonschema side of the parameter layer: metaschema checks, validators, messages.

Imported only when a tool's schema is not plain (``schema.plainly_valid``) or a call is not
certainly valid by the inline check (``schema.FlatObject``): ``qgs check-tool`` on a plain tool
and a valid call never imports jsonschema (issue 15). ``schema.py``'s docstring says how the
schemas are read (closed objects, lenient and strict).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs kept; the seam is this module
import referencing  # jsonschema's own $ref machinery, installed with it
from jsonschema import ValidationError

from qgs_worker.core.models import Strictness
from qgs_worker.core.toolgate import schema_regex
from qgs_worker.core.toolgate.schema_cost import DATA_KEYS
from qgs_worker.core.toolgate.schema_leaf import _as_list, _leaf_passes, _same
from qgs_worker.errors import ToolDefinitionError

__all__ = ["build_validator", "check_schema", "error_messages"]

_MAX_MESSAGE = 300
_MAX_SEEN = 100  # errors read from jsonschema at most: a hostile array must not cost more
_NO_RETRIEVAL: referencing.Registry[Any] = referencing.Registry()
"""An empty registry: jsonschema would otherwise fetch a remote ``$ref`` over HTTP, mid-call."""
_BASE_TYPE = jsonschema.Draft202012Validator.VALIDATORS["type"]
_BASE_ENUM = jsonschema.Draft202012Validator.VALIDATORS["enum"]
_BASE_PROPERTIES = jsonschema.Draft202012Validator.VALIDATORS["properties"]
_BASE_ITEMS = jsonschema.Draft202012Validator.VALIDATORS["items"]
_BASE_ADDITIONAL = jsonschema.Draft202012Validator.VALIDATORS["additionalProperties"]
_BASE_PATTERN = jsonschema.Draft202012Validator.VALIDATORS["pattern"]
_BASE_PATTERN_PROPERTIES = jsonschema.Draft202012Validator.VALIDATORS["patternProperties"]


def check_schema(schema: Mapping[str, Any], *, tool_name: str) -> str:
    """Check a schema against its draft's metaschema with jsonschema.

    Returns:
        The draft's validator class name (``Draft202012Validator`` when ``$schema`` is absent).

    Raises:
        ToolDefinitionError: The schema is not valid for its draft, has a ``$ref`` outside
            itself, or a ``pattern`` RE2 cannot run.
    """
    base = _base(schema)
    # RE2 first: its reason is the one that matters (the metaschema's check compiles patterns
    # with ``re``, which is safe for compiling but would accept a backtracking-only pattern).
    schema_regex.check_patterns(schema, tool_name=tool_name)
    try:
        base.check_schema(schema)
    except jsonschema.SchemaError as error:
        where = _path(error.absolute_path)
        raise ToolDefinitionError(
            f"tool {tool_name!r}: parameters are not a valid JSON Schema ({base.__name__}): "
            f"{where}: {_clip(error.message)}"
        ) from error
    outside = sorted(set(_outside_refs(schema)))
    if outside:
        raise ToolDefinitionError(
            f"tool {tool_name!r}: $ref {', '.join(map(repr, outside))} points outside the schema; "
            "QGS never fetches schemas (put the referenced schema under $defs)"
        )
    return str(base.__name__)


def build_validator(schema: Mapping[str, Any], strictness: Strictness) -> Any:
    """The validator of ``schema`` (checked before) in one reading, with no remote ``$ref``."""
    return _validator_class(_base(schema), strictness)(schema, registry=_NO_RETRIEVAL)


def error_messages(validator: Any, arguments: Any, max_errors: int) -> tuple[str, ...]:
    """``CompiledSchema.errors``' messages from jsonschema's errors (at most 100 read)."""
    found = validator.iter_errors(arguments)
    first = next(found, None)
    if first is None:
        return ()
    messages: list[str] = []
    for error in itertools.islice(_chain(first, found), _MAX_SEEN):
        for message in _messages(error):
            if message not in messages:
                messages.append(message)
    if len(messages) > max_errors:
        left = len(messages) - max_errors
        more = f"at least {left}" if len(messages) >= _MAX_SEEN else str(left)
        messages = [*messages[:max_errors], f"... and {more} more"]
    return tuple(messages)


def _base(schema: Mapping[str, Any]) -> Any:
    return jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)


_DATA_KEYS = DATA_KEYS


def _outside_refs(schema: Any) -> Iterator[str]:
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key in ("$ref", "$dynamicRef") and isinstance(value, str):
                if not value.startswith("#"):
                    yield value
            elif key not in _DATA_KEYS:
                yield from _outside_refs(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _outside_refs(item)


# --- the lenient reading ---------------------------------------------------------------------

_CLASSES: dict[tuple[type[Any], Strictness], type[Any]] = {}


def _validator_class(base: type[Any], strictness: Strictness) -> type[Any]:
    built = _CLASSES.get((base, strictness))
    if built is None:
        keywords = base.VALIDATORS
        overrides: dict[str, Callable[..., Iterator[ValidationError]]] = {}
        if keywords.get("properties") is _BASE_PROPERTIES:
            overrides["properties"] = _fast_properties
        if keywords.get("items") is _BASE_ITEMS:
            overrides["items"] = _fast_items
        if keywords.get("additionalProperties") is _BASE_ADDITIONAL:
            overrides["additionalProperties"] = _fast_additional
        # Schema regexes match in linear time (RE2), never with ``re``'s backtracking.
        if keywords.get("pattern") is _BASE_PATTERN:
            overrides["pattern"] = schema_regex.pattern
        if keywords.get("patternProperties") is _BASE_PATTERN_PROPERTIES:
            overrides["patternProperties"] = schema_regex.pattern_properties
        if strictness is Strictness.LENIENT and keywords.get("type") is _BASE_TYPE:
            overrides["type"] = _lenient_type
        if strictness is Strictness.LENIENT and keywords.get("enum") is _BASE_ENUM:
            overrides["enum"] = _lenient_enum
        built = jsonschema.validators.extend(base, overrides)
        _CLASSES[(base, strictness)] = built
    return built


def _fast_properties(
    validator: Any, properties: Any, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for name, sub in properties.items():
        if name in instance:
            value = instance[name]
            if not _leaf_passes(value, sub):
                yield from validator.descend(value, sub, path=name, schema_path=name)


def _fast_additional(
    validator: Any, additional: Any, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if additional is False and type(instance) is dict and "patternProperties" not in schema:
        declared = schema.get("properties", {})
        if all(name in declared for name in instance):
            return
    if "patternProperties" in schema:  # jsonschema's own would match the patterns with ``re``
        yield from schema_regex.additional_properties(validator, additional, instance, schema)
        return
    yield from _BASE_ADDITIONAL(validator, additional, instance, schema)


def _fast_items(
    validator: Any, items: Any, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if (
        "prefixItems" in schema
        or type(instance) is not list
        or not all(_leaf_passes(value, items) for value in instance)
    ):
        yield from _BASE_ITEMS(validator, items, instance, schema)


def _lenient_type(
    validator: Any, types: Any, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    types = _as_list(types)
    if any(validator.is_type(instance, name) for name in types):
        return
    if _is_default(instance, schema):
        return
    if "string" in types and _string_form_in(instance, schema.get("enum")):
        return
    reprs = ", ".join(repr(name) for name in types)
    yield ValidationError(f"{instance!r} is not of type {reprs}")


def _lenient_enum(
    validator: Any, enums: Any, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if any(_same(instance, value) for value in enums) or _is_default(instance, schema):
        return
    if _loosely_in(instance, enums):
        return
    if (
        isinstance(instance, list)
        and not any(isinstance(v, list | dict) for v in enums)
        and all(_loosely_in(i, enums) or any(_same(i, v) for v in enums) for i in instance)
    ):
        return  # an enum declared on the array meant for its items
    yield ValidationError(f"{instance!r} is not one of {enums!r}")


def _loosely_in(instance: Any, enums: Any) -> bool:
    if isinstance(instance, str):
        folded = instance.casefold()
        return any(isinstance(v, str) and v.casefold() == folded for v in enums)
    return _string_form_in(instance, enums)


def _string_form_in(instance: Any, enums: Any) -> bool:
    if not isinstance(instance, bool | int | float) or not isinstance(enums, list):
        return False
    forms = {str(instance).casefold(), json.dumps(instance).casefold()}
    return any(isinstance(v, str) and v.casefold() in forms for v in enums)


def _is_default(instance: Any, schema: Mapping[str, Any]) -> bool:
    return "default" in schema and _same(instance, schema["default"])


# --- messages --------------------------------------------------------------------------------


def _chain(first: ValidationError, rest: Iterator[ValidationError]) -> Iterator[ValidationError]:
    yield first
    yield from rest


def _messages(error: ValidationError) -> list[str]:
    where = _path(error.absolute_path)
    instance = error.instance
    if error.validator == "required" and isinstance(instance, Mapping):
        missing = [n for n in error.validator_value if n not in instance]
        return [f"{_join(where, n)}: missing required parameter" for n in missing]
    if error.validator == "additionalProperties" and isinstance(instance, Mapping):
        declared = error.schema.get("properties", {})
        patterns = list(error.schema.get("patternProperties", {}))
        extra = [
            n
            for n in instance
            if n not in declared and not any(schema_regex.search(p, n) for p in patterns)
        ]
        return [
            f"{_join(where, n)}: unknown parameter (the tool's schema does not declare it)"
            for n in extra
        ]
    return [f"{where}: {_clip(error.message)}"]


def _path(parts: Any) -> str:
    text = "$"
    for part in parts:
        text = f"{text}[{part}]" if isinstance(part, int) else _join(text, str(part))
    return text


def _join(prefix: str, name: str) -> str:
    if name.isidentifier():
        return f"{prefix}.{name}"
    return f"{prefix}[{json.dumps(name, ensure_ascii=False)}]"


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_MESSAGE else f"{text[: _MAX_MESSAGE - 3]}..."
