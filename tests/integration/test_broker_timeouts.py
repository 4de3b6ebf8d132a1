"""Bounded broker clients: a Redis that accepts connections but never answers fails fast.

Issue 11, item 6: against a SIGSTOPped Redis (the kernel still accepts TCP connections),
``Client.submit`` hung for over 420 s. With ``QGS_BROKER_TIMEOUT_S`` every broker and Redis
client has connect and read timeouts, and submit raises ``BrokerUnavailableError``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import redis

from qgs_worker.client import Client
from qgs_worker.config.settings import Settings
from qgs_worker.errors import BrokerUnavailableError
from qgs_worker.limits.ratelimit import RedisRateLimiter, redis_for_broker
from tests.integration.private_redis import PrivateRedis, private_redis

pytestmark = [pytest.mark.integration]

HANG_GUARD_S = 60.0
"""How long the test waits before it calls the call hung (far above the timeouts set)."""


def _outcome(call: Any) -> BaseException | str:
    """Run ``call`` in a thread: what it raised, or "returned", or "hung" after HANG_GUARD_S."""
    box: list[BaseException | str] = []

    def target() -> None:
        try:
            call()
        except BaseException as exc:  # the test looks at what came out
            box.append(exc)
        else:
            box.append("returned")

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(HANG_GUARD_S)
    return box[0] if box else "hung"


@pytest.fixture
def hung_redis(tmp_path: Path) -> Any:
    """A private redis-server, SIGSTOPped after start (resumed and stopped at the end)."""
    with private_redis(tmp_path / "redis") as server:
        yield server
        server.resume()


def _settings(server: PrivateRedis, tmp_path: Path) -> Settings:
    return Settings(
        data_dir=tmp_path / "data",
        broker_url=server.url,
        database_url=f"sqlite:///{tmp_path / 'qgs.db'}",
        broker_timeout_s=2.0,
    )


class TestHungRedis:
    """Every client QGS makes on the broker's Redis gives up instead of waiting forever."""

    def test_submit_raises_broker_unavailable(
        self, hung_redis: PrivateRedis, tmp_path: Path
    ) -> None:
        client = Client(_settings(hung_redis, tmp_path))
        try:
            task = client.start_task("write an article about AI")
            hung_redis.hang()
            outcome = _outcome(lambda: client.submit(task.id, "An article.", final=True))
            assert isinstance(outcome, BrokerUnavailableError), outcome
            assert "QGS_BROKER_URL" in str(outcome)
        finally:
            client.repo.dispose()

    def test_rate_limit_client_times_out(self, hung_redis: PrivateRedis) -> None:
        limiter = RedisRateLimiter(redis_for_broker(hung_redis.url))  # the default timeout
        limiter.hit("warm-up", limit=10, window_s=60)  # connected and scripts loaded
        hung_redis.hang()
        outcome = _outcome(lambda: limiter.hit("judge", limit=10, window_s=60))
        assert isinstance(outcome, redis.TimeoutError), outcome

    def test_qgs_submit_exits_with_the_reason(
        self, hung_redis: PrivateRedis, tmp_path: Path
    ) -> None:
        """`qgs submit` against a hung Redis ran over 90 s; now it exits 2, naming the broker."""
        settings = _settings(hung_redis, tmp_path)
        client = Client(settings)
        task = client.start_task("write an article about AI")
        client.repo.dispose()
        env = {k: v for k, v in os.environ.items() if not k.startswith("QGS_")}
        env.update(
            QGS_BROKER_URL=hung_redis.url,
            QGS_DATABASE_URL=settings.resolved_database_url,
            QGS_BROKER_TIMEOUT_S="2",
            QGS_DATA_DIR=str(tmp_path / "data"),
        )
        hung_redis.hang()
        done = subprocess.run(
            [sys.executable, "-m", "qgs_worker.cli", "submit", "-", "--task", task.id],
            input="An article.",
            capture_output=True,
            text=True,
            env=env,
            timeout=HANG_GUARD_S,
        )
        assert 2 == done.returncode, done.stderr
        # the submit's broker check (preflight) or the publish itself names the broker setting
        assert "QGS_BROKER_URL" in done.stderr or "cannot reach the broker" in done.stderr
        assert "Redis" in done.stderr
