"""Telemetry through the in-process steps: spans, GenAI evaluation events, counters; off is off.

The real OpenTelemetry SDK records into an ``InMemorySpanExporter``; the steps are the review
service's, run inside the job spans the Celery jobs open (``telemetry.job_span``). The same
through a real worker is ``tests/integration/test_telemetry_worker.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from prometheus_client import REGISTRY

from qgs_worker import telemetry
from qgs_worker.client import Client
from qgs_worker.config.settings import Settings, WorkerSettings
from qgs_worker.core.models import CadencePolicy, Deliverable, GatePolicy, ToolCall
from qgs_worker.queue import pipeline
from qgs_worker.service.submission import NewTask, Submission
from qgs_worker.store import Repository
from qgs_worker.telemetry._observer import TelemetryObserver
from tests.unit.test_pipeline_steps import BrokenJudge, ScriptedJudge

POLICIES = pipeline.Policies(gate=GatePolicy(), cadence=CadencePolicy())
EVENT = "gen_ai.evaluation.result"


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    """QGS's spans recorded by the real SDK into memory (and the switch reset afterwards)."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    telemetry.use_tracer_provider(provider)
    yield exporter
    telemetry.reset()
    provider.shutdown()


def sub(sid: str, text: str, *, final: bool = True, calls: tuple[ToolCall, ...] = ()) -> Submission:
    return Submission(
        submission_id=sid,
        task_id="t-otel",
        final=final,
        deliverable=Deliverable(text=text, tool_calls=calls),
        task=NewTask(request="write an article about AI"),
    )


def request(queue: str) -> Any:
    return SimpleNamespace(id="msg-1", delivery_info={"routing_key": queue})


def evaluations(span: Any, name: str | None = None) -> list[dict[str, Any]]:
    """The attributes of a span's evaluation events (those named ``name``, when given)."""
    found = [dict(e.attributes) for e in span.events if e.name == EVENT]
    return [a for a in found if name is None or a["gen_ai.evaluation.name"] == name]


def sample(name: str, labels: dict[str, str]) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


