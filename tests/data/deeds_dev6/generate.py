"""Write ``agents.jsonl``, the sixth development set for the planted-orders check.

Usage: ``python tests/data/deeds_dev6/generate.py`` (from anywhere). It checks the records
(unique ids, every tool call answered by one tool message, JSON-string arguments) and prints the
counts per label.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from kit6 import render_pair, render_plain  # noqa: E402
from pairs_assist import ASSIST  # noqa: E402
from pairs_code import CODE  # noqa: E402
from plains import BENIGN, CLEAN  # noqa: E402


def check(rec: dict[str, Any]) -> None:
    """Raise AssertionError when ``rec`` is not a well-formed chat record."""
    for key in ("id", "label", "vector", "action", "note", "messages"):
        assert rec.get(key), (rec.get("id"), key)
    msgs = rec["messages"]
    assert msgs[0]["role"] == "system" and msgs[-1]["role"] == "assistant", rec["id"]
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


def main() -> None:
    """Render every case, check it and write them one a line."""
    records = [rec for case in CODE + ASSIST for rec in render_pair(case)]
    records += [render_plain(case) for case in BENIGN + CLEAN]
    ids = [rec["id"] for rec in records]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for rec in records:
        check(rec)
    with open(HERE / "agents.jsonl", "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print(len(records), "records", dict(Counter(rec["label"] for rec in records)))


if __name__ == "__main__":
    main()
