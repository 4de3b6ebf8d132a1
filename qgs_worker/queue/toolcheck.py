"""Tool-call checks logged to the store through the queue, off the agent's hot path.

``Client.check_tool_call`` runs the gate in-process and hands the report to a ``CheckLogSender``:
a bounded ``queue.Queue`` and one daemon thread that turns each report into a
``ToolCheckRecord`` and sends it as the ``qgs.toolgate.log`` job (queue ``qgs.default``); the
worker writes one ``tool_call_check`` row per ``check_id``.

Why a thread: publishing one Celery message to a local Redis costs about 1.6 ms at p50 (2.1 ms
at p90; ``app.send_task`` timed 2,000 times on the 2-core test machine, with the
``task_send_sent_event`` QGS turns on for Flower), thirty times the gate's ~50 us budget. Handing
the report to the thread costs the agent a ``queue.put_nowait`` and a small object: logging adds
about 6 us at p50 to a check (``check_tool_call`` timed 1,000 times with and without logging,
while the thread publishes; ``TestHotPathCost`` in ``tests/integration/
test_toolgate_interfaces.py`` prints the figures and keeps it under 50 us). The check id (a
uuid4, ~5 us), the record and the message are made in the thread.

What is lost, and when (decided: drop and say so once, never block or raise into the agent):

- the broker is down or refuses: each record is tried once (one quick reconnect), then dropped;
  the first drop of an outage logs a warning, the first success after it logs how many were
  dropped; ``dropped`` counts them;
- the queue is full (``QUEUE_MAX`` records waiting: the broker is slow or down): new records are
  dropped the same way;
- the process exits: an ``atexit`` hook waits up to ``EXIT_FLUSH_S`` for the queue to drain
  (call ``flush`` yourself to wait longer); a forked child starts a fresh queue and thread.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import queue
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from qgs_worker.core.toolgate import GateReport

__all__ = [
    "EXIT_FLUSH_S",
    "GATE_LAYER_NAMES",
    "QUEUE_MAX",
    "TOOL_LOG_JOB",
    "CheckLogSender",
    "ToolCheckRecord",
    "record_from_report",
    "send_with",
]

log = logging.getLogger(__name__)

TOOL_LOG_JOB = "qgs.toolgate.log"
"""The Celery job that writes one check to the store (routed to ``qgs.default``)."""

GATE_LAYER_NAMES: dict[int, str] = {
    1: "format",
    2: "existence",
    3: "parameters",
    4: "business_rules",
    5: "permission",
    6: "injection",
}
"""The six layers of DESIGN.md by number: the names reports count rejections under."""

QUEUE_MAX = 10_000
"""Records waiting to be sent at most; beyond it new ones are dropped (never blocks the agent)."""

EXIT_FLUSH_S = 2.0
"""How long, in seconds, the exit hook waits for waiting records to be sent."""

MAX_ERRORS = 5
"""Errors of the failing layer kept in a record (the first ones)."""

MAX_WARNINGS = 10
"""Warnings kept in a record (the first ones, in layer order)."""

MAX_TEXT_CHARS = 300
"""Each error, warning and suggestion is cut to this many characters."""

NAME_MAX_CHARS = 128
"""Tool names, call ids, principals and agents are cut to this many characters."""


def _cut(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _cut_or_none(text: object, limit: int = NAME_MAX_CHARS) -> str | None:
    return None if text is None else _cut(str(text), limit)


class ToolCheckRecord(BaseModel):
    """One gate check as the ``qgs.toolgate.log`` job carries it (JSON) and the store keeps it.

    ``check_id`` is 32 hex digits made before sending: a redelivered job writes no second row.
    ``checked_at`` is when the check ran (UTC). ``layers`` holds ``[number, name, status]`` per
    configured layer (status ``pass``, ``warn``, ``fail`` or ``skipped``); ``errors`` are the
    failing layer's first ``MAX_ERRORS``, ``warnings`` every layer's first ``MAX_WARNINGS``, each
    cut to ``MAX_TEXT_CHARS``. ``latency_us`` is the check's wall time in microseconds.
    Unknown fields are ignored, so an older worker reads a newer client's records.
    """

    model_config = ConfigDict(frozen=True, extra="ignore")

    check_id: str = Field(pattern=r"^[0-9a-f]{32}$")
    checked_at: datetime
    principal: str | None = Field(default=None, max_length=NAME_MAX_CHARS)
    agent: str | None = Field(default=None, max_length=NAME_MAX_CHARS)
    tool: str | None = Field(default=None, max_length=NAME_MAX_CHARS)
    shape: str = Field(max_length=16)
    call_id: str | None = Field(default=None, max_length=NAME_MAX_CHARS)
    allowed: bool
    stopped_at: int | None = Field(default=None, ge=1)
    stopped_layer: str | None = Field(default=None, max_length=64)
    layers: list[tuple[int, str, str]] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list, max_length=MAX_ERRORS)
    warnings: list[str] = Field(default_factory=list, max_length=MAX_WARNINGS)
    suggestion: str | None = Field(default=None, max_length=MAX_TEXT_CHARS)
    latency_us: float = Field(ge=0)

    def short_repr(self) -> str:
        """What Flower shows as the job's argument: no arguments, no errors."""
        outcome = "allowed" if self.allowed else f"rejected at {self.stopped_at}"
        return f"check {self.check_id[:12]} {self.tool or '?'}: {outcome}"


