"""A real OpenAI-compatible HTTP server on loopback, scripted by tests.

It speaks just enough of the chat-completions protocol for the ``openai`` client:
``POST /v1/chat/completions`` answers a ``chat.completion`` JSON body (with ``usage``), errors
answer the OpenAI error shape ``{"error": {"message", "type", "param", "code"}}``.

    with FakeOpenAIServer() as server:
        server.script(Answer.content("not json"), Answer.review("PASS", 90, {"accuracy": 90}))
        judge = OpenAIJudge(base_url=server.base_url, api_key="test")
        ...
        assert len(server.requests) == 2

Answers are served first-in first-out; when the queue is empty ``server.default`` answers
(by default :meth:`Answer.auto`: a valid PASS review of every dimension the prompt names).
Token usage is counted in whitespace-separated words: prompt tokens are the words of all
request messages, completion tokens the words of the answer's content.
"""

from __future__ import annotations

import json
import re
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Literal

__all__ = ["Answer", "FakeOpenAIServer", "is_audit_request"]

_NONCE = re.compile(r"\b[0-9a-f]{32}\b")
_DIMENSIONS_LINE = re.compile(r"^Dimensions to score[^:\n]*:\s*(?P<names>.+)$", re.MULTILINE)


@dataclass(frozen=True)
class Answer:
    """One scripted answer of the fake server; build it with the named constructors."""

    kind: Literal["content", "status", "delay", "dynamic", "trickle"]
    text: str = ""
    status_code: int = 200
    body: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    then: Answer | None = None
    fn: Callable[[dict[str, Any]], Answer] | None = None
    finish_reason: str = "stop"
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    tool_calls: tuple[tuple[str, str, str], ...] = ()  # (id, name, arguments JSON string)

    @classmethod
    def content(cls, text: str, *, finish_reason: str = "stop") -> Answer:
        """A 200 answer whose message content is ``text`` verbatim (JSON or not)."""
        return cls(kind="content", text=text, finish_reason=finish_reason)

    @classmethod
    def tool_call(
        cls, name: str, arguments: Mapping[str, Any], *, call_id: str = "call_1"
    ) -> Answer:
        """A 200 answer whose message calls one tool (content null, finish_reason tool_calls)."""
        return cls(
            kind="content",
            finish_reason="tool_calls",
            tool_calls=((call_id, name, json.dumps(dict(arguments))),),
        )

    @classmethod
    def review(
        cls,
        verdict: str = "PASS",
        score: int = 90,
        dimensions: Mapping[str, int] | Sequence[Mapping[str, Any]] = (),
        must_fix: Sequence[str] = (),
        summary: str = "fake judge review",
    ) -> Answer:
        """A 200 answer carrying a review as plain JSON.

        Args:
            verdict: ``PASS``, ``PASS_WITH_SUGGESTIONS`` or ``FAIL`` (not checked: tests may lie).
            score: Overall score.
            dimensions: ``{"name": score}`` or full ``{"name", "score", "issues"}`` objects.
            must_fix: Items that must be fixed.
            summary: One-line summary.
        """
        if isinstance(dimensions, Mapping):
            dims: list[Mapping[str, Any]] = [
                {"name": name, "score": value, "issues": []} for name, value in dimensions.items()
            ]
        else:
            dims = list(dimensions)
        payload = {
            "verdict": verdict,
            "score": score,
            "dimensions": dims,
            "must_fix": list(must_fix),
            "summary": summary,
        }
        return cls.content(json.dumps(payload))

    @classmethod
    def status(
        cls,
        status_code: int,
        *,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
        message: str | None = None,
        code: str | None = None,
    ) -> Answer:
        """An HTTP error answer; ``body`` defaults to the OpenAI error shape with ``code``."""
        if body is None:
            body = {
                "error": {
                    "message": message or f"fake openai: HTTP {status_code}",
                    "type": "invalid_request_error" if status_code < 500 else "server_error",
                    "param": None,
                    "code": code,
                }
            }
        return cls(kind="status", status_code=status_code, body=body, headers=dict(headers or {}))

    @classmethod
    def delay(cls, seconds: float, then: Answer | None = None) -> Answer:
        """Wait ``seconds`` (e.g. beyond the client's timeout), then answer ``then``."""
        return cls(kind="delay", seconds=seconds, then=then or cls.auto())

    @classmethod
    def trickle(cls, seconds: float, every_s: float = 0.05, then: Answer | None = None) -> Answer:
        """Send the headers at once, then one byte of the body every ``every_s`` for ``seconds``.

        The body is ``then``'s answer after that many spaces (JSON allows leading whitespace):
        a server that keeps the connection alive, so a client bounding each read never times
        out, and only a deadline on the whole call ends it (issue 31).
        """
        return cls(kind="trickle", seconds=seconds, then=then or cls.auto(), body=every_s)

    @classmethod
    def dynamic(cls, fn: Callable[[dict[str, Any]], Answer]) -> Answer:
        """Answer whatever ``fn(request_json)`` returns (lets a test look at the prompt)."""
        return cls(kind="dynamic", fn=fn)

    @classmethod
    def findings(cls, *findings: Mapping[str, str]) -> Answer:
        """A 200 answer to an audit role: ``{"findings": [...]}`` (none by default)."""
        return cls.content(json.dumps({"findings": list(findings)}))

    @classmethod
    def auto(cls, verdict: str = "PASS", score: int = 90) -> Answer:
        """A valid review of every dimension named on the prompt's ``Dimensions to score:`` line."""

        def answer(request: dict[str, Any]) -> Answer:
            names = requested_dimensions(request)
            if not names:
                return cls.status(500, message="fake openai: no 'Dimensions to score:' line found")
            return cls.review(verdict, score, dict.fromkeys(names, score))

        return cls.dynamic(answer)

    def with_usage(self, prompt_tokens: int, completion_tokens: int) -> Answer:
        """The same answer with fixed token counts instead of word counts."""
        return Answer(
            kind=self.kind,
            text=self.text,
            status_code=self.status_code,
            body=self.body,
            headers=self.headers,
            seconds=self.seconds,
            then=self.then,
            fn=self.fn,
            finish_reason=self.finish_reason,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            tool_calls=self.tool_calls,
        )


