"""A compiled validator for nested tool schemas: accepts fast, never decides a rejection.

A flat schema (``schema.FlatObject``) is checked inline. Any other went through jsonschema on
every call, which builds a validator for each subschema it descends into: several times a
compiled validator's cost (issue 31, item 5). Here such a schema is compiled once, when a call
first needs it, with ``fastjsonschema`` (Python code generated from the schema, one function),
and a call it accepts is valid. A call it rejects goes on to jsonschema as before, so the
verdict of a rejection (lenient or strict) and every message stay jsonschema's.

That is sound only where the compiled validator never accepts what jsonschema's strict reading
rejects (the lenient reading accepts more still). So only schemas built of the keywords whose
meaning is the same in both are compiled (:func:`fast_safe`); anything else keeps the
jsonschema path:

- ``pattern``, ``patternProperties``, ``propertyNames`` and ``format``: a caller's pattern runs
  on RE2 (``schema_regex``), never on ``re``, which fastjsonschema would use;
- ``not``, ``oneOf``, ``if``/``then``/``else``: a subschema read more strictly could turn their
  answer into an acceptance;
- ``$ref``, ``$schema``, ``const``, ``multipleOf``, ``uniqueItems``, ``contains``, tuple
  ``items``, ``dependencies``... : left out rather than proven equal;
- ``enum`` with values other than strings (fastjsonschema's equality is Python's, where
  ``True == 1``).

fastjsonschema accepts a tuple where a schema says ``array``; jsonschema does not: the generated
code is changed to accept lists only, and a generated code that no longer has the expected
form is not used. Defaults are never written into the arguments (``use_default=False``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["FAST_KEYWORDS", "compile_fast", "fast_safe"]

_ANNOTATIONS = frozenset(
    {"description", "title", "default", "examples", "$comment", "deprecated", "readOnly",
     "writeOnly"}
)  # fmt: skip
_NUMBERS = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"})
_COUNTS = frozenset(
    {"minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"}
)
_TYPES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})
FAST_KEYWORDS = _ANNOTATIONS | _NUMBERS | _COUNTS | {
    "type", "properties", "required", "additionalProperties", "items", "enum", "anyOf", "allOf",
}  # fmt: skip
"""The keywords a schema compiled here may use (every other keyword keeps jsonschema's path)."""

_ARRAY_CHECK = "(list, tuple)"
"""How fastjsonschema's generated code checks an array; replaced by ``(list)``."""


def fast_safe(schema: Any, depth: int = 0) -> bool:
    """Whether ``schema`` uses only keywords read the same by fastjsonschema and jsonschema.

    Args:
        schema: A (sub)schema, as the registry compiled it (closed or not).
        depth: Nesting so far (a schema deeper than 32 levels is left to jsonschema).
    """
    if depth > 32 or not isinstance(schema, Mapping):
        return False
    for key, value in schema.items():
        if key not in FAST_KEYWORDS:
            return False
        if not _fast_value(key, value, depth):
            return False
    return True


def _fast_value(key: str, value: Any, depth: int) -> bool:
    """Whether one keyword's value is of the plain form both libraries read alike."""
    if key in _ANNOTATIONS:
        return True
    if key in _NUMBERS:
        return type(value) in (int, float)
    if key in _COUNTS:
        return type(value) is int and value >= 0
    if key == "type":
        names = value if isinstance(value, list) else [value]
        return bool(names) and all(isinstance(n, str) and n in _TYPES for n in names)
    if key == "required":
        return isinstance(value, list) and all(isinstance(n, str) for n in value)
    if key == "enum":
        return isinstance(value, list) and bool(value) and all(type(v) is str for v in value)
    if key == "properties":
        return isinstance(value, Mapping) and all(
            isinstance(name, str) and fast_safe(sub, depth + 1) for name, sub in value.items()
        )
    if key == "additionalProperties":
        return type(value) is bool or fast_safe(value, depth + 1)
    if key == "items":
        return fast_safe(value, depth + 1)
    if key in ("anyOf", "allOf"):
        return (
            isinstance(value, list)
            and bool(value)
            and all(fast_safe(sub, depth + 1) for sub in value)
        )
    return False  # pragma: no cover - FAST_KEYWORDS is covered above


def compile_fast(schema: Mapping[str, Any]) -> Callable[[Any], bool] | None:
    """A function saying whether arguments certainly fit ``schema``; None where unsafe.

    Args:
        schema: A tool's parameter schema (checked by the registry already).

    Returns:
        ``passes(arguments) -> bool``: True means valid in both readings; False means "ask
        jsonschema", never "invalid". None when the schema is not :func:`fast_safe`, or
        fastjsonschema is missing or cannot compile it.
    """
    if not fast_safe(schema):
        return None
    try:
        import fastjsonschema
    except ImportError:  # pragma: no cover - a dependency; without it jsonschema decides
        return None
    try:
        code = fastjsonschema.compile_to_code(dict(schema), use_default=False, use_formats=False)
    except Exception:  # a schema fastjsonschema cannot compile: jsonschema reads it
        return None
    code = code.replace(_ARRAY_CHECK, "(list)")
    if "tuple" in code:  # not the generated form expected: never a looser check
        return None
    namespace: dict[str, Any] = {}
    exec(compile(code, "<qgs tool schema>", "exec"), namespace)  # code generated from the schema
    validate = namespace["validate"]
    invalid = fastjsonschema.JsonSchemaException

    def passes(arguments: Any) -> bool:
        try:
            validate(arguments)
        except invalid:
            return False
        except Exception:  # e.g. RecursionError on hostile nesting: jsonschema's to say
            return False
        return True

    return passes
