"""A caller's schema pattern cannot freeze the API (break test, finding 1), on a real server.

The tester's ``"pattern": "^(a+)+$"`` with 39 ``a`` then ``!`` held the GIL for > 8 min with
``re``; matched by RE2 the check answers at once and ``/healthz`` answers beside it.
"""

from __future__ import annotations

import concurrent.futures
import json
from typing import Any

import pytest

from tests.integration import test_api
from tests.integration.test_api import Api

api = test_api.api  # the real server fixture (uvicorn, a Celery worker, SQLite and PostgreSQL)

pytestmark = pytest.mark.integration

EVIL_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "lookup",
            "parameters": {
                "type": "object",
                "properties": {"code": {"type": "string", "pattern": "^(a+)+$"}},
                "required": ["code"],
            },
        },
    }
]


def check(api: Api, code: str, tools: list[dict[str, Any]] = EVIL_TOOLS) -> Any:
    call = {"id": "c1", "type": "function",
            "function": {"name": "lookup", "arguments": json.dumps({"code": code})}}  # fmt: skip
    with api.http(api.alice) as http:
        return http.post("/v1/tool-calls/check", json={"call": call, "tools": tools})


class TestReDoS:
    """The check returns its verdict; the server keeps answering."""

    def test_the_testers_payload(self, api: Api) -> None:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            checks = [pool.submit(check, api, "a" * n + "!") for n in (39, 5000)]
            with api.http(None) as http:
                health = http.get("/healthz")
            answers = [c.result(timeout=120) for c in checks]
        assert 200 == health.status_code
        for answer in answers:
            assert 200 == answer.status_code, answer.text
            body = answer.json()
            assert body["allowed"] is False
            assert 3 == body["stopped_at"], body  # the parameter layer, on the pattern
            (parameters,) = [layer for layer in body["layers"] if layer["number"] == 3]
            assert parameters["errors"][0].startswith("$.code: 'aaa"), parameters
        assert check(api, "aaaa").json()["allowed"] is True

    def test_a_lookaround_is_a_clear_422(self, api: Api) -> None:
        tools = json.loads(json.dumps(EVIL_TOOLS))
        tools[0]["function"]["parameters"]["properties"]["code"]["pattern"] = "^(?!x)a$"
        answer = check(api, "a", tools)
        assert 422 == answer.status_code, answer.text
        text = answer.text
        assert "lookup" in text and "pattern" in text and "RE2" in text
