"""Human approval: the approval table, `Client.approve`, `qgs approve`, and what views say after.

Decisions are made by the real gate (``decide_gate``) and stored in a real store, SQLite and
PostgreSQL; nothing here needs a broker.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, inspect
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, SQLModel
from typer.testing import CliRunner

from qgs_worker.cli import app, main
from qgs_worker.client import Client
from qgs_worker.config.settings import Settings
from qgs_worker.core.gate import decide_gate
from qgs_worker.core.models import (
    Complexity,
    Decision,
    DecisionKind,
    DimensionScore,
    GatePolicy,
    Review,
    TaskHistory,
    Verdict,
)
from qgs_worker.errors import (
    ApprovalConflictError,
    InputError,
    NotAwaitingApprovalError,
    TaskNotFoundError,
    WaitTimeoutError,
)
from qgs_worker.reports.report import build_report, render_markdown
from qgs_worker.store import ApprovalRow, Repository, RoundRow, TaskRow

pytestmark = pytest.mark.integration

TASK = "t-drop-sessions"


def review(verdict: Verdict, score: int) -> Review:
    """A critic review with three dimensions (the gate reads verdict, score and must_fix)."""
    return Review(
        verdict=verdict,
        score=score,
        dimensions=tuple(
            DimensionScore(name=name, score=score) for name in ("safety", "necessity", "accuracy")
        ),
        must_fix=("restore the backup check",) if verdict is Verdict.FAIL else (),
        summary="reviewed",
        judge="rules",
    )


def gate(verdict: Verdict, score: int, complexity: Complexity, *, number: int = 1) -> Decision:
    """The real gate's decision on a final round with this review."""
    return decide_gate(
        review(verdict, score),
        round_number=number,
        complexity=complexity,
        final=True,
        history=TaskHistory(scores=[]),
        findings=[],
        policy=GatePolicy(),
    )


def seed_task(repo: Repository, task_id: str = TASK, complexity: str = "REFLECT") -> TaskRow:
    """A CRITICAL (REFLECT) or ACTION (COMPLEX) task, stored as intake stores one."""
    return repo.add_task(
        TaskRow(
            id=task_id,
            request="delete all expired sessions from the production database",
            task_type="CRITICAL" if complexity == "REFLECT" else "ACTION",
            complexity=complexity,
            classification_source="rules",
            confidence=1.0,
        )
    )


def add_round(
    repo: Repository,
    number: int,
    decision: Decision | None,
    *,
    task_id: str = TASK,
    status: str = "decided",
) -> RoundRow:
    """Store round ``number`` of the task, with its decision when one is given."""
    row = repo.add_round(
        RoundRow(
            submission_id=f"{task_id}:{number}",
            task_id=task_id,
            number=number,
            final=True,
            content=f"round {number}: backed up, then deleted 1,204 expired sessions",
            content_hash=f"hash-{number}",
            status=status,
        )
    )
    assert row.id is not None
    if decision is not None:
        repo.save_decision(row.id, task_id, decision)
    return row


@pytest.fixture
def repo(store_url: str) -> Iterator[Repository]:
    """The store, on SQLite and on PostgreSQL."""
    repository = Repository(store_url)
    yield repository
    repository.dispose()


@pytest.fixture
def client(repo: Repository, tmp_path: Path) -> Iterator[Client]:
    """A client on the same store (no broker: approving needs none)."""
    qgs = Client(Settings(database_url=repo.url, data_dir=tmp_path / ".qgs"))
    yield qgs
    qgs.repo.dispose()


@pytest.fixture
def awaiting(repo: Repository) -> RoundRow:
    """A REFLECT task whose final round the critic passed: the gate says awaiting_approval."""
    seed_task(repo)
    decision = gate(Verdict.PASS, 91, Complexity.REFLECT)
    assert DecisionKind.AWAITING_APPROVAL == decision.kind
    return add_round(repo, 1, decision)


NEWER = ("approval", "approval_webhook", "approval_webhook_attempt")
"""The tables an older store lacks here (the approval's webhook refers to the approval)."""