def message_texts(request: Mapping[str, Any]) -> list[str]:
    """The text of every message of a chat-completions request body, in order."""
    texts: list[str] = []
    for message in request.get("messages", []):
        content = message.get("content", "")
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):  # content parts
            texts.extend(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return texts


def is_audit_request(request: Mapping[str, Any]) -> bool:
    """True for an audit role's request (its material is fenced as ``<<<MATERIAL nonce>>>``)."""
    return any("<<<MATERIAL " in text for text in message_texts(request))


def requested_dimensions(request: Mapping[str, Any]) -> list[str]:
    """Dimension names from the first ``Dimensions to score...: a, b`` line of the prompt."""
    for text in message_texts(request):
        match = _DIMENSIONS_LINE.search(text)
        if match:
            return [n.strip(" `\"'.") for n in match.group("names").split(",") if n.strip()]
    return []


class FakeOpenAIServer:
    """A scripted OpenAI chat-completions server on ``127.0.0.1`` (a free port), in a daemon thread.

    Args:
        reject_json_schema: Answer 400 (``param: response_format``) to any request whose
            ``response_format.type`` is ``json_schema``, like endpoints without structured output.
        model: The model name echoed in answers when the request names none.
    """

    def __init__(self, *, reject_json_schema: bool = False, model: str = "fake-model") -> None:
        self.reject_json_schema = reject_json_schema
        self.model = model
        self.default: Answer = Answer.auto()
        self.audit_default: Answer = Answer.findings()
        self._queue: deque[Answer] = deque()
        self._audit_queue: deque[Answer] = deque()
        self._requests: list[dict[str, Any]] = []
        self._audit_requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._counter = 0
        self.in_flight_key: Callable[[dict[str, Any]], str] = _role_and_request
        """What :attr:`most_in_flight` counts concurrent requests by (default: the role -
        review or audit - and the first user message, i.e. one round's review)."""
        self._in_flight: dict[str, int] = {}
        self._most_in_flight: dict[str, int] = {}
        self._durations: list[tuple[str, float]] = []

    # -- life cycle -------------------------------------------------------------------------

    def start(self) -> FakeOpenAIServer:
        """Bind a free loopback port and serve in a daemon thread; returns self."""
        handler = _make_handler(self)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.02},  # seconds; shutdown() waits up to one interval
            name="fake-openai",
            daemon=True,
        )
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving; delayed answers still waiting are released at once."""
        self._closing.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``, for ``openai.OpenAI(base_url=...)``."""
        if self._httpd is None:
            raise RuntimeError("FakeOpenAIServer is not started: use it as a context manager")
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    # -- scripting --------------------------------------------------------------------------

    def script(self, *answers: Answer) -> FakeOpenAIServer:
        """Queue answers, served in order before ``default``; returns self."""
        with self._lock:
            self._queue.extend(answers)
        return self

    def script_audits(self, *answers: Answer) -> FakeOpenAIServer:
        """Queue answers for audit-role requests, served before ``audit_default``; returns self."""
        with self._lock:
            self._audit_queue.extend(answers)
        return self

    @property
    def requests(self) -> list[dict[str, Any]]:
        """A copy of every review (and classifier) request body received, oldest first.

        Audit-role requests (the discriminator's LLM passes) are kept apart, in
        :attr:`audit_requests`, and answered from their own queue, so a test that scripts
        reviews is not disturbed by audits.
        """
        with self._lock:
            return list(self._requests)

    def forget(self) -> None:
        """Drop the recorded request bodies (a long benchmark keeps no history in memory)."""
        with self._lock:
            self._requests.clear()
            self._audit_requests.clear()

    @property
    def audit_requests(self) -> list[dict[str, Any]]:
        """A copy of every audit-role request body received, oldest first."""
        with self._lock:
            return list(self._audit_requests)

    @property
    def most_in_flight(self) -> dict[str, int]:
        """The most requests of each :attr:`in_flight_key` open at once, from the server's side.

        A request is open from the moment its body is read until its answer is written or the
        client closed the connection (noticed within one trickle step).
        """
        with self._lock:
            return dict(self._most_in_flight)

    @property
    def in_flight(self) -> int:
        """Requests open now, all keys together."""
        with self._lock:
            return sum(self._in_flight.values())

    @property
    def durations(self) -> list[tuple[str, float]]:
        """``(key, seconds open)`` of every request ended so far, oldest first."""
        with self._lock:
            return list(self._durations)

    def _opened(self, key: str) -> None:
        with self._lock:
            now = self._in_flight.get(key, 0) + 1
            self._in_flight[key] = now
            self._most_in_flight[key] = max(now, self._most_in_flight.get(key, 0))

    def _ended(self, key: str, seconds: float) -> None:
        with self._lock:
            self._in_flight[key] -= 1
            self._durations.append((key, seconds))

    @property
    def pending(self) -> int:
        """How many scripted answers are still queued."""
        with self._lock:
            return len(self._queue)

    # -- serving (called from handler threads) ----------------------------------------------

    def _record_and_pick(self, request: dict[str, Any]) -> tuple[Answer, int]:
        with self._lock:
            self._counter += 1
            if is_audit_request(request):
                self._audit_requests.append(request)
                answer = self._audit_queue.popleft() if self._audit_queue else self.audit_default
                return answer, self._counter
            self._requests.append(request)
            rf = request.get("response_format")
            if self.reject_json_schema and isinstance(rf, dict) and rf.get("type") == "json_schema":
                return (
                    Answer.status(
                        400,
                        message="response_format type 'json_schema' is not supported",
                        code="unsupported_response_format",
                    ),
                    self._counter,
                )
            answer = self._queue.popleft() if self._queue else self.default
            return answer, self._counter

    def _resolve(self, answer: Answer, request: dict[str, Any]) -> Answer | None:
        """Follow delays and dynamic answers; None when the server closed while waiting."""
        while answer.kind in ("delay", "dynamic"):
            if answer.kind == "delay":
                if self._closing.wait(answer.seconds):
                    return None
                assert answer.then is not None
                answer = answer.then
            else:
                assert answer.fn is not None
                answer = answer.fn(request)
        return answer

    def _completion_body(self, answer: Answer, request: dict[str, Any], number: int) -> bytes:
        prompt_tokens = answer.prompt_tokens
        if prompt_tokens is None:
            prompt_tokens = sum(len(t.split()) for t in message_texts(request))
        completion_tokens = answer.completion_tokens
        if completion_tokens is None:
            completion_tokens = len(answer.text.split())
        message: dict[str, Any] = {"role": "assistant", "content": answer.text, "refusal": None}
        if answer.tool_calls:
            message["content"] = None
            message["tool_calls"] = [
                {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}
                for cid, name, args in answer.tool_calls
            ]
        body = {
            "id": f"chatcmpl-fake-{number}",
            "object": "chat.completion",
            "created": 1_700_000_000 + number,
            "model": request.get("model") or self.model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "logprobs": None,
                    "finish_reason": answer.finish_reason,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }
        return json.dumps(body).encode()


