"""Flower, started against the test broker, lists the qgs.review.* jobs of a run."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx
import pytest

from qgs_worker.client import Client
from tests.integration.conftest import make_settings, running_worker

pytestmark = pytest.mark.integration

AUTH = ("qgs", "test-password")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(predicate, timeout_s: float, what: str):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"timed out after {timeout_s} s waiting for {what}")


def test_flower_lists_review_jobs(redis_url: str, tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("QGS_")}
    env["QGS_BROKER_URL"] = redis_url
    flower = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "qgs_worker.cli",
            "flower",
            "--port",
            str(port),
            "--basic-auth",
            "qgs:test-password",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:

        def healthy() -> bool:
            try:
                return httpx.get(f"{base}/healthcheck", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        wait_for(healthy, 30, "Flower to answer /healthcheck")
        assert (
            401 == httpx.get(f"{base}/api/tasks", timeout=5).status_code
        )  # the API needs the password
        settings = make_settings(redis_url, f"sqlite:///{tmp_path / 'qgs.db'}", None, tmp_path)
        with running_worker(settings) as app:
            client = Client(settings, app=app)
            task = client.start_task("deploy this service")
            sub = client.submit(task.id, "Deployed billing v2; health checks green.", final=True)
            client.wait(sub.id, timeout_s=30)

            def review_jobs() -> set[str]:
                tasks = httpx.get(f"{base}/api/tasks", auth=AUTH, timeout=5).json()
                return {
                    t["name"]
                    for t in tasks.values()
                    if (t.get("name") or "").startswith("qgs.review.")
                }

            names = wait_for(
                lambda: (
                    (n := review_jobs())
                    >= {"qgs.review.intake", "qgs.review.discriminate", "qgs.review.decide"}
                    and n
                ),
                30,
                "Flower to list the review jobs",
            )
            tasks = httpx.get(f"{base}/api/tasks", auth=AUTH, timeout=5).json()
        intake = next(t for t in tasks.values() if t.get("name") == "qgs.review.intake")
        # The intake reviewed the round itself (it came on the critic queue); the audit and the
        # decision after it are their own jobs.
        assert {"qgs.review.intake", "qgs.review.discriminate", "qgs.review.decide"} <= names
        assert "Deployed billing" not in str(intake.get("args"))  # arguments are short and redacted
        assert sub.id in str(intake.get("args"))
    finally:
        flower.terminate()
        flower.wait(10)
