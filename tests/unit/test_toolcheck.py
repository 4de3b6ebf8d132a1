"""The log record of a tool-call check, and the sender that keeps logging off the hot path."""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime

import pytest

from qgs_worker.core.toolgate import GateReport, ToolGate, ToolRegistry
from qgs_worker.queue.toolcheck import (
    MAX_ERRORS,
    MAX_TEXT_CHARS,
    CheckLogSender,
    ToolCheckRecord,
    record_from_report,
)

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                "required": ["city"],
            },
        },
    }
]
GATE = ToolGate(ToolRegistry.from_openai(TOOLS))


def call(arguments: str, name: str = "get_weather", call_id: str = "call_1") -> dict[str, object]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def check(arguments: str = '{"city": "Paris"}', **kwargs: str) -> GateReport:
    return GATE.check(call(arguments, **kwargs))


class TestRecord:
    """A record keeps what reports need and cuts what could be large."""

    def test_allowed(self) -> None:
        record = record_from_report(check(), principal="alice", agent="a-7")
        assert (True, None, None) == (record.allowed, record.stopped_at, record.stopped_layer)
        assert ("get_weather", "call_1", "openai") == (record.tool, record.call_id, record.shape)
        assert [(1, "format", "pass"), (2, "existence", "pass"), (3, "parameters", "pass")] == [
            tuple(x) for x in record.layers
        ]
        assert 32 == len(record.check_id) and record.checked_at.tzinfo is not None

    def test_rejected(self) -> None:
        record = record_from_report(check('{"city": 1}'))
        assert (False, 3, "parameters") == (
            record.allowed,
            record.stopped_at,
            record.stopped_layer,
        )
        assert ["$.city: 1 is not of type 'string'"] == record.errors

    def test_long_text_is_cut(self) -> None:
        name = "x" * 500
        record = record_from_report(check(name=name, call_id="call_" + "9" * 400))
        assert record.tool is not None and record.call_id is not None
        assert 128 == len(record.tool) == len(record.call_id)
        assert all(len(e) <= MAX_TEXT_CHARS for e in record.errors)
        assert len(record.errors) <= MAX_ERRORS

    def test_json_round_trip(self) -> None:
        record = record_from_report(
            check('{"city": 1}'), checked_at=datetime(2025, 1, 2, tzinfo=UTC)
        )
        assert record == ToolCheckRecord.model_validate(record.model_dump(mode="json"))

    def test_unknown_fields_are_ignored(self) -> None:
        data = record_from_report(check()).model_dump(mode="json")
        assert ToolCheckRecord.model_validate({**data, "from_a_newer_client": 1}).allowed

    def test_short_repr_has_no_arguments(self) -> None:
        record = record_from_report(check('{"city": "secret place"}'))
        assert "secret" not in record.short_repr() and "allowed" in record.short_repr()


class TestSender:
    """Records go out from a thread; failures are dropped, counted and said once."""

    def test_sends_every_record(self) -> None:
        sent: list[ToolCheckRecord] = []
        sender = CheckLogSender(sent.append)
        for principal in ("a", "b", "c"):
            sender.submit(check(), principal, "agent")
        assert sender.flush(5)
        assert ["a", "b", "c"] == [r.principal for r in sent]
        assert len({r.check_id for r in sent}) == 3 == sender.sent
        sender.close()

    def test_failures_warn_once_then_resume(self, caplog: pytest.LogCaptureFixture) -> None:
        sent: list[ToolCheckRecord] = []
        broken = threading.Event()
        broken.set()

        def send(record: ToolCheckRecord) -> None:
            if broken.is_set():
                raise ConnectionError("broker down")
            sent.append(record)

        sender = CheckLogSender(send)
        with caplog.at_level(logging.WARNING, logger="qgs_worker.queue.toolcheck"):
            for _ in range(3):
                sender.submit(check(), None, None)
            assert sender.flush(5)
            broken.clear()
            sender.submit(check(), None, None)
            assert sender.flush(5)
        messages = [r.getMessage() for r in caplog.records]
        assert 1 == sum("not being logged" in m and "broker down" in m for m in messages)
        assert 1 == sum("resumed; 3 checks were not logged" in m for m in messages)
        assert (1, 3) == (sender.sent, sender.dropped)
        sender.close()

    def test_full_queue_drops_without_blocking(self) -> None:
        release = threading.Event()
        sender = CheckLogSender(lambda _record: release.wait(5), max_queued=2)
        for _ in range(10):
            sender.submit(check(), None, None)  # the first is taken, two wait, the rest drop
        assert sender.dropped >= 7
        release.set()
        assert sender.flush(5)
        assert 10 == sender.sent + sender.dropped
        sender.close()

    def test_flush_before_any_check(self) -> None:
        assert CheckLogSender(lambda _record: None).flush(0.1)


def test_a_new_list_of_the_same_tools_reuses_the_gate() -> None:
    import copy

    from qgs_worker.client import Client
    from qgs_worker.config.settings import Settings

    tools = [
        {
            "type": "function",
            "function": {
                "name": "get_balance",
                "parameters": {"type": "object", "properties": {}},
            },
        }
    ]
    client = Client(Settings())
    assert client.tool_gate(tools) is client.tool_gate(copy.deepcopy(tools))
