"""The judge panel: votes, medians, escalation, failed judges, and the length-bias check."""

from __future__ import annotations

import pytest

from qgs_worker.core.models import DimensionScore, Review, ReviewRequest, TaskType, Verdict
from qgs_worker.core.ports import Judge
from qgs_worker.errors import ConfigurationError, JudgeResponseError, JudgeUnavailableError
from qgs_worker.judges.panel import (
    PanelJudge,
    PanelMode,
    length_bias,
    majority_verdict,
)

P, S, F = Verdict.PASS, Verdict.PASS_WITH_SUGGESTIONS, Verdict.FAIL

REQUEST = ReviewRequest(
    task_type=TaskType.GENERATE,
    request="Write a release note",
    deliverable="Release 1.2 fixes the login bug.",
    dimensions=("completeness", "clarity"),
)


class FakeJudge:
    """A judge that answers one fixed review (or raises), and counts its calls."""

    def __init__(
        self,
        name: str,
        verdict: Verdict = P,
        score: int = 90,
        *,
        must_fix: tuple[str, ...] = (),
        issues: tuple[str, ...] = (),
        warnings: tuple[str, ...] = (),
        error: Exception | None = None,
    ) -> None:
        self._name = name
        self.calls = 0
        self.error = error
        self.answer = Review(
            verdict=verdict,
            score=score,
            dimensions=(
                DimensionScore(name="completeness", score=score, issues=issues),
                DimensionScore(name="clarity", score=min(100, score + 4)),
            ),
            must_fix=must_fix,
            summary=f"{name} says {verdict.value}",
            judge=name,
            warnings=warnings,
            latency_ms=10.0,
            prompt_tokens=100,
            completion_tokens=20,
        )

    @property
    def name(self) -> str:
        return self._name

    def review(self, request: ReviewRequest) -> Review:
        self.calls += 1
        if self.error is not None:
            raise self.error
        return self.answer


def panel(*judges: Judge, mode: PanelMode = "all", margin_points: int = 10) -> PanelJudge:
    return PanelJudge(judges, mode=mode, margin_points=margin_points)


class TestConstruction:
    """A panel needs two judges and sane settings; it is a Judge."""

    def test_is_a_judge(self) -> None:
        assert isinstance(panel(FakeJudge("a"), FakeJudge("b")), Judge)

    def test_name_lists_the_judges(self) -> None:
        judge = panel(FakeJudge("openai:gpt-4o-mini"), FakeJudge("openai:claude-x"))
        assert "panel(openai:gpt-4o-mini, openai:claude-x)" == judge.name

    @pytest.mark.parametrize("count", [0, 1])
    def test_fewer_than_two_judges_refused(self, count: int) -> None:
        with pytest.raises(ConfigurationError, match="at least 2 judges"):
            PanelJudge([FakeJudge(f"j{i}") for i in range(count)])

    @pytest.mark.parametrize(
        ("kwargs", "field"),
        [
            ({"mode": "vote"}, "mode"),
            ({"margin_points": -1}, "margin_points"),
            ({"pass_from": 101}, "pass_from"),
        ],
    )
    def test_bad_settings_refused(self, kwargs: dict[str, object], field: str) -> None:
        with pytest.raises(ConfigurationError, match=field):
            PanelJudge([FakeJudge("a"), FakeJudge("b")], **kwargs)  # type: ignore[arg-type]


class TestMajorityVerdict:
    """Most votes win; a tie goes to the more severe verdict."""

    @pytest.mark.parametrize(
        ("verdicts", "expected"),
        [
            ((P, P, F), (P, 2)),
            ((F, F, P), (F, 2)),
            ((P, F), (F, 1)),
            ((P, S), (S, 1)),
            ((S, F), (F, 1)),
            ((P, S, F), (F, 1)),
            ((P, P, S, S), (S, 2)),
            ((P,), (P, 1)),
        ],
    )
    def test_table(self, verdicts: tuple[Verdict, ...], expected: tuple[Verdict, int]) -> None:
        assert expected == majority_verdict(verdicts)

    def test_empty_refused(self) -> None:
        with pytest.raises(ValueError, match="at least one"):
            majority_verdict(())


