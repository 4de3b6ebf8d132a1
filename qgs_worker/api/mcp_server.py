"""The MCP server (``qgs mcp``): the agent's six tools and the spot-checks', over ``Operations``.

Tools (each a thin call of ``Operations``; inputs are JSON Schemas that refuse unknown fields)::

    start_task        {request, agent?, model?, requirements?, criteria?, task_type?} -> TaskOut
    submit_round      {task_id, deliverable, tool_calls?, tool_results?, final?, ...}  -> submission
    get_decision      {submission_id, wait_s? (0-60), until_approved?}                 -> DecisionOut
    get_constraints   {task_id}                                                        -> constraints
    check_tool_call   {call, tools? | tool_set?, agent?}   -> the six-layer report (check-tool JSON)
    register_tools    {tools}                              -> {tool_set, tools}: name it in checks

Spot-checks (``api.spot_checks``; the same operations as ``/v1/spot-checks``)::

    request_spot_check  {submission_id, note?}                   -> the queue item
    list_spot_checks    {status?, task_type?, decision?, limit?} -> {items}
    get_spot_check      {submission_id}                          -> the round, its items, labels
    label_spot_check    {submission_id, decision_correct, verdict, severities?, note?} -> item
    get_agreement       {scope?}                       -> kappa, alpha, FP/FN, rounds; shadow

A result is structured content (the same JSON the HTTP API answers) and the same JSON as text.
An error is an MCP tool error (``isError``) whose structured content is the problem document
(``qgs_worker.api.problems``) and whose text is its title, detail and fix.

Authentication is the HTTP API's keys. Over stdio the key is the server's ``QGS_API_KEY``
(checked at start: ``run_stdio`` raises ``AuthenticationError`` for a bad one) and counted on
every call; over streamable HTTP each request's ``Authorization: Bearer`` header is checked by
``BearerKeys`` before the SDK sees it (401 problem document without a live key).

The SDK (``mcp``) is imported here and by the ``qgs mcp`` command only.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from pydantic import BaseModel, Field, StrictBool, ValidationError
from starlette.authentication import AuthCredentials
from starlette.types import ASGIApp, Scope

from qgs_worker.api.auth import PRINCIPAL_SCOPE_KEY, BearerAuth
from qgs_worker.api.idempotency import KEY_MAX_CHARS
from qgs_worker.api.middleware import BodyLimit
from qgs_worker.api.operations import WAIT_MAX_S, Operations, Principal
from qgs_worker.api.problems import internal_problem, problem, problem_for, validation_problem
from qgs_worker.api.schemas import (
    ConstraintsOut,
    DecisionOut,
    RoundIn,
    SubmissionOut,
    TaskIn,
    TaskOut,
    ToolCallCheckIn,
    ToolSetIn,
    ToolSetOut,
    _In,
)
from qgs_worker.api.spot_check_schemas import (
    AgreementArgs,
    LabelArgs,
    SpotCheckArgs,
    SpotCheckIn,
    SpotChecksArgs,
)
from qgs_worker.core.models import Deliverable, ToolCall, ToolResult

__all__ = ["PRINCIPAL_SCOPE_KEY", "BearerKeys", "create_http_app", "create_server", "run_stdio"]

log = logging.getLogger(__name__)


_IDEMPOTENCY = Field(
    default=None,
    min_length=1,
    max_length=KEY_MAX_CHARS,
    description="send the same key again with the same arguments to retry: the same answer, "
    "nothing made twice (another request with it is refused)",
)


class StartTaskArgs(TaskIn):
    """``start_task``: a new task for the key's principal."""

    idempotency_key: str | None = _IDEMPOTENCY


class SubmitRoundArgs(RoundIn):
    """``submit_round``: one round of a task handed in for review."""

    task_id: str = Field(min_length=1, description="from start_task")
    idempotency_key: str | None = _IDEMPOTENCY


class GetDecisionArgs(_In):
    """``get_decision``: the decision on a submission, waiting up to ``wait_s`` seconds."""

    submission_id: str = Field(min_length=1, description="from submit_round")
    wait_s: float = Field(
        default=0.0,
        ge=0,
        le=WAIT_MAX_S,
        allow_inf_nan=False,
        strict=True,
        description="long-poll up to this many seconds (0-60)",
    )
    until_approved: StrictBool = Field(
        default=False, description="a decision awaiting a person counts once they decided"
    )


