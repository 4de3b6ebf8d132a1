"""Real services for integration tests: Redis, PostgreSQL, a Celery worker, a loopback judge.

Locally a missing Redis or PostgreSQL skips these tests with the reason; in CI (``CI`` set) it
fails them, so a green CI run means they ran.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from sqlalchemy import create_engine, text
from sqlmodel import SQLModel

from qgs_worker.config.settings import JudgeSettings, Settings, WorkerSettings
from tests.conftest import IN_CI
from tests.fake_openai import FakeOpenAIServer

REDIS_HOST = os.environ.get("QGS_TEST_REDIS_HOST", "127.0.0.1")
REDIS_PORT = int(os.environ.get("QGS_TEST_REDIS_PORT", "6379"))

def _redis_db() -> int:
    """The Redis db of this test process: ``QGS_TEST_REDIS_DB``, else 11.

    Under pytest-xdist (``make test`` runs the integration tests with ``-n``) each xdist worker
    counts down from it (gw0: 11, gw1: 10, ...): a test flushes its db before and after, which
    must never empty another worker's queues. The benches use 12-15.
    """
    base = int(os.environ.get("QGS_TEST_REDIS_DB", "11"))
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return base - int(worker[2:]) if worker.startswith("gw") else base


REDIS_DB = _redis_db()
PG_ADMIN_URL = os.environ.get(
    "QGS_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)


def _unavailable(what: str, exc: Exception) -> None:
    message = f"{what} is not reachable ({exc}); .ci/run starts it"
    if IN_CI:
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A real Redis on loopback, its own db number, flushed before and after the session."""
    client = redis.Redis(host=REDIS_HOST, port=REDIS_PORT, db=REDIS_DB, socket_connect_timeout=1)
    try:
        client.ping()
    except redis.RedisError as exc:
        _unavailable(f"Redis at {REDIS_HOST}:{REDIS_PORT}", exc)
    client.flushdb()
    yield f"redis://{REDIS_HOST}:{REDIS_PORT}/{REDIS_DB}"
    client.flushdb()
    client.close()


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database for this session, dropped at the end."""
    name = f"qgs_test_{uuid.uuid4().hex[:8]}"
    try:
        admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:
        _unavailable("PostgreSQL at 127.0.0.1:5432", exc)
    url = PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    yield url
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The same test on SQLite (a WAL file) and on PostgreSQL (tables dropped after each test)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'qgs.db'}"
        return
    url: str = request.getfixturevalue("pg_database")
    yield url
    engine = create_engine(url)
    SQLModel.metadata.drop_all(engine)
    engine.dispose()


@pytest.fixture
def fake_judge() -> Iterator[FakeOpenAIServer]:
    """A loopback HTTP server speaking the OpenAI chat-completions protocol, with scripted answers."""
    with FakeOpenAIServer() as server:
        yield server


def make_settings(
    broker_url: str, store_url: str, judge: FakeOpenAIServer | None, tmp_path: Path, **worker: Any
) -> Settings:
    """Settings for a test: real broker and store, the loopback judge (or the rules judge)."""
    judge_settings = (
        JudgeSettings(kind="openai", base_url=judge.base_url, api_key="test-key", timeout_s=2.0)
        if judge is not None
        else JudgeSettings(kind="rules")
    )
    return Settings(
        data_dir=tmp_path / ".qgs",
        broker_url=broker_url,
        database_url=store_url,
        judge=judge_settings,
        worker=WorkerSettings(judge_max_retries=2, retry_backoff_max_s=0.2, **worker),
    )


@contextlib.contextmanager
def running_worker(settings: Settings, **kwargs: Any) -> Iterator[Any]:
    """A real Celery worker (thread pool) in this process, consuming every QGS queue."""
    from celery.contrib.testing.worker import start_worker

    from qgs_worker.queue.celery_app import create_celery_app

    app = create_celery_app(settings)
    # Purge what an earlier test may have left on the queues of this Redis db.
    with app.connection_for_write() as conn:
        for queue in ("qgs.default", "qgs.critic", "qgs.discriminator"):
            with contextlib.suppress(Exception):
                conn.default_channel.queue_purge(queue)
    with start_worker(
        app,
        pool="threads",
        concurrency=4,
        perform_ping_check=False,
        loglevel="WARNING",
        shutdown_timeout=20.0,
        **kwargs,
    ):
        yield app
    runtime = getattr(app, "qgs_runtime", None)
    if runtime is not None:
        runtime.repo.dispose()
