"""Tool calls in the three shapes: parsed, never raising, the original id and shape kept."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qgs_worker.core.models import ToolCall
from qgs_worker.core.toolgate import CallShape, parse_call, parse_calls
from qgs_worker.errors import InputError

ARGS = {"location": "Paris", "unit": "celsius"}


def openai(arguments: Any = None, **extra: Any) -> dict[str, Any]:
    raw = json.dumps(ARGS) if arguments is None else arguments
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "get_weather", "arguments": raw},
    }
    call.update(extra)
    return call


def anthropic(**extra: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": ARGS, **extra}


def mcp(**params: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "get_weather", "arguments": ARGS, **params},
    }


class TestShapes:
    """Each shape is recognised and read into the same form."""

    def test_openai(self) -> None:
        call = openai()
        parsed = parse_call(call)
        assert CallShape.OPENAI == parsed.shape
        assert ("call_1", "get_weather", ARGS) == (parsed.id, parsed.name, parsed.arguments)
        assert json.dumps(ARGS) == parsed.raw_arguments
        assert parsed.parse_error is None
        assert call is parsed.original
        assert ("id", "function.name", "function.arguments") == (
            parsed.id_path,
            parsed.name_path,
            parsed.arguments_path,
        )

    def test_anthropic(self) -> None:
        parsed = parse_call(anthropic())
        assert CallShape.ANTHROPIC == parsed.shape
        assert ("toolu_1", "get_weather", ARGS, None) == (
            parsed.id,
            parsed.name,
            parsed.arguments,
            parsed.raw_arguments,
        )
        assert "input" == parsed.arguments_path

    def test_mcp_keeps_an_integer_id(self) -> None:
        parsed = parse_call(mcp())
        assert CallShape.MCP == parsed.shape
        assert (7, "get_weather", ARGS) == (parsed.id, parsed.name, parsed.arguments)
        assert "params.arguments" == parsed.arguments_path

    def test_mcp_arguments_are_optional(self) -> None:
        request = mcp()
        del request["params"]["arguments"]
        parsed = parse_call(request)
        assert ({}, None) == (parsed.arguments, parsed.parse_error)

    def test_to_tool_call(self) -> None:
        expected = ToolCall(
            id="call_1", name="get_weather", arguments=ARGS, raw_arguments=json.dumps(ARGS)
        )
        assert expected == parse_call(openai()).to_tool_call()
        assert "7" == parse_call(mcp()).to_tool_call().id


class TestMalformed:
    """A call that cannot be read comes back with parse_error naming the field, never raising."""

    @pytest.mark.parametrize(
        ("call", "needle"),
        [
            (openai('{"location": "Paris"'), "function.arguments: not valid JSON: Expecting"),
            (openai('{"location": "Paris"'), "line 1 column 21 (char 20)"),
            (openai(""), "send '{}' for no arguments"),
            (openai(ARGS), "function.arguments: must be a JSON string (got an object)"),
            (openai(42), "must be a JSON string (got number)"),
            (openai("[1, 2]"), "must encode a JSON object (got array)"),
            (openai('{"x": NaN}'), "NaN is not JSON"),
            (openai('{"x": 1, "x": 2}'), "duplicate key 'x'"),
            ({"id": "c", "type": "function", "function": {"name": "f"}}, "arguments: missing"),
            ({"id": "c", "function": "get_weather"}, "function: must be an object"),
            (anthropic(input="Paris"), "input: must be an object (got string)"),
            ({"type": "tool_use", "id": "t", "name": "f"}, "input: missing"),
            (mcp(arguments=[1]), "params.arguments: must be an object (got array)"),
            ({**mcp(), "method": "tools/list"}, "method: a tool call is a 'tools/call' request"),
            ({**mcp(), "params": None}, "params: must be an object"),
        ],
    )
    def test_parse_error(self, call: dict[str, Any], needle: str) -> None:
        parsed = parse_call(call)
        assert parsed.parse_error is not None and needle in parsed.parse_error
        assert parsed.arguments is None

    def test_unknown_shape_lists_the_keys(self) -> None:
        parsed = parse_call({"id": "x", "name": "get_weather", "args": {}})
        assert CallShape.UNKNOWN == parsed.shape
        assert ("x", "get_weather") == (parsed.id, parsed.name)
        assert parsed.parse_error is not None and "(got keys: args, id, name)" in parsed.parse_error

    @pytest.mark.parametrize("obj", [None, "call", 3, ["function"]])
    def test_not_an_object(self, obj: object) -> None:
        parsed = parse_call(obj)
        assert CallShape.UNKNOWN == parsed.shape
        assert parsed.parse_error is not None and "must be a JSON object" in parsed.parse_error

    def test_odd_ids_and_names_are_kept_out(self) -> None:
        parsed = parse_call(
            {"id": True, "type": "function", "function": {"name": 3, "arguments": "{}"}}
        )
        assert (None, None) == (parsed.id, parsed.name)

    json_values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
        ),
        max_leaves=12,
    )

    @given(
        st.fixed_dictionaries(
            {},
            optional={
                "id": json_values,
                "type": st.sampled_from(["function", "tool_use", "x"]) | json_values,
                "function": json_values,
                "name": json_values,
                "input": json_values,
                "jsonrpc": json_values,
                "method": st.just("tools/call") | json_values,
                "params": json_values,
            },
        )
    )
    def test_never_raises(self, obj: dict[str, Any]) -> None:
        parsed = parse_call(obj)
        assert parsed.arguments is None or isinstance(parsed.arguments, dict)


class TestMessages:
    """parse_calls finds the calls of a whole assistant message."""

    def test_openai_message(self) -> None:
        message = {"role": "assistant", "content": None, "tool_calls": [openai(), openai()]}
        assert [CallShape.OPENAI] * 2 == [c.shape for c in parse_calls(message)]

    def test_anthropic_message_skips_text_blocks(self) -> None:
        message = {"role": "assistant", "content": [{"type": "text", "text": "hi"}, anthropic()]}
        assert ["toolu_1"] == [c.id for c in parse_calls(message)]
        assert ["toolu_1"] == [c.id for c in parse_calls(message["content"])]

    def test_jsonrpc_batch(self) -> None:
        batch = [mcp(), {"jsonrpc": "2.0", "id": 8, "method": "tools/list"}]
        assert [7] == [c.id for c in parse_calls(batch)]

    @pytest.mark.parametrize(
        "message",
        [
            {"role": "assistant", "content": "no calls"},
            {"role": "assistant", "content": None, "tool_calls": None},
            {"role": "user", "content": [{"type": "text", "text": "hi"}]},
        ],
    )
    def test_no_calls(self, message: dict[str, Any]) -> None:
        assert () == parse_calls(message)

    def test_a_single_call(self) -> None:
        assert [CallShape.MCP] == [c.shape for c in parse_calls(mcp())]

    @pytest.mark.parametrize(
        ("message", "needle"),
        [
            ({"role": "assistant", "tool_calls": "x"}, "'tool_calls' must be a list"),
            ({"role": "assistant", "content": 3}, "'content' must be a string or a list"),
            ("hello", "must be a JSON object or list"),
        ],
    )
    def test_unusable_message(self, message: object, needle: str) -> None:
        with pytest.raises(InputError, match=needle):
            parse_calls(message)


class TestMixedAndLegacyMessages:
    """A legacy ``function_call`` and blocks beside ``tool_calls`` are calls too."""

    def test_legacy_function_call(self) -> None:
        message = {
            "role": "assistant",
            "content": None,
            "function_call": {"name": "run", "arguments": '{"command": "rm -rf /"}'},
        }
        (call,) = parse_calls(message)
        assert ("function_call", "run", {"command": "rm -rf /"}) == (
            call.id,
            call.name,
            call.arguments,
        )

    def test_tool_use_blocks_beside_tool_calls(self) -> None:
        message = {"role": "assistant", "content": [anthropic()], "tool_calls": [openai()]}
        assert [CallShape.OPENAI, CallShape.ANTHROPIC] == [c.shape for c in parse_calls(message)]

    def test_a_gate_rejects_what_a_legacy_call_carries(self) -> None:
        from qgs_worker.core.toolgate import ToolGate, ToolRegistry
        from qgs_worker.core.toolgate.layer6_injection import LAYER as INJECTION
        from qgs_worker.core.toolgate.pipeline import DEFAULT_LAYERS

        tool = {"name": "run", "parameters": {"type": "object", "properties": {"command": {}}}}
        gate = ToolGate(ToolRegistry.from_openai([tool]), layers=(*DEFAULT_LAYERS, INJECTION))
        message = {
            "role": "assistant",
            "function_call": {"name": "run", "arguments": '{"command": "rm -rf /"}'},
        }
        (report,) = gate.check_message(message)
        assert (False, 6) == (report.allowed, report.stopped_at)


def responses(**extra: Any) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_2",
        "name": "send_email",
        "arguments": json.dumps(ARGS),
        **extra,
    }


class TestNoSilentDrop:
    """Nothing that might be a call is dropped: unknown items FAIL, non-messages raise."""

    def test_responses_function_call(self) -> None:
        parsed = parse_call(responses())
        assert CallShape.OPENAI_RESPONSES == parsed.shape
        assert ("call_2", "send_email", ARGS) == (parsed.id, parsed.name, parsed.arguments)
        assert ("call_id", "name", "arguments") == (
            parsed.id_path,
            parsed.name_path,
            parsed.arguments_path,
        )
        assert parsed.parse_error is None
        message = [{"type": "reasoning", "summary": []}, responses()]
        assert ["call_2"] == [c.id for c in parse_calls(message)]
        response = {"object": "response", "output": message}
        assert ["call_2"] == [c.id for c in parse_calls(response)]

    @pytest.mark.parametrize(
        ("arguments", "needle"),
        [({"a": 1}, "must be a JSON string"), ("{", "not valid JSON"), (None, "missing")],
    )
    def test_responses_bad_arguments(self, arguments: Any, needle: str) -> None:
        call = responses(arguments=arguments)
        if arguments is None:
            del call["arguments"]
        assert needle in (parse_call(call).parse_error or "")

    def test_unknown_blocks_are_kept_as_unknown(self) -> None:
        server = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search"}
        message = {"role": "assistant", "content": [{"type": "text", "text": "x"}, server]}
        (parsed,) = parse_calls(message)
        assert CallShape.UNKNOWN == parsed.shape
        assert "type 'server_tool_use'" in (parsed.parse_error or "")

    @pytest.mark.parametrize(
        "block",
        [
            {"type": kind}
            for kind in (
                *("text", "thinking", "redacted_thinking", "image", "document"),
                *("tool_result", "refusal"),
            )
        ],
    )
    def test_known_non_calls_are_skipped(self, block: dict[str, Any]) -> None:
        assert () == parse_calls({"role": "assistant", "content": [block]})

    def test_chat_completion(self) -> None:
        message = {"role": "assistant", "content": None, "tool_calls": [openai()]}
        completion = {"object": "chat.completion", "choices": [{"index": 0, "message": message}]}
        assert ["call_1"] == [c.id for c in parse_calls(completion)]
        with pytest.raises(InputError, match="'choices' must be a non-empty list"):
            parse_calls({"object": "chat.completion", "choices": []})

    @pytest.mark.parametrize(
        ("message", "needle"),
        [
            (
                {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]},
                "Gemini",
            ),
            (["send_email", "get_weather"], r"item \[0\] is a string, not a tool call"),
            ({"role": "assistant", "content": ["hi"]}, "not a tool call"),
        ],
    )
    def test_not_calls_raise(self, message: object, needle: str) -> None:
        with pytest.raises(InputError, match=needle):
            parse_calls(message)


class TestLoneSurrogates:
    """A "\\ud800" escape reads as JSON but is no Unicode: read as U+FFFD, the rest checked."""

    def test_openai_arguments(self) -> None:
        call = parse_call(openai('{"location": "Par\\ud800is", "unit": ["c\\udfff"]}'))
        assert call.parse_error is None
        assert {"location": "Par\ufffdis", "unit": ["c\ufffd"]} == call.arguments

    def test_anthropic_name_and_input(self) -> None:
        call = parse_call(anthropic(name="get\ud800weather", input={"k\udc00": "v"}))
        assert "get\ufffdweather" == call.name
        assert {"k\ufffd": "v"} == call.arguments

    def test_plain_calls_are_the_same_object_values(self) -> None:
        assert ARGS == parse_call(openai()).arguments
