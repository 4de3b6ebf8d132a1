"""API keys checked before anything else reads the request: ``BearerAuth`` (ASGI middleware).

Both transports put it outside their app: the HTTP API (``/v1`` paths; ``/healthz``,
``/readyz``, ``/metrics`` and the OpenAPI documents need no key) and MCP's streamable HTTP
(every path). A request without a live key is answered 401 before its body is read, parsed or
validated, and before its query parameters are checked: an anonymous caller learns nothing
about what the route takes. A key over its rate limit gets 429 with ``Retry-After``; a store
that fails while the key is checked, 503 with ``Retry-After``. With a live key the request's
scope carries its ``Principal`` under ``PRINCIPAL_SCOPE_KEY``; the key's secret is never put
in the scope. An operator key (a person's) is admitted only on the paths ``operator_path``
says (the HTTP API's spot-check routes, ``access.OPERATOR_PATHS``); elsewhere it is a 403.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from qgs_worker.api.operations import Operations, Principal
from qgs_worker.api.problems import problem_for

__all__ = ["PRINCIPAL_SCOPE_KEY", "PROBLEM_JSON", "BearerAuth", "problem_headers"]

PRINCIPAL_SCOPE_KEY = "qgs.principal"
"""The ASGI scope key under which ``BearerAuth`` leaves the request's ``Principal``."""

PROBLEM_JSON = "application/problem+json"


def problem_headers(status: int, body: dict[str, Any]) -> dict[str, str]:
    """The headers a problem answer of ``status`` sends: ``WWW-Authenticate``, ``Retry-After``.

    ``Retry-After`` (whole seconds, at least 1) comes from the document's ``retry_after_s``
    (a 429, a 503 of the store or the broker).
    """
    headers: dict[str, str] = {}
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    if status in (429, 503) and "retry_after_s" in body:
        headers["Retry-After"] = str(max(1, round(body["retry_after_s"])))
    return headers


class BearerAuth:
    """ASGI middleware: a request under ``prefix`` needs a live ``Authorization: Bearer`` key.

    Args:
        app: The app behind it.
        ops: The operations layer whose ``authenticate`` checks (and counts) the key.
        prefix: The paths that need a key (``/v1/``); None: every HTTP request.
        operator_path: Which paths also admit an operator key (a person's); None: none do
            (MCP, every ``/v1`` route but the spot-check ones).
    """

    def __init__(
        self,
        app: ASGIApp,
        ops: Operations,
        prefix: str | None = None,
        operator_path: Callable[[str], bool] | None = None,
    ) -> None:
        self.app = app
        self.ops = ops
        self.prefix = prefix
        self.operator_path = operator_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Authenticate an HTTP request, then pass it on (lifespan passes untouched)."""
        if scope["type"] != "http" or (
            self.prefix is not None and not str(scope.get("path", "")).startswith(self.prefix)
        ):
            await self.app(scope, receive, send)
            return
        header = dict(scope["headers"]).get(b"authorization", b"").decode("latin-1")
        scheme, _, key = header.partition(" ")
        sent = key.strip() if scheme.lower() == "bearer" else None
        try:
            if self.operator_path is not None and self.operator_path(str(scope.get("path", ""))):
                me = await asyncio.to_thread(self.ops.access.authenticate, sent, operator_ok=True)
            else:
                me = await asyncio.to_thread(self.ops.authenticate, sent)
        except Exception as exc:
            found = problem_for(exc)
            if found is None:
                raise
            await self._refuse(scope, receive, send, *found)
            return
        scope[PRINCIPAL_SCOPE_KEY] = me
        self.admitted(scope, me)
        await self.app(scope, receive, send)

    def admitted(self, scope: Scope, me: Principal) -> None:
        """A hook for what else a transport puts in the scope of an admitted request."""

    async def _refuse(
        self, scope: Scope, receive: Receive, send: Send, status: int, body: dict[str, Any]
    ) -> None:
        from starlette.responses import JSONResponse

        response = JSONResponse(
            body, status_code=status, media_type=PROBLEM_JSON, headers=problem_headers(status, body)
        )
        await response(scope, receive, send)
