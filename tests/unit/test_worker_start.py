"""``qgs worker`` builds Celery's worker itself, without Celery's command line (issue 15, part 4).

``app.worker_main`` imported the whole ``celery`` click program (click-repl, prompt_toolkit,
Flower with tornado): ~15 MB of every worker's memory that no job uses. The worker also limits glibc malloc's arenas and maps large blocks on their own
(``worker_start.limit_malloc``). Run in a fresh interpreter (a worker's imports are what is
checked), with the worker's ``start`` replaced so nothing connects to a broker. Memory figures
are ``bench/pipeline_bench.py``'s, never asserted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from qgs_worker.queue.worker_start import MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_BYTES

ROOT = Path(__file__).resolve().parents[2]

NEVER_IN_A_WORKER = (
    "celery.bin", "click_repl", "prompt_toolkit", "flower", "tornado",  # Celery's CLI
    "httpx",  # the webhooks' client: imported by the first delivery
    "fastapi", "starlette", "uvicorn", "mcp", "jinja2", "plotly",  # the API, MCP, HTML report
)  # fmt: skip

SCRIPT = """
import json, sys
from celery.apps import worker as celery_worker

seen = {}

def start(self):
    seen.update(
        hostname=self.hostname,
        pool=self.pool_cls.__module__,
        concurrency=self.concurrency,
        task_events=self.task_events,
        queues=sorted(self.app.amqp.queues.consume_from),
    )
    self.exitcode = 0

celery_worker.Worker.start = start
from qgs_worker.queue.celery_app import create_celery_app
from qgs_worker.config.settings import Settings
from qgs_worker.queue import worker_start
from qgs_worker.queue.worker_start import start_worker

app = create_celery_app(Settings(broker_url="redis://127.0.0.1:1/0"))
code = start_worker(app, queues=["qgs.critic", "qgs.default"], pool="threads", concurrency=3,
                    hostname="w1@%h", loglevel="WARNING")
print(json.dumps({"code": code, "seen": seen, "modules": sorted(sys.modules),
                  "malloc": worker_start.malloc_limits}))
"""


def run_worker_start(tmp_path: Path, **extra_env: str) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QGS_", "OTEL_", "MALLOC_"))}
    env.update(extra_env)
    env["QGS_DATA_DIR"] = str(tmp_path / "data")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, cwd=tmp_path,
        check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


QGS_WORKER_SCRIPT = """
import json, sys
from celery.apps import worker as celery_worker

def start(self):
    self.exitcode = 0

celery_worker.Worker.start = start
import qgs_worker.queue.preflight
qgs_worker.queue.preflight.check_broker = lambda *args, **kwargs: None
sys.argv = ["qgs", "worker", "--concurrency", "2", "--loglevel", "WARNING"]
from qgs_worker.cli import main
try:
    main()
except SystemExit as exc:
    code = exc.code
from qgs_worker.judges.endpoint import ChatEndpoint
import openai
endpoint = ChatEndpoint(base_url="http://127.0.0.1:1/v1", api_key="x", timeout_s=2)
try:  # the first request imports httpcore2's connection pool and its synchronization module
    endpoint._client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
except openai.APIConnectionError as exc:
    error = type(exc).__name__
