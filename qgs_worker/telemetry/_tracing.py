"""The OpenTelemetry side of telemetry: the provider, the job spans and the evaluation events.

Imported only when tracing is on (``qgs_worker.telemetry.tracer``). Follows the GenAI semantic
conventions (development status, checked against the ``gen_ai.evaluation.result`` event of
``semantic-conventions-genai``'s ``docs/gen-ai/gen-ai-events.md``):

| event on the job span | ``gen_ai.evaluation.name`` | ``.score.value`` | ``.score.label`` | ``.explanation`` |
| --- | --- | --- | --- | --- |
| a review | ``qgs.review`` | the score, 0-100 | ``pass``, ``pass_with_suggestions``, ``fail``; ``error`` (with ``error.type``) when the judge failed | the summary |
| a dimension of it | ``qgs.review.<dimension>`` | its score, 0-100 | - | its first issue |
| a finding | ``qgs.finding`` | the severity's weight (P0 100 ... P4 5) | ``P0`` ... ``P4`` | the title |
| a decision | ``qgs.decision`` | the round's review score, when reviewed | ``pass``, ``revise``, ``force_deliver``, ... | the reason |
| a tool-call check | ``qgs.toolgate`` | - | ``allowed``, ``rejected`` | the failing layer's first error |

Each event also carries ``qgs.task.id``, ``qgs.round.number`` and ``qgs.task.type`` (the round
it concerns: a step that decides the next round too tells it on the same span), and what
belongs to its kind (``qgs.finding.category``, ``.role``, ``.rule``; ``qgs.decision.risk``,
``.termination``). Explanations lose their quoted spans, call arguments, personal data and long
tokens and are cut to ``EXPLANATION_CHARS`` (``_cut``); finding evidence (which may quote a
secret), tool arguments and deliverables are never exported.

The spec now prefers log-based events to span events; span events are what the brief and the
in-memory span exporter of the tests see, and every OTLP backend shows them on the span.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from opentelemetry import propagate, trace
from opentelemetry.trace import SpanKind, Status, StatusCode

from qgs_worker.core.models import Decision, Finding, Review

__all__ = [
    "EVALUATION_EVENT",
    "EXPLANATION_CHARS",
    "decision_event",
    "finding_events",
    "job_span",
    "judge_span",
    "mark_round",
    "provider_from_env",
    "review_events",
    "tool_check_span",
    "tracer_of",
]

EVALUATION_EVENT = "gen_ai.evaluation.result"
"""The GenAI convention's event name for one evaluation's result."""

EXPLANATION_CHARS = 300
"""Explanations (summaries, reasons, titles, errors) are cut to this many characters."""

SEVERITY_WEIGHT = {"P0": 100, "P1": 50, "P2": 20, "P3": 10, "P4": 5}
"""A finding's score value: the weight its severity adds to a round's risk (DESIGN.md)."""

CONTROL_FLOW = ("Retry", "Ignore", "Reject")
"""Celery's exceptions that end a job as planned (a retry, a parked job): not errors."""

DEFAULT_SERVICE_NAME = "qgs"


def provider_from_env() -> Any:
    """A ``TracerProvider`` exporting by OTLP http/protobuf, configured by the OTel variables.

    ``OTEL_SERVICE_NAME`` (default ``qgs``) and ``OTEL_RESOURCE_ATTRIBUTES`` name the resource;
    the exporter reads ``OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT``, ``_HEADERS``, ``_TIMEOUT``,
    ``_COMPRESSION``; the batch processor ``OTEL_BSP_*``. Spans are exported from a background
    thread, never on a job's path.
    """
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import SERVICE_NAME, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    resource = Resource.create()
    if str(resource.attributes.get(SERVICE_NAME, "")).startswith("unknown_service"):
        resource = resource.merge(Resource({SERVICE_NAME: DEFAULT_SERVICE_NAME}))
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    return provider


def tracer_of(provider: Any) -> Any:
    """QGS's tracer on ``provider``."""
    from qgs_worker.core.version import QGS_VERSION

    return provider.get_tracer("qgs_worker", QGS_VERSION)


