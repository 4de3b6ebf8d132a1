"""Pushed decisions, pure and on an in-memory store: signature, body, key, schedule, who enqueues."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from prometheus_client import REGISTRY
from sqlmodel import Session

from qgs_worker.config.settings import JudgeSettings, Settings, WorkerSettings
from qgs_worker.config.webhook_settings import WebhookSettings
from qgs_worker.core.models import CadencePolicy, Deliverable, GatePolicy
from qgs_worker.core.webhooks import (
    APPROVAL_EVENT,
    WebhookPolicy,
    WebhookStatus,
    approval_body,
    approval_idempotency_key,
    idempotency_key,
    retry_delay_s,
    sign,
    verify_signature,
    webhook_body,
    webhook_headers,
)
from qgs_worker.errors import InputError
from qgs_worker.queue import pipeline
from qgs_worker.queue.sweeper import Actions, SweepPolicy, sweep
from qgs_worker.queue.webhook_starts import decided_listener
from qgs_worker.service.submission import NewTask, Submission, validate_message
from qgs_worker.store import Repository
from qgs_worker.store.tables import TaskRow, utcnow
from qgs_worker.store.webhooks import ApprovalWebhookRow, WebhookDeliveryRow
from qgs_worker.webhooks.delivery import deliver_once
from tests.unit.test_pipeline_steps import ScriptedJudge

POLICIES = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy())
TASK_URL = "https://task.example.com/hook"
ROUND_URL = "https://round.example.com/hook"
BODY = {
    "task_id": "t-1",
    "submission_id": "s-1",
    "round_number": 2,
    "decision": "revise",
    "score": 61,
    "must_fix": ["cite the source", "修复"],
    "reason": "score 61 is below 85",
    "termination": None,
    "decided_at": datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC),
}


class TestSignature:
    """The signature is HMAC-SHA256 over "<timestamp>.<body>", checked as a receiver would."""

    def test_a_receiver_recomputes_it_with_the_stdlib(self) -> None:
        body = webhook_body(**BODY)
        expected = hmac.new(b"k3y", b"1700000000." + body, hashlib.sha256).hexdigest()
        assert f"sha256={expected}" == sign(b"k3y", 1700000000, body)

    def test_verify_accepts_the_senders_and_refuses_the_rest(self) -> None:
        body = webhook_body(**BODY)
        good = sign(b"k3y", 1700000000, body)
        assert verify_signature(b"k3y", body, "1700000000", good, now_s=1700000100)
        assert not verify_signature(b"k3y", body + b" ", "1700000000", good)  # body changed
        assert not verify_signature(b"other", body, "1700000000", good)  # wrong secret
        assert not verify_signature(b"k3y", body, "1700000001", good)  # timestamp changed
        assert not verify_signature(b"k3y", body, "1700000000", good, now_s=1700001000)  # stale
        assert not verify_signature(b"k3y", body, "17e8", good)

    def test_headers_carry_timestamp_signature_and_key(self) -> None:
        body = webhook_body(**BODY)
        headers = webhook_headers(b"k3y", 1700000000, body, idempotency_key("s-1"))
        assert "1700000000" == headers["X-QGS-Timestamp"]
        assert sign(b"k3y", 1700000000, body) == headers["X-QGS-Signature"]
        assert idempotency_key("s-1") == headers["Idempotency-Key"]
        assert "application/json" == headers["Content-Type"]


class TestBody:
    """The body is compact JSON with sorted keys, the same bytes on every attempt."""

    def test_fields(self) -> None:
        sent = json.loads(webhook_body(**BODY))
        assert {
            "event": "qgs.decision",
            "task_id": "t-1",
            "submission_id": "s-1",
            "round": 2,
            "decision": "revise",
            "score": 61,
            "must_fix": ["cite the source", "修复"],
            "reasons": ["score 61 is below 85"],
            "termination": None,
            "decided_at": "2025-01-02T03:04:05+00:00",
            "approval_required": False,
            "awaiting_approval": False,
            "outcome": "revise",
            "delivered": False,
            "deliver_round": 2,
        } == sent

    def test_a_decision_that_waits_for_a_person_says_it_is_not_delivered(self) -> None:
        # Break test 3: the body said "force_deliver" and nothing about the person it waits for.
        body = {**BODY, "decision": "force_deliver", "best_round": 1, "approval_required": True}
        sent = json.loads(webhook_body(**body))
        assert (True, True, "awaiting_approval", False, 1) == (
            sent["approval_required"],
            sent["awaiting_approval"],
            sent["outcome"],
            sent["delivered"],
            sent["deliver_round"],
        )

    def test_the_approval_event(self) -> None:
        sent = json.loads(
            approval_body(
                task_id="t-1",
                submission_id="s-1",
                round_number=2,
                decision="force_deliver",
                approved=False,
                by="ops (via alice, key k1)",
                note="wrong host",
                approved_at=datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC),
                best_round=1,
            )
        )
        assert {
            "event": "qgs.approval",
            "task_id": "t-1",
            "submission_id": "s-1",
            "round": 2,
            "decision": "force_deliver",
            "approved": False,
            "outcome": "rejected",
            "delivered": False,
            "deliver_round": 1,
            "by": "ops (via alice, key k1)",
            "note": "wrong host",
            "approved_at": "2025-01-02T03:04:05+00:00",
        } == sent
        assert approval_idempotency_key("s-1") not in (idempotency_key("s-1"), None)

    def test_same_bytes_every_time(self) -> None:
        body = webhook_body(**BODY)
        assert body == webhook_body(**BODY)
        assert list(json.loads(body)) == sorted(json.loads(body))
        assert b" " not in body.split(b'"must_fix"')[0]  # compact separators


class TestIdempotencyKey:
    """One key per submission, the same on every attempt, safe in a header."""

    def test_stable_and_distinct(self) -> None:
        assert idempotency_key("s-1") == idempotency_key("s-1")
        assert idempotency_key("s-1") != idempotency_key("s-2")

    @pytest.mark.parametrize("sid", ["s\r\nX-Evil: 1", "ü" * 128, " "])
    def test_header_safe_whatever_the_id(self, sid: str) -> None:
        key = idempotency_key(sid)
        assert key.startswith("qgs-") and key.isascii() and key.replace("-", "").isalnum()


class TestSchedule:
    """Retries wait base * 2**(n-1), capped, with +-25% jitter."""

    def test_doubling_then_cap(self) -> None:
        policy = WebhookPolicy(max_attempts=9, backoff_base_s=2.0, backoff_max_s=10.0)
        assert [2.0, 4.0, 8.0, 10.0, 10.0] == [retry_delay_s(n, policy) for n in range(1, 6)]

    def test_jitter_bounds(self) -> None:
        policy = WebhookPolicy(backoff_base_s=4.0)
        assert 3.0 == retry_delay_s(1, policy, jitter=0.0)
        assert 5.0 > retry_delay_s(1, policy, jitter=0.999)


class TestSettings:
    """The retry policy fits the worker's limits; settings without webhooks never stop a worker."""

    def test_timeout_and_backoff_fitted_to_the_limits(self) -> None:
        settings = Settings(
            judge=JudgeSettings(timeout_s=1),
            worker=WorkerSettings(visibility_timeout_s=15, soft_time_limit_s=4, time_limit_s=5),
            webhooks=WebhookSettings(timeout_s=10, backoff_max_s=60),
        )
        w = settings.worker
        policy = settings.webhooks.policy(
            soft_time_limit_s=w.soft_time_limit_s, visibility_timeout_s=w.visibility_timeout_s
        )
        assert (4 / 3, 0.45 * 15) == (policy.timeout_s, policy.backoff_max_s)

    def test_defaults_are_kept_within_the_default_limits(self) -> None:
        w = Settings().worker
        policy = WebhookSettings().policy(
            soft_time_limit_s=w.soft_time_limit_s, visibility_timeout_s=w.visibility_timeout_s
        )
        assert WebhookPolicy(max_attempts=5, backoff_base_s=2.0, backoff_max_s=60.0) == policy