class GetConstraintsArgs(_In):
    """``get_constraints``: the text to add to the agent's next prompt."""

    task_id: str = Field(min_length=1, description="from start_task")


_Handler = Callable[[Operations, Principal, Any], Awaitable[dict[str, Any]]]


async def _start_task(ops: Operations, me: Principal, args: StartTaskArgs) -> dict[str, Any]:
    handle = await asyncio.to_thread(lambda: ops.start_task(me, **args.model_dump()))
    out = TaskOut(
        id=handle.id,
        task_type=handle.task_type,
        complexity=handle.complexity,
        classification=handle.classification,
    )
    return out.model_dump(mode="json")


async def _submit_round(ops: Operations, me: Principal, args: SubmitRoundArgs) -> dict[str, Any]:
    deliverable = Deliverable(
        text=args.deliverable,
        tool_calls=tuple(ToolCall(**c.model_dump()) for c in args.tool_calls),
        tool_results=tuple(ToolResult(**r.model_dump()) for r in args.tool_results),
    )
    rest = args.model_dump(exclude={"task_id", "deliverable", "tool_calls", "tool_results"})
    handle = await asyncio.to_thread(
        lambda: ops.submit_round(me, args.task_id, deliverable, **rest)
    )
    return SubmissionOut.of(handle.id, handle.task_id).model_dump(mode="json")


async def _get_decision(ops: Operations, me: Principal, args: GetDecisionArgs) -> dict[str, Any]:
    result = await ops.get_decision_async(
        me, args.submission_id, wait_s=args.wait_s, until_approved=args.until_approved
    )
    out = DecisionOut(
        submission_id=args.submission_id,
        decided=result.decision is not None,
        decision=result.decision,
        woken_by=result.source,
        detail=result.detail,
    )
    return out.model_dump(mode="json")


async def _get_constraints(
    ops: Operations, me: Principal, args: GetConstraintsArgs
) -> dict[str, Any]:
    text = await asyncio.to_thread(ops.constraints, me, args.task_id)
    return ConstraintsOut(task_id=args.task_id, constraints=text).model_dump(mode="json")


async def _check_tool_call(ops: Operations, me: Principal, args: ToolCallCheckIn) -> dict[str, Any]:
    report = await asyncio.to_thread(
        lambda: ops.check_tool_call(
            me, args.call, tools=args.tools, agent=args.agent, tool_set=args.tool_set
        )
    )
    return report.to_dict()


async def _register_tools(ops: Operations, me: Principal, args: ToolSetIn) -> dict[str, Any]:
    found = await asyncio.to_thread(ops.register_tools, me, args.tools)
    return ToolSetOut(tool_set=found.id, tools=found.tools).model_dump()


async def _request_spot_check(ops: Operations, me: Principal, args: SpotCheckIn) -> dict[str, Any]:
    item, created = await asyncio.to_thread(
        lambda: ops.request_spot_check(me, args.submission_id, note=args.note)
    )
    return {**item, "created": created}


async def _list_spot_checks(ops: Operations, me: Principal, args: SpotChecksArgs) -> dict[str, Any]:
    items = await asyncio.to_thread(lambda: ops.spot_checks(me, **args.model_dump()))
    return {"items": items}


async def _get_spot_check(ops: Operations, me: Principal, args: SpotCheckArgs) -> dict[str, Any]:
    return await asyncio.to_thread(ops.spot_check, me, args.submission_id)


async def _label_spot_check(ops: Operations, me: Principal, args: LabelArgs) -> dict[str, Any]:
    return await asyncio.to_thread(
        lambda: ops.label_spot_check(
            me,
            args.submission_id,
            decision_correct=args.decision_correct,
            verdict=args.verdict,
            severities=args.severities,
            note=args.note,
        )
    )


async def _get_agreement(ops: Operations, me: Principal, args: AgreementArgs) -> dict[str, Any]:
    return await asyncio.to_thread(lambda: ops.agreement(me, scope=args.scope))


