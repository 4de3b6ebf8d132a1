"""``TelemetryObserver``: the review service's observer port turned into events and counters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from qgs_worker.core.models import Decision, Finding, Review
from qgs_worker.service.records import TaskRecord

__all__ = ["TelemetryObserver"]


def _where(task: TaskRecord, number: int) -> dict[str, Any]:
    return {
        "qgs.task.id": task.id,
        "qgs.round.number": number,
        "qgs.task.type": task.task_type.value,
    }


class TelemetryObserver:
    """Implements ``service.observer.ReviewObserver``: span events and/or Prometheus counters.

    Args:
        tracing: Emit ``gen_ai.evaluation.result`` events on the current span (the job's) and
            a ``chat {model}`` span per judge call.
        metrics: Count in the Prometheus metrics of ``telemetry._metrics``.

    Only what is on is imported: a worker with metrics and no tracing never imports
    OpenTelemetry.
    """

    def __init__(self, *, tracing: bool, metrics: bool) -> None:
        self.tracing = tracing
        self.metrics = metrics
        self._t: Any = None
        self._m: Any = None
        if tracing:
            from qgs_worker.telemetry import _tracing

            self._t = _tracing
        if metrics:
            from qgs_worker.telemetry import _metrics

            self._m = _metrics

    def loaded(self, task: TaskRecord, number: int, round_id: int) -> None:
        """Name the job span's round (the first round a step works on)."""
        if self._t is not None:
            self._t.mark_round(task.id, number, task.task_type.value)

    def judged(
        self, judge: str, duration_s: float, review: Review | None, error: str | None
    ) -> None:
        """Count one critic call and its latency; a ``chat {model}`` span for it."""
        if self._m is not None:
            self._m.JUDGE_CALLS.labels(judge).inc()
            self._m.JUDGE_LATENCY.labels(judge).observe(duration_s)
            if error is not None:
                self._m.JUDGE_FAILURES.labels(judge, error).inc()
        if self._t is not None:
            from qgs_worker.telemetry import tracer

            t = tracer()
            if t is not None:
                self._t.judge_span(t, judge, duration_s, review, error)

    def reviewed(
        self, task: TaskRecord, number: int, review: Review | None, error: str | None
    ) -> None:
        """Count the review by verdict; its evaluation events."""
        if self._m is not None:
            verdict = review.verdict.value.lower() if review is not None else "error"
            self._m.REVIEWS.labels(verdict, task.task_type.value).inc()
        if self._t is not None:
            self._t.review_events(_where(task, number), review, error)

    def found(self, task: TaskRecord, number: int, findings: Sequence[Finding]) -> None:
        """Count the findings by severity and role; one evaluation event each."""
        if self._m is not None:
            for f in findings:
                self._m.FINDINGS.labels(f.severity.value, f.role).inc()
        if self._t is not None:
            self._t.finding_events(_where(task, number), findings)

    def decided(self, task: TaskRecord, number: int, decision: Decision, score: int | None) -> None:
        """Count the decision by kind and task type; its evaluation event."""
        if self._m is not None:
            self._m.DECISIONS.labels(decision.kind.value, task.task_type.value).inc()
        if self._t is not None:
            self._t.decision_event(_where(task, number), decision, score)

    def tool_check_stored(self, layer: str | None, allowed: bool) -> None:
        """Count one stored tool-call check (``qgs.toolgate.log``), by where it stopped."""
        if self._m is not None:
            self._m.TOOL_CHECKS.labels(layer or "none", "true" if allowed else "false").inc()
