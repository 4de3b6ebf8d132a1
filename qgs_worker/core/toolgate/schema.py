"""JSON Schema validation of tool arguments: compiled once per tool, two strictness modes.

A tool's schema is checked when the registry loads it (never on the hot path); the draft is the
one the schema declares in ``$schema``, else Draft 2020-12. ``schema_jsonschema.py`` (with
``schema_regex.py``, its RE2 keywords) is the only part of the gate that imports ``jsonschema``,
and it is imported only when a schema or a call needs it: a *plain* schema (a flat object whose
keywords the metaschema accepts by their types alone, ``plainly_valid``: most tools) is checked
here, and a call it certainly accepts (``FlatObject``) is valid without jsonschema, so ``qgs
check-tool`` on such a tool and call never loads it (~40 ms of its start, issue 15).

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
of ``schema_jsonschema`` check *leaf* properties (a plain ``type``, maybe an ``enum``) inline
and fall back to jsonschema for anything else, or whenever the inline check is not sure, so
verdicts and messages stay jsonschema's (a test compares them). A flat schema's valid call is
settled by ``FlatObject``; a nested one's by a validator compiled from the schema with
fastjsonschema (``schema_fast``: only keywords both libraries read alike, never a caller's
pattern, which runs on RE2); either only ever accepts, and a call they do not accept goes to
jsonschema for the verdict and the messages. The validators of a schema are built the first
time a call needs them.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from qgs_worker.core.models import Strictness
from qgs_worker.core.toolgate import schema_cost
from qgs_worker.core.toolgate.schema_leaf import _FLAT_DRAFTS, FlatObject, _as_list
from qgs_worker.errors import ToolDefinitionError

__all__ = [
    "CompiledSchema",
    "FlatObject",
    "Strictness",
    "ToolDefinitionError",
    "compile_schema",
    "plainly_valid",
]

DEFAULT_DRAFT = "Draft202012Validator"
"""The draft of a schema that declares none (``$schema``), as jsonschema names its class."""


@dataclass(frozen=True, slots=True)
class CompiledSchema:
    """A tool's parameter schema, checked, with its validators built when first needed.

    ``draft`` names the JSON Schema draft used (e.g. ``Draft202012Validator``); ``closed`` is
    the schema with its objects closed (the module docstring).
    """

    schema: Mapping[str, Any]
    draft: str
    closed: Mapping[str, Any]
    flat: Mapping[bool, FlatObject | None] = field(default_factory=dict)
    """Per closing, the inline check of a flat schema (``None``: not flat, jsonschema only)."""
    _validators: dict[tuple[Strictness, bool], Any] = field(
        default_factory=dict, repr=False, compare=False
    )
    _fast: dict[bool, Any] = field(default_factory=dict, repr=False, compare=False)
    """Per closing, the compiled accept-only check of a schema that is not flat
    (``schema_fast``; None where it does not apply), built when a call first needs it."""

    @property
    def validators(self) -> Mapping[tuple[Strictness, bool], Any]:
        """The validator of each reading, ``(strictness, closed)``, built when first read."""
        return _Validators(self)

    def validator(self, strictness: Strictness, closed: bool) -> Any:
        """The jsonschema validator of one reading (built now, the first time; imports it)."""
        found = self._validators.get((strictness, closed))
        if found is None:  # two threads may both build it: the same validator, no harm
            from qgs_worker.core.toolgate.schema_jsonschema import build_validator

            found = build_validator(self.closed if closed else self.schema, strictness)
            self._validators[(strictness, closed)] = found
        return found

    def fast_check(self, closed: bool) -> Any:
        """The compiled accept-only check of one closing (``schema_fast``), or None.

        Compiled the first time a call needs it (a few milliseconds; never when the tools are
        registered, so a list of 1,000 tools pays only for the tools called).
        """
        if closed not in self._fast:  # two threads may both compile it: the same check
            from qgs_worker.core.toolgate.schema_fast import compile_fast

            self._fast[closed] = compile_fast(self.closed if closed else self.schema)
        return self._fast[closed]

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
        if flat is not None:
            if flat.passes(arguments):
                return ()  # certainly valid in both modes: lenient only ever accepts more
        else:
            fast = self.fast_check(closed)
            if fast is not None and fast(arguments):
                return ()  # the same: the compiled check never accepts what strict rejects
        from qgs_worker.core.toolgate.schema_jsonschema import error_messages

        return error_messages(self.validator(strictness, closed), arguments, max_errors)


class _Validators(Mapping[tuple[Strictness, bool], Any]):
    """``CompiledSchema.validators``: the four readings, each built when first looked up."""

    __slots__ = ("_compiled",)
    _KEYS = tuple((strictness, closed) for strictness in Strictness for closed in (True, False))

    def __init__(self, compiled: CompiledSchema) -> None:
        self._compiled = compiled

    def __getitem__(self, key: tuple[Strictness, bool]) -> Any:
        if key not in self._KEYS:
            raise KeyError(key)
        return self._compiled.validator(*key)

    def __iter__(self) -> Iterator[tuple[Strictness, bool]]:
        return iter(self._KEYS)

    def __len__(self) -> int:
        return len(self._KEYS)


def compile_schema(schema: Mapping[str, Any], *, tool_name: str) -> CompiledSchema:
    """Check a tool's parameter schema; its validators are built when a call first needs them.

    A plain schema (``plainly_valid``) is checked here; any other by jsonschema against its
    draft's metaschema (``schema_jsonschema.check_schema``), which imports jsonschema.

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
    schema_cost.check_size(schema, tool_name=tool_name)  # before any slower check
    if plainly_valid(schema):
        draft = DEFAULT_DRAFT  # flat: no $ref, no pattern, nothing to cost
    else:
        from qgs_worker.core.toolgate.schema_jsonschema import check_schema

        draft = check_schema(schema, tool_name=tool_name)
        schema_cost.check_cost(schema, tool_name=tool_name)  # no exponential work, no endless cycle
    closed = _close(copy.deepcopy(dict(schema)), closable=True)
    flat = {
        is_closed: FlatObject.of(closed if is_closed else schema) if draft in _FLAT_DRAFTS else None
        for is_closed in (True, False)
    }
    return CompiledSchema(schema=schema, draft=draft, closed=closed, flat=flat)


