"""LangChain / LangGraph message lists (dict form) -> OpenAI chat messages.

The shapes read, each a message of a list (alone, in ``{"messages": [...]}`` as a LangGraph
state, or in a checkpoint's ``{"values": {"messages": [...]}}``)::

    {"type": "human" | "ai" | "system" | "tool" | "chat" | "function", "data": {...}}
        ``langchain_core.messages.messages_to_dict`` (``data`` holds the message's fields)
    {"type": "human", "content": ..., ...}          ``message.model_dump()``
    {"lc": 1, "type": "constructor", "id": [..., "AIMessage"], "kwargs": {...}}   ``dumpd``
    {"role": "human" | "ai", "content": ...}        LangGraph's role-named input form

An ``ai`` message's ``tool_calls`` are ``{"name", "args": {...}, "id"}``; its
``invalid_tool_calls`` (arguments that were not JSON) keep ``args`` as the raw string, which the
tool-call gate, not the reader, judges. A ``tool`` message with ``status: "error"`` is marked
``[tool error]`` as Anthropic's ``is_error`` is. Reasoning blocks are dropped (the judge never
sees the agent's reasoning).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from qgs_worker.errors import InputError, json_type_name
from qgs_worker.transcripts.openai_chat import content_text

__all__ = ["is_langchain", "to_openai_messages"]

_ROLES = {
    "human": "user",
    "HumanMessage": "user",
    "HumanMessageChunk": "user",
    "ai": "assistant",
    "AIMessage": "assistant",
    "AIMessageChunk": "assistant",
    "system": "system",
    "SystemMessage": "system",
    "tool": "tool",
    "ToolMessage": "tool",
    "function": "function",
    "FunctionMessage": "function",
    "chat": "chat",
    "ChatMessage": "chat",
}
"""LangChain message type (or class name) -> OpenAI role (``chat`` takes the message's role)."""

_SKIPPED = {"remove", "RemoveMessage"}  # LangGraph's deletion marker: not a message


def is_langchain(messages: Sequence[Any]) -> bool:
    """Whether a message list is in a LangChain dict form (any message is enough).

    OpenAI and Anthropic messages carry ``role`` with ``user``/``assistant``; LangChain's carry
    ``type`` (``human``, ``ai``...) or ``role`` ``human``/``ai``.
    """
    return any(_langchain_fields(m) is not None for m in messages)


def to_openai_messages(messages: Sequence[Any]) -> list[Any]:
    """Rewrite LangChain dict-form messages as OpenAI chat messages.

    Args:
        messages: The messages, oldest first; any that is not in a LangChain form passes
            through unchanged (mixed lists occur when a state was edited by hand).

    Returns:
        A new list of OpenAI chat messages.

    Raises:
        InputError: a LangChain message's ``data``/``kwargs`` is not an object, or its
            ``tool_calls`` is not a list of objects.
    """
    converted: list[Any] = []
    for number, message in enumerate(messages, start=1):
        fields = _langchain_fields(message)
        if fields is None:
            converted.append(message)
            continue
        kind, data = fields
        if kind in _SKIPPED:
            continue
        if not isinstance(data, dict):
            raise InputError(
                f"message {number}: a LangChain message's 'data' must be an object of its fields "
                f"(got {json_type_name(data)})"
            )
        role = _ROLES[kind]
        if role == "chat":
            named = data.get("role")
            role = named if isinstance(named, str) else "user"
        if role == "assistant":
            converted.append(_assistant(data, number))
        elif role == "tool":
            text = content_text(_text_blocks(data.get("content")))
            if data.get("status") == "error":
                text = f"[tool error] {text}"
            converted.append(
                {
                    "role": "tool",
                    "tool_call_id": str(data.get("tool_call_id") or ""),
                    "name": data.get("name") if isinstance(data.get("name"), str) else None,
                    "content": text,
                }
            )
        else:
            converted.append(
                {
                    "role": role,
                    "content": content_text(_text_blocks(data.get("content"))),
                    "name": data.get("name"),
                }
            )
    return converted


def _langchain_fields(message: Any) -> tuple[str, Any] | None:
    """(type, fields) of a LangChain message in any dict form, or None for another message."""
    if not isinstance(message, dict):
        return None
    kind = message.get("type")
    if message.get("lc") == 1 and isinstance(message.get("id"), list) and message["id"]:
        name = message["id"][-1]
        if isinstance(name, str) and (name in _ROLES or name in _SKIPPED):
            return name, message.get("kwargs")
        return None
    if isinstance(kind, str) and (kind in _ROLES or kind in _SKIPPED) and "role" not in message:
        return kind, message.get("data", message)
    role = message.get("role")
    if role in ("human", "ai") and "type" not in message:
        return role, message
    return None


def _text_blocks(content: Any) -> Any:
    """Content without tool-use and reasoning blocks (tool calls are read from ``tool_calls``)."""
    if isinstance(content, list):
        return [
            b
            for b in content
            if not (isinstance(b, dict) and b.get("type") in ("tool_use", "reasoning", "thinking"))
        ]
    return content


def _assistant(data: dict[str, Any], number: int) -> dict[str, Any]:
    calls: list[dict[str, Any]] = []
    for field in ("tool_calls", "invalid_tool_calls"):
        raw = data.get(field) or []
        if not isinstance(raw, list):
            raise InputError(
                f"message {number}: '{field}' must be a list of calls (got {json_type_name(raw)})"
            )
        for index, call in enumerate(raw):
            if not isinstance(call, dict):
                raise InputError(
                    f"message {number}: {field}[{index}] is not an object (got "
                    f'{json_type_name(call)}): expected {{"name", "args", "id"}}'
                )
            calls.append(
                {
                    "id": str(call.get("id") or ""),
                    "type": "function",
                    "function": {"name": call.get("name"), "arguments": call.get("args")},
                }
            )
    content = data.get("content")
    if not calls and isinstance(content, list):  # Anthropic-style blocks kept in the content
        calls = [
            {
                "id": str(b.get("id") or ""),
                "type": "function",
                "function": {"name": b.get("name"), "arguments": b.get("input", {})},
            }
            for b in content
            if isinstance(b, dict) and b.get("type") == "tool_use"
        ]
    extra = data.get("additional_kwargs")
    if not calls and isinstance(extra, dict) and isinstance(extra.get("tool_calls"), list):
        calls = extra["tool_calls"]  # the provider's raw OpenAI tool calls
    return {
        "role": "assistant",
        "content": content_text(_text_blocks(content)),
        "tool_calls": calls,
    }