_TOOLS: dict[str, tuple[type[BaseModel], _Handler, str]] = {
    "start_task": (
        StartTaskArgs,
        _start_task,
        "Classify a user request and store it as a new task; returns its id, type and "
        "complexity. Call get_constraints next and add its text to your prompt.",
    ),
    "submit_round": (
        SubmitRoundArgs,
        _submit_round,
        "Hand in one round (the deliverable, the tool calls made) for review; returns the "
        "submission id at once. Then call get_decision with wait_s.",
    ),
    "get_decision": (
        GetDecisionArgs,
        _get_decision,
        "The gate's decision on a submission (pass, pass_with_suggestions, revise, "
        "force_deliver, block, awaiting_approval), waiting up to wait_s (<= 60) seconds. "
        "decided false: ask again. A force_deliver carries replan: the loop stopped without a "
        "pass; its criteria never met and must_fix items that kept coming back go back to the "
        "planner.",
    ),
    "get_constraints": (
        GetConstraintsArgs,
        _get_constraints,
        "The quality requirements and open must-fix items to add to the agent's next prompt "
        "(empty for simple tasks).",
    ),
    "check_tool_call": (
        ToolCallCheckIn,
        _check_tool_call,
        "Check one tool call before running it: the six-layer report (format, existence, "
        "parameters, business rules, permission, injection). Run the call only if allowed. "
        "With many tools, register them once (register_tools) and pass tool_set instead.",
    ),
    "register_tools": (
        ToolSetIn,
        _register_tools,
        "Register the agent's tools list once; returns its tool_set id (the same for the same "
        "definitions). Pass it as tool_set to check_tool_call instead of the tools.",
    ),
    "request_spot_check": (
        SpotCheckIn,
        _request_spot_check,
        "For a person measuring the judge (key scope spot-check): queue a decided round for a "
        "human spot-check; returns the queue item (created false: it was queued already).",
    ),
    "list_spot_checks": (
        SpotChecksArgs,
        _list_spot_checks,
        "The spot-check queue, oldest first: status open (not labelled yet), labelled, stale "
        "(decided again since) or all.",
    ),
    "get_spot_check": (
        SpotCheckArgs,
        _get_spot_check,
        "One round to spot-check: the request, the deliverable, the review, findings and "
        "decision, and the labels given so far.",
    ),
    "label_spot_check": (
        LabelArgs,
        _label_spot_check,
        "Record your label of a queued round (key scope spot-check): whether the gate's "
        "decision was right, the verdict you would give, and severities per rule (none: the "
        "finding should not have fired). Once per person per decision.",
    ),
    "get_agreement": (
        AgreementArgs,
        _get_agreement,
        "Agreement of the gate with people per judge, task type and detector rule: Cohen's "
        "kappa with its 95% interval, Krippendorff's alpha among people, false positives and "
        "negatives, the rounds behind each figure, and the shadow states.",
    ),
}


def tool_definitions() -> list[types.Tool]:
    """The tools as ``tools/list`` gives them (input schemas with additionalProperties false)."""
    return [
        types.Tool(name=name, description=text, input_schema=model.model_json_schema())
        for name, (model, _handler, text) in _TOOLS.items()
    ]


def _text(body: dict[str, Any]) -> list[types.TextContent]:
    return [types.TextContent(type="text", text=json.dumps(body, ensure_ascii=False))]


def _tool_error(status: int, body: dict[str, Any]) -> types.CallToolResult:
    """A tool error carrying the problem document (structured) and its title/detail/fix (text)."""
    fixes = "; ".join(e["fix"] for e in body.get("errors", ()) if e.get("fix"))
    text = f"{body['title']} ({status}): {body['detail']}" + (f" - fix: {fixes}" if fixes else "")
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)],
        structured_content=body,
        is_error=True,
    )