class TestAReviewedRound:
    """Intake then critic-and-decide: two job spans, the review and the decision as events."""

    def test_spans_events_and_counters(self, spans: InMemorySpanExporter) -> None:
        repo = Repository("sqlite://")
        service = pipeline.service_for(
            repo,
            POLICIES,
            judge=ScriptedJudge(),
            observer=TelemetryObserver(tracing=True, metrics=True),
        )
        passed = {"kind": "pass", "task_type": "GENERATE"}
        before = sample("qgs_decisions_total", passed)
        calls_before = sample("qgs_judge_calls_total", {"judge": "scripted"})
        message = sub("s1", "score=92").model_dump(mode="json")
        with telemetry.job_span("qgs.review.intake", request("qgs.default"), (message,)):
            ready = service.intake(sub("s1", "score=92"))
        assert ready is not None
        with telemetry.job_span("qgs.review.critic", request("qgs.critic"), (ready.round_id,)):
            service.review(ready.round_id, then_decide=True)

        by_name = {s.name: s for s in spans.get_finished_spans()}
        assert {"qgs.review.intake", "qgs.review.critic", "qgs.judge.review"} <= set(by_name)
        intake, critic, chat = (
            by_name["qgs.review.intake"],
            by_name["qgs.review.critic"],
            by_name["qgs.judge.review"],
        )
        assert "t-otel" == intake.attributes["qgs.task.id"]
        assert "s1" == intake.attributes["qgs.submission.id"]
        assert "qgs.default" == intake.attributes["messaging.destination.name"]
        for key, value in {
            "qgs.task.id": "t-otel",
            "qgs.round.number": 1,
            "qgs.task.type": "GENERATE",
            "qgs.round.id": ready.round_id,
        }.items():
            assert value == critic.attributes[key], key
        review = evaluations(critic, "qgs.review")
        assert 1 == len(review)
        assert 92.0 == review[0]["gen_ai.evaluation.score.value"]
        assert "pass" == review[0]["gen_ai.evaluation.score.label"]
        assert 1 == review[0]["qgs.round.number"]
        dimensions = [
            a for a in evaluations(critic) if a["gen_ai.evaluation.name"].startswith("qgs.review.")
        ]
        assert {"qgs.review.completeness", "qgs.review.correctness"} <= {
            a["gen_ai.evaluation.name"] for a in dimensions
        }
        (decision,) = evaluations(critic, "qgs.decision")
        assert "pass" == decision["gen_ai.evaluation.score.label"]
        assert 92.0 == decision["gen_ai.evaluation.score.value"]
        assert decision["gen_ai.evaluation.explanation"]
        # The judge call is a span inside the critic's (a model's judge: ``chat {model}``,
        # tests/integration/test_telemetry_worker.py).
        assert critic.context.span_id == chat.parent.span_id
        assert "scripted" == chat.attributes["qgs.judge"]
        assert before + 1 == sample("qgs_decisions_total", passed)
        assert calls_before + 1 == sample("qgs_judge_calls_total", {"judge": "scripted"})

    def test_a_redelivered_review_tells_nothing_twice(self, spans: InMemorySpanExporter) -> None:
        repo = Repository("sqlite://")
        service = pipeline.service_for(
            repo,
            POLICIES,
            judge=ScriptedJudge(),
            observer=TelemetryObserver(tracing=True, metrics=False),
        )
        ready = service.intake(sub("s1", "score=92"))
        assert ready is not None
        for _ in range(2):
            with telemetry.job_span("qgs.review.critic", request("qgs.critic"), (ready.round_id,)):
                service.review(ready.round_id, then_decide=True)
        first, second = [s for s in spans.get_finished_spans() if s.name == "qgs.review.critic"]
        assert 1 == len(evaluations(first, "qgs.decision"))
        assert [] == evaluations(second)
        assert 1 == second.attributes["qgs.round.number"]  # the span still names its round

    def test_a_review_stored_earlier_is_not_told_again(self, spans: InMemorySpanExporter) -> None:
        """A copy that decides on a review an earlier copy stored tells only the decision."""
        repo = Repository("sqlite://")
        service = pipeline.service_for(
            repo,
            POLICIES,
            judge=ScriptedJudge(),
            observer=TelemetryObserver(tracing=True, metrics=False),
        )
        ready = service.intake(sub("s1", "score=92"))
        assert ready is not None
        with telemetry.job_span("qgs.review.critic", request("qgs.critic"), (ready.round_id,)):
            service.review(ready.round_id)  # reviewed, not decided
        with telemetry.job_span("qgs.review.critic", request("qgs.critic"), (ready.round_id,)):
            service.review(ready.round_id, then_decide=True)
        first, second = [s for s in spans.get_finished_spans() if s.name == "qgs.review.critic"]
        assert ["qgs.review"] == [a["gen_ai.evaluation.name"] for a in evaluations(first)][:1]
        assert ["qgs.decision"] == [a["gen_ai.evaluation.name"] for a in evaluations(second)]
        assert 92.0 == evaluations(second, "qgs.decision")[0]["gen_ai.evaluation.score.value"]


