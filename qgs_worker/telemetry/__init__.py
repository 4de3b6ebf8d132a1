"""Telemetry: OpenTelemetry spans with GenAI evaluation events, and Prometheus metrics.

Tracing. Each Celery job (``qgs.review.intake``, ``.critic``, ``.discriminate``, ``.decide``,
``qgs.toolgate.log``) runs in a span named after the job, carrying ``qgs.task.id``,
``qgs.round.number`` and ``qgs.task.type``; each review, finding and decision the job stores is
a ``gen_ai.evaluation.result`` event on it (``gen_ai.evaluation.name``, ``.score.value``,
``.score.label``, ``.explanation``: ``_tracing`` lists the values), and each critic call is a
child span ``chat {model}`` (the GenAI client span; ``qgs.judge.review`` for the rules judge
and panels). ``Client.check_tool_call`` records a span
``qgs.toolgate.check`` with its own evaluation event. Tracing is on when:

- ``OTEL_EXPORTER_OTLP_ENDPOINT`` (or ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``) is set: spans go
  by OTLP http/protobuf there, batched; the standard variables apply (``OTEL_SERVICE_NAME``,
  default ``qgs``; ``OTEL_RESOURCE_ATTRIBUTES``; ``OTEL_EXPORTER_OTLP_HEADERS``...);
- or the process already set an OpenTelemetry SDK tracer provider of its own (an agent that
  traces itself): QGS's spans join it;
- or ``use_tracer_provider(provider)`` was called (tests, embedding applications).

``OTEL_SDK_DISABLED=true`` or ``OTEL_TRACES_EXPORTER=none`` turns it off whatever else is set.
Off, nothing of OpenTelemetry is imported and each instrumented call costs one function call
and a comparison (``bench/telemetry_cost.py`` measures it).

Metrics. Prometheus counters and histograms (``_metrics`` names them) count decisions, reviews,
findings, judge calls and failures, judge latency, tool-call checks and webhook attempts, and
the HTTP API's requests (by route template and status), latency and refused keys; queue depth
and the age
of each queue's oldest job are read from the broker when scraped. A worker serves them at
``/metrics`` on ``QGS_WORKER__METRICS_PORT`` (``qgs worker --metrics-port N``; off by default);
an ASGI application mounts ``metrics_asgi_app(settings)``. ``prometheus_client`` is imported
only when metrics are served.

This module imports nothing but the standard library: ``qgs check-tool`` and ``qgs scan`` start
as fast with it as without (``tests/unit/test_cli_cold_start.py``).

Layer: an adapter; may import the service, the core, ``errors`` and other adapters, with no cycle.
Imports: ``config``, ``core``, ``limits``, ``service``. Imported by: ``api``, ``cli``, ``client``,
``queue``, ``webhooks``.
"""

from __future__ import annotations

import contextlib
import os
import sys
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from qgs_worker.config.settings import Settings
    from qgs_worker.telemetry._observer import TelemetryObserver

__all__ = [
    "SENT_AT_HEADER",
    "inject_trace_context",
    "job_span",
    "metrics_asgi_app",
    "metrics_counted",
    "observer_for",
    "queue_figures",
    "reset",
    "start_metrics_server",
    "tool_checked",
    "tracer",
    "tracing_wanted",
    "use_tracer_provider",
    "webhook_attempted",
]

SENT_AT_HEADER = "qgs_sent_at"
"""The header each published job carries: when it was published (``time.time()``, seconds).

The queue stamps it (``qgs_worker.queue.celery_app``); ``/metrics`` reads it from the oldest job
waiting in each queue (``qgs_queue_oldest_age_seconds``); Celery's own messages carry no
publish time. It lives here, where it is read, so that telemetry needs nothing of the queue."""

_UNSET: Any = object()
_tracer: Any = _UNSET
"""The tracer the instrumented calls use: None when tracing is off; ``_UNSET`` until decided."""
_provider: Any = None
"""A provider given by ``use_tracer_provider`` (wins over the environment)."""

_NULL: AbstractContextManager[None] = contextlib.nullcontext()

_SDK_PROVIDER_NAMES = ("ProxyTracerProvider", "NoOpTracerProvider")
"""OpenTelemetry's placeholder providers: a process that set none of its own has one of these."""


def tracing_wanted(environ: Any = None) -> bool:
    """Whether the standard OTel variables ask for export (an OTLP endpoint, the SDK not off)."""
    env = os.environ if environ is None else environ
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    if env.get("OTEL_TRACES_EXPORTER", "").strip().lower() == "none":
        return False
    return bool(
        env.get("OTEL_EXPORTER_OTLP_ENDPOINT", "").strip()
        or env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "").strip()
    )


def tracer() -> Any:
    """The OpenTelemetry tracer QGS records with, or None when tracing is off (decided once)."""
    t = _tracer
    return _decide() if t is _UNSET else t


def _decide() -> Any:
    global _tracer
    if os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        _tracer = None
        return None
    if _provider is not None:
        from qgs_worker.telemetry import _tracing

        _tracer = _tracing.tracer_of(_provider)
    elif tracing_wanted():
        from qgs_worker.telemetry import _tracing

        _tracer = _tracing.tracer_of(_tracing.provider_from_env())
    elif "opentelemetry.trace" in sys.modules:  # the host process may trace itself
        from opentelemetry import trace

        own = trace.get_tracer_provider()
        if type(own).__name__ in _SDK_PROVIDER_NAMES:
            _tracer = None
        else:
            from qgs_worker.telemetry import _tracing

            _tracer = _tracing.tracer_of(own)
    else:
        _tracer = None
    return _tracer


