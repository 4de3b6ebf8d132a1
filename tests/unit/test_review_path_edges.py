"""The review path's edges, from the issue-12 break test: each test is a defect found there.

Every test runs the service's steps on an in-memory store in the interleaving that a real
worker pool produces (several intake threads, the sweeper, a person approving), so the
outcome is deterministic.
"""

from __future__ import annotations

import contextlib

import pytest

from qgs_worker.core.models import (
    CadencePolicy,
    Deliverable,
    Finding,
    GatePolicy,
    Severity,
    TaskType,
    ToolCall,
)
from qgs_worker.queue import pipeline
from qgs_worker.queue.progress import progress_of
from qgs_worker.service import approvals
from qgs_worker.service.submission import NewTask, Submission
from qgs_worker.store import Repository
from tests.unit.test_pipeline_steps import ScriptedJudge

POLICIES = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy())


@pytest.fixture
def repo() -> Repository:
    return Repository("sqlite://")


def sub(
    sid: str,
    n: int | None,
    text: str,
    *,
    task: str = "tx",
    request: str = "write an article about AI",
    final: bool = False,
    renumber: bool = False,
    calls: tuple[ToolCall, ...] = (),
) -> Submission:
    return Submission(
        submission_id=sid,
        task_id=task,
        round_number=n,
        renumber_on_conflict=renumber,
        final=final,
        deliverable=Deliverable(text=text, tool_calls=calls),
        task=NewTask(request=request),
    )


def decide_through(repo: Repository, round_id: int | None, judge: ScriptedJudge) -> None:
    """Run a dispatched round's steps (critic, audit, decide) as its jobs would."""
    while round_id is not None:
        row = repo.get_round(round_id)
        if row.plan_critic:
            pipeline.critic(repo, judge, round_id)
        if row.plan_discriminate:
            pipeline.discriminate(repo, round_id, pipeline.Audit(roles=()))
        round_id = pipeline.decide(repo, round_id, POLICIES)


class TestFailedRoundKeepsTheTasksBlock:
    """A round that fails after a P0 (or a rejection) must still be ``block``, not ``revise``."""

    def test_failed_round_after_a_p0_is_block(self, repo: Repository) -> None:
        judge = ScriptedJudge()
        rm = ToolCall(id="c1", name="bash", arguments={"command": "rm -rf /"})
        decide_through(
            repo, pipeline.intake(repo, sub("s1", 1, "score=90", calls=(rm,)), POLICIES), judge
        )
        assert "block" == repo.get_decision(repo.get_round_by_submission("s1").id).kind
        second = pipeline.intake(repo, sub("s2", 2, "score=95 clean"), POLICIES)
        assert second is not None
        # The sweeper (or a job's error handler) fails round 2: ReviewService.fail.
        pipeline.fail_round(repo, second, "dispatched 6 times without a decision", POLICIES)
        # README: "block: a P0 finding in this or any earlier round: never delivered".
        assert "block" == repo.get_decision(second).kind


class TestStaleCriticAfterFail:
    """A critic copy that runs after the sweeper failed its round must not rewrite the round."""

    def test_failed_round_stays_failed_with_its_error(self, repo: Repository) -> None:
        judge = ScriptedJudge()
        assert None is pipeline.intake(repo, sub("s1", 1, "score=40"), POLICIES)
        second = pipeline.intake(repo, sub("s2", 2, "score=95"), POLICIES)
        assert second is not None and repo.get_round(second).plan_critic
        pipeline.fail_round(repo, second, "dispatched 6 times without a decision", POLICIES)
        # A held critic job (then_decide: no audit due) finishes afterwards.
        pipeline.service_for(repo, judge=judge).review(second, then_decide=True)
        row = repo.get_round(second)
        assert ("failed", "dispatched 6 times without a decision") == (row.status, row.error)
        assert 0 == judge.calls  # nor is the judge called for a round that already failed


