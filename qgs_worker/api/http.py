"""The HTTP API (``qgs serve``): FastAPI over ``Operations``; OpenAPI at ``/openapi.json``.

Routes (every ``/v1`` route needs ``Authorization: Bearer <key>``)::

    POST /v1/tasks                               start a task            201 TaskOut
    POST /v1/tasks/{task_id}/rounds              submit a round          202 SubmissionOut
    GET  /v1/submissions/{id}/decision?wait_s=N  the decision (long-poll) 200 decided / 202 not yet
    GET  /v1/tasks/{task_id}                     what `qgs status` says  200
    GET  /v1/tasks/{task_id}/constraints         prompt constraints      200 ConstraintsOut
    POST /v1/tool-sets                           register a tools list   201 ToolSetOut (ETag)
    POST /v1/tool-calls/check                    the six-layer report    200 (allowed or not)
    POST /v1/tasks/{task_id}/approval            approve / reject        200 (scope approve)
    /v1/spot-checks..., /v1/agreement, /v1/shadow   spot-checks and shadow (``.spot_check_routes``)
    GET  /healthz                                the process is up       200
    GET  /readyz                                 broker, store, a worker 200 / 503
    GET  /ui/...                                 the operator console (``api.console``)

In front of the routes, outermost first (``qgs_worker.api.middleware``, ``.auth``): the metrics
(``HttpMetrics``), ``HEAD`` served as ``GET`` (``HeadAsGet``), the API key (``BearerAuth``: a
``/v1`` request without a live key is a 401 before anything of it is read), the body's size
(``BodyLimit``: over ``QGS_API__MAX_BODY_BYTES``, a 413 before it is parsed, so nothing of it
is stored). Errors are problem documents (``application/problem+json``,
``qgs_worker.api.problems``), and ``/openapi.json`` publishes them by route (``.openapi``).
``POST /v1/tasks`` and its rounds take an ``Idempotency-Key`` (``.idempotency``).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from qgs_worker.api.access import operator_path
from qgs_worker.api.auth import PRINCIPAL_SCOPE_KEY, PROBLEM_JSON, BearerAuth, problem_headers
from qgs_worker.api.idempotency import KEY_MAX_CHARS
from qgs_worker.api.middleware import BODY_SCOPE_KEY, BodyLimit, HeadAsGet, HttpMetrics
from qgs_worker.api.openapi import install as install_openapi
from qgs_worker.api.operations import WAIT_MAX_S, Operations, Principal
from qgs_worker.api.problems import (
    UNAVAILABLE_RETRY_AFTER_S,
    body_problem,
    internal_problem,
    problem,
    problem_for,
    validation_problem,
)
from qgs_worker.api.schemas import (
    ApprovalIn,
    ConstraintsOut,
    DecisionOut,
    RoundIn,
    SubmissionOut,
    TaskIn,
    TaskOut,
    ToolCallCheckIn,
    ToolSetIn,
    ToolSetOut,
)
from qgs_worker.config.settings import Settings
from qgs_worker.core.models import Deliverable, ToolCall, ToolResult
from qgs_worker.core.views import ApprovalView
from qgs_worker.encoders import install as install_encoder
from qgs_worker.errors import AuthenticationError

__all__ = ["PROBLEM_JSON", "BodyLimit", "HeadAsGet", "create_app"]  # the middleware: re-exported

log = logging.getLogger(__name__)

_STARLETTE_PARSE_ERROR = "There was an error parsing the body"
"""FastAPI's 400 detail for a body it could not decode (not UTF-8, nested too deep...)."""
DOCS_ASSETS = "/docs-assets"
"""Where Swagger UI's and ReDoc's files are served from (the package's copies, no CDN)."""

WAKE_HEADER = "QGS-Woken-By"
"""The response header of a decision naming what ended its wait (as ``DecisionOut.woken_by``)."""

_bearer = HTTPBearer(auto_error=False, description="an API key from `qgs keys create`")


