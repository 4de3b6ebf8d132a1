"""How much work a tool's parameter schema can make a validator do on one value: bounded at load.

A JSON Schema of a few KB can make a validator do exponential work: ``$defs`` where each
definition applies the previous one twice (``{"allOf": [{"$ref": "#/$defs/d3"}, {"$ref":
"#/$defs/d3"}]}``) doubles the work at each level, so 40 levels pin a core for ever (break test
of issue 13: a 3 KB ``tools`` list sent to ``POST /v1/tool-calls/check``). A ``$ref`` cycle that
never descends into the arguments (``{"anyOf": [{"$ref": "#"}]}``) never ends at all.

``check_cost`` follows the schema as a validator applies it: to a value, the subschemas of
``$ref``, ``$dynamicRef``, ``allOf``, ``anyOf``, ``oneOf``, ``not``, ``if``/``then``/``else``,
``dependentSchemas`` and ``dependencies`` apply to that same value (refs resolved with
``referencing``, as jsonschema resolves them: JSON pointers, anchors, ``$id`` bases); the
others apply to one member: ``properties[name]`` and every ``patternProperties`` schema to the
property ``name``, ``additionalProperties``/``unevaluatedProperties`` (and the patterns) to any
other property, ``propertyNames`` to the names, and ``items``, ``prefixItems``,
``additionalItems``, ``unevaluatedItems`` and ``contains`` to an item (all of them to every item:
an over-count, never an under-count). For every member path down to ``UNROLL_DEPTH`` levels it
counts the subschemas applied to *one* value there, and refuses the schema when that count is
over ``MAX_APPLIED_PER_VALUE`` or a cycle stays on one value.

So what loads costs at most ``MAX_APPLIED_PER_VALUE`` applications per node of the arguments:
linear in their size. A recursive schema that applies itself once per member (a tree:
``items: {"$ref": "#"}``, or ``left``/``right`` both ``{"$ref": "#"}``) repeats the same count at
every level and loads; one that applies itself twice to one member doubles per level and is
over the bound long before ``UNROLL_DEPTH`` (2**20) levels.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from qgs_worker.errors import ToolDefinitionError

__all__ = [
    "DATA_KEYS",
    "MAX_ANALYSED_STATES",
    "MAX_APPLIED_PER_VALUE",
    "MAX_SUBSCHEMAS",
    "UNROLL_DEPTH",
    "check_cost",
    "check_size",
    "count_subschemas",
]

MAX_SUBSCHEMAS = 500
"""The most subschemas (JSON objects and booleans in schema position) one tool's parameters
may hold. The largest real tool schema in the shared corpus (BFCL, AgentDojo) holds 18; an MCP
server's richest tools a few hundred. jsonschema checks a schema against its draft's metaschema
at about 0.5 ms a subschema, so the bound keeps loading one tool under a quarter of a second."""

MAX_APPLIED_PER_VALUE = 5_000
"""The most subschemas a tool's schema may apply to one value of the arguments, refs followed.