class TestApprovalStore:
    """The approval table: one row per (task, round), idempotent, conflicts named."""

    def test_same_decision_twice_is_one_row(self, repo: Repository, awaiting: RoundRow) -> None:
        assert awaiting.id is not None
        first = repo.save_approval(
            TASK, awaiting.id, decision="awaiting_approval", approved=True, by="alice", note="ok"
        )
        again = repo.save_approval(
            TASK, awaiting.id, decision="awaiting_approval", approved=True, by="alice", note="ok"
        )
        assert 1 == repo.count_rows(ApprovalRow)
        assert (first.id, first.created_at) == (again.id, again.created_at)

    def test_conflicting_decision_names_who_and_when(
        self, repo: Repository, awaiting: RoundRow
    ) -> None:
        assert awaiting.id is not None
        repo.save_approval(
            TASK, awaiting.id, decision="awaiting_approval", approved=True, by="alice"
        )
        with pytest.raises(ApprovalConflictError, match=r"already approved by alice at 20\d\d-"):
            repo.save_approval(
                TASK,
                awaiting.id,
                decision="awaiting_approval",
                approved=False,
                by="bob",
                note="no backup",
            )
        stored = repo.get_approval(awaiting.id)
        assert stored is not None and (True, "alice") == (stored.approved, stored.by)

    def test_database_refuses_a_second_row(self, repo: Repository, awaiting: RoundRow) -> None:
        assert awaiting.id is not None
        rows = [
            ApprovalRow(task_id=TASK, round_id=awaiting.id, decision="x", approved=ok, by=who)
            for ok, who in ((True, "alice"), (False, "bob"))
        ]
        with Session(repo.engine) as session, pytest.raises(IntegrityError):
            session.add_all(rows)
            session.commit()

    def test_list_and_latest(self, repo: Repository, awaiting: RoundRow) -> None:
        later = add_round(repo, 2, gate(Verdict.PASS, 95, Complexity.REFLECT, number=2))
        assert awaiting.id is not None and later.id is not None
        repo.save_approval(TASK, awaiting.id, decision="awaiting_approval", approved=True, by="a")
        repo.save_approval(
            TASK, later.id, decision="awaiting_approval", approved=False, by="b", note="why"
        )
        assert [(awaiting.id, "a"), (later.id, "b")] == [
            (r.round_id, r.by) for r in repo.list_approvals(TASK)
        ]
        latest = repo.latest_approval(TASK)
        assert latest is not None and ("b", False, "why") == (
            latest.by,
            latest.approved,
            latest.note,
        )
        assert latest.created_at.tzinfo is not None or repo.engine.dialect.name == "sqlite"

    def test_round_of_another_task_is_refused(self, repo: Repository, awaiting: RoundRow) -> None:
        seed_task(repo, "t-other")
        assert awaiting.id is not None
        with pytest.raises(TaskNotFoundError, match="t-other"):
            repo.save_approval(
                "t-other", awaiting.id, decision="awaiting_approval", approved=True, by="a"
            )

    def test_reopened_round_loses_its_approval(self, repo: Repository) -> None:
        seed_task(repo)
        add_round(repo, 1, None, status="failed")
        second = add_round(repo, 2, gate(Verdict.PASS, 90, Complexity.REFLECT, number=2))
        assert second.id is not None
        repo.save_approval(TASK, second.id, decision="awaiting_approval", approved=True, by="a")
        assert 1 == repo.reopen_failed(TASK)
        assert [] == repo.list_approvals(TASK)

    def test_old_store_gets_the_table(self, store_url: str) -> None:
        old = create_engine(store_url.replace("postgresql://", "postgresql+psycopg://"))
        SQLModel.metadata.create_all(
            old, tables=[t for t in SQLModel.metadata.sorted_tables if t.name not in NEWER]
        )
        assert "approval" not in inspect(old).get_table_names()
        old.dispose()
        repo = Repository(store_url)
        try:
            assert "approval" in inspect(repo.engine).get_table_names()
            seed_task(repo)
            row = add_round(repo, 1, gate(Verdict.PASS, 90, Complexity.REFLECT))
            assert row.id is not None
            repo.save_approval(TASK, row.id, decision="awaiting_approval", approved=True, by="a")
            assert 1 == repo.count_rows(ApprovalRow)
        finally:
            repo.dispose()


