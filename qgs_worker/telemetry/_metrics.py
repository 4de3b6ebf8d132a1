"""The Prometheus side of telemetry: the metrics, the broker's queues, ``/metrics``.

| metric | labels | counts |
| --- | --- | --- |
| ``qgs_decisions_total`` | ``kind``, ``task_type`` | decisions stored |
| ``qgs_reviews_total`` | ``verdict`` (``pass``, ``pass_with_suggestions``, ``fail``, ``error``), ``task_type`` | reviews (or judge failures) stored |
| ``qgs_findings_total`` | ``severity``, ``role`` | findings stored (detectors at intake, audit roles) |
| ``qgs_judge_calls_total`` | ``judge`` | critic calls to the judge |
| ``qgs_judge_failures_total`` | ``judge``, ``error`` (the exception's class) | critic calls that raised |
| ``qgs_judge_latency_seconds`` | ``judge`` | histogram of each critic call's wall time, in seconds |
| ``qgs_tool_call_checks_total`` | ``layer`` (where it stopped; ``none``), ``allowed`` | tool-call checks stored (``qgs.toolgate.log``) |
| ``qgs_queue_depth`` | ``queue`` | jobs waiting in the queue, read from Redis at scrape time |
| ``qgs_queue_oldest_age_seconds`` | ``queue`` | seconds since the oldest waiting job was published (0 when none waits) |
| ``qgs_broker_up`` | | 1 when the broker answered the scrape, else 0 |
| ``qgs_api_requests_total`` | ``route`` (the route's template, ``unmatched``), ``method``, ``status`` | HTTP requests the API answered |
| ``qgs_api_request_duration_seconds`` | ``route``, ``method`` | histogram of each API request's wall time, in seconds (a long-poll included) |
| ``qgs_api_refused_total`` | ``status`` (``401``, ``429``) | API requests refused for their key: none or revoked, or over its rate limit |
| ``qgs_webhook_attempts_total`` | ``event`` (``qgs.decision``, ``qgs.approval``), ``outcome`` (``delivered``, ``retry``, ``failed``) | webhook POSTs a worker made |
| ``qgs_spotcheck_kappa`` | ``scope`` (``gate``, ``judge``, ``task_type``, ``rule``), ``name``, ``bound`` (``estimate``, ``low``, ``high``) | Cohen's kappa person vs gate and its 95% interval, read from the store at scrape time (``qgs serve``'s ``/metrics``) |
| ``qgs_spotcheck_alpha`` | ``scope``, ``name`` | Krippendorff's alpha among people who labelled the same rounds |
| ``qgs_spotcheck_labels`` | ``scope``, ``name`` | labels each figure stands on |
| ``qgs_spotcheck_false_positives`` / ``qgs_spotcheck_false_negatives`` | ``rule`` | a rule's findings people refused / defects people named that it missed |
| ``qgs_spotcheck_queue`` | ``state`` (``open``, ``labelled``) | spot-check queue items |
| ``qgs_shadow`` | ``kind`` (``judge``, ``rule``), ``name`` | 1 while the judge or rule is in shadow (recorded, not deciding), else 0 |

Counters are per process and start at 0 (Prometheus' ``rate()`` copes with restarts). A
worker counts what its jobs store; tool-call checks are counted where they are stored (the
worker running ``qgs.toolgate.log``), once per check id, so summing over workers and the HTTP
API counts each check once. Queue figures read two Redis commands per queue (``LLEN``,
``LINDEX -1``); jobs a worker already holds (prefetched, retries waiting for their countdown)
are not waiting and not counted. The age comes from the ``qgs_sent_at`` header QGS's producers
put on every job (``celery_app``); a job published without it (an older client) is counted in
the depth but gives no age.

With the prefork pool, jobs run in child processes: ``qgs worker`` sets
``PROMETHEUS_MULTIPROC_DIR`` (prometheus_client's multiprocess mode) before anything is
imported, and the parent's ``/metrics`` sums the children's files.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Histogram, make_asgi_app
from prometheus_client import start_http_server as _start_http_server
from prometheus_client.core import REGISTRY, GaugeMetricFamily, Metric

from qgs_worker.telemetry import SENT_AT_HEADER

if TYPE_CHECKING:
    from qgs_worker.config.settings import Settings

__all__ = [
    "API_LATENCY",
    "API_REFUSED",
    "API_REQUESTS",
    "DECISIONS",
    "FINDINGS",
    "JUDGE_CALLS",
    "JUDGE_FAILURES",
    "JUDGE_LATENCY",
    "REVIEWS",
    "SENT_AT_HEADER",
    "TOOL_CHECKS",
    "WEBHOOK_ATTEMPTS",
    "AgreementCollector",
    "QueueCollector",
    "asgi_app",
    "exposed_registry",
    "queue_figures",
    "serve",
]

log = logging.getLogger(__name__)

QUEUE_READ_TIMEOUT_S = 1.0
"""Socket timeout of the scrape's Redis reads: a hung broker makes ``qgs_broker_up`` 0, fast."""