def submission(sid: str, callback_url: str | None, *, task_url: str | None = None) -> Submission:
    return Submission(
        submission_id=sid,
        task_id="t-1",
        final=True,
        deliverable=Deliverable(text="score=92 the article"),
        task=NewTask(request="write an article about AI", callback_url=task_url),
        callback_url=callback_url,
    )


class Published:
    """The listener's publish: the rounds it enqueued, in order."""

    def __init__(self) -> None:
        self.rounds: list[int] = []

    def __call__(self, round_id: int) -> None:
        self.rounds.append(round_id)


def decide(repo: Repository, sub: Submission, published: Published | None) -> int:
    """Take a round through intake and review (decided), with the listener when given one."""
    listener = decided_listener(repo, published) if published is not None else None
    service = pipeline.service_for(repo, POLICIES, judge=ScriptedJudge(), on_decided=listener)
    ready = service.intake(sub)
    assert ready is not None
    service.review(ready.round_id, then_decide=True)
    assert repo.get_decision(ready.round_id) is not None
    return ready.round_id


class TestListener:
    """The decided listener stores the delivery and enqueues it once; the round's URL wins."""

    def test_the_rounds_url_wins_over_the_tasks(self) -> None:
        repo, published = Repository("sqlite://"), Published()
        rid = decide(repo, submission("s-1", ROUND_URL, task_url=TASK_URL), published)
        assert [rid] == published.rounds
        [view] = repo.webhook_views("t-1")
        assert (ROUND_URL, WebhookStatus.PENDING, 1) == (view.url, view.status, view.round_number)
        assert idempotency_key("s-1") == view.idempotency_key

    def test_the_tasks_url_when_the_round_has_none(self) -> None:
        repo, published = Repository("sqlite://"), Published()
        decide(repo, submission("s-1", None, task_url=TASK_URL), published)
        assert [TASK_URL] == [v.url for v in repo.webhook_views("t-1")]

    def test_no_callback_no_delivery(self) -> None:
        repo, published = Repository("sqlite://"), Published()
        rid = decide(repo, submission("s-1", None), published)
        assert [] == published.rounds and [] == repo.webhook_views("t-1")
        assert not repo.start_webhook(rid)

    def test_told_twice_enqueues_once(self) -> None:
        repo, published = Repository("sqlite://"), Published()
        rid = decide(repo, submission("s-1", ROUND_URL), published)
        decided_listener(repo, published)("t-1", rid)  # at least once: told again
        assert [rid] == published.rounds and 1 == repo.count_rows(WebhookDeliveryRow)

    def test_an_undecided_round_gets_no_delivery(self) -> None:
        repo = Repository("sqlite://")
        service = pipeline.service_for(repo, POLICIES, judge=ScriptedJudge())
        ready = service.intake(submission("s-1", ROUND_URL))
        assert ready is not None and not repo.start_webhook(ready.round_id)

    def test_a_task_with_a_url_from_start_task(self) -> None:
        repo, published = Repository("sqlite://"), Published()
        with Session(repo.engine) as session:
            session.add(
                TaskRow(
                    id="t-1",
                    request="write an article about AI",
                    task_type="GENERATE",
                    complexity="COMPLEX",
                    classification_source="rules",
                    confidence=1.0,
                    callback_url=TASK_URL,
                )
            )
            session.commit()
        sub = submission("s-1", None).model_copy(update={"task": None})
        decide(repo, sub, published)
        assert [TASK_URL] == [v.url for v in repo.webhook_views("t-1")]


