"""The containers' worker health check: ``python -m qgs_worker.queue.celery_app ping NAME``."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest

from qgs_worker.queue.celery_app import ping_worker
from tests.integration.conftest import make_settings, running_worker

pytestmark = [pytest.mark.integration]


def test_a_running_worker_answers_and_a_missing_one_does_not(
    redis_url: str, tmp_path: Path
) -> None:
    settings = make_settings(redis_url, f"sqlite:///{tmp_path / 'qgs.db'}", None, tmp_path)
    with running_worker(settings, hostname=f"worker-ping-test@{socket.gethostname()}"):
        # The in-process worker may still be binding its control queue when the first ping
        # goes out (a loaded machine): a health check is retried, so the test retries too.
        deadline = time.monotonic() + 30
        answered = ping_worker("worker-ping-test", settings=settings)
        while not answered and time.monotonic() < deadline:
            answered = ping_worker("worker-ping-test", timeout_s=2.0, settings=settings)
        assert answered
        assert not ping_worker("worker-nobody", timeout_s=1.0, settings=settings)
