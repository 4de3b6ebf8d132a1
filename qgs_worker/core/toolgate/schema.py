"""JSON Schema validation of tool arguments: compiled once per tool, two strictness modes.

With ``schema_regex.py`` (its RE2 keywords), the only module of the gate that imports
``jsonschema``. A tool's schema is checked and its
validators built when the registry loads it (never on the hot path); the draft is the one the
schema declares in ``$schema``, else Draft 2020-12.

**Unknown parameters.** Agents' tool schemas rarely say ``additionalProperties: false`` (none of
the BFCL ones do), yet an argument the tool does not declare is either a model's invention or a
smuggling attempt, and BFCL's own checker rejects it ("Unexpected parameter"). So every object
schema that declares ``properties`` and says nothing about extra ones (no
``additionalProperties``, ``patternProperties`` or ``unevaluatedProperties``) is *closed* at load:
unknown parameters fail in both modes. A schema opts out with ``additionalProperties: true``;
objects inside ``allOf``/``if``/``not`` or beside a ``$ref`` are left as they are (closing them
would reject the properties the sibling schemas declare), and so are an object beside ``anyOf``,
``oneOf``, ``if``/``then``/``else`` or ``dependentSchemas`` (which may declare more of its
properties) and the ``anyOf``/``oneOf`` branches of an object that declares properties of its
own; an object whose ``required`` names a property it does not declare is left open too.
``GateSettings.reject_unknown_parameters=False`` turns the closing off.

**Strictness** (``Strictness``), decided on the 60 real BFCL ground-truth calls that a strict
validator rejects (``a_bfcl_gt_strict_schema_conflicts.jsonl``), grouped by their error:

========================================  =====  ==================================================
group                                     calls  lenient
========================================  =====  ==================================================
the property's declared ``default``       37     accept: the tool's author declared that value
(``'N/A'``, ``'dontcare'``, ``[]``)              (``"default": "dontcare"`` on an integer); sending
outside its type or enum                         it says "not given", as omitting it would
bool/number whose string form is in the   11     accept: ``False`` for ``enum: ["True", "False",
string's enum                                    "dontcare"]``, ``2`` for ``enum: ["1", "2"]``
enum declared on an array, not its items  1      accept when every item is in the enum: a
(``metrics: ["temperature", ...]``)              schema slip, read as meant
enum value differing only in case         1      accept (``'horror'`` for ``'Horror'``): BFCL's
                                                 checker compares strings case-insensitively
missing required parameter                3      reject: the tool cannot run without it
value outside the enum (``'Any'``,        5      reject: the enum is the tool's contract
``'5 minutes'``, ``'Reggaeton'``...)
wrong type, no enum to map it             2      reject (``True`` for a free ``venue`` string, a
                                                 Python expression string for an array)
========================================  =====  ==================================================

Lenient (the default) accepts 50 of the 60, strict none (``tests/unit/test_toolgate_corpus.py``
keeps these counts). The gate never rewrites arguments: a tool that needs ``"False"`` rather than
``False`` must coerce, or run the gate strict. Integers where ``number`` is declared pass in both
modes (JSON Schema's own rule). Strict is plain JSON Schema plus closed objects.

**Speed.** jsonschema builds a new validator for every property it descends into; the classes
here check *leaf* properties (a plain ``type``, maybe an ``enum``) inline and fall back to
jsonschema for anything else, or whenever the inline check is not sure, so verdicts and messages
stay jsonschema's (a test compares them).
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs kept; the seam is this module
import referencing  # jsonschema's own $ref machinery, installed with it
from jsonschema import ValidationError

from qgs_worker.core.models import Strictness
from qgs_worker.core.toolgate import schema_cost, schema_regex
from qgs_worker.errors import ToolDefinitionError

__all__ = ["CompiledSchema", "FlatObject", "Strictness", "ToolDefinitionError", "compile_schema"]

_MAX_MESSAGE = 300
_MAX_SEEN = 100  # errors read from jsonschema at most: a hostile array must not cost more
_NO_RETRIEVAL: referencing.Registry[Any] = referencing.Registry()
"""An empty registry: jsonschema would otherwise fetch a remote ``$ref`` over HTTP, mid-call."""
_OPENERS = ("additionalProperties", "patternProperties", "unevaluatedProperties")
_BASE_TYPE = jsonschema.Draft202012Validator.VALIDATORS["type"]
_BASE_ENUM = jsonschema.Draft202012Validator.VALIDATORS["enum"]
_BASE_PROPERTIES = jsonschema.Draft202012Validator.VALIDATORS["properties"]
_BASE_ITEMS = jsonschema.Draft202012Validator.VALIDATORS["items"]
_BASE_ADDITIONAL = jsonschema.Draft202012Validator.VALIDATORS["additionalProperties"]
_BASE_PATTERN = jsonschema.Draft202012Validator.VALIDATORS["pattern"]
_BASE_PATTERN_PROPERTIES = jsonschema.Draft202012Validator.VALIDATORS["patternProperties"]


@dataclass(frozen=True, slots=True)
class CompiledSchema:
    """A tool's parameter schema with its validators built once, per strictness and closing.

    ``draft`` names the JSON Schema draft used (e.g. ``Draft202012Validator``).
    """

    schema: Mapping[str, Any]
    draft: str
    validators: Mapping[tuple[Strictness, bool], Any]
    flat: Mapping[bool, FlatObject | None] = dataclasses.field(default_factory=dict)
    """Per closing, the inline check of a flat schema (``None``: not flat, jsonschema only)."""

    def errors(
        self,
        arguments: Mapping[str, Any],
        strictness: Strictness,
        *,
        closed: bool = True,
        max_errors: int = 10,
    ) -> tuple[str, ...]:
        """Validate arguments; return one message per problem, each starting with its path.

        Args:
            arguments: The call's parsed arguments.
            strictness: Which reading of the schema to apply.
            closed: Whether undeclared parameters are errors (see the module docstring).
            max_errors: At most this many messages; one more says how many were left out
                (jsonschema is read for at most 100 errors).

        Returns:
            ``()`` when valid, else messages like ``"$.unit: 'kelvin' is not one of [...]"``,
            ``"$.team: missing required parameter"``, ``"$.x: unknown parameter ..."``.
        """
        flat = self.flat.get(closed)
        if flat is not None and flat.passes(arguments):
            return ()  # certainly valid in both modes: lenient only ever accepts more
        found = self.validators[(strictness, closed)].iter_errors(arguments)
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


def compile_schema(schema: Mapping[str, Any], *, tool_name: str) -> CompiledSchema:
    """Check a tool's parameter schema and build its validators.

    Args:
        schema: The JSON Schema of the tool's arguments (an object schema).
        tool_name: The tool's name, for the error message.

    Returns:
        The compiled schema; the caller's mapping is never modified.

    Raises:
        ToolDefinitionError: The schema is not valid for its draft, does not describe an object,
            has a ``$ref`` outside itself (QGS never fetches schemas), has a ``pattern`` RE2
            cannot run (``schema_regex``: lookarounds, backreferences), or could make a
            validator do too much work (``schema_cost``: over 500 subschemas, a ``$ref`` bomb
            that doubles per level, a ``$ref`` cycle that never descends into the arguments).
    """
    declared = schema.get("type")
    if declared is not None and declared != "object" and "object" not in _as_list(declared):
        raise ToolDefinitionError(
            f"tool {tool_name!r}: parameters must describe an object (got type {declared!r})"
        )
    schema_cost.check_size(schema, tool_name=tool_name)  # before the metaschema's slow check
    base = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
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
    schema_cost.check_cost(schema, tool_name=tool_name)  # no exponential work, no endless cycle
    closed = _close(copy.deepcopy(dict(schema)), closable=True)
    validators = {
        (strictness, is_closed): _validator_class(base, strictness)(
            closed if is_closed else schema, registry=_NO_RETRIEVAL
        )
        for strictness in Strictness
        for is_closed in (True, False)
    }
    flat = {
        is_closed: FlatObject.of(closed if is_closed else schema)
        if base.__name__ in _FLAT_DRAFTS
        else None
        for is_closed in (True, False)
    }
    return CompiledSchema(schema=schema, draft=base.__name__, validators=validators, flat=flat)


_DATA_KEYS = schema_cost.DATA_KEYS


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


# --- closing objects -------------------------------------------------------------------------

_ALTERNATIVES = ("anyOf", "oneOf")
_MAPS = ("properties", "$defs", "definitions")
_OPEN_EACH = ("allOf",)
_OPEN_ONE = ("not", "if", "then", "else")
# keywords whose subschemas apply to the same object and may declare more of its properties
_SAME_OBJECT = ("$ref", "allOf", "anyOf", "oneOf", "if", "then", "else", "dependentSchemas")


def _close(schema: Any, *, closable: bool) -> Any:
    if not isinstance(schema, dict):
        return schema
    properties = schema.get("properties")
    if (
        closable
        and isinstance(properties, dict)
        and not any(key in schema for key in _OPENERS)
        and not any(key in schema for key in _SAME_OBJECT)
        and all(name in properties for name in schema.get("required", ()))
    ):
        schema["additionalProperties"] = False
    for key in _MAPS:
        if isinstance(schema.get(key), dict):
            for sub in schema[key].values():
                _close(sub, closable=True)
    # Alternatives are closed when each is a whole object schema (a union of shapes); beside
    # properties of their own object, each one sees those properties as unknown, so not then.
    for key in _ALTERNATIVES:
        for sub in _as_list(schema.get(key)):
            _close(sub, closable=properties is None)
    for sub in _as_list(schema.get("prefixItems")):
        _close(sub, closable=True)
    for key in _OPEN_EACH:
        for sub in _as_list(schema.get(key)):
            _close(sub, closable=False)
    for key in _OPEN_ONE:
        _close(schema.get(key), closable=False)
    for key in ("items", "additionalProperties", "contains"):
        _close(schema.get(key), closable=True)
    return schema


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


# --- the fast path ---------------------------------------------------------------------------
# jsonschema descends into every property by building a new validator (a few microseconds each).
# A *leaf* property schema (a plain ``type``, maybe an ``enum``, and annotations) is checked
# inline instead. The inline check only ever says "valid" when jsonschema would too (exact
# Python types, a narrower test than jsonschema's); anything else goes the standard way, so
# results and error messages are jsonschema's own. Validators are built without a format
# checker, so ``format`` is an annotation here, as in jsonschema's default.

_LEAF_KEYS = frozenset(
    {"type", "enum", "description", "title", "default", "examples", "format", "$comment"}
    | {"deprecated", "readOnly", "writeOnly", "x-qgs-kind"}
)
_EXACT_TYPES: dict[str, tuple[type[Any], ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
    "array": (list,),
    "object": (dict,),
}
_SCALARS = (str, int, float, bool, type(None))


def _leaf_passes(value: Any, schema: Any) -> bool:
    if type(schema) is not dict or not _LEAF_KEYS.issuperset(schema):
        return False
    declared = schema.get("type")
    exact = _EXACT_TYPES.get(declared) if type(declared) is str else None
    if exact is None or type(value) not in exact:
        return False
    enum = schema.get("enum")
    if enum is None:
        return True
    return type(value) in _SCALARS and any(_same(value, option) for option in enum)


_FLAT_TOP_KEYS = frozenset(
    {"type", "properties", "required", "additionalProperties", "description", "title"}
    | {"$schema", "$comment", "examples", "deprecated"}
)
_FLAT_DRAFTS = frozenset(
    {"Draft4Validator", "Draft6Validator", "Draft7Validator"}
    | {"Draft201909Validator", "Draft202012Validator"}
)
"""Drafts where ``required`` is a list beside ``properties`` (Draft 3 put it in each property)."""


_Leaf = tuple[tuple[type[Any], ...], tuple[Any, ...] | None, Any]
"""A compiled leaf: its exact Python types, its enum (or None), its items' leaf (or None)."""


