"""Pushed decisions on a real queue: a real Celery worker, Redis, the store, a loopback receiver."""

from __future__ import annotations

import contextlib
import hmac
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from qgs_worker.client import Client
from qgs_worker.config.settings import Settings
from qgs_worker.config.webhook_settings import WebhookSettings
from qgs_worker.core.webhooks import WebhookStatus, WebhookView, idempotency_key
from qgs_worker.queue.jobs import runtime
from qgs_worker.queue.sweeper import Sweeper
from qgs_worker.webhooks.delivery import deliver_once
from tests.integration.conftest import make_settings, running_worker
from tests.webhook_receiver import HANG, Receiver

pytestmark = pytest.mark.integration

SECRET = "test-webhook-secret"
ARTICLE = "# AI\n\nA long, careful article about AI with sources and examples.\n"


def hook_settings(redis_url: str, store: str, tmp_path: Path, **hooks: Any) -> Settings:
    """Test settings with webhooks on loopback, a secret, and short retries."""
    cfg: dict[str, Any] = {
        "secret": SECRET,
        "allow_private": True,
        "max_attempts": 3,
        "backoff_base_s": 0.05,
        "backoff_max_s": 0.2,
        "timeout_s": 2.0,
        **hooks,
    }
    base = make_settings(redis_url, store, None, tmp_path)
    return base.model_copy(update={"webhooks": WebhookSettings(**cfg)})


@contextlib.contextmanager
def qgs_on(settings: Settings) -> Iterator[tuple[Client, Any]]:
    with running_worker(settings) as app:
        client = Client(settings, app=app)
        try:
            yield client, app
        finally:
            client.repo.dispose()


def settled(client: Client, submission_id: str, timeout_s: float = 30.0) -> WebhookView:
    """Wait until the submission's webhook is delivered or failed (observable state)."""
    deadline = time.monotonic() + timeout_s
    while True:
        view = client.repo.webhook_view(submission_id)
        if view is not None and view.status != WebhookStatus.PENDING:
            return view
        assert time.monotonic() < deadline, f"webhook still {view and view.status}: {view}"
        time.sleep(0.05)


def signed_by(secret: str, headers: dict[str, str], body: bytes) -> bool:
    """What a receiver checks, written out with the stdlib (not QGS's own verify)."""
    mac = hmac.new(secret.encode(), headers["X-QGS-Timestamp"].encode() + b"." + body, "sha256")
    return hmac.compare_digest(f"sha256={mac.hexdigest()}", headers["X-QGS-Signature"])


class TestSignedWebhook:
    """The receiver gets the decision once, signed, with the submission's idempotency key."""

    def test_receiver_gets_the_signed_decision(
        self, redis_url: str, store_url: str, tmp_path: Path
    ) -> None:
        with (
            Receiver(200) as receiver,
            qgs_on(hook_settings(redis_url, store_url, tmp_path)) as (
                qgs,
                _,
            ),
        ):
            task = qgs.start_task("write an article about AI", callback_url=receiver.url)
            sub = qgs.submit(task.id, ARTICLE, final=True)
            decision = qgs.wait(sub.id, timeout_s=30)
            [got] = receiver.wait_for(1)
            view = settled(qgs, sub.id)
        assert signed_by(SECRET, got.headers, got.body)
        assert not signed_by("another-secret", got.headers, got.body)
        assert idempotency_key(sub.id) == got.headers["Idempotency-Key"]
        assert "application/json" == got.headers["Content-Type"]
        sent = json.loads(got.body)
        assert (task.id, sub.id, 1) == (sent["task_id"], sent["submission_id"], sent["round"])
        assert (decision.kind, decision.score) == (sent["decision"], sent["score"])
        assert list(decision.must_fix) == sent["must_fix"] and sent["reasons"]
        assert sent["decided_at"]
        assert WebhookStatus.DELIVERED == view.status
        assert [200] == [a.status_code for a in view.attempts]


