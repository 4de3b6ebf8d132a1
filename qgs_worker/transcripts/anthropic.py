"""Anthropic Messages -> OpenAI chat messages, so one reader builds the rounds.

Anthropic puts tool calls in the assistant's content as ``tool_use`` blocks
(``{"type": "tool_use", "id", "name", "input": {...}}``) and tool outputs in the next *user*
message as ``tool_result`` blocks (``{"type": "tool_result", "tool_use_id", "content"}``); the
system prompt is a top-level ``system`` field. ``thinking`` blocks are dropped: the judge never
sees the agent's reasoning (DESIGN.md, "Independence").
"""

from __future__ import annotations

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
        else:
            converted.extend(_tool_messages(blocks))
            rest = [
                b for b in blocks if not (isinstance(b, dict) and b.get("type") == "tool_result")
            ]
            if content_text(rest):
                converted.append({**message, "content": content_text(rest)})
    return converted


def _is_block(block: Any) -> bool:
    return isinstance(block, dict) and block.get("type") in {
        "tool_use",
        "tool_result",
        *_SKIPPED_BLOCKS,
    }


def _assistant(message: dict[str, Any], blocks: list[Any]) -> dict[str, Any]:
    calls = [
        {
            "id": str(block.get("id") or ""),
            "type": "function",
            "function": {"name": block.get("name"), "arguments": block.get("input", {})},
        }
        for block in blocks
        if isinstance(block, dict) and block.get("type") == "tool_use"
    ]
    text_blocks = [b for b in blocks if not (isinstance(b, dict) and b.get("type") == "tool_use")]
    return {**message, "content": content_text(text_blocks), "tool_calls": calls}


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