class TestAllMode:
    """Every judge reviews; median score, majority verdict, unions, sums."""

    def test_majority_and_median(self) -> None:
        judges = (FakeJudge("a", P, 90), FakeJudge("b", F, 40), FakeJudge("c", P, 85))
        review = panel(*judges).review(REQUEST)
        assert P == review.verdict
        assert 85 == review.score
        assert [1, 1, 1] == [j.calls for j in judges]

    def test_even_median_rounds_half_up(self) -> None:
        review = panel(FakeJudge("a", P, 90), FakeJudge("b", P, 71)).review(REQUEST)
        assert 81 == review.score  # (90 + 71) / 2 = 80.5

    def test_tie_goes_to_the_more_severe_verdict(self) -> None:
        review = panel(FakeJudge("a", P, 75), FakeJudge("b", F, 55)).review(REQUEST)
        assert F == review.verdict

    def test_dimensions_median_and_issue_union(self) -> None:
        judges = (
            FakeJudge("a", P, 90, issues=("typo",)),
            FakeJudge("b", F, 40, issues=("missing date", "typo")),
            FakeJudge("c", P, 80),
        )
        review = panel(*judges).review(REQUEST)
        assert (
            DimensionScore(name="completeness", score=80, issues=("typo", "missing date")),
            DimensionScore(name="clarity", score=84),
        ) == review.dimensions

    def test_must_fix_union_deduplicated_in_order(self) -> None:
        judges = (
            FakeJudge("a", F, 40, must_fix=("add the date", "name the bug")),
            FakeJudge("b", F, 30, must_fix=("name the bug", "link the issue")),
        )
        review = panel(*judges).review(REQUEST)
        assert ("add the date", "name the bug", "link the issue") == review.must_fix

    def test_disagreement_warning_above_margin(self) -> None:
        judges = (FakeJudge("a", P, 90), FakeJudge("b", F, 40), FakeJudge("c", P, 85))
        review = panel(*judges).review(REQUEST)
        assert "panel disagreement: 50 points (scores 90, 40, 85)" in review.warnings

    def test_no_disagreement_warning_within_margin(self) -> None:
        review = panel(FakeJudge("a", P, 90), FakeJudge("b", P, 80)).review(REQUEST)
        assert not any("disagreement" in w for w in review.warnings)

    def test_summary_names_judges_and_votes(self) -> None:
        judges = (FakeJudge("a", P, 90), FakeJudge("b", F, 40), FakeJudge("c", P, 85))
        summary = panel(*judges).review(REQUEST).summary
        assert summary.startswith("panel verdict PASS (2 of 3 votes), median score 85")
        assert "- b: FAIL 40. b says FAIL" in summary

    def test_judge_usage_and_latency(self) -> None:
        judges = (FakeJudge("a"), FakeJudge("b"), FakeJudge("c"))
        review = panel(*judges).review(REQUEST)
        assert "panel(a, b, c)" == review.judge
        assert (300, 60) == (review.prompt_tokens, review.completion_tokens)
        assert review.latency_ms >= 30.0

    def test_judge_warnings_kept_with_their_judge(self) -> None:
        judges = (FakeJudge("a", warnings=("halo effect",)), FakeJudge("b"))
        assert "a: halo effect" in panel(*judges).review(REQUEST).warnings


class TestEscalateMode:
    """Ask one judge; more only while the outcome is in doubt."""

    def test_far_from_threshold_one_call(self) -> None:
        judges = (FakeJudge("a", P, 92), FakeJudge("b", F, 30), FakeJudge("c"))
        review = panel(*judges, mode="escalate").review(REQUEST)
        assert [1, 0, 0] == [j.calls for j in judges]
        assert (P, 92) == (review.verdict, review.score)
        assert not any(w.startswith("escalated") for w in review.warnings)

    def test_clear_fail_one_call(self) -> None:
        judges = (FakeJudge("a", F, 20), FakeJudge("b", P, 95))
        review = panel(*judges, mode="escalate").review(REQUEST)
        assert [1, 0] == [j.calls for j in judges]
        assert F == review.verdict

    def test_near_threshold_escalates_until_two_agree(self) -> None:
        judges = (FakeJudge("a", P, 65), FakeJudge("b", P, 80), FakeJudge("c", F, 10))
        review = panel(*judges, mode="escalate").review(REQUEST)
        assert [1, 1, 0] == [j.calls for j in judges]
        assert (P, 73) == (review.verdict, review.score)
        assert (
            "escalated to 2 judges: a scored 65, within 10 points of the pass mark 60"
            in review.warnings
        )

    def test_margin_is_inclusive(self) -> None:
        judges = (FakeJudge("a", P, 70), FakeJudge("b", P, 90))
        panel(*judges, mode="escalate").review(REQUEST)
        assert [1, 1] == [j.calls for j in judges]

    def test_disagreement_asks_the_third(self) -> None:
        judges = (FakeJudge("a", F, 55), FakeJudge("b", P, 90), FakeJudge("c", P, 85))
        review = panel(*judges, mode="escalate").review(REQUEST)
        assert [1, 1, 1] == [j.calls for j in judges]
        assert (P, 85) == (review.verdict, review.score)
        escalated = next(w for w in review.warnings if w.startswith("escalated"))
        assert escalated.startswith("escalated to 3 judges: a scored 55")
        assert "no two verdicts agree (a FAIL, b PASS)" in escalated

    def test_all_asked_without_agreement_is_the_severe_tie(self) -> None:
        judges = (FakeJudge("a", S, 62), FakeJudge("b", P, 90), FakeJudge("c", F, 30))
        review = panel(*judges, mode="escalate").review(REQUEST)
        assert [1, 1, 1] == [j.calls for j in judges]
        assert F == review.verdict

    def test_flagged_review_escalates(self) -> None:
        judges = (FakeJudge("a", P, 95, warnings=("halo effect",)), FakeJudge("b", P, 90))
        review = panel(*judges, mode="escalate").review(REQUEST)
        assert [1, 1] == [j.calls for j in judges]
        assert any("a flagged its review" in w for w in review.warnings)


