"""Write OTLP/JSON GenAI traces made by the official OpenAI instrumentation.

``python otel_openai.py OUT.jsonl latest|legacy``: the ``openai`` client, instrumented by
``opentelemetry-instrumentation-openai-v2`` with content capture on, talks to the loopback
chat-completions server of ``tests/fake_openai.py``. Two agent runs, each a trace: a tool call
then an answer; and a single answer. ``latest`` opts into the newest GenAI conventions
(``gen_ai.input.messages``/``gen_ai.output.messages`` span attributes); ``legacy`` keeps the
v1.30 ones (``gen_ai.*.message`` and ``gen_ai.choice`` events as log records). The SDK's spans
and logs go through the OTLP exporters' own protobuf encoders and protobuf's JSON mapping, ids
as hex as OTLP/JSON requires, one export request a line (as the Collector's file exporter
writes). A plain span with no GenAI content rides along. No network beyond loopback.
"""

from __future__ import annotations

import base64
import json
import os
import sys
from typing import Any

MODE = sys.argv[2] if len(sys.argv) > 2 else "latest"
if MODE == "latest":
    os.environ["OTEL_SEMCONV_STABILITY_OPT_IN"] = "gen_ai_latest_experimental"
    os.environ["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = "span_only"
else:
    os.environ["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = "true"

from google.protobuf.json_format import MessageToDict  # noqa: E402
from openai import OpenAI  # noqa: E402
from opentelemetry.exporter.otlp.proto.common._log_encoder import encode_logs  # noqa: E402
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans  # noqa: E402
from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor  # noqa: E402
from opentelemetry.sdk._logs import LoggerProvider  # noqa: E402
from opentelemetry.sdk._logs.export import (  # noqa: E402
    InMemoryLogRecordExporter,
    SimpleLogRecordProcessor,
)
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (  # noqa: E402
    InMemorySpanExporter,
)

from tests.fake_openai import Answer, FakeOpenAIServer  # noqa: E402

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "bash",
            "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}},
        },
    }
]


def hex_ids(value: Any) -> Any:
    """Protobuf's JSON mapping writes bytes as base64; OTLP/JSON wants trace and span ids in hex."""
    if isinstance(value, dict):
        return {
            k: base64.b64decode(v).hex()
            if k in ("traceId", "spanId", "parentSpanId") and isinstance(v, str)
            else hex_ids(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [hex_ids(v) for v in value]
    return value


def main(out: str) -> None:
    spans, logs = InMemorySpanExporter(), InMemoryLogRecordExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(spans))
    logger_provider = LoggerProvider()
    logger_provider.add_log_record_processor(SimpleLogRecordProcessor(logs))
    OpenAIInstrumentor().instrument(
        tracer_provider=tracer_provider, logger_provider=logger_provider
    )
    tracer = tracer_provider.get_tracer("agent")
    with FakeOpenAIServer() as server:
        server.script(
            Answer.tool_call("bash", {"cmd": "rm -rf /tmp/build"}),
            Answer.content("Removed /tmp/build."),
            Answer.content("It is 18C in Paris."),
        )
        client = OpenAI(base_url=server.base_url, api_key="test", max_retries=0)
        with tracer.start_as_current_span("invoke_agent cleaner"):
            messages: list[Any] = [
                {"role": "system", "content": "You are a build agent."},
                {"role": "user", "content": "Clean /tmp/build"},
            ]
            reply = client.chat.completions.create(
                model="gpt-4o-mini", messages=messages, tools=TOOLS
            )
            message = reply.choices[0].message
            messages.append(message.model_dump(exclude_none=True))
            assert message.tool_calls
            messages.append(
                {"role": "tool", "tool_call_id": message.tool_calls[0].id, "content": "removed"}
            )
            client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
        with tracer.start_as_current_span("invoke_agent weather"):
            client.chat.completions.create(
                model="gpt-4o-mini", messages=[{"role": "user", "content": "Weather in Paris?"}]
            )
        with tracer.start_as_current_span("GET /health"):
            pass  # a span with no GenAI content, which the reader must skip
    with open(out, "w", encoding="utf-8") as stream:
        stream.write(
            json.dumps(hex_ids(MessageToDict(encode_spans(spans.get_finished_spans())))) + "\n"
        )
        if logs.get_finished_logs():
            stream.write(
                json.dumps(hex_ids(MessageToDict(encode_logs(logs.get_finished_logs())))) + "\n"
            )


if __name__ == "__main__":
    main(sys.argv[1])
