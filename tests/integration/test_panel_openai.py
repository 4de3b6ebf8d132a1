"""The judge panel over real OpenAI judges on two loopback OpenAI-compatible servers.

Server one hosts the models ``judge-a`` and ``judge-c`` (its answer depends on the model asked),
server two hosts ``judge-b``. The judges disagree: PASS 90, FAIL 40, PASS 85.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from qgs_worker.core.models import ReviewRequest, TaskType, Verdict
from qgs_worker.errors import JudgeUnavailableError
from qgs_worker.judges import OpenAIJudge
from qgs_worker.judges.panel import PanelJudge
from tests.fake_openai import Answer, FakeOpenAIServer, requested_dimensions

pytestmark = pytest.mark.integration

REQUEST = ReviewRequest(
    task_type=TaskType.GENERATE,
    request="Write a release note for 1.2",
    deliverable="Release 1.2 fixes the login bug.",
    dimensions=("completeness", "correctness", "clarity", "feasibility"),
)


def review_answer(verdict: str, score: int, must_fix: tuple[str, ...] = ()) -> Answer:
    def answer(request: dict[str, Any]) -> Answer:
        names = requested_dimensions(request)
        return Answer.review(verdict, score, dict.fromkeys(names, score), must_fix=must_fix)

    return Answer.dynamic(answer)


PASS_90 = review_answer("PASS", 90)
FAIL_40 = review_answer("FAIL", 40, must_fix=("name the bug that was fixed",))
PASS_85 = review_answer("PASS", 85)
PASS_65 = review_answer("PASS", 65)


def by_model(answers: dict[str, Answer]) -> Answer:
    """One server, several models: the answer of the model the request names."""
    return Answer.dynamic(lambda request: answers[request["model"]])


@pytest.fixture
def server_one() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


@pytest.fixture
def server_two() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


@pytest.fixture
def judges(
    server_one: FakeOpenAIServer, server_two: FakeOpenAIServer
) -> Iterator[tuple[OpenAIJudge, OpenAIJudge, OpenAIJudge]]:
    a = OpenAIJudge(base_url=server_one.base_url, api_key="k", model="judge-a", timeout_s=5.0)
    b = OpenAIJudge(base_url=server_two.base_url, api_key="k", model="judge-b", timeout_s=5.0)
    c = OpenAIJudge(base_url=server_one.base_url, api_key="k", model="judge-c", timeout_s=5.0)
    with a, b, c:
        yield a, b, c


def models_asked(*servers: FakeOpenAIServer) -> list[str]:
    return [r["model"] for s in servers for r in s.requests]


class TestAllMode:
    """Three judges disagree; the panel gives the majority verdict and the median score."""

    def test_majority_and_median(
        self,
        server_one: FakeOpenAIServer,
        server_two: FakeOpenAIServer,
        judges: tuple[OpenAIJudge, OpenAIJudge, OpenAIJudge],
    ) -> None:
        server_one.default = by_model({"judge-a": PASS_90, "judge-c": PASS_85})
        server_two.default = FAIL_40

        review = PanelJudge(judges, mode="all").review(REQUEST)

        assert Verdict.PASS == review.verdict
        assert 85 == review.score
        assert "panel(openai:judge-a, openai:judge-b, openai:judge-c)" == review.judge
        assert ("name the bug that was fixed",) == review.must_fix
        assert "panel disagreement: 50 points (scores 90, 40, 85)" in review.warnings
        assert review.summary.startswith("panel verdict PASS (2 of 3 votes), median score 85")
        assert [85] * 4 == [d.score for d in review.dimensions]
        assert ["judge-a", "judge-c", "judge-b"] == models_asked(server_one, server_two)
        assert review.prompt_tokens > 0
        assert review.completion_tokens > 0

    def test_failed_server_left_out(
        self,
        server_one: FakeOpenAIServer,
        server_two: FakeOpenAIServer,
        judges: tuple[OpenAIJudge, OpenAIJudge, OpenAIJudge],
    ) -> None:
        server_one.default = by_model({"judge-a": PASS_90, "judge-c": PASS_85})
        server_two.default = Answer.status(503)

        review = PanelJudge(judges, mode="all").review(REQUEST)

        assert (Verdict.PASS, 88) == (review.verdict, review.score)  # median of 90 and 85
        assert any(w.startswith("panel judge openai:judge-b failed") for w in review.warnings)

    def test_every_server_down_raises(
        self,
        server_one: FakeOpenAIServer,
        server_two: FakeOpenAIServer,
        judges: tuple[OpenAIJudge, OpenAIJudge, OpenAIJudge],
    ) -> None:
        server_one.default = Answer.status(500)
        server_two.default = Answer.status(502)

        with pytest.raises(JudgeUnavailableError, match="every judge of the panel failed"):
            PanelJudge(judges, mode="all").review(REQUEST)


class TestEscalateMode:
    """One call when the first judge is clear; more when it is near the pass mark."""

    def test_clear_first_review_costs_one_call(
        self,
        server_one: FakeOpenAIServer,
        server_two: FakeOpenAIServer,
        judges: tuple[OpenAIJudge, OpenAIJudge, OpenAIJudge],
    ) -> None:
        server_one.default = by_model({"judge-a": PASS_90, "judge-c": PASS_85})
        server_two.default = FAIL_40

        review = PanelJudge(judges).review(REQUEST)

        assert (Verdict.PASS, 90) == (review.verdict, review.score)
        assert ["judge-a"] == models_asked(server_one, server_two)

    def test_near_pass_mark_escalates_to_the_majority(
        self,
        server_one: FakeOpenAIServer,
        server_two: FakeOpenAIServer,
        judges: tuple[OpenAIJudge, OpenAIJudge, OpenAIJudge],
    ) -> None:
        server_one.default = by_model({"judge-a": PASS_65, "judge-c": PASS_85})
        server_two.default = FAIL_40

        review = PanelJudge(judges).review(REQUEST)

        assert (Verdict.PASS, 65) == (review.verdict, review.score)  # median of 65, 40, 85
        assert ["judge-a", "judge-c", "judge-b"] == models_asked(server_one, server_two)
        escalated = [w for w in review.warnings if w.startswith("escalated to 3 judges")]
        assert 1 == len(escalated)
        assert "openai:judge-a scored 65" in escalated[0]
