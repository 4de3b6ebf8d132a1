"""The tool-call gate's interfaces: the client, the log job, `qgs check-tool`, `qgs report`.

Real calls from the shared corpus (BFCL valid and derived invalid calls); a real Redis and a real
Celery worker for the log job, on SQLite and PostgreSQL; a broker that refuses connections.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from celery.signals import task_postrun
from rich.console import Console
from typer.testing import CliRunner

from qgs_worker import client as client_module
from qgs_worker.cli import app as cli_app
from qgs_worker.client import Client
from qgs_worker.config.settings import Settings
from qgs_worker.core.models import ToolCall
from qgs_worker.core.toolgate import (
    GateReport,
    GateSettings,
    Strictness,
    ToolGate,
    ToolRegistry,
)
from qgs_worker.errors import ConfigurationError, InputError
from qgs_worker.queue.toolcheck import TOOL_LOG_JOB, record_from_report, send_with
from qgs_worker.reports.report import build_report, render_markdown, render_table
from qgs_worker.store import Repository, ToolCallCheckRow
from tests.integration.conftest import make_settings, running_worker

pytestmark = pytest.mark.integration

MUTATION_LAYER = {
    "malformed_json_arguments": 1,
    "arguments_not_string": 1,
    "missing_tool_call_id": 1,
    "wrong_call_type": 1,
    "empty_function_name": 1,
    "unknown_tool": 2,
    "missing_required": 3,
    "wrong_type": 3,
    "unknown_param": 3,
    "enum_violation": 3,
}
"""Where each BFCL mutation is stopped (tests/unit/test_toolgate_corpus.py keeps the table)."""

REFUSING_BROKER = "redis://127.0.0.1:1/15"
"""A broker URL nothing listens on: connections are refused at once."""


def records(corpus: Path, name: str) -> list[dict[str, Any]]:
    with (corpus / name).open(encoding="utf-8") as stream:
        return [json.loads(line) for line in stream if line.strip()]


@pytest.fixture
def valid(corpus: Path) -> list[dict[str, Any]]:
    """BFCL records whose calls are valid."""
    return records(corpus, "a_bfcl_tool_calls_valid.jsonl")


@pytest.fixture
def invalid(corpus: Path) -> list[dict[str, Any]]:
    """BFCL records with one mutation each (``mutation``) that the gate must stop."""
    return records(corpus, "a_bfcl_tool_calls_invalid_derived.jsonl")


def first_call(record: dict[str, Any]) -> dict[str, Any]:
    call: dict[str, Any] = record["assistant_message"]["tool_calls"][0]
    return call


def wait_for(predicate: Callable[[], bool], timeout_s: float, what: str) -> None:
    """Poll ``predicate`` until it holds; fail naming ``what`` after ``timeout_s`` seconds."""
    deadline = time.monotonic() + timeout_s
    while not predicate():
        assert time.monotonic() < deadline, f"timed out after {timeout_s} s waiting for {what}"
        time.sleep(0.05)


@pytest.fixture
def offline(tmp_path: Path) -> Iterator[Client]:
    """A client with a SQLite store and no broker: checks run, nothing is logged."""
    qgs = Client(Settings(data_dir=tmp_path / ".qgs", database_url=f"sqlite:///{tmp_path}/q.db"))
    yield qgs
    qgs.repo.dispose()


class TestClientCheck:
    """`check_tool_call` returns a report for every call, valid or not; rejections are values."""

    def test_valid_corpus_calls_may_run(self, offline: Client, valid: list[dict[str, Any]]) -> None:
        refused = []
        checked = 0
        for record in valid:
            forms = [
                (record["tools"], record["assistant_message"]["tool_calls"]),
                (record["anthropic_tools"], record["anthropic_assistant_content"]),
            ]
            for tools, calls in forms:
                for call in calls:
                    report = offline.check_tool_call(call, tools=tools, principal="alice")
                    checked += 1
                    if not report.allowed:
                        refused.append((record["id"], report.to_dict()))
        assert [] == refused
        assert checked >= 70

    def test_invalid_corpus_calls_are_reports(
        self, offline: Client, invalid: list[dict[str, Any]]
    ) -> None:
        wrong = []
        for record in invalid:
            report = offline.check_tool_call(first_call(record), tools=record["tools"])
            assert isinstance(report, GateReport)
            expected = MUTATION_LAYER[record["mutation"]]
            if report.allowed or report.stopped_at != expected or not report.errors:
                wrong.append((record["id"], report.to_dict()))
        assert [] == wrong

    def test_message_with_several_calls(self, offline: Client, valid: list[dict[str, Any]]) -> None:
        record = next(r for r in valid if len(r["assistant_message"]["tool_calls"]) > 1)
        reports = offline.check_tool_calls(record["assistant_message"], tools=record["tools"])
        assert len(record["assistant_message"]["tool_calls"]) == len(reports)
        assert all(r.allowed for r in reports)

    def test_tool_call_model(self, offline: Client, valid: list[dict[str, Any]]) -> None:
        record = valid[0]
        call = first_call(record)
        function = call["function"]
        model = ToolCall(
            id=call["id"], name=function["name"], arguments=json.loads(function["arguments"])
        )
        assert offline.check_tool_call(model, tools=record["tools"]).allowed

    def test_gate_built_once_per_tools(self, offline: Client, valid: list[dict[str, Any]]) -> None:
        tools = valid[0]["tools"]
        assert offline.tool_gate(tools) is offline.tool_gate(tools)
        registry = ToolRegistry.from_openai(tools)
        assert offline.tool_gate(registry) is offline.tool_gate(registry)
        gate = ToolGate(registry)
        assert gate is offline.tool_gate(gate)

    def test_a_known_list_is_not_built_again_and_an_edit_in_place_is_seen(
        self, offline: Client, valid: list[dict[str, Any]]
    ) -> None:
        tools = [dict(t) for t in valid[0]["tools"]]
        first = offline.tool_gate(tools)
        assert first is offline.tool_gate(tools)
        assert first is offline.tool_gate([dict(t) for t in tools])  # a new list, same content
        assert 1 == offline.gate_cache.builds
        tools.pop()  # the same list object, one tool fewer (break test: a stale gate was served)
        assert first is not offline.tool_gate(tools)
        assert 2 == offline.gate_cache.builds

    def test_many_lists_in_rotation_are_built_once_each(
        self, offline: Client, valid: list[dict[str, Any]]
    ) -> None:
        """Issue 15: 33 lists in rotation rebuilt a gate on every call (a cache of 32)."""
        lists = [[dict(t) for t in r["tools"]] for r in valid]
        lists += [  # and 100 lists at least, each its own content
            [*r["tools"], {"type": "function", "function": {"name": f"extra_{n}"}}]
            for n, r in enumerate(valid * (100 // len(valid) + 1))
        ]
        distinct = {json.dumps(tools, sort_keys=True) for tools in lists}
        for _ in range(3):
            for tools in lists:
                offline.check_tool_call(first_call(valid[0]), tools=tools, log=False)
            for tools in lists:  # the same definitions as new objects
                offline.tool_gate(json.loads(json.dumps(tools)))
        assert len(distinct) == offline.gate_cache.builds

    def test_a_list_changed_in_place_is_read_again(
        self, offline: Client, valid: list[dict[str, Any]]
    ) -> None:
        tools = [dict(t) for t in valid[0]["tools"]]
        before = offline.tool_gate(tools)
        extra = {
            "type": "function",
            "function": {"name": "added_later", "parameters": {"type": "object"}},
        }
        tools.append(extra)
        after = offline.tool_gate(tools)
        assert after is not before and after.registry.get("added_later") is not None

    def test_tools_file_setting(
        self, tmp_path: Path, valid: list[dict[str, Any]], invalid: list[dict[str, Any]]
    ) -> None:
        path = tmp_path / "tools.json"
        path.write_text(json.dumps(valid[0]["tools"]))
        qgs = Client(Settings(database_url=f"sqlite:///{tmp_path}/q.db", tools_file=path))
        assert qgs.check_tool_call(first_call(valid[0])).allowed
        assert qgs.tool_gate() is qgs.tool_gate()
        unknown = next(r for r in invalid if r["mutation"] == "unknown_tool")
        assert 2 == qgs.check_tool_call(first_call(unknown)).stopped_at

    def test_module_function_on_the_environment(
        self,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture,
        valid: list[dict[str, Any]],
    ) -> None:
        path = tmp_path / "tools.json"
        path.write_text(json.dumps({"tools": valid[0]["anthropic_tools"]}))
        monkeypatch.setenv("QGS_TOOLS_FILE", str(path))
        monkeypatch.setenv("QGS_DATABASE_URL", f"sqlite:///{tmp_path}/q.db")
        monkeypatch.setattr(client_module, "_default", None)
        block = valid[0]["anthropic_assistant_content"][0]
        with caplog.at_level(logging.WARNING, logger="qgs_worker.client"):
            for _ in range(3):
                assert client_module.check_tool_call(block, principal="alice").allowed
        said = [r for r in caplog.records if "not logged" in r.getMessage()]
        assert 1 == len(said) and "QGS_BROKER_URL" in said[0].getMessage()


class TestUnusableInput:
    """Only input that is not a call at all, or no registry, raises: with the field and the fix."""

    @pytest.mark.parametrize(
        ("call", "words"),
        [
            ('{"id": "call_1"}', "json.loads"),
            ([{"id": "call_1"}], "check_tool_calls"),
            (None, "got NoneType"),
            ({"role": "assistant", "tool_calls": []}, "check_tool_calls(message)"),
        ],
        ids=["json-string", "list", "none", "message"],
    )
    def test_not_a_call(
        self, offline: Client, valid: list[dict[str, Any]], call: object, words: str
    ) -> None:
        with pytest.raises(InputError, match="'call'") as info:
            offline.check_tool_call(call, tools=valid[0]["tools"])
        assert words in str(info.value)

    def test_a_shapeless_object_is_a_format_rejection(
        self, offline: Client, valid: list[dict[str, Any]]
    ) -> None:
        report = offline.check_tool_call({"tool": "x"}, tools=valid[0]["tools"])
        assert (False, 1) == (report.allowed, report.stopped_at)

    def test_no_registry(self, offline: Client, valid: list[dict[str, Any]]) -> None:
        with pytest.raises(ConfigurationError, match="QGS_TOOLS_FILE"):
            offline.check_tool_call(first_call(valid[0]))

    def test_unusable_tools_file(self, tmp_path: Path, valid: list[dict[str, Any]]) -> None:
        path = tmp_path / "tools.json"
        path.write_text('{"tools": [{"name": "x"}]}')
        qgs = Client(Settings(database_url=f"sqlite:///{tmp_path}/q.db", tools_file=path))
        with pytest.raises(ConfigurationError, match=re.escape(f"QGS_TOOLS_FILE={path}")):
            qgs.check_tool_call(first_call(valid[0]))

    def test_tools_of_another_type(self, offline: Client, valid: list[dict[str, Any]]) -> None:
        with pytest.raises(InputError, match=re.escape("ToolRegistry.from_file(path)")):
            offline.check_tool_call(first_call(valid[0]), tools="tools.json")  # type: ignore


@pytest.fixture
def completed_logs() -> Iterator[list[str]]:
    """The check ids of the ``qgs.toolgate.log`` jobs the in-process worker finished."""
    done: list[str] = []
    lock = threading.Lock()

    def finished(sender: Any = None, args: Any = None, **_: Any) -> None:
        if getattr(sender, "name", None) == TOOL_LOG_JOB and args:
            with lock:
                done.append(str(args[0].get("check_id")))

    task_postrun.connect(finished, weak=False)
    yield done
    task_postrun.disconnect(finished)


class TestLogJob:
    """Each check is written once by a real worker, on SQLite and PostgreSQL."""

    def test_one_row_per_check(
        self,
        redis_url: str,
        store_url: str,
        tmp_path: Path,
        valid: list[dict[str, Any]],
        invalid: list[dict[str, Any]],
        completed_logs: list[str],
    ) -> None:
        settings = make_settings(redis_url, store_url, None, tmp_path)
        repo = Repository(store_url)
        with running_worker(settings) as worker_app:
            qgs = Client(settings, app=worker_app)
            cases = [(r, True) for r in valid[:5]] + [(r, False) for r in invalid[:10]]
            reports = [
                qgs.check_tool_call(
                    first_call(r), tools=r["tools"], principal=f"p{i}", agent="agent-7"
                )
                for i, (r, _) in enumerate(cases)
            ]
            assert [ok for _, ok in cases] == [r.allowed for r in reports]
            assert qgs.flush_tool_log(10)
            wait_for(lambda: len(completed_logs) >= len(cases), 30, "the log jobs")
            rows = repo.list_tool_call_checks(100)
        assert len(cases) == len(rows) == len({r.check_id for r in rows})
        assert (len(cases), 5) == repo.tool_call_check_counts()
        by_principal = {r.principal: r for r in rows}
        for i, report in enumerate(reports):
            row = by_principal[f"p{i}"]
            assert (report.allowed, report.stopped_at) == (row.allowed, row.stopped_at)
            assert (report.tool_name, "agent-7") == (row.tool, row.agent)
            assert row.latency_us > 0
            if not report.allowed:
                assert json.loads(row.errors)[0] == report.errors[0][:300]
                assert row.stopped_layer == report.stopped_layer.name  # type: ignore[union-attr]
        expected_layers: dict[int, int] = {}
        for record, _ in cases[5:]:
            layer = MUTATION_LAYER[record["mutation"]]
            expected_layers[layer] = expected_layers.get(layer, 0) + 1
        assert expected_layers == repo.rejected_by_layer()
        repo.dispose()

    def test_same_check_id_twice_is_one_row(
        self,
        redis_url: str,
        store_url: str,
        tmp_path: Path,
        invalid: list[dict[str, Any]],
        completed_logs: list[str],
    ) -> None:
        settings = make_settings(redis_url, store_url, None, tmp_path)
        gate = ToolGate(ToolRegistry.from_openai(invalid[0]["tools"]))
        record = record_from_report(gate.check(first_call(invalid[0])), principal="bob")
        repo = Repository(store_url)
        with running_worker(settings) as worker_app:
            send = send_with(worker_app)
            send(record)
            send(record)
            wait_for(lambda: completed_logs.count(record.check_id) >= 2, 30, "both deliveries")
        rows = repo.list_tool_call_checks()
        assert [record.check_id] == [r.check_id for r in rows]
        assert ("bob", False, 3) == (rows[0].principal, rows[0].allowed, rows[0].stopped_at)
        repo.dispose()

    def test_invalid_record_is_dropped(
        self, redis_url: str, tmp_path: Path, completed_logs: list[str]
    ) -> None:
        store = f"sqlite:///{tmp_path / 'q.db'}"
        settings = make_settings(redis_url, store, None, tmp_path)
        with running_worker(settings) as worker_app:
            worker_app.send_task(TOOL_LOG_JOB, args=[{"check_id": "not-hex"}])
            wait_for(lambda: "not-hex" in completed_logs, 30, "the invalid record's job")
        assert 0 == Repository(store).count_rows(ToolCallCheckRow)


class TestBrokerDown:
    """An unreachable broker never reaches the agent: the report comes back, one warning."""

    def test_check_returns_and_warns_once(
        self,
        tmp_path: Path,
        caplog: pytest.LogCaptureFixture,
        valid: list[dict[str, Any]],
        invalid: list[dict[str, Any]],
    ) -> None:
        settings = Settings(database_url=f"sqlite:///{tmp_path}/q.db", broker_url=REFUSING_BROKER)
        qgs = Client(settings)
        trying_threads: set[int] = set()
        send_check = qgs._send_check

        def spy(record: Any) -> None:
            trying_threads.add(threading.get_ident())
            send_check(record)

        qgs._send_check = spy  # type: ignore[method-assign]
        with caplog.at_level(logging.WARNING, logger="qgs_worker.queue.toolcheck"):
            ok = qgs.check_tool_call(first_call(valid[0]), tools=valid[0]["tools"])
            bad = qgs.check_tool_call(first_call(invalid[0]), tools=invalid[0]["tools"])
            assert (True, False) == (ok.allowed, bad.allowed)
            assert qgs.flush_tool_log(20)
        # the broker is tried in the background, never on the agent's thread
        assert trying_threads and threading.get_ident() not in trying_threads
        assert qgs.tool_log is not None
        assert (0, 2) == (qgs.tool_log.sent, qgs.tool_log.dropped)
        said = [r for r in caplog.records if "not being logged" in r.getMessage()]
        assert 1 == len(said)
        qgs.repo.dispose()


class TestHotPathCost:
    """Logging happens on the sender thread, never the agent's; the figures are printed.

    (Speed is measured, not asserted: the printed p50s are for the closing note; the test
    asserts where the publishing happens and that nothing was lost.)
    """

    def test_logging_is_off_the_callers_thread(
        self, redis_url: str, tmp_path: Path, valid: list[dict[str, Any]]
    ) -> None:
        settings = make_settings(redis_url, f"sqlite:///{tmp_path}/q.db", None, tmp_path)
        qgs = Client(settings)
        publishing_threads: set[int] = set()
        send_check = qgs._send_check

        def spy(record: Any) -> None:
            publishing_threads.add(threading.get_ident())
            send_check(record)

        qgs._send_check = spy  # type: ignore[method-assign]
        record = valid[0]
        call, tools = first_call(record), record["tools"]
        for _ in range(200):  # warm up: the gate, the app, the sender thread
            qgs.check_tool_call(call, tools=tools)
        assert qgs.flush_tool_log(30)
        quiet, logged = [], []
        for _ in range(1000):
            started = time.perf_counter_ns()
            qgs.check_tool_call(call, tools=tools, log=False)
            quiet.append(time.perf_counter_ns() - started)
            started = time.perf_counter_ns()
            qgs.check_tool_call(call, tools=tools)
            logged.append(time.perf_counter_ns() - started)
        assert qgs.flush_tool_log(60)
        direct = []
        send = send_with(qgs.app)
        sample = record_from_report(qgs.check_tool_call(call, tools=tools, log=False))
        for _ in range(100):
            started = time.perf_counter_ns()
            send(sample)
            direct.append(time.perf_counter_ns() - started)
        with qgs.app.connection_for_write() as conn:
            conn.default_channel.queue_purge("qgs.default")

        def p50_us(values: list[int]) -> float:
            return sorted(values)[len(values) // 2] / 1000

        cost_us = p50_us(logged) - p50_us(quiet)
        print(
            f"\ncheck p50 {p50_us(quiet):.1f} us without logging, {p50_us(logged):.1f} us with "
            f"(+{cost_us:.1f} us); publishing directly: p50 {p50_us(direct):.0f} us"
        )
        assert publishing_threads and threading.get_ident() not in publishing_threads
        assert 0 == qgs.tool_log.dropped and 1200 <= qgs.tool_log.sent
        qgs.repo.dispose()


def run(*args: str) -> Any:
    return CliRunner().invoke(cli_app, list(args), catch_exceptions=False)


def write(path: Path, value: Any) -> str:
    path.write_text(json.dumps(value), encoding="utf-8")
    return str(path)


class TestCheckToolCommand:
    """`qgs check-tool`: exit 0 may run, 1 rejected, 2 unusable input; --format json."""

    def test_valid_call(self, tmp_path: Path, valid: list[dict[str, Any]]) -> None:
        record = valid[0]
        tools = write(tmp_path / "tools.json", record["tools"])
        result = run("check-tool", "--tools", tools, write(tmp_path / "c.json", first_call(record)))
        assert 0 == result.exit_code, result.output
        assert "✓ 1 format" in result.stdout and "may run" in result.stdout

    def test_invalid_calls(self, tmp_path: Path, invalid: list[dict[str, Any]]) -> None:
        for record in invalid:
            tools = write(tmp_path / "tools.json", record["tools"])
            call = write(tmp_path / "call.json", first_call(record))
            result = run("check-tool", "--tools", tools, call)
            layer = MUTATION_LAYER[record["mutation"]]
            assert 1 == result.exit_code, (record["id"], result.output)
            assert f"rejected at layer {layer} (" in result.stdout, record["id"]
            assert "✗" in result.stdout

    def test_json_output(self, tmp_path: Path, invalid: list[dict[str, Any]]) -> None:
        record = next(r for r in invalid if r["mutation"] == "enum_violation")
        tools = write(tmp_path / "tools.json", record["tools"])
        call = write(tmp_path / "call.json", first_call(record))
        result = run("check-tool", "--tools", tools, call, "--format", "json")
        assert 1 == result.exit_code
        report = json.loads(result.stdout)
        assert (False, 3) == (report["allowed"], report["stopped_at"])
        names = [x["name"] for x in report["layers"]]
        assert ["format", "existence", "parameters"] == names[:3]
        assert report["layers"][2]["errors"] and report["latency_us"] > 0
        assert {"skipped"} == {x["status"] for x in report["layers"][3:]}

    def test_message_with_several_calls(self, tmp_path: Path, valid: list[dict[str, Any]]) -> None:
        record = next(r for r in valid if len(r["assistant_message"]["tool_calls"]) > 1)
        tools = write(tmp_path / "tools.json", record["tools"])
        message = record["assistant_message"]
        result = run("check-tool", "--tools", tools, write(tmp_path / "m.json", message))
        count = len(message["tool_calls"])
        assert 0 == result.exit_code, result.output
        assert f"{count} of {count} calls may run" in result.stdout
        broken = json.loads(json.dumps(message))
        broken["tool_calls"][-1]["function"]["arguments"] = "{"
        path = write(tmp_path / "m2.json", broken)
        result = run("check-tool", "--tools", tools, path, "--format", "json")
        assert 1 == result.exit_code
        data = json.loads(result.stdout)
        assert data["allowed"] is False
        assert [True] * (count - 1) + [False] == [r["allowed"] for r in data["reports"]]

    def test_anthropic_and_mcp_forms(self, tmp_path: Path, valid: list[dict[str, Any]]) -> None:
        record = valid[0]
        block = record["anthropic_assistant_content"][0]
        tools = write(tmp_path / "a.json", record["anthropic_tools"])
        assert 0 == run("check-tool", "--tools", tools, write(tmp_path / "b.json", block)).exit_code
        mcp_tools = {
            "tools": [
                {
                    "name": t["name"],
                    "description": t.get("description", ""),
                    "inputSchema": t["input_schema"],
                }
                for t in record["anthropic_tools"]
            ]
        }
        request = {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "tools/call",
            "params": {"name": block["name"], "arguments": block["input"]},
        }
        mcp = write(tmp_path / "mcp.json", mcp_tools)
        result = run("check-tool", "--tools", mcp, write(tmp_path / "r.json", request))
        assert 0 == result.exit_code, result.output
        assert "(mcp)" in result.stdout

    def test_strictness(self, tmp_path: Path, corpus: Path) -> None:
        for record in records(corpus, "a_bfcl_gt_strict_schema_conflicts.jsonl"):
            registry = ToolRegistry.from_openai([record["tool"]])
            call = {
                "id": "call_0",
                "type": "function",
                "function": {
                    "name": registry.names[0],
                    "arguments": json.dumps(record["arguments"]),
                },
            }
            lenient = ToolGate(registry, settings=GateSettings(strictness=Strictness.LENIENT))
            if lenient.check(call).allowed:
                break
        else:
            pytest.fail("no strict-schema conflict passes the lenient gate")
        tools = write(tmp_path / "t.json", [record["tool"]])
        path = write(tmp_path / "c.json", call)
        assert 0 == run("check-tool", "--tools", tools, path).exit_code
        strict = run("check-tool", "--tools", tools, path, "--strictness", "strict")
        assert 1 == strict.exit_code
        assert "rejected at layer 3 (parameters)" in strict.stdout

    def test_stdin(self, tmp_path: Path, valid: list[dict[str, Any]]) -> None:
        record = valid[0]
        tools = write(tmp_path / "tools.json", record["tools"])
        result = CliRunner().invoke(
            cli_app, ["check-tool", "--tools", tools, "-"], input=json.dumps(first_call(record))
        )
        assert 0 == result.exit_code, result.output

    @pytest.mark.parametrize(
        ("case", "words"),
        [
            ("no-call-file", "no such call file"),
            ("bad-json", "is not valid JSON"),
            ("no-tools-file", "no such tools file"),
            ("call-as-tools", "holds tool calls, not tool definitions"),
            ("not-definitions", "cannot tell the form of a tool definition"),
            ("no-definitions", "holds no tool definitions"),
            ("no-calls", "holds no tool call"),
        ],
    )
    def test_unusable_input(
        self, tmp_path: Path, valid: list[dict[str, Any]], case: str, words: str
    ) -> None:
        record = valid[0]
        tools = write(tmp_path / "tools.json", record["tools"])
        call = write(tmp_path / "call.json", first_call(record))
        bad = tmp_path / "bad.json"
        bad.write_text('{"id": "call_1", "function": {', encoding="utf-8")
        args = {
            "no-call-file": [tools, str(tmp_path / "missing.json")],
            "bad-json": [tools, str(bad)],
            "no-tools-file": [str(tmp_path / "missing.json"), call],
            "call-as-tools": [call, call],
            "not-definitions": [write(tmp_path / "x.json", [{"title": "x"}]), call],
            "no-definitions": [write(tmp_path / "e.json", []), call],
            "no-calls": [tools, write(tmp_path / "m.json", {"role": "assistant", "content": "hi"})],
        }[case]
        result = run("check-tool", "--tools", args[0], args[1])
        assert 2 == result.exit_code, result.output
        message = " ".join(result.stderr.split())
        assert words in message
        named = Path(args[0] if "tools" in case or "definitions" in case else args[1]).name
        assert named in message


class TestCheckToolLogging:
    """With a broker configured, `qgs check-tool` logs each check (unless --no-log)."""

    def test_logged_through_the_worker(
        self,
        redis_url: str,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        invalid: list[dict[str, Any]],
        completed_logs: list[str],
    ) -> None:
        store = f"sqlite:///{tmp_path / 'qgs.db'}"
        monkeypatch.setenv("QGS_BROKER_URL", redis_url)
        monkeypatch.setenv("QGS_DATABASE_URL", store)
        monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / ".qgs"))
        record = next(r for r in invalid if r["mutation"] == "unknown_tool")
        tools = write(tmp_path / "tools.json", record["tools"])
        call = write(tmp_path / "call.json", first_call(record))
        with running_worker(make_settings(redis_url, store, None, tmp_path)):
            assert 1 == run("check-tool", "--tools", tools, call, "--no-log").exit_code
            assert 1 == run("check-tool", "--tools", tools, call, "--principal", "carol").exit_code
            wait_for(lambda: len(completed_logs) >= 1, 30, "the log job")
        rows = Repository(store).list_tool_call_checks()
        assert [("carol", 2, "existence")] == [
            (r.principal, r.stopped_at, r.stopped_layer) for r in rows
        ]


class TestReport:
    """`qgs report` counts checks, rejections by layer, and lists the newest rejected calls."""

    @pytest.fixture
    def repo(
        self, store_url: str, invalid: list[dict[str, Any]], valid: list[dict[str, Any]]
    ) -> Iterator[Repository]:
        repository = Repository(store_url)
        for record in [*valid[:3], *invalid]:
            gate = ToolGate(ToolRegistry.from_openai(record["tools"]))
            check = record_from_report(
                gate.check(first_call(record)), checked_at=datetime.now(UTC), agent="agent-7"
            )
            repository.save_tool_call_check(
                check_id=check.check_id,
                created_at=check.checked_at,
                principal=check.principal,
                agent=check.agent,
                tool=check.tool,
                shape=check.shape,
                call_id=check.call_id,
                allowed=check.allowed,
                stopped_at=check.stopped_at,
                stopped_layer=check.stopped_layer,
                errors=check.errors,
                warnings=check.warnings,
                layers=check.layers,
                suggestion=check.suggestion,
                latency_us=check.latency_us,
            )
        yield repository
        repository.dispose()

    def test_json(self, repo: Repository, invalid: list[dict[str, Any]]) -> None:
        report = build_report(repo)
        keys = {"generated_at", "judges", "summary", "tasks", "errors", "tool_calls"}
        assert keys | {"dead_letters", "unfinished", "filter", "spot_checks"} == set(report)
        calls = report["tool_calls"]
        assert (len(invalid) + 3, 3, len(invalid)) == (
            calls["total"],
            calls["allowed"],
            calls["rejected"],
        )
        names = {1: "format", 2: "existence", 3: "parameters"}
        expected = dict.fromkeys(
            ["format", "existence", "parameters", "business_rules", "permission", "injection"], 0
        )
        for record in invalid:
            expected[names[MUTATION_LAYER[record["mutation"]]]] += 1
        assert expected == calls["rejected_by_layer"]
        recent = calls["recent_rejected"]
        assert 10 == len(recent)
        assert all(c["error"] and c["layer_name"] == names[c["layer"]] for c in recent)
        assert all(c["agent"] == "agent-7" and c["checked_at"].endswith("+00:00") for c in recent)

    def test_table_and_markdown(self, repo: Repository) -> None:
        report = build_report(repo)
        by_layer = report["tool_calls"]["rejected_by_layer"]
        console = Console(width=160, record=True)
        render_table(report, console)
        text = console.export_text()
        assert "Tool-call checks" in text and f"parameters {by_layer['parameters']}" in text
        assert "business rules 0" in text and "most recent rejected calls" in text
        markdown = render_markdown(report)
        assert "## Tool-call checks" in markdown
        assert f"format {by_layer['format']}, existence {by_layer['existence']}" in markdown

    def test_report_command(
        self, repo: Repository, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setenv("QGS_DATABASE_URL", repo.url)
        monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / ".qgs"))
        result = run("report", "--format", "json")
        assert 0 == result.exit_code, result.output
        data = json.loads(result.stdout)
        assert data["tool_calls"]["rejected"] == sum(
            data["tool_calls"]["rejected_by_layer"].values()
        )
        assert 0 == data["summary"]["tasks"]