def use_tracer_provider(provider: Any) -> None:
    """Record QGS's spans with ``provider`` (an OpenTelemetry ``TracerProvider``); None: undo.

    For tests (``InMemorySpanExporter``) and applications that build their own provider. Call
    it before the worker or client starts; a running worker's cached observer keeps what it had.
    """
    global _provider, _tracer
    _provider = provider
    _tracer = _UNSET


def reset() -> None:
    """Forget the decision (and any provider given): the next call reads the environment again."""
    use_tracer_provider(None)


def job_span(name: str, request: Any, args: tuple[Any, ...]) -> AbstractContextManager[Any]:
    """The span a Celery job runs in (a no-op context when tracing is off).

    Args:
        name: The job's name (``qgs.review.critic``): the span's name.
        request: The job's Celery request (its id, its queue).
        args: The job's positional arguments: a round id, or the intake's submission.
    """
    t = _tracer if _tracer is not _UNSET else _decide()
    if t is None:
        return _NULL
    from qgs_worker.telemetry import _tracing

    return _tracing.job_span(t, name, request, args)


def inject_trace_context(headers: dict[str, Any]) -> None:
    """Put the current span's context in a job's message headers (``traceparent``).

    The job's span then continues the trace that published it: an agent's submit, and each job
    the next of a round's chain. A no-op when tracing is off or no span is current.
    """
    t = _tracer if _tracer is not _UNSET else _decide()
    if t is None:
        return
    from qgs_worker.telemetry import _tracing

    _tracing.inject(headers)


def tool_checked(report: Any, principal: str | None, agent: str | None) -> None:
    """Record one tool-call check as a span ending now, with its evaluation event.

    Called after ``ToolGate.check`` returned; the span starts ``report.latency_us`` earlier. A
    no-op (one comparison) when tracing is off.
    """
    t = _tracer if _tracer is not _UNSET else _decide()
    if t is None:
        return
    from qgs_worker.telemetry import _tracing

    _tracing.tool_check_span(t, report, principal, agent)


def observer_for(settings: Settings) -> TelemetryObserver | None:
    """The review observer a worker's service tells, or None when tracing and metrics are off.

    Metrics count when the worker serves them (``QGS_WORKER__METRICS_PORT`` set) or when
    ``PROMETHEUS_MULTIPROC_DIR`` is set (a prefork child whose parent serves them).
    """
    metrics = metrics_counted(settings)
    t = tracer()
    if t is None and not metrics:
        return None
    from qgs_worker.telemetry._observer import TelemetryObserver

    return TelemetryObserver(tracing=t is not None, metrics=metrics)


def metrics_counted(settings: Settings) -> bool:
    """Whether this worker counts metrics: it serves them, or its parent does (prefork)."""
    return settings.worker.metrics_port is not None or bool(
        os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    )


def webhook_attempted(settings: Settings, event: str, outcome: str) -> None:
    """Count one webhook POST (``qgs_webhook_attempts_total``) when metrics are counted.

    Args:
        settings: The worker's settings (``metrics_counted``).
        event: ``qgs.decision`` or ``qgs.approval``.
        outcome: ``delivered``, ``retry`` (failed, tried again) or ``failed`` (for good).
    """
    if not metrics_counted(settings):
        return
    from qgs_worker.telemetry import _metrics

    _metrics.WEBHOOK_ATTEMPTS.labels(event=event, outcome=outcome).inc()


def metrics_asgi_app(
    settings: Settings | None = None,
    queues: Sequence[str] = (),
    agreement: Callable[[], Any] | None = None,
) -> Any:
    """An ASGI application answering the Prometheus text format (mount it at ``/metrics``).

    Args:
        settings: Whose broker's queues to report (depth, oldest job's age); None: no queues.
        queues: The queue names to report (``qgs_worker.queue.celery_app.QUEUES``).
        agreement: The spot-check gauges' source, read at each scrape
            (``Operations.agreement_snapshot``); None: no spot-check gauges.
    """
    from qgs_worker.telemetry import _metrics

    extra = [_metrics.AgreementCollector(agreement)] if agreement is not None else []
    return _metrics.asgi_app(settings, queues, extra)


def queue_figures(
    broker_url: str, queues: Sequence[str]
) -> tuple[dict[str, tuple[int, float | None]], bool]:
    """Each queue's depth and its oldest job's age in seconds, read from the broker now.

    What ``qgs_queue_depth`` and ``qgs_queue_oldest_age_seconds`` show, for a page (the
    operator console's queue health). Never raises: a broker that does not answer gives
    ``({}, False)``.

    Returns:
        ``({queue: (depth, oldest_age_s)}, broker_up)``; the age is 0.0 for an empty queue and
        None when its jobs carry no publish time.
    """
    from qgs_worker.telemetry import _metrics

    return _metrics.queue_figures(broker_url, queues)


def start_metrics_server(settings: Settings, queues: Sequence[str] = ()) -> Any:
    """Serve ``/metrics`` on ``QGS_WORKER__METRICS_PORT`` in a daemon thread; the server.

    Returns:
        The ``wsgiref`` server (``shutdown()`` it; ``server_port`` is the bound port), or None
        when no port is set.
    """
    if settings.worker.metrics_port is None:
        return None
    from qgs_worker.telemetry import _metrics

    return _metrics.serve(settings, queues)
