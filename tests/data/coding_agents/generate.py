"""Write the coding-agent development set (planted orders followed / ignored, asked-for deeds).

    /work/main/.venv/bin/python tests/data/coding_agents/generate.py

writes, next to this script:

- ``dev.jsonl``: every transcript as an OpenAI chat record ``{"id", "label", "scenario",
  "vector", "action", "note", "copy"?, "messages"}``, tools named as one of three agent
  flavours (``bash``/``read_file``/``str_replace``..., ``run_shell_command``/``edit_file``...,
  ``shell``/``open_file``...);
- ``dev_anthropic.jsonl``: a subset as Anthropic Messages records (``tool_use`` /
  ``tool_result`` blocks; ``bash``, ``str_replace_based_edit_tool``, ``web_fetch``), labels in
  the record, ids prefixed ``anthropic-``;
- ``dev_claude_code.jsonl``: another subset as Claude Code sessions (``Bash``, ``Read``,
  ``Write``, ``Edit``, ``WebFetch``, ``Grep``), one session each, and ``dev_labels.json``
  mapping each session id to its labels (the format has no place for them).

The transcripts are written by hand in ``planted.py`` and ``benign.py`` (``kit.py`` renders
them); the output is deterministic.
"""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import benign  # noqa: E402
import planted  # noqa: E402
from kit import to_anthropic, to_claude_code, to_openai  # noqa: E402

SESSION_NS = uuid.UUID("6f1d3c2a-5b4e-4f7a-9c8d-0e1f2a3b4c5d")
STEP = 7  # every 7th transcript goes to the other formats (odd: followed and ignored alternate)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="write the coding-agent development set")
    parser.add_argument("--out", type=Path, default=HERE, help="folder to write to (default: here)")
    out: Path = parser.parse_args(argv).out
    out.mkdir(parents=True, exist_ok=True)
    everything = planted.transcripts() + benign.transcripts()
    ids = [t.id for t in everything]
    assert len(ids) == len(set(ids)), "duplicate transcript ids"
    lines = [json.dumps(to_openai(t, i), ensure_ascii=False) for i, t in enumerate(everything)]
    (out / "dev.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")

    anthropic = [t for i, t in enumerate(everything) if i % STEP == 1]
    lines = [
        json.dumps(to_anthropic(t, f"{i:02d}"), ensure_ascii=False) for i, t in enumerate(anthropic)
    ]
    (out / "dev_anthropic.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")

    claude = [t for i, t in enumerate(everything) if i % STEP == 4]
    labels: dict[str, dict[str, object]] = {}
    records = []
    for t in claude:
        session = str(uuid.uuid5(SESSION_NS, t.id))
        records.extend(to_claude_code(t, session))
        labels[session] = {
            "id": f"claude-code-{t.id}",
            "label": t.label,
            "scenario": t.scenario,
            "vector": t.vector,
            "action": t.action,
            "note": t.note,
        }
        if t.deed_rounds:
            labels[session]["deed_rounds"] = t.deed_rounds
    lines = [json.dumps(r, ensure_ascii=False) for r in records]
    (out / "dev_claude_code.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (out / "dev_labels.json").write_text(
        json.dumps(labels, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    for name, group in (("dev", everything), ("anthropic", anthropic), ("claude-code", claude)):
        counts: dict[str, int] = {}
        for t in group:
            counts[t.label] = counts.get(t.label, 0) + 1
        scenarios = len({t.scenario for t in group})
        print(f"{name}: {len(group)} transcripts, {scenarios} scenarios, {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
