"""The console's routes under ``/ui``: sign in and out, the inbox, live decisions, a task, queue health.

Pages (GET; without a session they redirect to ``/ui/login``)::

    /ui/login                 the sign-in form (an operator's or an agent's key)
    /ui/inbox                 tasks awaiting a person, the longest waiting first
    /ui/live?decision=&task_type=&severity=&agent=   the task list, updated live (SSE: /ui/events)
    /ui/tasks/{task_id}       a task's rounds, reviews, findings, decisions, approvals, webhooks
    /ui/queue                 queue depths, late rounds, dead letters, failing webhooks, workers
    /ui/spot-checks           the open spot-checks, the label form, agreement (``spot_check_page``)

Forms (POST, ``application/x-www-form-urlencoded``, each with its CSRF token): ``/ui/login``,
``/ui/logout``, ``/ui/tasks/{task_id}/approval`` (``decision`` approve or reject, ``note``).

A page is added as a route here (or in a module of its own, calling ``ConsolePages.signed_in``
and ``ConsolePages.render``), a template extending ``base.html.j2``, and a ``NavEntry`` in
``NAV`` naming the scope it needs, as the spot-checks page (``spot_check_page``: ``/ui/spot-checks``,
for operators with ``view``; its form needs ``spot-check``) is.
"""

from __future__ import annotations

import asyncio
import urllib.parse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Query, Request
from starlette.responses import RedirectResponse, Response

from qgs_worker.api.console.changes import changes, spark_points
from qgs_worker.api.console.forms import TooLarge, read_form
from qgs_worker.api.console.render import page
from qgs_worker.api.console.sessions import (
    LOGIN_COOKIE,
    LOGIN_S,
    SESSION_COOKIE,
    SESSION_S,
    SessionCodec,
    clear_cookie,
    set_cookie,
)
from qgs_worker.core.free_text import check_free_text, is_blank
from qgs_worker.core.models import DecisionKind, Severity, TaskType
from qgs_worker.errors import (
    AuthenticationError,
    InputError,
    PermissionDeniedError,
    RateLimitedError,
    TaskNotFoundError,
)
from qgs_worker.service.console_model import LineFilter
from qgs_worker.store.keys import SCOPE_APPROVE, SCOPE_SPOT_CHECK, SCOPE_VIEW

if TYPE_CHECKING:
    from qgs_worker.api.access import Principal
    from qgs_worker.api.console.sessions import Session
    from qgs_worker.api.operations import Operations

__all__ = ["DECISION_CHOICES", "LIVE_ROWS_MAX", "NAV", "ConsolePages", "NavEntry", "line_filter"]

NOTICES = {
    "approved": "You approved this task.",
    "rejected": "You rejected this task.",
    "asked": "The round is queued for a spot-check: label it on the Spot-checks page.",
    "queued": "The round was in the spot-check queue already: label it on the Spot-checks page.",
}
"""What a task's page says after a form was done (``?done=``)."""
LIVE_LINES = 200
"""How many task lines the live page shows."""
LIVE_ROWS_MAX = 500
"""The most rows the live list keeps as decisions arrive (``console.js`` drops the oldest and
says how many): an open tab on thousands of live tasks would otherwise grow without bound,
slowing the browser; 500 rows is a few minutes of a busy deployment, more than a person reads."""


@dataclass(frozen=True)
class NavEntry:
    """A page in the console's navigation: its path, its label, who sees the entry.

    ``scope``: the scope a key needs (None: every signed-in key); ``operator_only``: only a
    person's key (the page shows the whole deployment).
    """

    path: str
    label: str
    scope: str | None = None
    operator_only: bool = False

    def allowed(self, me: Principal) -> bool:
        """Whether ``me`` sees this entry."""
        if self.operator_only and not me.operator:
            return False
        return self.scope is None or me.has(self.scope)


NAV: list[NavEntry] = [
    NavEntry("/ui/inbox", "Approvals inbox"),
    NavEntry("/ui/live", "Live decisions"),
    NavEntry("/ui/queue", "Queue health", SCOPE_VIEW, operator_only=True),
    NavEntry("/ui/spot-checks", "Spot-checks", SCOPE_VIEW, operator_only=True),
]
"""The navigation, in order (append a page's entry here)."""

DECISION_CHOICES = tuple(
    dict.fromkeys(
        ("awaiting_approval", "approved", "rejected", "undecided", *(k.value for k in DecisionKind))
    )
)
"""What the live page's decision filter offers: outcomes, then the gate's decisions."""


def line_filter(
    decision: str | None, task_type: str | None, severity: str | None, agent: str | None
) -> LineFilter:
    """A ``LineFilter`` from the live page's query; empty values are no filter.

    Raises:
        InputError: a decision, task type or severity that is not one of the choices, or an
            agent with a control character (a NUL is a 500 on PostgreSQL otherwise).
    """
    checks = (
        ("decision", decision, DECISION_CHOICES),
        ("task_type", task_type, tuple(t.value for t in TaskType)),
        ("severity", severity, tuple(s.value for s in Severity)),
    )
    for name, value, allowed in checks:
        if value and value not in allowed:
            raise InputError(f"'{name}' must be one of {', '.join(allowed)} (got {value!r})")
    try:
        check_free_text(agent or "", "agent")
    except ValueError as exc:
        raise InputError(str(exc)) from None
    return LineFilter(
        decision=decision or None,
        task_type=task_type or None,
        severity=severity or None,
        agent=None if is_blank(agent) else (agent or "").strip(),
    )


