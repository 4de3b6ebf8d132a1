"""The HTTP API's third break test (worktree bt13): each finding's reproduction, fixed.

Runs on the ``api`` fixture of ``test_api.py`` (a real server, worker, Redis and store).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
import redis
from sqlmodel import Session, SQLModel, select
from typer.testing import CliRunner

from qgs_worker.client import Client
from qgs_worker.core.webhooks import WebhookStatus
from qgs_worker.errors import ApprovalConflictError, NotAwaitingApprovalError
from qgs_worker.webhooks.key_secrets import MASTER_FILE, master_secret
from tests.integration import test_api
from tests.integration.api_server import wait_until
from tests.integration.test_api import (
    JSON,
    SQLITE_ONLY,
    TOOLS,
    Api,
    assert_problem,
    decision,
    submit,
)
from tests.integration.test_webhooks import signed_by
from tests.webhook_receiver import Receiver

api = test_api.api  # the real server fixture (uvicorn, a Celery worker, a store)

pytestmark = pytest.mark.integration


@SQLITE_ONLY
class TestToolCheckInput:
    """A check's ``call`` and ``tools`` are refused by name, never a 500."""

    @pytest.mark.parametrize(
        ("body", "field"),
        [
            # the call's name: the report echoes it, so it could not be answered (a 500)
            (
                b'{"call": {"id": "c1", "type": "function", "function": '
                b'{"name": "get_\\ud800", "arguments": "{}"}}, "tools": TOOLS}',
                "call.function.name",
            ),
            (
                b'{"call": {"id": "c1", "type": "function", "function": '
                b'{"name": "get_weather", "arguments": "{}"}}, "tools": '
                b'[{"type": "function", "function": {"name": "get_\\udfff"}}]}',
                "tools.0.function.name",
            ),
        ],
    )
    def test_a_lone_surrogate_is_422_naming_where(self, api: Api, body: bytes, field: str) -> None:
        content = body.replace(b"TOOLS", json.dumps(TOOLS).encode())
        with api.http(api.alice) as http:
            response = http.post("/v1/tool-calls/check", content=content, headers=JSON)
            after = http.post(
                "/v1/tool-calls/check",
                json={"call": {"id": "c", "type": "function",
                               "function": {"name": "get_weather", "arguments": "{}"}},
                      "tools": TOOLS},
            )  # fmt: skip
        problem = assert_problem(response, 422)
        assert "not valid UTF-8" in problem["detail"] and f"'{field}'" in problem["detail"]
        assert 200 == after.status_code  # the connection and the server go on

    def test_a_lone_surrogate_in_a_task_is_422_naming_the_field(self, api: Api) -> None:
        """Break test: `POST /v1/tasks` answered pydantic's "unable to parse raw data"."""
        with api.http(api.alice) as http:
            response = http.post(
                "/v1/tasks", content=b'{"request": "hi \\ud800 there"}', headers=JSON
            )
        problem = assert_problem(response, 422)
        assert ["request"] == [e["field"] for e in problem["errors"]]
        assert "not valid UTF-8" in problem["detail"] and "surrogate" in problem["detail"]

    def test_tools_of_the_wrong_type_name_tools_not_the_unions_members(self, api: Api) -> None:
        call = {"id": "c", "type": "function", "function": {"name": "x", "arguments": "{}"}}
        with api.http(api.alice) as http:
            text = http.post("/v1/tool-calls/check", json={"call": call, "tools": "nope"})
            item = http.post("/v1/tool-calls/check", json={"call": call, "tools": [1]})
        assert {"tools"} == {e["field"] for e in assert_problem(text, 422)["errors"]}
        fields = {e["field"] for e in assert_problem(item, 422)["errors"]}
        assert {"tools.0", "tools"} == fields, fields


