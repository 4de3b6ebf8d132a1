"""Layers 1-3 and the gate that runs them: FAIL stops, WARN never blocks, layers plug in."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qgs_worker.core.toolgate import (
    DEFAULT_LAYERS,
    CallShape,
    CheckContext,
    GateSettings,
    LayerResult,
    LayerStatus,
    ParsedCall,
    Strictness,
    ToolGate,
    ToolRegistry,
    ToolSpec,
    layer1_format,
    layer2_existence,
    layer3_parameters,
    parse_call,
)
from qgs_worker.core.toolgate.schema import compile_schema
from qgs_worker.errors import ConfigurationError

WEATHER = {
    "type": "object",
    "properties": {
        "location": {
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["city"],
        },
        "days": {"type": "integer", "default": "dontcare"},
        "smoking": {"type": "string", "enum": ["True", "False", "dontcare"]},
        "genre": {"type": "string", "enum": ["Horror", "Drama"]},
        "metrics": {"type": "array", "items": {"type": "string"}, "enum": ["co2", "noise"]},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["location"],
}
REGISTRY = ToolRegistry(
    [
        ToolSpec.define("get_weather", WEATHER),
        ToolSpec.define("concert_search", {"type": "object", "properties": {}}),
        ToolSpec.define(
            "open_tool", {"type": "object", "properties": {}, "additionalProperties": True}
        ),
    ]
)
LENIENT = CheckContext(REGISTRY, GateSettings())
STRICT = CheckContext(REGISTRY, GateSettings(strictness=Strictness.STRICT))


def openai(name: str = "get_weather", arguments: Any = None, **extra: Any) -> dict[str, Any]:
    raw = json.dumps({"location": {"city": "Paris"}}) if arguments is None else arguments
    return {
        "id": "call_1",
        "type": "function",
        "function": {"name": name, "arguments": raw},
        **extra,
    }


def args(**arguments: Any) -> str:
    return json.dumps({"location": {"city": "Paris"}, **arguments})


class TestFormat:
    """Layer 1: FAIL for what cannot be matched, routed or read; WARN for style."""

    @pytest.mark.parametrize(
        ("call", "needle"),
        [
            ({"type": "function", "function": {"name": "f", "arguments": "{}"}}, "id: missing"),
            (openai(id=""), "id: empty"),
            (openai(id=5), "id: must be a string (got 5)"),
            (openai(id="call_\n1"), "control characters"),
            (openai(type="func"), "type: must be 'function' (got 'func')"),
            (openai(name=""), "function.name: empty"),
            (openai(name="get weather"), "'get weather' is not a tool name"),
            (openai(name="x" * 65), "at most 64"),
            (
                {"id": "call_1", "type": "function", "function": {"arguments": "{}"}},
                "function.name: missing",
            ),
            (openai(arguments="{bad"), "function.arguments: not valid JSON"),
            (openai(arguments={"a": 1}), "must be a JSON string (got an object)"),
            (
                {"type": "tool_use", "id": "toolu_1", "name": None, "input": {}},
                "name: must be a string",
            ),
            (
                {"jsonrpc": "1.0", "id": 1, "method": "tools/call", "params": {"name": "f"}},
                "jsonrpc: must be '2.0'",
            ),
            (
                {"jsonrpc": "2.0", "id": True, "method": "tools/call", "params": {"name": "f"}},
                "must be a string or an integer",
            ),
            ({"name": "f", "arguments": {}, "x": 1}, "not a tool call of a known shape"),
        ],
    )
    def test_fail(self, call: dict[str, Any], needle: str) -> None:
        result = layer1_format.check(parse_call(call), None, LENIENT)
        assert LayerStatus.FAIL == result.status
        assert any(needle in error for error in result.errors), result.errors

    def test_all_problems_are_reported(self) -> None:
        call = {"type": "func", "function": {"name": "", "arguments": "{"}}
        assert 4 == len(layer1_format.check(parse_call(call), None, LENIENT).errors)

    @pytest.mark.parametrize(
        ("call", "needle"),
        [
            (openai(id="abc123"), "not in the openai style (call_...)"),
            # QGS's shape without an id, as a round takes it: checked, the id only a warning
            ({"name": "f", "arguments": {}}, "id: missing (a result cannot be matched"),
            (
                {"type": "tool_use", "id": "call_1", "name": "f", "input": {}},
                "anthropic style (toolu_...)",
            ),
            (openai(id="call 1"), "characters outside"),
            (openai(name="getWeather"), "'getWeather' is not snake_case"),
            (openai(name="weather.get"), "not snake_case"),
            ({"id": "call_1", "function": {"name": "f", "arguments": "{}"}}, "type: missing"),
        ],
    )
    def test_warn(self, call: dict[str, Any], needle: str) -> None:
        result = layer1_format.check(parse_call(call), None, LENIENT)
        assert LayerStatus.WARN == result.status
        assert any(needle in warning for warning in result.warnings), result.warnings

    @pytest.mark.parametrize(
        "call",
        [
            openai(),
            {"type": "tool_use", "id": "toolu_01A", "name": "get_weather", "input": {}},
            {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "get_weather"}},
            {
                "jsonrpc": "2.0",
                "id": "r-1",
                "method": "tools/call",
                "params": {"name": "a.b-c_d" * 10},
            },
        ],
    )
    def test_pass(self, call: dict[str, Any]) -> None:
        assert () == layer1_format.check(parse_call(call), None, LENIENT).errors


class TestExistence:
    """Layer 2: registered and enabled, with did-you-mean."""

    def check(self, name: str, registry: ToolRegistry = REGISTRY) -> LayerResult:
        call = parse_call(openai(name))
        return layer2_existence.check(
            call, registry.get(name), CheckContext(registry, GateSettings())
        )

    def test_registered(self) -> None:
        assert LayerStatus.PASS == self.check("get_weather").status

    def test_unknown_with_suggestion(self) -> None:
        result = self.check("concert_search_v2")
        assert LayerStatus.FAIL == result.status
        assert "unknown tool 'concert_search_v2' (registered: concert_search" in result.errors[0]
        assert "did you mean 'concert_search'?" == result.suggestion

    def test_names_are_case_sensitive(self) -> None:
        result = self.check("Get_Weather")
        assert (LayerStatus.FAIL, "did you mean 'get_weather'?") == (
            result.status,
            result.suggestion,
        )

    def test_disabled(self) -> None:
        registry = ToolRegistry([ToolSpec.define("get_weather", WEATHER)])
        registry.disable("get_weather")
        result = self.check("get_weather", registry)
        assert ["function.name: tool 'get_weather' is disabled"] == list(result.errors)
        assert result.suggestion is None


class TestParameters:
    """Layer 3: errors with the argument path; lenient and strict as documented in schema.py."""

    def errors(
        self, arguments: str, context: CheckContext = LENIENT, name: str = "get_weather"
    ) -> tuple[str, ...]:
        call = parse_call(openai(name, arguments))
        return layer3_parameters.check(call, REGISTRY.get(name), context).errors

    @pytest.mark.parametrize(
        ("arguments", "expected"),
        [
            (
                json.dumps({"location": {"city": "Paris", "unit": "kelvin"}}),
                "$.location.unit: 'kelvin' is not one of ['celsius', 'fahrenheit']",
            ),
            (json.dumps({"location": {}}), "$.location.city: missing required parameter"),
            (json.dumps({}), "$.location: missing required parameter"),
            (args(days=2.5), "$.days: 2.5 is not of type 'integer'"),
            (args(tags=["a", 3]), "$.tags[1]: 3 is not of type 'string'"),
            (
                args(debug=True),
                "$.debug: unknown parameter (the tool's schema does not declare it)",
            ),
            (
                json.dumps({"location": {"city": "Paris", "zip": "75"}}),
                "$.location.zip: unknown parameter",
            ),
            (args(**{"odd key": 1}), '$["odd key"]: unknown parameter'),
        ],
    )
    def test_messages(self, arguments: str, expected: str) -> None:
        assert any(e.startswith(expected) for e in self.errors(arguments)), self.errors(arguments)

    def test_unknown_parameter_suggestion(self) -> None:
        call = parse_call(openai(arguments=args(dayz=2)))
        result = layer3_parameters.check(call, REGISTRY.get("get_weather"), LENIENT)
        assert "did you mean 'days' instead of 'dayz'?" == result.suggestion

    @pytest.mark.parametrize(
        "arguments",
        [
            args(days="dontcare"),  # the declared default
            args(smoking=False),  # its string form is in the enum
            args(genre="horror"),  # case
            args(metrics=[]),  # enum on the array, meant for its items
            args(metrics=["co2", "Noise"]),
        ],
    )
    def test_lenient_accepts_strict_rejects(self, arguments: str) -> None:
        assert () == self.errors(arguments, LENIENT)
        assert self.errors(arguments, STRICT)

    @pytest.mark.parametrize(
        "arguments",
        [
            args(days="soon"),
            args(smoking="maybe"),
            args(genre="Comedy"),
            args(metrics=["rain"]),
            args(smoking=3),
        ],
    )
    def test_both_reject(self, arguments: str) -> None:
        assert self.errors(arguments, LENIENT) and self.errors(arguments, STRICT)

    def test_integers_are_numbers_in_both_modes(self) -> None:
        spec = ToolSpec.define("area", {"type": "object", "properties": {"r": {"type": "number"}}})
        for context in (LENIENT, STRICT):
            assert (
                LayerStatus.PASS
                == layer3_parameters.check(
                    parse_call(openai("area", '{"r": 2}')), spec, context
                ).status
            )

    def test_schemas_may_allow_extras(self) -> None:
        assert () == self.errors('{"anything": 1}', name="open_tool")

    def test_closing_can_be_turned_off(self) -> None:
        context = CheckContext(REGISTRY, GateSettings(reject_unknown_parameters=False))
        assert () == self.errors(args(debug=True), context)

    def test_max_errors(self) -> None:
        context = CheckContext(REGISTRY, GateSettings(max_errors=2))
        found = self.errors(args(a=1, b=2, c=3, d=4), context)
        assert 3 == len(found) and "... and 2 more" == found[-1]

    def test_hostile_arrays_are_read_only_so_far(self) -> None:
        spec = ToolSpec.define(
            "f",
            {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}}}},
        )
        found = spec.compiled.errors({"a": list(range(10_000))}, Strictness.LENIENT, max_errors=3)
        assert "... and at least 97 more" == found[-1]

    def test_all_of_is_not_closed(self) -> None:
        schema = {
            "type": "object",
            "allOf": [
                {"properties": {"a": {"type": "string"}}},
                {"properties": {"b": {"type": "string"}}},
            ],
        }
        compiled = compile_schema(schema, tool_name="t")
        assert () == compiled.errors({"a": "x", "b": "y"}, Strictness.LENIENT)

    @pytest.mark.parametrize(
        "extra",
        [
            {"anyOf": [{"properties": {"b": {"type": "string"}}}, {"required": ["a"]}]},
            {"oneOf": [{"properties": {"b": {"type": "string"}}, "required": ["b"]}]},
            {"if": {"required": ["a"]}, "then": {"properties": {"b": {"type": "string"}}}},
            {"dependentSchemas": {"a": {"properties": {"b": {"type": "string"}}}}},
        ],
        ids=["anyOf", "oneOf", "if/then", "dependentSchemas"],
    )
    def test_properties_declared_beside_are_not_unknown(self, extra: dict[str, Any]) -> None:
        schema = {"type": "object", "properties": {"a": {"type": "string"}}, **extra}
        compiled = compile_schema(schema, tool_name="t")
        assert () == compiled.errors({"a": "x", "b": "y"}, Strictness.STRICT)
        assert () == compiled.errors({"a": "x", "b": "y"}, Strictness.LENIENT)

    def test_a_union_of_whole_objects_stays_closed(self) -> None:
        schema = {
            "type": "object",
            "anyOf": [
                {"properties": {"a": {"type": "string"}}, "required": ["a"]},
                {"properties": {"b": {"type": "string"}}, "required": ["b"]},
            ],
        }
        compiled = compile_schema(schema, tool_name="t")
        assert () == compiled.errors({"a": "x"}, Strictness.STRICT)
        assert compiled.errors({"a": "x", "c": 1}, Strictness.STRICT)  # c is in no branch

    def test_pydantic_refs_are_closed(self) -> None:
        from pydantic import BaseModel

        class Place(BaseModel):
            city: str

        class Trip(BaseModel):
            start: Place

        spec = ToolRegistry.from_pydantic(Trip).get("Trip")
        assert spec is not None
        found = spec.compiled.errors({"start": {"city": "Oslo", "pier": 3}}, Strictness.LENIENT)
        assert ("$.start.pier: unknown parameter (the tool's schema does not declare it)",) == found

    def test_a_declared_draft_is_used(self) -> None:
        schema = {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {},
        }
        assert "Draft7Validator" == compile_schema(schema, tool_name="t").draft


# The fast path must give jsonschema's own verdicts and messages.
FAST_SCHEMAS = [
    WEATHER,
    {
        "type": "object",
        "properties": {
            "n": {"type": "number"},
            "i": {"type": "integer", "minimum": 0},
            "b": {"type": "boolean", "enum": [True]},
            "s": {"type": "string", "enum": ["a", "1"], "format": "email"},
            "x": {"type": ["string", "null"]},
            "l": {"type": "array", "items": {"type": "integer", "enum": [1, 2]}},
            "o": {"type": "object", "description": "free"},
            "e": {"enum": [1, "1", None]},
        },
    },
]
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(allow_nan=False)
    | st.sampled_from(["a", "1", "celsius", "x"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["city", "unit", "k"]), inner, max_size=2)
    ),
    max_leaves=8,
)


class TestFastPath:
    """The inline leaf checks give jsonschema's verdicts and messages (strict, open schemas)."""

    @settings(max_examples=300, deadline=None)
    @given(
        st.sampled_from(range(len(FAST_SCHEMAS))),
        st.dictionaries(
            st.sampled_from(
                [
                    "location",
                    "days",
                    "smoking",
                    "genre",
                    "metrics",
                    "tags",
                    "n",
                    "i",
                    "b",
                    "s",
                    "x",
                    "l",
                    "o",
                    "e",
                ]
            ),
            json_values,
            max_size=5,
        ),
    )
    def test_same_as_jsonschema(self, index: int, instance: dict[str, Any]) -> None:
        schema = FAST_SCHEMAS[index]
        plain = jsonschema.Draft202012Validator(schema)
        fast = compile_schema(schema, tool_name="t").validators[(Strictness.STRICT, False)]

        def seen(validator: Any) -> list[tuple[str, str]]:
            return sorted((e.json_path, e.message) for e in validator.iter_errors(instance))

        assert seen(plain) == seen(fast)


