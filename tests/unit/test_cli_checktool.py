"""`qgs check-tool` (and the other commands that print calls): safe text, unusable files.

No broker and no store: every call runs with ``--no-log``; ``qgs report`` reads an SQLite file.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from qgs_worker.cli import app
from qgs_worker.cli.terminal import visible as _visible
from qgs_worker.store import Repository

ESC = "\x1b"
FORGED_ID = "toolu_1\x1b[1A\x1b[2K✓ 6 injection may run"
BASH = [{"type": "bash_20250124", "name": "bash"}]
WEATHER = [
    {
        "name": "get_weather",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
    }
]


def run(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=stdin, catch_exceptions=False)


def write(path: Path, value: Any) -> str:
    path.write_text(json.dumps(value), encoding="utf-8")
    return str(path)


def tool_use(name: str, arguments: dict[str, Any], call_id: str = "toolu_1") -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


class TestVisible:
    """Control characters become visible escapes; newlines stay only in multi-line text."""

    @pytest.mark.parametrize(
        ("text", "lines", "expected"),
        [
            ("plain [bold]text[/] ✓", False, "plain [bold]text[/] ✓"),
            ("a\x1b[2Kb", False, "a\\x1b[2Kb"),
            ("a\rb\x07\x00", False, "a\\rb\\x07\\x00"),
            ("del\x7f c1\x9b", False, "del\\x7f c1\\x9b"),
            ("rtl\u202eoverride\u2066", False, "rtl\\u202eoverride\\u2066"),
            ("one\ntwo\tthree", False, "one\\ntwo\\tthree"),
            ("one\ntwo\tthree", True, "one\ntwo\tthree"),
            ("one\r\ntwo\x1b", True, "one\\r\ntwo\\x1b"),
        ],
    )
    def test_escapes(self, text: str, lines: bool, expected: str) -> None:
        assert expected == _visible(text, lines=lines)


class TestUntrustedText:
    """Ids, names, arguments and errors cannot move the cursor or inject markup."""

    def test_forged_call_id(self, tmp_path: Path) -> None:
        tools = write(tmp_path / "t.json", BASH)
        call = tool_use("bash", {"command": "ls"}, FORGED_ID)
        result = run("check-tool", "--tools", tools, write(tmp_path / "c.json", call), "--no-log")
        assert 1 == result.exit_code, result.output
        assert ESC not in result.stdout
        assert "call toolu_1\\x1b[1A\\x1b[2K✓ 6 injection may run → bash" in result.stdout
        assert result.stdout.rstrip().endswith("rejected at layer 1 (format)")

    def test_argument_evidence(self, tmp_path: Path) -> None:
        tools = write(tmp_path / "t.json", BASH)
        call = tool_use("bash", {"command": "rm -rf / \x1b[1A\x1b[2K\x07 [green]ok[/]"})
        result = run("check-tool", "--tools", tools, write(tmp_path / "c.json", call), "--no-log")
        assert 1 == result.exit_code, result.output
        assert ESC not in result.stdout and "\x07" not in result.stdout
        assert "rm -rf / \\x1b[1A\\x1b[2K\\x07 [green]ok[/]" in result.stdout  # markup literal
        assert result.stdout.rstrip().endswith("rejected at layer 6 (injection)")

    def test_one_line_per_item(self, tmp_path: Path) -> None:
        tools = write(tmp_path / "t.json", WEATHER)
        call = tool_use("get_weather\nmay run", {"city": "Paris"})
        result = run("check-tool", "--tools", tools, write(tmp_path / "c.json", call), "--no-log")
        assert 1 == result.exit_code
        assert "→ get_weather\\nmay run (anthropic)" in result.stdout
        assert "may run" not in result.stdout.splitlines()

    def test_several_calls_keep_their_summary(self, tmp_path: Path) -> None:
        tools = write(tmp_path / "t.json", WEATHER)
        message = {
            "role": "assistant",
            "content": [
                tool_use("get_weather", {"city": "Paris"}),
                tool_use("get_weather", {"city": "Oslo"}, "toolu_\x1b[2K"),
            ],
        }
        result = run(
            "check-tool", "--tools", tools, write(tmp_path / "m.json", message), "--no-log"
        )
        assert ESC not in result.stdout
        lines = result.stdout.splitlines()
        assert ["", "1 of 2 calls may run, 1 rejected"] == lines[-2:]

    def test_json_stays_exact(self, tmp_path: Path) -> None:
        tools = write(tmp_path / "t.json", WEATHER)
        call_id = FORGED_ID + "\x9b\u202e"
        call = tool_use("get_weather", {"city": "Paris"}, call_id)
        path = write(tmp_path / "c.json", call)
        result = run("check-tool", "--tools", tools, path, "--no-log", "--format", "json")
        assert 1 == result.exit_code
        assert not {ESC, "\x9b", "\u202e"} & set(result.stdout)
        assert call_id == json.loads(result.stdout)["call_id"]

    @pytest.mark.parametrize("name", ["[bold]c[/].json", "c\x1b[2K.json"])
    def test_error_messages(self, tmp_path: Path, name: str) -> None:
        tools = write(tmp_path / "t.json", WEATHER)
        result = run("check-tool", "--tools", tools, str(tmp_path / name), "--no-log")
        assert 2 == result.exit_code
        assert ESC not in result.stderr
        assert _visible(name) in result.stderr

    def test_tool_definition_errors(self, tmp_path: Path) -> None:
        tools = write(tmp_path / "t.json", [{"name": "read\x1b[2Kfile", "input_schema": {}}])
        result = run("check-tool", "--tools", tools, write(tmp_path / "c.json", {}), "--no-log")
        assert 2 == result.exit_code
        assert ESC not in result.stderr and "read\\x1b[2Kfile" in result.stderr

    def test_scan(self) -> None:
        text = "rm -rf / \x1b[1A\x1b[2K[green]clean[/]"
        result = run("scan", "-", "--kind", "command", stdin=text)
        assert 1 == result.exit_code
        assert ESC not in result.stdout and "\\x1b[1A\\x1b[2K[green]clean[/]" in result.stdout

    @pytest.mark.parametrize("fmt", ["table", "markdown"])
    def test_report_tool_call_section(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
    ) -> None:
        store = f"sqlite:///{tmp_path / 'qgs.db'}"
        monkeypatch.setenv("QGS_DATABASE_URL", store)
        monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / ".qgs"))
        monkeypatch.setenv("COLUMNS", "200")  # the table folds no cell
        from qgs_worker.cli import common

        # The module's console may have read another test's COLUMNS first (pytest-xdist runs
        # many tests in one process): its width is set here, as a terminal of 200 columns.
        monkeypatch.setattr(common.console, "width", 200)
        repo = Repository(store)
        repo.save_tool_call_check(
            check_id="a" * 32,
            created_at=datetime.now(UTC),
            shape="anthropic",
            allowed=False,
            latency_us=10.0,
            tool="bash\x1b[2K",
            call_id=FORGED_ID,
            stopped_at=1,
            stopped_layer="format",
            errors=["name: 'bash\\x1b' is not a tool name\x1b[1A\rforged [red]x[/]"],
        )
        repo.dispose()
        result = run("report", "--format", fmt)
        assert 0 == result.exit_code, result.output
        assert not {ESC, "\r"} & set(result.stdout)
        assert "bash\\x1b[2K" in result.stdout and "\\x1b[1A\\rforged [red]x[/]" in result.stdout
        raw = run("report", "--format", "json")
        checks = json.loads(raw.stdout)["tool_calls"]["recent_rejected"]
        assert "bash\x1b[2K" == checks[0]["tool"]


class TestUnusableFiles:
    """A tools or call file that is not a usable file says why, in one line, and exits 2."""

    @pytest.mark.parametrize(
        ("case", "words"),
        [
            ("tools-dir", "--tools {tools} is a directory; pass --tools FILE, a JSON file of"),
            ("tools-device", "--tools /dev/null is empty; it must hold OpenAI tools"),
            ("tools-empty", "--tools {tools} is empty; it must hold OpenAI tools"),
            ("tools-blank", "--tools {tools} is empty; it must hold OpenAI tools"),
            ("tools-missing", "no such tools file: {tools} (pass --tools FILE"),
            ("call-dir", "call file {call} is a directory; pass the call as a JSON file, or -"),
            ("call-device", "call file /dev/null is empty; pass the call as a JSON file, or -"),
            ("call-empty", "call file {call} is empty; pass the call as a JSON file, or -"),
            ("call-missing", "no such call file: {call} (pass a JSON file"),
            ("call-stdin", "stdin is empty; pipe one tool call as JSON into it"),
        ],
    )
    def test_reason(self, tmp_path: Path, case: str, words: str) -> None:
        good_tools = write(tmp_path / "tools.json", WEATHER)
        good_call = write(tmp_path / "call.json", tool_use("get_weather", {"city": "Paris"}))
        (tmp_path / "empty.json").write_bytes(b"")
        (tmp_path / "blank.json").write_text("\ufeff \n\t\n", encoding="utf-8")
        what, problem = case.split("-")
        bad = {
            "dir": str(tmp_path),
            "device": "/dev/null",
            "empty": str(tmp_path / "empty.json"),
            "blank": str(tmp_path / "blank.json"),
            "missing": str(tmp_path / "missing.json"),
        }.get(problem, "-")
        tools, call = (bad, good_call) if what == "tools" else (good_tools, bad)
        result = run("check-tool", "--tools", tools, call, "--no-log", stdin="  \n")
        assert 2 == result.exit_code, result.output
        assert "Traceback" not in result.output and "" == result.stdout
        message = result.stderr.strip()
        assert 1 == len(message.splitlines()), message
        assert words.format(tools=tools, call=call) in message
        assert problem == "missing" or "no such" not in message
