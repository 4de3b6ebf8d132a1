"""The loop's other exit (issue 32): what a force_deliver sends back to the planner (``replan``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from sqlalchemy import create_engine, inspect, text

from qgs_worker.core.gate import decide_gate
from qgs_worker.core.models import (
    CadencePolicy,
    Complexity,
    Decision,
    DecisionKind,
    Deliverable,
    DimensionScore,
    GatePolicy,
    Review,
    TaskHistory,
    TerminationReason,
    Verdict,
)
from qgs_worker.core.replan import MET_FROM, LoopRound, replan_of, with_rounds
from qgs_worker.core.webhooks import webhook_body
from qgs_worker.judges import openai_judge, rules_judge
from qgs_worker.queue import pipeline
from qgs_worker.reports.report import build_report, render_markdown, render_table
from qgs_worker.service.submission import NewTask, Submission
from qgs_worker.store import Repository

POLICIES = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy(critic_every=1))
DIMS = ("completeness", "correctness", "clarity", "feasibility")


def fail(score: int, *must_fix: str, dims: dict[str, int] | None = None) -> Review:
    scored = dict.fromkeys(DIMS, score) | (dims or {})
    return Review(
        verdict=Verdict.FAIL,
        score=score,
        dimensions=tuple(DimensionScore(name=n, score=s) for n, s in scored.items()),
        must_fix=must_fix,
    )


def decide(review: Review, history: tuple[tuple[int, int], ...], number: int) -> Decision:
    return decide_gate(
        review,
        round_number=number,
        complexity=Complexity.COMPLEX,
        final=False,
        history=TaskHistory(scores=history),
        findings=(),
        policy=GatePolicy(),
    )


class TestGate:
    """The gate sets a replan on every force_deliver, and on nothing else."""

    def test_oscillating_loop(self) -> None:
        d = decide(fail(56), ((1, 40), (2, 55), (3, 42)), 4)
        assert (DecisionKind.FORCE_DELIVER, TerminationReason.OSCILLATING) == (
            d.kind,
            d.termination,
        )
        assert d.replan is not None
        assert (TerminationReason.OSCILLATING, (1, 2, 3, 4), (40, 55, 42, 56), 4) == (
            d.replan.termination,
            d.replan.rounds,
            d.replan.scores,
            d.replan.best_round,
        )
        assert "up, down, up" in d.replan.detail
        assert (2,) == d.replan.close_rounds  # 55 is within 2 points of 56

    def test_the_cap(self) -> None:
        d = decide(fail(50), ((1, 10), (2, 20), (3, 30), (4, 40)), 5)
        assert d.replan is not None
        assert (TerminationReason.MAX_REVISIONS_REACHED, 5, ()) == (
            d.replan.termination,
            d.replan.best_round,
            d.replan.close_rounds,
        )
        # The gate knows the scores, not the verdicts: it claims nothing of which rounds passed.
        assert d.replan.advice.startswith("The loop stopped after 5 reviewed rounds")

    @pytest.mark.parametrize(
        ("review", "history"),
        [
            (fail(40), ((1, 30),)),  # revise: the loop goes on
            (Review(verdict=Verdict.PASS, score=90), ((1, 30),)),
            (Review(verdict=Verdict.PASS_WITH_SUGGESTIONS, score=75), ()),
        ],
    )
    def test_no_replan_otherwise(
        self, review: Review, history: tuple[tuple[int, int], ...]
    ) -> None:
        d = decide(review, history, len(history) + 1)
        assert DecisionKind.FORCE_DELIVER != d.kind
        assert d.replan is None


class TestWithRounds:
    """The criteria never met and the must_fix items that kept coming back."""

    def replan(self, *rounds: LoopRound, criteria: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
        history = [(r.number, r.score) for r in rounds]
        best = max(history, key=lambda p: (p[1], -p[0]))[0]
        first = replan_of(TerminationReason.OSCILLATING, "", history, best, 2)
        return with_rounds(first, rounds, criteria)

    def test_a_dimension_under_the_line_in_every_round_was_never_met(self) -> None:
        dims = lambda **s: tuple(DimensionScore(name=n, score=v) for n, v in s.items())  # noqa: E731
        got = self.replan(
            LoopRound(1, 40, dims(completeness=30, clarity=80, correctness=50)),
            LoopRound(2, 50, dims(completeness=45, clarity=50, correctness=65)),
        )
        assert [("completeness", "rubric", 45, (1, 2))] == [
            (c.criterion, c.source, c.best_score, c.rounds) for c in got.unmet_criteria
        ]
        assert got.unmet_criteria[0].requirement.startswith("Every part of the request")

    def test_items_that_come_back_are_counted_with_their_rounds(self) -> None:
        got = self.replan(
            LoopRound(1, 40, must_fix=("Cite the sources.", "add a summary")),
            LoopRound(2, 50, must_fix=("cite the sources", "fix the title")),
            LoopRound(3, 45, must_fix=("Please cite the sources!", "add a short summary")),
        )
        assert [("Cite the sources.", 3, (1, 2, 3)), ("add a summary", 2, (1, 3))] == [
            (f.item, f.count, f.rounds) for f in got.recurring_must_fix
        ]
        assert "Kept coming back: Cite the sources. (3 rounds)" in got.advice
        assert "revise the plan, not the draft" in got.advice

    def test_different_items_are_not_merged(self) -> None:
        got = self.replan(
            LoopRound(1, 40, must_fix=("unfilled placeholder '<insert start date>'",)),
            LoopRound(2, 50, must_fix=("unfilled placeholder '<insert owner>'",)),
        )
        assert () == got.recurring_must_fix

    def test_a_task_criterion_the_critic_kept_naming(self) -> None:
        got = self.replan(
            LoopRound(1, 40, must_fix=("the benchmark numbers are missing",)),
            LoopRound(2, 50, must_fix=("include benchmark numbers for each release",)),
            criteria=("Includes benchmark numbers", "Written in plain English"),
        )
        assert [("Includes benchmark numbers", "task", (1, 2), None)] == [
            (c.criterion, c.source, c.rounds, c.best_score) for c in got.unmet_criteria
        ]

    def test_nothing_recurring_says_so(self) -> None:
        got = self.replan(LoopRound(1, 70), LoopRound(2, 71))
        assert ((), ()) == (got.unmet_criteria, got.recurring_must_fix)
        assert "revise the plan" not in got.advice

    def test_a_task_criterion_a_later_round_fixed_is_not_never_met(self) -> None:
        # Break test: a criterion named by any one round was reported "never met", though
        # later rounds fixed it.
        got = self.replan(
            LoopRound(1, 40, must_fix=("the benchmark numbers are missing",)),
            LoopRound(2, 50, must_fix=("fix the title",)),
            LoopRound(3, 55, must_fix=("fix the title",)),
            criteria=("Includes benchmark numbers",),
        )
        assert () == got.unmet_criteria

    def test_a_round_that_passed_is_said_to_have_passed(self) -> None:
        # Break test: the advice said "No round passed" when round 2 passed (PASS 95) and
        # later rounds regressed (the demo's revise-force-deliver-rollback).
        got = self.replan(
            LoopRound(2, 95, verdict=Verdict.PASS),
            LoopRound(4, 73, must_fix=("the code does not parse",), verdict=Verdict.FAIL),
        )
        assert "No round passed" not in got.advice
        assert got.advice.startswith(
            "Round 2 passed (score 95); later round 4 regressed from it, and the score went back"
        )
        assert "round 2 is delivered" in got.advice
        assert "revise the plan" not in got.advice

    def test_no_round_passed_when_every_verdict_failed(self) -> None:
        got = self.replan(
            LoopRound(1, 40, verdict=Verdict.FAIL), LoopRound(2, 50, verdict=Verdict.FAIL)
        )
        assert got.advice.startswith("No round passed in 2 reviewed rounds")

    def test_items_quoting_different_evidence_are_different_items(self) -> None:
        # Break test: '<insert budget>' and '<insert supplier>' shared 4 of 6 words (0.67)
        # and were folded into one item.
        got = self.replan(
            LoopRound(1, 40, must_fix=("feasibility: unfilled placeholder '<insert budget>'",)),
            LoopRound(2, 50, must_fix=("feasibility: unfilled placeholder '<insert supplier>'",)),
        )
        assert () == got.recurring_must_fix
        same = self.replan(
            LoopRound(1, 40, must_fix=("feasibility: unfilled placeholder '<insert budget>'",)),
            LoopRound(2, 50, must_fix=("Feasibility: unfilled placeholder '<Insert budget>'",)),
        )
        assert [(1, 2)] == [f.rounds for f in same.recurring_must_fix]

    def test_one_reviewed_round_is_not_round_after_round(self) -> None:
        dims = (DimensionScore(name="completeness", score=30),)
        got = self.replan(LoopRound(1, 30, dims, verdict=Verdict.FAIL))
        assert got.unmet_criteria
        assert "round after round" not in got.advice
        assert "revise the plan" not in got.advice

    def test_a_non_answer_is_the_one_point_never_met(self) -> None:
        # Break test: a non-answer drops every dimension, and each was reported "never met"
        # with its requirement text.
        reason = "not an answer: the text is a refusal ('I cannot help with that.')"
        dims = tuple(
            DimensionScore(name=n, score=30, issues=(reason,))
            for n in ("completeness", "clarity", "correctness")
        )
        fixes = tuple(f"{d.name}: {reason}" for d in dims)
        got = self.replan(
            LoopRound(1, 30, dims, fixes, Verdict.FAIL),
            LoopRound(2, 30, dims, fixes, Verdict.FAIL),
        )
        assert [("an answer to the request", (1, 2), reason)] == [
            (c.criterion, c.rounds, c.requirement) for c in got.unmet_criteria
        ]
        assert [(reason, (1, 2))] == [(f.item, f.rounds) for f in got.recurring_must_fix]
        assert "Never met: an answer to the request (every round: not an answer" in got.advice

    def test_a_non_answer_round_says_nothing_of_the_dimensions(self) -> None:
        reason = "not an answer: cut off"
        refused = (DimensionScore(name="clarity", score=10, issues=(reason,)),)
        got = self.replan(
            LoopRound(1, 10, refused, (f"clarity: {reason}",), Verdict.FAIL),
            LoopRound(2, 50, (DimensionScore(name="clarity", score=70),), (), Verdict.FAIL),
        )
        assert () == got.unmet_criteria

    def test_the_non_answer_mark_is_the_rules_judges(self) -> None:
        from qgs_worker.core.models import ReviewRequest, TaskType

        review = rules_judge.RulesJudge().review(
            ReviewRequest(
                request="Write an article about AI",
                deliverable="I cannot help with that.",
                task_type=TaskType.GENERATE,
                dimensions=("completeness", "clarity"),
            )
        )
        rounds = [LoopRound(1, review.score, review.dimensions, review.must_fix, review.verdict)]
        assert rounds[0].non_answer.startswith("not an answer: ")

    def test_the_met_line_is_the_judges_pass_line(self) -> None:
        assert MET_FROM == openai_judge.PASS_SCORE_FROM == rules_judge.FAIL_BELOW


def submission(n: int, text: str) -> Submission:
    return Submission(
        submission_id=f"tx:{n}",
        task_id="tx",
        round_number=n,
        final=False,
        deliverable=Deliverable(text=text),
        task=NewTask(request="write an article about AI", criteria=("cites its sources",)),
    )


class MustFixJudge:
    """Scores from 'score=NN' in the deliverable; must_fix from 'fix=a|b'."""

    name = "scripted"

    def review(self, request):  # type: ignore[no-untyped-def]
        text = request.deliverable
        score = int(text.split("score=")[1][:2])
        fixes = tuple(text.split("fix=")[1].split("|")) if "fix=" in text else ()
        dims = dict.fromkeys(request.dimensions, score) | {"clarity": 80}
        return Review(
            verdict=Verdict.FAIL,
            score=score,
            dimensions=tuple(DimensionScore(name=n, score=s) for n, s in dims.items()),
            must_fix=fixes,
        )


def run_loop(repo: Repository, scores: list[int]) -> None:
    judge = MustFixJudge()
    for n, score in enumerate(scores, start=1):
        text = f"draft {n} score={score} fix=sources are not cited|round {n} typo"
        round_id = pipeline.intake(repo, submission(n, text), POLICIES)
        assert round_id is not None
        pipeline.critic(repo, judge, round_id)
        pipeline.decide(repo, round_id, POLICIES)


class TestThroughTheService:
    """The review service adds the earlier reviews; the store, the view and the report keep it."""

    def test_an_oscillating_loop_stored_and_read_back(self) -> None:
        repo = Repository("sqlite://")
        try:
            run_loop(repo, [40, 55, 42, 56])
            view = repo.decision_view("tx:4")
            assert view is not None and "force_deliver" == view.kind
            replan = view.replan
            assert replan is not None and TerminationReason.OSCILLATING == replan.termination
            assert [("sources are not cited", 4, (1, 2, 3, 4))] == [
                (f.item, f.count, f.rounds) for f in replan.recurring_must_fix
            ]
            unmet = [(c.criterion, c.source) for c in replan.unmet_criteria]
            assert ("clarity", "rubric") not in unmet  # 80 in every round: met
            assert {("completeness", "rubric"), ("cites its sources", "task")} <= set(unmet)
            # An earlier round's decision (revise) has none.
            earlier = repo.decision_view("tx:3")
            assert earlier is not None and ("revise", None) == (earlier.kind, earlier.replan)

            report = build_report(repo)
            (entry,) = report["tasks"]
            assert replan.model_dump(mode="json") == entry["decision"]["replan"]
            markdown = render_markdown(report)
            assert "## Back to the planner" in markdown
            assert "kept coming back (4 rounds: 1, 2, 3, 4): sources are not cited" in markdown
            console = Console(record=True, width=200)
            render_table(report, console)
            assert "back to the planner tx: oscillating" in console.export_text()
        finally:
            repo.dispose()


class TestWebhookBody:
    """The body has ``replan`` on a force_deliver only: every other body keeps its bytes."""

    def test_only_a_force_deliver_has_the_key(self) -> None:
        from datetime import UTC, datetime

        replan = replan_of(TerminationReason.CONVERGED, "flat", [(1, 50), (2, 51)], 2, 2)
        common = {
            "task_id": "t",
            "submission_id": "s",
            "round_number": 2,
            "score": 51,
            "must_fix": [],
            "reason": "r",
            "decided_at": datetime(2025, 1, 1, tzinfo=UTC),
        }
        forced = json.loads(
            webhook_body(decision="force_deliver", termination="converged", replan=replan, **common)  # type: ignore[arg-type]
        )
        revise = json.loads(webhook_body(decision="revise", termination=None, **common))  # type: ignore[arg-type]
        assert replan.model_dump(mode="json") == forced["replan"]
        assert "replan" not in revise


class TestOlderStore:
    """A store made before the column gets it on the next start; its decisions read as null."""

    def test_the_column_is_added_and_old_rows_read_null(self, tmp_path: Path) -> None:
        url = f"sqlite:///{tmp_path / 'qgs.db'}"
        repo = Repository(url)
        try:
            run_loop(repo, [40, 55, 42, 56])
        finally:
            repo.dispose()
        engine = create_engine(url)
        with engine.begin() as conn:
            conn.execute(text('ALTER TABLE "decision" DROP COLUMN "replan"'))
        assert "replan" not in {c["name"] for c in inspect(engine).get_columns("decision")}
        engine.dispose()

        repo = Repository(url)
        try:
            view = repo.decision_view("tx:4")
            assert view is not None and ("force_deliver", None) == (view.kind, view.replan)
            engine = create_engine(url)
            assert "replan" in {c["name"] for c in inspect(engine).get_columns("decision")}
            engine.dispose()
        finally:
            repo.dispose()


class TestStatusAndHtml:
    """`qgs status` says what goes back to the planner; the HTML drill-down carries it."""

    def test_status_and_drill_down(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        from typer.testing import CliRunner

        from qgs_worker.cli import app
        from qgs_worker.reports.report_html import drill_down

        url = f"sqlite:///{tmp_path / 'qgs.db'}"
        repo = Repository(url)
        try:
            run_loop(repo, [10, 20, 30, 40, 50])
            (entry,) = build_report(repo)["tasks"]
        finally:
            repo.dispose()
        monkeypatch.setenv("QGS_DATABASE_URL", url)
        monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / ".qgs"))
        monkeypatch.setenv("COLUMNS", "250")
        result = CliRunner().invoke(app, ["status", "tx"], catch_exceptions=False)
        out = " ".join(result.output.split())
        assert "back to the planner: No round passed in 5 reviewed rounds" in out
        assert "stopped: max_revisions_reached (4 revisions reached the cap of 4" in out
        assert "kept coming back (5 rounds: 1, 2, 3, 4, 5): sources are not cited" in out
        assert "never met: completeness (best 50, rounds 1, 2, 3, 4 and 5)" in out
        assert entry["decision"]["replan"] == drill_down(entry)["decision"]["replan"]


def test_rounds_are_singular_or_plural() -> None:
    # Break test: one round read "named in rounds 2".
    from qgs_worker.reports.report_replan import replan_lines, rounds_words

    assert ("round 2", "rounds 2 and 4", "rounds 1, 2 and 4") == (
        rounds_words([2]),
        rounds_words([2, 4]),
        rounds_words([1, 2, 4]),
    )
    replan = {
        "termination": "final_round",
        "rounds": [2, 4],
        "scores": [60, 61],
        "best_round": 4,
        "close_rounds": [2],
        "unmet_criteria": [
            {"criterion": "Cites sources", "source": "task", "rounds": [4]},
            {"criterion": "clarity", "source": "rubric", "rounds": [2], "best_score": 50},
        ],
    }
    lines = replan_lines(replan)
    assert "within the noise of it: round 2)" in lines[1]
    assert "never met (the task's criterion, named in round 4): Cites sources" in lines
    assert "never met: clarity (best 50, round 2)" in lines


def test_force_deliver_carries_the_delivered_rounds_must_fix(tmp_path: Path) -> None:
    # Break test: the decision delivering round 2 carried round 4's must_fix (the last one).
    repo = Repository(f"sqlite:///{tmp_path / 'qgs.db'}")
    try:
        run_loop(repo, [40, 55, 42, 54])  # up, down, up: oscillating; round 2 is the best
        (entry,) = build_report(repo)["tasks"]
    finally:
        repo.dispose()
    d = entry["decision"]
    assert ("force_deliver", 2) == (d["kind"], d["best_round"])
    assert ["sources are not cited", "round 2 typo"] == d["must_fix"]
