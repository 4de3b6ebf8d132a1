"""Tests of the gate: termination rules, best round, and the decision table."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qgs_worker.core.gate import (
    best_round,
    decide_gate,
    escalation,
    needs_approval,
    rejection_reason,
    should_terminate,
)
from qgs_worker.core.models import (
    Complexity,
    Decision,
    DecisionKind,
    DimensionScore,
    Finding,
    GatePolicy,
    Review,
    Severity,
    TaskHistory,
    TaskType,
    TerminationReason,
    Verdict,
    risk_of,
)
from qgs_worker.errors import InputError

DEFAULT = GatePolicy()
LONG = GatePolicy(max_revisions=10)  # a cap far away, so the other rules show alone
NAMED = {
    TerminationReason.MAX_REVISIONS_REACHED,
    TerminationReason.OSCILLATING,
    TerminationReason.CONVERGED,
    TerminationReason.DIMINISHING_RETURNS,
}


def finding(severity: Severity, title: str = "") -> Finding:
    return Finding(
        role="security_auditor",
        category="test",
        severity=severity,
        title=title or f"{severity.value} issue",
    )


def review(verdict: Verdict, score: int, **kwargs: object) -> Review:
    return Review(verdict=verdict, score=score, **kwargs)


class TestShouldTerminate:
    """Each rule, in order, with the reference thresholds."""

    @pytest.mark.parametrize(
        ("scores", "policy", "expected"),
        [
            ([], DEFAULT, None),
            ([60], DEFAULT, None),
            ([60, 70], DEFAULT, None),
            ([50, 60, 70], DEFAULT, None),
            ([50, 60, 70, 75], DEFAULT, None),  # 3 revisions, gains of 5+ below the high range
            ([50, 60, 70, 78, 79], DEFAULT, TerminationReason.MAX_REVISIONS_REACHED),
            ([60, 70, 65, 75], DEFAULT, TerminationReason.OSCILLATING),
            ([60, 70, 65, 75], LONG, TerminationReason.OSCILLATING),
            ([70, 60, 70, 60], LONG, TerminationReason.OSCILLATING),
            ([60, 70, 68, 75], LONG, None),  # the down move (2) is within noise
            ([60, 70, 67, 75], LONG, TerminationReason.OSCILLATING),
            ([60, 62, 64], DEFAULT, TerminationReason.CONVERGED),
            ([60, 70, 66, 62], LONG, TerminationReason.CONVERGED),
            ([60, 65, 70], DEFAULT, None),  # changes of exactly 5 are not under 5
            ([60, 70, 72], DEFAULT, None),
            ([80, 82], DEFAULT, TerminationReason.DIMINISHING_RETURNS),
            ([85, 80], DEFAULT, TerminationReason.DIMINISHING_RETURNS),
            ([78, 85], DEFAULT, None),
            ([77, 79], DEFAULT, None),  # below the high range
            ([80, 83], DEFAULT, None),  # a gain of exactly 3 is not under 3
        ],
    )
    def test_rule(
        self, scores: list[int], policy: GatePolicy, expected: TerminationReason | None
    ) -> None:
        got = should_terminate(scores, policy)
        assert expected == (got.reason if got else None)

    def test_detail_has_the_numbers(self) -> None:
        got = should_terminate([60, 62, 64], DEFAULT)
        assert got is not None
        assert "60, 62, 64" in got.detail
        assert "5 points" in got.detail

    @pytest.mark.parametrize("bad", [-1, 101])
    def test_score_out_of_range(self, bad: int) -> None:
        with pytest.raises(InputError, match="'scores'"):
            should_terminate([50, bad], DEFAULT)


class TestShouldTerminateProperties:
    """Properties that hold for any scores."""

    @given(
        start=st.integers(0, 60),
        gains=st.lists(st.integers(5, 20), max_size=8),
        max_revisions=st.integers(1, 10),
    )
    def test_never_stops_on_steady_gains_below_high(
        self, start: int, gains: list[int], max_revisions: int
    ) -> None:
        scores = [start]
        for gain in gains:
            scores.append(scores[-1] + gain)
        policy = GatePolicy(max_revisions=max_revisions)
        if scores[-1] >= policy.high_score or len(scores) - 1 >= max_revisions:
            return
        assert should_terminate(scores, policy) is None

    @given(
        scores=st.lists(st.integers(0, 100), min_size=1, max_size=12),
        max_revisions=st.integers(1, 12),
    )
    def test_always_stops_at_max(self, scores: list[int], max_revisions: int) -> None:
        got = should_terminate(scores, GatePolicy(max_revisions=max_revisions))
        if len(scores) - 1 >= max_revisions:
            assert got is not None
            expected = TerminationReason.MAX_REVISIONS_REACHED
            assert expected == got.reason

    @given(scores=st.lists(st.integers(0, 100), max_size=12), max_revisions=st.integers(1, 12))
    def test_reason_is_named(self, scores: list[int], max_revisions: int) -> None:
        got = should_terminate(scores, GatePolicy(max_revisions=max_revisions))
        assert got is None or (got.reason in NAMED and got.detail)


class TestBestRound:
    """The highest score wins, the earliest round on ties."""

    @pytest.mark.parametrize(
        ("history", "expected"),
        [
            ([], None),
            ([(1, 50)], 1),
            ([(1, 50), (2, 70), (3, 60)], 2),
            ([(1, 50), (2, 70), (3, 70)], 2),
            ([(4, 70), (2, 70), (3, 10)], 2),
        ],
    )
    def test_best(self, history: list[tuple[int, int]], expected: int | None) -> None:
        assert expected == best_round(history)


class TestBlock:
    """A P0 finding blocks the round whatever the score or verdict."""

    @pytest.mark.parametrize("rev", [None, review(Verdict.PASS, 100), review(Verdict.FAIL, 10)])
    def test_p0_blocks(self, rev: Review | None) -> None:
        got = decide_gate(
            rev,
            round_number=1,
            complexity=Complexity.SIMPLE,
            final=True,
            history=TaskHistory(scores=[]),
            findings=[finding(Severity.P0, "rm -rf /"), finding(Severity.P3)],
            policy=DEFAULT,
            judge_error="timeout",
        )
        expected = (DecisionKind.BLOCK, ("rm -rf /",), 110)
        assert expected == (got.kind, got.must_fix, got.risk)


class TestJudgeError:
    """A judge failure is a revise, never a pass (fail-closed)."""

    def test_revise(self) -> None:
        got = decide_gate(
            None,
            round_number=2,
            complexity=Complexity.COMPLEX,
            final=True,
            history=TaskHistory(scores=[]),
            findings=[finding(Severity.P1, "no tests")],
            policy=DEFAULT,
            judge_error="HTTP 503",
        )
        expected = (DecisionKind.REVISE, ("no tests",))
        assert expected == (got.kind, got.must_fix)
        assert "judge failed" in got.reason
        assert "HTTP 503" in got.reason


class TestNoReview:
    """Rounds without a review: simple pass, P1 revise, otherwise continue."""

    def test_simple_passes(self) -> None:
        got = decide_gate(
            None,
            round_number=1,
            complexity=Complexity.SIMPLE,
            final=False,
            history=TaskHistory(scores=[]),
            findings=[],
            policy=DEFAULT,
        )
        expected = (DecisionKind.PASS, "simple task: no LLM review")
        assert expected == (got.kind, got.reason)

    def test_p1_revises(self) -> None:
        got = decide_gate(
            None,
            round_number=1,
            complexity=Complexity.COMPLEX,
            final=False,
            history=TaskHistory(scores=[]),
            findings=[finding(Severity.P1, "login missing"), finding(Severity.P2)],
            policy=DEFAULT,
        )
        expected = (DecisionKind.REVISE, ("login missing",), 70)
        assert expected == (got.kind, got.must_fix, got.risk)

    def test_continue(self) -> None:
        got = decide_gate(
            None,
            round_number=1,
            complexity=Complexity.REFLECT,
            final=False,
            history=TaskHistory(scores=[]),
            findings=[finding(Severity.P4)],
            policy=DEFAULT,
        )
        expected = (DecisionKind.CONTINUE, "no review due this round", 5)
        assert expected == (
            got.kind,
            got.reason,
            got.risk,
        )


class TestPassing:
    """PASS and PASS_WITH_SUGGESTIONS; REFLECT tasks wait for a person."""

    @pytest.mark.parametrize(
        ("complexity", "expected"),
        [
            (Complexity.COMPLEX, DecisionKind.PASS),
            (Complexity.REFLECT, DecisionKind.AWAITING_APPROVAL),
        ],
    )
    def test_pass(self, complexity: Complexity, expected: DecisionKind) -> None:
        got = decide_gate(
            review(Verdict.PASS, 90),
            round_number=2,
            complexity=complexity,
            final=False,
            history=TaskHistory(scores=[]),
            findings=[],
            policy=DEFAULT,
        )
        assert expected == got.kind

    @pytest.mark.parametrize(
        ("complexity", "expected"),
        [
            (Complexity.COMPLEX, DecisionKind.PASS_WITH_SUGGESTIONS),
            (Complexity.REFLECT, DecisionKind.AWAITING_APPROVAL),
        ],
    )
    def test_suggestions(self, complexity: Complexity, expected: DecisionKind) -> None:
        dims = (
            DimensionScore(name="clarity", score=80, issues=("shorter intro", "add headings")),
            DimensionScore(name="completeness", score=85, issues=("add headings",)),
        )
        got = decide_gate(
            review(Verdict.PASS_WITH_SUGGESTIONS, 84, dimensions=dims),
            round_number=2,
            complexity=complexity,
            final=False,
            history=TaskHistory(scores=[]),
            findings=[],
            policy=DEFAULT,
        )
        assert (expected, ("shorter intro", "add headings")) == (got.kind, got.suggestions)


class TestFail:
    """FAIL revises while the loop may go on, else force-delivers the best round."""

    def test_revise(self) -> None:
        got = decide_gate(
            review(Verdict.FAIL, 55, must_fix=("handle errors",)),
            round_number=2,
            complexity=Complexity.COMPLEX,
            final=False,
            history=TaskHistory(scores=[]),
            findings=[finding(Severity.P1, "no retry")],
            policy=DEFAULT,
        )
        expected = (DecisionKind.REVISE, ("handle errors", "no retry"))
        assert expected == (got.kind, got.must_fix)
        assert got.termination is None

    def test_final_round_force_delivers(self) -> None:
        got = decide_gate(
            review(Verdict.FAIL, 60, must_fix=("cite sources",)),
            round_number=4,
            complexity=Complexity.COMPLEX,
            final=True,
            history=TaskHistory(scores=[(2, 65)]),
            findings=[],
            policy=DEFAULT,
        )
        expected = (DecisionKind.FORCE_DELIVER, TerminationReason.FINAL_ROUND, 2, ("cite sources",))
        assert expected == (got.kind, got.termination, got.best_round, got.must_fix)

    def test_cap_force_delivers_best(self) -> None:
        got = decide_gate(
            review(Verdict.FAIL, 62),
            round_number=10,
            complexity=Complexity.COMPLEX,
            final=False,
            history=TaskHistory(scores=[(2, 50), (4, 70), (6, 40), (8, 55)]),
            findings=[],
            policy=DEFAULT,
        )
        expected = (DecisionKind.FORCE_DELIVER, TerminationReason.MAX_REVISIONS_REACHED, 4)
        assert expected == (
            got.kind,
            got.termination,
            got.best_round,
        )
        assert "round 4 (score 70)" in got.reason

    def test_this_round_can_be_best(self) -> None:
        got = decide_gate(
            review(Verdict.FAIL, 64),
            round_number=6,
            complexity=Complexity.COMPLEX,
            final=False,
            history=TaskHistory(scores=[(2, 60), (4, 62)]),
            findings=[],
            policy=DEFAULT,
        )
        expected = (TerminationReason.CONVERGED, 6)
        assert expected == (got.termination, got.best_round)

    def test_reflect_force_deliver_still_needs_a_person(self) -> None:
        got = decide_gate(
            review(Verdict.FAIL, 40),
            round_number=1,
            complexity=Complexity.REFLECT,
            final=True,
            history=TaskHistory(scores=[]),
            findings=[],
            policy=DEFAULT,
        )
        expected = DecisionKind.FORCE_DELIVER
        assert expected == got.kind
        assert "a person must still confirm" in got.reason


class TestInput:
    """Bad round numbers and scores are InputErrors naming the field."""

    def test_round_number(self) -> None:
        with pytest.raises(InputError, match="'round_number'"):
            decide_gate(
                None,
                round_number=0,
                complexity=Complexity.COMPLEX,
                final=False,
                history=TaskHistory(scores=[]),
                findings=[],
                policy=DEFAULT,
            )

    def test_history_score(self) -> None:
        with pytest.raises(InputError, match="'history'"):
            decide_gate(
                review(Verdict.FAIL, 50),
                round_number=3,
                complexity=Complexity.COMPLEX,
                final=False,
                history=TaskHistory(scores=[(1, 120)]),
                findings=[],
                policy=DEFAULT,
            )


findings_st = st.lists(
    st.builds(
        Finding,
        role=st.just("r"),
        category=st.just("c"),
        severity=st.sampled_from(list(Severity)),
        title=st.text(max_size=10),
    ),
    max_size=5,
)
history_st = st.lists(st.tuples(st.integers(1, 30), st.integers(0, 100)), max_size=6)
decision_kwargs = {
    "round_number": st.integers(1, 40),
    "complexity": st.sampled_from(list(Complexity)),
    "final": st.booleans(),
    "history": history_st,
    "findings": findings_st,
    "max_revisions": st.integers(1, 8),
    "judge_error": st.none() | st.just("timeout"),
}
PASSING = {
    DecisionKind.PASS,
    DecisionKind.PASS_WITH_SUGGESTIONS,
    DecisionKind.AWAITING_APPROVAL,
}


class TestDecideGateProperties:
    """Fail-closed properties of the decision table."""

    @given(score=st.integers(0, 100), **decision_kwargs)
    def test_fail_never_passes(
        self,
        score: int,
        round_number: int,
        complexity: Complexity,
        final: bool,
        history: list[tuple[int, int]],
        findings: list[Finding],
        max_revisions: int,
        judge_error: str | None,
    ) -> None:
        got = decide_gate(
            review(Verdict.FAIL, score),
            round_number=round_number,
            complexity=complexity,
            final=final,
            history=TaskHistory(scores=history),
            findings=findings,
            policy=GatePolicy(max_revisions=max_revisions),
            judge_error=judge_error,
        )
        assert got.kind not in PASSING
        assert risk_of(findings) == got.risk

    @given(
        verdict=st.sampled_from(list(Verdict)),
        score=st.integers(0, 100),
        reviewed=st.booleans(),
        **decision_kwargs,
    )
    def test_p0_always_blocks_and_judge_error_never_passes(
        self,
        verdict: Verdict,
        score: int,
        reviewed: bool,
        round_number: int,
        complexity: Complexity,
        final: bool,
        history: list[tuple[int, int]],
        findings: list[Finding],
        max_revisions: int,
        judge_error: str | None,
    ) -> None:
        got = decide_gate(
            review(verdict, score) if reviewed else None,
            round_number=round_number,
            complexity=complexity,
            final=final,
            history=TaskHistory(scores=history),
            findings=findings,
            policy=GatePolicy(max_revisions=max_revisions),
            judge_error=judge_error,
        )
        if any(f.severity is Severity.P0 for f in findings):
            expected = DecisionKind.BLOCK
            assert expected == got.kind
        elif judge_error is not None:
            expected = DecisionKind.REVISE
            assert expected == got.kind
        assert risk_of(findings) == got.risk


class TestFailOpen:
    """A judge failure holds the round, except for the fail-open task types, and says so."""

    @pytest.mark.parametrize(
        ("task_type", "complexity", "expected"),
        [
            (TaskType.QUERY, Complexity.COMPLEX, DecisionKind.PASS_WITH_SUGGESTIONS),
            (TaskType.ACTION, Complexity.COMPLEX, DecisionKind.REVISE),
            (TaskType.CRITICAL, Complexity.REFLECT, DecisionKind.REVISE),
            (None, Complexity.COMPLEX, DecisionKind.REVISE),
        ],
    )
    def test_by_task_type(
        self, task_type: TaskType | None, complexity: Complexity, expected: DecisionKind
    ) -> None:
        got = decide_gate(
            None,
            round_number=1,
            complexity=complexity,
            final=True,
            history=TaskHistory(scores=[]),
            findings=[],
            policy=DEFAULT,
            judge_error="timeout",
            task_type=task_type,
        )
        assert expected == got.kind
        assert "judge failed" in got.reason
        if expected is DecisionKind.PASS_WITH_SUGGESTIONS:
            assert got.reason.startswith("fail-open") and got.suggestions

    def test_fail_open_is_configurable(self) -> None:
        policy = GatePolicy(fail_open_types=(TaskType.GENERATE,))
        got = decide_gate(
            None,
            round_number=1,
            complexity=Complexity.COMPLEX,
            final=True,
            history=TaskHistory(scores=[]),
            findings=[],
            policy=policy,
            judge_error="timeout",
            task_type=TaskType.QUERY,
        )
        assert DecisionKind.REVISE == got.kind


class TestTaskHistory:
    """The gate weighs the task's earlier rounds: their P0 findings and a person's rejection."""

    def decide(self, history: TaskHistory, *findings: Finding) -> Decision:
        return decide_gate(
            review(Verdict.PASS, 95),
            round_number=3,
            complexity=Complexity.COMPLEX,
            final=False,
            history=history,
            findings=list(findings),
            policy=GatePolicy(),
        )

    def test_an_earlier_p0_blocks_a_passing_round_and_counts_in_its_risk(self) -> None:
        earlier = finding(Severity.P0, "rm -rf / in round 1").model_copy(
            update={"location": "round 1: tool_call:shell.command"}
        )
        got = self.decide(TaskHistory(scores=((1, 40),), p0_findings=(earlier,)))
        assert DecisionKind.BLOCK is got.kind
        assert ("rm -rf / in round 1",) == got.must_fix
        assert 100 == got.risk

    def test_a_rejection_blocks_whatever_the_score_naming_who_and_why(self) -> None:
        reason = rejection_reason("alice", 1, "wrong account")
        got = self.decide(TaskHistory(rejection=reason), finding(Severity.P2, "minor"))
        assert DecisionKind.BLOCK is got.kind
        assert "alice rejected round 1 of this task: wrong account" in got.reason
        assert (20, ()) == (got.risk, got.must_fix)

    def test_an_empty_history_changes_nothing(self) -> None:
        assert DecisionKind.PASS is self.decide(TaskHistory()).kind


@pytest.mark.parametrize(
    ("kind", "complexity", "waits"),
    [
        ("awaiting_approval", "COMPLEX", True),
        ("force_deliver", "REFLECT", True),
        ("force_deliver", "COMPLEX", False),
        ("pass", "REFLECT", False),
        (DecisionKind.AWAITING_APPROVAL, Complexity.REFLECT, True),
    ],
)
def test_which_decisions_wait_for_a_person(kind: str, complexity: str, waits: bool) -> None:
    assert waits is needs_approval(kind, complexity)


class TestEscalation:
    """A serious finding or a critical deed makes the round CRITICAL, with the reason stored."""

    def test_the_worst_finding_is_named_and_the_task_escalated_to_reflect(self) -> None:
        findings = [finding(Severity.P1, "secret in output"), finding(Severity.P0, "rm -rf /")]
        reason, escalated = escalation(TaskType.QUERY, findings, 2)
        assert reason.startswith("round 2: P0 test at text: rm -rf /")
        assert escalated is not None
        assert (TaskType.CRITICAL, Complexity.REFLECT, "escalation", reason) == (
            escalated.task_type,
            escalated.complexity,
            escalated.source,
            escalated.reason,
        )

    def test_a_deed_escalates_a_non_critical_task(self) -> None:
        reason, escalated = escalation(TaskType.ACTION, [], 1, "round 1 deletes file 13")
        assert "round 1 deletes file 13" == reason
        assert escalated is not None and TaskType.CRITICAL is escalated.task_type

    def test_a_critical_task_keeps_its_classification_but_gets_the_reason(self) -> None:
        assert ("round 1: P1 test at text: x", None) == escalation(
            TaskType.CRITICAL, [finding(Severity.P1, "x")], 1, "a deed"
        )
        assert ("", None) == escalation(TaskType.CRITICAL, [], 1, "a deed")

    def test_minor_findings_change_nothing(self) -> None:
        assert ("", None) == escalation(TaskType.GENERATE, [finding(Severity.P2)], 1)
