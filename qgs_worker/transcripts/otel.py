"""OpenTelemetry GenAI traces (OTLP/JSON) -> one transcript per trace.

A file holds OTLP/JSON export requests, one JSON document or one per line (the Collector's file
exporter)::

    {"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId", "spanId", "name",
        "startTimeUnixNano", "attributes": [{"key", "value": {"stringValue" | ...}}],
        "events": [{"name", "attributes"}]}]}]}]}
    {"resourceLogs": [{"scopeLogs": [{"logRecords": [{"traceId", "spanId", "eventName",
        "body": {"kvlistValue": ...}}]}]}]}

Each chat span (``gen_ai.operation.name`` chat, or any span with GenAI messages) is one model
call; its messages come from either convention:

- the newer attributes ``gen_ai.input.messages`` / ``gen_ai.output.messages`` (JSON strings:
  ``[{"role", "parts": [{"type": "text", "content"} | {"type": "tool_call", "id", "name",
  "arguments"} | {"type": "tool_call_response", "id", "response"}]}]``) and
  ``gen_ai.system_instructions``;
- the older events ``gen_ai.system.message``, ``gen_ai.user.message``,
  ``gen_ai.assistant.message``, ``gen_ai.tool.message`` and ``gen_ai.choice``, as log records
  tied to the span (what the OpenAI instrumentation emits) or as span events.

A trace's calls, oldest first, are merged into one conversation (each call re-sends the history:
only what is new is kept, then its output), which ``read_chat`` turns into rounds.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qgs_worker.errors import InputError, json_type_name
from qgs_worker.transcripts.openai_chat import content_text
from qgs_worker.transcripts.records import (
    TranscriptError,
    TranscriptTask,
    chat_task,
    iter_json_lines,
)

__all__ = ["read_otel_file"]

_EVENT_ROLES = {
    "gen_ai.system.message": "system",
    "gen_ai.user.message": "user",
    "gen_ai.assistant.message": "assistant",
    "gen_ai.tool.message": "tool",
}


@dataclass
class _Span:
    trace_id: str
    span_id: str
    start_ns: int
    line: int
    attributes: dict[str, Any]
    events: list[tuple[str, Any]] = field(default_factory=list)  # (name, body), in order


def read_otel_file(path: Path) -> Iterator[TranscriptTask | TranscriptError]:
    """Read the GenAI traces of an OTLP/JSON file (a document, or one request per line).

    Returns:
        One task per trace with GenAI messages (``transcript_id`` the trace id, ``line`` the line
        of its first span), in order of first appearance; a ``TranscriptError`` for a bad line,
        a trace whose messages cannot be read, or a file without GenAI traces.
    """
    source = str(path)
    spans: dict[tuple[str, str], _Span] = {}
    logs: list[tuple[str, str, str, Any]] = []
    found_any = False
    for item in _documents(path):
        if isinstance(item, TranscriptError):
            found_any = True
            yield item
            continue
        number, document = item
        try:
            _collect(document, number, spans, logs)
        except InputError as exc:
            found_any = True
            yield TranscriptError(source_file=source, line=number, message=f"line {number}: {exc}")
    for trace_id, span_id, name, body in logs:
        span = spans.get((trace_id, span_id))
        if span is not None:
            span.events.append((name, body))
    traces: dict[str, list[_Span]] = {}
    for span in spans.values():
        traces.setdefault(span.trace_id, []).append(span)
    for trace_id, members in traces.items():
        calls = sorted((s for s in members if _is_genai(s)), key=lambda s: s.start_ns)
        if not calls:
            continue  # an HTTP or database trace next to the agent's: not a transcript
        found_any = True
        yield _trace_task(trace_id, calls, source)
    if not found_any:
        yield TranscriptError(
            source_file=source,
            line=1,
            message="no GenAI spans (no gen_ai.* attributes or events): export the traces with "
            "an OpenTelemetry GenAI instrumentation, content capture on",
        )


def _documents(path: Path) -> Iterator[tuple[int, Any] | TranscriptError]:
    try:
        document = json.loads(path.read_text(encoding="utf-8-sig"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        # Not one JSON document: one per line (the OTLP file exporter's form), or a broken
        # file, whose lines then say where it broke.
        yield from iter_json_lines(path)
        return
    yield 1, document


def _collect(
    document: Any,
    line: int,
    spans: dict[tuple[str, str], _Span],
    logs: list[tuple[str, str, str, Any]],
) -> None:
    if not isinstance(document, dict):
        raise InputError(f"an OTLP/JSON request must be an object (got {json_type_name(document)})")
    if "resourceSpans" not in document and "resourceLogs" not in document:
        # Another format's record in an OTLP file (a chat transcript, a session line) was
        # skipped without a word (break test): one format a file.
        keys = ", ".join(sorted(map(str, document))[:5]) or "none"
        raise InputError(
            f"not an OTLP/JSON request (no resourceSpans or resourceLogs; its keys: {keys}): "
            "keep one format per file, or pass --input-format for the file's own format"
        )
    for resource in _list(document, "resourceSpans"):
        for scope in _list(resource, "scopeSpans"):
            for raw in _list(scope, "spans"):
                span = _Span(
                    trace_id=str(raw.get("traceId") or ""),
                    span_id=str(raw.get("spanId") or ""),
                    start_ns=_int(raw.get("startTimeUnixNano")),
                    line=line,
                    attributes=_attributes(raw.get("attributes")),
                )
                for event in raw.get("events") or []:
                    if isinstance(event, dict) and isinstance(event.get("name"), str):
                        span.events.append((event["name"], _attributes(event.get("attributes"))))
                spans[(span.trace_id, span.span_id)] = span
    for resource in _list(document, "resourceLogs"):
        for scope in _list(resource, "scopeLogs"):
            for record in _list(scope, "logRecords"):
                attributes = _attributes(record.get("attributes"))
                name = record.get("eventName") or attributes.get("event.name")
                if isinstance(name, str) and name.startswith("gen_ai."):
                    body = _value(record.get("body"))
                    logs.append(
                        (
                            str(record.get("traceId") or ""),
                            str(record.get("spanId") or ""),
                            name,
                            body,
                        )
                    )


def _list(parent: Any, key: str) -> list[dict[str, Any]]:
    value = parent.get(key) if isinstance(parent, dict) else None
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise InputError(f"'{key}' must be a list of objects (got {json_type_name(value)})")
    return value


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _attributes(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, list):
        return {}
    return {
        a["key"]: _value(a.get("value"))
        for a in raw
        if isinstance(a, dict) and isinstance(a.get("key"), str)
    }


def _value(raw: Any) -> Any:
    """An OTLP AnyValue as plain JSON (intValue arrives as a string in OTLP/JSON)."""
    if not isinstance(raw, dict):
        return raw
    if "stringValue" in raw:
        return raw["stringValue"]
    if "intValue" in raw:
        return _int(raw["intValue"])
    for key in ("boolValue", "doubleValue", "bytesValue"):
        if key in raw:
            return raw[key]
    if "arrayValue" in raw:
        return [_value(v) for v in (raw["arrayValue"] or {}).get("values", [])]
    if "kvlistValue" in raw:
        return _attributes((raw["kvlistValue"] or {}).get("values", []))
    return None


def _is_genai(span: _Span) -> bool:
    return (
        any(k.endswith("messages") and k.startswith("gen_ai.") for k in span.attributes)
        or any(name in _EVENT_ROLES or name == "gen_ai.choice" for name, _ in span.events)
        or span.attributes.get("gen_ai.operation.name") == "chat"
    )


def _trace_task(trace_id: str, calls: list[_Span], source: str) -> TranscriptTask | TranscriptError:
    where = f"trace {trace_id}: "
    line = min(s.line for s in calls)
    conversation: list[dict[str, Any]] = []
    model: str | None = None
    try:
        for span in calls:
            inputs, outputs = _span_messages(span)
            shared = 0
            while shared < min(len(conversation), len(inputs)) and _same(
                conversation[shared], inputs[shared]
            ):
                shared += 1
            conversation.extend(inputs[shared:])  # the history re-sent is kept once
            conversation.extend(outputs)
            named = span.attributes.get("gen_ai.request.model") or span.attributes.get(
                "gen_ai.response.model"
            )
            model = model or (named if isinstance(named, str) else None)
    except InputError as exc:
        return TranscriptError(source_file=source, line=line, message=f"{where}{exc}")
    if not conversation:
        return TranscriptError(
            source_file=source,
            line=line,
            message=f"{where}its chat spans carry no messages: the instrumentation captured no "
            "content (set OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, or span_only "
            "with the latest conventions)",
        )
    return chat_task(
        conversation,
        key_record={"trace": trace_id, "messages": conversation},
        source=source,
        line=line,
        where=where,
        transcript_id=trace_id or None,
        agent_model=model,
    )


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two chat messages are the same turn re-sent (role, text and tool call ids)."""

    def ids(m: dict[str, Any]) -> list[str]:
        return [str(c.get("id")) for c in m.get("tool_calls") or [] if isinstance(c, dict)]

    return (
        a.get("role") == b.get("role")
        and content_text(a.get("content")) == content_text(b.get("content"))
        and ids(a) == ids(b)
        and a.get("tool_call_id") == b.get("tool_call_id")
    )


