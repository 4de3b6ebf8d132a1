"""Reports that keep their columns (issue 14, part 4): 80 columns, pipes, Markdown, filters.

The tasks are real: stored and decided by the pipeline in-process (rules judge, detectors).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from qgs_worker.core.models import CadencePolicy, Deliverable, GatePolicy, ToolCall
from qgs_worker.errors import InputError
from qgs_worker.judges.rules_judge import RulesJudge
from qgs_worker.queue import pipeline
from qgs_worker.reports.report import build_report, render_markdown, render_table
from qgs_worker.reports.report_filter import ReportFilter
from qgs_worker.roles import load_roles
from qgs_worker.service.policies import Audit
from qgs_worker.service.submission import NewTask, Submission
from qgs_worker.store import Repository

POLICIES = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy())
LONG = (
    "The deployment plan covers the billing service, the search service and the queue workers, "
    "and each step says how it is checked and how it is undone when the check fails. " * 3
)


def decide(
    repo: Repository, task_id: str, request: str, deliverables: list[Deliverable], n: int
) -> None:
    """Store task ``task_id``, a round per deliverable (the last final), and run what is due."""
    new = NewTask(
        request=request,
        source_file=f"/var/log/agents/{task_id}.jsonl",
        source_line=n,
        transcript_id=f"transcript-{task_id}",
    )
    for number, deliverable in enumerate(deliverables, start=1):
        sub = Submission(
            submission_id=f"{task_id}:{number}",
            task_id=task_id,
            round_number=number,
            deliverable=deliverable,
            task=new,
            final=number == len(deliverables),
        )
        round_id = pipeline.intake(repo, sub, POLICIES)
        if round_id is None:  # decided at intake (a SIMPLE task: nothing is due)
            continue
        plan = repo.round_plan(round_id)
        if plan.critic:
            pipeline.critic(repo, RulesJudge(), round_id)
        if plan.discriminate:
            pipeline.discriminate(repo, round_id, Audit(roles=load_roles(())))
        pipeline.decide(repo, round_id, POLICIES)


WIPE = Deliverable(
    text="Cleaning up.", tool_calls=[ToolCall(name="bash", arguments={"command": "rm -rf /"})]
)
"""A round that runs ``rm -rf /``: a P0 the gate weighs on every later round too."""


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repository]:
    store = Repository(f"sqlite:///{tmp_path / 'qgs.db'}")
    # The P0 is in round 1; round 2, the one decided last, has no finding of its own.
    decide(store, "t-wipe", "clean up the host", [WIPE, Deliverable(text="Cleaned up.")], 1)
    decide(
        store, "t-article", "write an article about AI", [Deliverable(text="# AI\n\n" + LONG)], 2
    )
    decide(store, "t-time", "what time is it", [Deliverable(text="It is 10:42.")], 3)
    yield store
    store.dispose()


def table_text(report: dict[str, Any], width: int) -> str:
    out = io.StringIO()
    render_table(report, Console(file=out, width=width, color_system=None))
    return out.getvalue()


class TestNarrowTable:
    """At 80 columns (a pipe's width) nothing that matters is dropped, and no line is longer."""

    def test_80_columns_keep_decision_counts_and_transcript(self, repo: Repository) -> None:
        report = build_report(repo)
        text = table_text(report, 80)
        assert all(len(line) <= 80 for line in text.splitlines()), text
        for task in report["tasks"]:
            assert task["transcript_id"] in text
            assert task["id"] in text
            assert task["decision"]["kind"] in text
        header = next(line for line in text.splitlines() if "P0/P1" in line)
        assert "risk" in header and "decision" in header
        wipe = next(t for t in report["tasks"] if t["id"] == "t-wipe")
        p0 = sum(1 for f in wipe["findings"] if f["severity"] == "P0")
        assert p0 >= 1
        assert f"{p0}/" in text

    @pytest.mark.parametrize("width", [60, 80, 160])
    def test_no_task_at_all_is_a_table_with_no_rows(self, tmp_path: Path, width: int) -> None:
        # Break test: an empty store, a filter that keeps nothing, or an audit of an unusable
        # file printed a TypeError at 80 columns (the narrow table's widths over no rows).
        empty = Repository(f"sqlite:///{tmp_path / 'empty.db'}")
        try:
            text = table_text(build_report(empty), width)
        finally:
            empty.dispose()
        assert "0 tasks" in text or "tasks" in text
        assert all(len(line) <= width for line in text.splitlines()), text

    def test_a_filter_that_keeps_nothing_at_80_columns(self, repo: Repository) -> None:
        kept = build_report(repo, filters=ReportFilter.parse(decision=["pending"]))
        assert [] == kept["tasks"]
        assert table_text(kept, 80)

    def test_blocked_task_shows_the_risk_the_gate_weighed(self, repo: Repository) -> None:
        report = build_report(repo)
        wipe = next(t for t in report["tasks"] if t["id"] == "t-wipe")
        decided = wipe["decision"]
        assert ("block", 2) == (decided["kind"], decided["round"])
        assert 0 == wipe["rounds"][1]["risk"]  # the decided round's own findings: none
        assert decided["risk"] >= 100
        for width in (80, 160):
            lines = table_text(report, width).splitlines()
            row = next(line for line in lines if "transcript-t-wipe" in line)
            assert str(decided["risk"]) in row.split(), row


class TestMarkdown:
    """Markdown keeps every reason whole and names the transcript of each task."""

    def test_never_truncates(self, repo: Repository) -> None:
        report = build_report(repo)
        md = render_markdown(report)
        for task in report["tasks"]:
            d = task["decision"]
            assert " ".join(d["reason"].split()).replace("|", "\\|") in md
            assert task["transcript_id"] in md
        assert "…" not in md.split("## ")[0].split("| task |")[1]

    def test_markup_from_a_transcript_is_text_not_html(self, tmp_path: Path) -> None:
        store = Repository(f"sqlite:///{tmp_path / 'hostile.db'}")
        hostile = "<script>alert('id')</script> & <b>bold</b>"
        decide(store, "t-hostile", f"write about {hostile}", [Deliverable(text=hostile)], 1)
        report = build_report(store)
        report["tasks"][0]["transcript_id"] = hostile
        md = render_markdown(report)
        store.dispose()
        assert "<script>" not in md and "<b>" not in md
        assert "&lt;script&gt;alert('id')&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in md


class TestFilters:
    """The filters act on the report data, so every format and the summary agree."""

    def test_decision_filter(self, repo: Repository) -> None:
        full = build_report(repo)
        kind = next(t for t in full["tasks"] if t["id"] == "t-time")["decision"]["kind"]
        report = build_report(repo, filters=ReportFilter.parse(decision=[kind]))
        assert report["tasks"] and all(t["decision"]["kind"] == kind for t in report["tasks"])
        assert len(report["tasks"]) == report["summary"]["tasks"]
        assert f"decision {kind}" == report["filter"]
        assert f"Only tasks with decision {kind}" in render_markdown(report)

    def test_severity_and_type_filters(self, repo: Repository) -> None:
        report = build_report(repo, filters=ReportFilter.parse(severity=["p0"]))
        assert ["t-wipe"] == [t["id"] for t in report["tasks"]]
        report = build_report(repo, filters=ReportFilter.parse(task_type=["query"]))
        assert ["t-time"] == [t["id"] for t in report["tasks"]]
        both = ReportFilter.parse(task_type=["QUERY"], severity=["P0"])
        assert [] == build_report(repo, filters=both)["tasks"]

    def test_run_filter(self, repo: Repository) -> None:
        run_id = repo.start_run(["a.jsonl"], "f" * 12, {})
        repo.add_run_tasks(run_id, [("t-article", "tx-a"), ("t-time", "tx-b")])
        repo.add_run_tasks(run_id, [("t-article", "tx-a")])  # again: no second link
        report = build_report(repo, filters=ReportFilter.parse(run=str(run_id)))
        assert ["t-article", "t-time"] == sorted(t["id"] for t in report["tasks"])
        assert 2 == repo.run_facts("last").tasks
        with pytest.raises(InputError, match="no audit run '9'"):
            build_report(repo, filters=ReportFilter.parse(run="9"))
        # Break test: an id past 64 bits was an OverflowError traceback, not this error.
        huge = "99999999999999999999999"
        with pytest.raises(InputError, match=f"no audit run '{huge}'"):
            repo.run_facts(huge)

    @pytest.mark.parametrize(
        ("option", "value", "named"),
        [("decision", "passed", "--decision"), ("severity", "P9", "--severity"),
         ("task_type", "DELETE", "--task-type")],
    )  # fmt: skip
    def test_bad_value_names_the_option(self, option: str, value: str, named: str) -> None:
        with pytest.raises(InputError, match=f"{named} must be one of .*got '{value}'"):
            ReportFilter.parse(**{option: [value]})


class TestNarrowerStill:
    """Below 80 columns a rerun's task id stays whole and the decision's kind is not cut."""

    @pytest.mark.parametrize("width", [70, 80])
    def test_rerun_ids_and_decisions_stay_whole(self, repo: Repository, width: int) -> None:
        report = build_report(repo)
        for i, task in enumerate(report["tasks"]):
            task["id"] = f"tx-0123456789abcdef-r1{i}"
            # the longest kinds and a long score trajectory beside them (break test: the
            # columns' shares cut "awaiting_approval" at 80 columns)
            task["decision"]["kind"] = ["awaiting_approval", "pass_with_suggestions"][i % 2]
            task["scores"] = [74, 78, 78, 80]
        text = table_text(report, width)
        assert all(len(line) <= width for line in text.splitlines()), text
        for task in report["tasks"]:
            assert task["id"] in text, text
            assert task["decision"]["kind"] in text, text

    def test_at_60_columns_the_decision_kind_stays_whole(self, repo: Repository) -> None:
        report = build_report(repo)
        for task in report["tasks"]:
            task["decision"]["kind"] = "pass_with_suggestions"
        text = table_text(report, 60)
        assert all(len(line) <= 60 for line in text.splitlines()), text
        assert len(report["tasks"]) == text.count("pass_with_suggestions"), text
