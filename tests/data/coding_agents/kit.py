"""The small vocabulary the coding-agent transcripts are written in, and the three renderers.

A transcript is written once, format-free (``Transcript``: a user request, assistant turns with
abstract tool calls and their outputs, a final answer), then rendered as an OpenAI chat record,
an Anthropic Messages record or a Claude Code session. Each renderer names the tools as that
kind of agent does (``bash`` / ``run_shell_command`` / ``Bash``; ``read_file`` / ``Read``...).
Written by hand for QGS's tests; no benchmark's text is copied.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Call:
    """One abstract tool call: ``kind`` is sh, read, write, edit, ls, fetch or search."""

    kind: str
    args: dict[str, str]
    out: str


@dataclass(frozen=True)
class Turn:
    """One assistant message: optional text, then its tool calls (answered in order)."""

    text: str
    calls: tuple[Call, ...]
    user_after: str = ""  # a new user message after this turn's tool results (multi-turn)


@dataclass
class Transcript:
    id: str
    label: str  # followed | ignored | benign_asked
    scenario: str
    vector: str
    action: str
    note: str
    user: str
    turns: list[Turn]
    final: str
    copy: str = ""  # verbatim | paraphrase (followed only)
    system: str = ""
    deed_rounds: list[int] = field(default_factory=list)  # followed: the rounds carrying it out


def sh(command: str, out: str = "") -> Call:
    return Call("sh", {"command": command}, out)


def read(path: str, out: str) -> Call:
    return Call("read", {"path": path}, out)


def write(path: str, content: str, out: str = "") -> Call:
    return Call("write", {"path": path, "content": content}, out)


def edit(path: str, old: str, new: str, out: str = "") -> Call:
    return Call("edit", {"path": path, "old": old, "new": new}, out)


def ls(path: str, out: str) -> Call:
    return Call("ls", {"path": path}, out)


def fetch(url: str, out: str) -> Call:
    return Call("fetch", {"url": url}, out)


def search(query: str, out: str) -> Call:
    return Call("search", {"query": query}, out)


def turn(text: str, *calls: Call, user_after: str = "") -> Turn:
    return Turn(text, calls, user_after)


# --- OpenAI chat ---------------------------------------------------------------------------------
# Three agent flavours: the tool names and argument names differ as they do between agents.
FLAVOURS: tuple[dict[str, tuple[str, dict[str, str]]], ...] = (
    {
        "sh": ("bash", {"command": "command"}),
        "read": ("read_file", {"path": "path"}),
        "write": ("write_file", {"path": "path", "content": "content"}),
        "edit": ("str_replace", {"path": "path", "old": "old_str", "new": "new_str"}),
        "ls": ("list_files", {"path": "path"}),
        "fetch": ("web_fetch", {"url": "url"}),
        "search": ("search", {"query": "query"}),
    },
    {
        "sh": ("run_shell_command", {"command": "command"}),
        "read": ("read_file", {"path": "file_path"}),
        "write": ("write_file", {"path": "file_path", "content": "content"}),
        "edit": ("edit_file", {"path": "file_path", "old": "old_text", "new": "new_text"}),
        "ls": ("list_files", {"path": "directory"}),
        "fetch": ("fetch_url", {"url": "url"}),
        "search": ("search_code", {"query": "pattern"}),
    },
    {
        "sh": ("shell", {"command": "cmd"}),
        "read": ("open_file", {"path": "path"}),
        "write": ("create_file", {"path": "path", "content": "text"}),
        "edit": ("edit_file", {"path": "path", "old": "find", "new": "replace"}),
        "ls": ("list_dir", {"path": "path"}),
        "fetch": ("web_fetch", {"url": "url"}),
        "search": ("grep", {"query": "pattern"}),
    },
)

SYSTEMS = (
    "You are a coding agent working in the user's repository. Use the tools to inspect and "
    "change files and to run commands. Keep changes minimal and explain what you did.",
    "You are an autonomous software engineering assistant with shell access to a checkout of "
    "the user's project. Complete the user's task, then summarise your changes.",
    "",
)


def _out(call: Call) -> str:
    if call.out:
        return call.out
    if call.kind == "write":
        return f"Wrote {len(call.args['content'].encode())} bytes to {call.args['path']}"
    if call.kind == "edit":
        return f"Edited {call.args['path']}: 1 replacement"
    return ""


def to_openai(t: Transcript, flavour: int) -> dict[str, Any]:
    names = FLAVOURS[flavour % len(FLAVOURS)]
    system = t.system or SYSTEMS[flavour % len(SYSTEMS)]
    messages: list[dict[str, Any]] = []
    if system:
        messages.append({"role": "system", "content": system})
    messages.append({"role": "user", "content": t.user})
    n = 0
    for tr in t.turns:
        calls, results = [], []
        for call in tr.calls:
            n += 1
            cid = f"call_{t.id.replace('-', '_')}_{n}"
            name, argnames = names[call.kind]
            args = {argnames[k]: v for k, v in call.args.items()}
            calls.append(
                {
                    "id": cid,
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)},
                }
            )
            results.append({"role": "tool", "tool_call_id": cid, "content": _out(call)})
        messages.append({"role": "assistant", "content": tr.text or None, "tool_calls": calls})
        messages.extend(results)
        if tr.user_after:
            messages.append({"role": "user", "content": tr.user_after})
    messages.append({"role": "assistant", "content": t.final})
    return {**_labels(t), "messages": messages}


def _labels(t: Transcript) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": t.id,
        "label": t.label,
        "scenario": t.scenario,
        "vector": t.vector,
        "action": t.action,
        "note": t.note,
    }
    if t.copy:
        record["copy"] = t.copy
    if t.deed_rounds:
        record["deed_rounds"] = t.deed_rounds
    return record


# --- Anthropic Messages --------------------------------------------------------------------------
def _anthropic_call(call: Call) -> tuple[str, dict[str, str]]:
    a = call.args
    if call.kind == "sh":
        return "bash", {"command": a["command"]}
    if call.kind == "read":
        return "str_replace_based_edit_tool", {"command": "view", "path": a["path"]}
    if call.kind == "write":
        return "str_replace_based_edit_tool", {
            "command": "create",
            "path": a["path"],
            "file_text": a["content"],
        }
    if call.kind == "edit":
        return "str_replace_based_edit_tool", {
            "command": "str_replace",
            "path": a["path"],
            "old_str": a["old"],
            "new_str": a["new"],
        }
    if call.kind == "ls":
        return "bash", {"command": f"ls -la {a['path']}"}
    if call.kind == "fetch":
        return "web_fetch", {"url": a["url"]}
    return "bash", {"command": f"grep -rn {json.dumps(a['query'])} ."}


def to_anthropic(t: Transcript, prefix: str) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": t.user}]
    n = 0
    for tr in t.turns:
        blocks: list[dict[str, Any]] = [{"type": "text", "text": tr.text}] if tr.text else []
        results: list[dict[str, Any]] = []
        for call in tr.calls:
            n += 1
            tid = f"toolu_{prefix}{n:02d}"
            name, args = _anthropic_call(call)
            blocks.append({"type": "tool_use", "id": tid, "name": name, "input": args})
            results.append(
                {"type": "tool_result", "tool_use_id": tid, "content": _out(call) or "(no output)"}
            )
        messages.append({"role": "assistant", "content": blocks})
        if tr.user_after:
            results.append({"type": "text", "text": tr.user_after})
        messages.append({"role": "user", "content": results})
    messages.append({"role": "assistant", "content": [{"type": "text", "text": t.final}]})
    record = {**_labels(t), "id": f"anthropic-{t.id}"}
    record["model"] = "claude-sonnet-4-5"
    record["system"] = t.system or SYSTEMS[0]
    record["messages"] = messages
    return record


# --- Claude Code session -------------------------------------------------------------------------
def _claude_call(call: Call) -> tuple[str, dict[str, str]]:
    a = call.args
    if call.kind == "sh":
        return "Bash", {"command": a["command"], "description": _describe(a["command"])}
    if call.kind == "read":
        return "Read", {"file_path": _abs(a["path"])}
    if call.kind == "write":
        return "Write", {"file_path": _abs(a["path"]), "content": a["content"]}
    if call.kind == "edit":
        return "Edit", {
            "file_path": _abs(a["path"]),
            "old_string": a["old"],
            "new_string": a["new"],
        }
    if call.kind == "ls":
        return "Bash", {"command": f"ls -la {a['path']}", "description": "List files"}
    if call.kind == "fetch":
        return "WebFetch", {"url": a["url"], "prompt": "Return the page's full text"}
    return "Grep", {"pattern": a["query"], "path": ".", "output_mode": "content"}


ROOT = "/home/dev/project"


def _abs(path: str) -> str:
    return path if path.startswith(("/", "~")) else f"{ROOT}/{path}"


def _describe(command: str) -> str:
    return "Run " + command.split()[0] if command.split() else "Run command"


def _numbered(text: str) -> str:
    return "\n".join(f"{i:>6}\t{line}" for i, line in enumerate(text.split("\n"), start=1))


def to_claude_code(t: Transcript, session: str) -> list[dict[str, Any]]:
    """The session's records; ``session`` is its id (a UUID)."""
    records: list[dict[str, Any]] = []
    parent: str | None = None
    clock = [0]
    ns = uuid.UUID(session)

    def base(kind: str) -> dict[str, Any]:
        nonlocal parent
        clock[0] += 1
        uid = str(uuid.uuid5(ns, f"{kind}-{clock[0]}"))
        record = {
            "parentUuid": parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": ROOT,
            "sessionId": session,
            "version": "2.0.61",
            "gitBranch": "main",
            "type": kind,
            "uuid": uid,
            "timestamp": f"2026-11-20T10:{clock[0] // 60:02d}:{clock[0] % 60:02d}.000Z",
        }
        parent = uid
        return record

    def assistant(mid: str, block: dict[str, Any], stop: str | None) -> None:
        record = base("assistant")
        record["message"] = {
            "model": "claude-sonnet-4-5-20250929",
            "id": mid,
            "type": "message",
            "role": "assistant",
            "content": [block],
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 100, "output_tokens": 20},
        }
        record["requestId"] = f"req_{mid[4:]}"
        records.append(record)

    first = base("user")
    first["message"] = {"role": "user", "content": t.user}
    records.append(first)
    n = 0
    for k, tr in enumerate(t.turns):
        mid = f"msg_{ns.hex[:8]}{k:03d}"
        if tr.text:
            assistant(mid, {"type": "text", "text": tr.text}, None)
        ids = []
        for call in tr.calls:
            n += 1
            tid = f"toolu_{ns.hex[:6]}{n:03d}"
            name, args = _claude_call(call)
            assistant(mid, {"type": "tool_use", "id": tid, "name": name, "input": args}, "tool_use")
            ids.append((tid, call))
        for tid, call in ids:
            out = _out(call) or "(no output)"
            if call.kind == "read":
                out = _numbered(out)
            record = base("user")
            record["message"] = {
                "role": "user",
                "content": [{"tool_use_id": tid, "type": "tool_result", "content": out}],
            }
            record["toolUseResult"] = {"stdout": out, "stderr": "", "interrupted": False}
            records.append(record)
        if tr.user_after:
            record = base("user")
            record["message"] = {"role": "user", "content": tr.user_after}
            records.append(record)
    assistant(f"msg_{ns.hex[:8]}end", {"type": "text", "text": t.final}, "end_turn")
    return records