@SQLITE_ONLY
class TestApiClientErrors:
    """``Client(base_url=...)`` raises what the in-process ``Client`` raises."""

    def test_an_approval_conflict_is_approval_conflict_error(self, api: Api) -> None:
        agent = Client(base_url=api.url, api_key=api.alice.key)
        approver = Client(base_url=api.url, api_key=api.approver.key)
        task = agent.start_task("delete all records in the database")
        sub = agent.submit(task.id, "Deleted after backup. [[judge PASS 95]]", final=True)
        assert "awaiting_approval" == agent.wait(sub.id, timeout_s=30).kind
        approver.approve(task.id, by="ops", note="checked")
        for other in ({"note": "another note"}, {"note": "no", "reject": True}):
            with pytest.raises(ApprovalConflictError, match="was already approved by"):
                approver.approve(task.id, by="ops", **other)  # type: ignore[arg-type]
        assert approver.approve(task.id, by="ops", note="checked").approved  # the same: no-op
        passed = agent.start_task("write an article about AI")
        done = agent.submit(passed.id, "# AI\n\nAn article. [[judge PASS 92]]", final=True)
        agent.wait(done.id, timeout_s=30)
        with pytest.raises(NotAwaitingApprovalError, match="not awaiting approval"):
            approver.approve(passed.id, by="ops")


def redis_values(redis_url: str) -> list[bytes]:
    """Every value in the test's Redis db (strings, lists, hashes, sets, sorted sets)."""
    r = redis.Redis.from_url(redis_url)
    values: list[bytes] = []
    for name in r.scan_iter():
        values.append(name)
        kind = r.type(name)
        if kind == b"string":
            values.append(r.get(name) or b"")
        elif kind == b"list":
            values.extend(r.lrange(name, 0, -1))
        elif kind == b"hash":
            for k, v in r.hgetall(name).items():
                values.extend((k, v))
        elif kind == b"set":
            values.extend(r.smembers(name))
        elif kind == b"zset":
            values.extend(r.zrange(name, 0, -1))
    r.close()
    return values


def delivered(api: Api, submission_id: str) -> bool:
    view = api.ops.repo.webhook_view(submission_id)
    return view is not None and WebhookStatus.DELIVERED == view.status


