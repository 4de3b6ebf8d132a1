"""LangChain / LangGraph message lists: files written by langchain-core itself, and broken ones."""

from __future__ import annotations

import json
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

lc = pytest.importorskip("langchain_core.messages", reason="langchain-core is a dev extra")
load = pytest.importorskip("langchain_core.load")


def conversation() -> list[Any]:
    """A two-round agent run as langchain-core message objects."""
    return [
        lc.SystemMessage("You are a shell agent."),
        lc.HumanMessage("List /tmp"),
        lc.AIMessage("", tool_calls=[{"name": "bash", "args": {"cmd": "ls /tmp"}, "id": "c1"}]),
        lc.ToolMessage("a.txt\nb.txt", tool_call_id="c1", name="bash"),
        lc.AIMessage("Two files: a.txt and b.txt."),
        lc.HumanMessage("Now delete them"),
        lc.AIMessage("", tool_calls=[{"name": "bash", "args": {"cmd": "rm /tmp/*"}, "id": "c2"}]),
        lc.ToolMessage("rm: permission denied", tool_call_id="c2", name="bash", status="error"),
        lc.AIMessage("I could not delete them."),
    ]


def tasks_of(path: Path, fmt: str = "auto") -> list[TranscriptTask | TranscriptError]:
    return list(read_transcripts(path, fmt))


def only_task(path: Path, fmt: str = "auto") -> TranscriptTask:
    items = tasks_of(path, fmt)
    assert [i for i in items if isinstance(i, TranscriptError)] == []
    assert len(items) == 1
    task = items[0]
    assert isinstance(task, TranscriptTask)
    return task


class TestLangChainCoreOutput:
    """Files made by langchain-core read into the same values as the OpenAI form of the run."""

    def test_messages_to_dict_reads_like_its_openai_form(self, tmp_path: Path) -> None:
        messages = conversation()
        as_dicts = tmp_path / "run.json"
        as_dicts.write_text(json.dumps(lc.messages_to_dict(messages)), encoding="utf-8")
        as_openai = tmp_path / "openai.json"
        as_openai.write_text(json.dumps(lc.convert_to_openai_messages(messages)), "utf-8")
        read, expected = only_task(as_dicts), only_task(as_openai)
        assert detect_format(as_dicts) is TranscriptFormat.chat
        assert (read.request, read.turns) == (expected.request, expected.turns)
        assert [r.text for r in read.rounds] == [r.text for r in expected.rounds]
        assert [[c.arguments for c in r.tool_calls] for r in read.rounds] == [
            [c.arguments for c in r.tool_calls] for r in expected.rounds
        ]

    def test_rounds_calls_results_and_turns(self, tmp_path: Path) -> None:
        path = tmp_path / "run.json"
        path.write_text(json.dumps(lc.messages_to_dict(conversation())), encoding="utf-8")
        task = only_task(path)
        assert task.request == "List /tmp"
        assert [r.text for r in task.rounds] == [
            "",
            "Two files: a.txt and b.txt.",
            "",
            "I could not delete them.",
        ]
        call = task.rounds[2].tool_calls[0]
        assert (call.id, call.name, call.arguments) == ("c2", "bash", {"cmd": "rm /tmp/*"})
        results = task.rounds[3].tool_results
        assert [(t.tool_call_id, t.name, t.content) for t in results] == [
            ("c2", "bash", "[tool error] rm: permission denied")
        ]
        assert task.turn_of(3) == "Now delete them"
        assert task.turn_of(1) is None

    def test_dumpd_model_dump_and_langgraph_state_lines(self, tmp_path: Path) -> None:
        messages = conversation()[:5]
        path = tmp_path / "runs.jsonl"
        lines = [
            json.dumps([load.dumpd(m) for m in messages]),
            json.dumps({"messages": [m.model_dump() for m in messages]}),
            json.dumps({"values": {"messages": lc.messages_to_dict(messages)}}),
        ]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        items = tasks_of(path)
        assert all(isinstance(i, TranscriptTask) for i in items), items
        assert [len(i.rounds) for i in items if isinstance(i, TranscriptTask)] == [2, 2, 2]
        assert {
            i.rounds[0].tool_calls[0].arguments["cmd"]
            for i in items
            if isinstance(i, TranscriptTask)
        } == {"ls /tmp"}

    def test_invalid_tool_call_keeps_the_raw_arguments(self, tmp_path: Path) -> None:
        bad = lc.AIMessage(
            "Paying.",
            invalid_tool_calls=[
                {"name": "pay", "args": '{"to": ', "id": "c9", "error": "bad json"}
            ],
        )
        path = tmp_path / "run.json"
        path.write_text(json.dumps(lc.messages_to_dict([lc.HumanMessage("pay"), bad])), "utf-8")
        call = only_task(path).rounds[0].tool_calls[0]
        assert (call.name, call.arguments, call.raw_arguments) == ("pay", {}, '{"to": ')

    def test_role_named_variant(self, tmp_path: Path) -> None:
        path = tmp_path / "run.json"
        record = {
            "messages": [{"role": "human", "content": "hi"}, {"role": "ai", "content": "hello"}]
        }
        path.write_text(json.dumps(record), encoding="utf-8")
        task = only_task(path)
        assert (task.request, [r.text for r in task.rounds]) == ("hi", ["hello"])