@dataclass
class _Frame:
    """The job span being run, and whether it already names its round."""

    span: Any
    marked: bool = False


_frame: ContextVar[_Frame | None] = ContextVar("qgs_job_frame", default=None)


_QUOTED = re.compile(r"'[^'\n]*(?:'|$)|\"[^\"\n]*(?:\"|$)|`[^`\n]*(?:`|$)|“[^”\n]*(?:”|$)")
"""A quoted span: what a judge or a rule quotes is the agent's text (tool arguments, lines)."""

_CALL = re.compile(r"\b([A-Za-z_][\w.-]*)\([^)\n]*\)?")
"""An unquoted ``name(arguments)``: the tool's name is kept, its arguments are not."""

_SECRETISH = re.compile(r"\b(?=[A-Za-z0-9_\-]*\d)[A-Za-z0-9_\-]{20,}\b")
"""A long token with a digit (an API key, a hash, an account number) left unquoted."""


def _cut(text: str) -> str:
    """An explanation fit to export: no quoted text, arguments, personal data or tokens; cut.

    Explanations are the judge's and the rules' words, which quote the agent's own text (the
    rules judge writes ``tool call 'send_email({...})' does not ...``): quoted spans and call
    arguments become ``…``, personal data found by ``core.pii`` its redacted form, long
    digit-bearing tokens ``…``; then the text is cut at ``EXPLANATION_CHARS``.
    """
    from qgs_worker.core.pii import find_pii

    safe = _QUOTED.sub(lambda m: m.group(0)[0] + "…" + m.group(0)[0], text)
    safe = _CALL.sub(r"\1(…)", safe)
    for match in find_pii(safe):
        safe = safe.replace(match.value, match.redacted)
    safe = _SECRETISH.sub("…", safe)
    return safe if len(safe) <= EXPLANATION_CHARS else safe[: EXPLANATION_CHARS - 1] + "…"


@contextmanager
def job_span(tracer: Any, name: str, request: Any, args: tuple[Any, ...]) -> Iterator[Any]:
    """Run a job in a CONSUMER span named ``name`` (see ``qgs_worker.telemetry.job_span``).

    The span names the message (``messaging.message.id``), the queue
    (``messaging.destination.name``) and what the arguments say (``qgs.round.id``, or the
    intake's ``qgs.task.id`` and ``qgs.submission.id``); the service's observer adds the round
    (``mark_round``). A Celery retry or ignore ends it unset, with ``qgs.job.outcome``; any
    other exception is recorded and sets the status to ERROR.
    """
    attributes: dict[str, Any] = {
        "messaging.operation.name": "process",
        "messaging.system": "redis",
    }
    message_id = getattr(request, "id", None)
    if message_id:
        attributes["messaging.message.id"] = str(message_id)
    queue = (getattr(request, "delivery_info", None) or {}).get("routing_key")
    if queue:
        attributes["messaging.destination.name"] = str(queue)
    first = args[0] if args else None
    if isinstance(first, int) and not isinstance(first, bool):
        attributes["qgs.round.id"] = first
    elif isinstance(first, dict):
        for key, attribute in (("task_id", "qgs.task.id"), ("submission_id", "qgs.submission.id")):
            value = first.get(key)
            if isinstance(value, str):
                attributes[attribute] = value[:128]
    with tracer.start_as_current_span(
        name,
        context=_published_from(request),
        kind=SpanKind.CONSUMER,
        attributes=attributes,
        record_exception=False,
        set_status_on_exception=False,
    ) as span:
        token = _frame.set(_Frame(span))
        try:
            yield span
        except BaseException as exc:
            if type(exc).__name__ in CONTROL_FLOW:
                span.set_attribute("qgs.job.outcome", type(exc).__name__.lower())
            else:
                span.record_exception(exc)
                span.set_status(Status(StatusCode.ERROR, f"{type(exc).__name__}: {exc}"[:200]))
            raise
        finally:
            _frame.reset(token)


