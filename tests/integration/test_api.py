"""The HTTP API on a real uvicorn server: real Redis, a real Celery worker, SQLite and PostgreSQL.

Decisions are made by the real pipeline with the loopback judge (``[[judge VERDICT SCORE]]``
markers, as test_pipeline does); a ``[[hold]]`` marker holds the judge's answer until the test
releases it, so a long-poll is in place before the decision exists (observable, no timing).
"""

from __future__ import annotations

import contextlib
import gzip
import json
import logging
import os
import re
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from jsonschema import Draft202012Validator
from sqlmodel import Session, SQLModel, select

from qgs_worker.api import Operations
from qgs_worker.api.http import create_app
from qgs_worker.client import Client
from qgs_worker.config.settings import ApiSettings
from qgs_worker.config.webhook_settings import WebhookSettings
from qgs_worker.core.webhooks import approval_idempotency_key, verify_signature
from qgs_worker.errors import (
    AuthenticationError,
    ConfigurationError,
    InputError,
    OutcomeUnknownError,
    PermissionDeniedError,
    SubmissionRefusedError,
    TaskNotFoundError,
)
from qgs_worker.store import OutboxRow, RoundRow, TaskRow
from qgs_worker.store.keys import NewKey, create_key, revoke_key, webhook_secret
from qgs_worker.webhooks.key_secrets import master_secret
from tests.fake_openai import Answer, FakeOpenAIServer
from tests.integration.api_server import serving, wait_until
from tests.integration.conftest import make_settings, running_worker
from tests.integration.test_pipeline import scripted_by_marker
from tests.webhook_receiver import Receiver

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]


JSON = {"Content-Type": "application/json"}
WEATHER = {"id": "c1", "type": "function",
           "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}  # fmt: skip
ANTHROPIC_CALL = {"type": "tool_use", "id": "t", "name": "get_weather", "input": {"city": "Oslo"}}
MCP_CALL = {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": "get_weather", "arguments": {"city": "Rome"}}}  # fmt: skip
RESPONSES_CALL = {"type": "function_call", "call_id": "r", "name": "get_weather",
                  "arguments": '{"city": "Lima"}'}  # fmt: skip


@dataclass
class Api:
    url: str
    ops: Operations
    alice: NewKey
    approver: NewKey
    bob: NewKey
    hold: threading.Event
    judge: FakeOpenAIServer

    def http(self, key: NewKey | None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {key.key}"} if key else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60)


@pytest.fixture
def api(
    redis_url: str, store_url: str, fake_judge: FakeOpenAIServer, tmp_path: Path
) -> Iterator[Api]:
    hold = threading.Event()

    def answer(request: dict[str, Any]) -> Answer:
        if "[[hold]]" in json.dumps(request):
            hold.wait(60)
        return scripted_by_marker(request)

    fake_judge.default = Answer.dynamic(answer)
    settings = make_settings(redis_url, store_url, fake_judge, tmp_path)
    # Re-read only once a minute: a wait that ends within a test was woken by a notification.
    # Webhook receivers in these tests listen on loopback.
    settings = settings.model_copy(
        update={
            "api": ApiSettings(key_cache_s=0, recheck_s=60),
            "webhooks": WebhookSettings(allow_private=True, backoff_base_s=0.1),
        }
    )
    with running_worker(settings) as app:
        ops = Operations(settings, client=Client(settings, app=app))
        keys = (
            create_key(ops.repo, "alice", master=master_secret(ops.settings)),
            create_key(ops.repo, "alice", master=master_secret(ops.settings), scopes=("approve",)),
            create_key(ops.repo, "bob", master=master_secret(ops.settings), scopes=("approve",)),
        )
        with serving(create_app(operations=ops)) as url:
            yield Api(url, ops, *keys, hold=hold, judge=fake_judge)
        hold.set()
        ops.repo.dispose()


def start(http: httpx.Client, request: str) -> str:
    response = http.post("/v1/tasks", json={"request": request, "agent": "api-test"})
    assert 201 == response.status_code, response.text
    return str(response.json()["id"])


def submit(http: httpx.Client, task_id: str, text: str, **extra: Any) -> str:
    response = http.post(f"/v1/tasks/{task_id}/rounds", json={"deliverable": text, **extra})
    assert 202 == response.status_code, response.text
    return str(response.json()["submission_id"])


def decision(http: httpx.Client, submission_id: str, wait_s: float = 30) -> dict[str, Any]:
    response = http.get(f"/v1/submissions/{submission_id}/decision", params={"wait_s": wait_s})
    assert 200 == response.status_code, response.text
    body: dict[str, Any] = response.json()
    assert body["decided"] is True and body["woken_by"] == response.headers["QGS-Woken-By"]
    return body


def assert_problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert status == response.status_code, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert {"type", "title", "status", "detail", "errors"} <= set(body)
    assert status == body["status"] and body["errors"]
    assert all({"field", "message", "fix"} == set(e) for e in body["errors"])
    return body


def count(ops: Operations, table: type[SQLModel]) -> int:
    return ops.repo.count_rows(table)


# The store does not change what this class checks (HTTP, auth, documents): SQLite only, to keep
# the suite's time; the store-dependent paths (decision kinds, long-poll, secrets) run on both.
SQLITE_ONLY = pytest.mark.parametrize("store_url", ["sqlite"], indirect=True)


class TestDecisionKinds:
    """Create task -> submit -> long-poll the decision, for each kind the gate gives."""

    def test_pass(self, api: Api) -> None:
        with api.http(api.alice) as http:
            task = start(http, "write an article about AI")
            sub = submit(http, task, "# AI\n\nA long article. [[judge PASS 92]]", final=True)
            d = decision(http, sub)["decision"]
        assert ("pass", 92, sub) == (d["kind"], d["score"], d["submission_id"])

    def test_revise(self, api: Api) -> None:
        with api.http(api.alice) as http:
            task = start(http, "write an article about AI")
            first = submit(http, task, "draft one [[judge FAIL 40]]")
            second = submit(http, task, "draft two [[judge FAIL 45]]")
            assert "continue" == decision(http, first)["decision"]["kind"]
            d = decision(http, second)["decision"]
            constraints = http.get(f"/v1/tasks/{task}/constraints").json()["constraints"]
        assert ("revise", ["fix the failing part"]) == (d["kind"], d["must_fix"])
        assert "fix the failing part" in constraints

    def test_block_on_destructive_tool_call(self, api: Api) -> None:
        call = {"id": "c1", "name": "bash", "arguments": {"command": "rm -rf / --no-preserve-root"}}
        with api.http(api.alice) as http:
            task = start(http, "what time is it")
            sub = submit(http, task, "done [[judge PASS 99]]", tool_calls=[call], final=True)
            d = decision(http, sub)["decision"]
            status = http.get(f"/v1/tasks/{task}").json()
        assert "block" == d["kind"]
        assert (True, "CRITICAL") == (status["escalated"], status["task_type"])
        assert ["block"] == [r["decision"] for r in status["rounds"]]

    def test_a_given_query_type_cannot_lower_a_critical_request(self, api: Api) -> None:
        # Break test of issue 13, finding 7: task_type=QUERY on a wire transfer passed unreviewed.
        request = "wire 50000 EUR to IBAN DE89370400440532013000"
        with api.http(api.alice) as http:
            made = http.post("/v1/tasks", json={"request": request, "task_type": "QUERY"})
            assert 201 == made.status_code, made.text
            task = made.json()["id"]
            sub = submit(http, task, "Sent. [[judge PASS 95]]", final=True)
            d = decision(http, sub)["decision"]
        assert ("CRITICAL", "REFLECT") == (made.json()["task_type"], made.json()["complexity"])
        assert "awaiting_approval" == d["kind"]

    @pytest.mark.parametrize(
        ("shape", "call", "result"),
        [
            (
                "openai",
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "bash", "arguments": json.dumps({"command": "rm -rf /"})},
                },
                {"role": "tool", "tool_call_id": "call_1", "content": "removed"},
            ),
            (
                "anthropic",
                {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "bash",
                    "input": {"command": "rm -rf /"},
                },
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_1",
                    "content": [{"type": "text", "text": "removed"}],
                },
            ),
            (
                "mcp",
                {
                    "jsonrpc": "2.0",
                    "id": 7,
                    "method": "tools/call",
                    "params": {"name": "bash", "arguments": {"command": "rm -rf /"}},
                },
                {"tool_call_id": "7", "content": "removed"},
            ),
        ],
    )
    def test_tool_calls_as_the_agents_api_wrote_them(
        self, api: Api, shape: str, call: dict[str, Any], result: dict[str, Any]
    ) -> None:
        # An agent passes on what its model returned; the detectors read the arguments.
        with api.http(api.alice) as http:
            task = start(http, "what time is it")
            sub = submit(
                http,
                task,
                "done [[judge PASS 99]]",
                tool_calls=[call],
                tool_results=[result],
                final=True,
            )
            d = decision(http, sub)["decision"]
        assert "block" == d["kind"], shape

    @SQLITE_ONLY
    def test_more_shapes_failed_tools_and_a_malformed_call_are_reviewed(self, api: Api) -> None:
        # Break test 15: each of these was a 422; a failed tool's is_error was dropped.
        calls = [
            {"type": "server_tool_use", "id": "srv_1", "name": "web_search", "input": {"q": "x"}},
            {"type": "mcp_tool_use", "id": "mcp_1", "name": "read", "server_name": "fs",
             "input": {"path": "/tmp/a"}},
            # A model's malformed arguments: kept raw, and read by the detectors.
            {"id": "call_1", "type": "function",
             "function": {"name": "bash", "arguments": '{"command": "rm -rf / --no-preserve-root"'}},
        ]  # fmt: skip
        results = [
            {"type": "tool_result", "tool_use_id": "toolu_0"},
            {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True, "content": "EACCES"},
            {"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": "gone"}],
                                                  "isError": True}},
            {"jsonrpc": "2.0", "id": 8, "error": {"code": -32000, "message": "no such tool"}},
            {"content": [{"type": "text", "text": "ok"}], "isError": False},
        ]  # fmt: skip
        with api.http(api.alice) as http:
            task = start(http, "what time is it")
            sub = submit(
                http, task, "done [[judge PASS 99]]", tool_calls=calls, tool_results=results
            )
            d = decision(http, sub)["decision"]
        stored = api.ops.repo.get_round_by_submission(sub)
        assert stored is not None and "block" == d["kind"]
        sent = json.loads(stored.tool_calls)
        assert ["web_search", "read", "bash"] == [c["name"] for c in sent]
        assert sent[2]["raw_arguments"].startswith('{"command": "rm -rf /')
        assert [
            "",
            "[tool error] EACCES",
            "[tool error] gone",
            "[tool error] no such tool",
            "ok",
        ] == [r["content"] for r in json.loads(stored.tool_results)]

    def test_needs_approval_then_approved_and_pushed(self, api: Api) -> None:
        request = {"request": "delete all records in the database", "callback_url": ""}
        with (
            Receiver(200) as receiver,
            api.http(api.alice) as http,
            api.http(api.approver) as person,
        ):
            made = http.post("/v1/tasks", json={**request, "callback_url": receiver.url})
            assert 201 == made.status_code, made.text
            task = made.json()["id"]
            sub = submit(http, task, "Deleted 10 rows after backup. [[judge PASS 95]]", final=True)
            d = decision(http, sub)["decision"]
            # Whether the round may be delivered is in the JSON, not only a Python property.
            assert ("awaiting_approval", True, True, "awaiting_approval", False) == (
                d["kind"],
                d["approval_required"],
                d["awaiting_approval"],
                d["outcome"],
                d["delivered"],
            )
            refused = http.post(f"/v1/tasks/{task}/approval", json={"decision": "approve"})
            assert_problem(refused, 403)
            ok = person.post(
                f"/v1/tasks/{task}/approval", json={"decision": "approve", "note": "checked"}
            )
            assert 200 == ok.status_code, ok.text
            after = http.get(
                f"/v1/submissions/{sub}/decision", params={"wait_s": 5, "until_approved": "true"}
            ).json()
            got = receiver.wait_for(2)  # the decision, then the approval: pushed
        # Who approved is the key that called, whatever label it gives (break test, finding 8).
        via = f"alice (via alice, key {api.approver.key_id})"
        assert (via, True, "approved") == (
            ok.json()["by"],
            ok.json()["approved"],
            ok.json()["outcome"],
        )
        d = after["decision"]
        assert (True, "approved", True, False) == (
            after["decided"],
            d["outcome"],
            d["delivered"],
            d["awaiting_approval"],
        )
        hooks = {json.loads(r.body)["event"]: r for r in got}
        decided, approved = (json.loads(hooks[e].body) for e in ("qgs.decision", "qgs.approval"))
        assert (True, "awaiting_approval", False) == (
            decided["awaiting_approval"],
            decided["outcome"],
            decided["delivered"],
        )
        assert (sub, True, "approved", True, via, "checked") == (
            approved["submission_id"],
            approved["approved"],
            approved["outcome"],
            approved["delivered"],
            approved["by"],
            approved["note"],
        )
        headers = {k.lower(): v for k, v in hooks["qgs.approval"].headers.items()}
        assert approval_idempotency_key(sub) == headers["idempotency-key"]
        assert headers["idempotency-key"] != hooks["qgs.decision"].headers["Idempotency-Key"]
        assert verify_signature(
            api.alice.webhook_secret.encode(),
            hooks["qgs.approval"].body,
            headers["x-qgs-timestamp"],
            headers["x-qgs-signature"],
        )
        wait_until(
            lambda: (
                [("qgs.decision", "delivered"), ("qgs.approval", "delivered")]
                == [
                    (w["event"], w["status"])
                    for w in api.ops.task_status(_me(api), task)["webhooks"]
                ]
            ),
            what="both webhooks stored as delivered",
        )