@dataclass(frozen=True, slots=True)
class FlatObject:
    """The inline check of a *flat* parameter schema: an object whose every property is a leaf.

    A leaf is a plain ``type`` (maybe with an ``enum``), or an array whose ``items`` is such a
    leaf. Most tool schemas are flat (54 of the 61 BFCL tools, 61 with arrays of leaves). For
    them a whole call is checked in a loop over its arguments, without entering jsonschema; as
    with the leaf checks, this only ever answers "valid" when jsonschema would, and anything
    else (a wrong type, a value outside the enum, an unknown or missing parameter) goes to
    jsonschema for the verdict and its messages.
    """

    leaves: Mapping[str, _Leaf]
    required: tuple[str, ...]
    closed: bool

    @classmethod
    def of(cls, schema: Mapping[str, Any]) -> FlatObject | None:
        """The flat check of ``schema``, or ``None`` when it is not flat."""
        properties = schema.get("properties", {})
        required = schema.get("required", [])
        additional = schema.get("additionalProperties", True)
        if (
            not _FLAT_TOP_KEYS.issuperset(schema)
            or schema.get("type", "object") != "object"
            or type(properties) is not dict
            or type(required) is not list
            or not all(type(name) is str for name in required)
            or additional not in (True, False)
        ):
            return None
        leaves = {name: _compile_leaf(sub, items_allowed=True) for name, sub in properties.items()}
        if any(leaf is None for leaf in leaves.values()):
            return None
        return cls(leaves=leaves, required=tuple(required), closed=additional is False)  # type: ignore[arg-type]

    def passes(self, arguments: Any) -> bool:
        """Whether ``arguments`` are certainly valid (``False``: ask jsonschema)."""
        if type(arguments) is not dict:
            return False
        leaves = self.leaves
        for name, value in arguments.items():
            leaf = leaves.get(name)
            if leaf is None:
                if self.closed:
                    return False
                continue
            if not _leaf_holds(value, leaf):
                return False
        return all(name in arguments for name in self.required)


def _compile_leaf(schema: Any, *, items_allowed: bool) -> _Leaf | None:
    if type(schema) is not dict or type(schema.get("type")) is not str:
        return None
    declared = schema["type"]
    enum = schema.get("enum")
    items = schema.get("items")
    keys = _LEAF_KEYS | {"items"} if items_allowed and declared == "array" else _LEAF_KEYS
    if declared not in _EXACT_TYPES or not keys.issuperset(schema):
        return None
    if enum is not None and type(enum) is not list:
        return None
    items_leaf = None
    if items is not None:
        items_leaf = _compile_leaf(items, items_allowed=False)
        if items_leaf is None:
            return None
    return (_EXACT_TYPES[declared], None if enum is None else tuple(enum), items_leaf)


def _leaf_holds(value: Any, leaf: _Leaf) -> bool:
    types, enum, items = leaf
    if type(value) not in types:
        return False
    if enum is not None and (
        type(value) not in _SCALARS or not any(_same(value, option) for option in enum)
    ):
        return False
    return items is None or all(_leaf_holds(item, items) for item in value)


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


def _same(left: Any, right: Any) -> bool:
    if isinstance(left, bool) or isinstance(right, bool):
        return left is right
    return bool(left == right)


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


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]