def record_from_report(
    report: GateReport,
    *,
    check_id: str | None = None,
    checked_at: datetime | None = None,
    principal: str | None = None,
    agent: str | None = None,
) -> ToolCheckRecord:
    """The compact record of a gate report (see ``ToolCheckRecord`` for what is cut).

    Args:
        report: The gate's report.
        check_id: 32 hex digits; a new uuid4 when None.
        checked_at: When the check ran; now (UTC) when None.
        principal: Who the call acted for.
        agent: Which agent made it.
    """
    stopped = report.stopped_layer
    return ToolCheckRecord(
        check_id=check_id or uuid.uuid4().hex,
        checked_at=checked_at or datetime.now(UTC),
        principal=_cut_or_none(principal),
        agent=_cut_or_none(agent),
        tool=_cut_or_none(report.tool_name),
        shape=report.shape.value,
        call_id=_cut_or_none(report.call_id),
        allowed=report.allowed,
        stopped_at=report.stopped_at,
        stopped_layer=_cut(stopped.name, 64) if stopped else None,
        layers=[(r.number, r.name, r.status.value) for r in report.layers],
        errors=[_cut(e) for e in report.errors[:MAX_ERRORS]],
        warnings=[_cut(w) for w in report.warnings[:MAX_WARNINGS]],
        suggestion=_cut_or_none(report.suggestion, MAX_TEXT_CHARS),
        latency_us=max(0.0, round(report.latency_us, 1)),
    )


@dataclass(frozen=True, slots=True)
class _Pending:
    report: GateReport
    principal: str | None
    agent: str | None
    checked_at_s: float  # time.time() of the check