class TestApprove:
    """`Client.approve`: which decisions wait for a person, and what the views say after."""

    def test_approval_releases_the_task(self, client: Client, awaiting: RoundRow) -> None:
        before = client.task_decision(TASK)
        assert before is not None
        assert (True, True, False, "awaiting_approval") == (
            before.approval_required,
            before.awaiting_approval,
            before.delivered,
            before.outcome,
        )
        approval = client.approve(TASK, by=" alice ", note="backup verified")
        assert ("alice", True, 1, "awaiting_approval") == (
            approval.by,
            approval.approved,
            approval.round_number,
            approval.decision,
        )
        assert approval.created_at.utcoffset() is not None
        after = client.decision(awaiting.submission_id)
        assert after is not None and after.approval == approval
        assert ("awaiting_approval", "approved", True, False) == (
            after.kind,
            after.outcome,
            after.delivered,
            after.awaiting_approval,
        )
        assert [approval] == client.approvals(TASK)

    def test_rejection_blocks_the_task_and_needs_a_note(
        self, client: Client, awaiting: RoundRow
    ) -> None:
        with pytest.raises(InputError, match=r"'note' is required to reject"):
            client.approve(TASK, by="bob", reject=True)
        client.approve(TASK, by="bob", reject=True, note="the backup was never restored")
        view = client.task_decision(TASK)
        assert view is not None and view.approval is not None
        assert ("rejected", False, "the backup was never restored") == (
            view.outcome,
            view.delivered,
            view.approval.note,
        )

    def test_same_call_twice_changes_nothing_and_a_reversal_is_refused(
        self, client: Client, awaiting: RoundRow
    ) -> None:
        first = client.approve(TASK, by="alice")
        assert first == client.approve(TASK, by="alice")
        with pytest.raises(ApprovalConflictError, match="already approved by alice") as info:
            client.approve(TASK, by="bob", reject=True, note="changed my mind")
        assert str(info.value).endswith("submit a new round for a new decision")
        # The same decision by somebody else is refused too, saying so (the README said it
        # "changes nothing": who approved is kept as first recorded).
        with pytest.raises(ApprovalConflictError, match="already approved by alice") as same:
            client.approve(TASK, by="bob")
        assert "the same decision by 'bob' is not recorded again" in str(same.value)
        assert 1 == client.repo.count_rows(ApprovalRow)

    def test_after_a_rejection_the_conflict_does_not_promise_a_new_decision(
        self, client: Client, awaiting: RoundRow
    ) -> None:
        client.approve(TASK, by="bob", reject=True, note="no backup")
        with pytest.raises(ApprovalConflictError) as info:
            client.approve(TASK, by="alice")
        message = str(info.value)
        assert "already rejected by bob at" in message and "(no backup)" in message
        assert "a rejected task is never delivered (its later rounds are decided block)" in message
        assert "start a new task for a new decision" in message
        assert "submit a new round" not in message

    def test_note_is_capped(self, client: Client, awaiting: RoundRow) -> None:
        with pytest.raises(InputError) as info:
            client.approve(TASK, by="alice", note="y" * 2_500)
        assert str(info.value).startswith("'note' must be at most 2,000 characters (got 2,500)")
        assert 0 == client.repo.count_rows(ApprovalRow)
        approval = client.approve(TASK, by="alice", note="y" * 2_000)
        assert 2_000 == len(approval.note)

    def test_force_deliver_on_a_reflect_task_waits_for_a_person(
        self, client: Client, repo: Repository
    ) -> None:
        seed_task(repo)
        decision = gate(Verdict.FAIL, 55, Complexity.REFLECT)
        assert DecisionKind.FORCE_DELIVER == decision.kind
        add_round(repo, 1, decision)
        view = client.task_decision(TASK)
        assert view is not None and (False, "awaiting_approval") == (view.delivered, view.outcome)
        client.approve(TASK, by="carol", note="best round is good enough")
        view = client.task_decision(TASK)
        assert view is not None and (True, "approved") == (view.delivered, view.outcome)

    def test_force_deliver_on_a_complex_task_is_not_approvable(
        self, client: Client, repo: Repository
    ) -> None:
        seed_task(repo, complexity="COMPLEX")
        add_round(repo, 1, gate(Verdict.FAIL, 55, Complexity.COMPLEX))
        view = client.task_decision(TASK)
        assert view is not None and (True, "force_deliver") == (view.delivered, view.outcome)
        with pytest.raises(NotAwaitingApprovalError, match="only on a REFLECT task"):
            client.approve(TASK, by="carol")

    def test_other_decisions_are_not_approvable(self, client: Client, repo: Repository) -> None:
        seed_task(repo)
        with pytest.raises(NotAwaitingApprovalError, match="no round of it is decided yet"):
            client.approve(TASK, by="alice")
        add_round(repo, 1, gate(Verdict.PASS, 90, Complexity.REFLECT))
        revise = decide_gate(
            review(Verdict.FAIL, 40),
            round_number=2,
            complexity=Complexity.REFLECT,
            final=False,
            history=TaskHistory(scores=[(1, 90)]),
            findings=[],
            policy=GatePolicy(),
        )
        add_round(repo, 2, revise)
        with pytest.raises(
            NotAwaitingApprovalError,
            match=rf"task {TASK} is not awaiting approval: its latest decision is revise \(round 2\)",
        ):
            client.approve(TASK, by="alice")
        assert 0 == repo.count_rows(ApprovalRow)

    def test_a_later_undecided_round_must_be_decided_first(
        self, client: Client, awaiting: RoundRow, repo: Repository
    ) -> None:
        add_round(repo, 2, None, status="queued")
        with pytest.raises(NotAwaitingApprovalError, match="round 2 came after"):
            client.approve(TASK, by="alice")

    @pytest.mark.parametrize("by", ["", "   ", "x" * 129])
    def test_by_is_required(self, client: Client, awaiting: RoundRow, by: str) -> None:
        with pytest.raises(InputError, match="'by'"):
            client.approve(TASK, by=by)

    def test_unknown_task(self, client: Client) -> None:
        with pytest.raises(TaskNotFoundError, match="no-such-task"):
            client.approve("no-such-task", by="alice")

    def test_wait_until_approved(self, client: Client, awaiting: RoundRow) -> None:
        plain = client.wait(awaiting.submission_id, timeout_s=5)
        assert plain.awaiting_approval
        with pytest.raises(WaitTimeoutError, match=f"qgs approve {TASK} --by NAME"):
            client.wait(awaiting.submission_id, timeout_s=0.2, until_approved=True)
        client.approve(TASK, by="alice")
        done = client.wait(awaiting.submission_id, timeout_s=5, until_approved=True)
        assert done.approval is not None and done.delivered


