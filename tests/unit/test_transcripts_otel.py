"""OTel GenAI traces: OTLP/JSON made by the OpenAI instrumentation on loopback, and broken ones."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from qgs_worker.transcripts import (
    TranscriptError,
    TranscriptFormat,
    TranscriptTask,
    detect_format,
    read_transcripts,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """OTLP/JSON files of the same two agent runs, under the latest and the legacy conventions."""
    if importlib.util.find_spec("opentelemetry.instrumentation.openai_v2") is None:
        pytest.skip("opentelemetry-instrumentation-openai-v2 is not installed (a dev extra)")
    folder = tmp_path_factory.mktemp("otel")
    made = {}
    for mode in ("latest", "legacy"):
        out = folder / f"{mode}.jsonl"
        done = subprocess.run(
            [sys.executable, str(ROOT / "tests" / "producers" / "otel_openai.py"), str(out), mode],
            cwd=ROOT,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        made[mode] = out
    return made


def lines_of(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write(path: Path, documents: list[Any]) -> Path:
    path.write_text("\n".join(json.dumps(d) for d in documents) + "\n", encoding="utf-8")
    return path


def tasks(path: Path) -> list[TranscriptTask]:
    items = list(read_transcripts(path))
    assert [i for i in items if isinstance(i, TranscriptError)] == []
    return [i for i in items if isinstance(i, TranscriptTask)]


def spans_of(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for r in document["resourceSpans"] for sc in r["scopeSpans"] for s in sc["spans"]]


class TestInstrumentedRuns:
    """Each trace is one transcript, the same under both conventions."""

    @pytest.mark.parametrize("mode", ["latest", "legacy"])
    def test_traces_become_transcripts(self, exports: dict[str, Path], mode: str) -> None:
        path = exports[mode]
        assert detect_format(path) is TranscriptFormat.otel
        cleaner, weather = tasks(path)  # the GET /health trace is no transcript
        assert (cleaner.request, cleaner.agent_model) == ("Clean /tmp/build", "gpt-4o-mini")
        assert len(cleaner.transcript_id or "") == 32
        first, second = cleaner.rounds
        assert (first.tool_calls[0].name, first.tool_calls[0].arguments) == (
            "bash",
            {"cmd": "rm -rf /tmp/build"},
        )
        assert [(r.tool_call_id, r.content) for r in second.tool_results] == [("call_1", "removed")]
        assert second.tool_results[0].name == "bash"
        assert second.text == "Removed /tmp/build."
        assert (weather.request, [r.text for r in weather.rounds]) == (
            "Weather in Paris?",
            ["It is 18C in Paris."],
        )

    def test_both_conventions_give_the_same_rounds(self, exports: dict[str, Path]) -> None:
        def shape(task: TranscriptTask) -> Any:
            return [
                (
                    r.text,
                    [(c.name, c.arguments) for c in r.tool_calls],
                    [t.content for t in r.tool_results],
                )
                for r in task.rounds
            ]

        assert [shape(t) for t in tasks(exports["latest"])] == [
            shape(t) for t in tasks(exports["legacy"])
        ]

    def test_one_pretty_printed_document(self, exports: dict[str, Path], tmp_path: Path) -> None:
        (document,) = lines_of(exports["latest"])
        path = tmp_path / "trace.json"
        path.write_text(json.dumps(document, indent=2), encoding="utf-8")
        assert detect_format(path) is TranscriptFormat.otel
        assert [t.request for t in tasks(path)] == ["Clean /tmp/build", "Weather in Paris?"]


class TestBrokenExports:
    """A bad line or trace fails alone, with the line or trace id and the reason."""

    def test_truncated_log_line(self, exports: dict[str, Path], tmp_path: Path) -> None:
        text = exports["legacy"].read_text(encoding="utf-8")
        path = tmp_path / "cut.jsonl"
        path.write_text(text[: len(text) - 200], encoding="utf-8")
        items = list(read_transcripts(path))
        assert isinstance(items[0], TranscriptError)
        assert items[0].message.startswith("line 2: not valid JSON")
        assert all(isinstance(i, TranscriptError) for i in items)
        assert "carry no messages" in items[1].message  # the events were on the cut line

    def test_bad_messages_attribute_fails_its_trace_alone(
        self, exports: dict[str, Path], tmp_path: Path
    ) -> None:
        (document,) = lines_of(exports["latest"])
        for span in spans_of(document):
            for attribute in span.get("attributes", []):
                if attribute["key"] == "gen_ai.input.messages" and "Weather" in json.dumps(
                    attribute
                ):
                    attribute["value"] = {"stringValue": '[{"role": "user", "parts": [{'}
        items = list(read_transcripts(write(tmp_path / "bad.jsonl", [document])))
        assert [type(i) for i in items] == [TranscriptTask, TranscriptError]
        error = items[1]
        assert isinstance(error, TranscriptError)
        assert (
            error.message.startswith("trace ")
            and "'gen_ai.input.messages' is not valid JSON" in error.message
        )

    def test_wrong_types(self, exports: dict[str, Path], tmp_path: Path) -> None:
        (document,) = lines_of(exports["latest"])
        path = write(tmp_path / "types.jsonl", [{"resourceSpans": {"spans": []}}, document])
        items = list(read_transcripts(path))
        assert isinstance(items[0], TranscriptError)
        assert (
            items[0].message == "line 1: 'resourceSpans' must be a list of objects (got an object)"
        )
        assert [type(i) for i in items[1:]] == [TranscriptTask, TranscriptTask]

    def test_no_genai_spans(self, tmp_path: Path) -> None:
        plain = {
            "resourceSpans": [
                {"scopeSpans": [{"spans": [{"traceId": "ab", "spanId": "cd", "name": "GET /"}]}]}
            ]
        }
        (error,) = list(read_transcripts(write(tmp_path / "plain.jsonl", [plain])))
        assert isinstance(error, TranscriptError) and error.message.startswith("no GenAI spans")

    def test_huge_output_is_read(self, exports: dict[str, Path], tmp_path: Path) -> None:
        (document,) = lines_of(exports["latest"])
        huge = json.dumps(
            [{"role": "assistant", "parts": [{"type": "text", "content": "w" * 5_000_000}]}]
        )
        for span in spans_of(document):
            for attribute in span.get("attributes", []):
                if attribute["key"] == "gen_ai.output.messages" and "18C" in json.dumps(attribute):
                    attribute["value"] = {"stringValue": huge}
        weather = tasks(write(tmp_path / "huge.jsonl", [document]))[1]
        assert len(weather.rounds[0].text) == 5_000_000


class TestChoiceAsJsonText:
    def test_a_choice_event_whose_message_is_json_text(self, tmp_path: Path) -> None:
        # Some exporters flatten the gen_ai.choice event's map into one string attribute.
        def attr(key: str, value: str) -> dict[str, Any]:
            return {"key": key, "value": {"stringValue": value}}

        span = {
            "traceId": "ab" * 16, "spanId": "cd" * 8, "name": "chat gpt-4o",
            "startTimeUnixNano": "1", "attributes": [attr("gen_ai.operation.name", "chat")],
            "events": [
                {"name": "gen_ai.user.message", "attributes": [attr("content", "Say hello.")]},
                {"name": "gen_ai.choice", "attributes": [
                    attr("message", json.dumps({"role": "assistant", "content": "Hello!"}))]},
            ],
        }  # fmt: skip
        document = {"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}
        (task,) = tasks(write(tmp_path / "trace.json", [document]))
        assert "Hello!" == task.rounds[0].text and "Say hello." == task.request