FLAT = {
    "type": "object",
    "properties": {
        "n": {"type": "number", "description": "a count"},
        "i": {"type": "integer", "default": "dontcare"},
        "b": {"type": "boolean", "enum": [True]},
        "s": {"type": "string", "enum": ["a", "1", "Celsius"]},
        "x": {"type": "string", "format": "email"},
        "l": {"type": "array", "items": {"type": "integer", "enum": [1, 2]}},
        "o": {"type": "object"},
        "tags": {"type": "array", "items": {"type": "string"}, "description": "labels"},
        "m": {"type": "array", "items": {"type": "string"}, "enum": ["a", "1"]},  # a slip
    },
    "required": ["n"],
}
NOT_FLAT = {
    "a keyword beyond type and enum": {"type": "integer", "minimum": 0},
    "a nested object schema": WEATHER["properties"]["location"],  # type: ignore[index]
    "an array of arrays of integers": {
        "type": "array",
        "items": {"type": "array", "items": {"type": "integer"}},
    },
    "a list of types": {"type": ["string", "null"]},
    "no type": {"enum": [1, "1"]},
}


class TestFlatObject:
    """Flat schemas are checked without jsonschema, and give exactly its errors."""

    def test_flat_and_not_flat(self) -> None:
        compiled = compile_schema(FLAT, tool_name="t")
        assert compiled.flat[True] is not None and compiled.flat[False] is not None
        assert compiled.flat[True].closed and not compiled.flat[False].closed
        for why, sub in NOT_FLAT.items():
            schema = {"type": "object", "properties": {"p": sub}}
            assert compile_schema(schema, tool_name="t").flat[True] is None, why
        draft3 = {"$schema": "http://json-schema.org/draft-03/schema#", "type": "object"}
        assert compile_schema(draft3, tool_name="t").flat == {True: None, False: None}

    def test_a_valid_call_never_reaches_jsonschema(self) -> None:
        compiled = compile_schema(FLAT, tool_name="t")
        arguments = {"n": 2, "b": True, "s": "1", "l": [1, 2, 1], "o": {"k": [1]}, "tags": []}
        assert compiled.flat[True].passes(arguments)  # type: ignore[union-attr]
        assert not compiled.flat[True].passes({**arguments, "extra": 1})  # type: ignore[union-attr]
        assert compiled.flat[False].passes({**arguments, "extra": 1})  # type: ignore[union-attr]

    @settings(max_examples=400, deadline=None)
    @given(
        st.dictionaries(
            st.sampled_from(["n", "i", "b", "s", "x", "l", "o", "tags", "m", "extra"]),
            json_values | st.lists(st.integers(0, 3), max_size=3),
            max_size=6,
        ),
        st.sampled_from(list(Strictness)),
        st.booleans(),
    )
    def test_same_errors_as_jsonschema_alone(
        self, instance: dict[str, Any], strictness: Strictness, closed: bool
    ) -> None:
        compiled = compile_schema(FLAT, tool_name="t")
        without = dataclasses.replace(compiled, flat={})
        got = compiled.errors(instance, strictness, closed=closed)
        assert without.errors(instance, strictness, closed=closed) == got
        if compiled.flat[closed].passes(instance):  # type: ignore[union-attr]
            assert () == got


