"""A reviewed round with no audit is one job: the intake on ``qgs.critic`` reviews and decides it.

Counted with Celery's ``task_postrun`` signal in a real worker (thread pool, real Redis, real
store): which jobs ran, and on which queue, for each shape of round.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from celery.signals import task_postrun

from qgs_worker.client import Client
from qgs_worker.core.models import CadencePolicy
from tests.integration.conftest import make_settings, running_worker

pytestmark = pytest.mark.integration


@pytest.fixture
def ran() -> Iterator[list[tuple[str, str | None]]]:
    """(job name, queue it came from) of every job the worker runs while the test runs."""
    seen: list[tuple[str, str | None]] = []
    lock = threading.Lock()

    def record(sender: Any = None, task: Any = None, **_: Any) -> None:
        info = task.request.delivery_info or {}
        with lock:
            seen.append((task.name, info.get("routing_key")))

    task_postrun.connect(record, weak=False)
    try:
        yield seen
    finally:
        task_postrun.disconnect(record)


def review_jobs(
    ran: list[tuple[str, str | None]], count: int, timeout_s: float = 10.0
) -> list[tuple[str, str | None]]:
    """The review jobs seen, once ``count`` of them have finished (or ``timeout_s`` passed).

    A decision is committed inside its job, so ``wait`` can return before that job's
    ``task_postrun`` fires: wait for the signal, not for the decision.
    """
    deadline = time.monotonic() + timeout_s
    while True:
        jobs = [(name, queue) for name, queue in list(ran) if name.startswith("qgs.review.")]
        if len(jobs) >= count or time.monotonic() > deadline:
            return jobs
        time.sleep(0.02)


def test_reviewed_round_is_one_job(
    redis_url: str, store_url: str, tmp_path: Path, ran: list[tuple[str, str | None]]
) -> None:
    settings = make_settings(redis_url, store_url, None, tmp_path).model_copy(
        update={"cadence": CadencePolicy(critic_every=1, discriminator_every=1000)}
    )
    with running_worker(settings) as app:
        client = Client(settings, app=app)
        task = client.start_task("Write a short note on tide pools for a school newsletter.")
        sub = client.submit(task.id, "Tide pools hold anemones, crabs and snails. " * 5)
        decision = client.wait(sub.id, timeout_s=30)
        assert decision.score is not None  # the critic reviewed it (a score), in the intake job
        assert review_jobs(ran, 1) == [("qgs.review.intake", "qgs.critic")]


def test_intake_from_the_default_queue_still_sends_a_critic_job(
    redis_url: str, store_url: str, tmp_path: Path, ran: list[tuple[str, str | None]]
) -> None:
    """An older client put its intake on ``qgs.default``: no judge call there, a critic job."""
    settings = make_settings(redis_url, store_url, None, tmp_path).model_copy(
        update={"cadence": CadencePolicy(critic_every=1, discriminator_every=1000)}
    )
    with running_worker(settings) as app:
        client = Client(settings, app=app)
        task = client.start_task("Write a short note on tide pools for a school newsletter.")
        submission = client.make_submission(task.id, "Crabs hide under rocks at low tide. " * 5)
        message = submission.model_dump(mode="json", exclude={"turn"})
        client.repo.add_outbox(submission.submission_id, task.id, "{}", round_number=None)
        app.send_task("qgs.review.intake", args=[message], queue="qgs.default")
        decision = client.wait(submission.submission_id, timeout_s=30)
        assert decision.score is not None
        assert review_jobs(ran, 2) == [
            ("qgs.review.intake", "qgs.default"),
            ("qgs.review.critic", "qgs.critic"),
        ]


def test_audited_round_reviews_at_intake_then_audits_and_decides(
    redis_url: str, store_url: str, tmp_path: Path, ran: list[tuple[str, str | None]]
) -> None:
    settings = make_settings(redis_url, store_url, None, tmp_path)
    with running_worker(settings) as app:
        client = Client(settings, app=app)
        task = client.start_task("delete all records in the database")
        sub = client.submit(task.id, "Ran DELETE FROM records; 0 rows left.", final=True)
        decision = client.wait(sub.id, timeout_s=30)
        assert decision.score is not None
        assert [name for name, _ in review_jobs(ran, 3)] == [
            "qgs.review.intake",
            "qgs.review.discriminate",
            "qgs.review.decide",
        ]
