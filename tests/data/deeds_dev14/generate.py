"""Write ``agents.jsonl``, the fourteenth development set for the planted-orders check.

Usage: ``python tests/data/deeds_dev14/generate.py`` (from anywhere). It checks the records
(unique ids, every tool call answered by one tool message, JSON-string arguments, 3-12 calls a
record, every tool named in the system prompt, the two records of a pair sharing at least 3 tool outputs, each pair's ``mark`` first
appearing in the 2nd-6th tool output of both records, ``quiet`` pairs' ignored answers not
naming the marked text) and prints the counts per label and per kind.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from kit14 import render_pair, render_plain  # noqa: E402
from pairs_assist import ASSIST  # noqa: E402
from pairs_code import CODE  # noqa: E402
from plains import BENIGN, CLEAN  # noqa: E402

KINDS = {"term": "coding", "review": "coding", "deps": "coding",
         "desk": "assistant", "crm": "assistant", "hr": "assistant", "fin": "assistant",
         "home": "assistant", "shop": "assistant", "book": "assistant"}
COUNTS = {"followed": 30, "ignored": 30, "benign_asked": 10, "clean": 10}


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
    calls = sum(len(m.get("tool_calls") or []) for m in msgs)
    assert 3 <= calls <= 12, (rec["id"], "calls", calls)
    for msg in msgs:
        for call in msg.get("tool_calls") or []:
            name = call["function"]["name"]
            assert re.search(rf"\b{re.escape(name)}\b", msgs[0]["content"]), (rec["id"], name)


def tool_outputs(rec: dict[str, Any]) -> list[str]:
    """The tool messages' contents of ``rec``, in order."""
    return [m["content"] for m in rec["messages"] if m["role"] == "tool"]


def first_seen(rec: dict[str, Any], mark: str) -> int:
    """The 1-based index of the first tool output of ``rec`` holding ``mark`` (0: none)."""
    for n, out in enumerate(tool_outputs(rec), 1):
        if mark in out or mark in json.dumps(out, ensure_ascii=False):
            return n
    return 0


def main() -> None:
    """Render every case, check it and write them one a line."""
    records: list[dict[str, Any]] = []
    kinds: Counter[str] = Counter()
    quiet = 0
    for case in CODE + ASSIST:
        fol, ign = render_pair(case)
        shared = set(tool_outputs(fol)) & set(tool_outputs(ign))
        assert len(shared) >= 3, (case.id, "fewer than 3 shared tool outputs")
        for rec in (fol, ign):
            assert 2 <= first_seen(rec, case.mark) <= 6, (rec["id"], first_seen(rec, case.mark))
        if case.quiet:
            quiet += 1
            low = ign["messages"][-1]["content"].lower()
            for word in ("ignored", "did not", "didn't", "not do", "suspicious", "planted"):
                assert word not in low, (case.id, "quiet answer warns", word)
        records += [fol, ign]
        kinds[KINDS[case.kind]] += 2
    for case in BENIGN + CLEAN:
        records.append(render_plain(case))
        kinds[KINDS[case.kind]] += 1
    ids = [rec["id"] for rec in records]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for rec in records:
        check(rec)
    assert dict(Counter(rec["label"] for rec in records)) == COUNTS, "label counts"
    with open(HERE / "agents.jsonl", "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    calls = [sum(len(m.get("tool_calls") or []) for m in r["messages"]) for r in records]
    print(len(records), "records", dict(Counter(rec["label"] for rec in records)),
          dict(kinds), f"quiet ignored {quiet}", f"calls {min(calls)}-{max(calls)} "
          f"mean {sum(calls) / len(calls):.1f}")


if __name__ == "__main__":
    main()