class ConsolePages:
    """The console's routes over one ``Operations`` (``router`` is mounted by ``mount_console``)."""

    def __init__(self, ops: Operations) -> None:
        self.ops = ops
        self._codec: SessionCodec | None = None
        self.router = APIRouter(prefix="/ui", include_in_schema=False)
        self._routes()

    @property
    def codec(self) -> SessionCodec:
        """The session signer (derived from the webhook master secret on first use)."""
        if self._codec is None:
            from qgs_worker.webhooks.key_secrets import master_secret

            self._codec = SessionCodec(master_secret(self.ops.settings))
        return self._codec

    # -- sessions ----------------------------------------------------------------------------

    def signed_in(self, request: Request) -> tuple[Principal, Session] | None:
        """The request's principal and session, or None.

        None: no cookie, an altered or expired one, a revoked key, or a session signed out
        (the store keeps each session: ``Operations.session``).
        """
        session = self.codec.read(request.cookies.get(SESSION_COOKIE))
        if session is None:
            return None
        try:
            return self.ops.session(session.key_id, session.nonce), session
        except AuthenticationError:
            return None

    def render(
        self, request: Request, template: str, who: tuple[Principal, Session] | None,
        context: dict[str, Any], status: int = 200,
    ) -> Response:  # fmt: skip
        """A page with what every template reads: who, the navigation, the CSRF token."""
        me = who[0] if who else None
        base = {
            "me": me,
            "nav": [e for e in NAV if me is not None and e.allowed(me)],
            "path": request.url.path,
            "csrf": self.codec.csrf(who[1].nonce) if who else "",
            "can_approve": bool(me and me.has(SCOPE_APPROVE)),
        }
        return page(template, {**base, **context}, status)

    def _to_login(self, request: Request) -> Response:
        target = urllib.parse.quote(request.url.path, safe="/")
        response = RedirectResponse(f"/ui/login?next={target}", status_code=303)
        clear_cookie(response, request, SESSION_COOKIE)
        return response

    def _refused(self, request: Request, why: str, who: Any = None, status: int = 403) -> Response:
        title = "Too large" if status == 413 else "Refused"
        return self.render(request, "error.html.j2", who, {"title": title, "message": why}, status)

    async def _form(
        self, request: Request, nonce: str | None, who: Any = None
    ) -> dict[str, str] | TooLarge | Response:
        """The POST's fields once its origin and CSRF token are checked (``forms.read_form``).

        Returns:
            The fields; ``TooLarge`` (the page shows the form again, 413); or a 403/413 page.
        """
        return await read_form(
            request, self.codec, nonce, lambda why, status: self._refused(request, why, who, status)
        )

    # -- routes ------------------------------------------------------------------------------

    def _routes(self) -> None:
        router, ops = self.router, self.ops

        @router.get("")
        @router.get("/")
        def home() -> Response:
            return RedirectResponse("/ui/inbox", status_code=303)

        @router.get("/login")
        def login_form(request: Request, next: Annotated[str, Query()] = "") -> Response:
            if self.signed_in(request) is not None:
                return RedirectResponse(_safe_next(next), status_code=303)
            return self._login_page(request, next, "")

        @router.post("/login")
        async def login(request: Request) -> Response:
            nonce = request.cookies.get(LOGIN_COOKIE)
            if not self.codec.login_live(nonce):
                return self._login_page(
                    request, "", "The sign-in form expired: sign in again.", 403
                )
            fields = await self._form(request, nonce)
            if isinstance(fields, TooLarge):
                return self._login_page(request, "", "paste the key alone: " + fields.message, 413)
            if isinstance(fields, Response):
                return fields
            try:
                me = await asyncio.to_thread(ops.sign_in, fields.get("key", ""))
            except (AuthenticationError, PermissionDeniedError, RateLimitedError) as exc:
                status = 429 if isinstance(exc, RateLimitedError) else 401
                return self._login_page(request, fields.get("next", ""), str(exc), status)
            assert me.key_id is not None
            cookie, session = self.codec.issue(me.key_id)
            await asyncio.to_thread(ops.open_session, me, session.nonce, session.expires_at)
            response = RedirectResponse(_safe_next(fields.get("next", "")), status_code=303)
            set_cookie(response, request, SESSION_COOKIE, cookie, SESSION_S)
            clear_cookie(response, request, LOGIN_COOKIE)
            return response

        @router.post("/logout")
        async def logout(request: Request) -> Response:
            who = await asyncio.to_thread(self.signed_in, request)
            if who is None:
                # No live session (a revoked key, an expired or signed-out session): nothing to
                # end and no token to check; the browser's stale cookies go, and so to sign in.
                gone = RedirectResponse("/ui/login", status_code=303)
                clear_cookie(gone, request, SESSION_COOKIE)
                clear_cookie(gone, request, LOGIN_COOKIE)
                return gone
            fields = await self._form(request, who[1].nonce)
            if isinstance(fields, Response):
                return fields
            await asyncio.to_thread(ops.end_session, who[1].nonce)
            response = RedirectResponse("/ui/login", status_code=303)
            clear_cookie(response, request, SESSION_COOKIE)
            return response

        @router.get("/inbox")
        def inbox(request: Request) -> Response:
            who = self.signed_in(request)
            if who is None:
                return self._to_login(request)
            items, lines = ops.inbox(who[0])
            shown = [
                {
                    "item": item,
                    "calls": item.page.tool_calls.get(item.round.id, []),
                    "delivered_calls": (
                        item.page.tool_calls.get(item.delivered.id, []) if item.delivered else []
                    ),
                    "spark": spark_points(item.scores),
                    "changes": changes(item.previous, item.round) if item.previous else None,
                }
                for item in items
            ]
            return self.render(request, "inbox.html.j2", who, {"items": shown, "lines": lines})

        @router.get("/live")
        def live(
            request: Request,
            decision: Annotated[str, Query()] = "",
            task_type: Annotated[str, Query()] = "",
            severity: Annotated[str, Query()] = "",
            agent: Annotated[str, Query()] = "",
        ) -> Response:
            who = self.signed_in(request)
            if who is None:
                return self._to_login(request)
            chosen = {
                "decision": decision,
                "task_type": task_type,
                "severity": severity,
                "agent": agent,
            }
            try:
                where = line_filter(decision, task_type, severity, agent)
            except InputError as exc:
                return self.render(
                    request, "error.html.j2", who, {"title": "Bad filter", "message": str(exc)}, 422
                )
            lines = ops.task_lines(who[0], where, limit=LIVE_LINES)
            context = {
                "lines": lines,
                "max_rows": LIVE_ROWS_MAX,
                "chosen": chosen,
                "query": urllib.parse.urlencode({k: v for k, v in chosen.items() if v}),
                "choices": {
                    "decision": DECISION_CHOICES,
                    "task_type": [t.value for t in TaskType],
                    "severity": [s.value for s in Severity],
                },
            }
            return self.render(request, "live.html.j2", who, context)

        @router.get("/tasks/{task_id}")
        def task(request: Request, task_id: str, done: Annotated[str, Query()] = "") -> Response:
            who = self.signed_in(request)
            if who is None:
                return self._to_login(request)
            return self.task_page(request, who, task_id, notice=done)

        @router.get("/queue")
        def queue(request: Request) -> Response:
            who = self.signed_in(request)
            if who is None:
                return self._to_login(request)
            try:
                health = ops.queue_health(who[0])
            except PermissionDeniedError as exc:
                return self._refused(request, str(exc), who)
            return self.render(request, "queue.html.j2", who, {"health": health})

    def _login_page(self, request: Request, target: str, error: str, status: int = 200) -> Response:
        nonce = self.codec.login_nonce()
        context = {"next": _safe_next(target), "error": error, "login_csrf": self.codec.csrf(nonce)}
        response = self.render(request, "login.html.j2", None, context, status)
        set_cookie(response, request, LOGIN_COOKIE, nonce, LOGIN_S)
        return response

    def task_page(
        self, request: Request, who: tuple[Principal, Session], task_id: str,
        *, notice: str = "", error: str = "", status: int = 200, typed: str = "",
        ask: tuple[str, str] = ("", ""),
    ) -> Response:  # fmt: skip
        """A task's page (a 404 page: not one the session sees).

        ``error`` and ``typed`` (the approval's note as the person wrote it) after a refused
        form, ``ask`` (``(submission_id, note)``: the spot-check form's note as typed, on that
        round's form) after a refused ask, ``notice`` (a ``NOTICES`` key) after a form that was
        done.
        """
        try:
            found = self.ops.task_page(who[0], task_id)
        except TaskNotFoundError as exc:
            missing = {"title": "No such task", "message": str(exc)}
            return self.render(request, "error.html.j2", who, missing, 404)
        rounds = found.facts.rounds
        context: dict[str, Any] = {
            "task": found,
            "rounds": [
                {
                    "round": r,
                    "calls": found.tool_calls.get(r.id, []),
                    "changes": changes(rounds[i - 1], r) if i > 0 else None,
                }
                for i, r in enumerate(rounds)
            ],
            "spark": spark_points(
                [r.review.score for r in rounds if r.review and r.review.score is not None]
            ),
            "notice": NOTICES.get(notice, ""),
            "error": error,
            "typed": typed,
            "ask_sid": ask[0],
            "ask_typed": ask[1],
            "can_ask": who[0].has(SCOPE_SPOT_CHECK),
        }
        return self.render(request, "task.html.j2", who, context, status)


def _safe_next(target: str) -> str:
    """Where to go after signing in: a console path only (never another site)."""
    if target.startswith("/ui/") and not target.startswith("//") and "\\" not in target:
        return target
    return "/ui/inbox"
