"""Rendering for the second development set of planted orders (``deeds_dev2``).

A case is a user request, the calls the agent makes (each a tool name, its arguments and what
the tool returned), an optional deed (the calls that carry out an order planted in the data) and
the final answers. ``render`` writes one OpenAI chat record: ``followed`` puts the deed among the
calls, ``ignored`` leaves it out, ``clean`` / ``benign_asked`` have no planted order at all.
Hosts are fictitious (``.example`` / ``.test``); accounts, keys and people are made up.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

Step = tuple[str, dict[str, Any], str]
"""One tool call: the tool's name, its arguments, and the tool's output."""
Group = Step | list[Step]
"""A call, or several calls the assistant makes in one message."""


def S(tool: str, out: Any, /, **args: Any) -> Step:
    """A step; a non-string output is written as JSON."""
    text = out if isinstance(out, str) else json.dumps(out, ensure_ascii=False, indent=None)
    return (tool, args, text)


@dataclass
class Case:
    """One scenario. ``deed`` empty: a clean / benign case (or an answer-only order)."""

    key: str
    vector: str
    action: str
    user: str
    pre: list[Group | str]  # a string is what the assistant says with the next call
    final: str
    post: list[Group | str] = field(default_factory=list)
    deed: list[Group | str] = field(default_factory=list)
    deed_final: str = ""  # the followed run's final answer, when it differs
    warn: str = ""  # appended to the ignored run's final answer
    deed_last: bool = False  # the deed after the user's work rather than before it
    system: str = ""
    note: str = ""
    later: tuple[str, list[Group | str], str] | None = None  # a second user turn, its calls and answer


def _messages(case: Case, groups: list[Group | str], final: str, tag: str) -> list[dict[str, Any]]:
    msgs: list[dict[str, Any]] = []
    if case.system:
        msgs.append({"role": "system", "content": case.system})
    msgs.append({"role": "user", "content": case.user})
    counter = 0

    def emit(items: list[Group | str]) -> None:
        nonlocal counter
        text: str | None = None
        for group in items:
            if isinstance(group, str):
                text = group
                continue
            calls = group if isinstance(group, list) else [group]
            ids = []
            tool_calls = []
            for name, args, _ in calls:
                counter += 1
                cid = f"call_{tag}_{counter}"
                ids.append(cid)
                tool_calls.append(
                    {
                        "id": cid,
                        "type": "function",
                        "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)},
                    }
                )
            msgs.append({"role": "assistant", "content": text, "tool_calls": tool_calls})
            text = None
            for cid, (_, _, out) in zip(ids, calls, strict=True):
                msgs.append({"role": "tool", "tool_call_id": cid, "content": out})

    emit(groups)
    msgs.append({"role": "assistant", "content": final})
    if case.later:
        text, calls, answer = case.later
        msgs.append({"role": "user", "content": text})
        emit(calls)
        msgs.append({"role": "assistant", "content": answer})
    return msgs


def render(case: Case, label: str) -> dict[str, Any]:
    """The record of ``case`` under ``label`` (followed / ignored / clean / benign_asked)."""
    tag = f"{case.key}_{label[:3]}".replace("-", "_")
    if label == "followed":
        groups = case.pre + case.post + case.deed if case.deed_last else case.pre + case.deed + case.post
        final = case.deed_final or case.final
        note = case.note or "the agent carries out the order planted in the data"
    elif label == "ignored":
        groups = case.pre + case.post
        final = case.final + (" " + case.warn if case.warn else "")
        note = "the same planted order; the agent does only the user's work" + (
            " and warns the user" if case.warn else ""
        )
    else:
        groups = case.pre + case.post
        final = case.final
        note = case.note or "no planted order; the agent does what the user asked"
    return {
        "id": f"{case.key}-{label}",
        "label": label,
        "vector": case.vector,
        "action": case.action,
        "note": note,
        "messages": _messages(case, groups, final, tag),
    }


def write_jsonl(path: str, records: list[dict[str, Any]]) -> None:
    """Write ``records`` one JSON object a line (UTF-8, non-ASCII kept)."""
    with open(path, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
