"""A slow receiver holds a webhook POST no longer than ``QGS_WEBHOOKS__TIMEOUT_S`` in total.

Break test bt13: a receiver answering ``HTTP/1.1 200 OK ...`` a byte every 2 s held a POST
with a 5 s timeout for 488 s (httpx's timeouts bound each read), filled the webhook slots,
and was POSTed again once its lease ran out. Real receivers on loopback, a real worker.
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from qgs_worker.config.settings import Settings
from qgs_worker.config.webhook_settings import WebhookSettings
from qgs_worker.core.webhooks import WebhookStatus
from qgs_worker.store import Repository
from qgs_worker.webhooks.delivery import deliver_once, lease_s, post_webhook
from qgs_worker.webhooks.urls import resolve_callback
from tests.integration.api_server import wait_until
from tests.integration.test_webhooks import ARTICLE, SECRET, hook_settings, qgs_on, settled
from tests.webhook_receiver import HANG, Receiver, Trickler

pytestmark = pytest.mark.integration


def in_thread(call: Any, join_s: float) -> tuple[list[Any], float]:
    """Run ``call`` in a daemon thread; its result (empty: still running) and the seconds taken.

    Without the deadline the POST would run for minutes: the test fails at ``join_s``
    instead of hanging.
    """
    out: list[Any] = []
    start = time.monotonic()
    thread = threading.Thread(target=lambda: out.append(call()), daemon=True)
    thread.start()
    thread.join(join_s)
    return out, time.monotonic() - start


class TestWholePostDeadline:
    """The POST ends at the timeout however the receiver answers, and closes its connection."""

    def test_a_receiver_trickling_its_answer_is_cut_off_at_the_timeout(self) -> None:
        with Trickler(every_s=0.1) as slow:
            resolved = resolve_callback(slow.url, allow_private=True)
            out, took_s = in_thread(
                lambda: post_webhook(resolved, b"{}", {"Content-Type": "application/json"}, 1.0),
                join_s=10,
            )
            assert out, f"the POST still runs after {took_s:.1f} s (timeout 1 s)"
            wait_until(lambda: slow.closed_by_client >= 1, 10, "the connection to be closed")
        [result] = out
        assert took_s < 3.0, took_s
        assert result.status_code is None
        assert result.error is not None and result.error.startswith("no answer within 1 s")
        assert 1 == slow.requests

    def test_a_receiver_that_sends_nothing_is_cut_off_too(self) -> None:
        with Receiver(HANG) as silent:
            resolved = resolve_callback(silent.url, allow_private=True)
            out, took_s = in_thread(lambda: post_webhook(resolved, b"{}", {}, 0.5), join_s=10)
        assert out and took_s < 3.0, took_s
        assert (out[0].error or "").startswith("no answer within 0.5 s")

    def test_an_attempt_ends_well_inside_its_lease_and_is_stored_once(self, tmp_path: Path) -> None:
        from tests.unit.test_webhooks import decide, submission

        repo = Repository(f"sqlite:///{tmp_path / 'qgs.db'}")
        settings = Settings(
            database_url=repo.url,
            webhooks=WebhookSettings(secret=SECRET, allow_private=True, timeout_s=1.0),
        )
        with Trickler(every_s=0.1) as slow:
            rid = decide(repo, submission("s-1", slow.url), None)
            assert repo.start_webhook(rid)
            out, took_s = in_thread(lambda: deliver_once(repo, rid, settings), join_s=10)
            assert out, f"the attempt still runs after {took_s:.1f} s"
            again = deliver_once(repo, rid, settings)  # the retry: a second, stored attempt
        view = repo.webhook_view("s-1")
        repo.dispose()
        assert took_s < lease_s(1.0) / 2, took_s
        assert WebhookStatus.PENDING == out[0].status
        assert again.status is not None
        assert view is not None and [1, 2] == [a.number for a in view.attempts]
        assert 2 == slow.requests  # one POST per stored attempt, never one more


class TestSlowReceiversLeaveTheSlots:
    """Two slow receivers fill the webhook slots for a timeout, not for minutes."""

    def test_a_healthy_receiver_gets_its_webhook_within_seconds(
        self, redis_url: str, tmp_path: Path
    ) -> None:
        store = f"sqlite:///{tmp_path / 'qgs.db'}"
        settings = hook_settings(
            redis_url, store, tmp_path, timeout_s=1.0, max_attempts=1, concurrency=2
        )
        with (
            Trickler(every_s=0.1) as slow,
            Receiver(200) as healthy,
            qgs_on(settings) as (qgs, _),
        ):
            slow_subs = []
            for _ in range(2):
                task = qgs.start_task("write an article about AI", callback_url=slow.url)
                slow_subs.append(qgs.submit(task.id, ARTICLE, final=True))
            wait_until(lambda: slow.requests >= 2, 30, "both slow receivers to hold a slot")
            task = qgs.start_task("write an article about AI", callback_url=healthy.url)
            sub = qgs.submit(task.id, ARTICLE, final=True)
            view = settled(qgs, sub.id, timeout_s=20)  # minutes without the deadline
            slow_views = [settled(qgs, s.id, timeout_s=20) for s in slow_subs]
        assert WebhookStatus.DELIVERED == view.status
        assert [WebhookStatus.FAILED] * 2 == [v.status for v in slow_views]
        assert all("no answer within 1 s" in (v.error or "") for v in slow_views)
        assert 2 == slow.requests  # each slow delivery POSTed once (max_attempts=1)


class TestInFlightShown:
    """A POST in flight, or one whose worker died mid-POST, is not shown as "not sent yet"."""

    def test_status_says_sending_while_the_receiver_holds_it(
        self, redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from typer.testing import CliRunner

        from qgs_worker.cli import app as cli

        store = f"sqlite:///{tmp_path / 'qgs.db'}"
        settings = hook_settings(redis_url, store, tmp_path, timeout_s=20.0, max_attempts=1)
        monkeypatch.setenv("QGS_DATABASE_URL", store)
        monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / ".qgs"))
        monkeypatch.setenv("COLUMNS", "250")
        with Receiver(HANG) as receiver, qgs_on(settings) as (qgs, _):
            task = qgs.start_task("write an article about AI", callback_url=receiver.url)
            sub = qgs.submit(task.id, ARTICLE, final=True)
            receiver.wait_for(1)  # the receiver holds the POST now
            out = CliRunner().invoke(cli, ["status", task.id], catch_exceptions=False).output
            view = qgs.repo.webhook_view(sub.id)
            receiver.release()
            settled(qgs, sub.id)
        assert "not sent yet" not in out
        assert "webhook of round 1: pending — sending (attempt 1 started at" in out, out
        assert view is not None and view.attempt_started_at is not None

    def test_an_attempt_whose_worker_died_says_the_receiver_may_have_it(
        self, tmp_path: Path
    ) -> None:
        from tests.unit.test_webhooks import decide, submission

        repo = Repository(f"sqlite:///{tmp_path / 'qgs.db'}")
        rid = decide(repo, submission("s-1", "http://127.0.0.1:9/hook"), None)
        assert repo.start_webhook(rid)
        assert repo.claim_webhook(rid, "a-worker-then-killed", 60.0) is not None
        running = repo.webhook_view("s-1")
        assert repo.claim_webhook(rid, "another-worker", 0.0) is None  # still held
        repo.release_webhook(rid, "nobody")  # not its holder: changes nothing
        assert running is not None and running.attempt_held_until is not None
        after_lease = running.attempt_held_until + timedelta(seconds=1)
        dead = running.summary(now=after_lease)
        repo.dispose()
        assert running.summary().startswith("sending (attempt 1 started at ")
        assert dead.startswith("attempt 1 started at ") and "may have got it" in dead