DECISIONS = Counter(
    "qgs_decisions_total", "Decisions stored, by kind and task type.", ["kind", "task_type"]
)
REVIEWS = Counter(
    "qgs_reviews_total",
    "Reviews stored, by verdict (error: the judge failed) and task type.",
    ["verdict", "task_type"],
)
FINDINGS = Counter(
    "qgs_findings_total", "Findings stored, by severity and the role that found them.",
    ["severity", "role"],
)  # fmt: skip
JUDGE_CALLS = Counter("qgs_judge_calls_total", "Critic calls to the judge.", ["judge"])
JUDGE_FAILURES = Counter(
    "qgs_judge_failures_total", "Critic calls to the judge that failed, by error class.",
    ["judge", "error"],
)  # fmt: skip
JUDGE_LATENCY = Histogram(
    "qgs_judge_latency_seconds",
    "Wall time of each critic call to the judge, in seconds.",
    ["judge"],
    buckets=(0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0),
)
TOOL_CHECKS = Counter(
    "qgs_tool_call_checks_total",
    "Tool-call checks stored, by the layer that stopped the call (none) and whether allowed.",
    ["layer", "allowed"],
)


API_REQUESTS = Counter(
    "qgs_api_requests_total",
    "HTTP requests the API answered, by route template, method and status.",
    ["route", "method", "status"],
)
API_LATENCY = Histogram(
    "qgs_api_request_duration_seconds",
    "Wall time of each HTTP request to the API (a long-poll included), in seconds.",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0),
)
API_REFUSED = Counter(
    "qgs_api_refused_total",
    "API requests refused for their key: 401 (no, unknown or revoked) or 429 (rate limit).",
    ["status"],
)
WEBHOOK_ATTEMPTS = Counter(
    "qgs_webhook_attempts_total",
    "Webhook POSTs, by event and outcome (delivered; retry: failed, tried again; failed: for good).",
    ["event", "outcome"],
)


class QueueCollector:
    """Reads each queue's depth and the age of its oldest job from the broker's Redis, per scrape.

    Args:
        broker_url: The broker (``redis://``, ``rediss://``, ``redis+socket://``).
        queues: The queue names (kombu's Redis transport keeps each as a list of that name).
    """

    def __init__(self, broker_url: str, queues: tuple[str, ...]) -> None:
        self.broker_url = broker_url
        self.queues = queues
        self._client: Any = None

    def _redis(self) -> Any:
        if self._client is None:
            from qgs_worker.limits.ratelimit import redis_for_broker

            self._client = redis_for_broker(self.broker_url, timeout_s=QUEUE_READ_TIMEOUT_S)
        return self._client

    def read(self) -> dict[str, tuple[int, float | None]]:
        """Each queue's depth and its oldest job's age in seconds, read now.

        The age is 0.0 for an empty queue and None when its jobs carry no publish time.

        Raises:
            Exception: what redis-py raises when the broker does not answer.
        """
        pipe = self._redis().pipeline(transaction=False)
        for queue in self.queues:
            pipe.llen(queue)
            pipe.lindex(queue, -1)  # kombu pushes left and pops right: the oldest
        answers = pipe.execute()
        now = time.time()
        found: dict[str, tuple[int, float | None]] = {}
        for i, queue in enumerate(self.queues):
            length, oldest = answers[2 * i], answers[2 * i + 1]
            sent_at = _sent_at(oldest) if oldest else None
            age = 0.0 if not length else None if sent_at is None else max(0.0, now - sent_at)
            found[queue] = (int(length or 0), age)
        return found

    def collect(self) -> Iterator[Metric]:
        """The queue gauges and ``qgs_broker_up``, read now."""
        up = GaugeMetricFamily("qgs_broker_up", "1 when the broker answered this scrape, else 0.")
        try:
            figures = self.read()
        except Exception as exc:  # a scrape reports the broker down, it does not fail
            log.debug("queue metrics: the broker did not answer: %s", exc)
            up.add_metric([], 0.0)
            yield up
            return
        up.add_metric([], 1.0)
        depth = GaugeMetricFamily(
            "qgs_queue_depth", "Jobs waiting in each queue, read from the broker.", labels=["queue"]
        )
        age = GaugeMetricFamily(
            "qgs_queue_oldest_age_seconds",
            "Seconds since the oldest job waiting in each queue was published (0: none waits).",
            labels=["queue"],
        )
        for queue, (length, oldest_s) in figures.items():
            depth.add_metric([queue], float(length))
            if oldest_s is not None:
                age.add_metric([queue], oldest_s)
        yield up
        yield depth
        yield age


def queue_figures(
    broker_url: str, queues: Sequence[str]
) -> tuple[dict[str, tuple[int, float | None]], bool]:
    """Each queue's depth and oldest job's age (``QueueCollector.read``), and the broker's state.

    Never raises: a broker that does not answer gives ``({}, False)``.
    """
    collector = QueueCollector(broker_url, tuple(queues))
    try:
        return collector.read(), True
    except Exception as exc:
        log.debug("queue figures: the broker did not answer: %s", exc)
        return {}, False
    finally:
        if collector._client is not None:
            collector._client.close()