class TestBrokenLangChain:
    """A broken record fails alone, named by line, with the reason; the others are read."""

    def write(self, tmp_path: Path, records: list[Any]) -> Path:
        path = tmp_path / "runs.jsonl"
        path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
        return path

    def good(self) -> list[Any]:
        return lc.messages_to_dict(conversation()[:5])

    def test_data_not_an_object(self, tmp_path: Path) -> None:
        broken = [{"type": "human", "data": "List /tmp"}, *self.good()[1:]]
        items = tasks_of(self.write(tmp_path, [broken, self.good()]))
        assert isinstance(items[0], TranscriptError) and isinstance(items[1], TranscriptTask)
        assert items[0].line == 1
        assert (
            "line 1: message 1: a LangChain message's 'data' must be an object" in items[0].message
        )

    def test_tool_calls_of_the_wrong_type(self, tmp_path: Path) -> None:
        broken = self.good()
        broken[2]["data"]["tool_calls"] = {"name": "bash"}
        items = tasks_of(self.write(tmp_path, [self.good(), broken]))
        assert isinstance(items[1], TranscriptError)
        assert (
            "line 2: message 3: 'tool_calls' must be a list of calls (got an object)"
            in items[1].message
        )

    def test_no_ai_message(self, tmp_path: Path) -> None:
        items = tasks_of(self.write(tmp_path, [self.good()[:2]]))
        assert isinstance(items[0], TranscriptError) and "no assistant message" in items[0].message

    def test_truncated_last_line(self, tmp_path: Path) -> None:
        path = self.write(tmp_path, [self.good()])
        with path.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(self.good())[:50])
        first, second = tasks_of(path)
        assert isinstance(first, TranscriptTask) and isinstance(second, TranscriptError)
        assert (second.line, second.message.startswith("line 2: not valid JSON")) == (2, True)

    def test_forcing_langchain_on_openai_messages_is_an_error(self, tmp_path: Path) -> None:
        path = self.write(
            tmp_path, [[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]]
        )
        (item,) = tasks_of(path, "langchain")
        assert isinstance(item, TranscriptError)
        assert "not a LangChain message list" in item.message
        assert isinstance(tasks_of(path)[0], TranscriptTask)

    def test_huge_field_is_read_whole(self, tmp_path: Path) -> None:
        huge = self.good()
        huge[4]["data"]["content"] = "x" * 5_000_000
        items = tasks_of(self.write(tmp_path, [huge, self.good()]))
        assert [type(i) for i in items] == [TranscriptTask, TranscriptTask]
        assert isinstance(items[0], TranscriptTask) and len(items[0].rounds[1].text) == 5_000_000