class TestApprovalRace:
    """A rejection recorded while a later round is decided must still block that round."""

    def test_rejected_task_cannot_be_released_by_a_later_round(self, repo: Repository) -> None:
        judge = ScriptedJudge()
        ask = "delete all records in the database"
        decide_through(
            repo, pipeline.intake(repo, sub("s1", 1, "score=95", request=ask), POLICIES), judge
        )
        r2 = pipeline.intake(repo, sub("s2", 2, "score=95", request=ask), POLICIES)
        decide_through(repo, r2, judge)
        assert "awaiting_approval" == repo.get_decision(repo.get_round_by_submission("s2").id).kind
        # `qgs approve --reject` reads its target ...
        target = repo.approval_target("tx")
        assert target is not None and target.later is None
        # ... meanwhile the agent's round 3 is stored and decided by the workers ...
        r3 = pipeline.intake(repo, sub("s3", 3, "score=96", request=ask, final=True), POLICIES)
        decide_through(repo, r3, judge)
        assert "awaiting_approval" == repo.get_decision(repo.get_round_by_submission("s3").id).kind
        # ... and the rejection of round 2 is written.
        repo.record_approval(target, approved=False, by="carol", note="wrong database")
        # Round 3 was decided without the rejection; approving it releases a rejected task.
        released = None
        with contextlib.suppress(Exception):
            released = approvals.approve(repo, "tx", by="dave")
        assert released is None, f"a rejected task was released: {released}"


class TestExplicitRoundNumberRace:
    """An explicit round number taken by a concurrent submission is refused visibly, not lost."""

    def test_losing_submission_is_not_reported_as_never_taken(
        self, repo: Repository, monkeypatch: pytest.MonkeyPatch, tmp_path
    ) -> None:
        from qgs_worker.config.settings import Settings
        from qgs_worker.queue import jobs

        url = f"sqlite:///{tmp_path / 'qgs.db'}"
        file_repo = Repository(url)
        # The job builds its runtime from the app's settings, once per app: this test's own,
        # whatever an earlier test of this process left on the shared app.
        app = jobs.intake_job.app
        settings = Settings(data_dir=tmp_path / ".qgs", database_url=url)
        monkeypatch.setattr(app, "qgs_settings", settings, raising=False)
        monkeypatch.setattr(app, "qgs_runtime", None, raising=False)

        # Two clients: A gets round 1 (next free, renumbered on conflict), B asks for round 1
        # explicitly; both were free when each client looked (Client.submit's check).
        a = sub("sA", 1, "A's round", renumber=True)
        b = sub("sB", 1, "B's explicit round 1")
        for s in (a, b):
            file_repo.add_outbox(s.submission_id, s.task_id, s.model_dump_json())
        monkeypatch.setattr(jobs, "send", lambda ready, app=None: None)
        for s in (a, b):
            jobs.intake_job.run(s.model_dump(mode="json"))
        progress = progress_of(file_repo, "sB")
        # It said "sent ... no worker took it yet: is a worker consuming qgs.default ...?", though
        # a worker took it and refused it (RoundNumberTakenError), and nothing is stored.
        assert ("refused", True) == (progress.state, "already held" in progress.detail)


class TestRoundsNumberedInSubmitOrder:
    """Rounds submitted one after another by separate clients keep their submission order."""

    def test_separate_clients_number_in_order(self, repo: Repository) -> None:
        from qgs_worker.client import Client
        from qgs_worker.config.settings import Settings

        class App:
            def __init__(self) -> None:
                self.sent: list[dict] = []

            def send_task(self, name, args, **kw):  # type: ignore[no-untyped-def]
                self.sent.append(args[0])

        settings = Settings(database_url="sqlite://", broker_url="redis://127.0.0.1:1/0")
        app = App()
        first = Client(settings, app=app)
        first.repo = repo
        task = first.start_task("write an article about AI").id
        for n in range(1, 4):  # `qgs submit --no-wait` three times: a fresh client each time
            c = Client(settings, app=app)
            c.repo = repo
            c.submit(task, f"draft {n}", final=n == 3)
        for message in reversed(app.sent):  # the worker's intake threads take them in any order
            pipeline.intake(repo, Submission.model_validate(message), POLICIES)
        rows = repo.list_rounds(task)
        assert ["draft 1", "draft 2", "draft 3"] == [r.content for r in rows]


