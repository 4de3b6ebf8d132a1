"""A tool's parameter schema cannot make the gate's validator do unbounded work.

Break test of issue 13: a 3 KB ``tools`` list whose ``$defs`` each apply the previous one twice
pinned a core of the API for ever (2**40 subschema applications); a ``$ref`` cycle on one value
never ends. Both are refused when the tool loads, naming the tool; real schemas load unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from qgs_worker.core.toolgate.registry import ToolRegistry
from qgs_worker.core.toolgate.schema import compile_schema
from qgs_worker.core.toolgate.schema_cost import (
    MAX_APPLIED_PER_VALUE,
    MAX_SUBSCHEMAS,
    check_cost,
    count_subschemas,
)
from qgs_worker.errors import ToolDefinitionError
from tests.conftest import AGENTDOJO_HELD_BACK, CORPUS


def doubling(levels: int, *, through_properties: bool = False) -> dict[str, Any]:
    """d_i applies d_(i-1) twice to one value: 2**levels applications of d_0."""
    defs: dict[str, Any] = {"d0": {"type": "string"}}
    for i in range(1, levels + 1):
        ref = {"$ref": f"#/$defs/d{i - 1}"}
        branch = {"properties": {"x": ref}} if through_properties else ref
        defs[f"d{i}"] = {"allOf": [branch, branch]}
    return {"type": "object", "$defs": defs, "properties": {"x": {"$ref": f"#/$defs/d{levels}"}}}


class TestBombsAreRefused:
    """Exponential and endless schemas fail to load, with the tool's name and the fix."""

    @pytest.mark.parametrize("through_properties", [False, True])
    def test_doubling_refs(self, through_properties: bool) -> None:
        with pytest.raises(ToolDefinitionError, match=r"tool 'bomb': parameters apply more than"):
            compile_schema(doubling(40, through_properties=through_properties), tool_name="bomb")

    def test_the_break_tests_tools_list(self) -> None:
        tool = {"type": "function", "function": {"name": "bomb", "parameters": doubling(40)}}
        with pytest.raises(ToolDefinitionError, match="'bomb'"):
            ToolRegistry.from_openai([tool])

    def test_a_recursion_that_applies_itself_twice_to_one_member(self) -> None:
        twice = {"type": "object", "allOf": [{"properties": {"a": {"$ref": "#"}}}] * 2}
        with pytest.raises(ToolDefinitionError, match="apply more than"):
            check_cost(twice, tool_name="t")

    @pytest.mark.parametrize(
        "schema",
        [
            {"type": "object", "anyOf": [{"$ref": "#"}]},
            {"type": "object", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"not": {"$ref": "#/$defs/a"}}},
             "properties": {"x": {"$ref": "#/$defs/a"}}},
        ],
    )  # fmt: skip
    def test_a_cycle_on_one_value(self, schema: dict[str, Any]) -> None:
        with pytest.raises(ToolDefinitionError, match="cycle that never descends"):
            compile_schema(schema, tool_name="t")

    def test_too_many_subschemas(self) -> None:
        wide = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(600)}}
        with pytest.raises(ToolDefinitionError, match=f"more than {MAX_SUBSCHEMAS} subschemas"):
            compile_schema(wide, tool_name="wide")


class TestRealSchemasLoad:
    """What a validator does linear work on loads, with its count."""

    @pytest.mark.parametrize(
        ("schema", "count"),
        [
            ({"type": "object", "properties": {"command": {"type": "string"}}}, 1),
            # a tree: once per level, whatever the depth
            ({"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#"}}}}, 2),
            # a binary tree: two members, each once
            ({"type": "object", "properties": {"left": {"$ref": "#"}, "right": {"$ref": "#"}}}, 2),
            (doubling(5), 2**7 - 2),  # every $ref counts too
            # anchors, $id bases and draft-07 definitions resolve as jsonschema resolves them
            ({"$id": "https://example.com/s", "type": "object",
              "$defs": {"n": {"$anchor": "node", "type": "string"}},
              "properties": {"x": {"$ref": "#node"}, "y": {"$ref": "#/$defs/n"}}}, 2),
            ({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
              "definitions": {"a": {"type": "string"}}, "properties": {"x": {"$ref": "#/definitions/a"}}}, 2),
        ],
    )  # fmt: skip
    def test_count(self, schema: dict[str, Any], count: int) -> None:
        assert count == check_cost(schema, tool_name="t")
        compile_schema(schema, tool_name="t")

    def test_corpus_schemas(self) -> None:
        path = Path(CORPUS) / "extra_agentdojo_tools_openai.json"
        if not path.exists():
            pytest.skip(f"{path} is missing")
        suites = json.loads(path.read_text(encoding="utf-8"))
        schemas = [
            t["function"]["parameters"]
            for suite, tools in suites.items()
            if suite not in AGENTDOJO_HELD_BACK  # travel, workspace: held back
            for t in tools
        ]
        counts = [check_cost(s, tool_name="t") for s in schemas]
        assert 22 == len(counts) and max(counts) < MAX_APPLIED_PER_VALUE // 100


def test_count_subschemas_stops_past_the_limit() -> None:
    huge = {"properties": {f"p{i}": {"type": "string"} for i in range(100_000)}}
    assert 11 == count_subschemas(huge, 10)
    assert 3 == count_subschemas({"a": {"b": {}}, "enum": [{"x": 1}]}, 10)