TRACE_HEADERS = ("traceparent", "tracestate", "baggage")
"""The W3C headers a published job carries (``inject``); Celery hands them over on the request."""


def inject(headers: dict[str, Any]) -> None:
    """Write the current context into ``headers`` with the configured propagator (W3C).

    Celery publishes a chain's next job after the job before it returned, outside its span:
    then the headers that job came with are passed on, so the round stays one trace.
    """
    if trace.get_current_span().get_span_context().is_valid:
        propagate.inject(headers)
        return
    from celery import current_task

    request = getattr(current_task, "request", None) if current_task else None
    for key in TRACE_HEADERS:
        value = getattr(request, key, None)
        if isinstance(value, str):
            headers.setdefault(key, value)


def _published_from(request: Any) -> Any:
    """The context the job was published in (its ``traceparent``), or None: a new trace."""
    carrier = {
        key: value for key in TRACE_HEADERS if isinstance(value := getattr(request, key, None), str)
    }
    return propagate.extract(carrier) if carrier else None


def _round_attributes(task_id: str, number: int, task_type: str) -> dict[str, Any]:
    return {"qgs.task.id": task_id, "qgs.round.number": number, "qgs.task.type": task_type}


def mark_round(task_id: str, number: int, task_type: str) -> None:
    """Name the current job span's round, once (the first round a step works on is its own)."""
    frame = _frame.get()
    if frame is None or frame.marked:
        return
    frame.marked = True
    frame.span.set_attributes(_round_attributes(task_id, number, task_type))


def _current() -> Any:
    span = trace.get_current_span()
    return span if span.is_recording() else None


def _event(span: Any, attributes: dict[str, Any]) -> None:
    span.add_event(EVALUATION_EVENT, {k: v for k, v in attributes.items() if v is not None})


def review_events(where: dict[str, Any], review: Review | None, error: str | None) -> None:
    """A review's evaluation event (and one per dimension) on the current span."""
    span = _current()
    if span is None:
        return
    if review is None:
        _event(
            span,
            {
                **where,
                "gen_ai.evaluation.name": "qgs.review",
                "gen_ai.evaluation.score.label": "error",
                "gen_ai.evaluation.explanation": _cut(error or "the judge failed"),
                "error.type": "judge_failed",
            },
        )
        return
    _event(
        span,
        {
            **where,
            "gen_ai.evaluation.name": "qgs.review",
            "gen_ai.evaluation.score.value": float(review.score),
            "gen_ai.evaluation.score.label": review.verdict.value.lower(),
            "gen_ai.evaluation.explanation": _cut(review.summary) if review.summary else None,
            "qgs.review.judge": review.judge or None,
        },
    )
    for dimension in review.dimensions:
        _event(
            span,
            {
                **where,
                "gen_ai.evaluation.name": f"qgs.review.{dimension.name}",
                "gen_ai.evaluation.score.value": float(dimension.score),
                "gen_ai.evaluation.explanation": _cut(dimension.issues[0])
                if dimension.issues
                else None,
            },
        )


def finding_events(where: dict[str, Any], findings: Sequence[Finding]) -> None:
    """One evaluation event per finding on the current span (never its evidence)."""
    span = _current()
    if span is None:
        return
    for f in findings:
        severity = f.severity.value
        _event(
            span,
            {
                **where,
                "gen_ai.evaluation.name": "qgs.finding",
                "gen_ai.evaluation.score.value": float(SEVERITY_WEIGHT.get(severity, 0)),
                "gen_ai.evaluation.score.label": severity,
                "gen_ai.evaluation.explanation": _cut(f.title),
                "qgs.finding.category": f.category,
                "qgs.finding.role": f.role,
                "qgs.finding.rule": f.rule or None,
                "qgs.finding.round_number": f.round_number,
            },
        )


