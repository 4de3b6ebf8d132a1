"""Plain tool schemas are checked without jsonschema, with jsonschema's verdicts (issue 15).

``schema.plainly_valid`` only ever says a schema is valid when jsonschema's metaschema check
agrees; a schema compiled by the plain path gives the same errors for any arguments as one
compiled by jsonschema's; and a plain tool with a valid call never imports jsonschema.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

from qgs_worker.core.models import Strictness
from qgs_worker.core.toolgate import schema
from qgs_worker.core.toolgate.schema import compile_schema, plainly_valid

ROOT = Path(__file__).resolve().parents[2]

values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 2)
    | st.floats(allow_nan=False)
    | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=2)
    ),
    max_leaves=5,
)
TYPES = ["string", "integer", "number", "boolean", "null", "array", "object", "strin", 3]


def mostly(good: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``good`` nine times in ten, any JSON value the tenth (a wrong type, often)."""
    return st.integers(0, 9).flatmap(lambda n: good if n else values)


annotations = st.fixed_dictionaries(
    {},
    optional={
        "description": mostly(st.text(max_size=3)),
        "title": mostly(st.text(max_size=3)),
        "format": mostly(st.sampled_from(["date", "uri"])),
        "$comment": mostly(st.text(max_size=3)),
        "default": values,
        "examples": mostly(st.lists(values, max_size=2)),
        "deprecated": mostly(st.booleans()),
        "readOnly": mostly(st.booleans()),
        "writeOnly": mostly(st.booleans()),
        "x-qgs-kind": values,
    },
)


@st.composite
def leaves(draw: st.DrawFn, *, items: bool = True) -> dict[str, Any]:
    leaf = dict(draw(annotations))
    leaf["type"] = draw(st.sampled_from(TYPES))
    if draw(st.booleans()):
        leaf["enum"] = draw(mostly(st.lists(values, max_size=3)))
    if items and leaf["type"] == "array" and draw(st.booleans()):
        leaf["items"] = draw(leaves(items=False))
    return leaf


@st.composite
def schemas(draw: st.DrawFn) -> dict[str, Any]:
    names = st.sampled_from(["a", "b", "c", "$ref", "pattern"])
    found: dict[str, Any] = {
        key: value
        for key, value in draw(annotations).items()
        if key in ("description", "title", "$comment", "examples", "deprecated")
    }
    if draw(st.booleans()):
        found["type"] = draw(st.sampled_from(["object", "array"]))
    found["properties"] = draw(st.dictionaries(names, leaves(), max_size=3))
    if draw(st.booleans()):
        found["required"] = draw(mostly(st.lists(names, max_size=3)))
    if draw(st.booleans()):
        found["additionalProperties"] = draw(st.sampled_from([True, False, 1, 0, {}]))
    if draw(st.integers(0, 9)) == 0:
        found["$schema"] = "http://json-schema.org/draft-07/schema#"
    return found


def metaschema_valid(candidate: dict[str, Any]) -> bool:
    validator = jsonschema.validators.validator_for(
        candidate, default=jsonschema.Draft202012Validator
    )
    try:
        validator.check_schema(candidate)
    except jsonschema.SchemaError:
        return False
    return True


class TestPlainlyValid:
    """The plain check never accepts what jsonschema refuses, and reads most tools as plain."""

    @settings(max_examples=1500, deadline=None)
    @given(schemas())
    def test_never_more_than_jsonschema(self, candidate: dict[str, Any]) -> None:
        if plainly_valid(candidate):
            assert metaschema_valid(candidate), candidate

    def test_the_common_shapes_are_plain(self) -> None:
        assert plainly_valid(
            {
                "type": "object",
                "description": "Send a message.",
                "properties": {
                    "to": {"type": "string", "description": "who"},
                    "unit": {"type": "string", "enum": ["c", "f"], "default": "c"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["to"],
            }
        )
        assert not plainly_valid(
            {"type": "object", "properties": {"x": {"type": "string"}}, "$schema": "x"}
        )
        assert not plainly_valid({"type": "object", "properties": {"x": {"$ref": "#/$defs/y"}}})


arguments = st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), values, max_size=4)


class TestSameErrors:
    """A schema read by the plain path gives jsonschema's errors, in both strictness modes."""

    @settings(max_examples=400, deadline=None)
    @given(schemas(), arguments)
    def test_same_as_jsonschema_compiled(self, candidate: dict[str, Any], given_args: Any) -> None:
        if not plainly_valid(candidate) or not metaschema_valid(candidate):
            return
        plain = compile_schema(candidate, tool_name="t")
        from qgs_worker.core.toolgate.schema_jsonschema import check_schema

        assert plain.draft == check_schema(candidate, tool_name="t")
        for strictness in Strictness:
            for closed in (True, False):
                expected = _jsonschema_errors(candidate, given_args, strictness, closed)
                assert expected == plain.errors(given_args, strictness, closed=closed)


def _jsonschema_errors(
    candidate: dict[str, Any], given_args: Any, strictness: Strictness, closed: bool
) -> tuple[str, ...]:
    """The errors with the inline check off: every call goes to jsonschema's validators."""
    compiled = dataclasses.replace(compile_schema(candidate, tool_name="t"), flat={})
    return compiled.errors(given_args, strictness, closed=closed)


RUN = """
import json, sys
from qgs_worker.core.models import Strictness
from qgs_worker.core.toolgate import ToolRegistry
spec = ToolRegistry.from_openai(json.loads(sys.argv[1])).get("f")
found = [spec.compiled.errors({"x": "a"}, s) for s in Strictness]
print(json.dumps([found, "jsonschema" in sys.modules]))
"""


def test_a_plain_tool_and_a_valid_call_never_import_jsonschema() -> None:
    tools = [
        {
            "type": "function",
            "function": {
                "name": "f",
                "parameters": {"type": "object", "properties": {"x": {"type": "string"}}},
            },
        }
    ]
    done = subprocess.run(
        [sys.executable, "-c", RUN, json.dumps(tools)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    assert [[[], []], False] == json.loads(done.stdout)
    assert schema.DEFAULT_DRAFT == "Draft202012Validator"
