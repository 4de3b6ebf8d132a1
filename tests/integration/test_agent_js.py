"""examples/agent.mjs, the README's JavaScript agent, run with the machine's ``node``.

It talks to a real uvicorn server of the HTTP API (``create_app``, what ``qgs serve`` serves) with
a real Celery worker and SQLite store; the decision comes from the real pipeline (rules judge).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from qgs_worker.api import Operations
from qgs_worker.api.http import create_app
from qgs_worker.client import Client
from qgs_worker.config.settings import ApiSettings
from qgs_worker.store import TaskRow
from qgs_worker.store.keys import create_key
from qgs_worker.webhooks.key_secrets import master_secret
from tests.integration.api_server import serving
from tests.integration.conftest import make_settings, running_worker

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
AGENT = ROOT / "examples" / "agent.mjs"
NODE = shutil.which("node")


@pytest.mark.skipif(
    NODE is None, reason="node is not installed: the JavaScript agent needs Node 18+"
)
def test_javascript_agent(redis_url: str, tmp_path: Path) -> None:
    settings = make_settings(redis_url, f"sqlite:///{tmp_path / 'qgs.db'}", None, tmp_path)
    settings = settings.model_copy(update={"api": ApiSettings(key_cache_s=0)})
    with running_worker(settings) as app:
        ops = Operations(settings, client=Client(settings, app=app))
        key = create_key(ops.repo, "js-agent", master=master_secret(ops.settings))
        with serving(create_app(operations=ops)) as url:
            # A trailing slash, as people write addresses (break test 18: //v1/tasks, a 404).
            env = {**os.environ, "QGS_URL": url + "/", "QGS_KEY": key.key}
            done = subprocess.run(
                [str(NODE), str(AGENT)], env=env, capture_output=True, text=True, timeout=180
            )
        tasks = ops.repo.count_rows(TaskRow)
        ops.repo.dispose()
    assert 0 == done.returncode, done.stderr
    out = done.stdout
    assert re.search(r"^task t-\S+: GENERATE/COMPLEX$", out, re.MULTILINE), out
    assert re.search(r"^submission \S+$", out, re.MULTILINE), out
    assert re.search(
        r"^decision: (pass|pass_with_suggestions) \(score \d+, woken by \w+\)$", out, re.MULTILINE
    ), out
    assert "tool call (Paris) allowed: true\n" in out
    assert "tool call (no city) allowed: false (refused by parameters)\n" in out
    assert 1 == tasks


def test_agent_without_settings_says_what_to_set() -> None:
    if NODE is None:
        pytest.skip("node is not installed: the JavaScript agent needs Node 18+")
    env = {k: v for k, v in os.environ.items() if k not in ("QGS_URL", "QGS_KEY")}
    done = subprocess.run([NODE, str(AGENT)], env=env, capture_output=True, text=True, timeout=60)
    assert (2, "") == (done.returncode, done.stdout)
    assert "set QGS_URL and QGS_KEY" in done.stderr
