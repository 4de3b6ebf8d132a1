"""What a person does from a task's page: approve or reject a round, ask for a spot-check.

Forms (POST, URL-encoded, each with its CSRF token; ``pages.ConsolePages`` checks both)::

    POST /ui/tasks/{task_id}/approval     decision (approve | reject), note, submission_id
    POST /ui/tasks/{task_id}/spot-checks  submission_id, note            (the spot-check scope)
    GET  /ui/rounds/{submission_id}       the round's place: 303 to /ui/tasks/ID#round-N

An approval names the round the page showed (``submission_id``) and is recorded on that round
only: when the agent submitted a new round since the page loaded (decided or not), nothing is
approved and the task's page is shown again with its new round and a 409 ("the task moved on
to round N since you opened round M: review it again"). ``Operations.approve`` is the API's
and ``qgs approve``'s operation (``round_number``: the round looked at); asking for a
spot-check is ``Operations.request_spot_check``, the operation ``POST /v1/spot-checks`` calls,
recorded as the operator.

Statuses of a refused form (the task's page again, with the note as typed): 403 no scope,
404 no such task (or a ``submission_id`` naming no round the key sees: the message names the
field), 409 the task is not awaiting approval (or moved on, or was decided the other
way), 413 a form over ``forms.FORM_MAX_BYTES``, 422 a field that is not one.
"""

from __future__ import annotations

import asyncio
import urllib.parse
from typing import TYPE_CHECKING

from fastapi import Request
from starlette.responses import RedirectResponse, Response

from qgs_worker.api.console.forms import TooLarge
from qgs_worker.errors import (
    ApprovalConflictError,
    InputError,
    NotAwaitingApprovalError,
    PermissionDeniedError,
    SubmissionNotFoundError,
    TaskNotFoundError,
)
from qgs_worker.store.keys import SCOPE_APPROVE

if TYPE_CHECKING:
    from qgs_worker.api.access import Principal
    from qgs_worker.api.console.pages import ConsolePages

__all__ = ["install_task_actions"]

SHOWN_SID_MAX_CHARS = 80
"""A ``submission_id`` from a form longer than this is cut in a refusal's message."""


def _status(exc: Exception) -> int:
    """A refused form's status: 403 scope, 404 unknown, 409 the task's state, 422 a field."""
    if isinstance(exc, PermissionDeniedError):
        return 403
    if isinstance(exc, SubmissionNotFoundError):
        return 404
    if isinstance(exc, NotAwaitingApprovalError | ApprovalConflictError | TaskNotFoundError):
        return 409
    return 422


def _task_href(task_id: str, done: str, number: int | None = None) -> str:
    anchor = f"#round-{number}" if number is not None else ""
    return f"/ui/tasks/{urllib.parse.quote(task_id, safe='')}?done={done}{anchor}"


def _shown(sid: str) -> str:
    """A form's ``submission_id`` as a message quotes it (cut after 80 characters)."""
    return repr(sid) if len(sid) <= SHOWN_SID_MAX_CHARS else f"{sid[:SHOWN_SID_MAX_CHARS]!r}…"


def _not_decided(sid: str) -> InputError:
    """A round not decided yet (or not stored yet): wait for its decision, as the API says."""
    return InputError(
        f"'submission_id' {_shown(sid)} has no decided round yet: wait for its decision "
        "(reload the task's page until the round shows one), then try again"
    )


def _round_of_task(pages: ConsolePages, me: Principal, task_id: str, sid: str) -> int:
    """The number of the round ``sid`` names, which must be one of ``task_id``'s.

    Raises:
        InputError: no ``submission_id``, one of another task, or one whose round is not
            stored yet (the message names ``submission_id``).
        SubmissionNotFoundError: not a submission the key sees (the message names
            ``submission_id``).
    """
    if not sid:
        raise InputError(
            "'submission_id' is missing: reload the task's page and decide on the round it shows"
        )
    shown = _shown(sid)
    try:
        owner, number = pages.ops.round_of(me, sid)
    except SubmissionNotFoundError as exc:
        raise SubmissionNotFoundError(
            f"'submission_id' {shown} names no round of a task you may see: reload the "
            "task's page and use the round it shows"
        ) from exc
    except TaskNotFoundError as exc:  # its round is not stored yet (the intake job is due)
        raise _not_decided(sid) from exc
    if owner != task_id:
        raise InputError(f"'submission_id' {shown} is a round of another task: reload the page")
    return number


