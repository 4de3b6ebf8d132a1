"""Schema regexes run on RE2: no caller's pattern can freeze the gate (break test, finding 1)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from qgs_worker.core.toolgate import ToolDefinitionError, ToolGate, ToolRegistry
from qgs_worker.core.toolgate.schema import compile_schema

ROOT = Path(__file__).resolve().parents[2]
EVIL = "^(a+)+$"


def tool(parameters: dict[str, Any], name: str = "f") -> list[dict[str, Any]]:
    return [{"type": "function", "function": {"name": name, "parameters": parameters}}]


def call(arguments: dict[str, Any], name: str = "f") -> dict[str, Any]:
    return {"id": "c1", "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)}}  # fmt: skip


STRING_PATTERN = {"type": "object", "properties": {"x": {"type": "string", "pattern": EVIL}}}
KEY_PATTERN = {
    "type": "object",
    "patternProperties": {EVIL: {"type": "string"}},
    "additionalProperties": False,
}

PROBE = """
import json, sys
from qgs_worker.core.toolgate import ToolGate, ToolRegistry
tools, calls = json.loads(sys.argv[1])
gate = ToolGate(ToolRegistry.from_openai(tools))
print(json.dumps([[gate.check(c).allowed, list(gate.check(c).errors)] for c in calls]))
"""


def run_in_subprocess(tools: list[dict[str, Any]], calls: list[dict[str, Any]]) -> Any:
    """Check ``calls`` in a fresh interpreter; a backtracking match would blow the timeout."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps([tools, calls])],
        capture_output=True, text=True, timeout=120, check=True, cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    return json.loads(done.stdout)


class TestTheTestersPayload:
    """``^(a+)+$`` against ``a``*N + ``!``: ``re`` backtracks for minutes at N=39; RE2 does not."""

    def test_a_pattern_on_a_value(self) -> None:
        calls = [call({"x": "a" * n + "!"}) for n in (39, 5000)] + [call({"x": "aaaa"})]
        results = run_in_subprocess(tool(STRING_PATTERN), calls)
        assert [False, False, True] == [allowed for allowed, _ in results]
        assert "does not match '^(a+)+$'" in results[0][1][0]

    def test_a_pattern_on_a_key(self) -> None:
        calls = [call({"a" * n + "!": "v"}) for n in (39, 5000)] + [call({"aaa": "v"})]
        results = run_in_subprocess(tool(KEY_PATTERN), calls)
        assert [False, False, True] == [allowed for allowed, _ in results]
        assert "unknown parameter" in results[0][1][0]


ORDINARY = [
    ("^[a-z]+$", ["abc", "ABC", "", "ab1"]),
    (r"^\d{3}-\d{4}$", ["555-1234", "5551234", "555-12345"]),
    ("colou?r", ["the color", "colour!", "colr"]),
    (r"^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$", ["DE89370400440532013000", "de89"]),
    ("^(GET|POST)$", ["GET", "PUT", "GETPOST"]),
    ("(?i)^yes$", ["YES", "yes", "no"]),
]


class TestSameVerdictsAsJsonschema:
    """On ordinary patterns the RE2 keywords agree with jsonschema's ``re`` ones, message too."""

    @pytest.mark.parametrize(("regex", "values"), ORDINARY)
    def test_pattern(self, regex: str, values: list[str]) -> None:
        schema = {"type": "object", "properties": {"x": {"type": "string", "pattern": regex}},
                  "additionalProperties": True}  # fmt: skip
        compiled = compile_schema(schema, tool_name="f")
        reference = jsonschema.Draft202012Validator(schema)
        for value in values:
            expected = [f"$.x: {e.message}" for e in reference.iter_errors({"x": value})]
            assert expected == list(compiled.errors({"x": value}, compiled_strict()))

    @pytest.mark.parametrize(("regex", "values"), ORDINARY)
    def test_pattern_properties(self, regex: str, values: list[str]) -> None:
        schema = {"type": "object", "patternProperties": {regex: {"type": "integer"}},
                  "additionalProperties": False}  # fmt: skip
        compiled = compile_schema(schema, tool_name="f")
        reference = jsonschema.Draft202012Validator(schema)
        for value in values:
            for arguments in ({value: 1}, {value: "one"}, {value: 1, "zz-9 ": 2}):
                valid = reference.is_valid(arguments)
                got = compiled.errors(arguments, compiled_strict())
                assert valid == (got == ()), (arguments, got)
                # an extra key is worded as an unknown parameter, naming only the keys that
                # match no pattern (``re`` is safe on these ordinary patterns)
                unknown = {m.split(":")[0] for m in got if "unknown parameter" in m}
                expected = {f"$[{json.dumps(k)}]" if not k.isidentifier() else f"$.{k}"
                            for k in arguments if not re.search(regex, k)}  # fmt: skip
                assert expected == unknown


def compiled_strict() -> Any:
    from qgs_worker.core.models import Strictness

    return Strictness.STRICT


class TestPatternsRE2CannotRun:
    """A lookaround or a backreference is refused at load, naming the tool, the place, the why."""

    @pytest.mark.parametrize(
        ("regex", "reason"),
        [("^(?!admin).*$", "invalid perl operator"), (r"^(a)\1$", "invalid escape sequence")],
    )
    def test_refused_with_reason(self, regex: str, reason: str) -> None:
        schema = {"type": "object", "properties": {"user": {"type": "string", "pattern": regex}}}
        with pytest.raises(ToolDefinitionError) as raised:
            ToolRegistry.from_openai(tool(schema, name="login"))
        message = str(raised.value)
        assert "tool 'login'" in message
        assert "$.properties.user.pattern" in message
        assert reason in message and "RE2" in message and "lookarounds" in message

    def test_a_key_pattern_is_checked_too(self) -> None:
        schema = {"type": "object", "patternProperties": {"(?<=x)y": {"type": "string"}}}
        with pytest.raises(ToolDefinitionError, match=r"\$\.patternProperties key"):
            ToolRegistry.from_openai(tool(schema))

    def test_a_nested_pattern_is_checked(self) -> None:
        schema = {"type": "object", "properties": {"items": {"type": "array", "items": {
            "type": "string", "pattern": "(?=a)"}}}}  # fmt: skip
        with pytest.raises(ToolDefinitionError, match=r"\$\.properties\.items\.items\.pattern"):
            ToolRegistry.from_openai(tool(schema))

    def test_a_property_named_pattern_is_no_pattern(self) -> None:
        schema = {"type": "object", "properties": {"pattern": {"type": "string"}},
                  "default": {"pattern": "(?=a)"}}  # fmt: skip
        gate = ToolGate(ToolRegistry.from_openai(tool(schema)))
        assert gate.check(call({"pattern": "(?=x)"})).allowed

    def test_unevaluated_properties_beside_pattern_properties(self) -> None:
        schema = {"type": "object", "patternProperties": {"^a": {"type": "string"}},
                  "unevaluatedProperties": False}  # fmt: skip
        with pytest.raises(ToolDefinitionError, match="use additionalProperties"):
            ToolRegistry.from_openai(tool(schema))