def _role_and_request(request: Mapping[str, Any]) -> str:
    """``"review:<model>:<first user message>"`` or ``"audit:..."``: one round's calls of one
    role (a panel's judges are told apart by their model).

    The fences' random nonces (32 hex digits, fresh in every call) are left out.
    """
    users = [
        str(m.get("content"))
        for m in request.get("messages") or ()
        if isinstance(m, Mapping) and m.get("role") == "user"
    ]
    role = "audit" if is_audit_request(request) else "review"
    return f"{role}:{request.get('model')}:{_NONCE.sub('', users[0]) if users else ''}"


def _client_gone(conn: socket.socket) -> bool:
    """Whether the client closed its end (a readable socket with nothing to read)."""
    try:
        readable, _, _ = select.select([conn], [], [], 0)
        return bool(readable) and conn.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


def _make_handler(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "FakeOpenAI/1.0"

        def log_message(self, format: str, *args: Any) -> None:
            """Keep test output quiet."""

        def _send(self, status: int, body: bytes, headers: Mapping[str, str] | None = None) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (e.g. its timeout fired during a delay answer)

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                body = {"object": "list", "data": [{"id": server.model, "object": "model"}]}
                self._send(200, json.dumps(body).encode())
                return
            self._send(404, json.dumps({"error": {"message": f"no route {self.path}"}}).encode())

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            if not self.path.rstrip("/").endswith("/chat/completions"):
                missing = {"error": {"message": f"no route {self.path}"}}
                self._send(404, json.dumps(missing).encode())
                return
            try:
                request = json.loads(raw or b"{}")
            except json.JSONDecodeError as exc:
                body = {"error": {"message": f"invalid JSON body: {exc}", "code": None}}
                self._send(400, json.dumps(body).encode())
                return
            answer, number = server._record_and_pick(request)
            key = server.in_flight_key(request)
            started = time.monotonic()
            server._opened(key)
            try:
                self._answer(answer, request, number)
            finally:
                server._ended(key, time.monotonic() - started)

        def _trickle(self, answer: Answer, request: dict[str, Any], number: int) -> None:
            every_s = float(answer.body)
            assert answer.then is not None
            then = server._resolve(answer.then, request)
            if then is None:
                return
            body = server._completion_body(then, request, number)
            spaces = max(1, round(answer.seconds / every_s))
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(spaces + len(body)))
                self.end_headers()
                self.wfile.flush()
                for _ in range(spaces):
                    if server._closing.wait(every_s) or _client_gone(self.connection):
                        return
                    self.wfile.write(b" ")
                    self.wfile.flush()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up: its deadline ended the call

        def _answer(self, answer: Answer, request: dict[str, Any], number: int) -> None:
            if answer.kind == "trickle":
                self._trickle(answer, request, number)
                return
            resolved = server._resolve(answer, request)
            if resolved is None:
                return
            if resolved.kind == "trickle":
                self._trickle(resolved, request, number)
                return
            if resolved.kind == "status":
                payload = resolved.body
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self._send(resolved.status_code, data, resolved.headers)
                return
            self._send(200, server._completion_body(resolved, request, number), resolved.headers)

    return Handler
