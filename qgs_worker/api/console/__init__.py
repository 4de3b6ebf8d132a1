"""The operator console: server-rendered pages under ``/ui`` of ``qgs serve``, for the people in the loop.

One more transport over ``Operations`` (the layer the HTTP API and MCP call; its console reads
are ``api.operator_views``): no path of its own to the store. ``mount_console(app, ops)`` adds:

- ``pages``: the routes (sign in and out, the approvals inbox, live decisions, a task, queue
  health) and the navigation (``NAV``: where a new page is added);
- ``task_actions``: a task page's forms (approve or reject the round shown, ask for a
  spot-check) and the round links; ``forms``: reading a form (size cap, origin, CSRF);
- ``spot_check_page``: the spot-checks page (the open queue, the label form, the agreement
  figures), over the spot-check operations the API's routes call;
- ``events``: the live list's server-sent events, from the decision notifications;
- ``sessions``: the signed session cookie and the CSRF tokens (each session is also kept in the
  store, so signing out ends it: ``store.console_sessions``);
- ``render``: Jinja2 templates (``templates/``, autoescape on), the Content-Security-Policy and
  the filters that show agents' text as text; ``changes``: what changed since the last round;
- ``static/``: the console's stylesheet and its one script (the package's own, nothing fetched
  from elsewhere); every page works without it.
"""

from __future__ import annotations

from importlib.resources import files
from typing import TYPE_CHECKING, Annotated

from fastapi import Query, Request
from starlette.responses import Response

from qgs_worker.api.console.events import stream
from qgs_worker.api.console.pages import NAV, ConsolePages, NavEntry, line_filter
from qgs_worker.api.console.render import SECURITY_HEADERS, warm_up
from qgs_worker.api.console.spot_check_page import install_spot_checks
from qgs_worker.api.console.task_actions import install_task_actions
from qgs_worker.errors import InputError

if TYPE_CHECKING:
    from fastapi import FastAPI

    from qgs_worker.api.operations import Operations

__all__ = ["NAV", "STATIC_FILES", "ConsolePages", "NavEntry", "mount_console"]

STATIC_FILES = {
    "console.css": "text/css; charset=utf-8",
    "console.js": "text/javascript; charset=utf-8",
}
"""The files ``/ui/static/`` serves (from the package), with their content types."""


def mount_console(app: FastAPI, ops: Operations) -> ConsolePages:
    """Add the console's routes under ``/ui`` to ``app`` (they are left out of OpenAPI).

    Returns:
        The pages object (its ``router`` is mounted; its ``codec`` signs the sessions).
    """
    pages = ConsolePages(ops)
    warm_up()
    install_task_actions(pages)
    install_spot_checks(pages)
    router = pages.router

    @router.get("/events")
    def events(
        request: Request,
        decision: Annotated[str, Query()] = "",
        task_type: Annotated[str, Query()] = "",
        severity: Annotated[str, Query()] = "",
        agent: Annotated[str, Query()] = "",
    ) -> Response:
        who = pages.signed_in(request)
        if who is None:
            return Response("sign in at /ui/login\n", status_code=401, headers=SECURITY_HEADERS)
        try:
            where = line_filter(decision, task_type, severity, agent)
        except InputError as exc:
            return Response(f"{exc}\n", status_code=422, headers=SECURITY_HEADERS)
        return stream(ops, who[0], who[1], where)

    @router.get("/static/{name}")
    def static(name: str) -> Response:
        kind = STATIC_FILES.get(name)
        if kind is None:
            return Response("no such file\n", status_code=404, headers=SECURITY_HEADERS)
        body = (files("qgs_worker.api.console") / "static" / name).read_bytes()
        headers = {**SECURITY_HEADERS, "Cache-Control": "public, max-age=300"}
        return Response(body, media_type=kind, headers=headers)

    # The routes themselves, not an included router: the metrics middleware labels each
    # request with its route's path template.
    app.router.routes.extend(router.routes)
    return pages