class TestReports:
    """Reports keep approvals: per task, in the decision, and counted in the summary."""

    def test_json_and_markdown(self, client: Client, repo: Repository) -> None:
        for task_id in ("t-approved", "t-rejected", "t-waiting"):
            seed_task(repo, task_id)
            add_round(repo, 1, gate(Verdict.PASS, 90, Complexity.REFLECT), task_id=task_id)
        client.approve("t-approved", by="alice", note="looks right")
        client.approve("t-rejected", by="bob", reject=True, note="wrong database")
        report = build_report(repo)
        tasks = {t["id"]: t for t in report["tasks"]}
        assert {"awaiting": 1, "approved": 1, "rejected": 1} == report["summary"]["approvals"]
        approved = tasks["t-approved"]
        assert [
            {
                "round": 1,
                "decision": "awaiting_approval",
                "approved": True,
                "by": "alice",
                "note": "looks right",
            }
        ] == [{k: v for k, v in a.items() if k != "created_at"} for a in approved["approvals"]]
        assert approved["approvals"][0]["created_at"].endswith("+00:00")
        assert approved["decision"]["approval"] == approved["approvals"][0]
        assert ("approved", True) == (
            approved["decision"]["outcome"],
            approved["decision"]["approval_required"],
        )
        assert "rejected" == tasks["t-rejected"]["decision"]["outcome"]
        assert (None, "awaiting_approval") == (
            tasks["t-waiting"]["decision"]["approval"],
            tasks["t-waiting"]["decision"]["outcome"],
        )
        markdown = render_markdown(report)
        assert "- approvals: 1 awaiting, 1 approved, 1 rejected" in markdown
        assert "round 1 (awaiting_approval) approved by alice at " in markdown
        assert "rejected by bob at " in markdown and ": wrong database" in markdown
        assert "awaiting_approval (a person must confirm: qgs approve)" in markdown


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[Any, str, str]:
    """Run the ``qgs`` entry point (exit codes as a shell sees them); out and err, unwrapped."""
    argv, sys.argv = sys.argv, ["qgs", *args]
    try:
        with pytest.raises(SystemExit) as info:
            main()
    finally:
        sys.argv = argv
    out = capsys.readouterr()
    return info.value.code, " ".join(out.out.split()), " ".join(out.err.split())


