"""A worker killed in the middle of a critic job loses nothing and duplicates nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from qgs_worker.client import Client
from qgs_worker.store import DecisionRow, ReviewRow
from tests.fake_openai import Answer, FakeOpenAIServer
from tests.integration.conftest import make_settings

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def start_worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "qgs_worker.cli",
            "worker",
            "--queues",
            "all",
            "--concurrency",
            "2",
            "--loglevel",
            "INFO",
        ],
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )


def test_killed_worker_job_is_redelivered_once(
    redis_url: str, fake_judge: FakeOpenAIServer, tmp_path: Path
) -> None:
    store = f"sqlite:///{tmp_path / 'qgs.db'}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("QGS_")}
    env.update(
        QGS_BROKER_URL=redis_url,
        QGS_DATABASE_URL=store,
        QGS_JUDGE__KIND="openai",
        QGS_JUDGE__BASE_URL=fake_judge.base_url,
        QGS_JUDGE__API_KEY="test-key",
        QGS_JUDGE__TIMEOUT_S="3",
        QGS_WORKER__SOFT_TIME_LIMIT_S="4",
        QGS_WORKER__TIME_LIMIT_S="5",
        # Above the worst case Settings.check computes: 3 judge calls x 3 s + a 0.3 s retry
        # held; 3 audit roles x (1.2 s budget + 5 s grace).
        QGS_WORKER__VISIBILITY_TIMEOUT_S="20",
        QGS_WORKER__RETRY_BACKOFF_MAX_S="0.2",
        QGS_WORKER__RESTORE_INTERVAL_S="1",
        # The cut-off review's lease outlives the redelivery: the sweeper dispatches it again.
        QGS_WORKER__SWEEP_INTERVAL_S="1",
    )
    fake_judge.default = Answer.auto("PASS", 91)
    fake_judge.script(Answer.delay(2.5, then=Answer.auto("PASS", 91)))  # the call the kill cuts off
    settings = make_settings(redis_url, store, fake_judge, tmp_path)
    client = Client(settings)
    with client.app.connection_for_write() as conn:
        for queue in ("qgs.default", "qgs.critic", "qgs.discriminator"):
            conn.default_channel.queue_purge(queue)
    log = tmp_path / "worker.log"
    first = start_worker(env, log)
    second = None
    try:
        task = client.start_task("deploy this service")
        sub = client.submit(task.id, "Deployed billing v2; health checks green.", final=True)
        deadline = time.monotonic() + 30
        while not fake_judge.requests:  # the critic job is now waiting on the judge
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        os.kill(first.pid, signal.SIGKILL)
        first.wait(10)
        second = start_worker(env, log)
        decision = client.wait(sub.id, timeout_s=60)
        round_id = client.repo.get_round_by_submission(sub.id).id
        assert ("pass", 91) == (decision.kind, decision.score)
        assert (1, 1) == (client.repo.count_rows(ReviewRow), client.repo.count_rows(DecisionRow))
        assert 2 == len(fake_judge.requests)
        assert 2 == client.repo.get_round(round_id).attempts  # type: ignore[arg-type]
    finally:
        for proc in (first, second):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                proc.wait(20)
        client.repo.dispose()
