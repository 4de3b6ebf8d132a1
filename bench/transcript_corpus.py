"""Real-shaped transcripts with distinct content, for the audit benches.

The shapes are real agent runs: the shared corpus's transcripts (AgentDojo replays with injected
tool outputs, BFCL multi-turn runs with executed tools, Gemini bash runs, Mind2Web steps; about
15 KB each) and the project's ``tasks/`` transcripts (every task type, revision loops, incidents),
in OpenAI chat form. Copy ``i`` of a transcript has its own id and a tag of its own in the user's
request and in every assistant message, so no two copies share a round's content (no stored
review is reused across copies, and every detector pass reads new text).

    python bench/transcript_corpus.py OUT_DIR 10000     # JSONL files of 500 transcripts each
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
PER_FILE = 500
"""Transcripts per generated JSONL file."""


def originals() -> list[dict[str, Any]]:
    """The transcripts copies are made of: the shared corpus's, then ``tasks/``'s (in file order)."""
    records: list[dict[str, Any]] = []
    paths = sorted(CORPUS.glob("d_transcripts_*.jsonl")) if CORPUS.is_dir() else []
    paths += sorted((ROOT / "tasks").glob("*.jsonl"))
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                records.append(
                    {k: record[k] for k in ("id", "messages", "tools", "model") if k in record}
                )
    single = ROOT / "tasks" / "06_critical_wire_transfer.json"
    if single.exists():
        record = json.loads(single.read_text(encoding="utf-8"))
        records.append({k: record[k] for k in ("id", "messages", "tools", "model") if k in record})
    return records


def distinct_copy(record: dict[str, Any], index: int) -> dict[str, Any]:
    """Copy ``index`` of a transcript: its own id, a tag in the request and each assistant text."""
    out = copy.deepcopy(record)
    tag = f"[run {index:06d}]"
    out["id"] = f"{record.get('id', 'transcript')}#{index}"
    first_user = True
    for message in out["messages"]:
        role, content = message.get("role"), message.get("content")
        if role == "user" and first_user and isinstance(content, str):
            message["content"] = f"{content} {tag}"
            first_user = False
        elif role == "assistant" and isinstance(content, str) and content:
            message["content"] = f"{content}\n{tag}"
    return out


def generate(folder: Path, count: int) -> tuple[int, int]:
    """Write ``count`` distinct transcripts as JSONL files of ``PER_FILE`` under ``folder``.

    Returns:
        ``(transcripts, bytes)`` written.
    """
    folder.mkdir(parents=True, exist_ok=True)
    base = originals()
    if not base:
        raise RuntimeError(f"no transcripts to copy: neither {CORPUS} nor tasks/ was found")
    size = 0
    for start in range(0, count, PER_FILE):
        lines = [
            json.dumps(distinct_copy(base[i % len(base)], i), ensure_ascii=False)
            for i in range(start, min(count, start + PER_FILE))
        ]
        text = "\n".join(lines) + "\n"
        (folder / f"transcripts_{start // PER_FILE:04d}.jsonl").write_text(text, encoding="utf-8")
        size += len(text.encode())
    return count, size


if __name__ == "__main__":
    n, b = generate(Path(sys.argv[1]), int(sys.argv[2]))
    print(f"{n} transcripts, {b / 1e6:.1f} MB in {sys.argv[1]}")
