"""The HTTP API's third break test (worktree bt13): each finding's reproduction, fixed.

Runs on the ``api`` fixture of ``test_api.py`` (a real server, worker, Redis and store).
"""

from __future__ import annotations

import json

import pytest

from qgs_worker.client import Client
from qgs_worker.errors import ApprovalConflictError, NotAwaitingApprovalError
from tests.integration import test_api
from tests.integration.test_api import JSON, SQLITE_ONLY, TOOLS, Api, assert_problem

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
