"""Anthropic Messages -> OpenAI chat messages, so one reader builds the rounds.

Anthropic puts tool calls in the assistant's content as ``tool_use`` blocks
(``{"type": "tool_use", "id", "name", "input": {...}}``) and tool outputs in the next *user*
message as ``tool_result`` blocks (``{"type": "tool_result", "tool_use_id", "content"}``); the
system prompt is a top-level ``system`` field. ``thinking`` blocks are dropped: the judge never
sees the agent's reasoning (DESIGN.md, "Independence"). Tools the API runs itself
(``server_tool_use``: web search and fetch, code execution; ``mcp_tool_use``) are calls of the
round too, and their results, which the API puts in the same assistant message
(``web_search_tool_result``...), are tool outputs the next round is checked against.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from qgs_worker.transcripts.openai_chat import content_text

__all__ = ["to_openai_messages"]

_SKIPPED_BLOCKS = {"thinking", "redacted_thinking"}


def to_openai_messages(messages: Sequence[Any], *, system: Any = None) -> list[Any]:
    """Rewrite Anthropic-form messages as OpenAI chat messages; others pass through unchanged.

    Args:
        messages: The messages, oldest first, in either form (they may be mixed).
        system: The record's top-level ``system`` (a string or a list of text blocks), if any;
            it becomes a leading system message.

    Returns:
        A new list: each assistant message with ``tool_use`` blocks gets ``tool_calls`` (with
        ``arguments`` as an object, so ``raw_arguments`` stays None); each ``tool_result`` block
        becomes a ``tool`` message, followed by a user message with the remaining text, if any.
        Items that are not objects are passed on for the reader to report.
    """
    converted: list[Any] = []
    system_text = content_text(system)
    if system_text:
        converted.append({"role": "system", "content": system_text})
    for message in messages:
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list) or not any(_is_block(b) for b in content):
            converted.append(message)
            continue
        role = message.get("role")
        blocks = [
            b for b in content if not (isinstance(b, dict) and b.get("type") in _SKIPPED_BLOCKS)
        ]
        if role == "assistant":
            converted.append(_assistant(message, blocks))
            converted.extend(_server_results(blocks))
        else:
            converted.extend(_tool_messages(blocks))
            rest = [
                b for b in blocks if not (isinstance(b, dict) and b.get("type") == "tool_result")
            ]
            if content_text(rest):
                converted.append({**message, "content": content_text(rest)})
    return converted


_CALLS = {"tool_use", "server_tool_use", "mcp_tool_use"}
"""Blocks that call a tool: the client's, and those the API runs itself (web search and fetch,
code execution, MCP connectors): each is a call the round made, audited like any other."""


def _server_result(block: Any) -> bool:
    """A result the API put in the assistant's own message (``web_search_tool_result``...)."""
    kind = block.get("type") if isinstance(block, dict) else None
    return isinstance(kind, str) and kind.endswith("_tool_result") and kind != "tool_result"


def _is_block(block: Any) -> bool:
    return isinstance(block, dict) and (
        block.get("type") in {"tool_result", *_CALLS, *_SKIPPED_BLOCKS} or _server_result(block)
    )


def _assistant(message: dict[str, Any], blocks: list[Any]) -> dict[str, Any]:
    calls = [
        {
            "id": str(block.get("id") or ""),
            "type": "function",
            "function": {"name": block.get("name"), "arguments": block.get("input", {})},
        }
        for block in blocks
        if isinstance(block, dict) and block.get("type") in _CALLS
    ]
    text_blocks = [
        b
        for b in blocks
        if not (isinstance(b, dict) and (b.get("type") in _CALLS or _server_result(b)))
    ]
    return {**message, "content": content_text(text_blocks), "tool_calls": calls}


def _server_results(blocks: list[Any]) -> list[dict[str, Any]]:
    """The server tools' results as tool messages: what the agent read, for the next round.

    A search result gives its titles and URLs (its page text is encrypted); a fetch result its
    document's text; anything else its text parts, or its JSON.
    """
    results: list[dict[str, Any]] = []
    for block in blocks:
        if not _server_result(block):
            continue
        results.append(
            {
                "role": "tool",
                "tool_call_id": str(block.get("tool_use_id") or ""),
                "content": _server_text(block.get("content")),
            }
        )
    return results


def _server_text(content: Any) -> str:
    if isinstance(content, list):  # web search: [{type: web_search_result, title, url}, ...]
        hits = [
            f"{item.get('title', '')} {item.get('url', '')}".strip()
            for item in content
            if isinstance(item, dict) and ("url" in item or "title" in item)
        ]
        return "\n".join(hits) if hits else content_text(content)
    if isinstance(content, dict):  # web fetch: {url, content: {source: {data}}}; errors
        document = content.get("content")
        source = document.get("source") if isinstance(document, dict) else None
        data = source.get("data") if isinstance(source, dict) else None
        if isinstance(data, str):
            return data
        return json.dumps(content, ensure_ascii=False, sort_keys=True)
    return content_text(content)


def _tool_messages(blocks: list[Any]) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    for block in blocks:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            text = content_text(block.get("content"))
            if block.get("is_error") is True:
                text = f"[tool error] {text}"
            results.append(
                {
                    "role": "tool",
                    "tool_call_id": str(block.get("tool_use_id") or ""),
                    "content": text,
                }
            )
    return results
