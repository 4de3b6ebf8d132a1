"""A judge call ends at its deadline, whatever the server does (issue 31, item 1).

httpx's timeouts bound each read: a judge endpoint that trickles a byte every half second kept
a call with a 2 s timeout open 20 s, past its review lease and the broker's visibility timeout,
and a second and third copy of the review called the judge while the first still waited. Here
the loopback judge trickles, and counts from its side how many requests of one round's review
are open at once.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from qgs_worker.client import Client
from qgs_worker.config.settings import (
    DiscriminatorSettings,
    JudgeSettings,
    Settings,
    WorkerSettings,
)
from qgs_worker.core.deadline import within
from qgs_worker.core.models import ReviewRequest, TaskType
from qgs_worker.errors import JudgeUnavailableError
from qgs_worker.judges import OpenAIJudge
from qgs_worker.judges.audit_session import OpenAIAuditSession
from tests.fake_openai import Answer, FakeOpenAIServer
from tests.integration.conftest import running_worker

pytestmark = [pytest.mark.integration]

SLACK_S = 0.5
"""What a call may take past its deadline on a loaded machine, in seconds."""
TRICKLE_S = 20.0
"""How long the endpoint keeps each answer trickling (a byte every 50 ms)."""


def _request() -> ReviewRequest:
    return ReviewRequest(
        request="write an article about AI",
        task_type=TaskType.GENERATE,
        dimensions=("completeness", "correctness"),
        deliverable="AI is software that learns from data.",
    )


def _ended(server: FakeOpenAIServer, timeout_s: float = 2.0) -> bool:
    """Whether the server saw every request end (its client closed the connection)."""
    deadline = time.monotonic() + timeout_s
    while server.in_flight and time.monotonic() < deadline:
        time.sleep(0.01)
    return server.in_flight == 0


class TestOneCall:
    """One call against a trickling endpoint returns at its deadline and closes its connection."""

    def test_the_call_ends_at_the_judge_timeout(self, fake_judge: FakeOpenAIServer) -> None:
        fake_judge.default = Answer.trickle(TRICKLE_S)
        judge = OpenAIJudge(base_url=fake_judge.base_url, api_key="k", timeout_s=1.0)
        started = time.monotonic()
        with pytest.raises(JudgeUnavailableError, match=r"timed out after 1\.0 s"):
            judge.review(_request())
        took_s = time.monotonic() - started
        assert took_s < 1.0 + SLACK_S
        assert _ended(fake_judge)
        assert 1 == len(fake_judge.requests)
        judge.endpoint.close()

    def test_an_enclosing_deadline_ends_it_sooner(self, fake_judge: FakeOpenAIServer) -> None:
        """The review attempt's lease (``within``) bounds a call whose own timeout is longer."""
        fake_judge.default = Answer.trickle(TRICKLE_S)
        judge = OpenAIJudge(base_url=fake_judge.base_url, api_key="k", timeout_s=10.0)
        started = time.monotonic()
        with within(0.8), pytest.raises(JudgeUnavailableError):
            judge.review(_request())
        assert time.monotonic() - started < 0.8 + SLACK_S
        assert _ended(fake_judge)

    def test_through_the_environment_s_proxy_too(
        self, fake_judge: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """HTTP_PROXY is kept (a client given a transport ignores it) and bounded the same."""
        for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
            monkeypatch.delenv(name, raising=False)
        proxy = fake_judge.base_url.rsplit("/v1", 1)[0]  # it answers absolute-form requests
        monkeypatch.setenv("HTTP_PROXY", proxy)
        monkeypatch.setenv("http_proxy", proxy)
        fake_judge.default = Answer.trickle(TRICKLE_S)
        judge = OpenAIJudge(base_url="http://judge.invalid/v1", api_key="k", timeout_s=1.0)
        started = time.monotonic()
        with pytest.raises(JudgeUnavailableError, match=r"timed out after 1\.0 s"):
            judge.review(_request())
        assert time.monotonic() - started < 1.0 + SLACK_S
        assert 1 == len(fake_judge.requests)  # it went through the proxy
        assert _ended(fake_judge)

    def test_no_call_is_sent_once_the_deadline_passed(self, fake_judge: FakeOpenAIServer) -> None:
        judge = OpenAIJudge(base_url=fake_judge.base_url, api_key="k", timeout_s=5.0)
        with within(0.0), pytest.raises(JudgeUnavailableError, match="deadline passed"):
            judge.review(_request())
        assert [] == fake_judge.requests

    def test_the_classifier_and_the_panel_too(self, fake_judge: FakeOpenAIServer) -> None:
        from qgs_worker.judges import PanelJudge
        from qgs_worker.judges.llm_classifier import LLMClassifier

        fake_judge.default = Answer.trickle(TRICKLE_S)
        classifier = LLMClassifier(base_url=fake_judge.base_url, api_key="k", timeout_s=0.8)
        started = time.monotonic()
        with pytest.raises(JudgeUnavailableError):
            classifier("do the thing with the stuff")
        assert time.monotonic() - started < 0.8 + SLACK_S
        panel = PanelJudge(
            [
                OpenAIJudge(base_url=fake_judge.base_url, api_key="k", model=m, timeout_s=0.8)
                for m in ("a", "b")
            ]
        )
        started = time.monotonic()
        with pytest.raises(JudgeUnavailableError):
            panel.review(_request())
        assert time.monotonic() - started < 2 * 0.8 + SLACK_S  # at most one call per judge
        assert _ended(fake_judge)
        assert all(1 == n for n in fake_judge.most_in_flight.values())

    def test_an_audit_session_ends_at_its_time_left(self, fake_judge: FakeOpenAIServer) -> None:
        from qgs_worker.core.models import AuditBrief

        fake_judge.audit_default = Answer.trickle(TRICKLE_S)
        judge = OpenAIJudge(base_url=fake_judge.base_url, api_key="k", timeout_s=30.0)
        session = OpenAIAuditSession(judge.endpoint)
        brief = AuditBrief(
            role="security_auditor",
            instructions="secrets in the output",
            request="deploy this service",
            material="Deployed; the key is in config.py",
        )
        started = time.monotonic()
        with pytest.raises(JudgeUnavailableError):
            session.audit(brief, timeout_s=0.8)
        assert time.monotonic() - started < 0.8 + SLACK_S
        assert _ended(fake_judge)


def test_at_most_one_call_per_round_in_flight(
    redis_url: str, fake_judge: FakeOpenAIServer, tmp_path: Path
) -> None:
    """Short limits, a judge that never finishes in time: one call at a time, 1 + retries in all.

    The review lease (3 x 1 s + 2 s) is shorter than the visibility timeout (12 s); a call that
    outlived both (as a trickled one did) let Redis and the sweeper start more copies of the
    review, each calling the judge while the first still waited.
    """
    retries = 2
    fake_judge.default = Answer.trickle(TRICKLE_S)
    settings = Settings(
        data_dir=tmp_path / ".qgs",
        broker_url=redis_url,
        database_url=f"sqlite:///{tmp_path / 'qgs.db'}",
        judge=JudgeSettings(
            kind="openai", base_url=fake_judge.base_url, api_key="k", timeout_s=1.0
        ),
        worker=WorkerSettings(
            judge_max_retries=retries,
            retry_backoff_max_s=1.0,
            soft_time_limit_s=2.0,
            time_limit_s=3.0,
            visibility_timeout_s=12.0,
            restore_interval_s=1.0,
            sweep_interval_s=1.0,
        ),
        discriminator=DiscriminatorSettings(roles=("security_auditor",)),
    )
    client = Client(settings)
    try:
        with running_worker(settings):
            task = client.start_task("write an article about AI")
            sub = client.submit(task.id, "AI is software that learns from data.", final=True)
            decision = client.wait(sub.id, timeout_s=60)
        assert _ended(fake_judge)
        most = fake_judge.most_in_flight
        reviews = [key for key in most if key.startswith("review:")]
        assert 1 == len(reviews), most
        assert 1 == most[reviews[0]], most
        assert len(fake_judge.requests) <= 1 + retries
        for _, seconds in fake_judge.durations:
            assert seconds < 1.0 + SLACK_S
        assert "pass" != decision.kind  # the judge never answered in time: never a silent PASS
    finally:
        client.repo.dispose()