class TestApproveCommand:
    """`qgs approve TASK --by NAME [--reject --note WHY]`, then `qgs status` and `qgs report`."""

    @pytest.fixture(autouse=True)
    def _env(self, repo: Repository, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("QGS_DATABASE_URL", repo.url)
        monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / ".qgs"))

    def test_approve_then_status_and_report(
        self, awaiting: RoundRow, capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out, _ = run_main(capsys, "status", TASK)
        assert 0 == code and f"awaiting approval: `qgs approve {TASK} --by NAME`" in out
        code, out, err = run_main(capsys, "approve", TASK, "--by", "alice", "--note", "checked")
        assert 0 == code, err
        assert "round 1 (awaiting_approval): approved by alice at 20" in out
        assert "(checked): released, deliver round 1" in out
        code, out, _ = run_main(capsys, "status", TASK)
        assert "approval: round 1 (awaiting_approval) approved by alice at" in out
        assert "awaiting approval:" not in out
        # Break test: the latest decision's line still read "awaiting_approval" alone.
        assert "latest decision (round 1): awaiting_approval → approved by alice — " in " ".join(
            out.split()
        )
        result = CliRunner().invoke(app, ["report", "--format", "json"], catch_exceptions=False)
        report = json.loads(result.stdout)
        assert ["alice"] == [a["by"] for a in report["tasks"][0]["approvals"]]

    def test_reject(self, awaiting: RoundRow, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, err = run_main(
            capsys, "approve", TASK, "--reject", "--by", "bob", "--note", "no backup"
        )
        assert 0 == code, err
        assert "rejected by bob at" in out and "(no backup): blocked, never delivered" in out
        code, _, err = run_main(capsys, "approve", TASK, "--by", "alice")
        assert 2 == code and "was already rejected by bob at" in err
        assert "start a new task for a new decision" in err and "new round" not in err

    @pytest.mark.parametrize(
        ("args", "needle"),
        [
            ((), "'--by' is required"),
            (("--by", "bob", "--reject"), "'--note' is required with --reject"),
            (
                ("--by", "bob", "--note", "x" * 2_001),
                "'note' must be at most 2,000 characters (got 2,001)",
            ),
        ],
    )
    def test_bad_input_exits_2(
        self,
        awaiting: RoundRow,
        capsys: pytest.CaptureFixture[str],
        args: tuple[str, ...],
        needle: str,
    ) -> None:
        code, _, err = run_main(capsys, "approve", TASK, *args)
        assert (2, True) == (code, needle in err), err
        assert "Traceback" not in err

    def test_not_awaiting_and_conflict_exit_2(
        self, repo: Repository, capsys: pytest.CaptureFixture[str]
    ) -> None:
        seed_task(repo)
        add_round(repo, 1, Decision(kind=DecisionKind.REVISE, reason="score 40: revise"))
        code, _, err = run_main(capsys, "approve", TASK, "--by", "alice")
        assert 2 == code
        assert (
            f"task {TASK} is not awaiting approval: its latest decision is revise (round 1)" in err
        )
        add_round(repo, 2, gate(Verdict.PASS, 90, Complexity.REFLECT, number=2))
        assert 0 == run_main(capsys, "approve", TASK, "--by", "alice")[0]
        code, _, err = run_main(capsys, "approve", TASK, "--by", "bob", "--reject", "--note", "no")
        assert 2 == code and "was already approved by alice at" in err

    def test_wait_until_approved(
        self, awaiting: RoundRow, capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out, _ = run_main(capsys, "wait", TASK, "--timeout-s", "5")
        assert 0 == code and "awaiting approval: `qgs approve" in out
        code, _, err = run_main(capsys, "wait", TASK, "--timeout-s", "0.3", "--until-approved")
        assert 1 == code and f"task {TASK} is not decided and approved after 0.3 s" in err
        run_main(capsys, "approve", TASK, "--by", "alice")
        code, out, _ = run_main(capsys, "wait", TASK, "--timeout-s", "5", "--until-approved")
        assert 0 == code and "approved by alice" in out
