"""Callback URLs read once, as the delivery reads them; a delivery that can never succeed ends.

Issue 31, item 2: ``http://0177.0.0.1:30619/a`` (or full-width digits) was accepted with 202,
then every delivery crashed inside httpx (``InvalidURL``), the webhook stayed "pending: not sent
yet" and the sweeper enqueued it again on every sweep.
"""

from __future__ import annotations

import ipaddress
import json
from datetime import timedelta

import httpx
import pytest
from sqlalchemy import update
from sqlmodel import Session, select

from qgs_worker.client import Client
from qgs_worker.config.settings import Settings
from qgs_worker.config.webhook_settings import WebhookSettings
from qgs_worker.core.webhooks import WebhookStatus
from qgs_worker.errors import CallbackUrlError
from qgs_worker.queue.sweeper import sweep
from qgs_worker.reports.report import task_report
from qgs_worker.store import OutboxRow, Repository
from qgs_worker.store.tables import utcnow
from qgs_worker.store.webhooks import WebhookDeliveryRow
from qgs_worker.webhooks import check_callback
from qgs_worker.webhooks.delivery import deliver_once
from tests.unit.test_webhooks import POLICY, Delivers, Published, decide, submission

PUBLIC = "93.184.216.34"

# (as given, as kept and sent): the forms the README says are read, and the usual spellings.
FORMS = [
    ("http://0177.0.0.1:30619/a", "http://127.0.0.1:30619/a"),  # octal
    ("http://２７.0.0.1/a", "http://27.0.0.1/a"),  # full-width digits
    ("http://１２７。０。０。１:8080/h", "http://127.0.0.1:8080/h"),  # full-width, ideographic dots
    ("http://127.1/a", "http://127.0.0.1/a"),  # short
    ("http://0x7f000001/a", "http://127.0.0.1/a"),  # hex
    ("http://2130706433/a", "http://127.0.0.1/a"),  # decimal
    ("HTTP://Hooks.EXAMPLE.com:80/a?x=1#frag", "http://hooks.example.com/a?x=1"),
    ("https://hooks.example.com:8443/a", "https://hooks.example.com:8443/a"),
    ("https://例え.jp/hook", "https://xn--r8jz45g.jp/hook"),  # IDNA, as httpx sends it
    ("http://hooks.example.com", "http://hooks.example.com/"),
]


def settings(**hooks: object) -> Settings:
    cfg: dict[str, object] = {"secret": "s3cret", "allow_private": True, **hooks}
    return Settings(database_url="sqlite://", webhooks=WebhookSettings(**cfg))  # type: ignore[arg-type]


def public(host: str, port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    return [ipaddress.ip_address(PUBLIC)]


class TestReadOnce:
    """The URL is kept in the one form the delivery's HTTP client sends to."""

    @pytest.mark.parametrize(("given", "kept"), FORMS)
    def test_normalised_into_what_httpx_sends(self, given: str, kept: str) -> None:
        got = check_callback(given, settings(), resolve=public)
        assert kept == got
        assert kept == str(httpx.URL(got))  # httpx reads it back unchanged

    def test_a_host_httpx_cannot_send_to_is_refused_naming_the_field_and_the_form(self) -> None:
        with pytest.raises(CallbackUrlError, match=r"^'callback_url' .*cannot be sent.*xn--"):
            check_callback("http://☃.example/hook", settings(), resolve=public)

    def test_the_client_stores_the_kept_form(self, tmp_path: object) -> None:
        qgs = Client(settings(), app=_App())
        task = qgs.start_task("write an article about AI", callback_url="http://0177.0.0.1:9/t")
        qgs.submit(task.id, "the article", callback_url="http://１２７.0.0.1:9/r")
        with Session(qgs.repo.engine) as session:
            [row] = session.exec(select(OutboxRow)).all()
        assert "http://127.0.0.1:9/r" == json.loads(row.payload)["callback_url"]
        assert "http://127.0.0.1:9/t" == qgs.repo.get_task(task.id).callback_url


class _App:
    """A Celery app stand-in that takes every message (nothing runs)."""

    def send_task(self, *args: object, **kwargs: object) -> None:
        pass


def stored_with(url: str) -> tuple[Repository, int]:
    """A decided round whose delivery row holds ``url`` as an older QGS stored it."""
    repo = Repository("sqlite://")
    rid = decide(repo, submission("s-1", "https://hooks.example.com/hook"), Published())
    with repo.engine.begin() as conn:
        conn.execute(update(WebhookDeliveryRow.__table__).values(url=url))  # type: ignore[attr-defined]
    return repo, rid


class TestAtDelivery:
    """A stored URL is read the same way; one that can never be sent fails at once, for good."""

    def test_an_octal_url_stored_before_is_delivered_to_its_address(self) -> None:
        repo, rid = stored_with("http://0177.0.0.1:30619/a")
        seen: list[httpx.Request] = []

        def receiver(request: httpx.Request) -> httpx.Response:
            seen.append(request)
            return httpx.Response(200)

        done = deliver_once(repo, rid, settings(), transport=httpx.MockTransport(receiver))
        assert WebhookStatus.DELIVERED == done.status
        assert [("127.0.0.1", 30619, "127.0.0.1:30619")] == [
            (r.url.host, r.url.port, r.headers["host"]) for r in seen
        ]

    @pytest.mark.parametrize(
        ("url", "why"),
        [
            ("http://☃.example/hook", "cannot be sent"),  # httpx cannot send to it
            ("http://10.1.2.3/hook", "private address"),  # forbidden where private ones are
        ],
    )
    def test_one_that_can_never_succeed_fails_at_once_and_is_never_swept(
        self, url: str, why: str
    ) -> None:
        repo, rid = stored_with(url)
        hooks = settings(allow_private=why != "private address", max_attempts=5)
        done = deliver_once(repo, rid, hooks, resolve=public)
        assert WebhookStatus.FAILED == done.status and done.retry_in_s is None
        [hook] = task_report(repo, "t-1")["webhooks"]  # qgs status and GET /v1/tasks/{id}
        assert "failed" == hook["status"]
        assert hook["summary"].startswith("not sent: ") and why in hook["summary"]
        fake = Delivers(repo)
        later = utcnow() + timedelta(seconds=POLICY.bound_s * 10)
        sweep(repo, POLICY, fake.actions, now=later)
        assert [] == fake.enqueued
        assert deliver_once(repo, rid, hooks, resolve=public).status is None  # nothing to try
        assert 1 == len(repo.webhook_views("t-1")[0].attempts)

    def test_a_5xx_is_retried_as_before(self) -> None:
        repo, rid = stored_with("http://0177.0.0.1:30619/a")
        transport = httpx.MockTransport(lambda request: httpx.Response(503))
        done = deliver_once(repo, rid, settings(), transport=transport)
        assert WebhookStatus.PENDING == done.status and done.retry_in_s is not None