def decision_event(where: dict[str, Any], decision: Decision, score: int | None) -> None:
    """The decision's evaluation event on the current span."""
    span = _current()
    if span is None:
        return
    _event(
        span,
        {
            **where,
            "gen_ai.evaluation.name": "qgs.decision",
            "gen_ai.evaluation.score.value": float(score) if score is not None else None,
            "gen_ai.evaluation.score.label": decision.kind.value,
            "gen_ai.evaluation.explanation": _cut(decision.reason) if decision.reason else None,
            "qgs.decision.risk": decision.risk,
            "qgs.decision.termination": decision.termination.value
            if decision.termination
            else None,
            "qgs.decision.best_round": decision.best_round,
        },
    )


_PROVIDER_MODEL = re.compile(r"^(?P<provider>[a-z0-9_.-]+):(?P<model>[^\s,()]+)$")
"""A judge named ``provider:model`` (``openai:gpt-4o-mini``) is one GenAI model's call."""


def judge_span(
    tracer: Any, judge: str, duration_s: float, review: Review | None, error: str | None
) -> None:
    """The critic's call to its judge as a span ending now, a child of the job's span.

    A model's judge (``openai:gpt-4o-mini``) is a GenAI client span ``chat gpt-4o-mini``
    (``gen_ai.operation.name`` ``chat``, ``gen_ai.provider.name`` ``openai``,
    ``gen_ai.request.model``, the usage tokens); any other (the offline ``rules judge``, a
    panel of several models) is an internal span ``qgs.judge.review`` naming it in ``qgs.judge``.
    """
    end_ns = time.time_ns()
    named = _PROVIDER_MODEL.match(judge)
    attributes: dict[str, Any] = {"qgs.judge": judge}
    if named is not None:
        model = named["model"]
        name, kind = f"chat {model}", SpanKind.CLIENT
        attributes.update(
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.provider.name": named["provider"],
                "gen_ai.request.model": model,
            }
        )
    else:
        name, kind = "qgs.judge.review", SpanKind.INTERNAL
    if review is not None and (review.prompt_tokens or review.completion_tokens):
        attributes["gen_ai.usage.input_tokens"] = review.prompt_tokens
        attributes["gen_ai.usage.output_tokens"] = review.completion_tokens
    if error is not None:
        attributes["error.type"] = error
    span = tracer.start_span(
        name, kind=kind, attributes=attributes, start_time=end_ns - int(duration_s * 1e9)
    )
    if error is not None:
        span.set_status(Status(StatusCode.ERROR, error))
    span.end(end_time=end_ns)


def tool_check_span(tracer: Any, report: Any, principal: str | None, agent: str | None) -> None:
    """A tool-call check as a span ``qgs.toolgate.check`` ending now, with its evaluation event.

    ``gen_ai.tool.name`` and ``gen_ai.tool.call.id`` name the call; ``qgs.toolgate.stopped_at``
    and ``.stopped_layer`` say which layer refused it. Arguments are never exported.
    """
    end_ns = time.time_ns()
    stopped = report.stopped_layer
    attributes: dict[str, Any] = {
        "gen_ai.tool.name": str(report.tool_name or "")[:128] or None,
        "gen_ai.tool.call.id": str(report.call_id)[:128] if report.call_id else None,
        "qgs.toolgate.allowed": bool(report.allowed),
        "qgs.toolgate.stopped_at": report.stopped_at,
        "qgs.toolgate.stopped_layer": stopped.name if stopped is not None else None,
        "qgs.principal": principal[:128] if principal else None,
        "gen_ai.agent.name": agent[:128] if agent else None,
    }
    span = tracer.start_span(
        "qgs.toolgate.check",
        attributes={k: v for k, v in attributes.items() if v is not None},
        start_time=end_ns - int(max(0.0, float(report.latency_us)) * 1000),
    )
    explanation = report.errors[0] if report.errors else report.suggestion
    _event(
        span,
        {
            "gen_ai.evaluation.name": "qgs.toolgate",
            "gen_ai.evaluation.score.label": "allowed" if report.allowed else "rejected",
            "gen_ai.evaluation.explanation": _cut(explanation) if explanation else None,
            "qgs.toolgate.stopped_layer": stopped.name if stopped is not None else None,
        },
    )
    span.end(end_time=end_ns)
