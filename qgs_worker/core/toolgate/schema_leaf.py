"""The inline checks of a tool's parameters: a *leaf* schema, and a *flat* object of leaves.

Used by ``schema`` (a whole flat call checked in one loop) and by ``schema_jsonschema``'s keyword
classes (a leaf property checked without building a validator); both import this, never each
other's internals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["FlatObject"]


# jsonschema descends into every property by building a new validator (a few microseconds each).
# A *leaf* property schema (a plain ``type``, maybe an ``enum``, and annotations) is checked
# inline instead (here, and by ``schema_jsonschema``'s keyword classes). The inline check only
# ever says "valid" when jsonschema would too (exact Python types, a narrower test than
# jsonschema's); anything else goes the standard way, so results and error messages are
# jsonschema's own. Validators are built without a format checker, so ``format`` is an
# annotation here, as in jsonschema's default.

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


def _same(left: Any, right: Any) -> bool:
    if isinstance(left, bool) or isinstance(right, bool):
        return left is right
    return bool(left == right)


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]