class TestRetries:
    """A receiver that fails twice then answers gets it exactly once, on the third attempt."""

    def test_fails_twice_then_delivered_once(self, redis_url: str, tmp_path: Path) -> None:
        store = f"sqlite:///{tmp_path / 'qgs.db'}"
        settings = hook_settings(redis_url, store, tmp_path)
        with Receiver(500, 503, 200) as receiver, qgs_on(settings) as (qgs, _):
            task = qgs.start_task("write an article about AI")
            sub = qgs.submit(task.id, ARTICLE, final=True, callback_url=receiver.url)
            view = settled(qgs, sub.id)
            got = receiver.wait_for(3)
            round_id = qgs.repo.get_round_by_submission(sub.id).id
            assert round_id is not None
            # A redelivered copy of the job, and a sweep, find it delivered: nothing is sent.
            again = deliver_once(qgs.repo, round_id, settings)
            swept = Sweeper(None, settings).sweep_once()
            assert swept is not None and [] == swept.webhooks
            assert again.status is None and 3 == len(receiver.received)
        assert WebhookStatus.DELIVERED == view.status
        assert [500, 503, 200] == [r.answered for r in got]
        assert {idempotency_key(sub.id)} == {r.headers["Idempotency-Key"] for r in got}
        assert all(signed_by(SECRET, r.headers, r.body) for r in got)
        assert 1 == len({r.body for r in got})  # the same body on every attempt
        assert [(1, 500), (2, 503), (3, 200)] == [(a.number, a.status_code) for a in view.attempts]
        assert all(a.latency_ms >= 0 for a in view.attempts)

    def test_never_answers_ends_in_a_stored_failure_shown_by_status(
        self, redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        store = f"sqlite:///{tmp_path / 'qgs.db'}"
        settings = hook_settings(redis_url, store, tmp_path, timeout_s=0.3, max_attempts=2)
        with Receiver(HANG) as receiver, qgs_on(settings) as (qgs, _):
            task = qgs.start_task("write an article about AI", callback_url=receiver.url)
            sub = qgs.submit(task.id, ARTICLE, final=True)
            view = settled(qgs, sub.id)
            receiver.wait_for(2)
        assert WebhookStatus.FAILED == view.status
        assert [None, None] == [a.status_code for a in view.attempts]
        assert all("no answer within 0.3 s" in (a.error or "") for a in view.attempts)
        assert view.error is not None and view.error.startswith("gave up after 2 attempts")
        monkeypatch.setenv("QGS_DATABASE_URL", store)
        monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / ".qgs"))
        monkeypatch.setenv("COLUMNS", "250")
        out = CliRunner().invoke(_cli(), ["status", task.id], catch_exceptions=False).output
        assert "webhook of round 1: failed" in out and "gave up after 2 attempts" in out


class TestNotBlocking:
    """The decide job never waits for the receiver: the decision is visible while it hangs."""

    def test_decision_stored_before_the_receiver_answers(
        self, redis_url: str, tmp_path: Path
    ) -> None:
        store = f"sqlite:///{tmp_path / 'qgs.db'}"
        settings = hook_settings(redis_url, store, tmp_path, timeout_s=20.0, max_attempts=1)
        with Receiver(HANG) as receiver, qgs_on(settings) as (qgs, _):
            task = qgs.start_task("write an article about AI", callback_url=receiver.url)
            sub = qgs.submit(task.id, ARTICLE, final=True)
            receiver.wait_for(1)  # the receiver holds the webhook now, and does not answer
            held = qgs.decision(sub.id)
            pending = qgs.repo.webhook_view(sub.id)
            other = qgs.start_task("write an article about AI")
            next_decision = qgs.wait(qgs.submit(other.id, ARTICLE, final=True).id, timeout_s=30)
            still = qgs.repo.webhook_view(sub.id)
            receiver.release()
            settled(qgs, sub.id)
        assert held is not None and held.kind
        assert pending is not None and WebhookStatus.PENDING == pending.status
        assert next_decision.kind  # the workers went on deciding while the receiver hung
        assert still is not None and WebhookStatus.PENDING == still.status


class TestWebhookCap:
    """Hanging receivers take at most QGS_WEBHOOKS__CONCURRENCY threads: review jobs go on."""

    def test_an_unrelated_round_is_decided_while_the_capped_webhooks_hang(
        self, redis_url: str, tmp_path: Path
    ) -> None:
        store = f"sqlite:///{tmp_path / 'qgs.db'}"
        # Without the cap the worker's 4 threads would all hang in a POST for 60 s each.
        settings = hook_settings(
            redis_url, store, tmp_path, timeout_s=60.0, max_attempts=1, concurrency=1
        )
        with Receiver(HANG) as receiver, qgs_on(settings) as (qgs, _):
            subs = []
            for _ in range(5):
                task = qgs.start_task("write an article about AI", callback_url=receiver.url)
                subs.append(qgs.submit(task.id, ARTICLE, final=True))
            for sub in subs:
                qgs.wait(sub.id, timeout_s=30)
            receiver.wait_for(1)  # the one slot hangs in its POST now
            other = qgs.start_task("write an article about AI")
            next_decision = qgs.wait(qgs.submit(other.id, ARTICLE, final=True).id, timeout_s=30)
            in_flight = len(receiver.received)
            views = [qgs.repo.webhook_view(sub.id) for sub in subs]
            receiver.release()
            settled_views = [settled(qgs, sub.id, timeout_s=60) for sub in subs]
        assert next_decision.kind  # decided while the webhook jobs still hang
        assert 1 == in_flight  # the cap held: one POST in flight, the others waiting as ETAs
        assert all(v is not None and WebhookStatus.PENDING == v.status for v in views)
        assert all(WebhookStatus.FAILED == v.status for v in settled_views)
        assert 5 == len(receiver.received)  # each delivery made its one attempt in turn