class TestFindingsAndFailures:
    """Detector findings at intake, a failed judge, a failed round: each an event, counted."""

    def test_detector_findings_are_events_and_counted(self, spans: InMemorySpanExporter) -> None:
        repo = Repository("sqlite://")
        service = pipeline.service_for(
            repo,
            POLICIES,
            judge=ScriptedJudge(),
            observer=TelemetryObserver(tracing=True, metrics=True),
        )
        rm = ToolCall(id="c1", name="shell", arguments={"command": "rm -rf /"})
        p0 = {"severity": "P0", "role": pipeline.DETECTOR_ROLE}
        before = sample("qgs_findings_total", p0)
        with telemetry.job_span("qgs.review.intake", request("qgs.default"), ({},)):
            service.intake(sub("s1", "cleaned up, score=90", calls=(rm,)))
        (intake,) = spans.get_finished_spans()
        findings = evaluations(intake, "qgs.finding")
        assert any(
            f["gen_ai.evaluation.score.label"] == "P0"
            and f["gen_ai.evaluation.score.value"] == 100.0
            and f["qgs.task.type"] == "CRITICAL"  # the deed escalated the task
            for f in findings
        ), findings
        assert all("evidence" not in key for f in findings for key in f)
        assert "CRITICAL" == intake.attributes["qgs.task.type"]
        assert sample("qgs_findings_total", p0) > before

    def test_a_judge_failure_and_a_failed_round(self, spans: InMemorySpanExporter) -> None:
        repo = Repository("sqlite://")
        service = pipeline.service_for(
            repo,
            POLICIES,
            judge=BrokenJudge(),
            observer=TelemetryObserver(tracing=True, metrics=True),
        )
        failures_before = sample(
            "qgs_judge_failures_total", {"judge": "broken", "error": "JudgeResponseError"}
        )
        ready = service.intake(sub("s1", "the final text"))
        assert ready is not None
        with telemetry.job_span("qgs.review.critic", request("qgs.critic"), (ready.round_id,)):
            service.review(ready.round_id)
        with telemetry.job_span("qgs.review.decide", request("qgs.default"), (ready.round_id,)):
            service.decide(ready.round_id)
        other = service.intake(sub("s2", "the final text, again"))
        assert other is not None
        with telemetry.job_span("qgs.review.decide", request("qgs.default"), (other.round_id,)):
            service.fail(other.round_id, "worker lost")
        critic, decide, failed = spans.get_finished_spans()[-3:]
        (review,) = evaluations(critic, "qgs.review")
        assert "error" == review["gen_ai.evaluation.score.label"]
        assert "judge_failed" == review["error.type"]
        assert "not JSON" in review["gen_ai.evaluation.explanation"]
        assert "revise" == evaluations(decide, "qgs.decision")[0]["gen_ai.evaluation.score.label"]
        assert (
            "worker lost" in evaluations(failed, "qgs.decision")[0]["gen_ai.evaluation.explanation"]
        )
        assert 2 == failed.attributes["qgs.round.number"]
        assert failures_before + 1 == sample(
            "qgs_judge_failures_total", {"judge": "broken", "error": "JudgeResponseError"}
        )


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


class TestToolCheck:
    """A tool-call check is a span with its evaluation event; the arguments are not exported."""

    def test_a_rejected_call(self, spans: InMemorySpanExporter, tmp_path: Path) -> None:
        client = Client(Settings(data_dir=tmp_path))
        arguments = '{"body": "the secret plan"}'
        call = {
            "id": "c9",
            "type": "function",
            "function": {"name": "send_message", "arguments": arguments},
        }
        report = client.check_tool_call(call, principal="ops", agent="bot", tools=TOOLS, log=False)
        assert not report.allowed
        (span,) = spans.get_finished_spans()
        assert "bot" == span.attributes["gen_ai.agent.name"]
        assert all("secret plan" not in str(v) for v in span.attributes.values())
        assert "qgs.toolgate.check" == span.name
        assert "send_message" == span.attributes["gen_ai.tool.name"]
        assert "c9" == span.attributes["gen_ai.tool.call.id"]
        assert span.attributes["qgs.toolgate.allowed"] is False
        assert report.stopped_layer is not None
        assert report.stopped_layer.name == span.attributes["qgs.toolgate.stopped_layer"]
        (event,) = evaluations(span)
        assert "qgs.toolgate" == event["gen_ai.evaluation.name"]
        assert "rejected" == event["gen_ai.evaluation.score.label"]
        assert span.end_time >= span.start_time


