"""Claude Code session logs and Agent SDK message streams (JSONL) -> one transcript per session.

Claude Code writes ``~/.claude/projects/<project>/<session-uuid>.jsonl``, one record a line;
``claude -p --output-format stream-json`` and the Agent SDK stream the same records. No official
schema exists; the shape read is the one public notes describe (e.g. the ``docs/`` of the
claude-code-visualizer, claude-parser and claude-code-chat repositories on GitHub)::

    {"type": "summary" | "file-history-snapshot" | "system" | "result" | ..., ...}   skipped
    {"type": "user", "sessionId", "uuid", "parentUuid", "isSidechain", "isMeta"?,
     "message": {"role": "user", "content": "text" | [text / tool_result / image blocks]}}
    {"type": "assistant", "sessionId", ..., "message": {"id": "msg_...", "model", "role":
     "assistant", "content": [text / thinking / tool_use blocks]}}

``message`` is an Anthropic Messages message, so ``transcripts.anthropic`` rewrites it. Claude
Code writes one API message as several records (one per content block) with the same
``message.id``: they are joined into one assistant message, one round. Sidechain records (a
subagent's own run) and ``isMeta`` notices are skipped. Records are grouped by ``sessionId``
(``session_id`` in stream-json). A line that cannot be read fails its whole session: a session
audited without one of its records could hide the very tool call that matters.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qgs_worker.errors import json_type_name
from qgs_worker.transcripts import anthropic
from qgs_worker.transcripts.records import (
    TranscriptError,
    TranscriptTask,
    chat_task,
    iter_json_lines,
)

__all__ = ["read_session_file"]

_MESSAGE_TYPES = {"user", "assistant"}
_NO_SESSION = "(no session id)"


@dataclass
class _Session:
    """The records of one session as read: its first line, messages and what went wrong."""

    first_line: int
    messages: list[dict[str, Any]] = field(default_factory=list)
    records: list[Any] = field(default_factory=list)
    model: str | None = None
    problems: list[str] = field(default_factory=list)
    last_message_id: str | None = None


def read_session_file(path: Path) -> Iterator[TranscriptTask | TranscriptError]:
    """Read the sessions of a Claude Code / Agent SDK JSONL file, one transcript each.

    Args:
        path: The JSONL file.

    Returns:
        One task per session, in order of each session's first line (its ``line``; its
        ``transcript_id`` the session id), or a ``TranscriptError`` naming the first bad line
        of a session that could not be read whole.
    """
    source = str(path)
    sessions: dict[str, _Session] = {}
    current: _Session | None = None
    orphans: list[TranscriptError] = []  # bad lines before any session
    for item in iter_json_lines(path):
        if isinstance(item, TranscriptError):
            if current is None:
                orphans.append(item)
            else:
                current.problems.append(item.message)
            continue
        number, record = item
        if not isinstance(record, dict):
            problem = f"line {number}: a record must be an object (got {json_type_name(record)})"
            if current is None:
                orphans.append(TranscriptError(source_file=source, line=number, message=problem))
            else:
                current.problems.append(problem)
            continue
        sid = record.get("sessionId") or record.get("session_id")
        if not (isinstance(sid, str) and sid) and "type" not in record:
            # Another format's record (a chat transcript) was skipped without a word: named.
            keys = ", ".join(sorted(map(str, record))[:5]) or "none"
            orphans.append(TranscriptError(source_file=source, line=number, message=(
                f"line {number}: not a Claude Code record (no 'type' or session id; its keys: "
                f"{keys}): keep one format per file, or pass --input-format for the file's own"
            )))  # fmt: skip
            continue
        if not (isinstance(sid, str) and sid):
            if record.get("type") not in _MESSAGE_TYPES:
                continue  # a summary or snapshot line of no session: nothing to audit
            sid = _NO_SESSION
        if sid not in sessions:
            sessions[sid] = _Session(first_line=number)
        current = sessions[sid]
        _add(current, record, number)
    if orphans and sessions:  # a bad first line belongs to the session after it
        first = next(iter(sessions.values()))
        first.problems[:0] = [o.message for o in orphans]
        orphans = []
    yield from orphans
    for sid, session in sessions.items():
        yield _task(sid, session, source)


def _add(session: _Session, record: dict[str, Any], number: int) -> None:
    kind = record.get("type")
    if kind not in _MESSAGE_TYPES or record.get("isSidechain") is True or record.get("isMeta"):
        return
    message = record.get("message")
    if not isinstance(message, dict):
        session.problems.append(
            f"line {number}: a {kind} record's 'message' must be an object "
            f"(got {json_type_name(message)})"
        )
        return
    session.records.append(record)
    content = message.get("content")
    if kind == "assistant":
        model = message.get("model")
        if session.model is None and isinstance(model, str) and model != "<synthetic>":
            session.model = model
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        mid = message.get("id") if isinstance(message.get("id"), str) else None
        previous = session.messages[-1] if session.messages else None
        if mid and mid == session.last_message_id and previous and previous["role"] == "assistant":
            previous["content"] = [*previous["content"], *blocks]  # the same API message, split
            return
        session.last_message_id = mid
        session.messages.append({"role": "assistant", "content": list(blocks)})
        return
    session.last_message_id = None
    session.messages.append({"role": "user", "content": content})


def _task(sid: str, session: _Session, source: str) -> TranscriptTask | TranscriptError:
    where = f"session {sid}: "
    if session.problems:
        # file:line names the bad line itself (each problem starts "line N: "), not the
        # session's first line (break test)
        found = re.match(r"line (\d+):", session.problems[0])
        return TranscriptError(
            source_file=source,
            line=int(found.group(1)) if found else session.first_line,
            message=f"{where}{session.problems[0]}; the session is not audited without it "
            "(a truncated last line: audit the file again once the session has ended)",
        )
    return chat_task(
        anthropic.to_openai_messages(session.messages),
        key_record={"session": sid, "records": session.records},
        source=source,
        line=session.first_line,
        where=where,
        transcript_id=None if sid == _NO_SESSION else sid,
        agent_model=session.model,
    )