@dataclass(frozen=True)
class RateStub:
    """A stand-in for layer 4: fails calls of one agent."""

    number: int = 4
    name: str = "business_rules"

    def check(self, call: ParsedCall, spec: ToolSpec | None, context: CheckContext) -> LayerResult:
        if context.agent_id == "greedy":
            return LayerResult.of(self.number, self.name, errors=("rate limit: 10 calls in 60 s",))
        return LayerResult.of(self.number, self.name, warnings=(f"principal={context.principal}",))


class TestGate:
    """The pipeline: layers in order, first FAIL stops, the rest skipped, WARN never blocks."""

    gate = ToolGate(REGISTRY, layers=(*DEFAULT_LAYERS, RateStub()))

    def test_allowed(self) -> None:
        report = self.gate.check(openai(), principal="alice")
        assert (True, None, "call_1", "get_weather", CallShape.OPENAI) == (
            report.allowed,
            report.stopped_at,
            report.call_id,
            report.tool_name,
            report.shape,
        )
        assert [1, 2, 3, 4] == [r.number for r in report.layers]
        assert ("principal=alice",) == report.warnings
        assert report.latency_us > 0

    def test_first_fail_stops(self) -> None:
        report = self.gate.check(openai("concert_searh"))
        assert (False, 2, "did you mean 'concert_search'?") == (
            report.allowed,
            report.stopped_at,
            report.suggestion,
        )
        assert [LayerStatus.PASS, LayerStatus.FAIL, LayerStatus.SKIPPED, LayerStatus.SKIPPED] == [
            r.status for r in report.layers
        ]
        assert report.errors == report.layers[1].errors

    def test_warn_never_blocks(self) -> None:
        report = self.gate.check(openai(id="xyz"))
        assert report.allowed and LayerStatus.WARN == report.layers[0].status

    def test_plugged_layer_sees_the_agent(self) -> None:
        report = self.gate.check(openai(), agent_id="greedy")
        assert (False, 4, ("rate limit: 10 calls in 60 s",)) == (
            report.allowed,
            report.stopped_at,
            report.errors,
        )

    def test_a_parsed_call_is_accepted(self) -> None:
        assert self.gate.check(parse_call(openai())).allowed

    def test_report_is_json(self) -> None:
        data = json.loads(json.dumps(self.gate.check(openai(arguments="{")).to_dict()))
        assert (False, 1, "openai") == (data["allowed"], data["stopped_at"], data["shape"])
        assert ["fail", "skipped", "skipped", "skipped"] == [
            layer["status"] for layer in data["layers"]
        ]

    def test_check_message(self) -> None:
        message = {"role": "assistant", "tool_calls": [openai(), openai("nope")]}
        assert [True, False] == [r.allowed for r in self.gate.check_message(message)]

    @pytest.mark.parametrize("layers", [(), (*DEFAULT_LAYERS, DEFAULT_LAYERS[0])])
    def test_layer_numbers_must_be_unique(self, layers: tuple[Any, ...]) -> None:
        with pytest.raises(ConfigurationError, match="unique numbers"):
            ToolGate(REGISTRY, layers=layers)

    def test_a_broken_layer_fails_the_call(self) -> None:
        @dataclass(frozen=True)
        class Broken:
            number: int = 5
            name: str = "permission"

            def check(
                self, call: ParsedCall, spec: ToolSpec | None, context: CheckContext
            ) -> LayerResult:
                raise RuntimeError("policy file vanished")

        report = ToolGate(REGISTRY, layers=(*DEFAULT_LAYERS, Broken())).check(openai())
        assert (False, 5) == (report.allowed, report.stopped_at)
        assert (
            "layer 'permission' could not check the call: RuntimeError: policy file vanished",
        ) == report.errors

    def test_strictness_reaches_the_parameter_layer(self) -> None:
        call = openai(arguments=args(genre="horror"))
        assert ToolGate(REGISTRY).check(call).allowed
        strict = ToolGate(REGISTRY, settings=GateSettings(strictness=Strictness.STRICT))
        assert 3 == strict.check(call).stopped_at


class TestPublicApi:
    """The package re-exports its API in a sorted __all__ (ruff's order: constants first)."""

    def test_all_is_sorted(self) -> None:
        from qgs_worker.core import toolgate

        def order(name: str) -> tuple[int, str]:
            return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)

        assert sorted(toolgate.__all__, key=order) == list(toolgate.__all__)
        assert all(hasattr(toolgate, name) for name in toolgate.__all__)