class TestOff:
    """Without the OTel variables nothing is recorded; OTEL_SDK_DISABLED wins over an endpoint."""

    @pytest.fixture(autouse=True)
    def _clean(self, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
        for name in ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                     "OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER", "PROMETHEUS_MULTIPROC_DIR"):  # fmt: skip
            monkeypatch.delenv(name, raising=False)
        telemetry.reset()
        yield
        telemetry.reset()

    def test_off_by_default(self) -> None:
        assert telemetry.tracer() is None
        with telemetry.job_span("qgs.review.decide", request("qgs.default"), (1,)) as span:
            assert span is None
        assert telemetry.observer_for(Settings(worker=WorkerSettings())) is None

    def test_metrics_alone(self) -> None:
        observer = telemetry.observer_for(Settings(worker=WorkerSettings(metrics_port=0)))
        assert observer is not None and observer.metrics and not observer.tracing

    @pytest.mark.parametrize(
        ("env", "on"),
        [
            ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, True),
            ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, True),
            ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SDK_DISABLED": "true"}, False),
            ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://x:4318", "OTEL_TRACES_EXPORTER": "none"}, False),
            ({"OTEL_SERVICE_NAME": "qgs-worker"}, False),
        ],
    )  # fmt: skip
    def test_the_standard_variables(self, env: dict[str, str], on: bool) -> None:
        assert on == telemetry.tracing_wanted(env)

    def test_an_endpoint_builds_an_otlp_provider(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        from qgs_worker.telemetry import _tracing

        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9")
        monkeypatch.setenv("OTEL_SERVICE_NAME", "qgs-critic")
        provider = _tracing.provider_from_env()
        try:
            assert "qgs-critic" == provider.resource.attributes["service.name"]
            processor = provider._active_span_processor._span_processors[0]
            assert isinstance(processor.span_exporter, OTLPSpanExporter)
        finally:
            provider.shutdown()
        monkeypatch.delenv("OTEL_SERVICE_NAME")
        provider = _tracing.provider_from_env()
        try:
            assert "qgs" == provider.resource.attributes["service.name"]
        finally:
            provider.shutdown()


HOST_TRACES_ITSELF = """
import json, sys
from pathlib import Path
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from qgs_worker.client import Client
from qgs_worker.config.settings import Settings

exporter = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(exporter))
trace.set_tracer_provider(provider)  # the agent's own tracing, set up before QGS is used
tools = json.loads(sys.argv[1])
call = {"id": "c1", "type": "function", "function": {"name": "send_message", "arguments": '{"to": "ops"}'}}
with trace.get_tracer("agent").start_as_current_span("agent step") as step:
    Client(Settings(data_dir=Path(sys.argv[2]))).check_tool_call(call, tools=tools, log=False)
spans = {s.name: s for s in exporter.get_finished_spans()}
check = spans["qgs.toolgate.check"]
print(json.dumps([sorted(spans), check.parent.span_id == step.get_span_context().span_id]))
"""


def test_an_agent_that_traces_itself_gets_the_check_in_its_trace(tmp_path: Path) -> None:
    """No OTel variable: the process's own SDK provider is used, the check a child of its span."""
    import json
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "QGS_"))}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    done = subprocess.run(
        [sys.executable, "-c", HOST_TRACES_ITSELF, json.dumps(TOOLS), str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    )
    names, child = json.loads(done.stdout.strip().splitlines()[-1])
    assert ["agent step", "qgs.toolgate.check"] == names
    assert child is True


class TestNothingOfTheAgentsTextIsExported:
    """The break test's finding: the rules judge's dimension reason quoted a tool call's
    arguments (a password, a card number) into ``gen_ai.evaluation.explanation``."""

    def test_tool_arguments_and_secrets_stay_out_of_the_events(
        self, spans: InMemorySpanExporter
    ) -> None:
        from qgs_worker.judges import make_judge

        secret, card = "Hunter2-SECRETVALUE", "4000 0566 5566 5556"
        mail = ToolCall(
            id="c1",
            name="send_email",
            arguments={"to": "x@example.org", "body": f"my password is {secret} and card {card}"},
        )
        repo = Repository("sqlite://")
        service = pipeline.service_for(
            repo,
            POLICIES,
            judge=make_judge("rules"),
            observer=TelemetryObserver(tracing=True, metrics=False),
        )
        submission = sub("s-secret", "Done: sent the mail.", calls=(mail,))
        with telemetry.job_span("qgs.review.intake", request("qgs.critic"), ()):
            ready = service.intake(submission)
            assert ready is not None
            service.review(ready.round_id, then_decide=True)
        exported = [
            str(value)
            for span in spans.get_finished_spans()
            for event in span.events
            for value in (event.attributes or {}).values()
        ] + [
            str(v) for span in spans.get_finished_spans() for v in (span.attributes or {}).values()
        ]
        assert exported  # the round's spans and events were exported
        for leaked in (secret, "Hunter2", card, "5556", "my password"):
            assert not [v for v in exported if leaked in v], leaked