loaded = sorted(name for name, module in sys.modules.items() if module is not None)
print(json.dumps({"code": code, "error": error, "modules": loaded}))
"""


def run_qgs_worker(tmp_path: Path, **extra_env: str) -> dict[str, object]:
    """``qgs worker`` through the command line, its Celery worker's start a no-op, then a judge call."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QGS_", "OTEL_", "MALLOC_"))}
    env.update(extra_env)
    env["QGS_DATA_DIR"] = str(tmp_path / "data")
    env["QGS_BROKER_URL"] = "redis://127.0.0.1:1/0"
    env["QGS_STORE_URL"] = f"sqlite:///{tmp_path / 'qgs.db'}"
    done = subprocess.run(
        [sys.executable, "-c", QGS_WORKER_SCRIPT], capture_output=True, text=True, env=env,
        cwd=tmp_path, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


class TestWorkerStart:
    """The worker gets the options ``celery worker`` gave it, and none of its CLI's imports."""

    def test_the_options_reach_the_worker(self, tmp_path: Path) -> None:
        result = run_worker_start(tmp_path)
        seen = result["seen"]
        assert isinstance(seen, dict)
        assert result["code"] == 0
        assert seen["hostname"].startswith("w1@") and "%h" not in seen["hostname"]
        assert seen["pool"] == "celery.concurrency.thread"
        assert seen["concurrency"] == 3
        assert seen["task_events"] is True
        assert seen["queues"] == ["qgs.critic", "qgs.default"]

    def test_no_cli_api_or_webhook_client_is_imported(self, tmp_path: Path) -> None:
        modules = run_worker_start(tmp_path)["modules"]
        assert isinstance(modules, list)
        loaded = [
            m
            for m in modules
            for name in NEVER_IN_A_WORKER
            if m == name or m.startswith(name + ".")
        ]
        assert loaded == []


class TestUnusedAsyncModules:
    """``qgs worker`` runs its jobs and judge calls without the async back-ends it never uses."""

    def test_the_worker_and_its_judge_calls_import_neither(self, tmp_path: Path) -> None:
        result = run_qgs_worker(tmp_path)
        modules = result["modules"]
        assert isinstance(modules, list)
        assert result["code"] == 0
        assert result["error"] == "APIConnectionError"  # the call went through httpcore2
        assert "openai" in modules and "httpcore2._synchronization" in modules
        loaded = [m for m in modules if m.split(".")[0] in ("aiohttp", "trio")]
        assert loaded == []

    def test_without_tracing_the_worker_does_without_the_otel_sdk(self, tmp_path: Path) -> None:
        # redis-py imports the SDK when installed, for metrics QGS never turns on; a worker
        # that traces needs it for its spans.
        modules = run_qgs_worker(tmp_path)["modules"]
        assert isinstance(modules, list) and "redis.observability.providers" in modules
        assert [m for m in modules if m.startswith("opentelemetry.sdk")] == []
        tracing = run_qgs_worker(
            tmp_path, OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:1", OTEL_BSP_SCHEDULE_DELAY="60000"
        )["modules"]
        assert isinstance(tracing, list) and "opentelemetry.sdk" in tracing

    def test_other_processes_keep_them(self) -> None:
        code = (
            "import sys, qgs_worker.queue.jobs, qgs_worker.queue.celery_app; "
            "from qgs_worker.queue.worker_start import UNUSED_ASYNC_MODULES as names; "
            "print([n for n in names if n in sys.modules and sys.modules[n] is None])"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
        )
        assert done.stdout.strip() == "[]"  # importing QGS blocks nothing; only `qgs worker` does

    def test_a_module_already_imported_is_left_alone(self) -> None:
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; sys.modules['trio'] = sys; "
                "from qgs_worker.queue.worker_start import skip_unused_async_modules as s; "
                "print(s(), sys.modules['trio'] is sys)",
            ],
            capture_output=True, text=True, check=True, timeout=120,
        )  # fmt: skip
        assert done.stdout.strip() == "['openai._vendor.httpx_aiohttp'] True"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
class TestMallocLimits:
    """The worker limits malloc's arenas and maps large blocks alone, unless the environment says."""

    def test_the_worker_sets_them(self, tmp_path: Path) -> None:
        malloc = run_worker_start(tmp_path)["malloc"]
        assert malloc == {
            "arena_max": MALLOC_ARENA_MAX,
            "mmap_threshold_bytes": MALLOC_MMAP_THRESHOLD_BYTES,
        }

    def test_a_variable_of_glibc_wins(self, tmp_path: Path) -> None:
        malloc = run_worker_start(tmp_path, MALLOC_ARENA_MAX="4")["malloc"]
        assert malloc == {"mmap_threshold_bytes": MALLOC_MMAP_THRESHOLD_BYTES}