def create_server(
    ops: Operations, *, principal_of: Callable[[ServerRequestContext[Any]], Principal]
) -> Server[Any]:
    """The MCP server (the SDK's low-level ``Server``) with the tools.

    Args:
        ops: The operations layer every tool calls.
        principal_of: Who a call acts for, given its request context (stdio: the server's key,
            authenticated per call; HTTP: what ``BearerKeys`` found). It may raise
            ``AuthenticationError`` / ``RateLimitedError``: the call is then a tool error.
    """

    async def list_tools(
        _ctx: ServerRequestContext[Any], _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tool_definitions())

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        entry = _TOOLS.get(params.name)
        if entry is None:
            detail = f"no tool named {params.name!r}: call one of {', '.join(_TOOLS)}"
            fix = "call tools/list for the tools and their inputs"
            return _tool_error(
                404, problem(404, detail, [{"field": "name", "message": detail, "fix": fix}])
            )
        model, handler, _text_of = entry
        try:
            args = model.model_validate(params.arguments or {})
        except ValidationError as exc:
            return _tool_error(*validation_problem([dict(e) for e in exc.errors()]))
        try:
            me = await asyncio.to_thread(principal_of, ctx)
            body = await handler(ops, me, args)
        except Exception as exc:
            found = problem_for(exc)
            if found is None:
                log.error("unexpected error in MCP tool %s: %s", params.name, type(exc).__name__)
                return _tool_error(500, internal_problem(exc))
            return _tool_error(*found)
        return types.CallToolResult(content=_text(body), structured_content=body)

    return Server(
        "qgs",
        version="1",
        instructions="QGS, a quality gate: start_task, get_constraints, submit_round, "
        "get_decision (wait), check_tool_call before running a tool.",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def run_stdio(ops: Operations, key: str | None) -> None:
    """Serve MCP over this process's stdin/stdout until the client closes it.

    Args:
        ops: The operations layer.
        key: The API key every call acts with (the server's ``QGS_API_KEY``).

    Raises:
        AuthenticationError: no key, or one that is unknown or revoked (checked before serving).
    """
    from mcp.server.stdio import stdio_server

    ops.authenticate(key)  # a bad key stops the server here, with the message saying the fix

    def principal_of(_ctx: ServerRequestContext[Any]) -> Principal:
        return ops.authenticate(key)  # per call: a key revoked meanwhile is refused, and counted

    server = create_server(ops, principal_of=principal_of)

    async def serve() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    asyncio.run(serve())


class BearerKeys(BearerAuth):
    """``BearerAuth`` on every MCP request, binding the session to the key's principal.

    Without a live key the answer is a 401 problem document (429 over the key's rate limit, 503
    when the store is down); with one the request's scope carries the ``Principal`` (under
    ``PRINCIPAL_SCOPE_KEY``) and the SDK's ``AuthenticatedUser`` (so an MCP session is bound to
    the principal that opened it). The key's secret is never put in the scope.
    """

    def __init__(self, app: ASGIApp, ops: Operations) -> None:
        super().__init__(app, ops, prefix=None)

    def admitted(self, scope: Scope, me: Principal) -> None:
        """Give the SDK the principal as its authenticated user."""
        token = AccessToken(token=me.key_id or "", client_id=me.name, scopes=sorted(me.scopes))
        scope["user"] = AuthenticatedUser(token)
        scope["auth"] = AuthCredentials(sorted(me.scopes))


def create_http_app(ops: Operations, *, host: str = "127.0.0.1") -> ASGIApp:
    """The streamable-HTTP MCP app (endpoint ``/mcp``), every request behind ``BearerKeys``.

    A body over ``QGS_API__MAX_BODY_BYTES`` is refused with 413 before the SDK reads it, as
    the HTTP API does.

    Args:
        ops: The operations layer.
        host: The address served; on loopback the SDK's DNS-rebinding protection is on.
    """

    def principal_of(ctx: ServerRequestContext[Any]) -> Principal:
        request = ctx.request
        found = getattr(request, "scope", {}).get(PRINCIPAL_SCOPE_KEY)
        if not isinstance(found, Principal):  # BearerKeys let it through: it always sets one
            raise RuntimeError("an MCP request reached a tool without a principal")
        return found

    server = create_server(ops, principal_of=principal_of)
    sdk_app = server.streamable_http_app(host=host)
    return BearerKeys(BodyLimit(sdk_app, max_bytes=ops.settings.api.max_body_bytes), ops)
