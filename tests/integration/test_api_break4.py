"""The HTTP API's fourth break test (worktree bt14): each finding's reproduction, fixed.

Runs on the ``api`` fixture of ``test_api.py`` (a real server, worker, Redis and store).
"""

from __future__ import annotations

import json

import pytest
from openai.types.chat import ChatCompletionMessage
from openai.types.responses import ResponseFunctionToolCall

from qgs_worker.client import Client
from tests.integration import test_api
from tests.integration.test_api import SQLITE_ONLY, TOOLS, Api

api = test_api.api  # the real server fixture (uvicorn, a Celery worker, a store)

pytestmark = pytest.mark.integration

# What an agent on the OpenAI Python SDK holds: pydantic objects, not dicts.
MESSAGE = ChatCompletionMessage.model_validate(
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
            },
            {
                "id": "call_2",
                "type": "function",
                "function": {"name": "get_weather", "arguments": "{}"},
            },
        ],
    }
)
RESPONSES_CALL = ResponseFunctionToolCall.model_validate(
    {
        "type": "function_call",
        "call_id": "call_3",
        "name": "get_weather",
        "arguments": '{"city": "Rome"}',
    }
)


@SQLITE_ONLY
class TestClientTakesSdkObjects:
    """``message.tool_calls`` as the OpenAI SDK returns it is read like its JSON (was refused:
    "'tool_calls.0' must be a ToolCall or a dict (got ChatCompletionMessageFunctionToolCall)")."""

    @pytest.mark.parametrize("remote", [False, True], ids=["in-process", "base_url"])
    def test_submit_reads_the_sdks_tool_calls(self, api: Api, remote: bool) -> None:
        qgs = Client(base_url=api.url, api_key=api.alice.key) if remote else api.ops.client
        task = qgs.start_task("write an article about AI")
        assert MESSAGE.tool_calls is not None
        calls = [*MESSAGE.tool_calls, RESPONSES_CALL]
        sub = qgs.submit(task.id, "# AI\n\nText. [[judge PASS 92]]", tool_calls=calls)
        qgs.wait(sub.id, timeout_s=30)
        stored = json.loads(api.ops.repo.get_round_by_submission(sub.id).tool_calls)
        assert [
            ("call_1", "get_weather", {"city": "Oslo"}),
            ("call_2", "get_weather", {}),
            ("call_3", "get_weather", {"city": "Rome"}),
        ] == [(c["id"], c["name"], c["arguments"]) for c in stored]

    @pytest.mark.parametrize("remote", [False, True], ids=["in-process", "base_url"])
    def test_the_checks_take_the_sdks_call_and_message(self, api: Api, remote: bool) -> None:
        qgs = Client(base_url=api.url, api_key=api.alice.key) if remote else api.ops.client
        assert MESSAGE.tool_calls is not None
        one = qgs.check_tool_call(MESSAGE.tool_calls[0], tools=TOOLS, log=False)
        assert one.allowed
        each = qgs.check_tool_calls(MESSAGE, tools=TOOLS, log=False)
        assert [True, False] == [r.allowed for r in each]  # the second lacks 'city'
        assert 3 == each[1].stopped_at  # refused by the parameters layer
        assert qgs.check_tool_call(RESPONSES_CALL, tools=TOOLS, log=False).allowed


@SQLITE_ONLY
class TestInProcessFieldNames:
    """The in-process client names a bad value as the caller passed it, as the API does
    (it said 'deliverable.tool_calls.0.arguments…' and 'deliverable.text')."""

    @pytest.mark.parametrize("remote", [False, True], ids=["in-process", "base_url"])
    @pytest.mark.parametrize(
        ("text", "calls", "field"),
        [
            ("ok", [{"id": "c", "name": "x", "arguments": {"a": json.loads("[" * 150 + "]" * 150)}}],
             "'tool_calls.0.arguments.a.0"),
            ("ok", [{"id": "c", "name": "x", "arguments": {"a": "\ud800"}}],
             "'tool_calls.0.arguments.a'"),
            ("bad \udfff", [], "'deliverable'"),
        ],
    )  # fmt: skip
    def test_named_as_passed(
        self, api: Api, remote: bool, text: str, calls: list[object], field: str
    ) -> None:
        from qgs_worker.errors import InputError

        qgs = Client(base_url=api.url, api_key=api.alice.key) if remote else api.ops.client
        task = qgs.start_task("write an article about AI")
        with pytest.raises(InputError) as caught:
            qgs.submit(task.id, text, tool_calls=calls)
        assert str(caught.value).startswith(field), str(caught.value)[:200]


@SQLITE_ONLY
class TestRemoteClientRequests:
    """``Client(base_url=...)`` sends an id as one path segment and refuses text that is not
    UTF-8 by name (was httpx's UnicodeEncodeError; ``status('../../healthz#')`` returned
    ``/healthz``'s answer as the task's status)."""

    @pytest.mark.parametrize("task_id", ["../../healthz#", "t-x?foo=1", "t-a#b", "t-\x00", "t-a/b"])
    def test_an_id_is_one_segment(self, api: Api, task_id: str) -> None:
        from qgs_worker.errors import TaskNotFoundError

        qgs = Client(base_url=api.url, api_key=api.alice.key)
        with pytest.raises(TaskNotFoundError):
            qgs.status(task_id)
        with pytest.raises(TaskNotFoundError):
            qgs.constraints(task_id)

    @pytest.mark.parametrize("remote", [False, True], ids=["in-process", "base_url"])
    def test_a_lone_surrogate_is_an_input_error_naming_the_field(
        self, api: Api, remote: bool
    ) -> None:
        from qgs_worker.errors import InputError

        qgs = Client(base_url=api.url, api_key=api.bob.key) if remote else api.ops.client
        task = qgs.start_task("write an article about AI")
        calls = [
            ("'request'", lambda: qgs.start_task("write \ud800")),
            ("'agent'", lambda: qgs.start_task("write", agent="\ud800")),
            ("'requirements.1'", lambda: qgs.start_task("write", requirements=["a", "\ud800"])),
            ("'turn'", lambda: qgs.submit(task.id, "x", turn="\ud800")),
        ]
        if remote:
            call = {"type": "tool_use", "id": "t", "name": "get_weather", "input": {"c": "\udc00"}}
            calls += [
                ("'call.input.c'", lambda: qgs.check_tool_call(call, tools=TOOLS)),
                ("'by'", lambda: qgs.approve(task.id, by="\ud800")),
                ("'task_id'", lambda: qgs.constraints("t-\ud800")),
                ("'submission_id'", lambda: qgs.decision("s-\ud800")),
            ]
        for field, call_it in calls:
            with pytest.raises(InputError) as caught:
                call_it()
            assert str(caught.value).startswith(f"{field} holds text that is not valid UTF-8")
