"""Halo-effect and self-preference warnings on reviews."""

from __future__ import annotations

import pytest

from qgs_worker.core.models import DimensionScore, Review, Verdict
from qgs_worker.core.review_checks import annotate, halo_warning, model_family


def review(*scores: int, judge: str = "openai:gpt-4o-mini") -> Review:
    dims = tuple(DimensionScore(name=f"d{i}", score=s) for i, s in enumerate(scores))
    return Review(verdict=Verdict.PASS, score=max(scores, default=90), dimensions=dims, judge=judge)


class TestHalo:
    """All dimensions within 10 points -> a warning; a real spread -> none."""

    @pytest.mark.parametrize(
        ("scores", "warned"),
        [
            ((80, 85, 90), True),
            ((80, 85, 91), False),
            ((80, 87), False),  # two dimensions: too few to tell
            ((70,), False),
            ((100, 100, 100, 100), True),
        ],
    )
    def test_spread(self, scores: tuple[int, ...], warned: bool) -> None:
        assert warned == (halo_warning(review(*scores)) is not None)


class TestSelfPreference:
    """A judge of the agent's model family is flagged."""

    @pytest.mark.parametrize(
        ("model", "family"),
        [
            ("gpt-4.1", "gpt"),
            ("openai:gpt-4o-mini", "gpt"),
            ("claude-3-5-sonnet", "claude"),
            ("gemini-1.5-pro", "gemini"),
            ("rules judge", None),
            (None, None),
        ],
    )
    def test_family(self, model: str | None, family: str | None) -> None:
        assert family == model_family(model)

    def test_same_family_warns_once(self) -> None:
        once = annotate(review(50, 90), agent_model="gpt-4.1")
        twice = annotate(once, agent_model="gpt-4.1")
        assert 1 == len(twice.warnings) and "self-preference" in twice.warnings[0]

    def test_other_family_and_rules_judge_do_not_warn(self) -> None:
        assert () == annotate(review(50, 90), agent_model="claude-3-5-sonnet").warnings
        assert () == annotate(review(50, 90, judge="rules judge"), agent_model="gpt-4.1").warnings