class Delivers:
    """Sweep actions that record what the sweeper enqueued (no other work in these tests)."""

    def __init__(self, repo: Repository) -> None:
        self.enqueued: list[int] = []
        self.actions = Actions(
            publish=lambda message: None,
            dispatch=lambda rid: None,
            claim=lambda task_id: pipeline.claim_next(repo, task_id, POLICIES),
            fail=lambda rid, why: pipeline.fail_round(repo, rid, why, POLICIES),
            deliver=self.enqueued.append,
        )


POLICY = SweepPolicy(bound_s=60.0, interval_s=1.0, max_redispatches=2)


class TestSweeper:
    """Nothing lost: a decided round whose listener was lost is found and enqueued, once."""

    def test_a_lost_listener_is_made_up_for(self) -> None:
        repo = Repository("sqlite://")
        rid = decide(repo, submission("s-1", ROUND_URL), None)  # killed before the listener
        assert [] == repo.webhook_views("t-1")
        fake = Delivers(repo)
        done = sweep(repo, POLICY, fake.actions)
        assert [rid] == fake.enqueued == done.webhooks
        assert done.anything
        assert [WebhookStatus.PENDING] == [v.status for v in repo.webhook_views("t-1")]
        sweep(repo, POLICY, fake.actions)  # the next sweep finds it stored: nothing again
        assert [rid] == fake.enqueued

    def test_a_pending_delivery_nobody_tried_is_enqueued_after_the_bound(self) -> None:
        repo, published = Repository("sqlite://"), Published()
        rid = decide(repo, submission("s-1", ROUND_URL), published)  # its job then lost
        fake = Delivers(repo)
        sweep(repo, POLICY, fake.actions)
        assert [] == fake.enqueued  # younger than the bound: it may still be queued
        later = utcnow() + timedelta(seconds=POLICY.bound_s + 5)
        sweep(repo, POLICY, fake.actions, now=later)
        assert [rid] == fake.enqueued
        sweep(repo, POLICY, fake.actions, now=later)  # touched now: not again within the bound
        assert [rid] == fake.enqueued

    def test_without_a_deliver_action_webhooks_are_not_swept(self) -> None:
        repo = Repository("sqlite://")
        decide(repo, submission("s-1", ROUND_URL), None)
        actions = Delivers(repo).actions
        bare = Actions(actions.publish, actions.dispatch, actions.claim, actions.fail)
        assert [] == sweep(repo, POLICY, bare).webhooks