def _principal(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal:
    """The request's principal, as ``BearerAuth`` found it before the request was read.

    ``credentials`` only documents the bearer scheme in OpenAPI: the key was checked (and
    counted) by the middleware, before the body or the query was looked at.
    """
    del credentials
    found = request.scope.get(PRINCIPAL_SCOPE_KEY)
    if not isinstance(found, Principal):  # BearerAuth admits no /v1 request without one
        raise AuthenticationError("no API key: send 'Authorization: Bearer <key>'")
    return found


def _known_query(request: Request) -> None:
    """Refuse a query parameter the route does not take (``?wait=30`` for ``wait_s``): a 422.

    Requests bodies refuse unknown fields (``extra="forbid"``); a misspelt query parameter would
    otherwise be ignored and the caller would never learn why its long-poll did not wait. A
    boolean parameter takes ``true`` or ``false`` only.

    Raises:
        RequestValidationError: one ``extra_forbidden`` item per unknown parameter, or one
            ``bool_type`` item per boolean that is not ``true``/``false``.
    """
    route = request.scope.get("route")
    dependant = getattr(route, "dependant", None)
    if dependant is None:
        return
    params = _query_params(dependant)
    known = {p.alias for p in params}
    unknown = [name for name in dict.fromkeys(request.query_params) if name not in known]
    if unknown:
        raise RequestValidationError(
            [
                {
                    "type": "extra_forbidden",
                    "loc": ("query", name),
                    "msg": "Extra inputs are not permitted",
                    "input": request.query_params.get(name),
                }
                for name in unknown
            ]
        )
    # A boolean is true or false, as in a JSON body: "yes", "1" or "on" is refused, not true.
    loose = [
        (p.alias, request.query_params[p.alias])
        for p in params
        if p.field_info.annotation is bool
        and p.alias in request.query_params
        and request.query_params[p.alias] not in ("true", "false")
    ]
    if loose:
        raise RequestValidationError(
            [
                {
                    "type": "bool_type",
                    "loc": ("query", name),
                    "msg": f"Input should be true or false (got {value!r})",
                    "input": value,
                }
                for name, value in loose
            ]
        )


def _query_params(dependant: Any) -> list[Any]:
    params = list(dependant.query_params)
    for sub in dependant.dependencies:
        params.extend(_query_params(sub))
    return params


IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=KEY_MAX_CHARS,
        pattern=r"^[!-~]+$",
        description="send the same key again (with the same request) to retry it: the same "
        "answer, nothing made twice; a key with another request is a 409. Keys are the "
        "principal's, kept QGS_API__IDEMPOTENCY_TTL_S (24 h)",
    ),
]
"""The optional ``Idempotency-Key`` header of the creating routes."""

Me = Annotated[Principal, Depends(_principal)]
"""An endpoint's authenticated principal (401/429 raised before the endpoint runs)."""


API_DESCRIPTION = (
    "Every /v1 request sends `Authorization: Bearer <key>`. An agent's key (`qgs keys create "
    "--principal NAME`) may use every route, on its own principal's tasks. A person's key "
    "(`qgs keys create --operator NAME --sees PRINCIPAL`) may use only the spot-check routes "
    "(/v1/spot-checks..., /v1/agreement, /v1/shadow), over the principals it sees, and the "
    "console at /ui; any other route answers it 403. Labelling needs the `spot-check` scope; "
    "`POST /v1/shadow` an operator key with `spot-check` that sees all (`--sees all`), since a "
    "shadow state changes every principal's gate."
)
"""The OpenAPI document's description: who may call what (docs/http-api.md says the same)."""


