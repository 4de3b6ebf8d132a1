"""Live decisions for the console: server-sent events from the decision notifications.

``GET /ui/events?decision=&task_type=&severity=&agent=`` (a signed-in session; else 401) answers
``text/event-stream``. It listens on the notifier the long-polls use
(``queue.notify.DecisionNotifier.listen``: the worker's notice of each stored decision, and of
each approval), and for the tasks named since the last batch reads their lines once
(``Operations.task_lines``, so only tasks the session may see, filtered as the page is) and
sends one ``task`` event each, the least recently decided first (the page puts each on top)::

    event: ready          data: {}                       the subscription is live
    event: task           data: {"id", "href", "outcome", "decision", "score", ...}
    event: gone           data: {"id"}                   a shown task the filter no longer keeps
    event: reset          data: {}                       notices may have been lost: reload
    event: signed-out     data: {}                       the key was revoked, the session
                                                         signed out or expired: the stream ends
    : keep-alive                                         after KEEPALIVE_S quiet seconds

The session is checked again (its key read from the store, the session's row too: revoked,
signed out, past its expiry) at least every ``KEEPALIVE_S`` seconds whatever the traffic, so a
revoked key or a signed-out session stops receiving events within ``KEEPALIVE_S`` (15 s), a
busy stream as well as a quiet one.

Notices are gathered for ``BATCH_S`` before a read, so a burst of decisions costs one store
read per open console, not one per decision; with no console open, a notice costs nothing
more than before (no listener). Without a broker there are no notices: the page says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import time
import urllib.parse
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from starlette.responses import Response, StreamingResponse

from qgs_worker.api.console.render import SECURITY_HEADERS, plain_marked
from qgs_worker.errors import AuthenticationError
from qgs_worker.service.console_model import LineFilter

if TYPE_CHECKING:
    from qgs_worker.api.access import Principal
    from qgs_worker.api.console.sessions import Session
    from qgs_worker.api.operations import Operations
    from qgs_worker.service.console_model import TaskLine

__all__ = ["BATCH_S", "KEEPALIVE_S", "line_data", "stream"]

BATCH_S = 0.25
"""Notices arriving within this many seconds are read and sent together."""
KEEPALIVE_S = 15.0
"""The session is checked again at least this often, in seconds (busy or quiet); a comment
line is sent after this many quiet seconds."""
READY_WAIT_S = 2.0
"""How long the stream waits for the notifier's subscription before it says ``ready``."""
BATCH_TASKS_MAX = 200
"""At most this many tasks are read in one batch (a larger burst is sent as ``reset``)."""


def line_data(line: TaskLine) -> dict[str, Any]:
    """A task line as a ``task`` event's data (times ISO 8601 UTC)."""
    return {
        "id": line.id,
        "href": "/ui/tasks/" + urllib.parse.quote(line.id, safe=""),
        "principal": plain_marked(line.principal),
        "agent": plain_marked(line.agent),
        "task_type": line.task_type,
        "complexity": line.complexity,
        "request": plain_marked(line.request),
        "rounds": line.rounds,
        "round_number": line.round_number,
        "decision": line.decision,
        "outcome": line.outcome,
        "score": line.score,
        "worst": line.worst,
        "decided_at": line.decided_at.isoformat(timespec="seconds") if line.decided_at else None,
    }


def _read(
    ops: Operations, me: Principal, where: LineFilter, ids: set[str]
) -> tuple[list[TaskLine], list[str]]:
    """The lines of ``ids`` the filter keeps, and the visible ones it no longer keeps."""
    narrowed = dataclasses.replace(where, task_ids=tuple(sorted(ids)))
    lines = ops.task_lines(me, narrowed, limit=len(ids))
    if where == dataclasses.replace(
        where, decision=None, task_type=None, severity=None, agent=None
    ):
        return lines, []  # no filter: every visible task is kept
    kept = {line.id for line in lines}
    rest = tuple(sorted(ids - kept))
    if not rest:
        return lines, []
    seen = ops.task_lines(me, LineFilter(task_ids=rest), limit=len(rest))
    return lines, [line.id for line in seen]


def _event(name: str, data: object) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


def stream(ops: Operations, me: Principal, session: Session, where: LineFilter) -> Response:
    """The event stream of one console page (see the module docstring).

    Args:
        ops: The operations (the notifier, the task lines, the session check).
        me: The signed-in principal (read again at every check).
        session: The signed-in session (its key, nonce and expiry).
        where: The page's filter.
    """
    return StreamingResponse(
        _events(ops, me, session, where),
        media_type="text/event-stream",
        headers={**SECURITY_HEADERS, "X-Accel-Buffering": "no"},
    )


async def _still_signed_in(ops: Operations, session: Session) -> Principal | None:
    """The session's principal read again, or None: key revoked, signed out, expired."""
    if session.expires_at <= time.time():
        return None
    try:
        return await asyncio.to_thread(ops.session, session.key_id, session.nonce)
    except AuthenticationError:
        return None


async def _events(
    ops: Operations, me: Principal, session: Session, where: LineFilter
) -> AsyncIterator[bytes]:
    loop = asyncio.get_running_loop()
    named: asyncio.Queue[str | None] = asyncio.Queue()
    notifier = ops.notifier if ops.settings.broker_url else None

    def heard(task_id: str | None) -> None:  # the subscriber thread
        loop.call_soon_threadsafe(named.put_nowait, task_id)

    unlisten = notifier.listen(heard) if notifier is not None else None
    try:
        if notifier is not None:
            for _ in range(int(READY_WAIT_S / 0.05)):
                if notifier.running:
                    break
                await asyncio.sleep(0.05)
        yield _event("ready", {"live": bool(notifier is not None and notifier.running)})
        check_at = loop.time() + KEEPALIVE_S
        while True:
            first: str | None = None
            quiet = False
            try:
                first = await asyncio.wait_for(named.get(), max(0.0, check_at - loop.time()))
            except TimeoutError:
                quiet = True  # nothing heard: a keep-alive after the check
            if loop.time() >= check_at:
                found = await _still_signed_in(ops, session)
                if found is None:
                    yield _event("signed-out", {})
                    return
                me, check_at = found, loop.time() + KEEPALIVE_S
                if quiet:
                    yield b": keep-alive\n\n"
            if quiet:
                continue
            await asyncio.sleep(BATCH_S)
            ids: set[str] = set()
            lost = first is None
            if first is not None:
                ids.add(first)
            while not named.empty():
                got = named.get_nowait()
                lost = lost or got is None
                if got is not None:
                    ids.add(got)
            if lost or len(ids) > BATCH_TASKS_MAX:
                yield _event("reset", {})
                continue
            lines, gone = await asyncio.to_thread(_read, ops, me, where, ids)
            for line in reversed(lines):  # oldest first: each goes on top, the newest last
                yield _event("task", line_data(line))
            for task_id in gone:
                yield _event("gone", {"id": task_id})
    finally:
        if unlisten is not None:
            with contextlib.suppress(Exception):
                unlisten()