class P0ByAudit:
    """An audit role (a plugin) that finds a P0 in any round containing 'LEAK'."""

    name = "p0_role"
    task_types = frozenset(TaskType)

    def audit(self, context, session):  # type: ignore[no-untyped-def]
        last = context.rounds[-1]
        if "LEAK" not in last.text:
            return []
        return [Finding(role=self.name, category="privacy", severity=Severity.P0, title="leak")]


class TestAuditP0HoldsLaterRounds:
    """A P0 the audit finds (no escalation at intake) blocks every later round, on every path."""

    def test_later_rounds_block_at_intake_and_after_one_job_review(self, repo: Repository) -> None:
        judge = ScriptedJudge()
        audit = pipeline.Audit(roles=(P0ByAudit(),))
        kinds = {}
        for n in range(1, 13):
            text = "score=95 LEAK" if n == 10 else "score=95"
            rid = pipeline.intake(repo, sub(f"s{n}", n, text), POLICIES)
            while rid is not None:
                row = repo.get_round(rid)
                if row.plan_critic and not row.plan_discriminate:  # the one-job path
                    nxt = pipeline.service_for(repo, judge=judge).review(rid, then_decide=True)
                    rid = nxt.next.round_id if nxt.next else None
                    continue
                if row.plan_critic:
                    pipeline.critic(repo, judge, rid)
                if row.plan_discriminate:
                    pipeline.discriminate(repo, rid, audit)
                rid = pipeline.decide(repo, rid, POLICIES)
        for r in repo.list_rounds("tx"):
            kinds[r.number] = repo.get_decision(r.id).kind
        assert dict.fromkeys((10, 11, 12), "block") == {n: kinds[n] for n in (10, 11, 12)}, kinds


class TestGapWedgesTheTask:
    """A round sent with a number past the next free one waits; past the bound, the sweeper
    stores the numbers nobody submitted as failed rounds, and the task goes on."""

    def test_rounds_after_a_gap_are_decided_once_the_sweeper_fills_it(
        self, repo: Repository
    ) -> None:
        from datetime import timedelta

        from qgs_worker.queue.sweeper import Actions, SweepPolicy, sweep
        from qgs_worker.store.tables import utcnow

        assert None is pipeline.intake(repo, sub("s1", 1, "round one"), POLICIES)
        # Round 5 while the task has one round (Client.send of a made submission).
        pipeline.intake(
            repo, sub("s5", 5, "round five, sent with make_submission + send"), POLICIES
        )
        status = {r.number: r.status for r in repo.list_rounds("tx")}
        assert "queued" == status[5]  # rounds 2-4 may still be on their way: it waits
        dispatched: list[int] = []
        actions = Actions(
            publish=lambda message: None,
            dispatch=dispatched.append,
            claim=lambda task_id: pipeline.claim_next(repo, task_id, POLICIES),
            fail=lambda rid, why: pipeline.fail_round(repo, rid, why, POLICIES),
        )
        policy = SweepPolicy(bound_s=60.0, interval_s=1.0, max_redispatches=2)
        assert [] == sweep(repo, policy, actions).gaps  # within the bound: nothing is filled
        done = sweep(repo, policy, actions, now=utcnow() + timedelta(seconds=61))
        rows = {r.number: r for r in repo.list_rounds("tx")}
        assert 3 == len(done.gaps)
        assert ["failed"] * 3 == [rows[n].status for n in (2, 3, 4)]
        assert "round 2 was never submitted" in (rows[2].error or "")
        # Round 5's turn came: it is decided (nothing due on round 5 of a COMPLEX task).
        assert rows[5].status == "decided"