class TestFailedJudges:
    """A failed judge is left out with a warning; when every judge fails, the panel raises."""

    @pytest.mark.parametrize("mode", ["all", "escalate"])
    def test_failed_judge_tolerated(self, mode: PanelMode) -> None:
        judges = (
            FakeJudge("a", error=JudgeUnavailableError("timed out")),
            FakeJudge("b", P, 90),
            FakeJudge("c", P, 88),
        )
        review = panel(*judges, mode=mode).review(REQUEST)
        assert (P, 89 if mode == "all" else 90) == (review.verdict, review.score)
        assert "panel judge a failed and was left out: timed out" in review.warnings
        assert "- a: failed" in review.summary

    def test_escalate_counts_the_failed_judge(self) -> None:
        judges = (FakeJudge("a", error=JudgeResponseError("bad json")), FakeJudge("b", P, 95))
        review = panel(*judges, mode="escalate").review(REQUEST)
        assert "escalated to 2 judges: a failed" in review.warnings

    @pytest.mark.parametrize("mode", ["all", "escalate"])
    def test_all_failed_transient_raises_unavailable(self, mode: PanelMode) -> None:
        judges = (
            FakeJudge("a", error=JudgeResponseError("bad json")),
            FakeJudge("b", error=JudgeUnavailableError("429", retry_after_s=7.0)),
        )
        with pytest.raises(JudgeUnavailableError, match="every judge of the panel failed") as info:
            panel(*judges, mode=mode).review(REQUEST)
        assert 7.0 == info.value.retry_after_s

    def test_all_failed_malformed_raises_response_error(self) -> None:
        judges = (
            FakeJudge("a", error=JudgeResponseError("bad json")),
            FakeJudge("b", error=JudgeResponseError("HTTP 401")),
        )
        with pytest.raises(JudgeResponseError, match=r"a: bad json; b: HTTP 401"):
            panel(*judges).review(REQUEST)

    def test_other_errors_propagate(self) -> None:
        judges = (FakeJudge("a", error=RuntimeError("bug")), FakeJudge("b"))
        with pytest.raises(RuntimeError, match="bug"):
            panel(*judges).review(REQUEST)


class TestLengthBias:
    """Pearson correlation of length and score; 0.0 when undefined."""

    def test_perfect_positive(self) -> None:
        assert 1.0 == pytest.approx(length_bias([(100, 50), (200, 60), (300, 70)]))

    def test_perfect_negative(self) -> None:
        assert -1.0 == pytest.approx(length_bias([(100, 90), (200, 80), (300, 70), (400, 60)]))

    def test_known_value(self) -> None:
        # statistics.correlation([1, 2, 3, 4], [2, 1, 4, 3]) == 0.6
        assert 0.6 == pytest.approx(length_bias([(1, 2), (2, 1), (3, 4), (4, 3)]))

    @pytest.mark.parametrize(
        "pairs",
        [
            [],
            [(100, 50)],
            [(100, 50), (200, 90)],
            [(100, 50), (100, 60), (100, 70)],
            [(1, 70), (2, 70), (3, 70)],
        ],
    )
    def test_undefined_is_zero(self, pairs: list[tuple[int, int]]) -> None:
        assert 0.0 == length_bias(pairs)
