"""Telemetry through a real worker: spans and evaluation events, ``/metrics`` over HTTP, queues.

Real Redis, a real Celery worker (thread pool, in this process), a SQLite store and the loopback
OpenAI-compatible judge. The real OpenTelemetry SDK records into an ``InMemorySpanExporter``;
the worker serves ``/metrics`` on a free port (``QGS_WORKER__METRICS_PORT=0``), read over HTTP
and parsed with ``prometheus_client``'s own text parser.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
import redis
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from prometheus_client.parser import text_string_to_metric_families

from qgs_worker import telemetry
from qgs_worker.client import Client
from qgs_worker.queue.celery_app import QUEUES, SENT_AT_HEADER, create_celery_app
from qgs_worker.telemetry._metrics import QueueCollector
from tests.fake_openai import Answer, FakeOpenAIServer
from tests.integration.conftest import make_settings, running_worker

pytestmark = pytest.mark.integration

EVENT = "gen_ai.evaluation.result"
T = TypeVar("T")

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "send_message",
            "parameters": {
                "type": "object",
                "properties": {"to": {"type": "string"}},
                "required": ["to"],
            },
        },
    }
]


def wait_for(probe: Callable[[], T | None], what: str, timeout_s: float = 20.0) -> T:
    """Poll ``probe`` until it returns something (an observable state), or fail after the timeout."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = probe()
        if found:
            return found
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}")


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    telemetry.use_tracer_provider(provider)
    yield exporter
    telemetry.reset()
    provider.shutdown()


@pytest.fixture
def qgs(
    redis_url: str, fake_judge: FakeOpenAIServer, tmp_path: Path, spans: InMemorySpanExporter
) -> Iterator[tuple[Client, Any]]:
    fake_judge.default = Answer.auto("PASS", 92)
    settings = make_settings(
        redis_url, f"sqlite:///{tmp_path / 'qgs.db'}", fake_judge, tmp_path, metrics_port=0
    )
    with running_worker(settings) as app:
        client = Client(settings, app=app)
        yield client, app
        client.repo.dispose()


def metrics(app: Any) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The worker's ``/metrics`` over HTTP, parsed: {(sample name, sorted labels): value}."""
    port = app.qgs_metrics_server.server_port
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        assert 200 == response.status
        text = response.read().decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(scraped: dict[Any, float], name: str, **labels: str) -> float:
    return scraped.get((name, tuple(sorted(labels.items()))), 0.0)


def finished(exporter: InMemorySpanExporter, name: str, round_id: int) -> Any:
    for span in exporter.get_finished_spans():
        if span.name == name and (span.attributes or {}).get("qgs.round.id") == round_id:
            return span
    return None


class TestSpansFromAWorker:
    """A decided round leaves its job spans, with the review and decision as evaluation events."""

    def test_a_reviewed_round(self, qgs: tuple[Client, Any], spans: InMemorySpanExporter) -> None:
        client, _ = qgs
        task = client.start_task("write an article about AI")
        agent = telemetry.tracer()
        with agent.start_as_current_span("agent step") as step:  # the agent's own span
            sub = client.submit(task.id, "# AI\n\nA long article about AI.", final=True)
        decision = client.wait(sub.id, timeout_s=30)
        assert "pass" == decision.kind
        round_id = client.repo.get_round_by_submission(sub.id).id
        intake = wait_for(
            lambda: next(
                (s for s in spans.get_finished_spans() if s.name == "qgs.review.intake"), None
            ),
            "intake span",
        )
        # The intake came on qgs.critic and reviewed the round itself: no critic job of its own.
        assert finished(spans, "qgs.review.critic", round_id) is None
        assert "qgs.critic" == intake.attributes["messaging.destination.name"]
        assert task.id == intake.attributes["qgs.task.id"]
        # A final round is audited too: the review in the intake, then discriminate and decide.
        decide = wait_for(lambda: finished(spans, "qgs.review.decide", round_id), "decide span")
        assert finished(spans, "qgs.review.discriminate", round_id) is not None
        assert (task.id, 1, "GENERATE") == tuple(
            decide.attributes[k] for k in ("qgs.task.id", "qgs.round.number", "qgs.task.type")
        )
        events = {
            e.attributes["gen_ai.evaluation.name"]: dict(e.attributes)
            for span in (intake, decide)
            for e in span.events
            if e.name == EVENT
        }
        assert ["qgs.decision"] == [
            e.attributes["gen_ai.evaluation.name"] for e in decide.events if e.name == EVENT
        ]
        review, verdict = events["qgs.review"], events["qgs.decision"]
        assert (92.0, "pass") == (
            review["gen_ai.evaluation.score.value"],
            review["gen_ai.evaluation.score.label"],
        )
        assert "pass" == verdict["gen_ai.evaluation.score.label"]
        assert verdict["gen_ai.evaluation.explanation"]
        # One trace from the agent's submit through every job of the round (traceparent header).
        discriminate = finished(spans, "qgs.review.discriminate", round_id)
        trace_id = step.get_span_context().trace_id
        assert [trace_id] * 3 == [s.context.trace_id for s in (intake, discriminate, decide)]
        assert step.get_span_context().span_id == intake.parent.span_id
        assert intake.context.span_id == discriminate.parent.span_id  # intake sent the chain
        critic = intake  # the judge's call is a child of the job that reviewed
        chat = next(
            s
            for s in spans.get_finished_spans()
            if s.parent is not None and s.parent.span_id == critic.context.span_id
        )
        assert "chat gpt-4o-mini" == chat.name
        assert "openai" == chat.attributes["gen_ai.provider.name"]
        assert chat.attributes["gen_ai.usage.input_tokens"] > 0  # the judge's reported usage
        assert chat.attributes["gen_ai.usage.output_tokens"] > 0


