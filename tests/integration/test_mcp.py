"""The MCP server (``qgs mcp``) with the SDK's own client: stdio and streamable HTTP.

The stdio server is the real command (``python -m qgs_worker.cli mcp``) in a subprocess, on the
same Redis and SQLite store as a real Celery worker in this process; decisions come from the
real pipeline with the loopback judge (``[[judge VERDICT SCORE]]`` markers).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from qgs_worker.api import Operations
from qgs_worker.api.mcp_server import create_http_app
from qgs_worker.client import Client
from qgs_worker.config.settings import ApiSettings, Settings
from qgs_worker.store import TaskRow
from qgs_worker.store.keys import NewKey, create_key
from qgs_worker.webhooks.key_secrets import master_secret
from tests.fake_openai import Answer, FakeOpenAIServer
from tests.integration.api_server import serving
from tests.integration.conftest import make_settings, running_worker
from tests.integration.test_pipeline import scripted_by_marker

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
WEATHER_CALL = {"id": "c1", "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}  # fmt: skip
ARTICLE = "# AI\n\nText. [[judge PASS 92]]"
TOOL_NAMES = {
    "start_task", "submit_round", "get_decision", "get_constraints", "check_tool_call",
    "register_tools", "request_spot_check", "list_spot_checks", "get_spot_check",
    "label_spot_check", "get_agreement",
}  # fmt: skip


@dataclass
class Mcp:
    settings: Settings
    ops: Operations
    key: NewKey
    tmp_path: Path

    def env(self, key: str | None) -> dict[str, str]:
        """The stdio server's environment: this test's broker and store, and the key."""
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith("QGS_") or k == "QGS_TEST_REDIS_DB"
        }
        env |= {
            "PYTHONPATH": str(ROOT),
            "QGS_BROKER_URL": self.settings.broker_url or "",
            "QGS_DATABASE_URL": self.settings.resolved_database_url,
            "QGS_DATA_DIR": str(self.settings.data_dir),
        }
        if key is not None:
            env["QGS_API_KEY"] = key
        return env


@pytest.fixture
def mcp_env(redis_url: str, fake_judge: FakeOpenAIServer, tmp_path: Path) -> Iterator[Mcp]:
    fake_judge.default = Answer.dynamic(scripted_by_marker)
    store = f"sqlite:///{tmp_path / 'qgs.db'}"
    settings = make_settings(redis_url, store, fake_judge, tmp_path)
    settings = settings.model_copy(update={"api": ApiSettings(key_cache_s=0, recheck_s=60)})
    with running_worker(settings) as app:
        ops = Operations(settings, client=Client(settings, app=app))
        yield Mcp(
            settings,
            ops,
            create_key(ops.repo, "alice", master=master_secret(ops.settings)),
            tmp_path,
        )
        ops.close()
        ops.repo.dispose()


def stdio_session(mcp: Mcp, steps: Any) -> Any:
    """Run ``steps(session)`` in an MCP client session over stdio with ``qgs mcp``."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "qgs_worker.cli", "mcp"],
        env=mcp.env(mcp.key.key),
        cwd=str(ROOT),
    )

    async def run() -> Any:
        with (mcp.tmp_path / "mcp-stderr.log").open("w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                return await steps(session)

    return asyncio.run(asyncio.wait_for(run(), timeout=120))


def structured(result: Any) -> dict[str, Any]:
    assert result.is_error is False, result.content
    body: dict[str, Any] = result.structured_content
    assert body is not None
    return body


def tool_error(result: Any) -> dict[str, Any]:
    """The problem document of a tool error (and its text names title, detail and fix)."""
    assert result.is_error is True
    body: dict[str, Any] = result.structured_content
    assert {"type", "title", "status", "detail", "errors"} <= set(body)
    text = result.content[0].text
    assert body["title"] in text and body["detail"] in text
    return body


class TestStdio:
    """The SDK's client over stdio: tools listed, a decision, a tool-call report."""

    def test_lists_tools_with_closed_schemas(self, mcp_env: Mcp) -> None:
        async def steps(session: Any) -> Any:
            return await session.list_tools()

        tools = stdio_session(mcp_env, steps).tools
        assert TOOL_NAMES == {t.name for t in tools}
        assert all(t.input_schema.get("additionalProperties") is False for t in tools)
        wait = next(t for t in tools if t.name == "get_decision").input_schema
        assert 60 == wait["properties"]["wait_s"]["maximum"]

    def test_start_submit_wait_decision_and_tool_report(self, mcp_env: Mcp) -> None:
        async def steps(session: Any) -> Any:
            task = structured(
                await session.call_tool(
                    "start_task", {"request": "write an article about AI", "agent": "mcp-test"}
                )
            )
            constraints = structured(
                await session.call_tool("get_constraints", {"task_id": task["id"]})
            )
            sub = structured(
                await session.call_tool(
                    "submit_round",
                    {"task_id": task["id"], "deliverable": ARTICLE, "final": True},
                )
            )
            decided = structured(
                await session.call_tool(
                    "get_decision", {"submission_id": sub["submission_id"], "wait_s": 30}
                )
            )
            report = await session.call_tool(
                "check_tool_call", {"call": WEATHER_CALL, "tools": TOOLS}
            )
            return task, constraints, sub, decided, report

        task, constraints, sub, decided, report = stdio_session(mcp_env, steps)
        assert ("GENERATE", "COMPLEX") == (task["task_type"], task["complexity"])
        assert constraints["constraints"]
        assert task["id"] == sub["task_id"]
        assert (True, "pass", 92) == (
            decided["decided"],
            decided["decision"]["kind"],
            decided["decision"]["score"],
        )
        body = structured(report)
        assert (True, 6) == (body["allowed"], len(body["layers"]))
        assert body == json.loads(report.content[0].text)
        row = mcp_env.ops.repo.find_task(task["id"])
        assert row is not None and "alice" == row.principal

    def test_a_registered_tools_list_is_named_by_its_id(self, mcp_env: Mcp) -> None:
        """register_tools once, then check_tool_call with tool_set (issue 31, item 5)."""

        async def steps(session: Any) -> Any:
            first = structured(await session.call_tool("register_tools", {"tools": TOOLS}))
            again = structured(await session.call_tool("register_tools", {"tools": TOOLS}))
            report = structured(
                await session.call_tool(
                    "check_tool_call", {"call": WEATHER_CALL, "tool_set": first["tool_set"]}
                )
            )
            unknown = await session.call_tool(
                "check_tool_call", {"call": WEATHER_CALL, "tool_set": "0" * 32}
            )
            return first, again, report, unknown

        first, again, report, unknown = stdio_session(mcp_env, steps)
        assert first == again and 1 == first["tools"] and 32 == len(first["tool_set"])
        assert (True, 6) == (report["allowed"], len(report["layers"]))
        assert "register the tools again" in tool_error(unknown)["detail"]

    def test_unknown_argument_and_no_call_are_tool_errors(self, mcp_env: Mcp) -> None:
        async def steps(session: Any) -> Any:
            return (
                await session.call_tool("start_task", {"request": "hi", "finale": True}),
                await session.call_tool("check_tool_call", {"call": "ls -la", "tools": TOOLS}),
                await session.call_tool(
                    "check_tool_call",
                    {"call": {"role": "assistant", "tool_calls": []}, "tools": TOOLS},
                ),
                await session.call_tool("get_decision", {"submission_id": "s-x", "wait_s": 61}),
                await session.call_tool("get_constraints", {"task_id": "t-unknown"}),
                await session.call_tool(
                    "submit_round",
                    {"task_id": "t-unknown", "deliverable": "x", "round_number": 2**40},
                ),
                await session.call_tool("start_task", {"request": "write " * 7_000}),
            )

        unknown, not_object, a_message, too_long, not_found, huge, big = stdio_session(
            mcp_env, steps
        )
        big_request = tool_error(big)  # break test 8: stdio took a 3 MB request
        assert (413, ["request"]) == (
            big_request["status"],
            [e["field"] for e in big_request["errors"]],
        )
        assert ["finale"] == [e["field"] for e in tool_error(unknown)["errors"]]
        assert ["call"] == [e["field"] for e in tool_error(not_object)["errors"]]
        message = tool_error(a_message)
        assert (422, True) == (message["status"], "assistant message" in message["detail"])
        assert ["wait_s"] == [e["field"] for e in tool_error(too_long)["errors"]]
        assert 404 == tool_error(not_found)["status"]
        huge_round = tool_error(huge)
        assert ["round_number"] == [e["field"] for e in huge_round["errors"]]
        assert (422, True) == (huge_round["status"], "2147483647" in huge_round["detail"])
        assert 0 == mcp_env.ops.repo.count_rows(TaskRow)

    @pytest.mark.parametrize("key", [None, "qgs_bad_key", "revoked"])
    def test_a_missing_bad_or_revoked_key_refuses_to_start(self, mcp_env: Mcp, key: str) -> None:
        if key == "revoked":
            from qgs_worker.store.keys import revoke_key

            made = create_key(mcp_env.ops.repo, "carol", master=master_secret(mcp_env.ops.settings))
            revoke_key(mcp_env.ops.repo, made.key_id)
            key = made.key
        done = subprocess.run(
            [sys.executable, "-m", "qgs_worker.cli", "mcp"],
            env=mcp_env.env(key),
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert 2 == done.returncode, done.stderr
        assert "QGS_API_KEY" in done.stderr and "qgs keys create" in done.stderr
        assert "" == done.stdout  # nothing written on the protocol's stream


class TestStreamableHttp:
    """The streamable-HTTP transport: the SDK's client with a bearer key; 401 without one."""

    def test_sdk_client_with_a_bearer_key(self, mcp_env: Mcp) -> None:
        import httpx2
        from mcp import ClientSession
        from mcp.client.streamable_http import streamable_http_client

        async def run(url: str) -> Any:
            headers = {"Authorization": f"Bearer {mcp_env.key.key}"}
            async with (
                httpx2.AsyncClient(headers=headers, timeout=60) as http,
                streamable_http_client(f"{url}/mcp", http_client=http) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                tools = await session.list_tools()
                once = {"request": "hi there", "idempotency_key": "mcp-k1"}
                task = structured(await session.call_tool("start_task", once))
                again = structured(await session.call_tool("start_task", once))
                assert task == again  # the same key and request: the same task
                sub = structured(
                    await session.call_tool(
                        "submit_round",
                        {"task_id": task["id"], "deliverable": "Hello.", "final": True},
                    )
                )
                decided = structured(
                    await session.call_tool(
                        "get_decision", {"submission_id": sub["submission_id"], "wait_s": 30}
                    )
                )
                return tools, task, sub, decided

        with serving(create_http_app(mcp_env.ops)) as url:
            tools, task, sub, decided = asyncio.run(asyncio.wait_for(run(url), timeout=120))
        assert TOOL_NAMES == {t.name for t in tools.tools}
        # The same JSON as the HTTP answer (break test bt13: decision_url was missing).
        assert {"submission_id", "task_id", "decision_url"} == set(sub)
        assert f"/v1/submissions/{sub['submission_id']}/decision" == sub["decision_url"]
        # outcome and delivered are in the JSON (an agent need not re-derive the rule).
        assert (True, "pass", "pass", True, False) == (
            decided["decided"],
            decided["decision"]["kind"],
            decided["decision"]["outcome"],
            decided["decision"]["delivered"],
            decided["decision"]["awaiting_approval"],
        )
        row = mcp_env.ops.repo.find_task(task["id"])
        assert row is not None and "alice" == row.principal

    def test_without_a_key_is_401(self, mcp_env: Mcp) -> None:
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                           "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
        accept = {"Accept": "application/json, text/event-stream"}
        with serving(create_http_app(mcp_env.ops)) as url, httpx.Client(base_url=url) as http:
            anonymous = http.post("/mcp", json=init, headers=accept)
            bad = http.post("/mcp", json=init, headers={**accept, "Authorization": "Bearer nope"})
            good = http.post(
                "/mcp", json=init, headers={**accept, "Authorization": f"Bearer {mcp_env.key.key}"}
            )
            too_big = http.post(
                "/mcp",
                content=b"x" * (mcp_env.settings.api.max_body_bytes + 1),
                headers={**accept, "Authorization": f"Bearer {mcp_env.key.key}"},
            )
        assert 413 == too_big.status_code and 413 == too_big.json()["status"]
        for response in (anonymous, bad):
            assert 401 == response.status_code, response.text
            assert response.headers["content-type"].startswith("application/problem+json")
            assert "Bearer" == response.headers["WWW-Authenticate"]
            assert 401 == response.json()["status"]
        assert 200 == good.status_code, good.text