class TestWorkerSideForm:
    """The worker checks a callback URL's form again (a message from anywhere)."""

    def test_a_metadata_url_in_a_message_is_refused(self) -> None:
        message = submission("s-1", None).model_dump(mode="json")
        message["callback_url"] = "http://169.254.169.254/latest/meta-data/"
        with pytest.raises(InputError, match=r"callback_url.*metadata"):
            validate_message(message, 1_000_000)

    def test_a_task_url_with_credentials_is_refused(self) -> None:
        with pytest.raises(ValueError, match="user name or password"):
            NewTask(request="x", callback_url="https://a:b@example.com/")


def hook_settings(**hooks: object) -> Settings:
    cfg: dict[str, object] = {"secret": "s3cret", "max_attempts": 3, **hooks}
    return Settings(database_url="sqlite://", webhooks=WebhookSettings(**cfg))  # type: ignore[arg-type]


def resolver(*addresses: str) -> object:
    import ipaddress

    def resolve(host: str, port: int) -> list[object]:
        if not addresses:
            raise OSError("[Errno -2] Name or service not known")
        return [ipaddress.ip_address(a) for a in addresses]

    return resolve


class TestAtDelivery:
    """The URL and the secret are checked again at each delivery, before anything is sent."""

    URL = "http://hooks.example.com:9/hook"

    def decided(self) -> tuple[Repository, int]:
        repo = Repository("sqlite://")
        rid = decide(repo, submission("s-1", self.URL), Published())
        return repo, rid

    def test_a_name_that_now_resolves_inside_fails_for_good(self) -> None:
        repo, rid = self.decided()
        done = deliver_once(repo, rid, hook_settings(), resolve=resolver("127.0.0.1"))
        [view] = repo.webhook_views("t-1")
        assert WebhookStatus.FAILED == done.status == view.status
        assert view.error is not None and "not sent" in view.error and "loopback" in view.error
        assert [None] == [a.status_code for a in view.attempts]

    def test_a_name_that_does_not_resolve_is_retried(self) -> None:
        repo, rid = self.decided()
        done = deliver_once(repo, rid, hook_settings(), resolve=resolver())
        [view] = repo.webhook_views("t-1")
        assert WebhookStatus.PENDING == done.status == view.status
        assert done.retry_in_s is not None and view.next_attempt_at is not None
        assert "does not resolve" in (view.attempts[0].error or "")

    def test_no_secret_on_the_worker_fails_unsent(self) -> None:
        repo, rid = self.decided()
        done = deliver_once(repo, rid, hook_settings(secret=""), resolve=resolver("8.8.8.8"))
        [view] = repo.webhook_views("t-1")
        assert WebhookStatus.FAILED == done.status
        assert view.error is not None and "QGS_WEBHOOKS__SECRET" in view.error

    def test_the_last_attempt_fails_the_delivery(self) -> None:
        repo, rid = self.decided()
        settings = hook_settings(max_attempts=2)
        first = deliver_once(repo, rid, settings, resolve=resolver())
        second = deliver_once(repo, rid, settings, resolve=resolver())
        third = deliver_once(repo, rid, settings, resolve=resolver())
        assert (WebhookStatus.PENDING, WebhookStatus.FAILED, None) == (
            first.status,
            second.status,
            third.status,
        )
        [view] = repo.webhook_views("t-1")
        assert [1, 2] == [a.number for a in view.attempts]
        assert view.summary().startswith("gave up after 2 attempts: ")

    def test_a_held_delivery_is_not_tried_by_a_second_copy(self) -> None:
        repo, rid = self.decided()
        assert repo.claim_webhook(rid, "first-copy", 60.0) is not None
        done = deliver_once(repo, rid, hook_settings(), resolve=resolver())
        assert done.status is None and done.attempt is None
        assert [] == list(repo.webhook_views("t-1")[0].attempts)