class TestNothingLost:
    """A worker lost between the decision's commit and the listener: the sweeper sends it."""

    def test_sweeper_sends_a_webhook_the_listener_never_started(
        self, redis_url: str, tmp_path: Path
    ) -> None:
        store = f"sqlite:///{tmp_path / 'qgs.db'}"
        settings = hook_settings(redis_url, store, tmp_path)
        with Receiver(200) as receiver, qgs_on(settings) as (qgs, app):
            runtime(app).decided_listeners.clear()  # as if killed right after the commit
            task = qgs.start_task("write an article about AI", callback_url=receiver.url)
            sub = qgs.submit(task.id, ARTICLE, final=True)
            qgs.wait(sub.id, timeout_s=30)
            assert qgs.repo.webhook_view(sub.id) is None  # no delivery started
            swept = Sweeper(app, settings).sweep_once()
            [got] = receiver.wait_for(1)
            view = settled(qgs, sub.id)
        round_id = qgs.repo.get_round_by_submission(sub.id).id
        assert swept is not None and [round_id] == swept.webhooks
        assert WebhookStatus.DELIVERED == view.status
        assert idempotency_key(sub.id) == got.headers["Idempotency-Key"]


class TestRefusedAtSubmit:
    """Private and metadata callback URLs are refused at submit without the setting."""

    @pytest.mark.parametrize(
        "url",
        [
            "http://127.0.0.1:9/hook",
            "http://169.254.169.254/latest/meta-data/",
            "http://[::ffff:10.0.0.1]/",
            "http://0x7f000001/",
        ],
    )
    def test_refused(self, redis_url: str, tmp_path: Path, url: str) -> None:
        from qgs_worker.errors import CallbackUrlError
        from qgs_worker.store import OutboxRow

        store = f"sqlite:///{tmp_path / 'qgs.db'}"
        settings = hook_settings(redis_url, store, tmp_path, allow_private=False)
        client = Client(settings)
        task = client.start_task("write an article about AI")
        with pytest.raises(CallbackUrlError, match="'callback_url'"):
            client.submit(task.id, ARTICLE, callback_url=url)
        assert 0 == client.repo.count_rows(OutboxRow)
        client.repo.dispose()


def _cli() -> Any:
    from qgs_worker.cli import app

    return app


class TestPinnedAddress:
    """The POST goes to the address that was checked; the name stays in ``Host``."""

    def test_a_name_is_resolved_once_and_connected_to_as_checked(self, tmp_path: Path) -> None:
        import ipaddress

        from qgs_worker.core.models import CadencePolicy, Deliverable, GatePolicy
        from qgs_worker.queue import pipeline
        from qgs_worker.service.submission import NewTask, Submission
        from qgs_worker.store import Repository
        from tests.unit.test_pipeline_steps import ScriptedJudge

        asked: list[str] = []

        def resolve(host: str, port: int) -> list[Any]:
            asked.append(host)
            return [ipaddress.ip_address("127.0.0.1")]  # no DNS knows this name: only we do

        repo = Repository(f"sqlite:///{tmp_path / 'qgs.db'}")
        policies = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy())
        service = pipeline.service_for(repo, policies, judge=ScriptedJudge())
        with Receiver(200) as receiver:
            port = receiver.server.server_address[1]
            url = f"http://hooks.qgs-test.invalid:{port}/hook"
            ready = service.intake(
                Submission(
                    submission_id="s-1",
                    task_id="t-1",
                    final=True,
                    deliverable=Deliverable(text="score=92 the article"),
                    task=NewTask(request="write an article about AI"),
                    callback_url=url,
                )
            )
            assert ready is not None
            service.review(ready.round_id, then_decide=True)
            assert repo.start_webhook(ready.round_id)
            settings = Settings(
                database_url=repo.url,
                webhooks=WebhookSettings(secret=SECRET, allow_private=True),
            )
            done = deliver_once(repo, ready.round_id, settings, resolve=resolve)
            [got] = receiver.wait_for(1)
        repo.dispose()
        assert WebhookStatus.DELIVERED == done.status
        assert ["hooks.qgs-test.invalid"] == asked
        assert f"hooks.qgs-test.invalid:{port}" == got.headers["Host"]
        assert signed_by(SECRET, got.headers, got.body)
