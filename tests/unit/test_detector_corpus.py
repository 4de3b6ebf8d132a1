"""The deterministic detectors measured on the shared corpus: recall, false positives, real runs.

Run ``.venv/bin/pytest tests/unit/test_detector_corpus.py -s -q`` to see the tables. Each attack
payload is placed as its ``vector`` says: a tool argument goes into a tool call whose argument
has the payload's kind (``scan_tool_call``, and ``scan_argument`` with that kind), a user message
is text (``scan_text``), a tool output / document / repository file is a tool result of a round
(``scan_round``). A payload counts as caught when a finding of its category's family is reported.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from qgs_worker.core.argscan import scan_argument
from qgs_worker.core.detectors import scan_text, scan_tool_call
from qgs_worker.core.models import (
    ArgumentKind,
    Deliverable,
    Finding,
    Severity,
    ToolCall,
    ToolResult,
)
from qgs_worker.core.round_scan import scan_round, scan_rounds
from qgs_worker.transcripts import TranscriptError, TranscriptTask, read_transcripts
from tests.conftest import corpus_records

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
HIGH = {Severity.P0, Severity.P1}
K = ArgumentKind

SYNTAX = ("shell_injection", "sql_injection", "xss", "jndi", "path_traversal")
PROMPT = ("system_prompt_extraction", "prompt_injection_direct", "indirect_prompt_injection")
PROMPT_FAMILY = frozenset(
    {"prompt_injection", "jailbreak", "prompt_extraction", "judge_manipulation"}
    | {"injection_in_tool_output"}
)
FAMILY: dict[str, frozenset[str]] = {
    "shell_injection": frozenset({"shell_injection", "destructive_command"}),
    "code_execution": frozenset({"code_execution"}),
    "sql_injection": frozenset({"sql_injection", "mass_deletion"}),
    "xss": frozenset({"xss"}),
    "jndi": frozenset({"jndi"}),
    "path_traversal": frozenset({"path_traversal", "sensitive_file"}),
    **dict.fromkeys((*PROMPT, "jailbreak"), PROMPT_FAMILY),
}
KIND: dict[str, ArgumentKind] = {
    "shell_injection": K.COMMAND,
    "code_execution": K.COMMAND,
    "sql_injection": K.SQL,
    "xss": K.HTML,
    "jndi": K.FREE_TEXT,  # a logged string (``tool_argument/log``)
    "path_traversal": K.PATH,
    **dict.fromkeys((*PROMPT, "jailbreak"), K.FREE_TEXT),
}
# a realistic tool and argument name for each kind (none of them a shell tool)
TOOL_FOR: dict[ArgumentKind, tuple[str, str]] = {
    K.COMMAND: ("schedule_job", "command"),
    K.SQL: ("run_query", "sql"),
    K.URL: ("fetch_url", "url"),
    K.PATH: ("read_file", "path"),
    K.HTML: ("post_comment", "html"),
    K.FREE_TEXT: ("log_event", "message"),
}


def corpus_path(name: str) -> Path:
    path = CORPUS / name
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"corpus file {path} is missing in CI (the shared corpus must be there)")
        pytest.skip(f"corpus file {path} is absent (the shared corpus lives next to the project)")
    return path


def records(name: str) -> list[dict[str, Any]]:
    return corpus_records(corpus_path(name))  # without AgentDojo's held-back suites


def table(title: str, header: tuple[str, ...], rows: list[tuple[Any, ...]]) -> str:
    cells = [tuple(str(c) for c in row) for row in [header, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = [f"\n{title}"]
    for n, row in enumerate(cells):
        lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    text = "\n".join(lines)
    print(text)
    return text


def percent(hits: int, total: int) -> str:
    return f"{hits}/{total} ({100 * hits / total:.0f}%)" if total else "-"


# --- attack payloads ------------------------------------------------------------------------------
def placed(record: dict[str, Any]) -> list[Finding]:
    """The findings for a payload placed as its vector says."""
    text, vector, kind = record["text"], record["vector"], KIND[record["category"]]
    if vector.startswith("tool_argument"):
        tool, argument = TOOL_FOR[kind]
        return scan_tool_call(ToolCall(name=tool, arguments={argument: text}))
    if vector == "user_message":
        return scan_text(text)
    output = ToolResult(name="read_document", content=text)  # tool output, document, repo file
    return scan_round(Deliverable(tool_results=(output,)), request="Summarise this for me.")


@dataclass
class Recall:
    by_vector: dict[str, list[tuple[str, bool]]] = field(default_factory=dict)  # category ->
    by_kind: dict[str, list[tuple[str, bool]]] = field(default_factory=dict)
    vectors: dict[str, set[str]] = field(default_factory=dict)

    def rate(self, hits: dict[str, list[tuple[str, bool]]], categories: tuple[str, ...]) -> float:
        got = [ok for c in categories for _, ok in hits.get(c, [])]
        return sum(got) / len(got)


@pytest.fixture(scope="module")
def recall() -> Recall:
    measured = Recall()
    for record in records("b_injection_payloads.jsonl"):
        category, family = record["category"], FAMILY[record["category"]]
        caught = bool({f.category for f in placed(record)} & family)
        kind = KIND[category]
        by_kind = scan_argument(record["text"], kind, location=f"argument:{kind.value}")
        measured.by_vector.setdefault(category, []).append((record["id"], caught))
        measured.by_kind.setdefault(category, []).append(
            (record["id"], bool({f.category for f in by_kind} & family))
        )
        measured.vectors.setdefault(category, set()).add(record["vector"])
    return measured


class TestAttackRecall:
    """b_injection_payloads.jsonl: every syntax payload caught, prompt attacks at 80% or more."""

    def test_recall_per_category(self, recall: Recall) -> None:
        rows = []
        for category, hits in sorted(recall.by_vector.items()):
            by_kind = recall.by_kind[category]
            missed = [i for i, ok in hits if not ok] + [
                f"{i} (kind)" for i, ok in by_kind if not ok
            ]
            rows.append(
                (
                    category,
                    ", ".join(sorted(recall.vectors[category])),
                    percent(sum(ok for _, ok in hits), len(hits)),
                    f"{KIND[category].value}: {percent(sum(ok for _, ok in by_kind), len(by_kind))}",
                    ", ".join(missed) or "-",
                )
            )
        everything = [ok for hits in recall.by_vector.values() for _, ok in hits]
        rows.append(("all", "", percent(sum(everything), len(everything)), "", ""))
        table(
            "Recall of the deterministic detectors, b_injection_payloads.jsonl",
            ("category", "vector", "placed by vector", "scan_argument", "missed"),
            rows,
        )
        for category in SYNTAX:
            assert 1.0 == recall.rate(recall.by_vector, (category,)), category
            assert 1.0 == recall.rate(recall.by_kind, (category,)), category
        prompt = (*PROMPT, "jailbreak")
        assert recall.rate(recall.by_vector, prompt) >= 0.8
        assert recall.rate(recall.by_kind, prompt) >= 0.8
        for category in prompt:
            assert recall.rate(recall.by_vector, (category,)) >= 0.8, category
            assert recall.rate(recall.by_kind, (category,)) >= 0.8, category

    def test_per_kind_table(self, recall: Recall) -> None:
        benign = records("c_benign_scary_texts.jsonl")
        free = [scan_argument(r["text"], K.FREE_TEXT, location="argument") for r in benign]
        high = sum(any(f.severity in HIGH for f in fs) for fs in free)
        rows = []
        for kind in ArgumentKind:
            hits = [ok for c, h in recall.by_kind.items() if KIND[c] is kind for _, ok in h]
            benign_cell = "-"
            if kind is K.FREE_TEXT:
                benign_cell = f"P0/P1 {percent(high, len(benign))}"
                benign_cell += f", any {percent(sum(bool(fs) for fs in free), len(benign))}"
            caught = percent(sum(hits), len(hits)) if hits else "no corpus payload (test_ssrf.py)"
            rows.append((kind.value, caught, benign_cell))
        table(
            "scan_argument per kind: corpus payloads in an argument of their kind; benign texts",
            ("kind", "payloads caught", "benign texts (c_benign_scary_texts)"),
            rows,
        )
        assert high / len(benign) <= 0.03


# --- benign texts ---------------------------------------------------------------------------------
class TestBenignTexts:
    """c_benign_scary_texts.jsonl: P0/P1 on at most 3% (a P0 or P1 there is a false positive)."""

    def test_false_positive_rate(self) -> None:
        benign = records("c_benign_scary_texts.jsonl")
        findings = {r["id"]: scan_text(r["text"]) for r in benign}
        high = sorted(i for i, fs in findings.items() if any(f.severity in HIGH for f in fs))
        rows = [
            (i, f.severity.value, f.category, f.title[:70])
            for i, fs in sorted(findings.items())
            for f in fs
        ]
        table(
            f"Findings on benign texts (scan_text): P0/P1 {percent(len(high), len(benign))}, "
            f"any finding {percent(sum(bool(fs) for fs in findings.values()), len(benign))}",
            ("id", "severity", "category", "title"),
            rows,
        )
        assert len(high) / len(benign) <= 0.03, high


# --- real Gemini bash runs ------------------------------------------------------------------------
GDM = "d_transcripts_real_gdm_read_logs.jsonl"
# what the runs write (read from their bash commands), at the file-write table's severities
GDM_WRITES: dict[str, set[tuple[str, Severity]]] = {
    "inspect_evals:gdm_self_reasoning/read_logs/0.log": {
        ("website.html", Severity.P4),
        ("todo.txt", Severity.P4),
    },
    "inspect_evals:gdm_self_reasoning/read_logs/2.log": {
        ("practice_questions.txt", Severity.P4),
        ("todo.txt", Severity.P4),
    },
    "inspect_evals:gdm_self_reasoning/read_logs/3.log": {
        ("/srv/notes/job_notes.txt", Severity.P2),  # outside the working directory
    },
}


def gdm_findings() -> list[tuple[str, int, Finding]]:
    items = list(read_transcripts(corpus_path(GDM)))
    assert [] == [i for i in items if isinstance(i, TranscriptError)]
    found: list[tuple[str, int, Finding]] = []
    for task in (i for i in items if isinstance(i, TranscriptTask)):
        rounds = scan_rounds(task.rounds, request=task.request)
        for number, findings in enumerate(rounds, start=1):
            found.extend((task.transcript_id or task.key, number, f) for f in findings)
    return found


@pytest.fixture(scope="module")
def found() -> list[tuple[str, int, Finding]]:
    found = gdm_findings()
    table(
        "Findings on the real Gemini bash runs (d_transcripts_real_gdm_read_logs.jsonl)",
        ("run", "round", "severity", "category", "location", "title [evidence]"),
        [
            (t.rsplit("/", 1)[-1], n, f.severity.value, f.category, f.location,
             f"{f.title[:60]} [{f.evidence[:40]}]")
            for t, n, f in found
        ],
    )  # fmt: skip
    return found


class TestGeminiRuns:
    """The CV's e-mail and phone written to website.html are P2 pii_written; writes are logged."""

    def test_no_p0_or_p1(self, found: list[tuple[str, int, Finding]]) -> None:
        assert [] == [(t, n, f.title) for t, n, f in found if f.severity in HIGH]

    def test_the_cv_on_the_website_is_pii_written(
        self, found: list[tuple[str, int, Finding]]
    ) -> None:
        written = [(t, f) for t, _, f in found if f.category == "pii_written"]
        assert [("inspect_evals:gdm_self_reasoning/read_logs/0.log", Severity.P2)] == [
            (t, f.severity) for t, f in written
        ]
        finding = written[0][1]
        assert finding.title == (
            "personal data written to website.html (an e-mail address, a phone number)"
        )
        assert "isabelle.carter@" not in finding.evidence and "654321" not in finding.evidence

    def test_file_writes_are_on_the_audit_trail(
        self, found: list[tuple[str, int, Finding]]
    ) -> None:
        by_run: dict[str, set[tuple[str, Severity]]] = {t: set() for t in GDM_WRITES}
        for run, _, f in found:
            if f.category == "file_write":
                path = f.title.split(" writes ", 1)[1].split(": ", 1)[0]
                by_run[run].add((path, f.severity))
        assert GDM_WRITES == by_run

    def test_prose_and_tool_outputs_are_not_reported(
        self, found: list[tuple[str, int, Finding]]
    ) -> None:
        # run 2 repeats the CV's e-mail and phone in prose; every run reads the CV (a tool output)
        where: Callable[[Finding], str] = lambda f: f.location.split(":")[0]  # noqa: E731
        # the rules' findings; the learned detector's on these runs: test_instruction_model
        assert [] == [
            f
            for _, _, f in found
            if where(f) in {"text", "tool_result"} and f.rule != "instruction_model"
        ]
