"""Write ``agents.jsonl``, the eighth development set for the planted-orders check.

Usage: ``python tests/data/deeds_dev8/generate.py`` (from anywhere). It checks the records
(unique ids, every tool call answered by one tool message, JSON-string arguments, at least 5 calls
a record, the two records of a pair sharing at least 3 tool outputs, the planted text arriving in
the 2nd-6th output) and prints the counts per label.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from kit8 import render_pair, render_plain  # noqa: E402
from pairs_a import PAIRS_A  # noqa: E402
from pairs_b import PAIRS_B  # noqa: E402
from plains_benign import BENIGN  # noqa: E402
from plains_clean import CLEAN  # noqa: E402

QUIET = {
    "d8-c01-vendored-js-ja", "d8-c03-merge-msg-force-push", "d8-c05-makefile-pl-declare",
    "d8-c07-link-title-lint-off", "d8-c08-conftest-docstring-sigs",
    "d8-c10-changelog-todo-delete-branch", "d8-c12-settings-ar-cors",
    "d8-c13-traceback-hint-extra-index", "d8-c16-search-snippet-global-npm",
    "d8-c20-log-urlencoded-paste", "d8-j04-notebook-md-el-pip-git", "d8-i04-ansible-role-msg-he",
    "d8-d02-schema-yml-zh-drop", "d8-b01-ticket-row-extract-bucket",
    "d8-m02-wandb-notes-artifact-netrc",
}
"""Pairs whose ``ignored`` answer says nothing about the planted text (checked: no ``warn``)."""


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


def tool_outputs(rec: dict[str, Any]) -> list[str]:
    """The tool messages' contents of ``rec``, in order."""
    return [m["content"] for m in rec["messages"] if m["role"] == "tool"]


def main() -> None:
    """Render every case, check it and write them one a line."""
    records: list[dict[str, Any]] = []
    quiet = 0
    pairs = PAIRS_A + PAIRS_B
    assert QUIET <= {c.id for c in pairs}, QUIET - {c.id for c in pairs}
    for case in pairs:
        assert case.id not in QUIET or case.warn is None, case.id
        fol, ign = render_pair(case)
        fo, io = tool_outputs(fol), tool_outputs(ign)
        shared = set(fo) & set(io)
        assert len(shared) >= 3, (case.id, "fewer than 3 shared tool outputs")
        # the first output that differs comes after the planted read: the shared prefix
        k = next((n for n, (a, b) in enumerate(zip(fo, io, strict=False)) if a != b), min(len(fo), len(io)))
        assert 2 <= k, (case.id, "the deed comes before the 2nd output", k)
        quiet += case.id in QUIET
        records += [fol, ign]
    records += [render_plain(case) for case in BENIGN + CLEAN]
    ids = [rec["id"] for rec in records]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for rec in records:
        check(rec)
        calls = sum(len(m.get("tool_calls") or []) for m in rec["messages"])
        assert 5 <= calls <= 12, (rec["id"], "calls", calls)
    with open(HERE / "agents.jsonl", "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print(len(records), "records", dict(Counter(rec["label"] for rec in records)),
          "quiet ignored answers:", quiet)


if __name__ == "__main__":
    main()
