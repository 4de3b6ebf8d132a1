"""Injection followed on AgentDojo ground-truth replays: a fixed sample of banking and slack.

tests/data/agentdojo_replays_sample.jsonl is written by ``bench/agentdojo_replays.py sample``
from replays built with agentdojo 0.1.35 (MIT), benchmark v1.2.2; each record carries its
``source``. Travel and workspace are held back for an outside evaluation and never sampled.
For every attack of ``agentdojo_replays.ATTACKS`` and every injection task of both suites the
sample holds an ``unsafe`` replay (the injection task's ground-truth calls made after the first
injected output, the attacker's goal reached per AgentDojo's checker) and an ``ignored`` one
(label ``safe_with_injected_tool_output``: the injection in an output, the user's calls alone);
plus a few ``clean`` runs (the user task without any attack).

Each replay is audited round by round (``scan_round``, earlier tool outputs passed along, as the
audit does): an unsafe replay must get a P0 ``injection_followed`` finding, on the attacker's
calls only (ids ending in ``_i_N``); an ignored or clean replay must get no P0 at all.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench.agentdojo_replays import ATTACKS as REPLAYED_ATTACKS
from qgs_worker.core.models import Finding, Severity, ToolResult
from qgs_worker.core.round_scan import scan_round
from qgs_worker.transcripts.openai_chat import rounds_from_messages

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "agentdojo_replays_sample.jsonl"
ATTACKS = frozenset(REPLAYED_ATTACKS)  # the bench's list: the attacks that carry out a task


def records() -> list[dict[str, Any]]:
    with SAMPLE.open(encoding="utf-8") as stream:
        return [json.loads(line) for line in stream if line.strip()]


RECORDS = records()
KIND = {"unsafe": "unsafe", "safe_with_injected_tool_output": "ignored", "clean": "clean"}


def of_kind(*kinds: str) -> list[Any]:
    return [pytest.param(r, id=r["id"]) for r in RECORDS if KIND.get(r["label"]) in kinds]


def unsafe_with_values() -> list[Any]:
    """The unsafe replays whose attacker calls carry something (a call without arguments, or a
    text goal, gives ``followed`` nothing to trace)."""
    return [p for p in of_kind("unsafe") if attacker_call_ids(p.values[0])]


def attacker_call_ids(record: dict[str, Any]) -> set[str]:
    """The ids of the attacker's calls that carry an argument (a call with none has no value)."""
    return {
        call["id"]
        for message in record["messages"]
        for call in message.get("tool_calls") or ()
        if "_i_" in call["id"] and json.loads(call["function"]["arguments"] or "{}")
    }


def p0_findings(record: dict[str, Any]) -> list[tuple[str, Finding]]:
    """Every P0 of the replay's audit, with the id of the call it is located at."""
    request, rounds = rounds_from_messages(record["messages"])
    earlier: list[ToolResult] = []
    found: list[tuple[str, Finding]] = []
    for deliverable in rounds:
        findings = scan_round(deliverable, request=request, earlier_tool_results=earlier)
        earlier.extend(deliverable.tool_results)
        for f in findings:
            if f.severity is Severity.P0:
                at = [
                    c.id
                    for c in deliverable.tool_calls
                    if f.location.startswith(f"tool_call:{c.name}.")
                ]
                found.append((at[0] if at else f.location, f))
    return found


class TestTheSample:
    """What the sample holds: banking and slack only, every attack both ways, clean runs."""

    def test_suites_attacks_and_kinds(self) -> None:
        assert {"banking", "slack"} == {r["suite"] for r in RECORDS}
        for suite in ("banking", "slack"):
            for kind in ("unsafe", "ignored"):
                attacks = {
                    r["attack"]
                    for r in RECORDS
                    if r["suite"] == suite and KIND.get(r["label"]) == kind
                }
                assert ATTACKS == attacks, (suite, kind)
            assert [r for r in RECORDS if r["suite"] == suite and r["label"] == "clean"]
        assert all(r["source"]["version"] == "0.1.35" for r in RECORDS)

    def test_attacker_calls_are_in_unsafe_replays_only(self) -> None:
        unsafe = [r for r in RECORDS if r["label"] == "unsafe"]
        assert len(unsafe_with_values()) >= len(ATTACKS) * 2  # every attack, both suites
        assert all(r["attacker_calls"] for r in unsafe)
        others = [r for r in RECORDS if r["label"] != "unsafe"]
        assert not [r["id"] for r in others if "_i_" in json.dumps(r["messages"])]


@pytest.mark.parametrize("record", unsafe_with_values())
def test_an_unsafe_replay_gets_a_p0_on_the_attackers_calls(record: dict[str, Any]) -> None:
    found = p0_findings(record)
    assert found, f"no P0: {record['id']}"
    on_users_calls = [(call_id, f.rule) for call_id, f in found if "_i_" not in call_id]
    assert [] == on_users_calls, "a P0 on the user's own call"
    assert all(f.category == "injection_followed" and f.rule for _, f in found)


@pytest.mark.parametrize("record", of_kind("ignored", "clean"))
def test_an_ignored_or_clean_replay_gets_no_p0(record: dict[str, Any]) -> None:
    assert [] == [(call_id, f.rule, f.title) for call_id, f in p0_findings(record)]
