"""A served QGS with the console for tests: real Redis, a real worker, the loopback judge, keys.

``console_server`` starts it once per module: an HTTP API on a loopback port (the real
``create_app`` under uvicorn), a Celery worker in this process, a SQLite store, a webhook
receiver, and keys: agents ``alice`` and ``bob`` (bob's with ``approve``), operators
``olivia`` (view and approve, sees alice), ``rita`` (view only, sees alice) and ``sam`` (view,
sees every principal). ``signed_in`` signs an httpx client in as a browser would.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from qgs_worker.api import Operations
from qgs_worker.api.http import create_app
from qgs_worker.client import Client
from qgs_worker.config.settings import ApiSettings
from qgs_worker.config.webhook_settings import WebhookSettings
from qgs_worker.store.keys import NewKey, create_key
from qgs_worker.webhooks.key_secrets import master_secret
from tests.fake_openai import Answer, FakeOpenAIServer
from tests.integration.api_server import serving
from tests.integration.conftest import make_settings, running_worker
from tests.integration.test_pipeline import scripted_by_marker
from tests.webhook_receiver import Receiver

CSRF = re.compile(r'name="csrf" value="([^"]+)"')
CRITICAL_REQUEST = "wire 50000 EUR to IBAN DE89370400440532013000"


@dataclass
class Served:
    """The running deployment and its keys."""

    url: str
    ops: Operations
    receiver: Receiver
    keys: dict[str, NewKey]

    def agent(self, name: str) -> httpx.Client:
        """An agent's API client (``alice`` or ``bob``)."""
        headers = {"Authorization": f"Bearer {self.keys[name].key}"}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60)

    def critical_task(
        self, agent: str, deliverable: str, *, callback: bool = True, final: bool = True
    ) -> str:
        """Start a CRITICAL task as ``agent``, submit one round (final), wait for its decision."""
        with self.agent(agent) as http:
            body: dict[str, Any] = {"request": CRITICAL_REQUEST, "agent": f"{agent}-bot"}
            if callback:
                body["callback_url"] = self.receiver.url
            made = http.post("/v1/tasks", json=body)
            assert 201 == made.status_code, made.text
            task = str(made.json()["id"])
            sent = http.post(
                f"/v1/tasks/{task}/rounds", json={"deliverable": deliverable, "final": final}
            )
            assert 202 == sent.status_code, sent.text
            sid = sent.json()["submission_id"]
            got = http.get(f"/v1/submissions/{sid}/decision", params={"wait_s": 30})
            assert 200 == got.status_code, got.text
        return task


@contextlib.contextmanager
def signed_in(url: str, key: str) -> Iterator[httpx.Client]:
    """An httpx client with a console session for ``key`` (sign-in form, CSRF and all)."""
    with httpx.Client(base_url=url, follow_redirects=False, timeout=30) as client:
        form = client.get("/ui/login")
        token = CSRF.search(form.text)
        assert token is not None, form.text
        done = client.post("/ui/login", data={"csrf": token[1], "key": key, "next": ""})
        assert 303 == done.status_code, done.text
        yield client


def approval_round_of(html: str, task_id: str) -> str:
    """The submission id the approval form of ``task_id`` on a console page names."""
    found = re.search(
        rf'action="/ui/tasks/{re.escape(task_id)}/approval"[^>]*>\s*<input type="hidden" '
        r'name="csrf" value="[^"]+">\s*<input type="hidden" name="submission_id" value="([^"]+)"',
        html,
    )
    assert found is not None, f"no approval form of {task_id} on the page"
    return found[1]


def csrf_of(html: str) -> str:
    """The CSRF token of a console page's forms."""
    found = CSRF.search(html)
    assert found is not None, "no form with a CSRF token on the page"
    return found[1]


@contextlib.contextmanager
def console_server(redis_url: str, folder: Path) -> Iterator[Served]:
    """The deployment described in the module docstring; torn down on exit."""
    with FakeOpenAIServer() as judge:
        judge.default = Answer.dynamic(scripted_by_marker)
        settings = make_settings(redis_url, f"sqlite:///{folder / 'qgs.db'}", judge, folder)
        settings = settings.model_copy(
            update={
                "api": ApiSettings(key_cache_s=0, recheck_s=60),
                "webhooks": WebhookSettings(allow_private=True, backoff_base_s=0.1),
            }
        )
        with running_worker(settings) as app, Receiver(200) as receiver:
            ops = Operations(settings, client=Client(settings, app=app))
            master = master_secret(ops.settings)

            def make(name: str, **kwargs: Any) -> NewKey:
                return create_key(ops.repo, name, master=master, **kwargs)

            keys = {
                "alice": make("alice"),
                "bob": make("bob", scopes=("approve",)),
                "olivia": make(
                    "olivia", operator=True, scopes=("view", "approve"), sees=("alice",)
                ),
                "rita": make("rita", operator=True, scopes=("view",), sees=("alice",)),
                "sam": make("sam", operator=True, scopes=("view",), sees=("all",)),
            }
            with serving(create_app(operations=ops)) as url:
                yield Served(url, ops, receiver, keys)
            ops.repo.dispose()
