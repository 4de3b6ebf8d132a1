"""The pipeline's steps on an in-memory store, without a queue: ordering, claims, idempotence."""

from __future__ import annotations

import pytest

from qgs_worker.core.models import (
    CadencePolicy,
    DecisionKind,
    Deliverable,
    DimensionScore,
    GatePolicy,
    Review,
    ToolCall,
    Verdict,
)
from qgs_worker.errors import JudgeResponseError
from qgs_worker.queue import pipeline
from qgs_worker.roles import load_roles
from qgs_worker.service.submission import NewTask, Submission
from qgs_worker.store import DecisionRow, Repository, ReviewRow, RoundRow

POLICIES = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy())
AUDIT = pipeline.Audit(roles=load_roles())


class ScriptedJudge:
    """A judge that answers the score written in the deliverable as 'score=NN'."""

    name = "scripted"

    def __init__(self) -> None:
        self.calls = 0

    def review(self, request):  # type: ignore[no-untyped-def]
        self.calls += 1
        score = int(request.deliverable.split("score=")[1][:2])
        verdict = Verdict.PASS if score >= 85 else Verdict.FAIL
        return Review(
            verdict=verdict,
            score=score,
            dimensions=tuple(DimensionScore(name=d, score=score) for d in request.dimensions),
            must_fix=() if verdict is Verdict.PASS else ("improve it",),
        )


class BrokenJudge:
    name = "broken"

    def review(self, request):  # type: ignore[no-untyped-def]
        raise JudgeResponseError("not JSON", raw="PASS!!")


@pytest.fixture
def repo() -> Repository:
    return Repository("sqlite://")


def submission(
    n: int, text: str, *, final: bool = False, request: str = "write an article about AI", **kw
) -> Submission:  # type: ignore[no-untyped-def]
    return Submission(
        submission_id=f"tx:{n}",
        task_id="tx",
        round_number=n,
        final=final,
        deliverable=Deliverable(text=text, **kw),
        task=NewTask(request=request),
    )


def run_round(repo: Repository, round_id: int, judge) -> int | None:  # type: ignore[no-untyped-def]
    row = repo.get_round(round_id)
    if row.plan_critic:
        pipeline.critic(repo, judge, round_id)
    if row.plan_discriminate:
        pipeline.discriminate(repo, round_id, AUDIT)
    return pipeline.decide(repo, round_id, POLICIES)


class TestOrdering:
    """A task's rounds are decided one after another, whatever order intake sees them in."""

    def test_out_of_order_intake_waits_for_the_gap(self, repo: Repository) -> None:
        judge = ScriptedJudge()
        assert None is pipeline.intake(repo, submission(2, "score=58"), POLICIES)
        # Round 1 has nothing due (no critic on round 1 of a COMPLEX task): it is decided as it
        # is stored, and intake hands on round 2, whose turn came.
        second = pipeline.intake(repo, submission(1, "score=10"), POLICIES)
        assert repo.get_round_by_submission("tx:2").id == second
        assert "decided" == repo.get_round_by_submission("tx:1").status
        assert None is run_round(repo, second, judge)
        assert ["continue", "revise"] == [
            repo.get_decision(r.id).kind for r in repo.list_rounds("tx")
        ]  # type: ignore[union-attr, arg-type]

    def test_claim_is_won_once(self, repo: Repository) -> None:
        round_id = pipeline.intake(repo, submission(1, "x", final=True), POLICIES)
        assert round_id is not None
        assert (False, None) == (
            repo.claim_round(round_id),
            pipeline.intake(repo, submission(1, "x", final=True), POLICIES),
        )

    def test_redelivered_intake_dispatches_again(self, repo: Repository) -> None:
        round_id = pipeline.intake(repo, submission(1, "x", final=True), POLICIES)
        assert round_id is not None
        again = pipeline.intake(repo, submission(1, "x", final=True), POLICIES, redelivered=True)
        assert round_id == again

    def test_round_with_nothing_due_is_decided_as_it_is_stored(self, repo: Repository) -> None:
        assert None is pipeline.intake(repo, submission(1, "x"), POLICIES)
        row = repo.get_round_by_submission("tx:1")
        decision = repo.get_decision(row.id or 0)
        assert ("decided", False, "continue") == (
            row.status,
            row.plan_critic,
            decision and decision.kind,
        )