def _span_messages(span: _Span) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(input messages, output messages) of one chat span, as OpenAI chat messages."""
    attrs = span.attributes
    if "gen_ai.input.messages" in attrs or "gen_ai.output.messages" in attrs:
        inputs = []
        system = attrs.get("gen_ai.system_instructions")
        if system is not None:
            parts = _json_attribute(system, "gen_ai.system_instructions")
            inputs.append({"role": "system", "content": _parts_text(parts)})
        for sent in _json_attribute(
            attrs.get("gen_ai.input.messages", "[]"), "gen_ai.input.messages"
        ):
            inputs.extend(_from_parts(sent, "gen_ai.input.messages"))
        outputs = []
        for answered in _json_attribute(
            attrs.get("gen_ai.output.messages", "[]"), "gen_ai.output.messages"
        ):
            outputs.extend(_from_parts(answered, "gen_ai.output.messages"))
        return inputs, outputs
    inputs, outputs = [], []
    for name, body in span.events:
        body = body if isinstance(body, dict) else {}
        if name in _EVENT_ROLES:
            role = _EVENT_ROLES[name]
            message: dict[str, Any] = {"role": role, "content": body.get("content")}
            if role == "assistant":
                message["tool_calls"] = body.get("tool_calls") or []
            if role == "tool":
                message["tool_call_id"] = str(body.get("id") or "")
            inputs.append(message)
        elif name == "gen_ai.choice":
            chosen = body.get("message")
            if isinstance(chosen, str):  # some exporters flatten the event's map to JSON text
                try:
                    chosen = json.loads(chosen)
                except json.JSONDecodeError:
                    chosen = {"content": chosen}  # the answer's text itself
            chosen = chosen if isinstance(chosen, dict) else {}
            outputs.append(
                {
                    "role": "assistant",
                    "content": chosen.get("content"),
                    "tool_calls": chosen.get("tool_calls") or [],
                }
            )
    return inputs, outputs


def _json_attribute(value: Any, key: str) -> list[Any]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"'{key}' is not valid JSON ({exc.msg} at column {exc.colno})"
            ) from None
    if not isinstance(value, list):
        raise InputError(f"'{key}' must be a list of messages (got {json_type_name(value)})")
    return value


def _parts_text(parts: Any) -> str:
    if not isinstance(parts, list):
        return content_text(parts)
    return "\n".join(
        p["content"]
        for p in parts
        if isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("content"), str)
    )


def _from_parts(message: Any, key: str) -> list[dict[str, Any]]:
    """One message of the newer conventions as OpenAI messages (a tool message per response)."""
    if not isinstance(message, dict) or not isinstance(message.get("parts", []), list):
        raise InputError(
            f"'{key}': each message must be an object with a 'parts' list "
            f"(got {json_type_name(message)})"
        )
    role = message.get("role")
    parts = [p for p in message.get("parts", []) if isinstance(p, dict)]
    responses = [p for p in parts if p.get("type") == "tool_call_response"]
    if responses:
        return [
            {
                "role": "tool",
                "tool_call_id": str(p.get("id") or ""),
                "content": content_text(p.get("response")),
            }
            for p in responses
        ]
    calls = [
        {
            "id": str(p.get("id") or ""),
            "type": "function",
            "function": {"name": p.get("name"), "arguments": p.get("arguments")},
        }
        for p in parts
        if p.get("type") == "tool_call"
    ]
    converted: dict[str, Any] = {"role": role, "content": _parts_text(parts)}
    if calls:
        converted["tool_calls"] = calls
    return [converted]
