"""The review service's observer port: what telemetry is told as a step stores its results.

``ReviewService(observer=...)`` and ``audit_round(..., observer=...)`` tell an observer each
review, finding and decision they store, and each judge call they make, after the transaction
that stored it committed. The telemetry adapter (``qgs_worker.telemetry``) turns them into
OpenTelemetry evaluation events and Prometheus counters; the service imports neither (the
architecture test holds it to that). Without an observer (the default) nothing is called, so
a step pays nothing for telemetry that is off.

Like ``on_decided`` the calls are at least once: a redelivered step that stores nothing new
tells nothing, but a step that is run again after a lost worker may tell a second time. An
observer's errors are logged and swallowed (``tell``): the results are stored, and telemetry
must not fail a step.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from qgs_worker.core.models import Decision, Finding, Review
from qgs_worker.service.records import TaskRecord

__all__ = ["ReviewObserver", "tell"]

log = logging.getLogger(__name__)


class ReviewObserver(Protocol):
    """What a step tells telemetry (``qgs_worker.telemetry.TelemetryObserver`` implements it).

    ``task`` is the task as the step saw it (after an escalation the round caused, its new
    type); ``number`` is the round's number (1, 2, ...).
    """

    def loaded(self, task: TaskRecord, number: int, round_id: int) -> None:
        """A step began work on round ``round_id`` (number ``number``) of ``task``."""
        ...

    def judged(
        self, judge: str, duration_s: float, review: Review | None, error: str | None
    ) -> None:
        """The critic called ``judge`` once, for ``duration_s`` seconds.

        ``review`` is what it answered (its token counts), or None and ``error`` the class of
        the exception it raised.
        """
        ...

    def reviewed(
        self, task: TaskRecord, number: int, review: Review | None, error: str | None
    ) -> None:
        """A review of the round was stored (``review``), or its failure (``error``)."""
        ...

    def found(self, task: TaskRecord, number: int, findings: Sequence[Finding]) -> None:
        """These findings were stored on the round (detectors at intake, or an audit role)."""
        ...

    def decided(self, task: TaskRecord, number: int, decision: Decision, score: int | None) -> None:
        """The gate's decision on the round was stored; ``score`` is its review's, if any."""
        ...


def tell(method: Callable[..., None], *args: Any) -> None:
    """Call an observer's method; its errors are logged, never raised into the step."""
    try:
        method(*args)
    except Exception:  # the results are stored; telemetry's failure is not the round's
        log.exception("the review observer's %s failed", getattr(method, "__name__", "call"))
