"""Write ``agents.jsonl``, the ninth development set for the planted-orders check (general
assistants only).

Usage: ``python tests/data/deeds_dev9/generate.py`` (from anywhere). It checks the records
(unique ids, every tool call answered by one tool message, JSON-string arguments, at least 5
calls, the two records of a pair sharing at least 3 tool outputs) and prints the counts per label.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from kit9 import render_pair, render_plain  # noqa: E402
from pairs_a import PAIRS_A  # noqa: E402
from pairs_b import PAIRS_B  # noqa: E402
from pairs_c import PAIRS_C  # noqa: E402
from plains_benign import BENIGN  # noqa: E402
from plains_clean import CLEAN  # noqa: E402

SILENT = {
    "d9-p01-outlook-todo-forward", "d9-p05-dropbox-b64-folder-member",
    "d9-p11-wallet-split-note-bot", "d9-p13-subs-mail-plan-change-it",
    "d9-p14-subs-hidden-html-cancel-sv", "d9-p16-advisory-rebook-described",
    "d9-p18-ticket-refund-pl", "d9-p23-resume-zero-width-advance",
    "d9-p30-esign-described-sign", "d9-p32-vault-import-note-share-ko",
    "d9-p36-library-alt-text-donate", "d9-p37-grocery-link-title-phone",
    "d9-p40-plumber-snippet-recommend-es", "d9-p44-fake-tool-output-delete-alerts",
}
"""Pairs whose ``ignored`` answer says nothing about the planted text (the others mention or
warn about it)."""


def check(rec: dict[str, Any]) -> None:
    """Raise AssertionError when ``rec`` is not a well-formed chat record."""
    for key in ("id", "label", "vector", "action", "note", "messages"):
        assert rec.get(key), (rec.get("id"), key)
    msgs = rec["messages"]
    assert msgs[0]["role"] == "system" and msgs[1]["role"] == "user", rec["id"]
    assert msgs[-1]["role"] == "assistant", rec["id"]
    assert not msgs[-1].get("tool_calls") and msgs[-1]["content"], rec["id"]
    pending: set[str] = set()
    for msg in msgs:
        if msg["role"] == "assistant" and msg.get("tool_calls"):
            assert not pending, (rec["id"], "unanswered", pending)
            for call in msg["tool_calls"]:
                assert call["id"] and call["type"] == "function", rec["id"]
                assert isinstance(call["function"]["arguments"], str), rec["id"]
                json.loads(call["function"]["arguments"])
                pending.add(call["id"])
        elif msg["role"] == "tool":
            assert msg["tool_call_id"] in pending, (rec["id"], "stray tool message")
            pending.discard(msg["tool_call_id"])
    assert not pending, (rec["id"], "unanswered", pending)


def tool_outputs(rec: dict[str, Any]) -> list[str]:
    """The tool messages' contents of ``rec``, in order."""
    return [m["content"] for m in rec["messages"] if m["role"] == "tool"]


def calls(rec: dict[str, Any]) -> int:
    """How many tool calls ``rec`` makes."""
    return sum(len(m.get("tool_calls") or []) for m in rec["messages"])


def main() -> None:
    """Render every case, check it and write them one a line."""
    records: list[dict[str, Any]] = []
    pairs = PAIRS_A + PAIRS_B + PAIRS_C
    assert SILENT <= {c.id for c in pairs}, SILENT - {c.id for c in pairs}
    for case in pairs:
        assert case.id not in SILENT or case.warn is None, case.id
        fol, ign = render_pair(case)
        shared = set(tool_outputs(fol)) & set(tool_outputs(ign))
        assert len(shared) >= 3, (case.id, "fewer than 3 shared tool outputs")
        assert tool_outputs(fol) != tool_outputs(ign) or case.said, case.id
        records += [fol, ign]
    records += [render_plain(case) for case in BENIGN + CLEAN]
    ids = [rec["id"] for rec in records]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for rec in records:
        check(rec)
        assert 5 <= calls(rec) <= 14, (rec["id"], "calls", calls(rec))
    with open(HERE / "agents.jsonl", "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    n = [calls(r) for r in records]
    tools = {c["function"]["name"] for r in records for m in r["messages"]
             for c in m.get("tool_calls") or []}
    print(len(records), "records", dict(Counter(rec["label"] for rec in records)),
          f"calls {min(n)}-{max(n)} (mean {sum(n) / len(n):.1f}), {len(tools)} tool names")


if __name__ == "__main__":
    main()
