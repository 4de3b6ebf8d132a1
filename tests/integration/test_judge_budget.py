"""One judge budget: every call to the judge's endpoint passes the shared rate limit.

Issue 11, item 5: two workers at ``QGS_JUDGE__REQUESTS_PER_MINUTE=20`` sent the endpoint 75
calls in one minute, because repair requests and audit passes were not counted. Here two
"workers" (threads, each with its own judge, as two processes would have) review rounds whose
every first answer needs a repair, on a limit of the broker's Redis with a short window; the
loopback endpoint counts the calls it receives in every window.
"""

from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path

import pytest
import redis

from qgs_worker.config.settings import JudgeSettings, Settings
from qgs_worker.core.models import ReviewRequest, TaskType
from qgs_worker.errors import JudgeUnavailableError
from qgs_worker.judges import OpenAIJudge, PanelJudge
from qgs_worker.limits.ratelimit import JudgeRateLimit, RedisRateLimiter
from qgs_worker.queue.celery_app import create_celery_app
from tests.fake_openai import Answer, FakeOpenAIServer, message_texts, requested_dimensions
from tests.integration.conftest import REDIS_DB, REDIS_HOST, REDIS_PORT

pytestmark = [pytest.mark.integration]

LIMIT = 4
"""Judge calls allowed in one window."""
WINDOW_S = 2.0
REVIEWS_PER_WORKER = 4
"""Each review is two calls (the first answer is invalid, the repair is valid): 16 in all."""


def _repair_needed(times: list[float], lock: threading.Lock) -> Answer:
    """Answer an invalid review first and a valid one to the repair; note each call's time."""

    def answer(request: dict[str, object]) -> Answer:
        with lock:
            times.append(time.monotonic())
        if any("not a valid review" in t for t in message_texts(request)):
            names = requested_dimensions(request)
            return Answer.review("PASS", 90, dict.fromkeys(names, 90))
        return Answer.content("Looks fine to me!")  # no JSON: a repair request follows

    return Answer.dynamic(answer)


def _most_in_a_window(times: list[float], window_s: float) -> int:
    ordered = sorted(times)
    return max(
        (sum(1 for t in ordered[i:] if t < start + window_s) for i, start in enumerate(ordered)),
        default=0,
    )


def _request(i: int) -> ReviewRequest:
    return ReviewRequest(
        task_type=TaskType.QUERY,
        request=f"what time is it in city {i}?",
        dimensions=("accuracy", "relevance"),
        deliverable=f"It is {i} o'clock.",
    )


def _worker(judge: OpenAIJudge, limit: JudgeRateLimit, offset: int, errors: list[str]) -> None:
    """What a critic job does: ``admit`` first (a refusal waits, as the job's retry would)."""
    for i in range(REVIEWS_PER_WORKER):
        while (wait_s := limit.admit(100)) > 0:
            time.sleep(wait_s)
        try:
            judge.review(_request(offset + i))
        except JudgeUnavailableError as exc:  # held too long: the job would retry
            errors.append(str(exc))


def test_two_workers_with_repairs_keep_to_the_limit(
    redis_url: str, fake_judge: FakeOpenAIServer
) -> None:
    """No window holds more calls than the limit, though each review makes two."""
    times: list[float] = []
    client = redis.Redis.from_url(redis_url)
    endpoint = f"budget-{uuid.uuid4().hex[:8]}"
    errors: list[str] = []
    workers = []
    for n in range(2):
        limit = JudgeRateLimit(
            RedisRateLimiter(client),
            endpoint,
            requests_per_minute=LIMIT,
            window_s=WINDOW_S,
            max_wait_s=30.0,
        )
        judge = OpenAIJudge(base_url=fake_judge.base_url, api_key="k", timeout_s=5)
        # Warm up (unmetered, uncounted): a cold client's first request reaches the endpoint
        # ~0.1 s after its admission, which would shift the endpoint's view of the window.
        judge.review(_request(1000 + n))
        judge.call_gate = limit.before_call
        workers.append(threading.Thread(target=_worker, args=(judge, limit, n * 100, errors)))
    fake_judge.default = _repair_needed(times, threading.Lock())
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join(120)
    assert [] == errors
    assert 2 * REVIEWS_PER_WORKER * 2 == len(times)
    # The limiter counts admissions on the Redis server's clock; a call reaches the endpoint a
    # little after its admission: allow a tenth of the window for that hop.
    assert _most_in_a_window(times, WINDOW_S * 0.9) <= LIMIT


def test_a_held_call_fails_as_transient(redis_url: str, fake_judge: FakeOpenAIServer) -> None:
    """A repair the limit holds longer than QGS_JUDGE__RATE_MAX_WAIT_S is a transient failure."""
    times: list[float] = []
    fake_judge.default = _repair_needed(times, threading.Lock())
    limit = JudgeRateLimit(
        RedisRateLimiter(redis.Redis.from_url(redis_url)),
        f"held-{uuid.uuid4().hex[:8]}",
        requests_per_minute=1,
        window_s=60,
        max_wait_s=0.5,
    )
    judge = OpenAIJudge(base_url=fake_judge.base_url, api_key="k", call_gate=limit.before_call)
    assert 0.0 == limit.admit(100)
    with pytest.raises(JudgeUnavailableError, match="shared rate limit") as caught:
        judge.review(_request(1))
    assert 1 == len(times)  # the first call went; its repair was held, never sent
    assert caught.value.retry_after_s is not None and caught.value.retry_after_s > 0


def test_every_endpoint_user_of_a_worker_shares_the_gate(tmp_path: Path) -> None:
    """The worker's judge (each panel member), audit sessions and classifier get the gate."""
    from qgs_worker.queue.worker_runtime import _build_runtime

    settings = Settings(
        data_dir=tmp_path / "data",
        broker_url=f"redis://{REDIS_HOST}:{REDIS_PORT}/{REDIS_DB}",
        database_url=f"sqlite:///{tmp_path / 'qgs.db'}",
        judge=JudgeSettings(
            kind="panel",
            base_url="http://127.0.0.1:9/v1",
            api_key="k",
            panel_models=("a", "b"),
            classifier_llm=True,
            requests_per_minute=20,
        ),
    )
    rt = _build_runtime(create_celery_app(settings))
    try:
        assert rt.judge_limit is not None
        gate = rt.judge_limit.before_call
        assert isinstance(rt.judge, PanelJudge)
        assert all(j.call_gate == gate for j in rt.judge.judges)  # type: ignore[attr-defined]
        assert rt.audit.sessions is not None
        session = rt.audit.sessions.open("security_auditor")
        assert session.endpoint.call_gate == gate
        assert rt.llm_classifier is not None
        assert rt.llm_classifier.endpoint.call_gate == gate
    finally:
        rt.repo.dispose()


def test_a_proxy_error_page_is_transient(fake_judge: FakeOpenAIServer) -> None:
    """HTTP 200 with a body that is not JSON (issue 11, item 8) is retried, not stored as final."""
    fake_judge.default = Answer.status(200, body=b"<html><body>502 Bad Gateway</body></html>")
    judge = OpenAIJudge(base_url=fake_judge.base_url, api_key="k")
    with pytest.raises(JudgeUnavailableError, match="not JSON"):
        judge.review(_request(2))
