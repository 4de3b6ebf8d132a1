"""The registry: definitions in every form, options, disable, did-you-mean, kinds, permissions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from qgs_worker.core.toolgate import (
    ArgumentKind,
    Permission,
    RateLimit,
    ToolDefinitionError,
    ToolGate,
    ToolRegistry,
    ToolSpec,
    infer_kinds,
    infer_permission,
)
from qgs_worker.core.toolgate.loaders import detect_form, specs_from_document

WEATHER_SCHEMA = {
    "type": "object",
    "properties": {
        "location": {"type": "string"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
    },
    "required": ["location"],
}
OPENAI = {
    "type": "function",
    "function": {"name": "get_weather", "description": "Weather.", "parameters": WEATHER_SCHEMA},
}
ANTHROPIC = {"name": "get_weather", "description": "Weather.", "input_schema": WEATHER_SCHEMA}
MCP = {"name": "get_weather", "description": "Weather.", "inputSchema": WEATHER_SCHEMA}


class Forecast(BaseModel):
    """Forecast for some days."""

    city: str
    days: int = 3


class Place(BaseModel):
    city: str


class Trip(BaseModel):
    model_config = ConfigDict(title="plan_trip")

    start: Place
    end: Place


class TestLoading:
    """Each definition form gives the same tool."""

    @pytest.mark.parametrize(
        ("registry", "source"),
        [
            (lambda: ToolRegistry.from_openai([OPENAI]), "openai"),
            (lambda: ToolRegistry.from_openai([OPENAI["function"]]), "openai"),
            (lambda: ToolRegistry.from_anthropic([ANTHROPIC]), "anthropic"),
            (lambda: ToolRegistry.from_mcp({"tools": [MCP]}), "mcp"),
            (
                lambda: ToolRegistry.from_mcp(
                    {"jsonrpc": "2.0", "id": 1, "result": {"tools": [MCP]}}
                ),
                "mcp",
            ),
            (lambda: ToolRegistry.from_mcp([MCP]), "mcp"),
        ],
    )
    def test_forms(self, registry: Any, source: str) -> None:
        spec = registry().get("get_weather")
        assert spec is not None
        assert (WEATHER_SCHEMA, "Weather.", source, True) == (
            spec.parameters,
            spec.description,
            spec.source,
            spec.enabled,
        )
        assert "Draft202012Validator" == spec.compiled.draft

    def test_pydantic_names_and_schema(self) -> None:
        registry = ToolRegistry.from_pydantic(Forecast, Trip)
        assert ("Forecast", "plan_trip") == registry.names  # the class name, as the OpenAI SDK
        assert registry.names == ToolRegistry.from_pydantic([Forecast, Trip]).names
        forecast = registry.get("Forecast")
        assert forecast is not None and "Forecast for some days." == forecast.description
        assert ["city"] == forecast.parameters["required"]

    def test_pydantic_rejects_other_things(self) -> None:
        with pytest.raises(ToolDefinitionError, match="takes BaseModel classes"):
            ToolRegistry.from_pydantic(dict)  # type: ignore[arg-type]

    def test_no_parameters_means_none_allowed(self) -> None:
        spec = ToolRegistry.from_anthropic([{"name": "now"}]).get("now")
        assert spec is not None and {"type": "object", "properties": {}} == spec.parameters

    @pytest.mark.parametrize(
        "document",
        [
            [OPENAI],
            [ANTHROPIC],
            {"tools": [MCP]},
            {"jsonrpc": "2.0", "id": 3, "result": {"tools": [MCP]}},
            OPENAI,
            {"tools": [OPENAI]},
        ],
    )
    def test_from_file_tells_the_form(self, tmp_path: Path, document: Any) -> None:
        path = tmp_path / "tools.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        assert ("get_weather",) == ToolRegistry.from_file(path).names

    @pytest.mark.parametrize(
        ("content", "needle"),
        [
            ("not json", "cannot read tool definitions"),
            ('[{"name": "x"}]', "cannot tell the form"),
            ("[3]", "a definition must be an object"),
        ],
    )
    def test_from_file_errors(self, tmp_path: Path, content: str, needle: str) -> None:
        path = tmp_path / "tools.json"
        path.write_text(content, encoding="utf-8")
        with pytest.raises(ToolDefinitionError, match=needle):
            ToolRegistry.from_file(path)

    def test_missing_file(self, tmp_path: Path) -> None:
        with pytest.raises(ToolDefinitionError, match="cannot read"):
            ToolRegistry.from_file(tmp_path / "absent.json")

    @pytest.mark.parametrize(
        ("make", "reason"),
        [
            (lambda d: d, "it is a directory"),
            (lambda d: Path("/dev/null"), "it is empty"),
            (lambda d: d / "absent.json", "it does not exist"),
            (lambda d: d / "empty.json", "it is empty"),
            (lambda d: d / "blank.json", "it is empty"),
        ],
    )
    def test_file_reasons(self, tmp_path: Path, make: Any, reason: str) -> None:
        (tmp_path / "empty.json").write_bytes(b"")
        (tmp_path / "blank.json").write_text("\ufeff\n  \n", encoding="utf-8")
        path = make(tmp_path)
        with pytest.raises(
            ToolDefinitionError, match=f"^cannot read tool definitions from .*: {reason}$"
        ):
            ToolRegistry.from_file(path)

    def test_file_with_a_bom(self, tmp_path: Path) -> None:
        path = tmp_path / "tools.json"
        path.write_text("\ufeff" + json.dumps([ANTHROPIC]), encoding="utf-8")
        assert ("get_weather",) == ToolRegistry.from_file(path).names


class TestDefinitionErrors:
    """Unusable definitions are refused at load, naming the tool."""

    @pytest.mark.parametrize(
        ("tools", "needle"),
        [
            (
                [
                    {
                        "name": "f",
                        "input_schema": {"type": "object", "properties": {"a": {"type": "float"}}},
                    }
                ],
                r"tool 'f': parameters are not a valid JSON Schema \(Draft202012Validator\): \$.properties.a.type",
            ),
            ([{"name": "f", "input_schema": {"type": "string"}}], "must describe an object"),
            ([{"name": "", "input_schema": {}}], "'name' must be a non-empty string"),
            ([{"name": "f", "input_schema": []}], "'input_schema' must be a JSON Schema object"),
            ([ANTHROPIC, ANTHROPIC], "tool 'get_weather' is defined twice"),
            (
                [{**ANTHROPIC, "x-qgs": {"permission": "admin"}}],
                "tool 'get_weather': x-qgs permission must be one of 'read'",
            ),
            (
                [{**ANTHROPIC, "x-qgs": {"enabled": "no"}}],
                "tool 'get_weather': x-qgs enabled must be true or false",
            ),
            (
                [{**ANTHROPIC, "x-qgs": {"enabled": 1}}],
                "tool 'get_weather': x-qgs enabled must be true or false",
            ),
            (
                [{**ANTHROPIC, "x-qgs": {"rate_limit": 5}}],
                r"tool 'get_weather': x-qgs rate_limit must be \{\"max_calls\": N, \"window_s\": S\}",
            ),
            (
                [{**ANTHROPIC, "x-qgs": {"rate_limit": {"max_calls": "5", "window_s": 60}}}],
                "tool 'get_weather': x-qgs rate_limit must be",
            ),
            (
                [{**ANTHROPIC, "x-qgs": {"rate_limit": {"max_calls": 0, "window_s": 60}}}],
                "tool 'get_weather': x-qgs rate_limit needs max_calls >= 1",
            ),
            (
                [{**ANTHROPIC, "x-qgs": {"max_file_bytes": "1kb"}}],
                "tool 'get_weather': x-qgs max_file_bytes must be a positive integer",
            ),
            (
                [{**ANTHROPIC, "x-qgs": {"allowed_domains": "example.com"}}],
                "tool 'get_weather': x-qgs allowed_domains must be a list of host names",
            ),
            (
                [{**ANTHROPIC, "x-qgs": {"allowed_domains": ["https://example.com"]}}],
                "entry 'https://example.com' is not a host: write a host name such as example.com",
            ),
            (
                [{**ANTHROPIC, "x-qgs": {"allowed_domains": ["example.com/"]}}],
                "entry 'example.com/' is not a host",
            ),
            (
                [{**ANTHROPIC, "x-qgs": {"kinds": {"a": "shell"}}}],
                "tool 'get_weather': x-qgs kinds.a must be one of",
            ),
            ([{**ANTHROPIC, "x-qgs": {"colour": "red"}}], "x-qgs must be an object of"),
            (
                [
                    {
                        "name": "f",
                        "input_schema": {
                            "properties": {"a": {"type": "string", "x-qgs-kind": "shell"}}
                        },
                    }
                ],
                "tool 'f': 'shell' is not a valid ArgumentKind",
            ),
        ],
    )
    def test_refused(self, tools: list[dict[str, Any]], needle: str) -> None:
        with pytest.raises(ToolDefinitionError, match=needle):
            ToolRegistry.from_anthropic(tools)

    def test_options_beside_an_openai_function_name_the_tool(self) -> None:
        # The break test's x-qgs.rate_limit beside "function" said tool '?'.
        with pytest.raises(ToolDefinitionError, match="tool 'get_weather': x-qgs rate_limit"):
            ToolRegistry.from_openai([{**OPENAI, "x-qgs": {"rate_limit": 5}}])

    @pytest.mark.parametrize(
        ("value", "enabled"), [(False, False), ("false", False), ("FALSE", False), ("True", True)]
    )
    def test_enabled_is_parsed_strictly(self, value: object, enabled: bool) -> None:
        registry = ToolRegistry.from_anthropic([{**ANTHROPIC, "x-qgs": {"enabled": value}}])
        spec = registry.get("get_weather")
        assert spec is not None and enabled == spec.enabled

    def test_remote_refs_are_refused(self) -> None:
        schema = {
            "type": "object",
            "properties": {"a": {"$ref": "https://example.com/a.json"}, "b": {"$ref": "#/$defs/b"}},
            "$defs": {"b": {"type": "string", "default": {"$ref": "data, not a schema"}}},
        }
        with pytest.raises(
            ToolDefinitionError, match=r"'https://example\.com/a\.json' points outside"
        ):
            ToolRegistry.from_anthropic([{"name": "f", "input_schema": schema}])

    def test_local_refs_are_fine(self) -> None:
        schema = {
            "type": "object",
            "properties": {"b": {"$ref": "#/$defs/b"}},
            "$defs": {"b": {"type": "string", "default": {"$ref": "data"}}},
        }
        spec = ToolRegistry.from_anthropic([{"name": "f", "input_schema": schema}]).get("f")
        assert spec is not None

    def test_openai_type_must_be_function(self) -> None:
        with pytest.raises(ToolDefinitionError, match="'type' must be 'function'"):
            ToolRegistry.from_openai([{**OPENAI, "type": "retrieval"}])

    def test_mcp_result_needs_tools(self) -> None:
        with pytest.raises(ToolDefinitionError, match="must hold a 'tools' list"):
            ToolRegistry.from_mcp({"result": {}})

    def test_the_callers_schema_is_not_changed(self) -> None:
        schema = json.loads(json.dumps(WEATHER_SCHEMA))
        ToolRegistry.from_anthropic([{"name": "f", "input_schema": schema}])
        assert WEATHER_SCHEMA == schema


class TestOptions:
    """x-qgs says what QGS cannot guess; MCP annotations give the permission."""

    def test_x_qgs(self) -> None:
        tool = {
            **ANTHROPIC,
            "x-qgs": {
                "permission": "delete",
                "enabled": False,
                "kinds": {"location": "path"},
                "rate_limit": {"max_calls": 10, "window_s": 60},
                "max_file_bytes": 1024,
                "allowed_domains": ["Example.com"],
            },
        }
        spec = ToolRegistry.from_anthropic([tool]).get("get_weather")
        assert spec is not None
        assert (Permission.DELETE, False, ArgumentKind.PATH) == (
            spec.permission,
            spec.enabled,
            spec.kinds["location"],
        )
        assert RateLimit(10, 60.0) == spec.rules.rate_limit
        assert (1024, ("example.com",)) == (spec.rules.max_file_bytes, spec.rules.allowed_domains)

    def test_openai_x_qgs_on_the_function(self) -> None:
        tool = {**OPENAI, "function": {**OPENAI["function"], "x-qgs": {"permission": "write"}}}
        spec = ToolRegistry.from_openai([tool]).get("get_weather")
        assert spec is not None and Permission.WRITE == spec.permission

    @pytest.mark.parametrize(
        ("annotations", "expected"),
        [
            ({"readOnlyHint": True}, Permission.READ),
            ({"destructiveHint": True}, Permission.DELETE),
            ({"destructiveHint": False}, Permission.WRITE),
            ({}, Permission.READ),
        ],
    )
    def test_mcp_annotations(self, annotations: dict[str, bool], expected: Permission) -> None:
        spec = ToolRegistry.from_mcp({"tools": [{**MCP, "annotations": annotations}]}).get(
            "get_weather"
        )
        assert spec is not None and expected == spec.permission

    @pytest.mark.parametrize(
        ("name", "annotations", "expected"),
        [
            ("delete_all_files", {"readOnlyHint": True}, Permission.DELETE),
            ("run_script", {"destructiveHint": False}, Permission.EXECUTE),
            ("get_weather", {"destructiveHint": True}, Permission.DELETE),
        ],
    )
    def test_mcp_hints_never_lower_the_name(
        self, name: str, annotations: dict[str, bool], expected: Permission
    ) -> None:
        tool = {**MCP, "name": name, "annotations": annotations}
        spec = ToolRegistry.from_mcp({"tools": [tool]}).get(name)
        assert spec is not None and expected == spec.permission

    def test_x_qgs_permission_wins_over_hints(self) -> None:
        tool = {**MCP, "annotations": {"destructiveHint": True}, "x-qgs": {"permission": "read"}}
        spec = ToolRegistry.from_mcp({"tools": [tool]}).get("get_weather")
        assert spec is not None and Permission.READ == spec.permission


class TestChanges:
    """Tools can be disabled and enabled again; names are listed sorted."""

    def test_disable_and_enable(self) -> None:
        registry = ToolRegistry.from_anthropic([ANTHROPIC, {"name": "add", "input_schema": {}}])
        assert ("add", "get_weather") == registry.names
        registry.disable("get_weather")
        spec = registry.get("get_weather")
        assert spec is not None and not spec.enabled
        registry.enable("get_weather")
        spec = registry.get("get_weather")
        assert spec is not None and spec.enabled
        assert 2 == len(registry) and "add" in registry
        assert ["add", "get_weather"] == [s.name for s in registry]

    def test_disable_unknown(self) -> None:
        with pytest.raises(KeyError):
            ToolRegistry().disable("nope")

    def test_get_unknown(self) -> None:
        assert ToolRegistry().get("nope") is None


class TestSuggest:
    """Did-you-mean: case, snake/camel/kebab variants, then similarity; enabled tools only."""

    registry = ToolRegistry(
        ToolSpec.define(name) for name in ("get_weather", "concert_search", "send_email")
    )

    @pytest.mark.parametrize(
        ("name", "expected"),
        [
            ("getWeather", "get_weather"),
            ("get-weather", "get_weather"),
            ("GET_WEATHER", "get_weather"),
            ("concert_search_v2", "concert_search"),
            ("send_mail", "send_email"),
            ("transfer_money", None),
        ],
    )
    def test_suggest(self, name: str, expected: str | None) -> None:
        assert expected == self.registry.suggest(name)

    def test_disabled_tools_are_not_suggested(self) -> None:
        registry = ToolRegistry([ToolSpec.define("get_weather")])
        registry.disable("get_weather")
        assert registry.suggest("getWeather") is None


class TestToolNames:
    """Names no call could use (the format layer's rule) are refused at load, with a fix."""

    @pytest.mark.parametrize(
        ("name", "fixed"),
        [
            ("read file", "read_file"),
            ("read/file", "read_file"),
            ("wetter_für", "wetter_f_r"),
            ("get\x1b[2Kweather", "get_2Kweather"),
            (" ", "tool"),
            ("a" * 65, "a" * 64),
        ],
    )
    def test_refused(self, name: str, fixed: str) -> None:
        with pytest.raises(ToolDefinitionError) as caught:
            ToolRegistry.from_anthropic([{**ANTHROPIC, "name": name}])
        message = str(caught.value)
        assert message.startswith(f"tool {name!r}: a tool name must be 1-64 letters, digits")
        assert message.endswith(f"rename it, e.g. {fixed!r}")
        assert "\x1b" not in message  # the name is quoted with repr: no raw control

    @pytest.mark.parametrize(
        "load",
        [
            lambda name: ToolRegistry.from_openai([{**OPENAI["function"], "name": name}]),
            lambda name: ToolRegistry.from_pydantic(type(name, (BaseModel,), {})),
            lambda name: ToolRegistry([ToolSpec(name)]),
            lambda name: ToolRegistry([ToolSpec.define(name)]),
        ],
    )
    def test_every_form(self, load: Any) -> None:
        with pytest.raises(ToolDefinitionError, match="a tool name must be"):
            load("ünïcode_name")

    def test_mcp_names_may_be_longer(self) -> None:
        assert 1 == len(ToolRegistry.from_mcp([{**MCP, "name": "a" * 128}]))
        with pytest.raises(ToolDefinitionError, match=r"must be 1-128 letters.*it has 129"):
            ToolRegistry.from_mcp([{**MCP, "name": "a" * 129}])

    @pytest.mark.parametrize(
        "name",
        [
            *("get_weather", "getWeather", "get.weather", "get-weather", "a" * 64),
            *("read file", "a" * 65, "wetter_für", "tab\tname", "x/y", "$ref"),
        ],
    )
    def test_the_format_layer_agrees(self, name: str) -> None:
        call = {"type": "tool_use", "id": "toolu_1", "name": name, "input": {}}
        layer1 = ToolGate(ToolRegistry()).check(call).layers[0]
        name_ok = not any(e.startswith("name:") for e in layer1.errors)
        try:
            ToolSpec.define(name)
        except ToolDefinitionError:
            assert not name_ok, layer1
        else:
            assert name_ok, layer1

    def test_calls_to_the_old_name_find_the_fixed_one(self) -> None:
        registry = ToolRegistry.from_anthropic([{**ANTHROPIC, "name": "read_file"}])
        assert "read_file" == registry.suggest("read file")


BUILTIN_BASH = {"type": "bash_20250124", "name": "bash"}
BUILTIN_EDITOR = {"type": "text_editor_20250124", "name": "str_replace_editor"}
BUILTIN_EDITOR_4 = {"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"}
BUILTIN_COMPUTER = {
    "type": "computer_20250124",
    "name": "computer",
    "display_width_px": 1024,
    "display_height_px": 768,
    "display_number": 1,
}
BUILTIN_SEARCH = {"type": "web_search_20250305", "name": "web_search", "max_uses": 5}


class TestAnthropicBuiltins:
    """Anthropic's built-in tools load with their documented input, or an open object."""

    def registry(self) -> ToolRegistry:
        return ToolRegistry.from_anthropic(
            [BUILTIN_BASH, BUILTIN_EDITOR, BUILTIN_EDITOR_4, BUILTIN_COMPUTER, BUILTIN_SEARCH]
        )

    def test_loaded_from_a_document(self) -> None:
        tools = [BUILTIN_BASH, BUILTIN_EDITOR, BUILTIN_COMPUTER, BUILTIN_SEARCH, ANTHROPIC]
        assert ["anthropic"] * 5 == [detect_form(t) for t in tools]
        specs = specs_from_document({"tools": tools})
        assert ["bash", "str_replace_editor", "computer", "web_search", "get_weather"] == [
            s.name for s in specs
        ]

    @pytest.mark.parametrize(
        ("name", "permission", "kinds"),
        [
            ("bash", Permission.EXECUTE, {"command": ArgumentKind.COMMAND}),
            ("computer", Permission.EXECUTE, {}),
            ("str_replace_editor", Permission.WRITE, {"path": ArgumentKind.PATH}),
            ("str_replace_based_edit_tool", Permission.WRITE, {"path": ArgumentKind.PATH}),
            ("web_search", Permission.READ, {}),
        ],
    )
    def test_permission_and_kinds(
        self, name: str, permission: Permission, kinds: dict[str, ArgumentKind]
    ) -> None:
        spec = self.registry().get(name)
        assert spec is not None and "anthropic" == spec.source
        assert permission == spec.permission
        assert kinds.items() <= dict(spec.kinds).items()

    @pytest.mark.parametrize(
        ("name", "arguments", "allowed"),
        [
            ("bash", {"command": "ls -la"}, True),
            ("bash", {"restart": True}, True),
            ("bash", {"cmd": "ls"}, False),
            ("bash", {"command": 3}, False),
            (
                "str_replace_editor",
                {"command": "view", "path": "/r/a.py", "view_range": [1, -1]},
                True,
            ),
            ("str_replace_editor", {"command": "undo_edit", "path": "/r/a.py"}, True),
            ("str_replace_based_edit_tool", {"command": "undo_edit", "path": "/r/a.py"}, False),
            (
                "str_replace_based_edit_tool",
                {"command": "insert", "path": "/r/a.py", "insert_line": 0, "new_str": "x"},
                True,
            ),
            ("str_replace_editor", {"command": "view"}, False),
            ("str_replace_editor", {"command": "view", "path": "/r", "view_range": [1]}, False),
            ("computer", {"action": "left_click", "coordinate": [10, 20]}, True),
            ("web_search", {"query": "weather in Paris"}, True),
        ],
    )
    def test_parameters(self, name: str, arguments: dict[str, Any], allowed: bool) -> None:
        call = {"type": "tool_use", "id": "toolu_1", "name": name, "input": arguments}
        report = ToolGate(self.registry()).check(call)
        assert allowed == report.allowed, [r.errors for r in report.layers]
        assert allowed or 3 == report.stopped_at

    def test_x_qgs_still_applies(self) -> None:
        tool = {
            **BUILTIN_COMPUTER,
            "x-qgs": {"permission": "write", "kinds": {"text": "free_text"}},
        }
        spec = ToolRegistry.from_anthropic([tool]).get("computer")
        assert spec is not None
        assert (Permission.WRITE, {"text": ArgumentKind.FREE_TEXT}) == (
            spec.permission,
            dict(spec.kinds),
        )

    def test_a_given_schema_wins(self) -> None:
        tool = {**BUILTIN_BASH, "input_schema": WEATHER_SCHEMA}
        spec = ToolRegistry.from_anthropic([tool]).get("bash")
        assert spec is not None and WEATHER_SCHEMA == spec.parameters

    @pytest.mark.parametrize("kind", ["custom", "bash", "bash_2025"])
    def test_unversioned_types_are_not_builtins(self, kind: str) -> None:
        with pytest.raises(ToolDefinitionError, match="cannot tell the form"):
            detect_form({"type": kind, "name": "bash"})


def prop(**schema: Any) -> dict[str, Any]:
    return {"type": "string", **schema}


class TestKinds:
    """Argument kinds from names, descriptions and x-qgs-kind (the heuristic in kinds.py)."""

    @pytest.mark.parametrize(
        ("name", "schema", "tool", "expected"),
        [
            ("command", prop(), "run", ArgumentKind.COMMAND),
            ("shell_cmd", prop(), "run", ArgumentKind.COMMAND),
            ("sql", prop(), "report", ArgumentKind.SQL),
            ("query", prop(), "run_sql_query", ArgumentKind.SQL),
            ("query", prop(), "search_web", ArgumentKind.FREE_TEXT),
            ("query", prop(description="A SQL SELECT statement."), "search", ArgumentKind.SQL),
            ("url", prop(), "fetch", ArgumentKind.URL),
            ("webhookEndpoint", prop(), "notify", ArgumentKind.URL),
            ("target", prop(format="uri"), "fetch", ArgumentKind.URL),
            ("file_path", prop(), "read", ArgumentKind.PATH),
            ("directory_name", prop(), "mkdir", ArgumentKind.PATH),
            ("filename", prop(), "create", ArgumentKind.PATH),
            ("body_html", prop(), "publish", ArgumentKind.HTML),
            ("target", prop(description="Path to the log file."), "tail", ArgumentKind.PATH),
            ("note", prop(description="Any text."), "save", ArgumentKind.FREE_TEXT),
            ("location", prop(), "get_weather", ArgumentKind.FREE_TEXT),
            ("location", prop(**{"x-qgs-kind": "url"}), "get_weather", ArgumentKind.URL),
        ],
    )
    def test_string_kinds(
        self, name: str, schema: dict[str, Any], tool: str, expected: ArgumentKind
    ) -> None:
        kinds = infer_kinds({"properties": {name: schema}}, tool_name=tool)
        assert {name: expected} == kinds

    @pytest.mark.parametrize(
        "schema",
        [{"type": "integer"}, {"type": "boolean"}, prop(enum=["a", "b"]), prop(const="a")],
    )
    def test_no_kind(self, schema: dict[str, Any]) -> None:
        assert {} == infer_kinds({"properties": {"url": schema}})

    def test_nested_and_arrays(self) -> None:
        schema = {
            "properties": {
                "options": {"type": "object", "properties": {"url": prop()}},
                "files": {"type": "array", "items": prop()},
                "uploads": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"path": prop()}},
                },
                "link": {"anyOf": [prop(), {"type": "null"}]},
            }
        }
        assert {
            "options.url": ArgumentKind.URL,
            "files[]": ArgumentKind.PATH,
            "uploads[].path": ArgumentKind.PATH,
            "link": ArgumentKind.URL,
        } == infer_kinds(schema)

    def test_explicit_kinds_override(self) -> None:
        spec = ToolSpec.define(
            "fetch",
            {"properties": {"url": prop(), "note": prop()}},
            kinds={"note": ArgumentKind.HTML},
        )
        assert {"url": ArgumentKind.URL, "note": ArgumentKind.HTML} == dict(spec.kinds)


