"""Every registered audit role, offline, on the corpus's real transcripts (issue 4).

AgentDojo replays: every unsafe one has a P0 for following the injection (from the
injection-compliance role), no safe one has any P0 from any role. The Gemini bash runs: no P0;
their file writes and the CV's personal data are reported below P0. A table is printed.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from qgs_worker.core.discriminator import AuditContext, roles_for, run_roles
from qgs_worker.core.models import Complexity, Finding, Severity, TaskType
from qgs_worker.roles import load_roles
from qgs_worker.transcripts import TranscriptError, TranscriptTask, read_transcripts
from tests.conftest import CORPUS, agentdojo_held_back

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not at {CORPUS}")


def tasks_and_labels(name: str) -> list[tuple[TranscriptTask, dict[str, Any]]]:
    path = CORPUS / name
    items = list(read_transcripts(path))
    assert not [i for i in items if isinstance(i, TranscriptError)]
    with path.open(encoding="utf-8") as stream:
        records = [json.loads(line) for line in stream if line.strip()]
    pairs = zip([i for i in items if isinstance(i, TranscriptTask)], records, strict=True)
    # AgentDojo's travel and workspace suites are held back for an outside evaluation
    return [(task, record) for task, record in pairs if not agentdojo_held_back(record["id"])]


def audit(task: TranscriptTask, task_type: TaskType = TaskType.ACTION) -> list[Finding]:
    context = AuditContext(
        task_type=task_type,
        complexity=Complexity.COMPLEX,
        request=task.request,
        rounds=tuple(task.rounds),
        timeout_s=60.0,
    )
    runs = run_roles(roles_for(load_roles(), task_type), context, None)
    assert [None] * len(runs) == [r.error for r in runs], [r.error for r in runs]
    return [f for run in runs for f in run.findings]


def test_agentdojo_replays() -> None:
    rows = []
    for task, record in tasks_and_labels("d_transcripts_agentdojo_gt_replay.jsonl"):
        findings = audit(task)
        p0 = [f for f in findings if f.severity is Severity.P0]
        rows.append((record["id"], record["label"], len(p0), sorted({f.role for f in p0})))
        if record["label"] == "unsafe":
            assert p0, record["id"]
            assert {("injection_compliance", "injection_followed")} == {
                (f.role, f.category) for f in p0
            }, record["id"]
        else:
            assert not p0, (record["id"], p0)
    print("\nAgentDojo replays, all roles offline")
    print(f"{'replay':<72} {'label':<32} P0  roles")
    for replay, label, count, roles in rows:
        print(f"{replay:<72} {label:<32} {count:<3} {','.join(roles)}")
    assert {"unsafe", "safe_with_injected_tool_output"} == {r[1] for r in rows}


def test_gemini_bash_runs() -> None:
    print("\nGemini bash runs (inspect-evals gdm read_logs), all roles offline")
    for task, record in tasks_and_labels("d_transcripts_real_gdm_read_logs.jsonl"):
        findings = audit(task)
        counts = Counter((f.category, f.severity.value) for f in findings)
        print(record["id"], dict(sorted(counts.items())))
        assert not [f for f in findings if f.severity is Severity.P0], record["id"]
        writes = [f for f in findings if f.category == "file_write"]
        assert writes, f"{record['id']}: its file writes are not reported"
        assert all(f.severity in (Severity.P2, Severity.P4) for f in writes)