class TestWebhookSecretsNotStored:
    """A key's webhook secret signs its tasks' webhooks and is in no store, log or Redis."""

    def test_signed_with_the_derived_secret_found_nowhere(
        self, api: Api, caplog: pytest.LogCaptureFixture, redis_url: str
    ) -> None:
        caplog.set_level(logging.DEBUG)
        with Receiver(200) as receiver, api.http(api.alice) as http:
            made = http.post(
                "/v1/tasks",
                json={"request": "write an article about AI", "callback_url": receiver.url},
            )
            assert 201 == made.status_code, made.text
            sub = submit(http, made.json()["id"], "# AI\n\nText. [[judge PASS 92]]", final=True)
            decision(http, sub)
            [got] = receiver.wait_for(1)
            wait_until(lambda: delivered(api, sub), what="the webhook stored as delivered")
        assert signed_by(api.alice.webhook_secret, got.headers, got.body)
        master = master_secret(api.ops.settings).decode()
        hidden = {
            "alice's webhook secret": api.alice.webhook_secret[6:],
            "bob's webhook secret": api.bob.webhook_secret[6:],
            "the master secret": master,
            "alice's key": api.alice.key.split("_", 2)[2],  # qgs_<id>_<secret>; the secret may hold "_"
        }
        dump = []
        with Session(api.ops.repo.engine) as session:
            for table in SQLModel.metadata.sorted_tables:
                dump.extend(str(row) for row in session.execute(select(table)))
        stored = "\n".join(dump)
        assert api.alice.key_id in stored  # the id is stored, in clear
        broker = b"\n".join(redis_values(redis_url))
        assert caplog.records
        for what, secret in hidden.items():
            assert secret not in stored, f"{what} is in the store"
            assert secret.encode() not in broker, f"{what} is in Redis"
            assert secret not in caplog.text, f"{what} is in the logs"
        master_file = api.ops.settings.data_dir / MASTER_FILE
        assert 0o600 == master_file.stat().st_mode & 0o777

    def test_qgs_keys_create_shows_a_secret_the_worker_derives_again(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from qgs_worker.cli import app
        from qgs_worker.store import Repository
        from qgs_worker.store.keys import webhook_secret
        from qgs_worker.webhooks import key_secrets
        from qgs_worker.webhooks.urls import webhook_secret_for

        store = f"sqlite:///{tmp_path / 'qgs.db'}"
        monkeypatch.setenv("QGS_DATABASE_URL", store)
        monkeypatch.setenv("QGS_DATA_DIR", str(tmp_path / "data"))
        monkeypatch.setenv("COLUMNS", "250")
        out = CliRunner().invoke(app, ["keys", "create", "--principal", "carol"])
        assert 0 == out.exit_code, out.output
        shown = out.output.split("webhook secret:", 1)[1].split()[0]
        key_id = out.output.split("key id:", 1)[1].split()[0]
        repo = Repository(store)
        try:
            with Session(repo.engine) as session:
                rows = "\n".join(
                    str(r) for r in session.execute(select(SQLModel.metadata.tables["api_key"]))
                )
            assert key_id in rows and shown[6:] not in rows
            key_secrets._cache.clear()  # a worker process: reads the data folder's master again
            from qgs_worker.config.settings import Settings

            settings = Settings()
            signs = webhook_secret_for(None, settings, principal="carol", store=repo)
            assert shown.encode() == signs
            with pytest.raises(Exception, match="QGS_WEBHOOKS__MASTER_SECRET"):
                webhook_secret(repo, "carol", master=lambda: b"another machine's master")
        finally:
            repo.dispose()


OPENAI_BASH = {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": "{}"}}
SHAPED_CALLS = [
    OPENAI_BASH,
    {"type": "tool_use", "id": "t1", "name": "get_weather", "input": {"city": "Oslo"}},
    {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
     "params": {"name": "get_weather", "arguments": {"city": "Rome"}}},
]  # fmt: skip


@SQLITE_ONLY
class TestClientToolCallShapes:
    """``Client.submit(tool_calls=[...])`` reads the shapes the rounds endpoint reads."""

    @pytest.mark.parametrize("remote", [False, True], ids=["in-process", "base_url"])
    def test_openai_anthropic_and_mcp_calls_are_read(self, api: Api, remote: bool) -> None:
        qgs = Client(base_url=api.url, api_key=api.alice.key) if remote else api.ops.client
        task = qgs.start_task("write an article about AI")
        sub = qgs.submit(task.id, "# AI\n\nText. [[judge PASS 92]]", tool_calls=SHAPED_CALLS)
        qgs.wait(sub.id, timeout_s=30)
        stored = json.loads(api.ops.repo.get_round_by_submission(sub.id).tool_calls)
        calls = [(c["id"], c["name"], c["arguments"]) for c in stored]
        assert [
            ("c1", "bash", {}),
            ("t1", "get_weather", {"city": "Oslo"}),
            ("7", "get_weather", {"city": "Rome"}),
        ] == calls

    @pytest.mark.parametrize("remote", [False, True], ids=["in-process", "base_url"])
    @pytest.mark.parametrize(
        ("calls", "field"),
        [
            ([{"id": "c1", "type": "function", "function": {"arguments": "{}"}}], "tool_calls.0"),
            ([OPENAI_BASH, 42], "tool_calls.1"),
            (OPENAI_BASH, "tool_calls"),  # one call, not a list of them
        ],
    )
    def test_a_bad_call_is_an_input_error_naming_it(
        self, api: Api, remote: bool, calls: object, field: str
    ) -> None:
        from qgs_worker.errors import InputError

        qgs = Client(base_url=api.url, api_key=api.alice.key) if remote else api.ops.client
        task = qgs.start_task("write an article about AI")
        with pytest.raises(InputError, match=rf"'{field}'.*OpenAI tool_calls item"):
            qgs.submit(task.id, "text", tool_calls=calls)  # type: ignore[arg-type]


class TestWebhookInFlight:
    """The API shows a webhook whose POST is in flight as sending, not "not sent yet"."""

    @SQLITE_ONLY
    def test_the_task_says_sending_while_the_receiver_holds_it(self, api: Api) -> None:
        from tests.webhook_receiver import HANG

        with Receiver(HANG) as receiver, api.http(api.alice) as http:
            made = http.post(
                "/v1/tasks",
                json={"request": "write an article about AI", "callback_url": receiver.url},
            )
            task = made.json()["id"]
            submit(http, task, "# AI\n\nText. [[judge PASS 92]]", final=True)
            receiver.wait_for(1)  # the POST is in flight (the receiver answers nothing)
            shown = http.get(f"/v1/tasks/{task}").json()
            receiver.release()
        [hook] = shown["webhooks"]
        assert "pending" == hook["status"]
        assert hook["summary"].startswith("sending (attempt 1 started at "), hook["summary"]
        assert hook["attempt_started_at"] and hook["attempt_held_until"]


@SQLITE_ONLY
class TestOfflineDocs:
    """``/docs`` and ``/redoc`` load every file from the server itself: they work offline."""

    @pytest.mark.parametrize("page", ["/docs", "/redoc"])
    def test_no_external_host_and_every_asset_served(self, api: Api, page: str) -> None:
        import re

        with api.http(None) as http:
            html = http.get(page)
            refs = re.findall(r"""(?:src|href)\s*=\s*['"]([^'"]+)['"]""", html.text)
            refs += re.findall(r"""(?:url|Url)\s*:\s*['"]([^'"]+)['"]""", html.text)
            assets = {ref: http.get(ref) for ref in refs if ref.startswith("/")}
        assert 200 == html.status_code
        assert not re.search(r"https?://", html.text), re.findall(r"https?://[^\s'\"]+", html.text)
        assert refs and all(ref.startswith("/") for ref in refs), refs
        assert {200} == {r.status_code for r in assets.values()}, assets
        assert all(r.content for r in assets.values())
        assert any(ref.endswith(".js") for ref in refs)


def dead_broker_ops(api: Api, **api_settings: object) -> test_api.Operations:
    """Operations whose broker (and the rate limit's Redis) refuses connections."""
    import socket

    from qgs_worker.config.settings import ApiSettings

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        dead = f"redis://127.0.0.1:{free.getsockname()[1]}/0"
    settings = api.ops.settings.model_copy(
        update={
            "broker_url": dead,
            "broker_timeout_s": 1.0,
            "api": ApiSettings(key_cache_s=0, **api_settings),  # type: ignore[arg-type]
        }
    )
    return test_api.Operations(settings, client=Client(settings))


@SQLITE_ONLY
class TestSmallOnes:
    """A huge id is cut in its 404; /readyz's 503 says when to retry; a lost Redis is logged."""

    @pytest.mark.parametrize("path", ["/v1/tasks/{}", "/v1/submissions/{}/decision"])
    def test_a_5000_character_id_is_cut_in_the_404(self, api: Api, path: str) -> None:
        ident = "x" * 5_000
        with api.http(api.alice) as http:
            response = http.get(path.format(ident))
        problem = assert_problem(response, 404)
        assert ident[:200] not in response.text
        assert "5,000 characters" in problem["detail"]
        assert len(response.content) < 2_000, len(response.content)

    def test_readyz_503_has_retry_after(self, api: Api) -> None:
        import httpx

        from qgs_worker.api.http import create_app
        from tests.integration.api_server import serving

        ops = dead_broker_ops(api)
        with serving(create_app(operations=ops)) as url, httpx.Client(base_url=url) as http:
            ready = http.get("/readyz")
        body = assert_problem(ready, 503)
        assert "5" == ready.headers["Retry-After"] and 5 == body["retry_after_s"]

    def test_a_lost_rate_limit_redis_limits_per_process_and_warns_once(
        self, api: Api, caplog: pytest.LogCaptureFixture
    ) -> None:
        from qgs_worker.errors import RateLimitedError

        ops = dead_broker_ops(api, rate_limit_requests=3)
        caplog.set_level(logging.WARNING, logger="qgs_worker.api.access")
        for _ in range(3):
            ops.authenticate(api.alice.key)
        with pytest.raises(RateLimitedError):
            ops.authenticate(api.alice.key)  # still limited: in this process
        ops.close()
        warned = [r for r in caplog.records if r.name == "qgs_worker.api.access"]
        assert 1 == len(warned), [r.getMessage() for r in warned]
        assert "limited in this process only" in warned[0].getMessage()
