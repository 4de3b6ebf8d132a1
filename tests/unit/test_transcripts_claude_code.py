"""Claude Code session logs and Agent SDK streams: documented sample shapes, and broken ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from qgs_worker.transcripts import (
    TranscriptError,
    TranscriptFormat,
    TranscriptTask,
    detect_format,
    read_transcripts,
)

DATA = Path(__file__).resolve().parents[1] / "data"
SESSION = DATA / "claude_code_session.jsonl"
STREAM = DATA / "agent_sdk_stream.jsonl"


def records(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write(path: Path, lines: list[Any]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in lines) + "\n", encoding="utf-8")
    return path


def only_task(path: Path) -> TranscriptTask:
    (task,) = list(read_transcripts(path))
    assert isinstance(task, TranscriptTask), task
    return task


class TestSessionLog:
    """A Claude Code session becomes one transcript: split messages joined, side records skipped."""

    def test_detected_from_content(self, tmp_path: Path) -> None:
        renamed = tmp_path / "session.json"  # not its usual suffix
        renamed.write_bytes(SESSION.read_bytes())
        assert detect_format(SESSION) is TranscriptFormat.claude_code
        assert detect_format(renamed) is TranscriptFormat.claude_code
        assert detect_format(STREAM) is TranscriptFormat.claude_code

    def test_rounds_calls_results_and_turns(self) -> None:
        task = only_task(SESSION)
        assert task.transcript_id == "5f1c2a9e-7a4b-4c1d-9a55-0c3f2e7b8d10"
        assert task.agent_model == "claude-sonnet-4-5-20250929"
        assert task.request == "Clean the build folder and tell me how much space it freed"
        assert [r.text for r in task.rounds] == [
            "I'll check its size first.",
            "",
            "Removed build/: 412 MB freed.",
            "",
            "The push failed: authentication. Please log in to git.",
        ]
        calls = [
            [(c.id, c.name, c.arguments.get("command")) for c in r.tool_calls] for r in task.rounds
        ]
        assert calls == [
            [("toolu_01", "Bash", "du -sh build")],
            [("toolu_02", "Bash", "rm -rf build")],
            [],
            [("toolu_03", "Bash", "git push origin main")],
            [],
        ]
        assert task.rounds[1].tool_results[0].content == "412M\tbuild"
        assert task.rounds[1].tool_results[0].name == "Bash"
        assert task.rounds[4].tool_results[0].content == "[tool error] fatal: Authentication failed"
        assert [task.turn_of(n) for n in range(1, 6)] == [None, None, None] + [
            "Thanks. Now push to main"
        ] * 2
        assert "signature" not in json.dumps(task.model_dump())  # thinking never reaches the judge
        assert "subagent" not in json.dumps(task.model_dump())

    def test_agent_sdk_stream(self) -> None:
        task = only_task(STREAM)
        assert (task.transcript_id, task.request) == (
            "c0ffee00-1111-4222-8333-444455556666",
            "What is in config.yaml?",
        )
        first, second = task.rounds
        assert first.tool_calls[0].arguments == {"file_path": "/srv/app/config.yaml"}
        assert second.tool_results[0].content == "db_password: hunter2"

    def test_two_sessions_in_one_file(self, tmp_path: Path) -> None:
        path = write(tmp_path / "both.jsonl", records(SESSION) + records(STREAM))
        tasks = list(read_transcripts(path))
        assert [t.transcript_id for t in tasks if isinstance(t, TranscriptTask)] == [
            "5f1c2a9e-7a4b-4c1d-9a55-0c3f2e7b8d10",
            "c0ffee00-1111-4222-8333-444455556666",
        ]
        assert [t.line for t in tasks] == [3, 17]

    def test_key_is_stable(self) -> None:
        assert only_task(SESSION).key == only_task(SESSION).key != only_task(STREAM).key


class TestBrokenSessions:
    """A bad line fails its own session, named with the line and reason; others are read."""

    def test_truncated_last_line_fails_the_session_alone(self, tmp_path: Path) -> None:
        text = SESSION.read_text(encoding="utf-8") + STREAM.read_text(encoding="utf-8")[:-40]
        path = tmp_path / "cut.jsonl"
        path.write_text(text, encoding="utf-8")
        first, second = list(read_transcripts(path))
        assert isinstance(first, TranscriptTask) and isinstance(second, TranscriptError)
        assert second.message.startswith(
            "session c0ffee00-1111-4222-8333-444455556666: line 22: not valid JSON"
        )
        assert 22 == second.line  # file:line names the bad line, not the session's first
        assert "the session is not audited without it" in second.message

    def test_message_of_the_wrong_type(self, tmp_path: Path) -> None:
        lines = records(SESSION)
        lines[5]["message"] = "I'll check its size first."
        (error,) = list(read_transcripts(write(tmp_path / "bad.jsonl", lines)))
        assert isinstance(error, TranscriptError)
        assert (
            "line 6: a assistant record's 'message' must be an object (got a string)"
            in error.message
        )
        assert 6 == error.line

    def test_no_assistant_message(self, tmp_path: Path) -> None:
        (error,) = list(read_transcripts(write(tmp_path / "q.jsonl", records(SESSION)[:4])))
        assert isinstance(error, TranscriptError) and "no assistant message" in error.message

    def test_record_not_an_object_and_missing_session_id(self, tmp_path: Path) -> None:
        lines: list[Any] = [
            {k: v for k, v in r.items() if k != "session_id"} for r in records(STREAM)
        ]
        lines.insert(2, ["not", "a", "record"])
        (error,) = list(read_transcripts(write(tmp_path / "x.jsonl", lines), "claude-code"))
        assert isinstance(error, TranscriptError)
        assert error.message.startswith(
            "session (no session id): line 3: a record must be an object"
        )

    def test_huge_tool_result_is_read(self, tmp_path: Path) -> None:
        lines = records(STREAM)
        lines[3]["message"]["content"][0]["content"][0]["text"] = "z" * 5_000_000
        task = only_task(write(tmp_path / "big.jsonl", lines))
        assert len(task.rounds[1].tool_results[0].content) == 5_000_000