class TestIdempotence:
    """Running a step twice leaves one row and calls the judge once."""

    def test_steps_twice(self, repo: Repository) -> None:
        judge = ScriptedJudge()
        round_id = pipeline.intake(repo, submission(1, "score=90", final=True), POLICIES)
        assert round_id is not None
        for _ in range(2):
            run_round(repo, round_id, judge)
        counts = [repo.count_rows(t) for t in (RoundRow, ReviewRow, DecisionRow)]
        assert ([1, 1, 1], 1) == (counts, judge.calls)


class TestEscalationAndBlock:
    """Detector findings escalate a task; a P0 blocks every later round too."""

    def test_p0_in_a_tool_call_escalates_and_blocks_for_good(self, repo: Repository) -> None:
        judge = ScriptedJudge()
        rm = ToolCall(id="c1", name="bash", arguments={"command": "rm -rf /"})
        r1 = pipeline.intake(
            repo, submission(1, "score=95", request="what time is it", tool_calls=(rm,)), POLICIES
        )
        assert r1 is not None
        r2 = run_round(repo, r1, judge)
        pipeline.intake(
            repo, submission(2, "score=95", final=True, request="what time is it"), POLICIES
        )
        r2 = r2 or repo.get_round_by_submission("tx:2").id
        run_round(repo, r2, judge)  # type: ignore[arg-type]
        task = repo.get_task("tx")
        kinds = [repo.get_decision(r.id).kind for r in repo.list_rounds("tx")]  # type: ignore[union-attr, arg-type]
        assert ("CRITICAL", "REFLECT", True) == (task.task_type, task.complexity, task.escalated)
        assert "destructive" in (task.escalation_reason or "")
        assert ["block", "block"] == kinds


class TestRejection:
    """A person's rejection blocks the task for good, like a P0."""

    def test_rounds_after_a_rejection_are_blocked(self, repo: Repository) -> None:
        judge = ScriptedJudge()
        request = "delete all records in the database"
        r1 = pipeline.intake(repo, submission(1, "score=95", final=True, request=request), POLICIES)
        assert r1 is not None
        run_round(repo, r1, judge)
        assert "awaiting_approval" == repo.get_decision(r1).kind  # type: ignore[union-attr]
        repo.save_approval(
            "tx", r1, decision="awaiting_approval", approved=False, by="ops", note="wrong db"
        )
        r2 = pipeline.intake(repo, submission(2, "score=99", final=True, request=request), POLICIES)
        assert r2 is not None
        run_round(repo, r2, judge)
        decision = repo.get_decision(r2)
        assert decision is not None and "block" == decision.kind
        assert "ops rejected round 1 of this task: wrong db" in decision.reason


class TestFailures:
    """A judge failure or a failed round is never a pass, and the next round still goes on."""

    def test_judge_failure_is_stored_and_revises(self, repo: Repository) -> None:
        round_id = pipeline.intake(repo, submission(1, "text", final=True), POLICIES)
        assert round_id is not None
        run_round(repo, round_id, BrokenJudge())
        review = repo.get_review(round_id)
        assert ("failed", "PASS!!") == (review.status, review.raw)  # type: ignore[union-attr]
        assert DecisionKind.REVISE.value == repo.get_decision(round_id).kind  # type: ignore[union-attr]

    def test_failed_intake_keeps_its_number(self, repo: Repository) -> None:
        pipeline.intake(repo, submission(2, "score=90"), POLICIES)
        pipeline.ensure_task(repo, submission(1, "x"))
        placeholder = pipeline.placeholder_round(repo, submission(1, "x"), "boom")
        assert placeholder is not None
        next_round = pipeline.fail_round(repo, placeholder, "boom", POLICIES)
        assert repo.get_round_by_submission("tx:2").id == next_round
        assert "revise" == repo.get_decision(placeholder).kind  # type: ignore[union-attr]