The real tool schemas in the shared corpus (BFCL, AgentDojo, MCP servers' tools) apply a few to a
few dozen; a validator spends about a microsecond a subschema, so the bound keeps one value's
check within milliseconds whatever the schema."""

UNROLL_DEPTH = 20
"""Member levels followed: a schema that doubles its work per level is over the bound by then."""

MAX_ANALYSED_STATES = 20_000
"""The most (subschemas, level) states the analysis itself visits before it gives up (refuses)."""

_SAME_VALUE_ONE = ("not", "if", "then", "else")
_SAME_VALUE_EACH = ("allOf", "anyOf", "oneOf")
_SAME_VALUE_MAP = ("dependentSchemas", "dependencies")
_REFS = ("$ref", "$dynamicRef")
_ITEM_ONE = ("items", "additionalItems", "unevaluatedItems", "contains")
_OTHER_PROPERTY = ("additionalProperties", "unevaluatedProperties")
_ITEM, _OTHER, _NAMES = ("item",), ("other",), ("names",)

_Selector = tuple[str, ...]
_Applied = Counter[int]  # subschema id -> how many times it applies to one value


class _OverBudgetError(Exception):
    pass


class _Analysis:
    """One schema's analysis; subschemas are keyed by ``id()`` and kept alive in ``nodes``."""

    def __init__(self, tool_name: str, specification: Any, unresolvable: type[Exception]) -> None:
        self.tool_name = tool_name
        self.specification = specification
        self.unresolvable = unresolvable
        self.nodes: dict[int, tuple[Any, Any]] = {}  # id -> (subschema, its resolver)
        self.local: dict[int, tuple[int, dict[_Selector, _Applied]]] = {}
        self.peaks: dict[tuple[frozenset[tuple[int, int]], int], int] = {}
        self.single: dict[tuple[int, int], int] = {}

    def add(self, node: Any, resolver: Any) -> int:
        if isinstance(node, Mapping) and isinstance(node.get("$id"), str):
            resolver = resolver.in_subresource(self.specification.create_resource(node))
        self.nodes.setdefault(id(node), (node, resolver))
        return id(node)

    def on_one_value(
        self, key: int, opened: frozenset[int] = frozenset()
    ) -> tuple[int, dict[_Selector, _Applied]]:
        """The subschemas ``key`` applies to its value (itself included), and by member."""
        if key in self.local:
            return self.local[key]
        if key in opened:
            raise ToolDefinitionError(
                f"tool {self.tool_name!r}: parameters have a $ref cycle that never descends into "
                "the arguments (a validator would never finish); make the recursion go through "
                "'properties' or 'items'"
            )
        node, resolver = self.nodes[key]
        count = 1
        members: dict[_Selector, _Applied] = {}
        if isinstance(node, Mapping):
            inner = opened | {key}
            for sub in self._same_value(node, resolver):
                sub_count, sub_members = self.on_one_value(sub, inner)
                count += sub_count
                _merge(members, sub_members, 1)
                if count > MAX_APPLIED_PER_VALUE:
                    raise _OverBudgetError
            _merge(members, self._members(node, resolver), 1)
        self.local[key] = (count, members)
        return count, members

    def _same_value(self, node: Mapping[str, Any], resolver: Any) -> list[int]:
        found = []
        for name, value in node.items():
            if name in _REFS and isinstance(value, str):
                try:
                    resolved = resolver.lookup(value)
                except self.unresolvable:
                    continue  # the validator reports it when a call is checked
                found.append(self.add(resolved.contents, resolved.resolver))
            elif name in _SAME_VALUE_ONE:
                found.append(self.add(value, resolver))
            elif name in _SAME_VALUE_EACH and isinstance(value, list):
                found.extend(self.add(sub, resolver) for sub in value)
            elif name in _SAME_VALUE_MAP and isinstance(value, Mapping):
                found.extend(
                    self.add(sub, resolver) for sub in value.values() if not isinstance(sub, list)
                )
        return found

    def _members(self, node: Mapping[str, Any], resolver: Any) -> dict[_Selector, _Applied]:
        members: dict[_Selector, _Applied] = {}
        patterns = node.get("patternProperties")
        pattern_ids = (
            [self.add(sub, resolver) for sub in patterns.values()]
            if isinstance(patterns, Mapping)
            else []
        )
        properties = node.get("properties")
        if isinstance(properties, Mapping):
            for name, sub in properties.items():
                members[("property", name)] = Counter([self.add(sub, resolver), *pattern_ids])
        other = [self.add(node[k], resolver) for k in _OTHER_PROPERTY if k in node]
        if other or pattern_ids:
            members[_OTHER] = Counter([*other, *pattern_ids])
        if "propertyNames" in node:
            members[_NAMES] = Counter([self.add(node["propertyNames"], resolver)])
        items = [
            self.add(node[k], resolver)
            for k in _ITEM_ONE
            if k in node and not isinstance(node[k], list)
        ]
        for k in ("prefixItems", "items"):
            if isinstance(node.get(k), list):
                items.extend(self.add(sub, resolver) for sub in node[k])
        if items:
            members[_ITEM] = Counter(items)
        return members

    def peak(self, applied: _Applied, depth: int) -> int:
        """The most subschemas applied to one value at or below this one (``depth`` levels)."""
        if len(applied) == 1:  # one subschema, the usual case (a property's own schema)
            ((key, times),) = applied.items()
            peak = times * self._peak_one(key, depth)
            if peak > MAX_APPLIED_PER_VALUE:  # applied twice, each doing the work of one
                raise _OverBudgetError
            return peak
        state = (frozenset(applied.items()), depth)
        if state in self.peaks:
            return self.peaks[state]
        here = 0
        members: dict[_Selector, _Applied] = {}
        for key, times in applied.items():
            count, below = self.on_one_value(key)
            here += times * count
            _merge(members, below, times)
        self.peaks[state] = self._deepest(here, members, depth)
        return self.peaks[state]

    def _peak_one(self, key: int, depth: int) -> int:
        state = (key, depth)
        if state in self.single:
            return self.single[state]
        count, members = self.on_one_value(key)
        self.single[state] = self._deepest(count, members, depth)
        return self.single[state]

    def _deepest(self, here: int, members: dict[_Selector, _Applied], depth: int) -> int:
        if here > MAX_APPLIED_PER_VALUE:
            raise _OverBudgetError
        if len(self.peaks) + len(self.single) >= MAX_ANALYSED_STATES:
            raise _OverBudgetError
        result = here
        if depth > 0:
            for below in members.values():
                result = max(result, self.peak(below, depth - 1))
        return result


DATA_KEYS = frozenset({"const", "enum", "default", "examples"})
"""Keywords whose values are data, not schemas (a ``$ref`` inside one is a string)."""


def count_subschemas(schema: Any, limit: int) -> int:
    """How many JSON objects the schema holds outside data keywords, counting at most past ``limit``.

    Args:
        schema: A JSON Schema (or several, as a list).
        limit: Stop once the count is over this: the caller only needs to know it is.

    Returns:
        The count, or ``limit + 1`` once it is over ``limit``.
    """
    count, stack = 0, [schema]
    while stack and count <= limit:
        node = stack.pop()
        if isinstance(node, Mapping):
            count += 1
            stack.extend(v for k, v in node.items() if k not in DATA_KEYS)
        elif isinstance(node, list):
            stack.extend(node)
    return count


def check_size(schema: Mapping[str, Any], *, tool_name: str) -> None:
    """Refuse parameters holding more than ``MAX_SUBSCHEMAS`` subschemas, before any other check.

    Raises:
        ToolDefinitionError: over the bound; the message names the tool and the bound.
    """
    if count_subschemas(schema, MAX_SUBSCHEMAS) > MAX_SUBSCHEMAS:
        raise ToolDefinitionError(
            f"tool {tool_name!r}: parameters hold more than {MAX_SUBSCHEMAS} subschemas; describe "
            "the arguments the model fills in, and move the rest into the tool's own validation"
        )


def _merge(into: dict[_Selector, _Applied], more: Mapping[_Selector, _Applied], times: int) -> None:
    for selector, applied in more.items():
        target = into.setdefault(selector, Counter())
        for key, count in applied.items():
            target[key] += count * times


def check_cost(schema: Mapping[str, Any], *, tool_name: str) -> int:
    """The most subschemas the schema applies to one value of the arguments; refuse a bomb.

    Args:
        schema: The tool's parameter schema, already checked against its draft's metaschema,
            with no ``$ref`` outside itself; its ``$schema`` names the draft (2020-12 if none).
        tool_name: The tool's name, for the error message.

    Returns:
        That count, at most ``MAX_APPLIED_PER_VALUE``.

    Raises:
        ToolDefinitionError: the count is over ``MAX_APPLIED_PER_VALUE`` (a definition applied
            more than once to one value, nested), the analysis needs over
            ``MAX_ANALYSED_STATES`` states, or a ``$ref`` cycle stays on one value.
    """
    # jsonschema's own $ref machinery, imported here: a plain schema loads without it
    import referencing
    import referencing.exceptions
    import referencing.jsonschema

    specification = referencing.jsonschema.specification_with(
        str(schema.get("$schema", "")), default=referencing.jsonschema.DRAFT202012
    )
    root = specification.create_resource(schema)
    uri = root.id() or "urn:qgs:tool-parameters"
    # crawl(): the subresources with an $id of their own and the anchors, as jsonschema finds them
    registry = referencing.Registry().with_resource(uri, root).crawl()
    analysis = _Analysis(tool_name, specification, referencing.exceptions.Unresolvable)
    start = analysis.add(schema, registry.resolver(base_uri=uri))
    try:
        return analysis.peak(Counter([start]), UNROLL_DEPTH)
    except RecursionError:
        raise ToolDefinitionError(
            f"tool {tool_name!r}: parameters nest subschemas too deeply to analyse; flatten the "
            "schema"
        ) from None
    except _OverBudgetError:
        raise ToolDefinitionError(
            f"tool {tool_name!r}: parameters apply more than {MAX_APPLIED_PER_VALUE:,} subschemas "
            "to one value once their $refs are followed (a definition applied more than once to "
            "one value, nested, doubles the work at each level); apply each definition once per "
            "value, or flatten the schema"
        ) from None
