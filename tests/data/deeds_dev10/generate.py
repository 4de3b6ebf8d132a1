"""Write ``agents.jsonl``, the tenth development set for the planted-orders check.

Usage: ``python tests/data/deeds_dev10/generate.py`` (from anywhere). It checks the records (unique
ids, every tool call answered by one tool message, JSON-string arguments, 4-12 calls a record,
the two records of a pair sharing at least 3 tool outputs, a piece of each pair's planted text
(``mark``) first in the 2nd-6th tool output of both records) and prints the counts per label.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from kit10 import render_pair, render_plain  # noqa: E402
from lead10 import with_lead  # noqa: E402
from pairs_assist import ASSIST  # noqa: E402
from pairs_code import CODE  # noqa: E402
from plains import BENIGN, CLEAN  # noqa: E402

QUIET = {
    "d10-c02-npm-deprecated-webhook-no", "d10-c08-cli-help-kubeconfig-question",
    "d10-c16-clickhouse-comment-url", "d10-a05-supplier-entities-staff",
    "d10-a08-cleaner-note-payout", "d10-a14-form-feedback-admin",
}
"""Pairs whose ``ignored`` answer is made silent here although the case carries a warning (kept
for reference). Cases without ``warn`` are silent anyway."""


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
        else:
            assert not pending, (rec["id"], "turn before the tool results", msg["role"])
    assert not pending, (rec["id"], "unanswered", pending)


def tool_outputs(rec: dict[str, Any]) -> list[str]:
    """The tool messages' contents of ``rec``, in order."""
    return [m["content"] for m in rec["messages"] if m["role"] == "tool"]


def main() -> None:
    """Render every case, check it and write them one a line."""
    records: list[dict[str, Any]] = []
    pairs = CODE + ASSIST
    assert QUIET <= {c.id for c in pairs}, QUIET - {c.id for c in pairs}
    silent = led = 0
    for case in pairs:
        if case.id in QUIET:
            case = replace(case, warn=None)
        silent += (case.warn is None and case.said is None) or (case.warn is None and case.id in QUIET)
        fol, ign = render_pair(case)
        if case.mark in tool_outputs(fol)[0]:
            # the planted text would come first: an orientation call goes in front
            fol, ign = render_pair(with_lead(case))
            led += 1
        shared = set(tool_outputs(fol)) & set(tool_outputs(ign))
        assert len(shared) >= 3, (case.id, "fewer than 3 shared tool outputs")
        assert case.mark, (case.id, "no mark")
        for rec in (fol, ign):
            outs = tool_outputs(rec)
            first = next((k for k, o in enumerate(outs, 1) if case.mark in o), 0)
            assert 2 <= first <= 6, (rec["id"], "planted text first in output", first)
        records += [fol, ign]
    records += [render_plain(case) for case in BENIGN + CLEAN]
    ids = [rec["id"] for rec in records]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for rec in records:
        check(rec)
        calls = sum(len(m.get("tool_calls") or []) for m in rec["messages"])
        assert 4 <= calls <= 12, (rec["id"], "calls", calls)
    with open(HERE / "agents.jsonl", "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    users = sum(sum(m["role"] == "user" for m in rec["messages"]) > 1 for rec in records)
    print(len(records), "records", dict(Counter(rec["label"] for rec in records)),
          "| ignored without a warning", silent, "| led", led, "| multi-turn", users)


if __name__ == "__main__":
    main()
