"""A critic worker holding retry jobs survives a restart of its Redis, and loses none of them.

Issue 11, item 3: with kombu 5.7 the critic worker exited with ``Unrecoverable error:
AttributeError('NoneType' object has no attribute 'hostname')`` while it held retries of
rounds the judge had answered 429 (``qgs_worker.queue.celery_app.guard_redis_channel_close`` says
why). Real processes: ``qgs worker --queue critic`` (thread pool, as QGS runs it) and
``qgs worker --queue default,discriminator`` on a redis-server of the test's own, restarted under them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from qgs_worker.client import Client
from tests.fake_openai import Answer, FakeOpenAIServer
from tests.integration.conftest import make_settings
from tests.integration.private_redis import private_redis

pytestmark = [pytest.mark.integration, pytest.mark.slow]

ROUNDS = 3


def _worker(queue: str, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "qgs_worker.cli", "worker", "--queue", queue, "--loglevel", "INFO"],
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )


def test_critic_worker_holding_retries_survives_a_redis_restart(
    fake_judge: FakeOpenAIServer, tmp_path: Path
) -> None:
    """Every round is decided once Redis is back; the critic worker never exits."""
    store = f"sqlite:///{tmp_path / 'qgs.db'}"
    with private_redis(tmp_path / "redis") as broker:
        env = {k: v for k, v in os.environ.items() if not k.startswith("QGS_")}
        env.update(
            QGS_BROKER_URL=broker.url,
            QGS_DATABASE_URL=store,
            QGS_DATA_DIR=str(tmp_path / "data"),
            QGS_JUDGE__KIND="openai",
            QGS_JUDGE__BASE_URL=fake_judge.base_url,
            QGS_JUDGE__API_KEY="test-key",
            QGS_JUDGE__TIMEOUT_S="3",
            QGS_WORKER__JUDGE_MAX_RETRIES="20",
            QGS_WORKER__RETRY_BACKOFF_MAX_S="3",
        )
        # Every judge call is refused until the restart: the critic worker holds the retries.
        fake_judge.default = Answer.status(429, headers={"Retry-After": "3"})
        critic_log, default_log = tmp_path / "critic.log", tmp_path / "default.log"
        critic = _worker("critic", env, critic_log)
        default = _worker("default,discriminator", env, default_log)
        client = Client(make_settings(broker.url, store, fake_judge, tmp_path))
        try:
            subs = []
            for i in range(ROUNDS):
                task = client.start_task(f"write an article about topic {i}")
                subs.append(client.submit(task.id, f"Article {i}: a draft.", final=True))
            deadline = time.monotonic() + 60
            while len(fake_judge.requests) < ROUNDS:  # each critic job answered 429, held
                assert time.monotonic() < deadline, critic_log.read_text()
                time.sleep(0.05)
            broker.restart(down_s=2.0)
            fake_judge.default = Answer.auto("PASS", 88)
            decisions = [client.wait(sub.id, timeout_s=60) for sub in subs]
            assert [("pass", 88)] * ROUNDS == [(d.kind, d.score) for d in decisions]
            assert critic.poll() is None, critic_log.read_text()[-4000:]
            assert "Unrecoverable error" not in critic_log.read_text()
        finally:
            for proc in (critic, default):
                if proc.poll() is None:
                    proc.terminate()
                    proc.wait(20)
            client.repo.dispose()