def _me(api: Api) -> Any:
    return api.ops.authenticate(api.alice.key)


def held_long_poll(
    api: Api, http: httpx.Client
) -> tuple[str, list[httpx.Response], threading.Thread]:
    """A submission whose judge call is held, and a long-poll on it in a thread, both in place.

    Returns the submission id, the list the poll's response will be put in, and its thread
    (``api.hold.set()`` releases the judge).
    """
    task = start(http, "write an article about AI")
    sub = submit(http, task, "[[hold]] # AI\n\nText. [[judge PASS 91]]", final=True)
    got: list[httpx.Response] = []
    poll = threading.Thread(
        target=lambda: got.append(
            http.get(f"/v1/submissions/{sub}/decision", params={"wait_s": 50})
        )
    )
    poll.start()
    # Both in place: the long-poll waits, and the critic is inside the judge call.
    wait_until(lambda: api.ops.notifier.waiting == 1, what="the long-poll")
    wait_until(lambda: len(api.judge.requests) >= 1, what="the held judge call")
    return sub, got, poll


class TestLongPoll:
    """The wait is woken by the decision's notification, not by reading the store in a loop."""

    def test_woken_by_the_notification(self, api: Api) -> None:
        with api.http(api.alice) as http:
            sub, got, poll = held_long_poll(api, http)
            assert api.ops.repo.decision_view(sub) is None
            before = api.ops.notifier.wakeups["notification"]
            api.hold.set()
            poll.join(60)
        body = got[0].json()
        assert (200, "notification", "pass") == (
            got[0].status_code,
            body["woken_by"],
            body["decision"]["kind"],
        )
        assert before + 1 == api.ops.notifier.wakeups["notification"]

    def test_pending_is_202_with_where_it_stands(self, api: Api) -> None:
        with api.http(api.alice) as http:
            task = start(http, "write an article about AI")
            sub = submit(http, task, "[[hold]] draft [[judge PASS 90]]", final=True)
            wait_until(lambda: len(api.judge.requests) >= 1, what="the held judge call")
            response = http.get(f"/v1/submissions/{sub}/decision")  # wait_s=0: read once
            api.hold.set()
            assert 202 == response.status_code
            body = response.json()
            assert (False, None) == (body["decided"], body["decision"])
            assert body["detail"]
            assert "pass" == decision(http, sub)["decision"]["kind"]

    def test_a_round_number_held_is_refused_and_a_lost_race_is_409_not_pending(
        self, api: Api
    ) -> None:
        """Break test: round 1 sent twice answered 202 twice; the second was never stored and
        its decision answered 202 "pending" on every poll."""
        with api.http(api.alice) as http:
            task = start(http, "write an article about AI")
            first = submit(http, task, "draft [[judge PASS 90]]")
            again = http.post(
                f"/v1/tasks/{task}/rounds", json={"deliverable": "other", "round_number": 1}
            )
            assert "round_number" in assert_problem(again, 422)["detail"]
            decision(http, first)  # round 1 stored and decided
            # Two submitters racing past the check: the store refuses the second at intake.
            client = api.ops.client
            lost = client.send(client.make_submission(task, "other", round_number=1))
            response = http.get(
                f"/v1/submissions/{lost.id}/decision", params={"wait_s": 30}
            )
        problem = assert_problem(response, 409)
        assert "will not be decided" in problem["detail"] and "round 1" in problem["detail"]
        # The store's client says so too (after its timeout it would be a WaitTimeoutError).
        with pytest.raises(SubmissionRefusedError, match="will not be decided"):
            client.wait(lost.id, timeout_s=30)

    def test_store_client_wait_uses_the_notification(self, api: Api) -> None:
        client = api.ops.client
        task = api.ops.start_task(api.ops.authenticate(api.alice.key), "write an article about AI")
        sub = client.submit(task.id, "[[hold]] # AI\n\nText. [[judge PASS 93]]", final=True)
        got: list[Any] = []
        waiter = threading.Thread(target=lambda: got.append(client.wait(sub.id, timeout_s=50)))
        waiter.start()
        assert client.notifier is not None
        wait_until(lambda: client.notifier is not None and client.notifier.waiting == 1)
        wait_until(lambda: len(api.judge.requests) >= 1, what="the held judge call")
        api.hold.set()
        waiter.join(60)
        assert "pass" == got[0].kind
        assert 1 == client.notifier.wakeups["notification"]