class TestMetricsFromAWorker:
    """``/metrics`` parses, and its counters move for a decided round and a tool-call check."""

    def test_counters_move(self, qgs: tuple[Client, Any]) -> None:
        client, app = qgs
        judge = "openai:gpt-4o-mini"
        before = metrics(app)
        task = client.start_task("write an article about AI")
        sub = client.submit(task.id, "An article about AI.", final=True)
        assert "pass" == client.wait(sub.id, timeout_s=30).kind
        call = {
            "id": "c1",
            "type": "function",
            "function": {"name": "send_message", "arguments": "{}"},
        }
        report = client.check_tool_call(call, principal="ops", tools=TOOLS)
        assert not report.allowed and report.stopped_layer is not None
        assert client.flush_tool_log(10)
        layer = report.stopped_layer.name
        after = wait_for(
            lambda: (
                m
                if value(
                    m := metrics(app), "qgs_tool_call_checks_total", layer=layer, allowed="false"
                )
                > value(before, "qgs_tool_call_checks_total", layer=layer, allowed="false")
                else None
            ),
            "the tool-call check to be counted",
        )
        decided = {"kind": "pass", "task_type": "GENERATE"}
        assert value(before, "qgs_decisions_total", **decided) + 1 == value(
            after, "qgs_decisions_total", **decided
        )
        assert value(
            before, "qgs_reviews_total", verdict="pass", task_type="GENERATE"
        ) + 1 == value(after, "qgs_reviews_total", verdict="pass", task_type="GENERATE")
        assert value(before, "qgs_judge_calls_total", judge=judge) + 1 == value(
            after, "qgs_judge_calls_total", judge=judge
        )
        assert value(before, "qgs_judge_latency_seconds_count", judge=judge) + 1 == value(
            after, "qgs_judge_latency_seconds_count", judge=judge
        )
        assert 1.0 == value(after, "qgs_broker_up")
        for queue in QUEUES:
            assert ("qgs_queue_depth", (("queue", queue),)) in after
            assert ("qgs_queue_oldest_age_seconds", (("queue", queue),)) in after

    def test_a_failing_judge_is_counted(
        self, qgs: tuple[Client, Any], fake_judge: FakeOpenAIServer
    ) -> None:
        client, app = qgs
        fake_judge.default = Answer.content("I think it is fine, PASS!")
        judge = "openai:gpt-4o-mini"
        before = metrics(app)
        task = client.start_task("deploy this service")
        sub = client.submit(task.id, "deployed", final=True)
        assert "revise" == client.wait(sub.id, timeout_s=30).kind  # fail closed
        after = metrics(app)
        assert value(before, "qgs_reviews_total", verdict="error", task_type="ACTION") + 1 == value(
            after, "qgs_reviews_total", verdict="error", task_type="ACTION"
        )
        assert value(
            before, "qgs_judge_failures_total", judge=judge, error="JudgeResponseError"
        ) + 1 == value(after, "qgs_judge_failures_total", judge=judge, error="JudgeResponseError")


class TestQueueFigures:
    """Depth and the oldest job's age are read from Redis, the age from the job's own header."""

    def test_a_waiting_job(self, redis_url: str, tmp_path: Path) -> None:
        settings = make_settings(redis_url, f"sqlite:///{tmp_path / 'q.db'}", None, tmp_path)
        app = create_celery_app(settings)  # a producer; no worker consumes this test's jobs
        r = redis.Redis.from_url(redis_url)
        r.delete(*QUEUES)
        try:
            published_at = time.time()
            app.send_task("qgs.review.critic", args=[987654])
            app.send_task("qgs.review.critic", args=[987655])
            (raw,) = r.lrange("qgs.critic", -1, -1)
            sent_at = json.loads(raw)["headers"][SENT_AT_HEADER]
            assert published_at - 1 <= sent_at <= time.time()
            families = {f.name: f for f in QueueCollector(redis_url, QUEUES).collect()}
            depth = {s.labels["queue"]: s.value for s in families["qgs_queue_depth"].samples}
            age = {
                s.labels["queue"]: s.value for s in families["qgs_queue_oldest_age_seconds"].samples
            }
            assert {"qgs.default": 0, "qgs.critic": 2, "qgs.discriminator": 0} == depth
            assert 0.0 == age["qgs.default"]
            assert age["qgs.critic"] >= 0.0
            assert [1.0] == [s.value for s in families["qgs_broker_up"].samples]
        finally:
            r.delete(*QUEUES)
            r.close()

    def test_a_broker_that_is_down(self) -> None:
        families = {f.name: f for f in QueueCollector("redis://127.0.0.1:9/0", QUEUES).collect()}
        assert ["qgs_broker_up"] == list(families)
        assert [0.0] == [s.value for s in families["qgs_broker_up"].samples]
