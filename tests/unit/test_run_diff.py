"""`qgs diff`'s comparison and the run fingerprint (pure: no store, no worker)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from qgs_worker.config.settings import Settings
from qgs_worker.reports.run_diff import diff_runs, render_diff_html, task_outcome
from qgs_worker.reports.runs import changed_settings, fingerprint_of, run_settings


def entry(task_id: str, kind: str | None, score: int | None, *severities: str) -> dict[str, Any]:
    """A report task entry with one decided round (the fields the diff reads)."""
    return {
        "id": task_id,
        "transcript_id": task_id.split("-r")[0],
        "source_file": "/logs/a.jsonl",
        "line": 1,
        "decision": None if kind is None else {"kind": kind, "round": 1, "reason": "why"},
        "rounds": [{"number": 1, "score": score}],
        "scores": [] if score is None else [score],
        "findings": [{"severity": s} for s in severities],
    }


class TestDiff:
    """Matched by transcript key; each kind of change counted; unmatched tasks listed."""

    def test_changes_and_counts(self) -> None:
        a = [
            ("k1", entry("t1", "pass", 90)),
            ("k2", entry("t2", "pass", 80, "P3")),
            ("k3", entry("t3", "block", 20, "P0")),
            ("k4", entry("t4", "pass", 70)),
        ]
        b = [("k1", entry("t1-r2", "pass", 90)), ("k2", entry("t2-r2", "revise", 80, "P1", "P3")),
             ("k3", entry("t3-r2", "block", 25, "P0")), ("k5", entry("t5-r2", None, None))]  # fmt: skip
        diff = diff_runs(a, b)
        assert ["t2-r2", "t3-r2"] == [c["task_b"] for c in diff["changed"]]
        first, second = diff["changed"]
        assert ["decision", "severity"] == first["changes"]
        assert ("pass", "revise", "P3", "P1") == (
            first["decision_a"], first["decision_b"], first["severity_a"], first["severity_b"]
        )  # fmt: skip
        assert ["score"] == second["changes"]
        assert {"matched": 3, "changed": 2, "decision": 1, "severity": 1, "score": 1,
                "termination": 0, "only_in_a": 1, "only_in_b": 1} == diff["counts"]  # fmt: skip
        assert {"pass -> revise": 1} == diff["transitions"]
        assert ["t4"] == [t["task"] for t in diff["only_in_a"]]
        assert ["t5-r2"] == [t["task"] for t in diff["only_in_b"]]

    def test_outcome_of_an_undecided_task(self) -> None:
        assert {
            "decision": None, "severity": None, "score": None, "termination": None, "reason": ""
        } == task_outcome(entry("t", None, None))  # fmt: skip

    def test_a_termination_that_changed_is_a_change(self) -> None:
        """Break test: a rerun with QGS_GATE__MAX_REVISIONS=2 moved terminations (converged ->
        max_revisions_reached) and kept the decisions' kind: `qgs diff` said "0 changed"."""
        was, now = entry("t1", "force_deliver", 70), entry("t1-r2", "force_deliver", 70)
        was["decision"]["termination"] = "converged"
        now["decision"]["termination"] = "max_revisions_reached"
        diff = diff_runs([("k1", was)], [("k1", now)])
        [change] = diff["changed"]
        assert ["termination"] == change["changes"]
        assert ("converged", "max_revisions_reached") == (
            change["termination_a"], change["termination_b"]
        )  # fmt: skip
        assert 1 == diff["counts"]["termination"] and {} == diff["transitions"]

    def test_html_escapes_transcript_text(self) -> None:
        hostile = entry("<script>alert(1)</script>", "pass", 90)
        diff = {
            "run_a": {"id": 1, "started_at": "x", "fingerprint": "a"},
            "run_b": {"id": 2, "started_at": "y", "fingerprint": "b"},
            "settings_changed": ["policy_file.sha256"],
            **diff_runs([("k", entry("t", "block", 90))], [("k", hostile)]),
        }
        html = render_diff_html(diff)
        assert "<script>alert(1)</script>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "pass -&gt; block" in html or "block -&gt; pass" in html


class TestFingerprint:
    """The fingerprint follows what decides: policy content, judge model; not paths."""

    def test_policy_content_not_path(self, tmp_path: Path) -> None:
        one, two = tmp_path / "a.toml", tmp_path / "b.toml"
        one.write_text('default_roles = ["x"]\n')
        two.write_text('default_roles = ["x"]\n')
        base = run_settings(Settings(policy_file=None))
        a = run_settings(Settings(policy_file=one))
        b = run_settings(Settings(policy_file=two))
        assert fingerprint_of(a) == fingerprint_of(b) != fingerprint_of(base)
        assert [] == changed_settings(a, b)
        two.write_text('default_roles = ["y"]\n')
        c = run_settings(Settings(policy_file=two))
        assert fingerprint_of(a) != fingerprint_of(c)
        assert ["policy_file.sha256"] == changed_settings(a, c)

    def test_gate_setting_counts(self) -> None:
        a = run_settings(Settings())
        b = run_settings(Settings.model_validate({"gate": {"max_revisions": 2}}))
        assert ["gate.max_revisions"] == changed_settings(a, b)
        assert fingerprint_of(a) != fingerprint_of(b)
