"""One input contract: the same bad inputs through the CLI, the client, the HTTP API and MCP.

Issue 31, item 4: ``qgs submit FILE`` stored invalid UTF-8 as U+FFFD (exit 0) and took a UTF-16
file, where ``qgs scan`` and the HTTP API refuse them; a binary file was refused by its size
without saying it is binary, a folder as "no such file"; ``Client.submit(final="yes")`` was
stored as final; ``deliverable=None`` asked for "a dictionary or instance of Deliverable"; the
tool-call check (HTTP and MCP) refused the ``{"id", "name", "arguments"}`` call the rounds take.

Every face runs in this process (the HTTP API on Starlette's test client, MCP on the SDK's
in-process client) over one SQLite store; the CLI runs as the real command. Nothing is queued
for real: the client's Celery app is a stand-in that keeps what it was given.
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

import pytest
from mcp import Client as McpClient
from starlette.testclient import TestClient

from qgs_worker.api import Operations
from qgs_worker.api.http import create_app
from qgs_worker.api.mcp_server import create_server
from qgs_worker.api.operations import Principal
from qgs_worker.client import Client
from qgs_worker.config.settings import ApiSettings, Settings
from qgs_worker.config.webhook_settings import WebhookSettings
from qgs_worker.errors import InputError
from qgs_worker.store.keys import create_key
from qgs_worker.webhooks.key_secrets import master_secret

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
PLAIN_CALL = {"id": "c1", "name": "get_weather", "arguments": {"city": "Paris"}}
PLAIN_CALL_BAD_ARGUMENT = {"id": "c2", "name": "get_weather", "arguments": {"city": 3}}


class Sent:
    """A Celery app stand-in: keeps every message it is given (nothing runs)."""

    def __init__(self) -> None:
        self.messages: list[Any] = []

    def send_task(self, name: str, args: Any = None, **kwargs: Any) -> None:
        self.messages.append((name, args))


@dataclass
class Faces:
    settings: Settings
    client: Client
    http: TestClient
    mcp: Any
    task_id: str
    tmp_path: Path

    def mcp_call(self, tool: str, arguments: dict[str, Any]) -> Any:
        async def run() -> Any:
            async with McpClient(self.mcp) as session:
                return await session.call_tool(tool, arguments)

        return asyncio.run(run())

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.upper().startswith("QGS_")}
        env |= {"QGS_DATA_DIR": str(self.tmp_path / ".qgs"), "PYTHONPATH": str(ROOT)}
        return subprocess.run(
            [sys.executable, "-m", "qgs_worker.cli", *args],
            env=env,
            cwd=self.tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )


@pytest.fixture
def faces(tmp_path: Path) -> Iterator[Faces]:
    settings = Settings(
        data_dir=tmp_path / ".qgs",
        database_url=f"sqlite:///{tmp_path / 'q.db'}",
        broker_url="",
        api=ApiSettings(key_cache_s=0),
        webhooks=WebhookSettings(allow_private=True),  # receivers on loopback
    )
    client = Client(settings, app=Sent())
    ops = Operations(settings, client=client)
    key = create_key(ops.repo, "alice", master=master_secret(settings))
    me: Principal = ops.authenticate(key.key)
    task = ops.start_task(me, "write an article about AI")
    app = create_app(operations=ops)
    with TestClient(app, headers={"Authorization": f"Bearer {key.key}"}) as http:
        yield Faces(
            settings=settings,
            client=client,
            http=http,
            mcp=create_server(ops, principal_of=lambda _ctx: me),
            task_id=task.id,
            tmp_path=tmp_path,
        )
    client.repo.dispose()


def mcp_error(result: Any) -> str:
    assert result.is_error, result
    return " ".join(part.text for part in result.content)


class TestTypes:
    """A value of the wrong type is refused by every face, naming the field; never coerced."""

    def test_final_yes(self, faces: Faces) -> None:
        with pytest.raises(InputError, match=r"'final' must be true or false \(got 'yes'\)"):
            faces.client.submit(faces.task_id, "the article", final="yes")  # type: ignore[arg-type]
        http = faces.http.post(
            f"/v1/tasks/{faces.task_id}/rounds", json={"deliverable": "x", "final": "yes"}
        )
        assert 422 == http.status_code and "final" in http.text
        mcp = faces.mcp_call(
            "submit_round", {"task_id": faces.task_id, "deliverable": "x", "final": "yes"}
        )
        assert "final" in mcp_error(mcp)
        assert [] == faces.client.app.messages  # nothing queued by any face

    def test_deliverable_none_asks_for_a_string(self, faces: Faces) -> None:
        with pytest.raises(InputError, match=r"^'deliverable' must be a string.*\(got NoneType\)"):
            faces.client.submit(faces.task_id, None)  # type: ignore[arg-type]
        http = faces.http.post(f"/v1/tasks/{faces.task_id}/rounds", json={"deliverable": None})
        assert 422 == http.status_code and "deliverable" in http.text and "string" in http.text
        mcp = faces.mcp_call("submit_round", {"task_id": faces.task_id, "deliverable": None})
        assert "deliverable" in mcp_error(mcp)

    @pytest.mark.parametrize(
        ("field", "call"),
        [
            ("requirements", lambda c, t: c.start_task("write it", requirements="cite sources")),
            ("request", lambda c, t: c.start_task(42)),
            ("round_number", lambda c, t: c.submit(t, "x", round_number=True)),
            ("task_id", lambda c, t: c.submit(123, "x")),
            ("timeout_s", lambda c, t: c.wait("s-1", timeout_s="5")),
            ("submission_id", lambda c, t: c.decision(123)),
            ("by", lambda c, t: c.approve(t, by=123)),
            ("reject", lambda c, t: c.approve(t, by="ops", reject="no")),
            ("task_id", lambda c, t: c.constraints(None)),
        ],
    )
    def test_no_coercion_in_the_client(self, faces: Faces, field: str, call: Any) -> None:
        with pytest.raises(InputError, match=f"'{field}' must be"):
            call(faces.client, faces.task_id)


class TestText:
    """Bytes that are not UTF-8 text are refused by every face that takes bytes or text."""

    def test_a_lone_surrogate_is_refused_by_client_http_and_mcp(self, faces: Faces) -> None:
        bad = "caf\udce9"  # what a byte that is not UTF-8 becomes (surrogateescape)
        with pytest.raises(InputError, match="not valid UTF-8"):
            faces.client.submit(faces.task_id, bad)
        http = faces.http.post(
            f"/v1/tasks/{faces.task_id}/rounds",
            content=b'{"deliverable": "caf\\udce9"}',
            headers={"Content-Type": "application/json"},
        )
        assert 422 == http.status_code and "not valid UTF-8" in http.text
        mcp = faces.mcp_call("submit_round", {"task_id": faces.task_id, "deliverable": bad})
        assert "UTF-8" in mcp_error(mcp)

    @pytest.mark.parametrize(
        ("content", "cli_says"),
        [
            (b"caf\xe9 au lait\n", "is not valid UTF-8: byte 0xe9 at offset 3"),
            ("an article about AI\n".encode("utf-16"), "is UTF-16 or UTF-32 text"),
            (b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 8_000, "is binary"),
        ],
        ids=["latin-1", "utf-16", "binary-2MB"],
    )
    def test_bad_bytes_are_refused_by_the_cli_and_the_http_api(
        self, faces: Faces, content: bytes, cli_says: str
    ) -> None:
        path = faces.tmp_path / "deliverable.txt"
        path.write_bytes(content)
        done = faces.cli("submit", "--task", faces.task_id, "--no-wait", str(path))
        assert 2 == done.returncode, done.stderr
        assert cli_says in done.stderr and "Traceback" not in done.stderr
        body = b'{"deliverable": "' + content[:64].replace(b'"', b"") + b'"}'
        http = faces.http.post(
            f"/v1/tasks/{faces.task_id}/rounds",
            content=body,
            headers={"Content-Type": "application/json"},
        )
        assert http.status_code in (400, 422), http.text
        scan = faces.cli("scan", str(path))
        if cli_says.startswith("is not valid UTF-8"):
            assert 0 == scan.returncode  # qgs scan reads bad bytes as U+FFFD, with a warning
        else:
            assert 2 == scan.returncode and "is not text" in scan.stderr

    def test_a_folder_is_a_folder(self, faces: Faces) -> None:
        done = faces.cli("submit", "--task", faces.task_id, "--no-wait", str(faces.tmp_path))
        assert 2 == done.returncode
        assert f"{faces.tmp_path} is a folder" in done.stderr


class TestCallbackUrls:
    """A callback URL is read once, at the edge, into the form its delivery sends to."""

    def test_the_http_api_keeps_the_sent_form_and_refuses_what_httpx_cannot_send(
        self, faces: Faces
    ) -> None:
        made = faces.http.post(
            "/v1/tasks",
            json={"request": "write an article", "callback_url": "http://0177.0.0.1:9/h"},
        )
        assert 201 == made.status_code, made.text
        assert "http://127.0.0.1:9/h" == faces.client.repo.get_task(made.json()["id"]).callback_url
        refused = faces.http.post(
            "/v1/tasks", json={"request": "write an article", "callback_url": "http://☃.example/h"}
        )
        assert 422 == refused.status_code
        assert "callback_url" in refused.text and "xn--" in refused.text
        round_refused = faces.http.post(
            f"/v1/tasks/{faces.task_id}/rounds",
            json={"deliverable": "x", "callback_url": "http://☃.example/h"},
        )
        assert 422 == round_refused.status_code and "callback_url" in round_refused.text


class TestToolCallShapes:
    """The check takes the {"id", "name", "arguments"} call the rounds take, on every face."""

    @pytest.mark.parametrize(
        ("call", "allowed"), [(PLAIN_CALL, True), (PLAIN_CALL_BAD_ARGUMENT, False)]
    )
    def test_the_plain_shape_is_checked_alike(
        self, faces: Faces, call: dict[str, Any], allowed: bool
    ) -> None:
        client = faces.client.check_tool_call(call, tools=TOOLS, log=False)
        http = faces.http.post("/v1/tool-calls/check", json={"call": call, "tools": TOOLS})
        assert 200 == http.status_code, http.text
        mcp = faces.mcp_call("check_tool_call", {"call": call, "tools": TOOLS})
        assert not mcp.is_error, mcp
        call_file = faces.tmp_path / "call.json"
        call_file.write_text(json.dumps(call))
        tools_file = faces.tmp_path / "tools.json"
        tools_file.write_text(json.dumps(TOOLS))
        cli = faces.cli("check-tool", str(call_file), "--tools", str(tools_file), "--no-log")
        reports = [client.to_dict(), http.json(), mcp.structured_content]
        assert [allowed] * 3 == [r["allowed"] for r in reports]
        assert {"qgs"} == {r["shape"] for r in reports}
        assert (0 if allowed else 1) == cli.returncode, cli.stdout + cli.stderr
        assert len({r["stopped_at"] for r in reports}) == 1
        if not allowed:
            assert 3 == reports[0]["stopped_at"]  # the parameters layer: the shape was read

    def test_the_rounds_take_the_same_shape(self, faces: Faces) -> None:
        http = faces.http.post(
            f"/v1/tasks/{faces.task_id}/rounds",
            json={"deliverable": "checked the weather", "tool_calls": [PLAIN_CALL]},
        )
        assert 202 == http.status_code, http.text