# --- plain schemas, checked without jsonschema --------------------------------------------------

_STRING_KEYS = frozenset({"description", "title", "format", "$comment"})
_BOOLEAN_KEYS = frozenset({"deprecated", "readOnly", "writeOnly"})
_ARRAY_KEYS = frozenset({"enum", "examples"})


def plainly_valid(schema: Mapping[str, Any]) -> bool:
    """Whether ``schema`` is certainly a valid Draft 2020-12 schema, read without jsonschema.

    True only for a flat object schema (``FlatObject``: every property a plain ``type``, maybe
    an ``enum``, or an array of such) that declares no ``$schema``, whose ``required`` names are
    unique, ``additionalProperties`` a boolean, and annotations of the types the metaschema
    wants (``description`` a string, ``examples`` an array, ``deprecated`` a boolean...). Such a
    schema has no ``$ref`` and no ``pattern``. False means "ask jsonschema", never "invalid"
    (``tests/unit/test_toolgate_schema_plain.py`` checks the claim against jsonschema's own).
    """
    if type(schema) is not dict or "$schema" in schema or FlatObject.of(schema) is None:
        return False
    required = schema.get("required", [])
    if len(set(required)) != len(required):
        return False
    if "additionalProperties" in schema and type(schema["additionalProperties"]) is not bool:
        return False
    if not _annotations_typed(schema):
        return False
    for leaf in schema.get("properties", {}).values():
        if not _annotations_typed(leaf):
            return False
        items = leaf.get("items")
        if items is not None and not _annotations_typed(items):
            return False
    return True


def _annotations_typed(schema: Mapping[str, Any]) -> bool:
    for key, value in schema.items():
        if key in _STRING_KEYS and type(value) is not str:
            return False
        if key in _BOOLEAN_KEYS and type(value) is not bool:
            return False
        if key in _ARRAY_KEYS and type(value) is not list:
            return False
    return True


# --- closing objects -------------------------------------------------------------------------

_OPENERS = ("additionalProperties", "patternProperties", "unevaluatedProperties")
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


# --- the fast path ---------------------------------------------------------------------------