class CheckLogSender:
    """Send check records from a daemon thread; ``submit`` never blocks and never raises.

    Args:
        send: Publishes one record (as JSON-ready data), e.g. ``app.send_task`` of
            ``TOOL_LOG_JOB``; called only from the sender thread; may raise (the record is
            then dropped and counted).
        max_queued: Records waiting at most before new ones are dropped.

    ``sent`` and ``dropped`` count records since the sender was made.
    """

    def __init__(
        self, send: Callable[[ToolCheckRecord], None], *, max_queued: int = QUEUE_MAX
    ) -> None:
        self._send = send
        self._max_queued = max_queued
        self._lock = threading.Lock()
        self._queue: queue.Queue[_Pending | None] = queue.Queue(max_queued)
        self._pid: int | None = None
        self._exit_hook = False
        self._failing = False
        self._dropped_in_outage = 0
        self.sent = 0
        self.dropped = 0

    def submit(self, report: GateReport, principal: str | None, agent: str | None) -> None:
        """Hand one report to the sender thread (the hot path: a few microseconds)."""
        if self._pid != os.getpid():
            self._start()
        try:
            self._queue.put_nowait(_Pending(report, principal, agent, time.time()))
        except queue.Full:
            self._drop(f"{self._max_queued} checks already wait to be sent")

    def flush(self, timeout_s: float = 5.0) -> bool:
        """Wait until every submitted record was sent or dropped.

        Returns:
            True when the queue drained within ``timeout_s`` seconds.
        """
        if self._pid != os.getpid():
            return True  # nothing was submitted in this process
        done = self._queue.all_tasks_done
        with done:
            return done.wait_for(lambda: self._queue.unfinished_tasks == 0, timeout_s)

    def close(self, timeout_s: float = EXIT_FLUSH_S) -> None:
        """Flush for up to ``timeout_s`` seconds, then stop the thread (what is left is lost)."""
        if self._pid != os.getpid():
            return
        self.flush(timeout_s)
        with self._lock:
            self._pid = None
        with contextlib.suppress(queue.Full):  # then a daemon thread: it ends with the process
            self._queue.put_nowait(None)

    def _start(self) -> None:
        with self._lock:
            pid = os.getpid()
            if self._pid == pid:
                return
            # A forked child must not reuse the parent's queue: its lock may be held forever.
            self._queue = queue.Queue(self._max_queued)
            thread = threading.Thread(
                target=self._run, args=(self._queue,), name="qgs-toolgate-log", daemon=True
            )
            thread.start()
            self._pid = pid
            if not self._exit_hook:
                self._exit_hook = True
                atexit.register(self.close)

    def _run(self, pending: queue.Queue[_Pending | None]) -> None:
        while True:
            item = pending.get()
            try:
                if item is None:
                    return
                record = record_from_report(
                    item.report,
                    checked_at=datetime.fromtimestamp(item.checked_at_s, UTC),
                    principal=item.principal,
                    agent=item.agent,
                )
                self._send(record)
            except Exception as error:  # never let a broken broker end the thread
                self._drop(f"{type(error).__name__}: {error}")
            else:
                self.sent += 1
                if self._failing:
                    log.warning(
                        "tool-call check logging resumed; %d checks were not logged",
                        self._dropped_in_outage,
                    )
                    self._failing, self._dropped_in_outage = False, 0
            finally:
                pending.task_done()

    def _drop(self, reason: str) -> None:
        self.dropped += 1
        self._dropped_in_outage += 1
        if not self._failing:
            self._failing = True
            log.warning(
                "tool-call checks are not being logged (%s); the checks still run and return "
                "their reports; dropping log records until the broker takes them again",
                reason,
            )


LOG_SOCKET_TIMEOUT_S = 2.0
"""Socket timeouts of the connection that publishes tool-check logs: a broker that accepts
connections but never answers must not hold the sender (or ``qgs check-tool``) for ever."""


def log_app(settings: Any) -> Any:
    """A Celery app for publishing tool-check logs, with short socket timeouts on its broker.

    Kept apart from the app that submits rounds and from the workers' (whose long blocking
    reads must not time out).
    """
    from qgs_worker.queue.broker import new_app

    app = new_app(settings)
    options = dict(app.conf.broker_transport_options or {})
    options.update(socket_timeout=LOG_SOCKET_TIMEOUT_S, socket_connect_timeout=LOG_SOCKET_TIMEOUT_S)
    app.conf.broker_transport_options = options
    app.conf.broker_connection_timeout = LOG_SOCKET_TIMEOUT_S
    return app


def send_with(app: Any) -> Callable[[ToolCheckRecord], None]:
    """A ``send`` for ``CheckLogSender`` that publishes ``TOOL_LOG_JOB`` on a Celery app.

    One quick reconnect is tried (a broker that refuses fails in milliseconds); Celery's
    default policy would retry for seconds, holding up the records behind this one.
    """

    def send(record: ToolCheckRecord) -> None:
        app.send_task(
            TOOL_LOG_JOB,
            args=[record.model_dump(mode="json")],
            argsrepr=record.short_repr(),
            kwargsrepr="{}",
            retry=True,
            retry_policy={
                "max_retries": 1,
                "interval_start": 0,
                "interval_step": 0.1,
                "interval_max": 0.1,
            },
        )

    return send
