"""``qgs diff``: what changed between two audit runs, task by task.

Tasks of two runs are matched by their transcript (the content key ``tx-...`` that
``transcripts.transcript_key`` gives: the same record in any file, at any line); each side is a
task entry of the JSON report (``report.task_entry``). The diff document::

    {"run_a": {"id", "started_at", "fingerprint"}, "run_b": {...},
     "settings_changed": ["policy_file.sha256", ...],
     "counts": {"matched": n, "changed": n, "decision": n, "severity": n, "score": n,
                "termination": n, "only_in_a": n, "only_in_b": n},
     "transitions": {"pass -> revise": n, ...},
     "changed": [{"transcript_key", "transcript_id", "source_file", "line", "task_a", "task_b",
                  "changes": ["decision", "severity", "score", "termination"], "decision_a",
                  "decision_b", "severity_a", "severity_b", "score_a", "score_b",
                  "termination_a", "termination_b", "reason_b"}],
     "only_in_a": [{"transcript_key", "transcript_id", "source_file", "line", "task"}],
     "only_in_b": [...]}

A task's ``decision`` is the kind of its latest decision (null: none yet), its ``severity`` the
worst severity among its findings (``P0`` ... ``P4``; null: no finding), its ``score`` the
critic's score of the decided round (null: not reviewed), its ``termination`` the termination
rule its latest decision names (``converged``, ``max_revisions_reached``...; null: none): a gate
setting such as ``QGS_GATE__MAX_REVISIONS`` can change why a task ended and leave its decision's
kind as it was (break test: such a rerun showed "0 changed"). ``changed`` lists, in run B's
order, every matched task where one of the four differs; ``counts.decision`` etc. count each
kind of change (a task can count in several).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from qgs_worker.core.models import Severity

__all__ = ["DIFF_FIELDS", "diff_runs", "render_diff_html", "task_outcome"]

DIFF_FIELDS = ("decision", "severity", "score", "termination")
"""What ``qgs diff`` compares, in the order it shows them."""

_RANK = {s.value: i for i, s in enumerate(Severity)}  # P0 first: the lowest rank is the worst


def task_outcome(entry: dict[str, Any]) -> dict[str, Any]:
    """``{"decision", "severity", "score", "termination", "reason"}`` of a report task entry."""
    decision = entry.get("decision") or {}
    severities = [f["severity"] for f in entry.get("findings", ())]
    worst = min(severities, key=lambda s: _RANK.get(s, len(_RANK))) if severities else None
    number = decision.get("round")
    score = next((r["score"] for r in entry.get("rounds", ()) if r["number"] == number), None)
    if score is None and number is None and entry.get("scores"):
        score = entry["scores"][-1]
    return {
        "decision": decision.get("kind"),
        "severity": worst,
        "score": score,
        "termination": decision.get("termination"),
        "reason": decision.get("termination") or decision.get("reason") or "",
    }


def _where(key: str, entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "transcript_key": key,
        "transcript_id": entry.get("transcript_id"),
        "source_file": entry.get("source_file"),
        "line": entry.get("line"),
    }


def diff_runs(
    a: Sequence[tuple[str, dict[str, Any]]],
    b: Sequence[tuple[str, dict[str, Any]]],
) -> dict[str, Any]:
    """Compare two runs' tasks.

    Args:
        a: Run A's tasks as ``(transcript_key, task entry)`` pairs, in run order.
        b: Run B's, the same way.

    Returns:
        The diff document without ``run_a``/``run_b``/``settings_changed`` (the caller adds
        what it knows of the runs): ``counts``, ``transitions``, ``changed``, ``only_in_a``,
        ``only_in_b``.
    """
    by_key_a = dict(a)
    keys_b = {key for key, _ in b}
    changed: list[dict[str, Any]] = []
    counts: Counter[str] = Counter()
    transitions: Counter[str] = Counter()
    for key, entry_b in b:
        entry_a = by_key_a.get(key)
        if entry_a is None:
            continue
        counts["matched"] += 1
        was, now = task_outcome(entry_a), task_outcome(entry_b)
        changes = [f for f in DIFF_FIELDS if was[f] != now[f]]
        if not changes:
            continue
        counts["changed"] += 1
        counts.update(changes)
        if "decision" in changes:
            transitions[f"{was['decision'] or 'none'} -> {now['decision'] or 'none'}"] += 1
        changed.append(
            {
                **_where(key, entry_b),
                "task_a": entry_a["id"],
                "task_b": entry_b["id"],
                "changes": changes,
                **{f"{f}_a": was[f] for f in DIFF_FIELDS},
                **{f"{f}_b": now[f] for f in DIFF_FIELDS},
                "reason_b": now["reason"],
            }
        )
    only_a = [{**_where(k, e), "task": e["id"]} for k, e in a if k not in keys_b]
    only_b = [{**_where(k, e), "task": e["id"]} for k, e in b if k not in by_key_a]
    return {
        "counts": {
            "matched": counts["matched"],
            "changed": counts["changed"],
            **{f: counts[f] for f in DIFF_FIELDS},
            "only_in_a": len(only_a),
            "only_in_b": len(only_b),
        },
        "transitions": dict(sorted(transitions.items())),
        "changed": changed,
        "only_in_a": only_a,
        "only_in_b": only_b,
    }


def render_diff_html(diff: dict[str, Any]) -> str:
    """The diff document as one self-contained HTML page (Jinja2, every value escaped)."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    env = Environment(
        loader=PackageLoader("qgs_worker.reports", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
    )
    return env.get_template("diff.html.j2").render(diff=diff, fields=DIFF_FIELDS)