class TestPermissions:
    """Permissions from the tool name (execute > delete > write > read)."""

    @pytest.mark.parametrize(
        ("name", "expected"),
        [
            ("run_shell", Permission.EXECUTE),
            ("cmd_controller_execute", Permission.EXECUTE),
            ("delete_file", Permission.DELETE),
            ("removeUserFromSlack", Permission.DELETE),
            ("send_money", Permission.WRITE),
            ("reschedule_calendar_event", Permission.WRITE),
            ("get_weather", Permission.READ),
            ("search_files_by_filename", Permission.READ),
            *((name, Permission.WRITE) for name in ("wire_money", "charge_card", "withdraw")),
            *((name, Permission.WRITE) for name in ("refund", "sell_stock")),
            *((name, Permission.DELETE) for name in ("terminate_instance", "shutdown")),
            *((name, Permission.DELETE) for name in ("format_disk", "kill_process")),
            *((name, Permission.EXECUTE) for name in ("restart_server", "chmod", "python")),
            ("computer", Permission.EXECUTE),
            *((name, Permission.READ) for name in ("calculate_area", "convert_currency")),
            *((name, Permission.READ) for name in ("translate_text", "estimate_cost")),
            ("format_date", Permission.READ),
            ("frobnicate", Permission.EXECUTE),  # no known verb: the most privileged
            ("weather", Permission.EXECUTE),
        ],
    )
    def test_names(self, name: str, expected: Permission) -> None:
        assert expected == infer_permission(name)

    def test_a_command_argument_means_execute(self) -> None:
        spec = ToolSpec.define("helper", {"properties": {"command": prop()}})
        assert Permission.EXECUTE == spec.permission

    def test_direct_construction_takes_values_as_given(self) -> None:
        spec = ToolSpec("delete_everything")
        assert (Permission.READ, {}) == (spec.permission, dict(spec.kinds))
