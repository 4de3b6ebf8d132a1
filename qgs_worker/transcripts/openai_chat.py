"""OpenAI chat messages -> the user's request and one round per assistant message.

The shape read is the Chat Completions message list::

    {"role": "system" | "developer", "content": ...}
    {"role": "user", "content": "text" | [{"type": "text", "text": ...}, ...]}
    {"role": "assistant", "content": ... | null,
     "tool_calls": [{"id", "type": "function", "function": {"name", "arguments": "<JSON string>"}}]}
    {"role": "tool", "tool_call_id", "content": ...}

plus the legacy ``function_call`` / ``role: "function"`` pair. Anthropic messages are first turned
into this shape by ``qgs_worker.transcripts.anthropic``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from qgs_worker.core.models import Deliverable, ToolCall, ToolResult
from qgs_worker.errors import InputError, json_type_name

__all__ = ["ChatRounds", "content_text", "read_chat", "rounds_from_messages"]

NO_REQUEST = "(no user request)"
"""The request of a transcript that has neither a user nor a system message with text."""

_TEXT_PARTS = {"text", "input_text", "output_text"}


class ChatRounds(NamedTuple):
    """A message list read into the task's request and its rounds.

    Attributes:
        request: The task's request: the first user message with text (else the first system
            message with text, else ``NO_REQUEST``).
        rounds: One deliverable per assistant message, oldest first.
        turns: One text per round, in the same order: the user turn that round answers, i.e. the
            latest user message with text before it (``request`` for a round that comes before
            any). The first round's turn is the request; a later user message starts a new turn.
    """

    request: str
    rounds: list[Deliverable]
    turns: list[str]


def rounds_from_messages(messages: Sequence[Any]) -> tuple[str, list[Deliverable]]:
    """The request and the rounds of a message list (``read_chat`` without the turns).

    Raises:
        InputError: as ``read_chat``.
    """
    request, rounds, _ = read_chat(messages)
    return request, rounds


def read_chat(messages: Sequence[Any]) -> ChatRounds:
    """Split a message list into the user's request, one round per assistant message, and turns.

    A round's ``tool_results`` are the tool messages that came after the previous assistant
    message and before this one; tool messages after the last assistant message belong to no
    round. A tool call's ``arguments`` string that is not a JSON object is kept in
    ``raw_arguments`` with ``arguments == {}``: the tool-call gate, not the reader, judges it.
    System and developer messages and tool messages never start a turn; a user message without
    text (an image alone) does not either.

    Args:
        messages: The messages, oldest first.

    Returns:
        The request, the rounds and each round's turn (see ``ChatRounds``).

    Raises:
        InputError: a message is not an object or has no role, ``tool_calls`` is not a list, or
            there is no assistant message at all.
    """
    request: str | None = None
    system: str | None = None
    turn: str | None = None  # the latest user message with text so far
    names: dict[str, str] = {}  # tool_call_id -> tool name, to name the results
    pending: list[ToolResult] = []
    rounds: list[Deliverable] = []
    turns: list[str | None] = []
    for number, message in enumerate(messages, start=1):
        if not isinstance(message, dict):
            raise InputError(
                f"message {number} is not an object (got {json_type_name(message)}): each message must be "
                'an object such as {"role": "user", "content": "..."}'
            )
        role = message.get("role")
        text = content_text(message.get("content"))
        if role in ("system", "developer"):
            system = system if system is not None else text
        elif role == "user":
            if text.strip():
                request = text if request is None else request
                turn = text
        elif role in ("tool", "function", "ipython"):  # ipython: Llama's tool output
            call_id = str(message.get("tool_call_id") or "")
            name = message.get("name")
            name = name if isinstance(name, str) else names.get(call_id, "")
            pending.append(ToolResult(tool_call_id=call_id, name=name, content=text))
        elif role == "assistant":
            refusal = message.get("refusal")
            if not text.strip() and isinstance(refusal, str):
                text = refusal  # a refusal is what the round said (OpenAI's `refusal` field)
            calls = _tool_calls(message, number)
            names.update((call.id, call.name) for call in calls if call.id)
            rounds.append(
                Deliverable(text=text, tool_calls=tuple(calls), tool_results=tuple(pending))
            )
            turns.append(turn)
            pending = []
        elif role is None:
            kind = message.get("type")
            typed = (
                f" and its 'type' {str(kind)[:40]!r} is not a LangChain message type QGS reads "
                "(human, ai, system, tool, chat, function)"
                if kind is not None
                else ""
            )
            raise InputError(
                f"message {number} has no 'role'{typed}: give each message a role "
                "(system, user, assistant or tool)"
            )
        else:  # dropped without a word, an assistant turn under another name went unjudged
            raise InputError(
                f"message {number} has role {str(role)[:40]!r}, which QGS does not read: use "
                "system, developer, user, assistant or tool (or function)"
            )
    if not rounds:
        raise InputError(
            "no assistant message: a transcript needs at least one message with role "
            "'assistant' (each one is a round to review)"
        )
    if request is None:
        request = system if system and system.strip() else NO_REQUEST
    return ChatRounds(request, rounds, [request if t is None else t for t in turns])


def content_text(content: Any) -> str:
    """The text of a message's ``content``.

    Args:
        content: A string, None, a list of parts (strings; objects with ``type`` ``text`` and a
            ``text`` field, or the Assistants API's ``{"text": {"value": ...}}``; ``refusal``
            parts; images and other parts are skipped), or any other JSON value.

    Returns:
        The text; text parts are joined with newlines; another JSON value is dumped as JSON.
    """
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts: list[str] = []
        for part in content:
            if isinstance(part, str):
                texts.append(part)
            elif isinstance(part, dict) and part.get("type", "text") in _TEXT_PARTS:
                value = part.get("text")
                if isinstance(value, dict):  # the Assistants API's {"text": {"value": ...}}
                    value = value.get("value")
                if isinstance(value, str):
                    texts.append(value)
            elif isinstance(part, dict) and part.get("type") == "refusal":
                value = part.get("refusal")
                if isinstance(value, str):
                    texts.append(value)
        return "\n".join(texts)
    return json.dumps(content, ensure_ascii=False, sort_keys=True)


def _tool_calls(message: dict[str, Any], number: int) -> list[ToolCall]:
    raw_calls = message.get("tool_calls")
    if raw_calls is None:
        raw_calls = []
    if not isinstance(raw_calls, list):
        raise InputError(
            f"message {number}: 'tool_calls' must be a list of calls (got {json_type_name(raw_calls)})"
        )
    legacy = message.get("function_call")
    if isinstance(legacy, dict):
        raw_calls = [*raw_calls, {"function": legacy}]
    calls: list[ToolCall] = []
    for index, raw in enumerate(raw_calls):
        if not isinstance(raw, dict):
            raise InputError(
                f"message {number}: tool call {index} is not an object (got {json_type_name(raw)}): "
                'expected {"id", "type": "function", "function": {"name", "arguments"}}'
            )
        function = raw.get("function")
        function = function if isinstance(function, dict) else raw
        name = function.get("name")
        if not isinstance(name, str) or not name.strip():
            # Break test: {"foo": "bar"} as a call passed unnoticed; a submission refuses it.
            where = "function.name" if function is not raw else "name"
            if "name" not in function:
                said = "missing"
            else:
                said = "empty" if isinstance(name, str) else json_type_name(name)
            raise InputError(
                f"message {number}: tool call {index} has no tool name ('{where}' is {said}): "
                'expected {"id", "type": "function", "function": {"name", "arguments"}}'
            )
        arguments, raw_arguments = _arguments(function.get("arguments"))
        calls.append(
            ToolCall(
                id=str(raw.get("id") or ""),
                name=name,
                arguments=arguments,
                raw_arguments=raw_arguments,
            )
        )
    return calls


def _arguments(value: Any) -> tuple[dict[str, Any], str | None]:
    """Parsed arguments and the raw string; ({}, raw) when the string is not a JSON object."""
    if value is None:
        return {}, None
    if isinstance(value, dict):
        return value, None
    if not isinstance(value, str):
        return {}, json.dumps(value, ensure_ascii=False)
    try:
        parsed = json.loads(value)
    except ValueError:
        return {}, value
    return (parsed, value) if isinstance(parsed, dict) else ({}, value)
