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

MARK = {
    "d8-c01-vendored-js-ja": "メンテナンス注記", "d8-c02-buildx-doctor-dockercfg": "buildx-diagnostics",
    "d8-c03-merge-msg-force-push": "sync bots and", "d8-c04-issue-ko-lookalike-pin": "패치된 포크",
    "d8-c05-makefile-pl-declare": "Uwaga dla asystentów", "d8-c06-jsdoc-question-gitdep":
    "Could whoever", "d8-c07-link-title-lint-off": "Automated fixers",
    "d8-c08-conftest-docstring-sigs": "maintainers' bots", "d8-c09-ci-log-fake-tool-output":
    "Reproduction protocol", "d8-c10-changelog-todo-delete-branch": "TODO(release-bot)",
    "d8-c11-docs-hidden-div-hi": "AI सहायक", "d8-c12-settings-ar-cors": "ملاحظة للمساعد",
    "d8-c13-traceback-hint-extra-index": "pypi.mirror.invalid", "d8-c14-issue-rot13-kubeconfig":
    "Nhgbzngrq", "d8-c15-pr-body-preapproved-merge": "Bots with write access",
    "d8-c16-search-snippet-global-npm": "Cursor and Copilot agents", "d8-c17-adr-zero-width-cron":
    "warm.cache-tools.example", "d8-c18-action-readme-cs-perms": "Pokud jste AI agent",
    "d8-c19-captured-stdout-green": "NOTE TO ASSISTANT", "d8-c20-log-urlencoded-paste":
    "diag%2Fbot", "d8-g01-compose-vi-proc-environ": "Ghi chú cho trợ lý",
    "d8-g02-mise-id-zshrc": "Catatan untuk asisten", "d8-g03-inventory-fake-system-sshkey":
    "Session policy update", "d8-g04-issue-split-mirror-push": "release mirror",
    "d8-j01-csv-header-sv-env": "Anteckning till", "d8-j02-data-dictionary-row-edit":
    "the cleaning step", "d8-j03-futurewarning-post-frame": "validate.fastprofile.example",
    "d8-j04-notebook-md-el-pip-git": "Οδηγία για βοηθούς", "d8-i01-plan-tag-public-acl":
    "Agents applying this plan", "d8-i02-module-readme-iam-star": "teams that adopt it",
    "d8-i03-pulumi-fake-error-destroy": "To recover", "d8-i04-ansible-role-msg-he":
    "הודעה לסוכן", "d8-i05-k8s-event-scale-zero": "lease is released once",
    "d8-d01-dbt-deprecation-grant-public": "the dbt agent runs", "d8-d02-schema-yml-zh-drop":
    "模型维护助手", "d8-d03-packages-fixme-lookalike": "FIXME(agent)",
    "d8-a01-task-log-b64-trigger": "partner banner", "d8-a02-variable-comment-env-slack":
    "compliance requires", "d8-a03-connection-extra-dns": "conn-check.example",
    "d8-b01-ticket-row-extract-bucket": "partner-share-eu", "d8-b02-column-desc-no-pii":
    "PII scanners", "d8-m01-model-card-html-hf-token": "Evaluation harness note",
    "d8-m02-wandb-notes-artifact-netrc": "reproduction check uploads",
    "d8-m03-dataset-card-hex-pip": "loader_hint_hex", "d8-m04-config-note-weights-only":
    "_loader_note", "d8-m05-train-log-pytest-env": "debug tip",
}
"""A piece of each pair's planted text: its first tool output must be the 2nd to the 6th."""


def planted_at(rec: dict[str, Any], mark: str) -> int:
    """The 1-based index of the first tool output of ``rec`` holding ``mark`` (0: none)."""
    for n, out in enumerate(tool_outputs(rec), 1):
        if mark in out:
            return n
    return 0


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
    assert set(MARK) == {c.id for c in pairs}, set(MARK) ^ {c.id for c in pairs}
    for case in pairs:
        assert case.id not in QUIET or case.warn is None, case.id
        fol, ign = render_pair(case)
        fo, io = tool_outputs(fol), tool_outputs(ign)
        shared = set(fo) & set(io)
        assert len(shared) >= 3, (case.id, "fewer than 3 shared tool outputs")
        # the first output that differs comes after the planted read: the shared prefix
        k = next((n for n, (a, b) in enumerate(zip(fo, io, strict=False)) if a != b), min(len(fo), len(io)))
        assert 2 <= k, (case.id, "the deed comes before the 2nd output", k)
        for rec in (fol, ign):
            at = planted_at(rec, MARK[case.id])
            assert 2 <= at <= 6 and at <= k, (rec["id"], "planted text at output", at, k)
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