def _sent_at(raw: bytes | str) -> float | None:
    """The ``qgs_sent_at`` header of a kombu Redis message (JSON), or None."""
    try:
        message = json.loads(raw)
        value = (message.get("headers") or {}).get(SENT_AT_HEADER)
        return float(value) if value is not None else None
    except (ValueError, TypeError, AttributeError):
        return None


class AgreementCollector:
    """The spot-check gauges, computed from the store at each scrape.

    Args:
        snapshot: Returns ``(figures, shadow states, (open, labelled))``: the API's
            ``Operations.agreement_snapshot`` (telemetry knows no store: the caller fills it).
    """

    def __init__(
        self, snapshot: Callable[[], tuple[Sequence[Any], Sequence[Any], tuple[int, int]]]
    ):
        self.snapshot = snapshot

    def collect(self) -> Iterator[Metric]:
        """The gauges, read now; nothing when the store did not answer."""
        try:
            figures, states, (open_items, labelled) = self.snapshot()
        except Exception as exc:  # a scrape reports what it can, it does not fail
            log.debug("spot-check metrics: the store did not answer: %s", exc)
            return
        kappa = GaugeMetricFamily(
            "qgs_spotcheck_kappa",
            "Cohen's kappa person vs gate and its 95% interval.",
            labels=["scope", "name", "bound"],
        )
        alpha = GaugeMetricFamily(
            "qgs_spotcheck_alpha",
            "Krippendorff's alpha among people who labelled the same rounds.",
            labels=["scope", "name"],
        )
        labels = GaugeMetricFamily(
            "qgs_spotcheck_labels", "Labels each figure stands on.", labels=["scope", "name"]
        )
        fp = GaugeMetricFamily(
            "qgs_spotcheck_false_positives", "A rule's findings people refused.", labels=["rule"]
        )
        fn = GaugeMetricFamily(
            "qgs_spotcheck_false_negatives",
            "Defects people named that a rule missed.",
            labels=["rule"],
        )
        for f in figures:
            labels.add_metric([f.scope, f.name], float(f.labels))
            if f.kappa is not None:
                for bound in ("estimate", "low", "high"):
                    kappa.add_metric([f.scope, f.name, bound], float(getattr(f.kappa, bound)))
            if f.alpha is not None:
                alpha.add_metric([f.scope, f.name], float(f.alpha))
            if f.scope == "rule":
                fp.add_metric([f.name], float(f.false_positives))
                fn.add_metric([f.name], float(f.false_negatives))
        queue = GaugeMetricFamily(
            "qgs_spotcheck_queue", "Spot-check queue items.", labels=["state"]
        )
        queue.add_metric(["open"], float(open_items))
        queue.add_metric(["labelled"], float(labelled))
        shadow = GaugeMetricFamily(
            "qgs_shadow", "1 while a judge or rule is in shadow, else 0.", labels=["kind", "name"]
        )
        for state in states:
            shadow.add_metric([state.kind, state.name], 1.0 if state.in_shadow else 0.0)
        yield from (kappa, alpha, labels, fp, fn, queue, shadow)


class _Joined:
    """Collects from several collectors in turn (the process's metrics, then the queues)."""

    def __init__(self, *collectors: Any) -> None:
        self.collectors = collectors

    def collect(self) -> Iterator[Metric]:
        for collector in self.collectors:
            yield from collector.collect()


def exposed_registry(
    settings: Settings | None, queues: Sequence[str] = (), extra: Sequence[Any] = ()
) -> CollectorRegistry:
    """A registry of what ``/metrics`` shows.

    This process's metrics (in multiprocess mode, every process's), ``queues`` on
    ``settings``' broker when it has one (the caller names them: telemetry knows no queue), and
    the ``extra`` collectors (``qgs serve``: the spot-check gauges, ``AgreementCollector``).
    """
    base: Any = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        base = CollectorRegistry()
        multiprocess.MultiProcessCollector(base)  # type: ignore[no-untyped-call]
    collectors = [base]
    if settings is not None and settings.broker_url and queues:
        collectors.append(QueueCollector(settings.broker_url, tuple(queues)))
    collectors.extend(extra)
    # No describe(): the registry keeps no names, so several views never clash on them.
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Joined(*collectors))
    return registry


def asgi_app(
    settings: Settings | None, queues: Sequence[str] = (), extra: Sequence[Any] = ()
) -> Any:
    """``prometheus_client.make_asgi_app`` over ``exposed_registry(settings, queues, extra)``."""
    return make_asgi_app(registry=exposed_registry(settings, queues, extra))


def serve(settings: Settings, queues: Sequence[str] = ()) -> Any:
    """Serve ``exposed_registry(settings)`` on the worker's metrics address and port.

    Returns:
        The running ``WSGIServer`` (``server_port``: the port bound; port 0 picks a free one).

    Raises:
        OSError: the port is taken or the address cannot be bound.
    """
    w = settings.worker
    port = w.metrics_port if w.metrics_port is not None else 0
    server, _thread = _start_http_server(
        port, w.metrics_address, exposed_registry(settings, queues)
    )
    log.info("metrics at http://%s:%d/metrics", w.metrics_address, server.server_port)
    return server