def install_task_actions(pages: ConsolePages) -> None:
    """Add the approval and spot-check forms and the round links to ``pages.router``."""
    router, ops = pages.router, pages.ops

    @router.post("/tasks/{task_id}/approval")
    async def approval(request: Request, task_id: str) -> Response:
        who = await asyncio.to_thread(pages.signed_in, request)
        if who is None:
            return pages._refused(request, "sign in first.")
        fields = await pages._form(request, who[1].nonce, who)
        if isinstance(fields, TooLarge):
            return await asyncio.to_thread(
                pages.task_page, request, who, task_id,
                error=fields.message, status=413, typed=fields.fields.get("note", ""),
            )  # fmt: skip
        if isinstance(fields, Response):
            return fields
        choice, note = fields.get("decision", ""), fields.get("note", "")
        me = who[0]

        def decide() -> None:
            if choice not in ("approve", "reject"):
                raise InputError(f"'decision' must be approve or reject (got {choice!r})")
            number = None
            if me.has(SCOPE_APPROVE):  # else approve() says what the key lacks (403)
                number = _round_of_task(pages, me, task_id, fields.get("submission_id", ""))
            ops.approve(me, task_id, note=note, reject=choice == "reject", round_number=number)

        try:
            await asyncio.to_thread(decide)
        except (InputError, ApprovalConflictError, PermissionDeniedError,
                SubmissionNotFoundError) as exc:  # fmt: skip
            # SubmissionNotFoundError before TaskNotFoundError (its base): a bad or foreign
            # submission_id is a 404 naming the field, not a silent page.
            return await asyncio.to_thread(
                pages.task_page, request, who, task_id,
                error=str(exc), status=_status(exc), typed=note,
            )  # fmt: skip
        except TaskNotFoundError:  # not a task the session sees: the page's 404
            return await asyncio.to_thread(pages.task_page, request, who, task_id)
        done = "approved" if choice == "approve" else "rejected"
        return RedirectResponse(_task_href(task_id, done), status_code=303)

    @router.post("/tasks/{task_id}/spot-checks")
    async def ask_spot_check(request: Request, task_id: str) -> Response:
        who = await asyncio.to_thread(pages.signed_in, request)
        if who is None:
            return pages._refused(request, "sign in first.")
        fields = await pages._form(request, who[1].nonce, who)
        if isinstance(fields, TooLarge):
            kept = (fields.fields.get("submission_id", ""), fields.fields.get("note", ""))
            return await asyncio.to_thread(
                pages.task_page, request, who, task_id, error=fields.message, status=413,
                ask=kept,
            )  # fmt: skip
        if isinstance(fields, Response):
            return fields
        me = who[0]

        def ask() -> tuple[int, bool]:
            sid = fields.get("submission_id", "")
            number = _round_of_task(pages, me, task_id, sid)
            try:
                _, created = ops.request_spot_check(me, sid, note=fields.get("note", ""))
            except SubmissionNotFoundError:
                raise
            except TaskNotFoundError as exc:  # stored, not decided yet
                raise _not_decided(sid) from exc
            return number, created

        try:
            number, created = await asyncio.to_thread(ask)
        except (InputError, PermissionDeniedError, SubmissionNotFoundError,
                TaskNotFoundError) as exc:  # fmt: skip
            kept = (fields.get("submission_id", ""), fields.get("note", ""))
            return await asyncio.to_thread(
                pages.task_page, request, who, task_id, error=str(exc), status=_status(exc),
                ask=kept,
            )  # fmt: skip
        return RedirectResponse(
            _task_href(task_id, "asked" if created else "queued", number), status_code=303
        )

    @router.get("/rounds/{submission_id}")
    def round_link(request: Request, submission_id: str) -> Response:
        who = pages.signed_in(request)
        if who is None:
            return pages._to_login(request)
        try:
            task_id, number = ops.round_of(who[0], submission_id)
        except (SubmissionNotFoundError, TaskNotFoundError) as exc:
            missing = {"title": "No such round", "message": str(exc)}
            return pages.render(request, "error.html.j2", who, missing, 404)
        target = f"/ui/tasks/{urllib.parse.quote(task_id, safe='')}#round-{number}"
        return RedirectResponse(target, status_code=303)