@SQLITE_ONLY
class TestAuth:
    """Every /v1 request needs a live key; a principal sees only its own tasks."""

    def test_no_key_and_a_bad_key_are_401(self, api: Api) -> None:
        with api.http(None) as anon:
            body = assert_problem(anon.post("/v1/tasks", json={"request": "hi"}), 401)
            assert "Bearer" in body["detail"]
            bad = anon.get("/v1/tasks/t-x", headers={"Authorization": "Bearer qgs_nope"})
            assert_problem(bad, 401)
            # Refused before the request is read: no key and bad JSON, an unknown query
            # parameter, a body over the limit, a bad method are all 401 (break test 16).
            for refused in (
                anon.post(
                    "/v1/tasks",
                    content=b'{"request": ',
                    headers={"Content-Type": "application/json"},
                ),
                anon.get("/v1/tasks/t-x", params={"verbose": 1}),
                anon.post("/v1/tasks", content=b"x" * 3_000_000),
                anon.delete("/v1/tasks/t-x"),
            ):
                assert_problem(refused, 401)
                assert "Bearer" == refused.headers["WWW-Authenticate"]
        assert 0 == count(api.ops, TaskRow)

    def test_revoked_key_is_401(self, api: Api) -> None:
        key = create_key(api.ops.repo, "carol", master=master_secret(api.ops.settings))
        with api.http(key) as http:
            task = start(http, "what time is it")
            revoke_key(api.ops.repo, key.key_id)
            assert_problem(http.get(f"/v1/tasks/{task}"), 401)

    def test_a_key_revoked_during_a_long_poll_gets_no_answer(self, api: Api) -> None:
        # Break test 11: the decision came ~3 s after the revoke, with a 200.
        key = create_key(api.ops.repo, "carol", master=master_secret(api.ops.settings))
        with api.http(key) as http:
            _sub, got, poll = held_long_poll(api, http)
            revoke_key(api.ops.repo, key.key_id)
            api.hold.set()
            poll.join(60)
        body = assert_problem(got[0], 401)
        assert "revoked while the request waited" in body["detail"]
        assert "pass" not in got[0].text

    def test_another_principals_task_and_submission_are_404(self, api: Api) -> None:
        with api.http(api.alice) as alice, api.http(api.bob) as bob:
            task = start(alice, "what time is it")
            sub = submit(alice, task, "It is 10:42.", final=True)
            decision(alice, sub)
            for response in (
                bob.get(f"/v1/tasks/{task}"),
                bob.get(f"/v1/tasks/{task}/constraints"),
                bob.post(f"/v1/tasks/{task}/rounds", json={"deliverable": "mine now"}),
                bob.get(f"/v1/submissions/{sub}/decision"),
                bob.post(f"/v1/tasks/{task}/approval", json={"decision": "approve"}),
                alice.get("/v1/tasks/t-unknown"),
            ):
                assert_problem(response, 404)
        assert 1 == count(api.ops, RoundRow)

    def test_a_tool_check_is_the_keys_principal(self, api: Api) -> None:
        call = {"id": "c1", "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}  # fmt: skip
        with api.http(api.bob) as bob:
            response = bob.post("/v1/tool-calls/check", json={"call": call, "tools": TOOLS})
            forged = bob.post(
                "/v1/tool-calls/check", json={"call": call, "tools": TOOLS, "principal": "alice"}
            )
        assert 200 == response.status_code and response.json()["allowed"] is True
        assert_problem(forged, 422)
        assert api.ops.client.flush_tool_log(10)
        wait_until(lambda: api.ops.repo.count_rows(_check_table()) >= 1, what="the check's log")
        with Session(api.ops.repo.engine) as session:
            principals = set(session.exec(select(_check_table().principal)))
        assert {"bob"} == principals

    def test_rate_limit_per_key_is_429(self, api: Api) -> None:
        ops = Operations(
            api.ops.settings.model_copy(
                update={"api": ApiSettings(key_cache_s=0, rate_limit_requests=2)}
            ),
            client=api.ops.client,
        )
        key = create_key(ops.repo, "dave", master=master_secret(ops.settings))
        ops.authenticate(key.key)
        ops.authenticate(key.key)
        with serving(create_app(operations=ops)) as url, httpx.Client(base_url=url) as http:
            response = http.get("/v1/tasks/t-x", headers={"Authorization": f"Bearer {key.key}"})
        assert_problem(response, 429)
        assert int(response.headers["Retry-After"]) >= 1


def _check_table() -> Any:
    from qgs_worker.store import ToolCallCheckRow

    return ToolCallCheckRow


@SQLITE_ONLY
class TestBadInput:
    """Each bad request is a problem document naming the field, and nothing is stored."""

    def test_malformed_json(self, api: Api) -> None:
        with api.http(api.alice) as http:
            response = http.post(
                "/v1/tasks", content=b'{"request": ', headers={"Content-Type": "application/json"}
            )
        body = assert_problem(response, 400)
        assert "not valid JSON" in body["detail"]
        assert 0 == count(api.ops, TaskRow)

    def test_ten_megabyte_body_is_413(self, api: Api) -> None:
        with api.http(api.alice) as http:
            task = start(http, "write an article about AI")
            big = json.dumps({"deliverable": "x" * 10_000_000})
            response = http.post(
                f"/v1/tasks/{task}/rounds",
                content=big,
                headers={"Content-Type": "application/json"},
            )
            assert_problem(response, 413)
            # Under the body limit but over the deliverable limit: 413 too, naming the field.
            over = http.post(f"/v1/tasks/{task}/rounds", json={"deliverable": "y" * 1_500_000})
            body = assert_problem(over, 413)
            # A task's request, requirements and criteria have a limit too (break test 8):
            # a 1.76 MB request took 13 s of classifier CPU.
            long_request = http.post("/v1/tasks", json={"request": "write " * 7_000})
            long_criteria = http.post(
                "/v1/tasks", json={"request": "write an article", "criteria": ["c" * 20_000] * 2}
            )
        assert "deliverable" in body["detail"]
        for response, field in ((long_request, "request"), (long_criteria, "criteria")):
            problem = assert_problem(response, 413)
            assert [field] == [e["field"] for e in problem["errors"]]
            assert "QGS_MAX_REQUEST_BYTES" in problem["detail"]
        assert (0, 0) == (count(api.ops, RoundRow), count(api.ops, OutboxRow))
        assert 1 == count(api.ops, TaskRow)

    def test_a_form_encoded_body_is_told_to_send_json(self, api: Api) -> None:
        # curl -d without a JSON header sends a form: say so, not "a valid dictionary".
        with api.http(api.alice) as http:
            response = http.post(
                "/v1/tasks",
                content=b"request=hello",
                headers={"Content-Type": "application/x-www-form-urlencoded"},
            )
        body = assert_problem(response, 400)
        assert "must be a JSON object (got application/x-www-form-urlencoded)" in body["detail"]
        assert "application/json" in body["errors"][0]["fix"]
        assert 0 == count(api.ops, TaskRow)

    def test_an_unknown_query_parameter_is_422_naming_it(self, api: Api) -> None:
        with api.http(api.alice) as http:
            task = start(http, "write an article about AI")
            sub = submit(http, task, "draft [[judge PASS 90]]")
            misspelt = http.get(f"/v1/submissions/{sub}/decision", params={"wait": 30})
            status = http.get(f"/v1/tasks/{task}", params={"verbose": 1})
        for response, name in ((misspelt, "wait"), (status, "verbose")):
            body = assert_problem(response, 422)
            assert [name] == [e["field"] for e in body["errors"]]
            assert "unknown query parameter" == body["errors"][0]["message"]

    def test_an_unreadable_tool_call_names_it_and_why(self, api: Api) -> None:
        with api.http(api.alice) as http:
            task = start(http, "write an article about AI")
            response = http.post(
                f"/v1/tasks/{task}/rounds",
                json={
                    "deliverable": "x",
                    "tool_calls": [{"function": {"arguments": "{bad"}}],
                },
            )
        body = assert_problem(response, 422)
        assert "tool_calls.0" == body["errors"][0]["field"]
        assert body["errors"][0]["message"].startswith("function.arguments: not valid JSON")
        assert (0, 0) == (count(api.ops, RoundRow), count(api.ops, OutboxRow))

    def test_a_schema_bomb_is_refused_naming_the_tool(self, api: Api) -> None:
        # Break test of issue 13: $defs that each apply the previous one twice pinned a core.
        defs: dict[str, Any] = {"d0": {"type": "string"}}
        for i in range(1, 41):
            ref = {"$ref": f"#/$defs/d{i - 1}"}
            defs[f"d{i}"] = {"allOf": [ref, ref]}
        params = {"type": "object", "$defs": defs, "properties": {"x": {"$ref": "#/$defs/d40"}}}
        tools = [{"type": "function", "function": {"name": "bomb", "parameters": params}}]
        call = {"id": "call_1", "type": "function",
                "function": {"name": "bomb", "arguments": '{"x": "a"}'}}  # fmt: skip
        with api.http(api.alice) as http:
            response = http.post("/v1/tool-calls/check", json={"call": call, "tools": tools})
            too_many = http.post(
                "/v1/tool-calls/check",
                json={"call": call, "tools": [{"type": "function", "function": {
                    "name": f"t{i}", "parameters": {"type": "object", "properties": {
                        f"p{j}": {"type": "string"} for j in range(100)}}}} for i in range(50)]},
            )  # fmt: skip
        body = assert_problem(response, 422)
        assert "tool 'bomb': parameters apply more than" in body["detail"]
        assert "more than 4,000 JSON objects" in assert_problem(too_many, 422)["detail"]

    def test_unknown_field_is_422_naming_it(self, api: Api) -> None:
        with api.http(api.alice) as http:
            response = http.post("/v1/tasks", json={"request": "hi", "finale": True})
        body = assert_problem(response, 422)
        assert ["finale"] == [e["field"] for e in body["errors"]]
        assert 0 == count(api.ops, TaskRow)

    def test_a_registered_tools_list_is_named_by_its_id(self, api: Api) -> None:
        """POST /v1/tool-sets once, then checks name it as tool_set (issue 31, item 5)."""
        call = {"id": "c1", "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}}  # fmt: skip
        bad = {**call, "function": {"name": "get_weather", "arguments": '{"town": "Oslo"}'}}
        with api.http(api.alice) as http:
            made = http.post("/v1/tool-sets", json={"tools": TOOLS})
            again = http.post("/v1/tool-sets", json={"tools": json.loads(json.dumps(TOOLS))})
            set_id = made.json()["tool_set"]
            allowed = http.post("/v1/tool-calls/check", json={"call": call, "tool_set": set_id})
            refused = http.post("/v1/tool-calls/check", json={"call": bad, "tool_set": set_id})
            both = http.post(
                "/v1/tool-calls/check", json={"call": call, "tools": TOOLS, "tool_set": set_id}
            )
            unknown = http.post("/v1/tool-calls/check", json={"call": call, "tool_set": "ab" * 16})
        assert (201, 201) == (made.status_code, again.status_code)
        assert made.json() == again.json() == {"tool_set": set_id, "tools": 1}
        assert f'"{set_id}"' == made.headers["etag"]
        assert allowed.json()["allowed"] is True
        assert refused.json()["allowed"] is False and 3 == refused.json()["stopped_at"]
        assert "not both" in assert_problem(both, 422)["detail"]
        assert "register the tools again" in assert_problem(unknown, 422)["detail"]

    def test_a_thousand_tools_are_registered_once_not_sent_with_each_check(
        self, api: Api
    ) -> None:
        """Over a check's bound (4,000 JSON objects) with each call; registered once, named."""
        tools = [
            {"type": "function", "function": {"name": f"tool_{n}", "parameters": {
                "type": "object",
                "properties": {p: {"type": "string"} for p in ("a", "b", "c", "d", "e")},
            }}}
            for n in range(1000)
        ]  # fmt: skip
        call = {"id": "c1", "type": "function",
                "function": {"name": "tool_999", "arguments": '{"a": "x"}'}}  # fmt: skip
        with api.http(api.alice) as http:
            each = http.post("/v1/tool-calls/check", json={"call": call, "tools": tools})
            made = http.post("/v1/tool-sets", json={"tools": tools})
            checked = http.post(
                "/v1/tool-calls/check", json={"call": call, "tool_set": made.json()["tool_set"]}
            )
        assert "register them once" in assert_problem(each, 422)["detail"]
        assert (201, 1000) == (made.status_code, made.json()["tools"])
        assert checked.json()["allowed"] is True

    def test_the_api_client_registers_once_and_again_on_a_server_that_forgot(
        self, api: Api
    ) -> None:
        from qgs_worker.api.tool_sets import ToolSets

        call = {"id": "c1", "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}}  # fmt: skip
        with Client(base_url=api.url, api_key=api.alice.key) as qgs:
            set_id = qgs.register_tools(TOOLS)
            assert qgs.check_tool_call(call, tool_set=set_id).allowed
            api.ops.tool_sets = ToolSets(api.ops.client.tool_gate)  # a restarted server
            assert qgs.check_tool_call(call, tool_set=set_id).allowed
            assert 1 == len(api.ops.tool_sets)
        with Client(base_url=api.url, api_key=api.bob.key) as other, pytest.raises(
            InputError, match="register the tools again"
        ):
            other.check_tool_call(call, tool_set="cd" * 16)

    def test_a_tool_call_that_is_no_call(self, api: Api) -> None:
        message = {"role": "assistant", "tool_calls": []}
        with api.http(api.alice) as http:
            not_object = http.post("/v1/tool-calls/check", json={"call": "ls -la", "tools": TOOLS})
            a_message = http.post("/v1/tool-calls/check", json={"call": message, "tools": TOOLS})
        assert ["call"] == [e["field"] for e in assert_problem(not_object, 422)["errors"]]
        assert "assistant message" in assert_problem(a_message, 422)["detail"]
        assert 0 == count(api.ops, _check_table())

    @pytest.mark.parametrize("number", [99999999999999999999, 2**40, 2**31, 0])
    def test_round_number_out_of_range_is_422_naming_it_and_the_max(
        self, api: Api, number: int
    ) -> None:
        with api.http(api.alice) as http:
            task = start(http, "write an article about AI")
            response = http.post(
                f"/v1/tasks/{task}/rounds", json={"deliverable": "text", "round_number": number}
            )
        body = assert_problem(response, 422)
        assert ["round_number"] == [e["field"] for e in body["errors"]]
        if number > 0:
            assert "2147483647" in body["detail"]
        assert (0, 0) == (count(api.ops, RoundRow), count(api.ops, OutboxRow))

    def test_the_client_refuses_a_round_number_out_of_range(self, api: Api) -> None:
        task = api.ops.client.start_task("write an article about AI")
        with pytest.raises(InputError, match=r"'round_number' must be .* 1 to 2147483647"):
            api.ops.client.submit(task.id, "text", round_number=2**40)
        assert 0 == count(api.ops, RoundRow)

    @pytest.mark.parametrize("value", ["yes", 1, "true"])
    def test_final_must_be_a_json_boolean(self, api: Api, value: object) -> None:
        with api.http(api.alice) as http:
            task = start(http, "write an article about AI")
            response = http.post(
                f"/v1/tasks/{task}/rounds", json={"deliverable": "text", "final": value}
            )
        body = assert_problem(response, 422)
        assert ["final"] == [e["field"] for e in body["errors"]]
        assert 0 == count(api.ops, RoundRow)

    def test_an_unexpected_error_is_titled_internal_error(
        self, api: Api, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        def broken(*_args: object) -> str:
            raise RuntimeError("a bug")

        monkeypatch.setattr(api.ops, "constraints", broken)
        with api.http(api.alice) as http:
            task = start(http, "write an article about AI")
            response = http.get(f"/v1/tasks/{task}/constraints")
        body = assert_problem(response, 500)
        assert ("Internal error", "urn:qgs:problem:internal") == (body["title"], body["type"])
        assert "a bug" not in response.text  # the message stays in the server log

    def test_a_check_without_tools_on_a_server_without_a_tools_file(self, api: Api) -> None:
        assert api.ops.settings.tools_file is None
        call = {
            "id": "c1",
            "type": "function",
            "function": {"name": "get_weather", "arguments": "{}"},
        }
        with api.http(api.alice) as http:
            response = http.post("/v1/tool-calls/check", json={"call": call})
        body = assert_problem(response, 422)
        assert ["tools"] == [e["field"] for e in body["errors"]]
        assert "QGS_TOOLS_FILE" in body["detail"]
        assert 0 == count(api.ops, _check_table())

    def test_wait_over_sixty_seconds(self, api: Api) -> None:
        with api.http(api.alice) as http:
            response = http.get("/v1/submissions/s-x/decision", params={"wait_s": 61})
            nan = http.get("/v1/submissions/s-x/decision", params={"wait_s": "nan"})
        assert ["wait_s"] == [e["field"] for e in assert_problem(response, 422)["errors"]]
        not_a_number = assert_problem(nan, 422)["errors"]
        assert (["wait_s"], "Input should be a finite number") == (
            [e["field"] for e in not_a_number],
            not_a_number[0]["message"],
        )

    def test_a_body_that_cannot_be_read_says_why_and_where(self, api: Api) -> None:
        # Break test 14: each was "There was an error parsing the body" with no fix.
        json_header = {"Content-Type": "application/json"}
        deep_value: Any = "x"
        for _ in range(200):
            deep_value = {"a": deep_value}
        call = {"id": "c1", "name": "bash", "arguments": deep_value}
        deep = b'{"request": ' + b"[" * 5000 + b"]" * 5000 + b"}"
        with api.http(api.alice) as http:
            nested = http.post("/v1/tasks", content=deep, headers=json_header)
            latin = http.post("/v1/tasks", content=b'{"request": "caf\xe9"}', headers=json_header)
            zipped = http.post(
                "/v1/tasks",
                content=gzip.compress(b'{"request": "hi"}'),
                headers={**json_header, "Content-Encoding": "gzip"},
            )
            empty = http.post("/v1/tasks", headers=json_header)
            task = start(http, "write an article about AI")
            nested_call = http.post(
                f"/v1/tasks/{task}/rounds", json={"deliverable": "x", "tool_calls": [call]}
            )
            surrogate = http.post(
                f"/v1/tasks/{task}/rounds",
                content=b'{"deliverable": "bad \\ud800 text"}',
                headers=json_header,
            )
        # Depth and encoding errors name the request's fields, not the client's.
        assert assert_problem(nested_call, 422)["errors"][0]["field"].startswith("tool_calls.0.")
        assert "deliverable" == assert_problem(surrogate, 422)["errors"][0]["field"]
        assert "deliverable.text" not in surrogate.text
        for response, words, fix in (
            (nested, "nested too deeply", "at most 128 levels"),
            (latin, "not UTF-8: byte 0xe9 at offset 16", "UTF-8"),
            (zipped, "'Content-Encoding: gzip'", "uncompressed"),
            (empty, "the request body is empty", "application/json"),
        ):
            body = assert_problem(response, 400)
            assert words in body["detail"], body
            assert fix in body["errors"][0]["fix"], body
        assert 1 == count(api.ops, TaskRow)

    def test_round_number_is_a_json_integer_and_a_query_boolean_true_or_false(
        self, api: Api
    ) -> None:
        # Break test 19: "1" and true were taken as round 1; until_approved=yes as true.
        with api.http(api.alice) as http:
            task = start(http, "write an article about AI")
            loose_ints = [
                http.post(f"/v1/tasks/{task}/rounds", json={"deliverable": "x", "round_number": v})
                for v in ("1", True, 1.0)
            ]
            loose_bools = [
                http.get("/v1/submissions/s-x/decision", params={"until_approved": v})
                for v in ("yes", "1", "True")
            ]
        for answer in loose_ints:
            assert ["round_number"] == [e["field"] for e in assert_problem(answer, 422)["errors"]]
        for answer in loose_bools:
            errors = assert_problem(answer, 422)["errors"]
            assert ["until_approved"] == [e["field"] for e in errors]
            assert "send true or false" == errors[0]["fix"]
        assert 0 == count(api.ops, RoundRow)

    def test_head_is_get_without_a_body_and_a_405_says_what_is_allowed(self, api: Api) -> None:
        # Break test 13: HEAD was a 405, no 405 had an Allow header, its title was "Error".
        with api.http(api.alice) as http:
            task = start(http, "write an article about AI")
            got, head = http.get(f"/v1/tasks/{task}"), http.head(f"/v1/tasks/{task}")
            health = http.head("/healthz")
            wrong = [http.put("/v1/tasks"), http.post("/healthz"), http.delete(f"/v1/tasks/{task}")]
        assert (200, b"") == (head.status_code, head.content)
        assert got.headers["content-length"] == head.headers["content-length"]
        assert (200, b"") == (health.status_code, health.content)
        allowed = []
        for response in wrong:
            body = assert_problem(response, 405)
            assert ("Method not allowed", "urn:qgs:problem:method-not-allowed") == (
                body["title"],
                body["type"],
            )
            assert response.headers["Allow"] in body["errors"][0]["fix"]
            allowed.append(response.headers["Allow"])
        assert ["POST", "GET, HEAD", "GET, HEAD"] == allowed


class _LostAnswers(httpx.HTTPTransport):
    """A real transport whose first ``lose`` answers to a POST are lost after the server acted."""

    def __init__(self, lose: int) -> None:
        super().__init__()
        self.lose = lose
        self.keys: list[str | None] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        if request.method == "POST":
            self.keys.append(request.headers.get("Idempotency-Key"))
            if self.lose > 0:
                self.lose -= 1
                response.read()
                raise httpx.ReadTimeout("the answer was lost (simulated)", request=request)
        return response


@SQLITE_ONLY
class TestIdempotency:
    """Break test 7: a retried POST makes nothing twice; an unanswered one says it may have."""

    def test_the_same_key_gets_the_same_answer_and_another_request_a_409(self, api: Api) -> None:
        key = {"Idempotency-Key": "0b7c2c1e-7d4e-4a51-9b1f-5a3c9e2f8d10"}
        with api.http(api.alice) as alice, api.http(api.bob) as bob:
            first = alice.post("/v1/tasks", json={"request": "write an article"}, headers=key)
            again = alice.post("/v1/tasks", json={"request": "write an article"}, headers=key)
            other = alice.post("/v1/tasks", json={"request": "write a poem"}, headers=key)
            bobs = bob.post("/v1/tasks", json={"request": "write an article"}, headers=key)
            task = first.json()["id"]
            rounds = [
                alice.post(
                    f"/v1/tasks/{task}/rounds",
                    json={"deliverable": "draft"},
                    headers={**key, "Idempotency-Key": "r-1"},
                )
                for _ in range(2)
            ]
            route = alice.post(f"/v1/tasks/{task}/rounds", json={"deliverable": "x"}, headers=key)
            bad = alice.post("/v1/tasks", json={"request": "x"}, headers={"Idempotency-Key": "a b"})
        assert (201, 201, 201) == (first.status_code, again.status_code, bobs.status_code)
        assert first.json() == again.json() and bobs.json()["id"] != task
        for conflict in (other, route):
            body = assert_problem(conflict, 409)
            assert ["Idempotency-Key"] == [e["field"] for e in body["errors"]]
        assert "POST /v1/tasks" in route.json()["detail"]
        assert ["Idempotency-Key"] == [e["field"] for e in assert_problem(bad, 422)["errors"]]
        assert [202, 202] == [r.status_code for r in rounds]
        assert rounds[0].json() == rounds[1].json()
        assert (2, 1) == (count(api.ops, TaskRow), count(api.ops, OutboxRow))

    def test_the_python_client_retries_with_its_key_and_says_when_the_outcome_is_unknown(
        self, api: Api
    ) -> None:
        lost = _LostAnswers(lose=1)
        qgs = Client(base_url=api.url, api_key=api.alice.key, transport=lost)
        task = qgs.start_task("write an article about AI")  # its first answer was lost
        sub = qgs.submit(task.id, "draft")
        assert 3 == len(lost.keys) and lost.keys[0] == lost.keys[1] != lost.keys[2]
        assert 1 == count(api.ops, TaskRow)
        unlucky = _LostAnswers(lose=99)  # no answer ever: not "nothing was queued"
        qgs = Client(base_url=api.url, api_key=api.alice.key, transport=unlucky, retries=1)
        with pytest.raises(OutcomeUnknownError, match="may have been queued") as info:
            qgs.submit(task.id, "second draft")
        key = info.value.idempotency_key
        assert key is not None and [key, key] == unlucky.keys
        again = Client(base_url=api.url, api_key=api.alice.key).submit(
            task.id, "second draft", idempotency_key=key
        )
        assert again.id != sub.id
        assert 2 == count(api.ops, OutboxRow)  # one a submission, whatever was retried


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
class TestIdsNoTaskHas:
    """An id no task can have is a 404 like any unknown one, not the store's error (500)."""

    def test_a_nul_or_an_overlong_id_is_404(self, api: Api) -> None:
        # Break test 10: PostgreSQL refuses NUL in text, and the API answered 500 DataError.
        with api.http(api.approver) as http:
            for response in (
                http.get("/v1/tasks/t-%00x"),
                http.get("/v1/tasks/t-%00x/constraints"),
                http.get("/v1/submissions/s-%00/decision"),
                http.post("/v1/tasks/t-%00/rounds", json={"deliverable": "x"}),
                http.post("/v1/tasks/t-%00/approval", json={"decision": "approve"}),
                http.get("/v1/tasks/" + "t" * 300),
            ):
                assert_problem(response, 404)


@SQLITE_ONLY
class TestServiceDocuments:
    """OpenAPI, health, readiness, the README's curl commands, the Python API client."""

    def test_openapi_lists_every_route(self, api: Api) -> None:
        with api.http(None) as http:
            paths = http.get("/openapi.json").json()["paths"]
            docs = http.get("/docs")
        assert {
            "/v1/tasks": {"post"},
            "/v1/tasks/{task_id}/rounds": {"post"},
            "/v1/submissions/{submission_id}/decision": {"get"},
            "/v1/tasks/{task_id}": {"get"},
            "/v1/tasks/{task_id}/constraints": {"get"},
            "/v1/tool-calls/check": {"post"},
            "/v1/tool-sets": {"post"},
            "/v1/tasks/{task_id}/approval": {"post"},
            "/v1/spot-checks": {"get", "post"},
            "/v1/spot-checks/{submission_id}": {"get"},
            "/v1/spot-checks/{submission_id}/labels": {"post"},
            "/v1/agreement": {"get"},
            "/v1/shadow": {"get", "post"},
            "/healthz": {"get"},
            "/readyz": {"get"},
        } == {path: set(methods) for path, methods in paths.items()}
        assert 200 == docs.status_code and "swagger" in docs.text.lower()

    def test_real_answers_match_the_published_schemas(self, api: Api) -> None:
        # Break test 6: the 422 was published as FastAPI's HTTPValidationError, most error
        # statuses not at all, and ToolCallIn refused the agents' shapes the server takes.
        with api.http(None) as anon:
            doc = anon.get("/openapi.json").json()
        answers: list[tuple[str, str, httpx.Response]] = []
        with api.http(api.alice) as http, api.http(api.approver) as person, api.http(None) as anon:
            made = http.post("/v1/tasks", json={"request": "write an article about AI"})
            task = made.json()["id"]
            rounds = f"/v1/tasks/{task}/rounds"
            sub = http.post(rounds, json={"deliverable": "# AI [[judge PASS 90]]", "final": True})
            decided = http.get(
                f"/v1/submissions/{sub.json()['submission_id']}/decision", params={"wait_s": 30}
            )
            key = {"Idempotency-Key": "k-1"}
            answers += [
                ("/v1/tasks", "post", made),
                ("/v1/tasks", "post", http.post("/v1/tasks", content=b"{", headers=JSON)),
                ("/v1/tasks", "post", anon.post("/v1/tasks", json={"request": "x"})),
                ("/v1/tasks", "post", http.post("/v1/tasks", json={"request": "x" * 40_000})),
                ("/v1/tasks", "post", http.post("/v1/tasks", json={"request": "x", "y": 1})),
                ("/v1/tasks", "post", http.post("/v1/tasks", json={"request": "a"}, headers=key)),
                ("/v1/tasks", "post", http.post("/v1/tasks", json={"request": "b"}, headers=key)),
                ("/v1/tasks/{task_id}/rounds", "post", sub),
                ("/v1/tasks/{task_id}/rounds", "post", http.post("/v1/tasks/t-no/rounds", json={"deliverable": "x"})),
                ("/v1/submissions/{submission_id}/decision", "get", decided),
                ("/v1/submissions/{submission_id}/decision", "get", http.get("/v1/submissions/s-no/decision")),
                ("/v1/submissions/{submission_id}/decision", "get", http.get("/v1/submissions/s-no/decision", params={"wait_s": 99})),
                ("/v1/tasks/{task_id}", "get", http.get(f"/v1/tasks/{task}")),
                ("/v1/tasks/{task_id}/constraints", "get", http.get(f"/v1/tasks/{task}/constraints")),
                ("/v1/tool-calls/check", "post", http.post("/v1/tool-calls/check", json={"call": WEATHER, "tools": TOOLS})),
                ("/v1/tool-calls/check", "post", http.post("/v1/tool-calls/check", json={"call": WEATHER})),
                ("/v1/tasks/{task_id}/approval", "post", http.post(f"/v1/tasks/{task}/approval", json={"decision": "approve"})),
                ("/v1/tasks/{task_id}/approval", "post", person.post(f"/v1/tasks/{task}/approval", json={"decision": "approve"})),
                ("/healthz", "get", anon.get("/healthz")),
                ("/readyz", "get", anon.get("/readyz")),
            ]  # fmt: skip
        seen = set()
        for path, method, response in answers:
            documented = doc["paths"][path][method]["responses"]
            status = str(response.status_code)
            assert status in documented, (path, method, status, response.text)
            media = response.headers["content-type"].split(";")[0]
            schema = documented[status]["content"][media]["schema"]
            Draft202012Validator({**schema, "components": doc["components"]}).validate(
                response.json()
            )
            seen.add(status)
        assert {"200", "201", "202", "400", "401", "403", "404", "409", "413", "422"} <= seen
        assert "HTTPValidationError" not in json.dumps(doc)
        # The shapes the round takes are the shapes it publishes.
        body = {"deliverable": "x", "tool_calls": [WEATHER, ANTHROPIC_CALL, MCP_CALL, RESPONSES_CALL],
                "tool_results": [{"role": "tool", "tool_call_id": "c1", "content": "sunny"},
                                 {"type": "tool_result", "tool_use_id": "t"}]}  # fmt: skip
        round_in = {"$ref": "#/components/schemas/RoundIn", "components": doc["components"]}
        Draft202012Validator(round_in).validate(body)

    def test_health_and_readiness(self, api: Api) -> None:
        with api.http(None) as http:
            assert {"status": "ok"} == http.get("/healthz").json()
            ready = http.get("/readyz")
        assert 200 == ready.status_code, ready.text
        assert {"store", "broker", "workers"} == set(ready.json()["checks"])

    def test_metrics_parse_with_prometheus_client(self, api: Api) -> None:
        from prometheus_client.parser import text_string_to_metric_families

        with api.http(api.alice) as http:
            task = start(http, "write an article about AI")
            http.get(f"/v1/tasks/{task}")
            http.get("/v1/tasks/t-unknown")
        with api.http(None) as http:
            http.get(f"/v1/tasks/{task}")  # 401
            got = http.get("/metrics/")
            plain = http.get("/metrics")  # what scrapers ask for: answered, not redirected
        assert 200 == got.status_code, got.text
        assert 200 == plain.status_code and "qgs_broker_up" in plain.text
        families = {f.name: f for f in text_string_to_metric_families(got.text)}
        assert "qgs_broker_up" in families  # the broker's queues, read at scrape time
        assert {s.labels.get("queue") for s in families["qgs_queue_depth"].samples} >= {
            "qgs.critic",
            "qgs.default",
        }
        # The API's own requests (break test 20): by route template, never by raw path.
        answered = {
            (s.labels["route"], s.labels["method"], s.labels["status"])
            for s in families["qgs_api_requests"].samples
        }
        assert {
            ("/v1/tasks", "POST", "201"),
            ("/v1/tasks/{task_id}", "GET", "200"),
            ("/v1/tasks/{task_id}", "GET", "404"),
            ("/v1/tasks/{task_id}", "GET", "401"),
        } <= answered
        assert not [r for r, _m, _s in answered if "t-" in r]
        refused = {s.labels["status"]: s.value for s in families["qgs_api_refused"].samples}
        assert refused["401"] >= 1
        latency = families["qgs_api_request_duration_seconds"].samples
        assert any(s.name.endswith("_count") and s.value >= 1 for s in latency)

    def test_readme_curl_script(self, api: Api) -> None:
        script = ROOT / "examples" / "api_quickstart.sh"
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        assert script.read_text(encoding="utf-8").split("set -eu\n", 1)[1].strip() in readme
        env = {**os.environ, "QGS_URL": api.url, "QGS_KEY": api.alice.key}
        done = subprocess.run(
            ["sh", str(script)], env=env, capture_output=True, text=True, timeout=120
        )
        assert 0 == done.returncode, done.stderr
        assert re.search(r"^decision: pass$", done.stdout, re.MULTILINE), done.stdout
        assert "tool call allowed: true" in done.stdout

    def test_python_api_client(self, api: Api) -> None:
        qgs = Client(base_url=api.url, api_key=api.alice.key)
        task = qgs.start_task("delete all records in the database", agent="py")
        assert "REFLECT" == task.complexity
        sub = qgs.submit(task.id, "Deleted after backup. [[judge PASS 95]]", final=True)
        assert "awaiting_approval" == qgs.wait(sub.id, timeout_s=30).kind
        with pytest.raises(PermissionDeniedError):
            qgs.approve(task.id, by="me")
        report = qgs.check_tool_call(
            {"id": "c", "type": "function", "function": {"name": "nope", "arguments": "{}"}},
            tools=TOOLS,
        )
        assert (False, 2) == (report.allowed, report.stopped_at)
        # Break test 9: both crashed with AttributeError '_gate_cache'.
        message = {"role": "assistant", "tool_calls": [
            {"id": "a", "type": "function",
             "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}},
            {"id": "b", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}},
        ]}  # fmt: skip
        reports = qgs.check_tool_calls(message, tools=TOOLS)
        assert [(True, "a"), (False, "b")] == [(r.allowed, r.call_id) for r in reports]
        with pytest.raises(ConfigurationError, match="the tool gate runs on the server"):
            qgs.tool_gate(TOOLS)
        with pytest.raises(TaskNotFoundError):
            Client(base_url=api.url, api_key=api.bob.key).constraints(task.id)
        with pytest.raises(AuthenticationError):
            Client(base_url=api.url, api_key="qgs_bad").constraints(task.id)
        approver = Client(base_url=api.url, api_key=api.approver.key)
        assert approver.approve(task.id, by="ops-lead").approved is True
        assert qgs.wait(sub.id, timeout_s=10, until_approved=True).delivered


class TestSecrets:
    """A key's secret is never in the logs, the store or the broker in clear."""

    def test_secret_not_in_logs_store_or_broker(
        self, api: Api, caplog: pytest.LogCaptureFixture, redis_url: str
    ) -> None:
        caplog.set_level(logging.DEBUG)
        secret = api.alice.key.split("_", 2)[2]  # qgs_<id>_<secret>; the secret may hold "_"
        with api.http(api.alice) as http:
            task = start(http, "write an article about AI")
            decision(http, submit(http, task, "# AI\n\nText. [[judge PASS 90]]", final=True))
            http.get("/v1/tasks/t-unknown")
        with api.http(None) as anon:
            anon.get("/v1/tasks/t-x", headers={"Authorization": f"Bearer {api.alice.key}x"})
        assert caplog.records and secret not in caplog.text
        dump = []
        with Session(api.ops.repo.engine) as session:
            for table in SQLModel.metadata.sorted_tables:
                dump.extend(str(row) for row in session.execute(select(table)))
        assert any(api.alice.key_id in row for row in dump)  # the id is stored, in clear
        assert not [row for row in dump if secret in row]
        r = redis.Redis.from_url(redis_url)
        values = []
        for name in r.scan_iter():
            kind = r.type(name)
            if kind == b"string":
                values.append(r.get(name) or b"")
            elif kind == b"list":
                values.extend(r.lrange(name, 0, -1))
            elif kind == b"hash":
                values.extend(r.hgetall(name).values())
        assert not [v for v in values if secret.encode() in v]
        assert (
            webhook_secret(api.ops.repo, "alice", master=lambda: master_secret(api.ops.settings))
            == api.approver.webhook_secret.encode()
        )


@SQLITE_ONLY
class TestUnavailable:
    """A broker that cannot be reached is a 503, and the submission is not stored."""

    def test_broker_down_is_503_nothing_stored(self, api: Api, tmp_path: Path) -> None:
        import socket

        with socket.socket() as free:
            free.bind(("127.0.0.1", 0))
            dead = f"redis://127.0.0.1:{free.getsockname()[1]}/0"
        settings = api.ops.settings.model_copy(update={"broker_url": dead, "broker_timeout_s": 1.0})
        ops = Operations(settings, client=Client(settings))
        with (
            serving(create_app(operations=ops)) as url,
            httpx.Client(
                base_url=url, headers={"Authorization": f"Bearer {api.alice.key}"}, timeout=60
            ) as http,
        ):
            task = start(http, "write an article about AI")
            response = http.post(f"/v1/tasks/{task}/rounds", json={"deliverable": "text"})
            ready = http.get("/readyz")
        body = assert_problem(response, 503)
        assert "was not queued" in body["detail"]
        # The setting, never the address; and when to retry (break test 12).
        assert "QGS_BROKER_URL" in body["detail"] and "5" == response.headers["Retry-After"]
        port = dead.rsplit(":", 1)[1].split("/")[0]
        assert "127.0.0.1" not in response.text and port not in response.text
        assert (0, 0) == (count(api.ops, RoundRow), count(api.ops, OutboxRow))
        assert_problem(ready, 503)
        assert ready.json()["checks"]["broker"]["ok"] is False


@contextlib.contextmanager
def silent_listener() -> Iterator[int]:
    """A TCP port on loopback that accepts connections and never answers (a stopped peer)."""
    import socket

    held: list[socket.socket] = []
    stop = threading.Event()
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        server.settimeout(0.1)

        def accept() -> None:
            while not stop.is_set():
                with contextlib.suppress(OSError):
                    held.append(server.accept()[0])

        thread = threading.Thread(target=accept, daemon=True)
        thread.start()
        try:
            yield server.getsockname()[1]
        finally:
            stop.set()
            thread.join(5)
            for conn in held:
                conn.close()


def free_port() -> int:
    import socket

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return int(free.getsockname()[1])


@SQLITE_ONLY
class TestStoreDown:
    """A store that fails or hangs: a 503 naming the store and its setting, never its address."""

    def test_refused_store_is_a_503_without_the_address(
        self, api: Api, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from qgs_worker.store.schema import make_engine

        port = free_port()
        dead = make_engine(f"postgresql+psycopg://qgs@127.0.0.1:{port}/secretdb")
        monkeypatch.setattr(api.ops.repo, "engine", dead)
        monkeypatch.setattr(
            api.ops.repo, "url", f"postgresql+psycopg://qgs@127.0.0.1:{port}/secretdb"
        )
        with api.http(api.alice) as http:
            response = http.get("/v1/tasks/t-anything")
        with api.http(None) as http:
            ready = http.get("/readyz")
        dead.dispose()
        body = assert_problem(response, 503)
        assert "the store (QGS_DATABASE_URL)" in body["detail"]
        assert "5" == response.headers["Retry-After"]
        assert body["errors"][0]["fix"].startswith("retry after 5 s")
        assert_problem(ready, 503)
        assert ready.json()["checks"]["store"]["ok"] is False
        for text in (response.text, ready.text):
            assert str(port) not in text and "127.0.0.1" not in text and "secretdb" not in text

    def test_readyz_keeps_its_timeout_when_the_store_never_answers(
        self, api: Api, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from qgs_worker.store.schema import make_engine

        with silent_listener() as port:
            hung = make_engine(f"postgresql+psycopg://qgs@127.0.0.1:{port}/qgs")
            monkeypatch.setattr(api.ops.repo, "engine", hung)
            with api.http(None) as http:
                ready = http.get("/readyz")  # answered while the store still holds the connection
            hung.dispose()
        assert_problem(ready, 503)
        store = ready.json()["checks"]["store"]
        assert store["ok"] is False and "did not answer" in store["detail"]
        assert "QGS_DATABASE_URL" in store["detail"]

    def test_a_ready_store_shows_no_path_or_host(self, api: Api, tmp_path: Path) -> None:
        with api.http(None) as http:
            ready = http.get("/readyz")
        assert 200 == ready.status_code, ready.text
        assert str(tmp_path) not in ready.text and "qgs.db" not in ready.text
        assert "answered" in ready.json()["checks"]["store"]["detail"]


@SQLITE_ONLY
class TestPushedDecisions:
    """A task started over the API with a callback URL gets its decision POSTed, signed with the
    webhook secret of the key that created it (shown once when the key was made)."""

    def test_signed_with_the_keys_secret(self, api: Api) -> None:
        with Receiver(200) as receiver, api.http(api.alice) as http:
            started = http.post(
                "/v1/tasks",
                json={"request": "write an article about AI", "callback_url": receiver.url},
            )
            assert 201 == started.status_code, started.text
            sid = submit(http, started.json()["id"], "score=92 An article about AI.", final=True)
            (got,) = receiver.wait_for(1)
            body = json.loads(got.body)
            assert (sid, "pass") == (body["submission_id"], body["decision"])
            # The key that created the task (alice's first) signs it, not her newer approve key.
            headers = {k.lower(): v for k, v in got.headers.items()}
            stamp, signature = headers["x-qgs-timestamp"], headers["x-qgs-signature"]
            assert verify_signature(api.alice.webhook_secret.encode(), got.body, stamp, signature)
            for other in (api.approver, api.bob):
                assert not verify_signature(
                    other.webhook_secret.encode(), got.body, stamp, signature
                )
            task_url = f"/v1/tasks/{started.json()['id']}"
            # The attempt is stored once the receiver's answer is read: wait for that state.
            wait_until(
                lambda: (
                    [w["status"] for w in http.get(task_url).json()["webhooks"]] == ["delivered"]
                ),
                what="the delivered webhook in the task's status",
            )

    def test_a_revoked_creator_key_hands_over_to_the_newest_live_key(self, api: Api) -> None:
        with Receiver(200) as receiver:
            with api.http(api.alice) as http:
                started = http.post(
                    "/v1/tasks",
                    json={"request": "write an article about AI", "callback_url": receiver.url},
                )
                assert 201 == started.status_code, started.text
            assert revoke_key(api.ops.repo, api.alice.key_id)
            with api.http(api.approver) as http:
                submit(http, started.json()["id"], "score=92 An article about AI.", final=True)
                (got,) = receiver.wait_for(1)
        headers = {k.lower(): v for k, v in got.headers.items()}
        stamp, signature = headers["x-qgs-timestamp"], headers["x-qgs-signature"]
        assert verify_signature(api.approver.webhook_secret.encode(), got.body, stamp, signature)
        assert not verify_signature(api.alice.webhook_secret.encode(), got.body, stamp, signature)

    def test_a_callback_to_the_metadata_address_is_refused(self, api: Api) -> None:
        with api.http(api.alice) as http:
            refused = http.post(
                "/v1/tasks",
                json={"request": "write an article", "callback_url": "http://169.254.169.254/x"},
            )
        problem = assert_problem(refused, 422)
        assert "callback_url" in json.dumps(problem)
        assert 0 == count(api.ops, TaskRow)