class TestApprovalEvent:
    """A person's approval or rejection is pushed too: stored with it, signed, its own key."""

    URL = "http://hooks.example.com:9/hook"

    def awaiting(self) -> tuple[Repository, int]:
        repo = Repository("sqlite://")
        sub = submission("s-1", self.URL).model_copy(
            update={"task": NewTask(request="delete all records in the database")}
        )
        rid = decide(repo, sub, Published())
        view = repo.decision_view("s-1")
        assert view is not None and view.awaiting_approval, view
        return repo, rid

    @pytest.mark.parametrize("reject", [False, True])
    def test_stored_with_the_approval_and_sent_once(self, reject: bool) -> None:
        from qgs_worker.service import approvals

        repo, rid = self.awaiting()
        made = approvals.approve(
            repo, "t-1", by="ops", note="ok" if not reject else "no", reject=reject
        )
        assert rid == repo.fresh_approval_webhook("t-1", 1)
        approvals.approve(repo, "t-1", by="ops", note=made.note, reject=reject)  # again: nothing
        sent: list[httpx.Request] = []

        def answer(request: httpx.Request) -> httpx.Response:
            sent.append(request)
            return httpx.Response(200)

        settings = hook_settings().model_copy(update={"worker": WorkerSettings(metrics_port=0)})
        counted = ("qgs_webhook_attempts_total", {"event": "qgs.approval", "outcome": "delivered"})
        before = REGISTRY.get_sample_value(*counted) or 0.0
        done = deliver_once(
            repo,
            rid,
            settings,
            event=APPROVAL_EVENT,
            resolve=resolver("93.184.216.34"),
            transport=httpx.MockTransport(answer),
        )
        again = deliver_once(repo, rid, settings, event=APPROVAL_EVENT, resolve=resolver())
        assert (WebhookStatus.DELIVERED, None) == (done.status, again.status)
        assert before + 1 == REGISTRY.get_sample_value(*counted)  # break test 20
        assert repo.fresh_approval_webhook("t-1", 1) is None
        [request] = sent
        body = json.loads(request.content)
        assert ("qgs.approval", not reject, "rejected" if reject else "approved") == (
            body["event"],
            body["approved"],
            body["outcome"],
        )
        assert (not reject, "ops", made.note) == (body["delivered"], body["by"], body["note"])
        assert approval_idempotency_key("s-1") == request.headers["Idempotency-Key"]
        stamp = request.headers["X-QGS-Timestamp"]
        assert verify_signature(
            b"s3cret", request.content, stamp, request.headers["X-QGS-Signature"]
        )
        hooks = repo.webhook_views("t-1")
        assert [("qgs.decision", 1), ("qgs.approval", 1)] == [
            (v.event, v.round_number) for v in hooks
        ]
        assert [200] == [a.status_code for a in hooks[1].attempts]

    def test_no_callback_no_event(self) -> None:
        from qgs_worker.service import approvals

        repo = Repository("sqlite://")
        sub = submission("s-1", None).model_copy(
            update={"task": NewTask(request="delete all records in the database")}
        )
        decide(repo, sub, Published())
        approvals.approve(repo, "t-1", by="ops")
        assert repo.fresh_approval_webhook("t-1", 1) is None
        assert 0 == repo.count_rows(ApprovalWebhookRow)

    def test_an_event_nobody_enqueued_is_swept_after_the_bound(self) -> None:
        # `qgs approve` without a broker stores the event; a worker's sweeper sends it.
        from qgs_worker.service import approvals

        repo, rid = self.awaiting()
        approvals.approve(repo, "t-1", by="ops")
        fake = Delivers(repo)
        approvals_sent: list[int] = []
        actions = Actions(
            fake.actions.publish,
            fake.actions.dispatch,
            fake.actions.claim,
            fake.actions.fail,
            deliver=fake.enqueued.append,
            deliver_approval=approvals_sent.append,
        )
        sweep(repo, POLICY, actions)
        assert [] == approvals_sent  # younger than the bound: its caller may have enqueued it
        later = utcnow() + timedelta(seconds=POLICY.bound_s + 5)
        sweep(repo, POLICY, actions, now=later)
        sweep(repo, POLICY, actions, now=later)
        assert [rid] == approvals_sent


class TestBusyWait:
    """A delivery that finds every slot taken waits longer each time, at most the POST's bound."""

    def test_doubles_up_to_the_bound(self) -> None:
        from qgs_worker.queue.webhook_job import busy_wait_s

        waits = [busy_wait_s(n, 5.0, 0.5) for n in range(6)]
        assert [1.0, 2.0, 4.0, 5.0, 5.0, 5.0] == waits

    @pytest.mark.parametrize("jitter", [0.0, 0.999])
    def test_jitter_spreads_it_by_a_quarter(self, jitter: float) -> None:
        from qgs_worker.queue.webhook_job import busy_wait_s

        assert 0.75 <= busy_wait_s(40, 8.0, jitter) / 8.0 <= 1.25

    def test_a_bound_under_a_second_still_waits_a_second(self) -> None:
        from qgs_worker.queue.webhook_job import busy_wait_s

        assert 1.0 == busy_wait_s(3, 0.2, 0.5)
