"""The report's read side: the store answers in values, a few statements a batch of tasks.

``store/report_views.py`` reads a batch of tasks in five statements whatever their rounds;
``report.py`` builds the JSON from those values only (issue 12: nothing outside the store
touches a row).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.engine import Engine

from qgs_worker.core.models import CadencePolicy, Deliverable, GatePolicy
from qgs_worker.errors import TaskNotFoundError
from qgs_worker.judges.rules_judge import RulesJudge
from qgs_worker.queue import pipeline
from qgs_worker.reports.report import build_report, task_report
from qgs_worker.service.submission import NewTask, Submission
from qgs_worker.store import Repository, report_views

POLICIES = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy())


@contextmanager
def counting() -> Iterator[list[str]]:
    """Every SQL statement any engine of this process sends while inside."""
    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(statement)

    event.listen(Engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", count)


def seed(
    repo: Repository, task_id: str, rounds: int, *, source: tuple[str, int] | None = None
) -> None:
    """A task with ``rounds`` rounds, each reviewed by the rules judge when due, and decided."""
    new = NewTask(
        request="write the config parser",
        source_file=source[0] if source else None,
        source_line=source[1] if source else None,
    )
    for n in range(1, rounds + 1):
        sub = Submission(
            submission_id=f"{task_id}:{n}",
            task_id=task_id,
            round_number=n,
            deliverable=Deliverable(text=f"draft {n} of the parser " * n),
            task=new,
            final=n == rounds,
        )
        round_id = pipeline.intake(repo, sub, POLICIES)
        if round_id is None:
            continue
        pipeline.critic(repo, RulesJudge(), round_id)
        pipeline.decide(repo, round_id, POLICIES)


def without_time(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k != "generated_at"}


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repository]:
    store = Repository(f"sqlite:///{tmp_path / 'qgs.db'}")
    yield store
    store.dispose()


class TestStatements:
    """A report's statement count grows with batches of tasks, not with rounds or tasks."""

    def statements(self, repo: Repository) -> int:
        with counting() as seen:
            build_report(repo)
        return len(seen)

    def test_more_rounds_send_no_more_statements(self, tmp_path: Path) -> None:
        counts = []
        for rounds in (1, 4):
            repo = Repository(f"sqlite:///{tmp_path / f'r{rounds}.db'}")
            for t in range(3):
                seed(repo, f"t{t}", rounds)
            report = build_report(repo)
            assert rounds * 3 == sum(len(t["rounds"]) for t in report["tasks"])
            counts.append(self.statements(repo))
            repo.dispose()
        assert counts[0] == counts[1]
        # one for the tasks, six for their batch (five, and their webhooks), six for the totals,
        # one for the spot-checks' labels (none here: their findings are not read)
        assert counts[0] <= 14

    def test_more_tasks_in_a_batch_send_no_more_statements(self, repo: Repository) -> None:
        seed(repo, "a", 2)
        one = self.statements(repo)
        for t in range(5):
            seed(repo, f"t{t}", 2)
        assert one == self.statements(repo)

    def test_each_batch_costs_six_statements_and_changes_nothing(
        self, repo: Repository, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        for t in range(5):
            seed(repo, f"t{t}", 2)
        whole = without_time(build_report(repo))
        one_batch = self.statements(repo)
        monkeypatch.setattr(report_views, "REPORT_BATCH_TASKS", 2)
        assert whole == without_time(build_report(repo))
        assert one_batch + 2 * 6 == self.statements(repo)  # 3 batches instead of 1

    def test_one_task_is_seven_statements(self, repo: Repository) -> None:
        seed(repo, "t", 3)
        with counting() as seen:
            task_report(repo, "t")
        assert 7 == len(seen)  # the task, its rounds, findings, runs, approvals, letters, webhooks


class TestTasks:
    """Which tasks a report holds, in which order, and what one task's entry is."""

    def test_transcripts_by_file_and_line_then_live_tasks(self, repo: Repository) -> None:
        seed(repo, "live", 1)
        seed(repo, "second", 1, source=("a.jsonl", 2))
        seed(repo, "first", 1, source=("a.jsonl", 1))
        seed(repo, "other-file", 1, source=("b.jsonl", 1))
        ids = [t["id"] for t in build_report(repo)["tasks"]]
        assert ["first", "second", "other-file", "live"] == ids

    def test_only_the_wanted_tasks_and_unknown_ids_are_left_out(self, repo: Repository) -> None:
        for name in ("a", "b", "c"):
            seed(repo, name, 1)
        report = build_report(repo, task_ids=["c", "nope", "a"])
        assert ["a", "c"] == [t["id"] for t in report["tasks"]]
        assert 2 == report["summary"]["tasks"]

    def test_task_report_is_the_reports_entry(self, repo: Repository) -> None:
        seed(repo, "a", 3)
        seed(repo, "b", 2)
        (entry,) = [t for t in build_report(repo)["tasks"] if t["id"] == "b"]
        assert entry == task_report(repo, "b")
        assert [1, 2] == [r["number"] for r in entry["rounds"]]
        assert entry["decision"] is not None and 2 == entry["decision"]["round"]

    def test_an_unknown_task_names_the_id(self, repo: Repository) -> None:
        with pytest.raises(TaskNotFoundError, match="no task with id 'nope' in the store"):
            task_report(repo, "nope")


class TestDeadLettersAndApprovals:
    """A task's dead letters newest first (at most ``TASK_DEAD_LETTERS``); approvals in order."""

    def test_a_tasks_newest_dead_letters(
        self, repo: Repository, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        seed(repo, "t", 1)
        seed(repo, "u", 1)
        for i in range(5):
            repo.save_dead_letter("qgs.review.intake", f"bad {i}", "{", task_id="t")
        repo.save_dead_letter("qgs.review.intake", "other", "{", task_id="u")
        monkeypatch.setattr(report_views, "TASK_DEAD_LETTERS", 3)
        entry = task_report(repo, "t")
        assert ["bad 4", "bad 3", "bad 2"] == [d["reason"] for d in entry["dead_letters"]]
        assert ["other"] == [d["reason"] for d in task_report(repo, "u")["dead_letters"]]

    def test_approvals_oldest_first_with_their_round(self, repo: Repository) -> None:
        seed(repo, "t", 3)
        rounds = {r.number: r.id for r in repo.list_rounds("t")}
        for number, by in ((3, "carol"), (1, "alice")):
            round_id = rounds[number]
            assert round_id is not None
            repo.save_approval("t", round_id, decision="pass", approved=True, by=by)
        entry = task_report(repo, "t")
        assert [(3, "carol"), (1, "alice")] == [(a["round"], a["by"]) for a in entry["approvals"]]
