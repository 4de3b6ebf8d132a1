"""Nested tool schemas compiled once (issue 31, item 5): fast to accept, jsonschema's to refuse."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qgs_worker.core.models import Strictness
from qgs_worker.core.toolgate import ToolRegistry, schema_jsonschema
from qgs_worker.core.toolgate.schema import CompiledSchema
from qgs_worker.core.toolgate.schema_fast import compile_fast, fast_safe

SEND = {
    "type": "object",
    "properties": {
        "to": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "email": {"type": "string"}},
                "required": ["email"],
            },
        },
        "subject": {"type": "string", "maxLength": 20},
        "priority": {"type": ["integer", "null"], "minimum": 0, "maximum": 5, "default": "N/A"},
        "mode": {"enum": ["draft", "send"]},
        "options": {
            "type": "object",
            "properties": {"cc": {"type": "boolean"}, "ratio": {"type": "number"}},
            "additionalProperties": False,
        },
        "tags": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
    },
    "required": ["to", "subject"],
}
"""A nested schema (not flat): before issue 31 every call of it went through jsonschema."""

VALID = {
    "to": [{"name": "Ann", "email": "ann@example.org"}, {"email": "bo@example.org"}],
    "subject": "hello",
    "priority": 2,
    "mode": "send",
    "options": {"cc": True, "ratio": 0.5},
    "tags": ["a", "b"],
}


def compiled(schema: dict[str, Any]) -> CompiledSchema:
    tools = [{"type": "function", "function": {"name": "send", "parameters": schema}}]
    spec = ToolRegistry.from_openai(tools).get("send")
    assert spec is not None
    return spec.compiled


def jsonschema_alone(schema: CompiledSchema, arguments: Any, strictness: Strictness) -> tuple[str, ...]:
    """What ``errors`` answered before: jsonschema decides everything."""
    return schema_jsonschema.error_messages(schema.validator(strictness, True), arguments, 10)


class TestAccepted:
    """A valid call of a nested schema is settled without jsonschema."""

    def test_a_valid_call_never_reaches_jsonschema(self, monkeypatch: pytest.MonkeyPatch) -> None:
        schema = compiled(SEND)
        assert schema.flat.get(True) is None  # nested: the inline check does not apply

        def not_called(*_: object) -> tuple[str, ...]:
            raise AssertionError("jsonschema was asked about a valid call")

        monkeypatch.setattr(schema_jsonschema, "error_messages", not_called)
        for strictness in Strictness:
            assert () == schema.errors(VALID, strictness)

    def test_defaults_are_never_written_into_the_arguments(self) -> None:
        arguments = {"to": [{"email": "a@b"}], "subject": "x"}
        before = copy.deepcopy(arguments)
        assert () == compiled(SEND).errors(arguments, Strictness.STRICT)
        assert before == arguments


class TestRefused:
    """A call the compiled check does not accept gets jsonschema's verdict and messages."""

    @pytest.mark.parametrize(
        "arguments",
        [
            {**VALID, "to": []},
            {**VALID, "to": [{"name": "no email"}]},
            {**VALID, "priority": True},
            {**VALID, "priority": 9},
            {**VALID, "priority": "N/A"},  # the declared default: lenient accepts it
            {**VALID, "mode": "Send"},  # case: lenient accepts it
            {**VALID, "options": {"cc": 1}},
            {**VALID, "extra": 1},
            {**VALID, "to": ({"email": "a@b"},)},  # a tuple is no JSON array
            {"subject": "x" * 30},
        ],
    )
    def test_the_same_answer_as_jsonschema_alone(self, arguments: dict[str, Any]) -> None:
        schema = compiled(SEND)
        for strictness in Strictness:
            assert jsonschema_alone(schema, arguments, strictness) == schema.errors(
                arguments, strictness
            )

    def test_a_tuple_is_not_accepted_as_an_array(self) -> None:
        fast = compile_fast({"type": "object", "properties": {"x": {"type": "array"}}})
        assert fast is not None
        assert fast({"x": []}) and not fast({"x": ()})


class TestNotCompiled:
    """Keywords read differently (or caller patterns, which run on RE2) keep jsonschema's path."""

    @pytest.mark.parametrize(
        "sub",
        [
            {"type": "string", "pattern": "^a+$"},
            {"type": "object", "patternProperties": {"^x": {"type": "string"}}},
            {"type": "string", "format": "email"},
            {"not": {"type": "integer"}},
            {"oneOf": [{"type": "integer"}, {"type": "number"}]},
            {"enum": [1, 2]},
            {"const": "a"},
            {"type": "array", "uniqueItems": True},
            {"$ref": "#/$defs/a"},
        ],
    )
    def test_left_to_jsonschema(self, sub: dict[str, Any]) -> None:
        schema = {"type": "object", "properties": {"x": sub}}
        assert not fast_safe(schema)
        assert compile_fast(schema) is None


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.floats(-2, 9, allow_nan=False)
    | st.sampled_from(["", "a", "draft", "send", "a@b", "x" * 25]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(
        st.sampled_from(["name", "email", "cc", "ratio", "to", "other"]), inner, max_size=3
    ),
    max_leaves=8,
)
_ARGUMENTS = st.fixed_dictionaries(
    {},
    optional={
        "to": st.lists(
            st.fixed_dictionaries({}, optional={"name": _JSON, "email": _JSON, "x": _JSON}),
            max_size=3,
        )
        | _JSON,
        "subject": _JSON,
        "priority": _JSON,
        "mode": _JSON,
        "options": st.fixed_dictionaries({}, optional={"cc": _JSON, "ratio": _JSON}) | _JSON,
        "tags": _JSON,
        "extra": _JSON,
    },
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(arguments=_ARGUMENTS)
def test_never_looser_than_jsonschema(arguments: dict[str, Any]) -> None:
    """Whatever the arguments, the answer is jsonschema's own, in both readings."""
    schema = compiled(SEND)
    for strictness in Strictness:
        assert jsonschema_alone(schema, arguments, strictness) == schema.errors(
            arguments, strictness
        )
