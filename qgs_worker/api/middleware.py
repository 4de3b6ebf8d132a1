"""ASGI middleware the HTTP transports put in front: ``BodyLimit``, ``HeadAsGet``, ``HttpMetrics``.

``BodyLimit`` refuses a request body over ``QGS_API__MAX_BODY_BYTES`` with 413 before the app
reads it (by its ``Content-Length``, or while it streams in), so nothing of it is parsed or
stored; it leaves the body it read in the scope (``BODY_SCOPE_KEY``), where a 400 "the body
could not be read" looks for the reason. ``HeadAsGet`` serves ``HEAD`` wherever ``GET`` is.
``HttpMetrics`` counts every answer by route template (never the raw path: a bounded number of
label values), method and status, times it, and counts the 401s and 429s.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.responses import JSONResponse
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from qgs_worker.api.auth import PROBLEM_JSON
from qgs_worker.api.problems import problem

__all__ = ["BODY_SCOPE_KEY", "BodyLimit", "HeadAsGet", "HttpMetrics"]

BODY_SCOPE_KEY = "qgs.body"
"""The ASGI scope key under which ``BodyLimit`` leaves the request body it read."""


class HeadAsGet:
    """ASGI middleware: ``HEAD`` is answered as ``GET`` without the body (RFC 9110).

    FastAPI's routes take the methods they declare; a ``HEAD`` on a ``GET`` route would be a
    405. Here it runs as the ``GET`` (same status, same headers, ``Content-Length`` included)
    and the body is dropped; a ``HEAD`` where no ``GET`` is served stays a 405.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run a HEAD request as a GET, sending no body."""
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)


class BodyLimit:
    """ASGI middleware: a request body over ``max_bytes`` gets 413 before the app reads it.

    A ``Content-Length`` over the limit is refused at once; a body without one (chunked) is
    read up to the limit and then refused, else handed on whole.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or answer 413 when its body is over the limit."""
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_bytes:
            await self._refuse(scope, receive, send, int(length))
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(scope, receive, send, size)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        scope[BODY_SCOPE_KEY] = body  # what a 400 "error parsing the body" looks into
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, size: int) -> None:
        detail = (
            f"the request body is larger than {self.max_bytes:,} bytes (at least {size:,}); "
            "send a smaller deliverable (QGS_MAX_DELIVERABLE_BYTES bounds it) or raise "
            "QGS_API__MAX_BODY_BYTES on the server"
        )
        body = problem(
            413,
            detail,
            [{"field": None, "message": detail, "fix": "send a body under the limit"}],
        )
        response = JSONResponse(
            body, status_code=413, media_type=PROBLEM_JSON, headers={"Connection": "close"}
        )
        await response(scope, receive, send)


_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class HttpMetrics:
    """ASGI middleware: Prometheus counts and times of every HTTP answer (``telemetry._metrics``).

    Args:
        app: The app behind it.
        router: The app's router: a request's ``route`` label is the template of the route it
            matches (``/v1/tasks/{task_id}``), ``unmatched`` for none; a method outside the
            standard ones is ``other``.
    """

    def __init__(self, app: ASGIApp, router: Any) -> None:
        from qgs_worker.telemetry import _metrics

        self.app = app
        self.router = router
        self._m = _metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, then count its answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 500  # what the server answers when the app raises before it answered
        start = time.perf_counter()

        async def seen(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, seen)
        finally:
            route = self._template(scope)
            method = scope["method"] if scope["method"] in _METHODS else "other"
            self._m.API_REQUESTS.labels(route=route, method=method, status=str(status)).inc()
            self._m.API_LATENCY.labels(route=route, method=method).observe(
                time.perf_counter() - start
            )
            if status in (401, 429):
                self._m.API_REFUSED.labels(status=str(status)).inc()

    def _template(self, scope: Scope) -> str:
        for route in self.router.routes:
            match, _child = route.matches(scope)
            if match != Match.NONE:
                return str(route.path)
        return "unmatched"