def _problem_response(
    status: int, body: dict[str, Any], headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def create_app(
    settings: Settings | None = None, *, operations: Operations | None = None
) -> FastAPI:
    """The ASGI app of the HTTP API.

    Args:
        settings: QGS settings (``QGS_*`` environment when None); ``broker_url`` must be set
            to submit (``qgs serve`` starts the embedded broker when it is not).
        operations: The operations layer to serve (built from ``settings`` when None).

    ``app.state.operations`` is the layer (its ``notifier.wakeups`` counts wake sources).
    """
    ops = operations or Operations(settings)
    cfg = ops.settings.api
    install_encoder()  # the sentence encoder beside the n-grams, where qgs[encoder] is installed

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        ops.close()

    # /docs and /redoc load Swagger UI and ReDoc from the package (fastapi-offline ships them),
    # not from a CDN: the pages work on a machine with no internet.
    app = FastAPIOffline(
        static_url=DOCS_ASSETS,
        title="QGS",
        version="1",
        summary="A quality gate for autonomous AI agents: reviews, decisions, tool-call checks.",
        description=API_DESCRIPTION,
        lifespan=lifespan,
        dependencies=[Depends(_known_query)],
    )
    app.state.operations = ops
    install_openapi(app)
    # The last added runs first: the metrics, HEAD as GET, the key, the body's size, FastAPI.
    app.add_middleware(BodyLimit, max_bytes=cfg.max_body_bytes)
    app.add_middleware(BearerAuth, ops=ops, prefix="/v1/", operator_path=operator_path)
    app.add_middleware(HeadAsGet)
    app.add_middleware(HttpMetrics, router=app.router)
    _install_error_handlers(app)
    from qgs_worker.queue.celery_app import QUEUES
    from qgs_worker.telemetry import metrics_asgi_app

    # Prometheus text format, not under /v1 and without a key (like /healthz): scrapers
    # reach it on the address `qgs serve` binds (loopback by default).
    # Both /metrics (what scrapers ask for: no 307 to /metrics/) and /metrics/ (the mount).
    metrics = metrics_asgi_app(ops.settings, QUEUES, agreement=ops.agreement_snapshot)
    app.router.routes.append(Route("/metrics", endpoint=_AsgiApp(metrics), include_in_schema=False))
    app.mount("/metrics", metrics)
    from qgs_worker.api.console import mount_console

    # The operator console: pages under /ui (sessions of their own, not a bearer key).
    mount_console(app, ops)

    @app.post("/v1/tasks", status_code=201, response_model=TaskOut, tags=["tasks"])
    def start_task(body: TaskIn, me: Me, idempotency_key: IdempotencyKey = None) -> TaskOut:
        """Classify a request and store it as a new task of the key's principal."""
        handle = ops.start_task(
            me,
            body.request,
            agent=body.agent,
            model=body.model,
            requirements=body.requirements,
            criteria=body.criteria,
            task_type=body.task_type,
            callback_url=body.callback_url,
            idempotency_key=idempotency_key,
        )
        return TaskOut(
            id=handle.id,
            task_type=handle.task_type,
            complexity=handle.complexity,
            classification=handle.classification,
        )

    @app.post(
        "/v1/tasks/{task_id}/rounds", status_code=202, response_model=SubmissionOut, tags=["tasks"]
    )
    def submit_round(
        task_id: str, body: RoundIn, me: Me, idempotency_key: IdempotencyKey = None
    ) -> SubmissionOut:
        """Queue one round for review; returns at once with the submission id."""
        deliverable = Deliverable(
            text=body.deliverable,
            tool_calls=tuple(ToolCall(**c.model_dump()) for c in body.tool_calls),
            tool_results=tuple(ToolResult(**r.model_dump()) for r in body.tool_results),
        )
        handle = ops.submit_round(
            me,
            task_id,
            deliverable,
            final=body.final,
            round_number=body.round_number,
            turn=body.turn,
            callback_url=body.callback_url,
            idempotency_key=idempotency_key,
        )
        return SubmissionOut.of(handle.id, handle.task_id)

    @app.get(
        "/v1/submissions/{submission_id}/decision",
        response_model=DecisionOut,
        responses={202: {"model": DecisionOut, "description": "no decision within wait_s"}},
        tags=["decisions"],
    )
    async def get_decision(
        submission_id: str,
        me: Me,
        wait_s: Annotated[
            float,
            Query(
                ge=0,
                le=WAIT_MAX_S,
                allow_inf_nan=False,
                description="long-poll up to this many seconds (0 to 60)",
            ),
        ] = 0.0,
        until_approved: Annotated[
            bool,
            Query(
                description="a decision awaiting a person counts once they decided (true or false)"
            ),
        ] = False,
    ) -> JSONResponse:
        """The decision on a submission; with ``wait_s``, wait for it (woken by a notification)."""
        result = await ops.get_decision_async(
            me, submission_id, wait_s=wait_s, until_approved=until_approved
        )
        out = DecisionOut(
            submission_id=submission_id,
            decided=result.decision is not None,
            decision=result.decision,
            woken_by=result.source,
            detail=result.detail,
        )
        return JSONResponse(
            out.model_dump(mode="json"),
            status_code=200 if out.decided else 202,
            headers={WAKE_HEADER: result.source},
        )

    @app.get("/v1/tasks/{task_id}", tags=["tasks"])
    def task_status(task_id: str, me: Me) -> dict[str, Any]:
        """The task's rounds, reviews, findings, decisions and approvals (``qgs status``)."""
        return ops.task_status(me, task_id)

    @app.get("/v1/tasks/{task_id}/constraints", response_model=ConstraintsOut, tags=["tasks"])
    def constraints(task_id: str, me: Me) -> ConstraintsOut:
        """The text to add to the agent's next prompt (empty for SIMPLE tasks)."""
        return ConstraintsOut(task_id=task_id, constraints=ops.constraints(me, task_id))

    @app.post("/v1/tool-calls/check", tags=["tool calls"])
    def check_tool_call(body: ToolCallCheckIn, me: Me) -> dict[str, Any]:
        """The six-layer report on one call (``qgs check-tool --format json``); principal: the key's."""
        return ops.check_tool_call(
            me, body.call, tools=body.tools, agent=body.agent, tool_set=body.tool_set
        ).to_dict()

    @app.post("/v1/tool-sets", status_code=201, response_model=ToolSetOut, tags=["tool calls"])
    def register_tools(body: ToolSetIn, me: Me) -> JSONResponse:
        """Register a tools list once; name it as ``tool_set`` in checks (``qgs_worker.api.tool_sets``)."""
        found = ops.register_tools(me, body.tools)
        out = ToolSetOut(tool_set=found.id, tools=found.tools)
        return JSONResponse(out.model_dump(), status_code=201, headers={"ETag": f'"{found.id}"'})

    @app.post("/v1/tasks/{task_id}/approval", response_model=ApprovalView, tags=["tasks"])
    def approval(task_id: str, body: ApprovalIn, me: Me) -> ApprovalView:
        """Approve or reject a task whose latest decision awaits a person (scope ``approve``)."""
        return ops.approve(
            me, task_id, by=body.by, note=body.note, reject=body.decision == "reject"
        )

    from qgs_worker.api import spot_check_routes

    spot_check_routes.install(app, ops, _principal)

    @app.get("/healthz", tags=["health"])
    def healthz() -> dict[str, str]:
        """The process is up (no dependency is asked)."""
        return {"status": "ok"}

    @app.get("/readyz", tags=["health"])
    def readyz() -> JSONResponse:
        """The broker and the store answer and at least one worker replies to a ping."""
        from qgs_worker.api.readiness import readiness

        checks = readiness(ops, timeout_s=cfg.ready_timeout_s)
        if all(c["ok"] for c in checks.values()):
            return JSONResponse({"status": "ready", "checks": checks})
        failing = [name for name, c in checks.items() if not c["ok"]]
        body = problem(
            503,
            "not ready: " + "; ".join(f"{n}: {checks[n]['detail']}" for n in failing),
            [
                {"field": None, "message": f"{n}: {checks[n]['detail']}", "fix": checks[n]["fix"]}
                for n in failing
            ],
            checks=checks,
            retry_after_s=UNAVAILABLE_RETRY_AFTER_S,
        )
        return _problem_response(503, body, problem_headers(503, body))

    return app


class _AsgiApp:
    """An ASGI app as an object: Starlette's ``Route`` would call a plain function as a handler."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on unchanged."""
        await self.app(scope, receive, send)


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        status, body = validation_problem(
            list(exc.errors()), content_type=request.headers.get("content-type")
        )
        return _problem_response(status, body)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = str(exc.detail)
        headers = dict(exc.headers or {})
        fix = "see /openapi.json for the routes" if exc.status_code == 404 else ""
        if exc.status_code == 405:
            allowed = [m.strip() for m in headers.get("Allow", "").split(",") if m.strip()]
            if "GET" in allowed and "HEAD" not in allowed:
                allowed.append("HEAD")  # HeadAsGet answers HEAD wherever GET is served
            headers["Allow"] = ", ".join(allowed)
            detail = f"{request.method} is not allowed on {request.url.path}"
            fix = f"send one of {headers['Allow']} (the Allow header); see /openapi.json"
        if exc.status_code == 400 and detail == _STARLETTE_PARSE_ERROR:
            body = request.scope.get(BODY_SCOPE_KEY, b"")
            return _problem_response(
                400, body_problem(body, request.headers.get("content-encoding"))
            )
        return _problem_response(
            exc.status_code,
            problem(exc.status_code, detail, [{"field": None, "message": detail, "fix": fix}]),
            headers,
        )

    async def _known(request: Request, exc: Exception) -> JSONResponse:
        found = problem_for(exc)
        if found is None:  # an error class registered below that problem_for does not know
            raise exc
        status, body = found
        return _problem_response(status, body, problem_headers(status, body))

    for error in _known_errors():
        app.add_exception_handler(error, _known)

    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error(
            "unexpected error on %s %s: %s", request.method, request.url.path, type(exc).__name__
        )
        return _problem_response(500, internal_problem(exc))

    app.add_exception_handler(Exception, _unexpected)


def _known_errors() -> list[type[Exception]]:
    """The error classes ``problem_for`` maps: QGS's own, the store's and the broker's."""
    import kombu.exceptions
    import redis.exceptions
    import sqlalchemy.exc

    from qgs_worker.errors import QGSError

    return [
        QGSError,
        sqlalchemy.exc.OperationalError,
        sqlalchemy.exc.InterfaceError,
        redis.exceptions.ConnectionError,
        redis.exceptions.TimeoutError,
        kombu.exceptions.OperationalError,
    ]
