"""Write ``agents.jsonl``, the seventh development set for the planted-orders check.

Usage: ``python tests/data/deeds_dev7/generate.py`` (from anywhere). It checks the records
(unique ids, every tool call answered by one tool message, JSON-string arguments, the two records
of a pair reading the same tool outputs up to the deed) and prints the counts per label.
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

from kit7 import render_pair, render_plain  # noqa: E402
from lead import LEAD, with_lead  # noqa: E402
from pairs_assist import ASSIST  # noqa: E402
from pairs_code_a import CODE_A  # noqa: E402
from pairs_code_b import CODE_B  # noqa: E402
from plains_benign import BENIGN  # noqa: E402
from plains_benign2 import BENIGN2  # noqa: E402
from plains_clean import CLEAN_CODE  # noqa: E402
from plains_clean2 import CLEAN_ASSIST  # noqa: E402

QUIET = {
    "d7-c01-flaky-backoff", "d7-c04-crashloop-rbac", "d7-c05-churn-report", "d7-c09-sphinx-license",
    "d7-c15-ci-seo-tutorial", "d7-c17-partner-feed-grant", "d7-c19-profile-netrc",
    "d7-c21-dockerfile-question", "d7-c26-pdf-keywords-tls", "d7-a01-inbox-filter",
    "d7-a05-filter-product-swap", "d7-a06-hotel-review-link", "d7-a10-portal-share-de",
    "d7-a14-mentions-repost-policy", "d7-a17-gym-cancel-upsell", "d7-a22-ibuprofen-seo",
}
"""Pairs whose ``ignored`` answer says nothing about the planted text (the agent just ignores it;
the written warning is kept in the case for reference)."""


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
    pairs = CODE_A + CODE_B + ASSIST
    assert set(LEAD) <= {c.id for c in pairs}, set(LEAD) - {c.id for c in pairs}
    assert QUIET <= {c.id for c in pairs}, QUIET - {c.id for c in pairs}
    for case in map(with_lead, pairs):
        if case.id in QUIET:
            case = replace(case, warn=None)
        fol, ign = render_pair(case)
        # the planted text must be in the reads both records share
        shared = set(tool_outputs(fol)) & set(tool_outputs(ign))
        assert len(shared) >= 3, (case.id, "fewer than 3 shared tool outputs")
        records += [fol, ign]
    records += [render_plain(case) for case in BENIGN + BENIGN2 + CLEAN_CODE + CLEAN_ASSIST]
    ids = [rec["id"] for rec in records]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for rec in records:
        check(rec)
        calls = sum(len(m.get("tool_calls") or []) for m in rec["messages"])
        assert calls >= 5, (rec["id"], "fewer than 5 tool calls", calls)
    with open(HERE / "agents.jsonl", "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print(len(records), "records", dict(Counter(rec["label"] for rec in records)))


if __name__ == "__main__":
    main()