class TestReviewReuse:
    """An identical round (output, request, criteria, judge) reuses the stored review: no call."""

    def test_second_identical_round_costs_no_call(self, repo: Repository) -> None:
        judge = ScriptedJudge()
        ids = []
        for task_id in ("a", "b"):
            sub = Submission(
                submission_id=f"{task_id}:1",
                task_id=task_id,
                round_number=1,
                final=True,
                deliverable=Deliverable(text="score=91"),
                task=NewTask(request="write an article about AI"),
            )
            round_id = pipeline.intake(repo, sub, POLICIES)
            assert round_id is not None
            run_round(repo, round_id, judge)
            ids.append(round_id)
        second = repo.get_review(ids[1])
        assert (1, ids[0], 91) == (judge.calls, second.reused_from, second.score)  # type: ignore[union-attr]

    def test_other_request_is_judged_again(self, repo: Repository) -> None:
        judge = ScriptedJudge()
        for task_id, request in (
            ("a", "write an article about AI"),
            ("b", "write an article about cats"),
        ):
            sub = Submission(
                submission_id=f"{task_id}:1",
                task_id=task_id,
                round_number=1,
                final=True,
                deliverable=Deliverable(text="score=91"),
                task=NewTask(request=request),
            )
            round_id = pipeline.intake(repo, sub, POLICIES)
            assert round_id is not None
            run_round(repo, round_id, judge)
        assert 2 == judge.calls


class TestClassifierLlmLayer:
    """The LLM layer is asked only when the rules cannot settle; its failure never stops intake."""

    def test_asked_only_when_rules_cannot_settle(self, repo: Repository) -> None:
        from qgs_worker.core.models import Classification, Complexity, TaskType

        asked: list[str] = []

        def llm(request: str) -> Classification:
            asked.append(request)
            return Classification(
                task_type=TaskType.ACTION,
                complexity=Complexity.COMPLEX,
                confidence=0.7,
                source="llm",
            )

        settled = submission(1, "x", request="delete all records in the database")
        pipeline.intake(repo, settled, POLICIES, llm=llm)
        unsettled = Submission(
            submission_id="u:1",
            task_id="u",
            round_number=1,
            deliverable=Deliverable(text="x"),
            task=NewTask(request="Write a deployment script for the billing service and deploy it"),
        )
        pipeline.intake(repo, unsettled, POLICIES, llm=llm)
        assert ("CRITICAL", "ACTION", "llm") == (
            repo.get_task("tx").task_type,
            repo.get_task("u").task_type,
            repo.get_task("u").classification_source,
        )
        assert 1 == len(asked)

    def test_failure_falls_back_to_the_rules(self, repo: Repository) -> None:
        from qgs_worker.errors import JudgeUnavailableError

        def llm(request: str):  # type: ignore[no-untyped-def]
            raise JudgeUnavailableError("down")

        sub = Submission(
            submission_id="u:1",
            task_id="u",
            round_number=1,
            deliverable=Deliverable(text="x"),
            task=NewTask(request="Write a deployment script for the billing service and deploy it"),
        )
        pipeline.intake(repo, sub, POLICIES, llm=llm)
        task = repo.get_task("u")
        assert "default" == task.classification_source


class TestMakeJudge:
    """Judge kinds from settings."""

    def test_panel_needs_two_models(self) -> None:
        from qgs_worker.errors import ConfigurationError
        from qgs_worker.judges import PanelJudge, make_judge

        with pytest.raises(ConfigurationError, match="QGS_JUDGE__PANEL_MODELS"):
            make_judge("panel", api_key="k", panel_models=["one"])
        panel = make_judge(
            "panel", api_key="k", base_url="http://127.0.0.1:9/v1", panel_models=["a", "b"]
        )
        assert isinstance(panel, PanelJudge)
