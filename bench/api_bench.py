"""The HTTP API beside the in-process client: requests/s and ratios, and the API's RSS.

    PYTHONPATH=. .venv/bin/python bench/api_bench.py [--quick] [--seconds 5] [--rounds 40]

Side by side, on the same Redis broker (``QGS_BENCH_REDIS_URL``, default
``redis://127.0.0.1:6379/12``; it must be empty, and is flushed after), the same SQLite store
and the same worker (a real Celery worker, threads, in this process, rules judge):

- ``POST /v1/tool-calls/check`` through ``qgs serve`` (the real command, a subprocess, one
  keep-alive client) against ``Client.check_tool_call`` in-process (no log write on either side:
  the API logs through the queue, off its path);
- submit + decision, one round after another: ``POST /v1/tasks/{id}/rounds`` then ``GET
  .../decision?wait_s=30`` against ``Client.submit`` then ``Client.wait`` (both woken by the
  decision's notification);
- the ``qgs serve`` process's RSS after the runs.

Loopback latency: a server on a socket whose ``proto`` is 0 (``socket.socket(AF_INET,
SOCK_STREAM)`` handed to uvicorn) gets no TCP_NODELAY from asyncio, and every request then
waits ~40 ms for a delayed ACK (Nagle holds the second half of h11's two-write response);
``qgs serve`` binds by host and port and is not affected. The tests' server helper now binds an
IPPROTO_TCP socket (tests/integration/api_server.py).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
import psutil
import redis

from qgs_worker.client import Client
from qgs_worker.config.settings import ApiSettings, JudgeSettings, Settings
from qgs_worker.store.keys import create_key
from qgs_worker.webhooks.key_secrets import master_secret

ROOT = Path(__file__).resolve().parents[1]
TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]  # fmt: skip
CALL = {"id": "c1", "type": "function",
        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}  # fmt: skip
ARTICLE = "# AI\n\nAn article about AI: what it is, what it does, where it fails.\n" * 5


def rate(fn: Callable[[], object], seconds: float) -> float:
    """Calls of ``fn`` per second over ``seconds`` (one after another)."""
    n, start = 0, time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        fn()
        n += 1
    return n / (time.perf_counter() - start)


def per_second(fn: Callable[[], object], count: int) -> float:
    """``count`` calls of ``fn`` one after another, as calls per second."""
    start = time.perf_counter()
    for _ in range(count):
        fn()
    return count / (time.perf_counter() - start)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def qgs_serve(settings: Settings) -> Iterator[tuple[str, psutil.Process]]:
    """``qgs serve`` in a subprocess on this bench's broker and store; stopped by its PID."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("QGS_")}
    env |= {
        "PYTHONPATH": str(ROOT),
        "QGS_BROKER_URL": settings.broker_url or "",
        "QGS_DATABASE_URL": settings.resolved_database_url,
        "QGS_DATA_DIR": str(settings.data_dir),
        "QGS_API__RATE_LIMIT_REQUESTS": "0",
    }
    command = [sys.executable, "-m", "qgs_worker.cli", "serve", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--log-level", "warning"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                sys.exit("qgs serve did not start (run it by hand to see why)")
            time.sleep(0.05)
        yield url, psutil.Process(process.pid)
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def bench_settings(default_redis_url: str, prefix: str) -> tuple[Settings, Path]:
    """Settings of a bench deployment: an empty Redis db, a new data folder, the rules judge.

    The Redis is ``QGS_BENCH_REDIS_URL`` (else ``default_redis_url``); the API's rate limit is
    off, so only the code is measured. Exits with a message when the db is not empty or Redis
    cannot be reached.

    Returns:
        The settings and the data folder (the caller removes it).
    """
    redis_url = os.environ.get("QGS_BENCH_REDIS_URL", default_redis_url)
    try:
        if redis.Redis.from_url(redis_url).dbsize():
            sys.exit(f"Redis db {redis_url} is not empty: give the bench an empty one")
    except redis.RedisError as exc:
        sys.exit(f"Redis at {redis_url} is not reachable ({exc}); set QGS_BENCH_REDIS_URL")
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    settings = Settings(
        data_dir=folder, broker_url=redis_url, database_url=f"sqlite:///{folder}/qgs.db",
        judge=JudgeSettings(kind="rules"), api=ApiSettings(rate_limit_requests=0),
    )  # fmt: skip
    return settings, folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run (tests use it)")
    parser.add_argument("--seconds", type=float, default=5.0, help="per tool-check side")
    parser.add_argument("--rounds", type=int, default=40, help="submit + decision per side")
    args = parser.parse_args()
    seconds, rounds = (1.0, 5) if args.quick else (args.seconds, args.rounds)

    settings, folder = bench_settings("redis://127.0.0.1:6379/12", "qgs-api-bench-")
    try:
        run(settings, seconds, rounds)
    finally:
        redis.Redis.from_url(settings.broker_url or "").flushdb()
        shutil.rmtree(folder, ignore_errors=True)


def run(settings: Settings, seconds: float, rounds: int) -> None:
    from celery.contrib.testing.worker import start_worker

    from qgs_worker.queue.celery_app import create_celery_app

    app = create_celery_app(settings)
    with start_worker(app, pool="threads", concurrency=2, perform_ping_check=False,
                      loglevel="WARNING"):  # fmt: skip
        client = Client(settings, app=app)
        key = create_key(client.repo, "bench", master=master_secret(client.settings))
        in_check = rate(lambda: client.check_tool_call(CALL, tools=TOOLS, log=False), seconds)
        task = client.start_task("write an article about AI", agent="bench")

        def in_round() -> None:
            sub = client.submit(task.id, ARTICLE)
            assert client.wait(sub.id, timeout_s=30) is not None

        client.wait(client.submit(task.id, ARTICLE).id, timeout_s=30)  # warm the worker
        in_rounds = per_second(in_round, rounds)
        with (
            qgs_serve(settings) as (url, server),
            httpx.Client(
                base_url=url, headers={"Authorization": f"Bearer {key.key}"}, timeout=60
            ) as http,
        ):
            health = rate(lambda: http.get("/healthz"), seconds / 2)
            body = {"call": CALL, "tools": TOOLS, "agent": "bench"}
            api_check = rate(lambda: http.post("/v1/tool-calls/check", json=body), seconds)
            api_task = http.post("/v1/tasks", json={"request": "write an article about AI"})
            task_id = api_task.json()["id"]

            def api_round() -> None:
                sub = http.post(f"/v1/tasks/{task_id}/rounds", json={"deliverable": ARTICLE})
                got = http.get(
                    f"/v1/submissions/{sub.json()['submission_id']}/decision",
                    params={"wait_s": 30},
                )
                assert got.status_code == 200, got.text

            api_round()  # warm the server's notifier
            api_rounds = per_second(api_round, rounds)
            rss_mb = server.memory_info().rss / 2**20
        client.flush_tool_log(5)
        client.repo.dispose()
    print(f"tool-call check, in-process Client:             {in_check:9,.0f} /s")
    print(f"tool-call check, HTTP API (qgs serve, keep-alive): {api_check:7,.0f} /s")
    print(f"GET /healthz (no key, no QGS work):             {health:9,.0f} /s")
    print(f"submit + decision, in-process Client:           {in_rounds:9,.1f} rounds/s")
    print(f"submit + decision, HTTP API (long-poll):        {api_rounds:9,.1f} rounds/s")
    print(f"RSS of the qgs serve process after the runs:    {rss_mb:9,.0f} MB")
    print(f"ratio API / in-process tool-call checks = {api_check / in_check:.4f}")
    print(f"ratio API / in-process submit + decision = {api_rounds / in_rounds:.3f}")


if __name__ == "__main__":
    main()
